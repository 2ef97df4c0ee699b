package mechanism

import (
	"context"
	"math"
	"testing"

	"github.com/dpsample/dpsample/core/dataset/gen"
	"github.com/dpsample/dpsample/core/loss"
)

// priceDesign is gen.PriceList coded as the page codes it, with the
// ranges a private search finds for such a table (price declared on
// [0, 32768], so the median price sits near −0.85 in scaled units).
func priceDesign(n int, seed uint64) gen.Design {
	return gen.PriceList(n, seed).Code([]string{"carat", "cut", "color", "clarity"}, "price",
		map[string][2]float64{"carat": {0, 5}, "price": {0, 32768}}, "")
}

// bestConstant is min over b of L((0, …, 0, b)): the trivial answer in the
// loss's own terms (the last coordinate is the intercept), by golden
// section around the best of a grid of 201 points on [−1, 1] — independent
// of loss.Set.Minimize.
func bestConstant(set *loss.Set) float64 {
	th := make([]float64, set.Dim())
	at := func(b float64) float64 { th[len(th)-1] = b; return set.Mean(th) }
	lo, best := -1.0, math.Inf(1)
	for i := 0; i <= 200; i++ {
		if v := at(-1 + float64(i)/100); v < best {
			best, lo = v, -1+float64(i)/100
		}
	}
	a, b := lo-0.01, lo+0.01
	for range 60 {
		m1, m2 := a+(b-a)*0.382, a+(b-a)*0.618
		if at(m1) < at(m2) {
			b = m2
		} else {
			a = m1
		}
	}
	return math.Min(best, at((a+b)/2))
}

// TestComparisonPriceList (issue 53 item 3): on a generated price list of
// 10,000 rows (carat, cut, color, clarity → price) the comparison fitted
// without privacy is converged for each regression loss (its certified gap
// within its tolerance), never worse than the best constant in the loss's
// own terms (within that gap), and beats predicting the median in the
// target's units (MAE). The ball-confined fit it replaces (the best θ with
// ‖θ‖ ≤ C = 1/√5 after 100 iterations, as on main at this size) is worse
// than the median — the test's power: with it the MAE check fails.
func TestComparisonPriceList(t *testing.T) {
	d := priceDesign(10000, 1)
	for _, name := range []string{"lad", "quantile", "huber", "smooth-quantile"} {
		k, _ := loss.ParseKind(name)
		set, err := loss.New(k, d.X, d.Y, loss.Params{Clip: d.Clip})
		if err != nil {
			t.Fatal(err)
		}
		f := fit(set, nil, make([]float64, set.Dim()), Plan{Radius: DefaultRadius(k, d.Clip, nil)}, true, nil)
		triv := CompareRegression(d.X, d.Raw, f.Theta, d.Units)
		c := bestConstant(set)
		t.Logf("%s: L(θ̂) %.6g (gap %.2g, tolerance %.2g, %d iterations, %d passes), best constant %.6g; MAE %.0f, the median's %.0f",
			name, f.NonPrivateLoss, f.Gap, f.Tolerance, f.Iterations, f.Passes, c, triv.Model, triv.Trivial)
		if !f.Converged || f.Gap > f.Tolerance || f.NonPrivateLoss > c+f.Gap {
			t.Errorf("%s: converged %v, gap %v (tolerance %v), L(θ̂) = %v above the best constant's %v", name, f.Converged, f.Gap, f.Tolerance, f.NonPrivateLoss, c)
		}
		if triv.NoBetter || triv.Model > 0.6*triv.Trivial {
			t.Errorf("%s: the non-private fit is off by %.0f, the median by %.0f", name, triv.Model, triv.Trivial)
		}
		old := set.MinimizeInBall(DefaultRadius(k, d.Clip, nil), 100)
		if o := CompareRegression(d.X, d.Raw, old.Theta, d.Units); !o.NoBetter {
			t.Errorf("%s: the ball-confined fit (MAE %.0f) beats the median (%.0f): the check has no power here", name, o.Model, o.Trivial)
		}
	}
}

// TestComparisonThroughSample: the comparison a Sample call returns on the
// price list (DP-GD, Huber, the page's radius) is the converged one: its
// non-private MAE is below the median's, its work is the plan's
// Work.Reference, and the released θ's excess is at least −gap (no ball
// it could beat the comparison outside of).
func TestComparisonThroughSample(t *testing.T) {
	d := priceDesign(5000, 2)
	req := Request{Loss: "huber", X: d.X, Y: d.Y, Clip: d.Clip, Epsilon: 1, Delta: 1e-5, Method: EstimatorDPGD, Seed: seed(53)}
	res, err := Sample(context.Background(), req, nil)
	if err != nil {
		t.Fatal(err)
	}
	f := res.Fit
	np := CompareRegression(d.X, d.Raw, f.Theta, d.Units)
	if !f.Converged || np.NoBetter || float64(f.Passes) != res.Plan.Work.Reference || f.Excess < -f.Gap || f.Reach != 2 {
		t.Errorf("fit %+v: MAE %.0f against the median's %.0f, passes %d of %v", f, np.Model, np.Trivial, f.Passes, res.Plan.Work.Reference)
	}
}

// TestComparisonClassifiers: on a generated passenger list (survived ~ sex
// + age + class, 1,300 rows) the comparison converges for each classifier,
// is no worse than the best constant within its gap, and its training
// accuracy is at least the majority's share.
func TestComparisonClassifiers(t *testing.T) {
	d := gen.Passengers(1300, 2).Code([]string{"sex", "age", "class"}, "survived", map[string][2]float64{"age": {0, 100}}, "yes")
	for _, name := range []string{"logistic", "hinge", "smooth-hinge"} {
		k, _ := loss.ParseKind(name)
		set, err := loss.New(k, d.X, d.Y, loss.Params{Clip: d.Clip})
		if err != nil {
			t.Fatal(err)
		}
		f := fit(set, nil, make([]float64, set.Dim()), Plan{Radius: DefaultRadius(k, d.Clip, nil)}, true, nil)
		c := bestConstant(set)
		maj := CompareClassifier(d.X, d.Y, f.Theta)
		t.Logf("%s: L(θ̂) %.6g (gap %.2g, tolerance %.2g, %d iterations), best constant %.6g; accuracy %.4f, majority %.4f",
			name, f.NonPrivateLoss, f.Gap, f.Tolerance, f.Iterations, c, maj.Model, maj.Trivial)
		if !f.Converged || f.Reach != ReachClassification || f.NonPrivateLoss > c+f.Gap || maj.NoBetter {
			t.Errorf("%s: fit %+v, best constant %v, accuracy %v against the majority's %v", name, f, c, maj.Model, maj.Trivial)
		}
	}
}
