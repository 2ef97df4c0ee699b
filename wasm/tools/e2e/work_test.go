//go:build !js

package e2e

import (
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestEstimateWork: the page's limit on a table is the time its run would
// take (wasm/ui/estimate/internal/timing), from the plan's work and a pass
// timed on this device. On 100,000 rows of three features (2.4 MB of CSV, far inside the
// text cap): at ε = 2.5 the run is refused before it starts, with the time
// (hours here) and the rows that would fit. The run's time grows about in
// proportion to ε at this n (T does), so the test takes the page's own
// estimate at ε = 2.5 and picks ε for ≈ 10 min — the run waits for a second
// press of Run, saying how long it would take and how long without fixed
// work — and for ≈ 35 s — it starts at once with "about N s" in its status
// (and is cancelled). The cases hold for any device speed.
func TestEstimateWork(t *testing.T) {
	p := newPage(t, "/")
	p.waitJS(`window.dpsampleUIReady === true`, 30*time.Second)
	p.setValue("est-data", "csv")
	eval[bool](p, `(() => { const e = document.getElementById("est-csv"); const rows = ["a,b,c,label"];
		for (let i = 0; i < 100000; i++) { const a = Math.sin(1.3*i), b = Math.cos(0.7*i), c = Math.sin(0.37*i + 1);
			rows.push(a.toFixed(3) + "," + b.toFixed(3) + "," + c.toFixed(3) + "," + (a + b - c > 0 ? "yes" : "no")); }
		e.value = rows.join("\n") + "\n"; e.dispatchEvent(new Event("input", {bubbles: true})); return true })()`)
	p.waitJS(`document.querySelectorAll("#est-features input").length === 4`, 60*time.Second) // no target yet: every column (issue 53 item 1)
	p.chooseTarget("label")
	if got := p.value("est-loss"); got != "logistic" {
		t.Fatalf("task %q, want logistic suggested for a yes/no target", got)
	}
	p.setValue("est-loss", "logistic")         // the owner's own choice: no confirming press of Run (issue 30)
	p.setValue("est-estimator", "exponential") // Algorithm 1, whose passes the limits are about (DP-GD is the default since issue 29)
	p.setValue("est-ranges-line", "a: -1..1, b: -1..1, c: -1..1")
	p.click("est-ranges-apply")
	p.waitJS(`document.getElementById("est-positive") !== null`, 5*time.Second)
	p.setValue("est-positive", "yes")
	p.setValue("est-delta", "1e-6")
	p.setValue("est-budget-delta", "1e-7") // the table's budget: δ below 1/n = 1e-5
	if w := p.value("est-workers"); w != eval[string](p, `String(navigator.hardwareConcurrency)`) {
		t.Errorf("workers %q: a cross-origin isolated page offers every core by default", w)
	}

	// Refused: over the page's hour.
	p.setValue("est-epsilon", "2.5")
	p.click("est-run")
	p.waitJS(`document.getElementById("est-err").textContent !== ""`, 60*time.Second)
	t.Logf("refusal: %s", p.text("#est-err"))
	// It says what the form can change (issue 53 item 7): DP-GD, or a
	// smaller ε; never "sample the rows down", which the page has no control for.
	if s := p.text("#est-err"); !strings.Contains(s, "would take about") || !strings.Contains(s, "choose the DP-GD estimator") ||
		!strings.Contains(s, "lower ε") || !strings.Contains(s, "would fit") || !strings.Contains(s, "passes over") || strings.Contains(s, "sample the rows down") {
		t.Errorf("refusal: %q", s)
	}
	if f := eval[string](p, `document.activeElement.id`); f != "est-run" {
		t.Errorf("focus after the too-long refusal: %q, want est-run", f)
	}
	if s := p.text("#est-status"); strings.HasPrefix(s, "Sampling") {
		t.Errorf("a refused run started: %q", s)
	}

	m := regexp.MustCompile(`would take about ([0-9.]+) (h|min)`).FindStringSubmatch(p.text("#est-err"))
	if m == nil {
		t.Fatalf("refusal without a time in hours or minutes: %q", p.text("#est-err"))
	}
	secs, _ := strconv.ParseFloat(m[1], 64)
	secs *= map[string]float64{"h": 3600, "min": 60}[m[2]]
	epsFor := func(target float64) string { return strconv.FormatFloat(2.5*target/secs, 'g', 3, 64) }

	// Long: a second press is needed.
	p.setValue("est-epsilon", epsFor(600))
	p.click("est-run")
	p.waitJS(`document.getElementById("est-work").textContent.includes("Press Run again")`, 60*time.Second)
	t.Logf("ε = %s: %s", epsFor(600), p.text("#est-work"))
	if s := p.text("#est-work"); !strings.Contains(s, "min") || !strings.Contains(s, "Without fixed work") || !strings.Contains(s, "choose the DP-GD estimator") ||
		strings.Contains(s, "sample the rows down") {
		t.Errorf("long-run warning: %q", s)
	}
	if f := eval[string](p, `document.activeElement.id`); f != "est-run" {
		t.Errorf("focus after the long-run question: %q, want est-run", f)
	}
	// No run has measured the workers yet: the estimate says how it counts them (issue 29 item 5).
	if w := p.value("est-workers"); w != "1" && !strings.Contains(p.text("#est-work"), "workers (counted at 1.6× one until a run measures them)") {
		t.Errorf("long-run warning on %s workers does not say how they are counted: %q", w, p.text("#est-work"))
	}
	time.Sleep(500 * time.Millisecond)
	if s := p.text("#est-status"); strings.HasPrefix(s, "Sampling") {
		t.Errorf("a long run started on the first press: %q", s)
	}
	if s := p.errorsShown(); s != "" {
		t.Errorf("the warning is not an error: %s", s)
	}
	p.shot("#estimate", "estimate-long-run")

	// Short enough to start, long enough to say so: ε scaled from the
	// estimate just shown (nearer than the hour's, as K falls with ε too).
	mc := regexp.MustCompile(`will take about ([0-9.]+) (h|min)`).FindStringSubmatch(p.text("#est-work"))
	if mc == nil {
		t.Fatalf("long-run warning without a time: %q", p.text("#est-work"))
	}
	secsC, _ := strconv.ParseFloat(mc[1], 64)
	secsC *= map[string]float64{"h": 3600, "min": 60}[mc[2]]
	epsC, _ := strconv.ParseFloat(epsFor(600), 64)
	epsW := strconv.FormatFloat(epsC*35/secsC, 'g', 3, 64)
	eval[bool](p, `(() => { document.getElementById("est-status").textContent = ""; return true })()`)
	p.setValue("est-epsilon", epsW)
	eval[bool](p, `(() => { window.statusSeen = []; new MutationObserver(() => window.statusSeen.push(document.getElementById("est-status").textContent))
		.observe(document.getElementById("est-status"), {childList: true, characterData: true, subtree: true}); return true })()`)
	p.click("est-run")
	p.waitJS(`document.getElementById("est-work").textContent.includes("This run takes about") || document.getElementById("est-status").textContent !== ""`, 60*time.Second)
	t.Logf("ε = %s: %s", epsW, p.text("#est-work"))
	if s := p.text("#est-work"); !strings.Contains(s, "This run takes about") {
		t.Errorf("work line %q", s)
	}
	if s := p.text("#est-status"); strings.HasPrefix(s, "Sampling") && !strings.Contains(s, "(about ") {
		t.Errorf("status %q lacks the estimate", s)
	}
	// While it runs, the time left is said from its progress; then it is cancelled.
	for end := time.Now().Add(90 * time.Second); time.Now().Before(end); time.Sleep(time.Second) {
		if eval[bool](p, `window.statusSeen.some((s) => /: about [0-9.]+ (s|min) left\.$/.test(s)) || document.getElementById("est-status").textContent === "Done."`) {
			break
		}
	}
	if s := eval[[]string](p, `window.statusSeen.filter((s) => s.endsWith(" left."))`); len(s) == 0 {
		t.Errorf("no 'about N s left' while running; the status was %q (%s)", eval[[]string](p, `window.statusSeen`), p.text("#est-err"))
	} else {
		t.Logf("while running: %q", s[0])
	}
	if eval[bool](p, `!document.getElementById("est-cancel").disabled`) {
		p.click("est-cancel")
		p.waitJS(`!document.getElementById("est-status").textContent.startsWith("Sampling")`, 60*time.Second)
	}
}
