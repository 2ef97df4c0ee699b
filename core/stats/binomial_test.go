package stats

import (
	"math"
	"testing"
)

func TestClopperPearson(t *testing.T) {
	// Closed forms: x = 0 → hi = 1 − (α/2)^{1/n}; x = n → lo = (α/2)^{1/n}.
	lo, hi := ClopperPearson(0, 10, .05)
	if lo != 0 || math.Abs(hi-(1-math.Pow(.025, .1))) > 1e-9 {
		t.Errorf("x=0: (%g, %g)", lo, hi)
	}
	lo, hi = ClopperPearson(10, 10, .05)
	if hi != 1 || math.Abs(lo-math.Pow(.025, .1)) > 1e-9 {
		t.Errorf("x=n: (%g, %g)", lo, hi)
	}
	// Symmetry: CP(x, n) = 1 − CP(n−x, n) reversed.
	lo, hi = ClopperPearson(3, 17, .05)
	lo2, hi2 := ClopperPearson(14, 17, .05)
	if math.Abs(lo-(1-hi2)) > 1e-9 || math.Abs(hi-(1-lo2)) > 1e-9 || !(lo < 3.0/17 && 3.0/17 < hi) {
		t.Errorf("CP(3,17) = (%g, %g), CP(14,17) = (%g, %g)", lo, hi, lo2, hi2)
	}
}

// TestClopperPearsonCoverage: the exact interval covers p with probability
// ≥ 1 − α for every n and p (computed exactly over the binomial law, not
// sampled); a broken interval (α/2 replaced by α on both ends, a 90 % interval
// called 95 %) fails the same check.
func TestClopperPearsonCoverage(t *testing.T) {
	const alpha = 0.05
	coverage := func(n int, p float64, ci func(x, n int) (float64, float64)) float64 {
		c := 0.0
		for x := 0; x <= n; x++ {
			lo, hi := ci(x, n)
			if lo <= p && p <= hi {
				lg, _ := math.Lgamma(float64(n + 1))
				la, _ := math.Lgamma(float64(x + 1))
				lb, _ := math.Lgamma(float64(n - x + 1))
				c += math.Exp(lg - la - lb + float64(x)*math.Log(p) + float64(n-x)*math.Log1p(-p))
			}
		}
		return c
	}
	good := func(x, n int) (float64, float64) { return ClopperPearson(x, n, alpha) }
	broken := func(x, n int) (float64, float64) { return ClopperPearson(x, n, 2*alpha) }
	worstBroken := 1.0
	for _, n := range []int{1, 5, 20, 100} {
		for _, p := range []float64{0.001, 0.03, 0.2, 0.5, 0.77, 0.99} {
			if c := coverage(n, p, good); c < 1-alpha-1e-12 {
				t.Errorf("n=%d p=%g: coverage %.4f < %.2f", n, p, c, 1-alpha)
			}
			worstBroken = math.Min(worstBroken, coverage(n, p, broken))
		}
	}
	if worstBroken >= 1-alpha {
		t.Errorf("the broken (90 %%) interval covered ≥ 95 %% everywhere (min %.4f): the check has no power", worstBroken)
	}
}
