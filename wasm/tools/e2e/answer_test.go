//go:build !js

package e2e

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"
)

// TestEstimateAnswer (issue 29, items 1–3): a 189-row table whose features say
// nothing about the label (58 of 189 rows positive) runs logistic with DP-GD
// by default (the statement names it), shows the majority class's 69.3 %
// beside the private model's accuracy with the plain warning, and an
// informative regression shows the median's MAE beside the model's without
// the warning. A failed start says so next to Run, resets the progress line
// and focuses the field in error.
func TestEstimateAnswer(t *testing.T) {
	p := newPage(t, "/")
	p.waitJS(`window.dpsampleUIReady === true`, 30*time.Second)
	eval[bool](p, `(localStorage.clear(), true)`)
	var b strings.Builder
	b.WriteString("low,age,lwt,smoke\n")
	for i := 0; i < 189; i++ {
		fmt.Fprintf(&b, "%d,25,130,0\n", map[bool]int{true: 1, false: 0}[i%189 < 58])
	}
	p.setValue("est-data", "csv")
	p.setValue("est-csv", b.String())
	p.featureBoxes(4) // no target yet: every column is offered (issue 53 item 1)
	p.setValue("est-loss", "logistic")
	p.chooseTarget("low")
	p.waitJS(`document.getElementById("est-positive") !== null`, 5*time.Second)
	if v := p.value("est-estimator"); v != "dp-gd" {
		t.Errorf("estimator for logistic = %q, want dp-gd (DEFAULTS.md's rule)", v)
	}
	if n := eval[int](p, `document.querySelectorAll("#est-positive-labels option").length`); n != 2 {
		t.Errorf("%d labels offered for the positive label, want 2", n)
	}
	// A pointless run (the positive label matches no row) asks before it charges.
	p.setValue("est-positive", "2")
	p.setValue("est-ranges-line", "age: 15..50, lwt: 80..260, smoke: 0..1")
	p.click("est-ranges-apply")
	p.click("est-run")
	p.waitJS(`document.getElementById("est-err").textContent !== ""`, 10*time.Second)
	if s := p.text("#est-err"); !strings.HasPrefix(s, "This run cannot learn anything: every row of low would be coded −1 (“2” matches no row)") ||
		!strings.Contains(s, "Nothing was spent") {
		t.Errorf("pointless run: %q", s)
	}
	p.ledgerReleases(0)
	p.setValue("est-positive", "1")
	p.runEstimate()
	if s := p.text("#est-statement"); !strings.Contains(s, "Estimator: drawn by DP-GD") {
		t.Errorf("statement does not name DP-GD: %q", s)
	}
	tr := p.text("#est-trivial")
	if !strings.Contains(tr, "always answering not “1” is right for 69.3 % of the rows") || !strings.Contains(tr, "does no better than the trivial answer") ||
		!strings.Contains(tr, "more rows, a larger ε") {
		t.Errorf("trivial answer: %q", tr)
	}
	exp := eval[string](p, `(async () => { const a = document.getElementById("est-download"); return a ? a.getAttribute("download") : "" })()`)
	if exp == "" {
		t.Error("no export")
	}
	p.shot("#estimate", "answer-no-better")

	// A failed start: the message is where the eye is, the progress line is reset.
	if s := p.text("#est-status"); s != "Done." {
		t.Fatalf("status before the failed start: %q", s)
	}
	p.setValue("est-epsilon", "abc")
	p.click("est-run")
	p.waitJS(`document.getElementById("est-status").textContent.startsWith("Could not start")`, 10*time.Second)
	if got := eval[string](p, `document.activeElement.id + "|" + document.getElementById("est-progress").value`); got != "est-epsilon|0" {
		t.Errorf("after a failed start: focus|progress = %q, want est-epsilon|0", got)
	}
	if s := p.text("#est-status"); s != "Could not start: a field is marked (it has the focus)." {
		t.Errorf("status %q", s)
	}
	p.setValue("est-epsilon", "1")

	// Informative regression: Huber (DP-GD by default) on y = 2x + noise.
	r := rand.New(rand.NewPCG(3, 4))
	b.Reset()
	b.WriteString("x,y\n")
	for i := 0; i < 600; i++ {
		x := r.Float64() * 10
		fmt.Fprintf(&b, "%.3f,%.3f\n", x, 2*x+r.NormFloat64())
	}
	p.setValue("est-csv", b.String())
	p.featureBoxes(2)
	p.setValue("est-loss", "huber")
	p.chooseTarget("y")
	p.setValue("est-budget-epsilon", "6")
	p.setValue("est-epsilon", "3")
	p.setValue("est-ranges-line", "x: 0..10, y: -5..25")
	p.click("est-ranges-apply")
	p.runEstimate()
	tr = p.text("#est-trivial")
	if !strings.Contains(tr, "predicting the median") || !strings.Contains(tr, "in y's units") || strings.Contains(tr, "does no better") ||
		!strings.Contains(tr, "The non-private fit (the comparison, not released) is off by ") {
		t.Errorf("regression's trivial answer (with the non-private fit's MAE and RMSE, issue 45 item 3): %q", tr)
	}
	p.noConsoleErrors()
}
