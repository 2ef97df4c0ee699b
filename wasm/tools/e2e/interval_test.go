//go:build !js

package e2e

import (
	"fmt"
	"math"
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"
	"time"
)

// intervalCSV is n rows of a logistic model on two features (seeded): age
// in years and a 0/1 smoker flag, the label yes/no.
func intervalCSV(n int) string {
	r := rand.New(rand.NewPCG(54, 1))
	var b strings.Builder
	b.WriteString("age,smoker,sick\n")
	for range n {
		age := 20 + r.IntN(60)
		sm := r.IntN(2)
		z := -3 + 0.05*float64(age) + 0.8*float64(sm)
		lab := "no"
		if r.Float64() < 1/(1+math.Exp(-z)) {
			lab = "yes"
		}
		fmt.Fprintf(&b, "%d,%d,%s\n", age, sm, lab)
	}
	return b.String()
}

// TestEstimateIntervals (issue 54): on a table large enough for the public
// gate, the "95 % intervals" box (on by default) says before Run what they
// cost inside the run's ε; the result shows each coefficient's interval in
// its column's units in the table and on the chart, the statement says in
// one sentence what an interval means, and the CSV to publish carries them.
// On a small table the line says why there are none, and the run has none.
func TestEstimateIntervals(t *testing.T) {
	p := openEstimateCSV(t) // the CSP bypassed so that the test can read the downloads back
	p.setValue("est-csv", intervalCSV(12000))
	p.featureBoxes(3)
	p.setValue("est-loss", "logistic")
	p.chooseTarget("sick")
	p.waitJS(`document.getElementById("est-positive") !== null`, 10*time.Second)
	p.setValue("est-positive", "yes")
	p.setValue("est-ranges-line", "age: 0..100, smoker: 0..1")
	p.click("est-ranges-apply")
	p.waitJS(`document.getElementById("est-ranges-line-msg").textContent.includes("Applied 2 ranges")`, 10*time.Second)
	if !eval[bool](p, `document.getElementById("est-interval").checked`) {
		t.Error("the intervals box is not on by default")
	}
	p.waitJS(`document.getElementById("est-interval-line").textContent.includes("inside this run's ε")`, 20*time.Second)
	if s := p.text("#est-interval-line"); !regexp.MustCompile(`the model is drawn with \d+ % of its privacy budget \(as precise as a run at ε ≈ [0-9.]+ without intervals\)`).MatchString(s) {
		t.Errorf("the cost line: %q", s)
	}
	p.runEstimate()
	p.ledgerReleases(1) // one release: the model and its intervals together
	cells := eval[[]string](p, `[...document.querySelectorAll("#est-summary > table.coef td.interval")].map(c => c.textContent)`)
	if len(cells) != 3 || !strings.HasPrefix(cells[0], "[") || !strings.HasPrefix(cells[1], "[") || !strings.HasPrefix(cells[2], "— ") {
		t.Errorf("interval cells %q: want age's and smoker's in brackets, the intercept's deferred to the scaled table", cells)
	}
	if s := p.text("#est-statement"); !strings.Contains(s, "95 of 100 such intervals would hold the population's value — privacy noise included") {
		t.Errorf("statement: %q", s)
	}
	if n := eval[int](p, `[...document.querySelectorAll("#est-plot svg text")].filter(t => t.textContent.includes("95 % interval")).length`); n == 0 {
		t.Error("the chart has no interval series")
	}
	csv := p.download("est-download-csv")
	lines := strings.Split(strings.TrimSpace(csv), "\n")
	if len(lines) < 3 || lines[1] != "coefficient,reference,estimate,unit,lo_95,hi_95" || !strings.Contains(lines[0], "95 of 100 such intervals") {
		t.Errorf("the published CSV: %q", csv)
	}
	exp := eval[string](p, `window.lastExport.text()`)
	if !strings.Contains(exp, `"intervals"`) || !strings.Contains(exp, `"level": 0.95`) {
		t.Errorf("the JSON export lacks the intervals: %.300s", exp)
	}
	p.shot("#estimate", "estimate-intervals")

	// Below the gate (a file of the same columns: the choices stay): the
	// line says why.
	p.setValue("est-csv", intervalCSV(300))
	p.waitJS(`document.getElementById("est-interval-line").textContent.startsWith("No 95 % intervals at this size")`, 20*time.Second)
	p.runEstimate()
	if s := p.text("#est-statement"); !strings.Contains(s, "No 95 % intervals were released: n·s = ") {
		t.Errorf("statement below the gate: %q", s)
	}
	if exp := eval[string](p, `window.lastExport.text()`); !strings.Contains(exp, `"reason"`) {
		t.Errorf("the export lacks the reason there is no interval: %.300s", exp)
	}
	if n := eval[int](p, `document.querySelectorAll("#est-summary > table.coef td.interval").length`); n != 0 {
		t.Errorf("%d interval cells below the gate", n)
	}
	p.noConsoleErrors()
}
