package loss

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestMinimizeInBallCertificate: for every loss, no point of the ball beats
// the returned value by more than the certified gap (checked at 3000 random
// points and at the returned θ), the iterate stays in the ball, and the gap
// is small after enough iterations.
func TestMinimizeInBallCertificate(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	const n, d, radius = 60, 3, 1.5
	x := make([][]float64, n)
	y := make([]float64, n)
	for i := range x {
		x[i] = []float64{r.NormFloat64() * 0.5, r.NormFloat64() * 0.5, r.NormFloat64() * 0.5}
		if x[i][0]+0.3*x[i][1] > 0 {
			y[i] = 1
		} else {
			y[i] = -1
		}
	}
	for _, k := range []Kind{L1, L2Dist, LAD, Quantile, Hinge, Logistic, Huber} {
		yy := y
		if k == L1 || k == L2Dist {
			yy = nil
		}
		set, err := New(k, x, yy, Params{})
		if err != nil {
			t.Fatal(k, err)
		}
		m := set.MinimizeInBall(radius, 3000)
		if nrm := math.Sqrt(dot(m.Theta, m.Theta)); nrm > radius*(1+1e-12) {
			t.Errorf("%v: θ outside the ball (%g)", k, nrm)
		}
		if got := set.Mean(m.Theta); math.Abs(got-m.Loss) > 1e-12 {
			t.Errorf("%v: Loss %g but L(θ) = %g", k, m.Loss, got)
		}
		if m.Gap > 0.05 {
			t.Errorf("%v: certified gap %g after 3000 iterations", k, m.Gap)
		}
		for j := 0; j < 3000; j++ {
			p := []float64{r.NormFloat64(), r.NormFloat64(), r.NormFloat64()}
			scale := radius * math.Pow(r.Float64(), 1.0/3) / math.Sqrt(dot(p, p))
			for c := range p {
				p[c] *= scale
			}
			if v := set.Mean(p); v < m.Loss-m.Gap-1e-12 {
				t.Fatalf("%v: L(%v) = %g below the certified lower bound %g", k, p, v, m.Loss-m.Gap)
			}
		}
	}
}
