package loss

import "math"

// The passes as they were before pass.go (one loop over rows, left-to-right
// dot products, math.Exp and math.Log1p through scalar and deriv): the
// reference of TestPassMatchesReference and the "before" of BenchmarkPass.

func (s *Set) refLinearize(z, grad, lin []float64) float64 {
	d := s.d
	clear(grad)
	lin = lin[:3*s.n]
	tot := 0.0
	for i := 0; i < s.n; i++ {
		row := s.x[i*d : (i+1)*d]
		v := dot(z, row)
		val, c := s.refValDeriv(v, s.y[i])
		lin[3*i], lin[3*i+1], lin[3*i+2] = v, val, c
		tot += val
		for j, a := range row {
			grad[j] += c * a
		}
	}
	inv := 1 / float64(s.n)
	for j := range grad {
		grad[j] *= inv
	}
	return tot * inv
}

func (s *Set) refBregman(x, lin []float64) float64 {
	d := s.d
	lin = lin[:3*s.n]
	tot := 0.0
	for i := 0; i < s.n; i++ {
		u := dot(x, s.x[i*d:(i+1)*d])
		v, fv, c := lin[3*i], lin[3*i+1], lin[3*i+2]
		f := 0.0
		if s.kind == Logistic {
			f = refSoftplus(-s.y[i] * u)
		} else {
			f = s.scalar(u, s.y[i])
		}
		b := f - fv - c*(u-v)
		if b > 0 {
			tot += b
		} else if b != b {
			return math.NaN()
		}
	}
	return tot / float64(s.n)
}

func (s *Set) refValDeriv(v, y float64) (val, deriv float64) {
	if s.kind == Logistic {
		t := y * v
		if t > 0 {
			e := math.Exp(-t)
			return math.Log1p(e), -y * e / (1 + e)
		}
		e := math.Exp(t)
		return math.Log1p(e) - t, -y / (1 + e)
	}
	return s.scalar(v, y), s.deriv(v, y)
}

func refSoftplus(v float64) float64 {
	if v > 0 {
		return v + math.Log1p(math.Exp(-v))
	}
	return math.Log1p(math.Exp(v))
}
