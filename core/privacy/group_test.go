package privacy

import (
	"math"
	"strings"
	"testing"
)

func TestGroup(t *testing.T) {
	for _, tc := range []struct {
		k          int
		eps, delta float64
		wantE      float64
		wantD      float64
	}{
		{1, 1, 1e-5, 1, 1e-5},                       // k = 1 is the guarantee itself
		{2, 1, 1e-5, 2, 2 * math.E * 1e-5},          // 2·e^{ε}·δ
		{3, 0.5, 1e-6, 1.5, 3 * math.Exp(1) * 1e-6}, // 3·e^{2·0.5}·δ
		{4, 0, 0.01, 0, 0.04},                       // ε = 0: δ adds up
		{10, 2, 0, 20, 0},                           // pure DP stays pure
		{5, 3, 0.1, 15, 1},                          // capped at 1
		{1000, 700, 1e-300, 700000, 1},              // e^{(k−1)ε} overflows: capped, not NaN
		{1 << 20, 1, 0, float64(1 << 20), 0},        // no 0·∞
	} {
		e, d, err := Group(tc.k, tc.eps, tc.delta)
		if err != nil {
			t.Fatalf("Group(%d, %g, %g): %v", tc.k, tc.eps, tc.delta, err)
		}
		if math.Abs(e-tc.wantE) > 1e-12*tc.wantE || math.Abs(d-tc.wantD) > 1e-12*tc.wantD {
			t.Errorf("Group(%d, %g, %g) = (%g, %g), want (%g, %g)", tc.k, tc.eps, tc.delta, e, d, tc.wantE, tc.wantD)
		}
	}
}

// TestGroupCoversTheChain: δ_k is at least the chained bound
// min(1, Σ_{i<k} e^{iε}δ) (Group may only round up), and equal to it for k = 1 or ε = 0.
func TestGroupCoversTheChain(t *testing.T) {
	for _, eps := range []float64{0, 0.1, 1, 3} {
		for k := 1; k <= 12; k++ {
			const delta = 1e-9
			chain := 0.0
			for i := 0; i < k; i++ {
				chain += math.Exp(float64(i)*eps) * delta
			}
			chain = math.Min(1, chain) // every δ is at most 1
			_, d, err := Group(k, eps, delta)
			if err != nil {
				t.Fatal(err)
			}
			if d < chain*(1-1e-12) || ((k == 1 || eps == 0) && math.Abs(d-chain) > 1e-12*chain) {
				t.Errorf("k=%d ε=%g: δ_k = %g, chain %g", k, eps, d, chain)
			}
		}
	}
}

// TestGroupTightForLaplace: the Laplace mechanism on a count (sensitivity 1,
// scale 1/ε) is ε-DP, and on counts k apart its worst log-likelihood ratio is
// exactly kε: Group's ε is attained, so a smaller group ε (say √k·ε, a
// plausible mistake) would be wrong. The ratio is measured on a grid.
func TestGroupTightForLaplace(t *testing.T) {
	const eps = 0.7
	logDensity := func(x, mean float64) float64 { return -eps * math.Abs(x-mean) }
	for k := 1; k <= 6; k++ {
		worst := 0.0
		for x := -20.0; x <= 20; x += 0.01 {
			worst = math.Max(worst, logDensity(x, 0)-logDensity(x, float64(k)))
		}
		ge, gd, err := Group(k, eps, 0)
		if err != nil {
			t.Fatal(err)
		}
		if gd != 0 || math.Abs(ge-worst) > 1e-9 {
			t.Errorf("k=%d: Group ε = %g (δ %g), Laplace's worst ratio %g", k, ge, gd, worst)
		}
	}
}

func TestGroupBadInput(t *testing.T) {
	for _, tc := range []struct {
		k          int
		eps, delta float64
		field      string
	}{
		{0, 1, 1e-5, "k"},
		{-3, 1, 1e-5, "k"},
		{2, -1, 1e-5, "epsilon"},
		{2, math.NaN(), 1e-5, "epsilon"},
		{2, math.Inf(1), 1e-5, "epsilon"},
		{2, 1, 1.5, "delta"},
		{2, 1, -1e-9, "delta"},
		{2, 1, math.NaN(), "delta"},
	} {
		_, _, err := Group(tc.k, tc.eps, tc.delta)
		if err == nil || !strings.HasPrefix(err.Error(), tc.field+" must be") {
			t.Errorf("Group(%d, %g, %g) error = %v, want one naming %q", tc.k, tc.eps, tc.delta, err, tc.field)
		}
	}
}
