package exact

import (
	"math"
	"slices"
	"testing"

	"gonum.org/v1/gonum/integrate/quad"
)

// TestL1LogNorm checks the closed-form normaliser against fixed 400-point
// Gauss–Legendre quadrature of exp(−a·Σ|t − z_i| − b·t²), split at the points
// (where the integrand has kinks) and cut at ±(max|z| + √(80/b)), beyond which
// the Gaussian factor alone is below e^−80 of its value inside. Relative
// tolerance 1e-9.
func TestL1LogNorm(t *testing.T) {
	cases := []struct {
		z    []float64
		a, b float64
	}{
		{[]float64{0}, 1, 1},
		{[]float64{1, 2, 3, 3.5, 7}, 0.02, 0.01},
		{[]float64{-4, 0.5, 0.5, 9}, 3, 0.01},
		{[]float64{2, 3, 5, 6, 8, 9, 9, 10, -10, 1, 2}, 0.8, 0.5},
		{[]float64{1e3, 1e3 + 1}, 0.5, 1e-4},
		{[]float64{5}, 0, 0.2}, // a = 0: a Gaussian, Z = √(π/b)
	}
	for _, c := range cases {
		z := slices.Clone(c.z)
		slices.Sort(z)
		mode := z[len(z)/2]
		cut := math.Max(math.Abs(z[0]), math.Abs(z[len(z)-1])) + math.Sqrt(80/c.b)
		knots := append(append([]float64{-cut}, z...), cut)
		// The integrand is scaled by its value at the mode to avoid underflow.
		shift := L1LogDensity(z, c.a, c.b, mode)
		f := func(x float64) float64 { return math.Exp(L1LogDensity(z, c.a, c.b, x) - shift) }
		ref := 0.0
		for i := 0; i+1 < len(knots); i++ {
			if knots[i+1] > knots[i] {
				ref += quad.Fixed(f, knots[i], knots[i+1], 400, quad.Legendre{}, 0)
			}
		}
		want := math.Log(ref) + shift
		got := L1LogNorm(z, c.a, c.b)
		if math.Abs(got-want) > 1e-9*math.Max(1, math.Abs(want)) {
			t.Errorf("z=%v a=%g b=%g: L1LogNorm = %.12g, quadrature %.12g", c.z, c.a, c.b, got, want)
		}
	}
	if g, w := L1LogNorm([]float64{5}, 0, 0.2), 0.5*math.Log(math.Pi/0.2); math.Abs(g-w) > 1e-12 {
		t.Errorf("a = 0: log Z = %.15g, want log √(π/b) = %.15g", g, w)
	}
	if !math.IsNaN(L1LogNorm([]float64{1}, 1, 0)) || !math.IsNaN(L1LogNorm([]float64{1}, -1, 1)) {
		t.Error("invalid a or b must give NaN")
	}
}
