package exact

import (
	"math"
	"slices"
	"testing"

	"github.com/dpsample/dpsample/core/rng"
	"github.com/dpsample/dpsample/core/stats"
)

// farColumn returns n sorted points: n−1 spread over [−1, 1] and one at far.
func farColumn(n int, far float64) []float64 {
	z := make([]float64, n)
	for i := 0; i < n-1; i++ {
		z[i] = math.Sin(float64(3*i + 1))
	}
	z[n-1] = far
	slices.Sort(z)
	return z
}

// TestL1FarPointLaw (issue 13): a point at 1e16 (and 1e300) must neither hang
// the rejection path (n ≥ 16; on main `level = um + 1` was absorbed and
// l1Reject looped for ever) nor distort the mixture path (n < 16; on main the
// piece weights lost O(a) in log space). For t far below the point,
// a·|t − z| = a·z − a·t, so the law is the same as with the point at any other
// place well above the mass: the reference is L1CDF with the point moved to
// ±1e3 (numerically benign; the mass beyond it is < e^{−b·1e6}). KS at
// α = 0.001 per case.
func TestL1FarPointLaw(t *testing.T) {
	const m = 20000
	r := rng.Seeded(1313)
	for _, c := range []struct {
		n    int
		far  float64
		a, b float64
	}{
		{20, 1e16, 2, 1}, {40, 1e16, 0.5, 3}, {20, 1e300, 1, 1}, {64, 2e17, 30, 100},
		{8, 1e16, 2, 1}, {5, 1e16, 40, 20}, {12, 1e300, 1, 1},
		{30, -1e16, 2, 1}, {30, math.MaxFloat64, 1, 2}, {6, -math.MaxFloat64, 1, 2},
		{7, math.MaxFloat64, 1, 2}, // with a second huge point below: S_k overflows
	} {
		z := farColumn(c.n, c.far)
		if c.n == 7 {
			z[c.n-2] = math.MaxFloat64 / 2
		}
		ref := farColumn(c.n, math.Copysign(1e3, c.far))
		if c.n == 7 {
			ref[c.n-2] = 900
		}
		xs := draws(m, func() float64 { return L1Coord(r, z, c.a, c.b) })
		if d := stats.KS(xs, func(x float64) float64 { return L1CDF(ref, c.a, c.b, x) }); d > ksCrit(m) {
			t.Errorf("n=%d far=%g a=%v b=%v: KS %.4f > %.4f", c.n, c.far, c.a, c.b, d, ksCrit(m))
		}
		// The closed-form CDF itself is stable with the far point.
		for _, x := range []float64{-1, 0, 0.5, 2} {
			if g, w := L1CDF(z, c.a, c.b, x), L1CDF(ref, c.a, c.b, x); math.Abs(g-w) > 1e-9 {
				t.Errorf("n=%d far=%g: L1CDF(%v) = %v, reference %v", c.n, c.far, x, g, w)
			}
		}
	}
}
