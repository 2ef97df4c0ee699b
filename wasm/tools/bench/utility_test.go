//go:build !js

package main

import (
	"context"
	"encoding/json"
	"math"
	"strings"
	"testing"

	"github.com/dpsample/dpsample/wasm/tools/internal/utility"
)

// TestUtilityQuick runs the quick preset and checks its sanity: the
// non-private method's excess is 0 up to rounding and its reference gap is
// small; every private method's excess is finite and below 5 (the losses'
// scale at ‖θ‖ ≤ C = 3), and not below −gap for projected DP-GD (its output
// averages points of the ball; the other methods may leave the ball and beat
// the constrained reference); objective perturbation is skipped, with a reason, exactly for
// the non-smooth losses; the latent cross-check runs exactly for d ≤
// latentMaxD; Algorithm 1 on logistic data uses the first-order sampler;
// medians lie inside their bootstrap intervals; test accuracies lie in
// [0, 1]; the dimension ratio of Algorithm 1 is reported for every loss ×
// rank with two dimensions; and the report has no target column on a
// quantity whose law is the same at every d.
func TestUtilityQuick(t *testing.T) {
	o := utility.QuickUtilityOptions()
	o.Real.DataDir = "../../../site/data"
	calls := 0
	rep, err := utility.UtilityBench(context.Background(), o, func(done, total int) { calls++ })
	if err != nil {
		t.Fatal(err)
	}
	if rep.Private {
		t.Error("seeded run reported private")
	}
	if calls == 0 {
		t.Error("no progress reported")
	}
	if _, err := json.Marshal(rep); err != nil {
		t.Errorf("report is not plain JSON: %v", err)
	}
	for _, c := range rep.Cells {
		switch {
		case c.Method == utility.MethodObjectivePert && c.Loss != "logistic":
			if c.Error == "" || c.Runs != 0 {
				t.Errorf("%s/%s: objective perturbation ran on a non-smooth loss", c.Workload, c.Loss)
			}
			continue
		case c.Method == utility.MethodExpLatent && (c.Workload != utility.WorkloadSynthetic || c.D > o.Synthetic.LatentMaxD):
			if c.Error == "" || c.Runs != 0 {
				t.Errorf("%s d=%d: latent cross-check ran beyond latentMaxD", c.Workload, c.D)
			}
			continue
		case c.Error != "" || c.Runs == 0:
			t.Errorf("%+v: no runs (%s)", c, c.Error)
			continue
		}
		if c.Method == utility.MethodNonPrivate {
			if math.Abs(c.ExcessMean) > 1e-9 || c.ReferenceGap > 0.05 {
				t.Errorf("%s %s k=%d d=%d: non-private excess %g, reference gap %g", c.Workload, c.Loss, c.Rank, c.D, c.ExcessMean, c.ReferenceGap)
			}
		}
		for _, v := range c.Excess {
			// Projected DP-GD averages points of the ball, so it cannot beat the reference.
			if math.IsNaN(v) || math.IsInf(v, 0) || v < -c.ReferenceGap-1e-9 && c.Method == utility.MethodDPGDProjected {
				t.Errorf("%s %s %s d=%d: excess %g", c.Workload, c.Loss, c.Method, c.D, v)
			}
		}
		for _, a := range c.Accuracy {
			if a < 0 || a > 1 {
				t.Errorf("%s %s: accuracy %g", c.Workload, c.Method, a)
			}
		}
		if c.ExcessMedian < c.ExcessCI[0] || c.ExcessMedian > c.ExcessCI[1] {
			t.Errorf("%s %s d=%d: median %g outside its interval %v", c.Workload, c.Method, c.D, c.ExcessMedian, c.ExcessCI)
		}
		if c.Method == utility.MethodExponential && c.Loss == "logistic" && c.Params["firstOrder"] != 1 {
			t.Errorf("%s d=%d: Algorithm 1 on logistic data did not use the first-order sampler (%v)", c.Workload, c.D, c.Params)
		}
		// Both DP-GD variants record core/dpgd's schedule (issue 33): the
		// smooth rule for logistic, the non-smooth one for hinge and lad,
		// and the steps they ran.
		if gd := c.Method == utility.MethodDPGD || c.Method == utility.MethodDPGDProjected; gd != (c.Schedule != nil) {
			t.Errorf("%s %s d=%d: schedule %+v", c.Loss, c.Method, c.D, c.Schedule)
		} else if gd {
			smooth := strings.HasPrefix(c.Schedule.Rule, "smooth:")
			if smooth != (c.Loss == "logistic") || c.Schedule.Projected != (c.Method == utility.MethodDPGDProjected) ||
				float64(c.Schedule.Steps) != c.Params["steps"] || c.Schedule.Step != c.Params["step"] {
				t.Errorf("%s %s d=%d: schedule %+v, params %v", c.Loss, c.Method, c.D, c.Schedule, c.Params)
			}
		}
		if c.Method != utility.MethodNonPrivate && c.Workload == utility.WorkloadSynthetic && c.ExcessMean > 5 {
			t.Errorf("%s %s k=%d d=%d: excess %g implausibly large", c.Loss, c.Method, c.Rank, c.D, c.ExcessMean)
		}
	}
	found := map[string]bool{}
	for _, r := range rep.Ratios {
		if r.Method == utility.MethodExponential {
			if math.IsNaN(r.Ratio) || !r.Invariant || r.DLow != 4 || r.DHigh != 40 || r.Ratio < r.RatioCI[0] || r.Ratio > r.RatioCI[1] {
				t.Errorf("exponential ratio %+v", r)
			}
			found[r.Loss+string(rune('0'+r.Rank))] = true
		}
	}
	if len(found) != 3 {
		t.Errorf("exponential ratios for %d loss×rank pairs, want 3", len(found))
	}
	md := markdown(&Report{Utility: Utility{Status: "measured", Preset: "QuickUtilityOptions", Report: &rep}})
	if err := targetOnInvariant(md); err != nil {
		t.Error(err)
	}
	if !strings.Contains(md, "DP-GD's public schedule (core/dpgd, smooth rule, σ per step): dp-gd T = 50, h = 4") ||
		!strings.Contains(md, "DP-GD's public schedule (core/dpgd, non-smooth rule") {
		t.Error("§3b does not state the DP-GD schedules")
	}
}
