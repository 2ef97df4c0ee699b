package loss

import (
	"fmt"
	"math"

	"github.com/dpsample/dpsample/core/checks"
)

// Set is a dataset bound to one loss: n records stored contiguously (row i of
// x is x[i*d:(i+1)*d], already clipped), the targets y where the loss needs
// them, and the public parameters. It satisfies sampler.Potential.
type Set struct {
	kind    Kind
	n, d    int
	x       []float64
	y       []float64
	p       Params
	g       float64
	clipped int
	scale   float64 // 1/√d for l1, 1 otherwise
}

// New validates and stores the data for loss k. x is n×d (n ≥ 1, d ≥ 1, equal
// row lengths, finite). y is required (length n, finite) for the supervised
// losses and must be empty otherwise; for hinge and logistic every y_i must
// be −1 or +1, and 0 is accepted as −1 so that 0/1 labels work. Feature rows
// longer than p.Clip are scaled to length p.Clip (counted by Clipped). Errors
// name the offending field ("x[3][1]", "y", "y[7]", "clip", …).
func New(k Kind, x [][]float64, y []float64, p Params) (*Set, error) {
	if k >= numKinds {
		return nil, checks.Errorf("loss", "a known loss")
	}
	p, err := p.withDefaults()
	if err != nil {
		return nil, err
	}
	n, d, err := checks.Matrix("x", x)
	if err != nil {
		return nil, err
	}
	g, _ := Lipschitz(k, p)
	s := &Set{kind: k, n: n, d: d, p: p, g: g, scale: 1, x: make([]float64, n*d)}
	if k == L1 {
		s.scale = 1 / math.Sqrt(float64(d))
	}
	if k.Location() {
		for i, row := range x {
			copy(s.x[i*d:(i+1)*d], row)
		}
	}
	if k.Supervised() {
		if len(y) == 0 {
			return nil, checks.Errorf("y", "an array of %d targets: loss %q needs y", n, k.String())
		}
		if err := checks.Vector("y", y, n); err != nil {
			return nil, err
		}
		s.y = make([]float64, n)
		copy(s.y, y)
		if k.Classification() {
			for i, v := range s.y {
				switch v {
				case 1:
				case -1, 0:
					s.y[i] = -1
				default:
					return nil, &checks.Error{Field: fmt.Sprintf("y[%d]", i), Rule: "a class label −1 or +1 (or 0/1)", Got: checks.Fmt(v)}
				}
			}
		}
	} else if len(y) != 0 {
		return nil, checks.Errorf("y", "absent: loss %q takes no targets", k.String())
	}
	if !k.Location() {
		for i := 0; i < n; i++ {
			if clipRow(s.x[i*d:(i+1)*d], x[i], p.Clip) {
				s.clipped++
			}
		}
	}
	return s, nil
}

// clipRow writes src shrunk to norm ≤ clip into dst (len(dst) = len(src))
// and reports whether it had to shrink it (else dst is src unchanged). The
// bound holds for the norm as Norm recomputes it, exactly, not up to
// rounding: scaling by f = clip/‖src‖ rounds each entry, and Norm of the
// result can exceed clip by up to ≈ d/2 ulp (13 / 40 / 102 ulp measured at
// d = 100 / 1,000 / 10,000, issue 30); then f is lowered by 2^(k−52)·f at
// try k = 0, 1, … (from src each time) until it holds, which changes the
// row by at most a few times that error. So a shard holding stored rows can
// check ‖x_i‖ ≤ clip with no tolerance (NewShard) and accept every row New
// stored, whatever the record.
//
// The scaling runs on u = 2^(−e)·src, where 2^(e−1) ≤ max|srcⱼ| < 2^e:
// dstⱼ = uⱼ·(clip/‖u‖), with ‖u‖ ∈ [1/2, √d). Multiplying by a power of two
// is exact and Norm(u) = 2^(−e)·Norm(src), so where the factor and the
// products are normal numbers this is dstⱼ = srcⱼ·(clip/‖src‖) bit for bit,
// as before issue 41; but a huge finite row, whose ‖src‖ overflows to +Inf
// (‖[MaxFloat64, MaxFloat64]‖ = √2·MaxFloat64), keeps its direction — the
// factor clip/‖src‖ was 0 and stored it as zeros — and a factor that would
// be subnormal (clip/‖src‖ < 2^(−1022), a row beyond 10^308 clipped to 1)
// loses no bits.
func clipRow(dst, src []float64, clip float64) bool {
	copy(dst, src)
	nrm := Norm(src)
	if nrm <= clip {
		return false
	}
	e := scaleExp(src)
	u := make([]float64, len(src))
	for j, v := range src {
		u[j] = math.Ldexp(v, -e)
	}
	f := clip / Norm(u)
	if math.IsInf(f, 1) { // clip/‖u‖ < 2^e ≤ 2^1024 rounded up; lowered below
		f = math.MaxFloat64
	}
	for k := 0; ; k++ {
		for j, v := range u {
			dst[j] = v * f
		}
		if Norm(dst) <= clip {
			return true
		}
		f -= math.Ldexp(f, k-52)
	}
}

// Norm is the Euclidean norm ‖v‖ = √(Σ vⱼ²), computed as m·√(Σ (vⱼ/m)²)
// with m = maxⱼ |vⱼ| (scaled by the largest magnitude first, as math.Hypot
// and LAPACK's dnrm2 do), so that no square overflows or underflows: Norm is
// finite whenever ‖v‖ ≤ MaxFloat64, and +Inf only when ‖v‖ itself overflows
// — Norm([MaxFloat64, MaxFloat64]) = √2·MaxFloat64 = +Inf, which is why
// clipRow scales such a row by a power of two before dividing by its norm.
// Its relative error is a few ulp for short vectors (≈ d/2 ulp at most for
// long ones); Norm of an empty or zero vector is 0.
func Norm(v []float64) float64 {
	mx := 0.0
	for _, a := range v {
		mx = math.Max(mx, math.Abs(a))
	}
	if mx == 0 {
		return 0
	}
	s := 0.0
	for _, a := range v {
		a /= mx
		s += a * a
	}
	return mx * math.Sqrt(s)
}

// scaleExp is the e with 2^(e−1) ≤ max|vⱼ| < 2^e (for a finite, nonzero v).
func scaleExp(v []float64) int {
	mx := 0.0
	for _, a := range v {
		mx = math.Max(mx, math.Abs(a))
	}
	_, e := math.Frexp(mx)
	return e
}

// Kind returns the loss.
func (s *Set) Kind() Kind { return s.kind }

// N returns the number of records n.
func (s *Set) N() int { return s.n }

// Dim returns the dimension d of θ.
func (s *Set) Dim() int { return s.d }

// G returns the Lipschitz constant from the public bounds (see Lipschitz).
func (s *Set) G() float64 { return s.g }

// Params returns the public parameters with defaults filled in.
func (s *Set) Params() Params { return s.p }

// Clipped returns how many feature rows were scaled down to the clip bound.
// It is a statistic of the data: not private.
func (s *Set) Clipped() int { return s.clipped }

// Row returns the stored (clipped) record i; do not modify.
func (s *Set) Row(i int) []float64 { return s.x[i*s.d : (i+1)*s.d] }

// Target returns y_i (±1 for classification), or 0 for unsupervised losses.
func (s *Set) Target(i int) float64 {
	if s.y == nil {
		return 0
	}
	return s.y[i]
}

// Data returns the stored n×d row-major data; do not modify.
func (s *Set) Data() []float64 { return s.x }

func dot(a, b []float64) float64 {
	t := 0.0
	for j, v := range a {
		t += v * b[j]
	}
	return t
}

// softplus returns log(1 + e^v) = max(v, 0) + log1p(e^{−|v|}) without
// overflow, with the exp and log1p of fastmath.go.
func softplus(v float64) float64 {
	l := log1p01(expFast(-math.Abs(v)))
	if v > 0 {
		return v + l
	}
	return l
}

// scalar returns the loss as a function of the margin/residual m = ⟨θ,x⟩ for
// the linear-model losses.
func (s *Set) scalar(m, y float64) float64 {
	switch s.kind {
	case LAD:
		return math.Abs(m - y)
	case Quantile:
		r := y - m
		return math.Max(s.p.Tau*r, (s.p.Tau-1)*r)
	case Hinge:
		return math.Max(0, 1-y*m)
	case Logistic:
		return softplus(-y * m)
	case Huber:
		return huber(m-y, s.p.Huber)
	case Linear:
		return m
	case SmoothHinge:
		return smoothHinge(1-y*m, s.p.Huber)
	case SmoothQuantile:
		return smoothQuantile(y-m, s.p.Tau, s.p.Huber)
	}
	return math.NaN()
}

// Value returns ℓ(θ; z_i). θ must have length Dim(); it is not modified.
func (s *Set) Value(i int, theta []float64) float64 {
	row := s.x[i*s.d : (i+1)*s.d]
	switch s.kind {
	case L1:
		t := 0.0
		for j, v := range row {
			t += math.Abs(theta[j] - v)
		}
		return t * s.scale
	case L2Dist:
		t := 0.0
		for j, v := range row {
			e := theta[j] - v
			t += e * e
		}
		return math.Sqrt(t)
	case LinExt:
		return LinearExtension(theta, row, s.p.Ball, s.g)
	}
	y := 0.0
	if s.y != nil {
		y = s.y[i]
	}
	return s.scalar(dot(theta, row), y)
}

// Mean returns L(θ; D) = (1/n)·Σ_i ℓ(θ; z_i). The switch on the loss is
// outside the loop over rows.
func (s *Set) Mean(theta []float64) float64 {
	t := 0.0
	d := s.d
	switch s.kind {
	case L1:
		for i := 0; i < s.n; i++ {
			row := s.x[i*d : (i+1)*d]
			for j, v := range row {
				t += math.Abs(theta[j] - v)
			}
		}
		t *= s.scale
	case L2Dist, LinExt:
		for i := 0; i < s.n; i++ {
			t += s.Value(i, theta)
		}
	case Linear:
		for i := 0; i < s.n; i++ {
			t += dot(theta, s.x[i*d:(i+1)*d])
		}
	case Hinge:
		for i := 0; i < s.n; i++ {
			t += math.Max(0, 1-s.y[i]*dot(theta, s.x[i*d:(i+1)*d]))
		}
	case Logistic:
		for i := 0; i < s.n; i++ {
			t += softplus(-s.y[i] * dot(theta, s.x[i*d:(i+1)*d]))
		}
	default:
		for i := 0; i < s.n; i++ {
			t += s.scalar(dot(theta, s.x[i*d:(i+1)*d]), s.y[i])
		}
	}
	return t / float64(s.n)
}

// Subgradient sets g to a subgradient of L(·; D) at θ (for the non-private
// reference fit only; the mechanism uses values).
func (s *Set) Subgradient(theta, g []float64) {
	clear(g)
	d := s.d
	inv := 1 / float64(s.n)
	for i := 0; i < s.n; i++ {
		row := s.x[i*d : (i+1)*d]
		switch s.kind {
		case L1:
			for j, v := range row {
				switch {
				case theta[j] > v:
					g[j] += s.scale * inv
				case theta[j] < v:
					g[j] -= s.scale * inv
				}
			}
			continue
		case L2Dist:
			nrm := 0.0
			for j, v := range row {
				e := theta[j] - v
				nrm += e * e
			}
			if nrm == 0 {
				continue
			}
			f := inv / math.Sqrt(nrm)
			for j, v := range row {
				g[j] += f * (theta[j] - v)
			}
			continue
		case LinExt:
			linExtGrad(theta, row, s.p.Ball, s.g, g, inv)
			continue
		}
		m := dot(theta, row)
		var c float64 // dℓ/dm
		switch s.kind {
		case LAD:
			c = sign(m - s.y[i])
		case Quantile:
			if s.y[i]-m > 0 {
				c = -s.p.Tau
			} else {
				c = 1 - s.p.Tau
			}
		case Hinge:
			if 1-s.y[i]*m > 0 {
				c = -s.y[i]
			}
		case Linear:
			c = 1
		case Logistic, Huber, SmoothHinge, SmoothQuantile:
			c = s.deriv(m, s.y[i])
		}
		for j, v := range row {
			g[j] += inv * c * v
		}
	}
}

func sign(v float64) float64 {
	switch {
	case v > 0:
		return 1
	case v < 0:
		return -1
	}
	return 0
}
