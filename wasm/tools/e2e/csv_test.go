//go:build !js

package e2e

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"
)

// irisRows is a small iris-like table written for the test: two species,
// sepal and petal lengths in cm, and one sepal length (8.5) outside the
// declared range [4, 8]. 25 rows, so the coordinate median is one row's value.
func irisRows() (rows [][3]float64, species []string) {
	for i := 0; i < 12; i++ {
		rows = append(rows, [3]float64{4.8 + 0.1*float64(i%5), 3.4 + 0.1*float64(i%3), 1.3 + 0.1*float64(i%3)})
		species = append(species, "setosa")
	}
	for i := 0; i < 13; i++ {
		sl := 5.6 + 0.1*float64(i%6)
		if i == 12 {
			sl = 8.5
		}
		rows = append(rows, [3]float64{sl, 2.8 + 0.1*float64(i%4), 4.0 + 0.1*float64(i%5)})
		species = append(species, "versicolor")
	}
	return rows, species
}

// irisCSV writes the table with the given delimiter; a semicolon file uses
// decimal commas (as a spreadsheet in such a locale exports it).
func irisCSV(delim string) string {
	rows, species := irisRows()
	num := func(v float64) string {
		s := fmt.Sprintf("%.1f", v)
		if delim == ";" {
			s = strings.Replace(s, ".", ",", 1)
		}
		return s
	}
	var b strings.Builder
	b.WriteString(strings.Join([]string{"sepal_length", "sepal_width", "petal_length", "species"}, delim) + "\n")
	for i, r := range rows {
		b.WriteString(strings.Join([]string{num(r[0]), num(r[1]), num(r[2]), species[i]}, delim) + "\n")
	}
	return b.String()
}

func colMedian(v []float64) float64 {
	s := append([]float64(nil), v...)
	sort.Float64s(s)
	return s[len(s)/2]
}

// coefRows reads a coefficient table: name, private θ (first sample) and
// the non-private θ̂, at full precision (the cells' data-v).
type coefRow struct {
	Name         string
	Private, Fit float64
}

func (p *page) coefTable(sel string) []coefRow {
	p.t.Helper()
	return eval[[]coefRow](p, `[...document.querySelectorAll(`+"`"+sel+` tr`+"`"+`)].slice(1).map(r => ({Name: r.cells[0].textContent,
		Private: +r.cells[1].dataset.v, Fit: +r.cells[3].dataset.v}))`)
}

// checkFeatures checks exactly the named feature boxes (firing change).
func (p *page) checkFeatures(names ...string) {
	p.t.Helper()
	list := `["` + strings.Join(names, `","`) + `"]`
	eval[bool](p, `(() => { const want = `+list+`; document.querySelectorAll("#est-features input").forEach(c => c.checked = want.includes(c.value));
		document.getElementById("est-features").dispatchEvent(new Event("change", {bubbles: true})); return true })()`)
}

// paste dispatches a paste event carrying the text of the JS expression
// expr on the element id (a synthetic paste: the page's handler decides
// what lands in the box; the browser inserts nothing itself).
func (p *page) paste(id, expr string) {
	p.t.Helper()
	eval[bool](p, `(() => { const dt = new DataTransfer(); dt.setData("text/plain", `+expr+`);
		document.getElementById("`+id+`").dispatchEvent(new ClipboardEvent("paste", {clipboardData: dt, bubbles: true, cancelable: true})); return true })()`)
}

// watchMainThread starts recording the main thread's long tasks (Chromium
// longtask entries) and, with progress, every line shown under the CSV box
// (window.progressSeen). Tests log the tasks; they do not time things.
func (p *page) watchMainThread(progress bool) {
	p.t.Helper()
	eval[bool](p, `((progress) => { window.longTasks = []; window.progressSeen = [];
		window.longObs = new PerformanceObserver((l) => { for (const e of l.getEntries()) window.longTasks.push(Math.round(e.duration)) });
		window.longObs.observe({type: "longtask"});
		if (progress) {
			window.progObs = new MutationObserver(() => window.progressSeen.push(document.getElementById("est-csv-progress")?.textContent));
			window.progObs.observe(document.getElementById("est-csvbox"), {childList: true, characterData: true, subtree: true});
		}
		return true })(`+strconv.FormatBool(progress)+`)`)
}

// longTasks stops watchMainThread's recording and returns the long tasks'
// durations in ms.
func (p *page) longTasks() []int {
	p.t.Helper()
	return eval[[]int](p, `(() => { window.longObs.disconnect(); window.progObs?.disconnect(); window.progObs = undefined; return window.longTasks })()`)
}

func (p *page) runEstimate() {
	p.t.Helper()
	eval[bool](p, `(() => { document.getElementById("est-status").textContent = ""; return true })()`)
	p.click("est-run")
	p.waitJS(`document.getElementById("est-status").textContent === "Done." || document.getElementById("est-err").textContent !== "" ||
		document.getElementById("est-csv-err").textContent !== "" || document.getElementById("est-ranges-err").textContent !== ""`, 90*time.Second)
	for _, id := range []string{"est-err", "est-csv-err", "est-ranges-err"} {
		if s := p.text("#" + id); s != "" {
			p.t.Fatalf("run failed: #%s: %s", id, s)
		}
	}
}

func near(a, b, tol float64) bool { return math.Abs(a-b) <= tol*(1+math.Abs(b)) }

// TestEstimateOwnCSV: an iris-like CSV, semicolon-separated with decimal
// commas and then tab-separated, goes through the Private-estimate section
// end to end: declared ranges (the inputs start empty), results in the CSV's
// units with the scaled values in a details element, the clamped count in
// the not-private box, a stale result marked, one error per problem, and no
// request while running.
func TestEstimateOwnCSV(t *testing.T) {
	p := newPage(t, "/")
	p.waitJS(`window.dpsampleUIReady === true`, 30*time.Second)
	eval[bool](p, `(localStorage.clear(), true)`) // no declarations remembered from another test's file
	loaded := p.requestCount()
	p.setValue("est-data", "csv")
	p.setValue("est-loss", "l1")
	p.setValue("est-csv", irisCSV(";"))
	p.waitJS(`document.querySelectorAll("#est-features input").length === 4`, 5*time.Second)
	if s := p.text("#est-csv-err"); s != "" {
		t.Fatalf("semicolon CSV: %s", s)
	}
	p.checkFeatures("sepal_length", "petal_length")
	// Nothing prefilled from the data: both range inputs start empty, with a note saying why.
	if v := eval[string](p, `document.getElementById("est-lo-0").value + "|" + document.getElementById("est-hi-1").value`); v != "|" {
		t.Errorf("range inputs prefilled with %q; they must start empty", v)
	}
	if s := p.text("#est-ranges-note"); !strings.Contains(s, "would reveal them") {
		t.Errorf("ranges note: %q", s)
	}
	// A run without declared ranges would find them privately; 25 rows are too few for that, which is said once,
	// next to the ranges, before anything is spent.
	p.click("est-run")
	p.waitJS(`document.getElementById("est-ranges-err").textContent !== ""`, 10*time.Second)
	if s := p.text("#est-ranges-err"); !strings.HasPrefix(s, "Too few rows to find ranges privately: n = 25") || !strings.Contains(s, "sepal_length, petal_length") ||
		!strings.Contains(s, "Nothing was spent") {
		t.Errorf("missing range: %q", s)
	}
	if f := eval[string](p, `document.activeElement.id`); f != "est-lo-0" {
		t.Errorf("focus after the ranges' refusal: %q, want the first blank end, est-lo-0", f)
	}

	if s := p.text("#est-err"); s != "" {
		t.Errorf("the range error is repeated on the form's line: %q", s)
	}
	p.setValue("est-lo-0", "4")
	p.setValue("est-hi-0", "8")
	p.setValue("est-lo-1", "1")
	p.setValue("est-hi-1", "7")
	p.setValue("est-epsilon", "8")
	p.setValue("est-budget-epsilon", "13") // two runs at ε = 8 on this table compose to less (the default total is 3)
	p.runEstimate()
	if n := p.requestCount(); n != loaded {
		t.Errorf("%d requests while estimating on a CSV, want 0: %v", n-loaded, p.requests[loaded:])
	}
	rows, _ := irisRows()
	var sl, pl []float64
	for _, r := range rows {
		sl, pl = append(sl, math.Min(r[0], 8)), append(pl, r[2])
	}
	units := p.coefTable("#est-summary > table.coef")
	scaled := p.coefTable("#est-scaled table.coef")
	t.Logf("l1 centre in cm: %+v; scaled: %+v", units, scaled)
	if len(units) != 2 || units[0].Name != "sepal_length" || units[1].Name != "petal_length" {
		t.Fatalf("centre table %+v", units)
	}
	// The non-private centre is the coordinate median, in cm.
	if !near(units[0].Fit, colMedian(sl), 0.01) || !near(units[1].Fit, colMedian(pl), 0.01) {
		t.Errorf("non-private centre (%g, %g) cm, want the medians (%g, %g)", units[0].Fit, units[1].Fit, colMedian(sl), colMedian(pl))
	}
	// Units and scaled values agree through the declared ranges only.
	for j, rg := range [][2]float64{{4, 8}, {1, 7}} {
		c, h := (rg[0]+rg[1])/2, (rg[1]-rg[0])/2
		if !near(units[j].Private, c+h*scaled[j].Private, 1e-9) || !near(units[j].Fit, c+h*scaled[j].Fit, 1e-9) {
			t.Errorf("%s: units %+v vs scaled %+v and range %v", units[j].Name, units[j], scaled[j], rg)
		}
	}
	if s := p.text("#est-declared"); !strings.Contains(s, "sepal_length [4, 8]") || !strings.Contains(s, "petal_length [1, 7]") {
		t.Errorf("declared ranges not shown: %q", s)
	}
	if s := p.text("#est-data-note"); !strings.Contains(s, "25 rows used; semicolon-separated") || strings.Contains(s, "1 rows") {
		t.Errorf("data note: %q", s)
	}
	if s := p.text("#est-diagnostics"); !strings.Contains(s, "1 feature value outside its declared range (clamped)") || !strings.Contains(s, "not private") {
		t.Errorf("not-private box lacks the clamped count: %q", s)
	}
	if s := p.text("#est-statement"); !strings.Contains(s, "one row of the table, complete or not, replaced by any other possible row") ||
		!strings.Contains(s, "n = 25, its number of rows, is public") {
		t.Errorf("statement lacks the privacy unit: %q", s)
	}
	if s := eval[string](p, `document.querySelector("#est-plot svg").textContent`); !strings.Contains(s, "sepal_length") || strings.Contains(s, "scaled") {
		t.Errorf("plot axes are not in the columns' names/units: %q", s)
	}
	p.shot("#estimate", "csv-semicolon-l1")

	// Regression on the same file: LAD of petal_length on sepal_length. The
	// ranges typed above are kept; petal_length's becomes the target range.
	p.setValue("est-loss", "lad")
	p.chooseTarget("petal_length")
	if v := eval[string](p, `document.getElementById("est-lo-t").value + "," + document.getElementById("est-hi-t").value`); v != "1,7" {
		t.Errorf("target range inputs = %q, want the declared 1,7", v)
	}
	p.runEstimate()
	units, scaled = p.coefTable("#est-summary > table.coef"), p.coefTable("#est-scaled table.coef")
	t.Logf("lad in cm: %+v; scaled: %+v", units, scaled)
	if len(units) != 2 || units[1].Name != "intercept" {
		t.Fatalf("regression table %+v", units)
	}
	// y = c_y + h_y·(θ_1·(x − c_1)/h_1 + θ_0): β_1 = h_y·θ_1/h_1, β_0 = c_y + h_y·(θ_0 − θ_1·c_1/h_1).
	for _, k := range []func(r coefRow) float64{func(r coefRow) float64 { return r.Private }, func(r coefRow) float64 { return r.Fit }} {
		b1, b0 := 3*k(scaled[0])/2, 4+3*(k(scaled[1])-k(scaled[0])*6/2)
		if !near(k(units[0]), b1, 1e-9) || !near(k(units[1]), b0, 1e-9) {
			t.Errorf("coefficients in cm (%g, %g), want (%g, %g) from the scaled ones", k(units[0]), k(units[1]), b1, b0)
		}
	}
	if pred := units[0].Fit*5.0 + units[1].Fit; pred < 1 || pred > 5 {
		t.Errorf("the non-private line predicts %g cm of petal at a 5 cm sepal", pred)
	}
	if s := p.text("#est-declared"); !strings.Contains(s, "target petal_length [1, 7]") {
		t.Errorf("target range not shown: %q", s)
	}
	if s := p.text("#est-diagnostics"); !strings.Contains(s, "0 targets outside the target range") {
		t.Errorf("not-private box lacks the target clamp count: %q", s)
	}
	p.shot("#estimate", "csv-semicolon-lad")

	// A new file marks the result stale until the next run.
	p.setValue("est-csv", irisCSV("\t"))
	p.waitJS(`document.getElementById("est-stale") !== null`, 5*time.Second)
	if s := p.text("#est-stale"); !strings.HasPrefix(s, "From the previous run") {
		t.Errorf("stale label %q", s)
	}
	if !eval[bool](p, `document.getElementById("est-results").classList.contains("stale")`) {
		t.Error("the stale result is not greyed")
	}
	p.shot("#estimate", "csv-stale")

	// The tab-separated file is the same table (its budget's key is computed
	// from the parsed rows: docs/PRIVACY.md §8), so it has the two releases;
	// its budget is reset to make room for a third run at ε = 8.
	p.ledgerReleases(2)
	p.click("est-ledger-reset")
	p.click("est-ledger-reset-yes")
	p.ledgerReleases(0)

	// Tab-separated, logistic: the positive label is declared (empty at first).
	p.setValue("est-loss", "logistic")
	p.chooseTarget("species")
	p.waitJS(`document.getElementById("est-positive") !== null`, 5*time.Second)
	if v := eval[string](p, `document.getElementById("est-positive").value`); v != "" {
		t.Errorf("positive label prefilled with %q", v)
	}
	p.checkFeatures("sepal_length", "petal_length")
	p.click("est-run")
	p.waitJS(`document.getElementById("est-ranges-err").textContent !== ""`, 10*time.Second)
	if s := p.text("#est-ranges-err"); !strings.HasPrefix(s, "positive must be the label of species coded +1") {
		t.Errorf("undeclared positive label: %q", s)
	}
	if s := p.text("#est-stale"); !strings.Contains(s, "could not start") {
		t.Errorf("stale label after a failed start: %q", s)
	}
	p.setValue("est-positive", "setosa")
	p.runEstimate()
	if eval[bool](p, `document.getElementById("est-stale") !== null || document.getElementById("est-results").classList.contains("stale")`) {
		t.Error("a fresh result is still marked stale")
	}
	units, scaled = p.coefTable("#est-summary > table.coef"), p.coefTable("#est-scaled table.coef")
	t.Logf("logistic per cm: %+v; scaled: %+v", units, scaled)
	if len(units) != 3 || units[2].Name != "intercept" {
		t.Fatalf("classifier table %+v", units)
	}
	for _, k := range []func(r coefRow) float64{func(r coefRow) float64 { return r.Private }, func(r coefRow) float64 { return r.Fit }} {
		b1, b2 := k(scaled[0])/2, k(scaled[1])/3
		b0 := k(scaled[2]) - k(scaled[0])*6/2 - k(scaled[1])*4/3
		if !near(k(units[0]), b1, 1e-9) || !near(k(units[1]), b2, 1e-9) || !near(k(units[2]), b0, 1e-9) {
			t.Errorf("score per cm (%g, %g, %g), want (%g, %g, %g)", k(units[0]), k(units[1]), k(units[2]), b1, b2, b0)
		}
	}
	// setosa (+1) has short petals: the non-private petal coefficient is negative.
	if units[1].Fit >= 0 {
		t.Errorf("non-private petal_length coefficient %g, want < 0 for setosa = +1", units[1].Fit)
	}
	if s := p.text("#est-data-note"); !strings.Contains(s, "tab-separated") || !strings.Contains(s, "setosa → +1") {
		t.Errorf("data note: %q", s)
	}
	if n := p.requestCount(); n != loaded {
		t.Errorf("%d requests during the CSV runs, want 0: %v", n-loaded, p.requests[loaded:])
	}
	eval[bool](p, `(() => { document.getElementById("est-scaled").open = true; return true })()`)
	p.shot("#estimate", "csv-tab-logistic")
	p.noConsoleErrors()
}

// TestEstimatePageInputs: a paste over the size cap shows its error once and
// clears when fixed; a missing cell is filled, not refused (issue 51 item
// 1), and its column offers a "was missing" column; "1,5" and a
// fractional n are rejected by the API's rules; LAD on penguins defaults to
// a numeric target with its declared range.
func TestEstimatePageInputs(t *testing.T) {
	p := newPage(t, "/")
	p.waitJS(`window.dpsampleUIReady === true`, 30*time.Second)
	// Penguins: LAD's default target is numeric, its range declared and shown.
	p.setValue("est-loss", "lad")
	p.setValue("est-samples", "2")
	if v := eval[string](p, `document.getElementById("est-target").value`); v != "body_mass_g" {
		t.Errorf("LAD target on penguins = %q, want body_mass_g", v)
	}
	if v := eval[string](p, `["lo-0","hi-0","lo-t","hi-t"].map(k => document.getElementById("est-"+k).value + (document.getElementById("est-"+k).readOnly ? "" : "!")).join(",")`); v != "30,60,2500,6500" {
		t.Errorf("penguin ranges shown as %q, want the declared, read-only 30,60,2500,6500", v)
	}
	p.runEstimate()
	if s := p.text("#est-declared"); !strings.Contains(s, "target body_mass_g [2500, 6500]") {
		t.Errorf("declared: %q", s)
	}
	p.shot("#estimate", "penguins-lad")

	p.setValue("est-data", "csv")
	p.setValue("est-loss", "l2dist")
	// Too large: 17 MB of text (the cap on what the page parses; the time a
	// run would take is the limit a table meets first: TestEstimateWork).
	// Pasted: refused before it lands in the box (a textarea of 17 MB takes
	// Chromium minutes to lay out on a loaded machine).
	p.paste("est-csv", `"a,b\n" + "1,2\n".repeat(17*(1<<20)/4)`)
	if n := eval[int](p, `document.getElementById("est-csv").textLength`); n != 0 {
		t.Errorf("a refused paste left %d characters in the box", n)
	}
	const tooBig = "the CSV text must be at most 16 MB"
	p.waitJS(`document.getElementById("est-csv-err").textContent.startsWith(`+"`"+tooBig+"`"+`)`, 5*time.Second)
	p.click("est-run")
	time.Sleep(300 * time.Millisecond)
	if n := eval[int](p, `document.getElementById("estimate").innerText.split(`+"`"+tooBig+"`"+`).length - 1`); n != 1 {
		t.Errorf("the size error is shown %d times, want once", n)
	}
	p.setValue("est-csv", "a,b\n1,2\n3,NaN\n5,6\n")
	p.waitJS(`document.getElementById("est-csv-err").textContent === ""`, 5*time.Second)
	// A NaN cell is a missing cell, no longer an error (issue 51 item 1): it
	// takes its range's middle, the rows all count, and the column offers a
	// 0/1 "b missing" column; the "drop rows" checkbox is gone.
	p.checkFeatures("a", "b")
	p.waitJS(`document.getElementById("est-ind-1") !== null`, 10*time.Second)
	if s := p.text("label[for=est-ind-1]"); !strings.Contains(s, "“b missing”") || !strings.Contains(s, "1 cell of b empty") || !strings.Contains(s, "shown only to you") {
		t.Errorf("the missing cells' column offered: %q", s)
	}
	if n := eval[int](p, `document.querySelectorAll("#est-drop, #est-ind-0").length`); n != 0 {
		t.Errorf("%d of the drop-rows checkbox and an indicator for a, which has no empty cell", n)
	}
	p.setValue("est-ranges-line", "a: 0..10, b: 0..10")
	p.click("est-ranges-apply")
	p.runEstimate()
	if s := p.text("#est-data-note"); !strings.Contains(s, "3 rows used") {
		t.Errorf("data note %q: want the file's 3 rows", s)
	}
	if s := p.text("#est-diagnostics"); !strings.Contains(s, "1 empty cell filled with the middle of its column's declared range") {
		t.Errorf("diagnostics %q do not say the cell was filled", s)
	}
	// Field rules are the API's: "1,5" is not 1, n = 1.5 is not 1.
	p.setValue("est-delta", "1,5")
	if s := p.text("#est-delta-err"); s != `delta must be a number written with a decimal point (1.5, not 1,5), got "1,5"` {
		t.Errorf("δ = 1,5: %q", s)
	}
	p.setValue("est-delta", "1.5")
	if s := p.text("#est-delta-err"); s != "delta must be a number in (0, 1), got 1.5" {
		t.Errorf("δ = 1.5: %q", s)
	}
	p.setValue("est-delta", "1e-5")
	if s := p.text("#est-delta-err"); s != "" {
		t.Errorf("a valid δ keeps its error: %q", s)
	}
	p.setValue("bounds-n", "1.5")
	if s := p.text("#bounds-n-err"); s != "n must be an integer in [1, 2147483647], got 1.5" {
		t.Errorf("bounds n = 1.5: %q", s)
	}
	if n := eval[int](p, `document.querySelectorAll("#bounds-table tr").length`); n != 0 {
		t.Errorf("a bounds table of %d rows stays beside the error", n)
	}
	p.noConsoleErrors()
}

// TestDimFreeThreeMethods: the dimension-free section draws Algorithm 1,
// projected and unprojected DP-GD at each d, with a sentence per line, and
// keeps Theorem 2.2's bound.
func TestDimFreeThreeMethods(t *testing.T) {
	p := newPage(t, "/")
	p.waitJS(`window.dpsampleUIReady === true`, 30*time.Second)
	p.buildAll(30 * time.Second) // the section may still be waiting for its lazy build at ready
	p.setValue("dimfree-n", "300")
	p.setValue("dimfree-maxd", "16")
	p.setValue("dimfree-trials", "1")
	p.setValue("dimfree-n", "1.5")
	if s := p.text("#dimfree-n-err"); s != "" {
		t.Errorf("an error before Run: %q", s)
	}
	p.click("dimfree-run")
	p.waitJS(`document.getElementById("dimfree-n-err").textContent !== ""`, 5*time.Second)
	if s := p.text("#dimfree-n-err"); s != "n must be an integer in [2, 20000], got 1.5" {
		t.Errorf("n = 1.5: %q", s)
	}
	if s := p.text("#dimfree-err"); s != "" {
		t.Errorf("the n error is repeated: %q", s)
	}
	p.setValue("dimfree-n", "300")
	p.click("dimfree-run")
	p.waitJS(`document.getElementById("dimfree-status").textContent === "Done."`, 90*time.Second)
	svg := eval[string](p, `document.querySelector("#dimfree-plot svg").textContent`)
	for _, name := range []string{"Algorithm 1", "projected DP-GD", "unprojected DP-GD", "Thm 2.2 bound"} {
		if !strings.Contains(svg, name) {
			t.Errorf("plot lacks %q: %q", name, svg)
		}
	}
	if n := eval[int](p, `document.querySelectorAll("#dimfree-lines li").length`); n != 4 {
		t.Errorf("%d explanations, want one per line (4)", n)
	}
	if s := p.text("#dimfree-note"); !strings.Contains(s, "1 run per method") {
		t.Errorf("note: %q", s)
	}
	p.noConsoleErrors()
}

// TestEstimateLargePaste (issue 29, item 4): a 10 MB CSV pasted into the box
// or dropped on it is read and profiled off the main thread, with progress
// (the main thread's long tasks are logged, from before the text lands until
// its columns are shown), and the size cap is stated next to the file input.
func TestEstimateLargePaste(t *testing.T) {
	p := newPage(t, "/")
	p.waitJS(`window.dpsampleUIReady === true`, 30*time.Second)
	p.setValue("est-data", "csv")
	if s := p.text("label[for=est-file]"); !strings.Contains(s, "at most 16 MB") {
		t.Errorf("the file input's label does not state the cap: %q", s)
	}
	// The text is built in a task of its own, before the observer starts.
	eval[bool](p, `(() => { window.bigCSV = "size,count,label\n" + "0.5,2,yes\n3.25,1,no\n".repeat(10*(1<<20)/20); return true })()`)
	for _, how := range []string{"paste", "drop"} {
		if how == "drop" { // the file too, in a task of its own (the test's, not the page's)
			eval[bool](p, `(() => { window.bigFile = new File([bigCSV.replace("size,", "weight,")], "big.csv", {type: "text/csv"}); return true })()`)
		}
		p.watchMainThread(true)
		switch how {
		case "paste":
			p.paste("est-csv", "bigCSV")
		case "drop":
			eval[bool](p, `(() => { const dt = new DataTransfer(); dt.items.add(bigFile);
				document.getElementById("est-csvbox").dispatchEvent(new DragEvent("drop", {dataTransfer: dt, bubbles: true, cancelable: true})); return true })()`)
		}
		first := map[string]string{"paste": "size", "drop": "weight"}[how]
		// No target chosen yet: every column is offered as a feature (issue 53 item 1).
		p.waitJS(`[...document.querySelectorAll("#est-features input")].map(c => c.value).join() === "`+first+`,count,label"`, 3*time.Minute)
		time.Sleep(500 * time.Millisecond) // the last task's entry is delivered after it ends
		// The main thread's long tasks are logged, not asserted: tests do not time things (a quiet 2-core
		// machine measured 61–92 ms here once the held text was no longer copied into Go to test its truthiness,
		// 54–511 ms before, 1.5–59 s before the table was held and profiled in the worker).
		long := p.longTasks()
		t.Logf("%s of 10 MB: the main thread's long tasks (Chromium longtask entries): %v ms", how, long)
		seen := eval[[]string](p, `window.progressSeen.filter(s => s)`)
		pct := false
		for _, s := range seen {
			pct = pct || strings.Contains(s, "%")
		}
		if !pct {
			t.Errorf("%s of 10 MB: no progress shown while the file was read (the line showed %q)", how, seen)
		}
		if s := p.text("#est-target"); !strings.Contains(s, "label") {
			t.Errorf("%s: target choices %q, want the label column", how, s)
		}
		// Held by the page, not laid out in the box; the line says so.
		if n := eval[int](p, `document.getElementById("est-csv").textLength`); n != 0 {
			t.Errorf("%s: the box holds %d characters", how, n)
		}
		if s := p.text("#est-csv-held"); !strings.Contains(s, "(10.0 MB), is loaded") {
			t.Errorf("%s: held line %q", how, s)
		}
		t.Logf("%s of 10 MB: long tasks %v ms; %d progress lines, the last %q", how, long, len(seen), seen[len(seen)-1])
	}
	p.noConsoleErrors()
}

// TestEstimateLargeRun (issue 29 item 4): a Run on a pasted 10 MB table
// (about a million rows) reads the table in the worker, with its progress
// under the box — for the private ranges (blank here) and for the model —,
// hashes its budget's key there, and sends the rows to the sampler as one
// Float64Array; the run then starts (or asks for a second press, or is
// refused, by its time estimate). The main thread's long tasks are logged,
// not asserted (tests do not time things).
func TestEstimateLargeRun(t *testing.T) {
	p := newPage(t, "/")
	p.waitJS(`window.dpsampleUIReady === true`, 30*time.Second)
	p.setValue("est-data", "csv")
	eval[bool](p, `(() => { window.bigCSV = "size,count,label\n" + "0.5,2,yes\n3.25,1,no\n".repeat(10*(1<<20)/20); return true })()`)
	p.paste("est-csv", "bigCSV")
	p.waitJS(`[...document.querySelectorAll("#est-features input")].map(c => c.value).join() === "size,count,label"`, 3*time.Minute)
	p.setValue("est-loss", "logistic") // the owner's choice: no confirming press (issue 30)
	p.chooseTarget("label")
	p.waitJS(`document.getElementById("est-positive") !== null`, 10*time.Second)
	p.setValue("est-positive", "yes")
	p.setValue("est-budget-delta", "1e-8") // below 1/n
	p.setValue("est-delta", "1e-9")
	p.watchMainThread(true)
	p.click("est-run")
	started := `document.getElementById("est-status").textContent.startsWith("Sampling") || document.getElementById("est-work").textContent.includes("Press Run again") || document.getElementById("est-err").textContent !== ""`
	p.waitJS(started, 5*time.Minute)
	time.Sleep(500 * time.Millisecond)
	long := p.longTasks()
	t.Logf("Run on 10 MB: status %q; work %q; error %q", p.text("#est-status"), p.text("#est-work"), p.text("#est-err"))
	t.Logf("Run on 10 MB: the main thread's long tasks (Chromium longtask entries): %v ms", long)
	seen := eval[[]string](p, `window.progressSeen.filter(s => s)`)
	pct := false
	for _, s := range seen {
		pct = pct || (strings.Contains(s, "Reading your table (10.0 MB) in the background for this run") && strings.Contains(s, "%"))
	}
	if !pct {
		t.Errorf("no progress of the table's reading at Run (the line showed %q)", seen)
	}
	if s := p.text("#est-err"); s != "" && !strings.Contains(s, "would take") {
		t.Errorf("Run on 10 MB: error %q", s)
	}
	if eval[bool](p, `!document.getElementById("est-cancel").disabled`) {
		p.click("est-cancel")
		p.waitJS(`!document.getElementById("est-status").textContent.startsWith("Sampling")`, 60*time.Second)
	}
	p.noConsoleErrors()
}

// TestEstimateLargeCentre (issue 29 item 4): a 2-D centre (ℓ1) of a pasted
// table of 200,000 rows draws its figure over the rows it shows: the
// contours of the loss over every 40th row (the legend says so), not 36²
// passes over all rows on the main thread (seconds of frozen page). The
// main thread's long tasks are logged, not asserted.
func TestEstimateLargeCentre(t *testing.T) {
	p := newPage(t, "/")
	p.waitJS(`window.dpsampleUIReady === true`, 30*time.Second)
	p.setValue("est-data", "csv")
	p.setValue("est-loss", "l1")
	eval[bool](p, `(() => { const r = []; for (let i = 0; i < 200000; i++) r.push((i % 97) / 10 + "," + (i % 89) / 20);
		window.centreCSV = "a,b\n" + r.join("\n") + "\n"; window.centreCSV.charCodeAt(1e6); return true })()`)
	p.paste("est-csv", "centreCSV")
	p.waitJS(`[...document.querySelectorAll("#est-features input")].map(c => c.value).join() === "a,b"`, 2*time.Minute)
	p.checkFeatures("a", "b")
	p.setValue("est-lo-0", "0")
	p.setValue("est-hi-0", "10")
	p.setValue("est-lo-1", "0")
	p.setValue("est-hi-1", "5")
	p.setValue("est-budget-delta", "1e-7")
	p.setValue("est-delta", "1e-8")
	p.watchMainThread(false)
	p.runEstimate()
	time.Sleep(500 * time.Millisecond)
	t.Logf("2-D centre of 200,000 rows: the main thread's long tasks from Run to the figure (Chromium longtask entries): %v ms",
		p.longTasks())
	svg := eval[string](p, `document.querySelector("#est-plot svg").textContent`)
	if !strings.Contains(svg, "loss contours (of the rows drawn)") || !strings.Contains(svg, "every 40th of 200") {
		t.Errorf("the figure's legend does not say which rows it draws and contours: %q", svg)
	}
	if n := eval[int](p, `document.querySelectorAll("#est-plot svg polyline").length`); n < 2 {
		t.Errorf("%d contour lines drawn", n)
	}
	p.noConsoleErrors()
}
