package mechanism

import (
	"math"
	"testing"

	"github.com/dpsample/dpsample/core/loss"
)

func TestCompareClassifier(t *testing.T) {
	x := [][]float64{{1, 1}, {2, 1}, {-1, 1}, {-2, 1}, {3, 1}}
	y := []float64{1, 1, -1, 1, 1} // 4 of 5 positive: majority +1 at 0.8
	good := CompareClassifier(x, y, []float64{1, 0})
	if good.Trivial != 0.8 || good.Majority != 1 || good.Model != 0.8 || !good.NoBetter {
		t.Errorf("sign(x₁): %+v; want model 0.8 = majority 0.8, no better", good)
	}
	all := CompareClassifier(x, y, []float64{0, 1})
	if all.Model != 0.8 || !all.NoBetter {
		t.Errorf("always +1: %+v", all)
	}
	bad := CompareClassifier(x, y, []float64{-1, 0})
	if bad.Model != 0.2 || !bad.NoBetter {
		t.Errorf("reversed: %+v", bad)
	}
	y2 := []float64{1, 1, -1, -1, 1}
	if c := CompareClassifier(x, y2, []float64{1, 0}); c.Model != 1 || c.Trivial != 0.6 || c.NoBetter {
		t.Errorf("perfect: %+v", c)
	}
}

func TestCompareRegression(t *testing.T) {
	// y = 10 + 2·x₁ in units; the score is in scaled units with toUnits(s) = 10 + 5·s.
	x := [][]float64{{0, 1}, {1, 1}, {2, 1}, {3, 1}}
	y := []float64{10, 12, 14, 100} // an outlier: the median is 13
	toUnits := func(s float64) float64 { return 10 + 5*s }
	exact := CompareRegression(x, y, []float64{0.4, 0}, toUnits) // predicts 10, 12, 14, 16
	if exact.Median != 13 || math.Abs(exact.Model-84.0/4) > 1e-12 || math.Abs(exact.Trivial-(3+1+1+87)/4.0) > 1e-12 || exact.NoBetter {
		t.Errorf("%+v", exact)
	}
	if want := math.Sqrt(84 * 84 / 4.0); math.Abs(exact.ModelRMSE-want) > 1e-12 {
		t.Errorf("RMSE %g, want %g", exact.ModelRMSE, want)
	}
	flat := CompareRegression(x, y, []float64{0, 0.6}, toUnits) // predicts 13 everywhere: the median itself
	if !flat.NoBetter || flat.Model != flat.Trivial {
		t.Errorf("the median as a model: %+v", flat)
	}
}

// The estimator rule of docs/DEFAULTS.md: DP-GD exactly for the smooth
// supervised losses.
func TestRecommendedEstimator(t *testing.T) {
	for k, want := range map[loss.Kind]Estimator{loss.Logistic: EstimatorDPGD, loss.Huber: EstimatorDPGD, loss.SmoothHinge: EstimatorDPGD,
		loss.SmoothQuantile: EstimatorDPGD, loss.Hinge: EstimatorExponential, loss.LAD: EstimatorExponential, loss.Quantile: EstimatorExponential,
		loss.L1: EstimatorExponential, loss.L2Dist: EstimatorExponential} {
		if got := RecommendedEstimator(k); got != want {
			t.Errorf("%v: %q, want %q", k, got, want)
		}
		for _, found := range []bool{false, true} {
			if got := RecommendedEstimatorFor(k, SmallTableRows, found); got != want {
				t.Errorf("%v at n = %d (ranges found %v): %q, want %q", k, SmallTableRows, found, got, want)
			}
		}
		if got := RecommendedEstimatorFor(k, SmallTableRows-1, false); got != EstimatorExponential {
			t.Errorf("%v at n = %d, ranges typed: %q, want Algorithm 1 (issue 40)", k, SmallTableRows-1, got)
		}
		if got := RecommendedEstimatorFor(k, SmallTableRows-1, true); got != want {
			t.Errorf("%v at n = %d, ranges found privately: %q, want %q (issue 40)", k, SmallTableRows-1, got, want)
		}
	}
}
