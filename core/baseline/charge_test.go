package baseline

import (
	"math"
	"strings"
	"testing"

	"github.com/dpsample/dpsample/core/privacy"
)

// TestBaselinesChargeTheLedger: DP-GD and output perturbation charge s*(ε, δ)
// with TV = 0 (the same accountant as Algorithm 1), so in the page's budget
// (3, 1e-5) six runs at ε = 1 fit — as for the exact sampler
// (privacy.ExampleLedger) — whichever baseline makes them, and the seventh is
// refused.
func TestBaselinesChargeTheLedger(t *testing.T) {
	const n = 455
	gd := GD{Epsilon: 1, Delta: 1e-5, Radius: 4, G: 1, Steps: 100}
	op := OutputPert{Epsilon: 1, Delta: 1e-5, Mu: 0.05, G: 1, Tol: 0.01}
	s, _ := privacy.Calibrate(1, 1e-5)
	rg, err := gd.Charge(n)
	if err != nil {
		t.Fatal(err)
	}
	ro, err := op.Charge(n)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range []privacy.Release{rg, ro} {
		if math.Abs(r.GDP-s) > 1e-12*s || r.TV != 0 || r.Epsilon != 1 || r.Delta > 1e-5*(1+1e-9) {
			t.Errorf("%s: %+v, want gdp %g", r.Label, r, s)
		}
	}
	l, _ := privacy.NewLedger(3, 1e-5)
	for i := 0; i < 6; i++ {
		r := rg
		if i%2 == 1 {
			r = ro
		}
		if _, err := l.Charge(r); err != nil {
			t.Fatalf("run %d (%s): %v", i+1, r.Label, err)
		}
	}
	if _, err := l.Charge(rg); err == nil || !strings.HasPrefix(err.Error(), "ledger must be") {
		t.Fatalf("7th run: %v", err)
	}
	if _, err := (GD{Epsilon: 1, Delta: 1e-5, Radius: 4, G: 1, Steps: 0}).Charge(n); err == nil || !strings.HasPrefix(err.Error(), "steps must be") {
		t.Errorf("bad GD: %v", err)
	}
}
