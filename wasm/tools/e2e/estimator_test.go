//go:build !js

package e2e

import (
	"strings"
	"testing"
	"time"
)

// TestEstimateDPGD: on the built-in breast-cancer data (logistic) the
// Estimator select offers DP-GD; a run with it renders a result whose
// statement names DP-GD and its public schedule, and a location loss
// disables the select on Algorithm 1 (DP-GD is for supervised losses only),
// the user's choice coming back with a supervised loss.
func TestEstimateDPGD(t *testing.T) {
	p := newPage(t, "/")
	p.waitJS(`window.dpsampleUIReady === true`, 30*time.Second)
	if v := p.value("est-estimator"); v != "exponential" {
		t.Errorf("estimator default %q, want exponential", v)
	}
	if s := p.text("#est-estimator-help"); !strings.Contains(s, "as good or better") || strings.Contains(s, "docs/") {
		t.Errorf("estimator help: %q", s)
	}
	if href := eval[string](p, `document.querySelector("#est-estimator-help a").href`); !strings.HasSuffix(href, "DEFAULTS.md") {
		t.Errorf("estimator help links %q, want DEFAULTS.md", href)
	}
	p.setValue("est-data", "breast-cancer")
	p.waitJS(`document.querySelectorAll("#est-features input").length > 0`, 20*time.Second)
	if v := p.value("est-loss"); v != "logistic" {
		t.Fatalf("breast-cancer loss %q, want logistic", v)
	}
	if eval[bool](p, `document.getElementById("est-estimator").disabled`) {
		t.Fatal("estimator select disabled for logistic")
	}
	p.setValue("est-estimator", "dp-gd")
	p.runEstimate()
	p.waitJS(`document.querySelector("#est-plot svg") !== null`, 60*time.Second)
	if s := p.text("#est-statement"); !strings.Contains(s, "drawn by DP-GD (T = ") || !strings.Contains(s, "public schedule") ||
		!strings.Contains(s, "differentially private") {
		t.Errorf("statement does not name DP-GD: %q", s)
	}
	if s := p.text("#est-summary"); s == "" {
		t.Error("no result summary after a DP-GD run")
	}
	p.setValue("est-data", "penguins") // ℓ1 centre: a location loss
	p.waitJS(`document.getElementById("est-loss").value === "l1"`, 20*time.Second)
	if !eval[bool](p, `document.getElementById("est-estimator").disabled`) || p.value("est-estimator") != "exponential" {
		t.Errorf("for a location loss: estimator disabled %v, value %q; want disabled on exponential",
			eval[bool](p, `document.getElementById("est-estimator").disabled`), p.value("est-estimator"))
	}
	p.setValue("est-loss", "huber")
	if eval[bool](p, `document.getElementById("est-estimator").disabled`) || p.value("est-estimator") != "dp-gd" {
		t.Errorf("back to a supervised loss: estimator %q, want the user's dp-gd, enabled", p.value("est-estimator"))
	}
	p.noConsoleErrors()
}
