//go:build !js

package e2e

import (
	"math"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestPrivacySection loads the page, waits for the Go UI, changes ε as a user
// would (typing), and reads back s* — which must equal the calibration for
// that (ε, δ) — and checks the plot is drawn and the console is clean.
func TestPrivacySection(t *testing.T) {
	p := newPage(t, "/")
	p.waitJS(`window.dpsampleUIReady === true`, 30*time.Second)
	loaded := p.requestCount() // building the other sections (buildAll) must fetch nothing either
	p.buildAll(30 * time.Second)
	readS := func() float64 {
		t.Helper()
		v, err := strconv.ParseFloat(p.text("#privacy-s"), 64)
		if err != nil {
			t.Fatalf("s* output: %v", err)
		}
		return v
	}
	// Defaults ε = 1, δ = 1e-5: s* = 0.2680511232 (mpmath; core/privacy/testdata).
	if s := readS(); math.Abs(s-0.268051) > 1e-6 {
		t.Fatalf("default s* = %g, want 0.268051", s)
	}
	p.typeInto("privacy-epsilon", "2")
	p.waitJS(`document.getElementById("privacy-s").textContent.startsWith("0.5015")`, 5*time.Second)
	if s := readS(); math.Abs(s-0.501552) > 1e-6 {
		t.Fatalf("s* at ε = 2 = %g, want 0.501552", s)
	}
	// Plain words in the main text; the formula's source and the paper's
	// constants in the notes (issue 32).
	if lede := p.text("#privacy .lede"); strings.Contains(lede, "Lemma") || strings.Contains(lede, "typo") {
		t.Errorf("the main text cites the paper's lemmas: %q", lede)
	}
	if s := eval[string](p, `document.querySelector("#privacy-notes").textContent`); !strings.Contains(s, "Lemma E.1") || !strings.Contains(s, "s = ε/√2 = 1.414, which is only (ε, ") {
		t.Errorf("the notes lack the formula's source or the paper's constants at ε = 2: %q", s)
	}
	if n := eval[int](p, `document.querySelectorAll("#privacy-plot svg polyline").length`); n < 2 {
		t.Errorf("privacy plot has %d curves, want ≥ 2", n)
	}
	// The same number through the JS API on the page.
	if s := eval[float64](p, `dpsample.privacy.calibrate(2, 1e-5)`); math.Abs(s-0.5015516892) > 1e-9 {
		t.Errorf("dpsample.privacy.calibrate(2, 1e-5) = %g", s)
	}
	// A bad value shows an inline error naming the field, and the page recovers.
	p.typeInto("privacy-delta", "2")
	p.waitJS(`document.getElementById("privacy-delta-err").textContent.startsWith("delta must be")`, 5*time.Second)
	p.typeInto("privacy-delta", "1e-5")
	p.waitJS(`document.getElementById("privacy-s").textContent.startsWith("0.5015")`, 5*time.Second)
	// ε = 0: the former σ and curve go with it (issue 23), and come back with a valid ε.
	p.typeInto("privacy-epsilon", "0")
	p.waitJS(`document.getElementById("privacy-epsilon-err").textContent.startsWith("epsilon must be")`, 5*time.Second)
	if s := p.text("#privacy-s") + " | " + p.text("#privacy-detail") + " | " + p.text("#privacy-paper"); strings.Contains(s, "σ = 1/s*") || strings.Contains(s, "ε/√2") || eval[bool](p, `document.querySelector("#privacy-plot svg") !== null`) {
		t.Errorf("at ε = 0 the section still shows a former result: %q, plot drawn %v", s, eval[bool](p, `document.querySelector("#privacy-plot svg") !== null`))
	}
	p.typeInto("privacy-epsilon", "2")
	p.waitJS(`document.getElementById("privacy-s").textContent.startsWith("0.5015") && document.querySelector("#privacy-plot svg") !== null`, 5*time.Second)
	if n := p.requestCount(); n != loaded {
		t.Errorf("the page made %d requests after loading; it must make none", n-loaded)
	}
	p.screenshot("privacy")
	p.noConsoleErrors()
}
