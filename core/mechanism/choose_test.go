package mechanism

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/dpsample/dpsample/core/checks"
	"github.com/dpsample/dpsample/core/rng"
)

func smallGLM(n, d int, classes bool) ([][]float64, []float64) {
	r := rng.Seeded(uint64(n*10 + d))
	x := make([][]float64, n)
	y := make([]float64, n)
	for i := range x {
		x[i] = make([]float64, d)
		for j := range x[i] {
			x[i][j] = r.NormFloat64() / math.Sqrt(float64(d))
		}
		if classes {
			y[i] = float64(2*r.IntN(2) - 1)
		} else {
			y[i] = r.NormFloat64()
		}
	}
	return x, y
}

// TestChooseSampler: "auto" picks exact, then first-order for smooth
// losses, then zeroth-order; "smooth" forces first-order and names the loss
// when it is not smooth; the plan says why and its TV split adds up.
func TestChooseSampler(t *testing.T) {
	cases := []struct {
		loss     string
		sampler  Sampler
		d        int
		method   string
		errField string
	}{
		{"logistic", "", 3, MethodFirstOrder, ""},
		{"huber", "auto", 3, MethodFirstOrder, ""},
		{"smooth-hinge", "auto", 3, MethodFirstOrder, ""},
		{"smooth-quantile", "auto", 3, MethodFirstOrder, ""},
		{"hinge", "auto", 3, "proximal-", ""},
		{"quantile", "auto", 3, "proximal-", ""},
		{"logistic", "auto", 1, Method1D, ""},
		{"logistic", "smooth", 1, MethodFirstOrder, ""},
		{"logistic", "proximal", 3, "proximal-", ""},
		{"hinge", "smooth", 3, "", "sampler"},
		{"lad", "smooth", 1, "", "sampler"},
		{"logistic", "fast", 3, "", "sampler"},
	}
	for _, c := range cases {
		x, y := smallGLM(40, c.d, c.loss == "logistic" || strings.Contains(c.loss, "hinge"))
		pl, err := NewPlan(Request{Loss: c.loss, X: x, Y: y, Epsilon: 1, Delta: 1e-5, Radius: 2, Sampler: c.sampler})
		if c.errField != "" {
			var ce *checks.Error
			if !errors.As(err, &ce) || ce.Field != c.errField {
				t.Errorf("%s/%s: want an error on %q, got %v", c.loss, c.sampler, c.errField, err)
			} else if c.sampler == "smooth" && !strings.Contains(err.Error(), `"`+c.loss+`"`) {
				t.Errorf("%s/smooth: error does not name the loss: %v", c.loss, err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s/%s: %v", c.loss, c.sampler, err)
		}
		if !strings.HasPrefix(pl.Method, c.method) || pl.Why == "" {
			t.Errorf("%s/%s d=%d: method %q why %q, want %q", c.loss, c.sampler, c.d, pl.Method, pl.Why, c.method)
		}
		if pl.Sampler == SamplerProximal && (pl.TVMix <= 0 || pl.TVRGO < 0 || pl.TVMix+pl.TVRGO > pl.TV*(1+1e-12) || pl.TrialBudget < 1) {
			t.Errorf("%s/%s: TV split %g + %g vs %g, M = %d", c.loss, c.sampler, pl.TVMix, pl.TVRGO, pl.TV, pl.TrialBudget)
		}
		if pl.Method == MethodFirstOrder && (pl.Curvature <= 0 || pl.AcceptMin < 1e-3 || pl.AcceptMin > 1 || pl.AnchorMax < 0 || pl.Steps < 1) {
			t.Errorf("%s/%s: first-order plan %+v", c.loss, c.sampler, pl)
		}
	}
}

// TestSampleFirstOrder runs the whole path (validation, first-order sampler,
// rounding, report) for each smooth loss on a small problem.
func TestSampleFirstOrder(t *testing.T) {
	for _, l := range []string{"logistic", "huber", "smooth-hinge", "smooth-quantile"} {
		x, y := smallGLM(30, 4, l == "logistic" || l == "smooth-hinge")
		req := Request{Loss: l, X: x, Y: y, Epsilon: 1, Delta: 1e-5, Radius: 2, Samples: 2, Seed: seed(3)}
		calls := 0
		res, err := Sample(context.Background(), req, func(done, total int) { calls++ })
		if err != nil {
			t.Fatalf("%s: %v", l, err)
		}
		pl := res.Plan
		if pl.Method != MethodFirstOrder || res.Stats.Steps != 2*int64(pl.Steps) || res.Diagnostics.Trials < res.Stats.Steps || calls == 0 || res.Private || len(res.Theta) != 4 {
			t.Errorf("%s: plan %+v stats %+v diagnostics %+v calls %d", l, pl, res.Stats, res.Diagnostics, calls)
		}
		if res.Privacy.Delta > req.Delta*(1+1e-12) {
			t.Errorf("%s: δ %v > requested", l, res.Privacy.Delta)
		}
	}
}

// TestFirstOrderStepsBreastCancer logs the plans for the breast-cancer
// setting of issue 12 (n = 455, d = 30, δ = 1e-5, C = 10, default η rule) and
// checks that the first-order T is far below the zeroth-order one.
func TestFirstOrderStepsBreastCancer(t *testing.T) {
	x, y := smallGLM(455, 30, true)
	for _, eps := range []float64{0.5, 1, 2, 5} {
		req := Request{Loss: "logistic", X: x, Y: y, Epsilon: eps, Delta: 1e-5, Radius: 10}
		fo, err := NewPlan(req)
		if err != nil {
			t.Fatal(err)
		}
		req.Sampler = SamplerProximal
		zo, err := NewPlan(req)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("ε=%v: first-order T=%d λ=%.4g K=%d M=%d p_min=%.3f τ_c=%.3g τ_RGO=%.3g | zeroth-order (%s) T=%d",
			eps, fo.Steps, fo.Lambda, fo.AnchorMax, fo.TrialBudget, fo.AcceptMin, fo.TVMix, fo.TVRGO, zo.Method, zo.Steps)
		if fo.Method != MethodFirstOrder || fo.Steps*100 > zo.Steps {
			t.Errorf("ε=%v: first-order T = %d not ≪ zeroth-order T = %d", eps, fo.Steps, zo.Steps)
		}
	}
}
