package mechanism

import (
	"context"
	"math"
	"testing"
)

// TestPlanWork: the work estimate follows the plan's formulas for every
// method; it is the same for two data sets of equal shape (it is public);
// and for each smooth loss a seeded first-order run's passes (anchor passes
// + trials, a diagnostic) lie in [0.6, 1.4]·Passes and below PassesMax. An
// estimate of one pass per step (the broken one, ignoring the trials) is
// outside that band.
func TestPlanWork(t *testing.T) {
	for _, l := range []string{"logistic", "huber", "smooth-hinge", "smooth-quantile"} {
		classes := l == "logistic" || l == "smooth-hinge"
		x, y := smallGLM(200, 5, classes)
		fixed, adaptive := true, false
		req := Request{Loss: l, X: x, Y: y, Epsilon: 1, Delta: 1e-5, Radius: 3, Samples: 2, Seed: seed(5), FixedWork: &fixed}
		res, err := Sample(context.Background(), req, nil)
		if err != nil {
			t.Fatal(err)
		}
		// Under fixedWork (the default) the estimate is the work done, exactly.
		if done := float64(res.Diagnostics.AnchorPasses + res.Diagnostics.Trials); done != res.Plan.Work.Passes || done != res.Plan.Work.PassesMax {
			t.Errorf("%s fixedWork: %v passes done, work %+v", l, done, res.Plan.Work)
		}
		req.FixedWork = &adaptive
		if res, err = Sample(context.Background(), req, nil); err != nil {
			t.Fatal(err)
		}
		pl, w := res.Plan, res.Plan.Work
		T, m := float64(pl.Steps), float64(pl.Samples)
		if w.RowsTimesD != 200*5 || math.Abs(w.Passes-T*m*(1+1/pl.AcceptMin)) > 1e-9*w.Passes ||
			math.Abs(w.PassesMax-T*m*(float64(pl.AnchorMax)+1+1/pl.AcceptMin)) > 1e-9*w.PassesMax {
			t.Errorf("%s: work %+v for T=%v m=%v K=%d p_min=%v", l, w, T, m, pl.AnchorMax, pl.AcceptMin)
		}
		x2, y2 := smallGLM(200, 5, !classes) // other data, same shape
		for i := range x2 {
			x2[i][0] *= 0.5
			if classes {
				y2[i] = math.Copysign(1, y2[i])
			}
		}
		req2 := req
		req2.X, req2.Y = x2, y2
		if pl2, err := NewPlan(req2); err != nil || pl2.Work != w {
			t.Errorf("%s: work %+v on other data of the same shape, %+v (%v)", l, pl2.Work, w, err)
		}
		passes := float64(res.Diagnostics.AnchorPasses + res.Diagnostics.Trials)
		within := func(est float64) bool { return passes >= 0.6*est && passes <= 1.4*est }
		t.Logf("%s: T=%d, passes %v (anchor %d, trials %d), estimate %.0f (ratio %.3f), bound %.0f", l, pl.Steps, passes,
			res.Diagnostics.AnchorPasses, res.Diagnostics.Trials, w.Passes, passes/w.Passes, w.PassesMax)
		if !within(w.Passes) || passes > w.PassesMax {
			t.Errorf("%s: %v passes, estimate %v, bound %v", l, passes, w.Passes, w.PassesMax)
		}
		if within(T * m) {
			t.Errorf("%s: a one-pass-per-step estimate %v is also within [0.6, 1.4] of %v passes: the check has no power", l, T*m, passes)
		}
	}
	for _, c := range []struct {
		loss   string
		d      int
		passes float64
	}{{"l1", 3, 2}, {"linear", 3, 1}} {
		x, _ := smallGLM(50, c.d, false)
		pl, err := NewPlan(Request{Loss: c.loss, X: x, Epsilon: 1, Delta: 1e-5, Radius: 2, Samples: 2})
		if err != nil {
			t.Fatal(err)
		}
		if pl.Work.Passes != c.passes || pl.Work.PassesMax != c.passes {
			t.Errorf("%s: work %+v, want %v passes", c.loss, pl.Work, c.passes)
		}
	}
	x, y := smallGLM(50, 3, true)
	pl, err := NewPlan(Request{Loss: "hinge", X: x, Y: y, Epsilon: 1, Delta: 1e-5, Radius: 2})
	if err != nil {
		t.Fatal(err)
	}
	if pl.Work.Passes != pl.ExpectedLossEvals/50 || pl.Work.Passes <= 0 {
		t.Errorf("hinge: work %+v, expected loss evaluations %v", pl.Work, pl.ExpectedLossEvals)
	}
}

// TestPlanDraws (issue 53 item 7b): under fixed work plan.work.draws is the
// random numbers the samplers draw, exactly (Diagnostics.Draws), for the
// first-order sampler and both zeroth-order modes, two samples each; it is
// the same for other data of the same shape; without fixed work it stays
// within [0.5, 2] of the draws made. Counting the loss evaluations alone
// (the estimate before issue 53) leaves out most of a stochastic
// zeroth-order run: it draws about 5 random numbers per single-row loss
// evaluation at d = 5 (each draw, under node, costs about as much as a row
// of 5–10 columns: BenchmarkPassKinds).
func TestPlanDraws(t *testing.T) {
	for _, c := range []struct {
		loss, sampler, mode string
		classes             bool
	}{
		{"logistic", "", "", true},
		{"lad", "proximal", "stochastic", false},
		{"hinge", "proximal", "full", true},
	} {
		x, y := smallGLM(200, 5, c.classes)
		for _, fixed := range []bool{true, false} {
			req := Request{Loss: c.loss, X: x, Y: y, Epsilon: 1, Delta: 1e-5, Radius: 3, Samples: 2, Seed: seed(5),
				FixedWork: &fixed, Sampler: Sampler(c.sampler), Mode: c.mode}
			res, err := Sample(context.Background(), req, nil)
			if err != nil {
				t.Fatal(err)
			}
			w, got := res.Plan.Work, float64(res.Diagnostics.Draws)
			t.Logf("%s %s fixed %v: draws %v, plan %v; loss evaluations %d (n·d·passes %v)", c.loss, res.Plan.Method, fixed, got, w.Draws,
				res.Diagnostics.LossEvals, w.Passes*w.RowsTimesD)
			if fixed && got != w.Draws || !fixed && (got < 0.5*w.Draws || got > 2*w.Draws) {
				t.Errorf("%s %s fixed %v: %v draws made, plan.work.draws %v", c.loss, res.Plan.Method, fixed, got, w.Draws)
			}
			if fixed && res.Plan.Method == "proximal-stochastic" && w.Draws < 2*float64(res.Diagnostics.LossEvals) {
				t.Errorf("%s: %v draws against %d loss evaluations", c.loss, w.Draws, res.Diagnostics.LossEvals)
			}
		}
	}
}
