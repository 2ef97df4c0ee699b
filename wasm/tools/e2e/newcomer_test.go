//go:build !js

package e2e

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// Issue 23: the estimate a newcomer can read. A fresh CSV runs on the first
// click with its defaults, messages name their cause and go with it, and the
// figures carry their own labels.

// fieldCSV is a small table a person might bring: a text column (the site),
// two numeric measurements and a numeric target. Values are deterministic.
func fieldCSV() string {
	var b strings.Builder
	b.WriteString("site,rain_mm,temp_c,yield_t\n")
	sites := []string{"north", "south", "east", "west"}
	for i := range 40 {
		rain := 300 + float64((i*37)%900)
		temp := 5 + float64((i*13)%25)
		y := 1 + 0.004*rain + 0.1*temp + 0.3*float64(i%3)
		fmt.Fprintf(&b, "%s,%g,%g,%.2f\n", sites[i%4], rain, temp, y)
	}
	return b.String()
}

func (p *page) value(id string) string {
	p.t.Helper()
	return eval[string](p, `document.getElementById(`+strconv.Quote(id)+`).value`)
}

// errorsShown lists the estimate's non-empty message slots.
func (p *page) errorsShown() string {
	return eval[string](p, `["est-err", "est-csv-err", "est-ranges-err", "est-ranges-line-msg"].map(id => document.getElementById(id))
		.filter(e => e && e.classList.contains("error") && e.textContent.trim() !== "").map(e => e.id + ": " + e.textContent).join(" | ")`)
}

// confirmTask makes the task the form suggested from the file the owner's
// choice (as choosing it in the Task select does), so that Run does not
// first ask to confirm it.
func (p *page) confirmTask() {
	p.t.Helper()
	p.setValue("est-loss", p.value("est-loss"))
}

// clickRun clicks Run once and waits for it to end, with or without error.
func (p *page) clickRun() {
	p.t.Helper()
	eval[bool](p, `(() => { document.getElementById("est-status").textContent = ""; return true })()`)
	p.click("est-run")
	p.waitJS(`document.getElementById("est-status").textContent === "Done." || document.getElementById("est-err").textContent !== "" ||
		document.getElementById("est-csv-err").textContent !== "" || document.getElementById("est-ranges-err").textContent !== ""`, 90*time.Second)
}

// TestEstimateFirstRun: a CSV with a text column opens with no target (issue
// 53 item 1: the list asks for one, every column offered as a feature, the
// text column unticked, issue 42); the ranges are declared in one pasted
// line; the first Run asks for the target (focus on the list, nothing
// spent), the target chosen suggests a regression, which the next Run asks
// to confirm (focus on the task, nothing spent), and the next runs. The
// coefficient chart's tick labels are the column names; the ranges and the
// confirmed task are remembered for a file with the same header (filled in
// after a reload: once the target is chosen, Run works at once) and
// forgotten on request.
func TestEstimateFirstRun(t *testing.T) {
	p := newPage(t, "/")
	p.waitJS(`window.dpsampleUIReady === true`, 30*time.Second)
	eval[bool](p, `(localStorage.clear(), true)`)
	p.setValue("est-data", "csv")
	p.setValue("est-csv", fieldCSV())
	p.featureBoxes(4)
	if got := p.value("est-target") + "|" + eval[string](p, `document.getElementById("est-target").selectedOptions[0]?.textContent ?? ""`); got != "|— choose the column to predict —" {
		t.Errorf("target on load = %q, want none chosen", got)
	}
	st := eval[map[string]string](p, `Object.fromEntries([...document.querySelectorAll("#est-features input")].map(c => [c.value, (c.checked ? "checked" : "unchecked") + (c.disabled ? ",disabled" : "")]))`)
	if st["site"] != "unchecked" || st["rain_mm"] != "checked" || st["temp_c"] != "checked" || st["yield_t"] != "checked" {
		t.Errorf("features %v: want the text column site offered but unticked (issue 42: one-hot when ticked), the numbers ticked", st)
	}
	p.setValue("est-ranges-line", "rain_mm: 0..1500, temp_c: -10..40, yield_t: 0..12")
	p.click("est-ranges-apply")
	p.waitJS(`document.getElementById("est-lo-0").value === "0" && document.getElementById("est-hi-2").value === "12"`, 5*time.Second)
	if s := p.text("#est-ranges-line-msg"); !strings.Contains(s, "Applied 3 ranges") {
		t.Errorf("line message %q", s)
	}
	// No target: the first Run asks for one, on the list, spending nothing.
	p.clickRun()
	if s := p.text("#est-err"); !strings.HasPrefix(s, "Choose the column to predict first (the target list above)") || !strings.Contains(s, "Nothing was spent") {
		t.Fatalf("first click: %q", s)
	}
	if f := eval[string](p, `document.activeElement.id`); f != "est-target" {
		t.Errorf("focus after the target question: %q, want est-target", f)
	}
	p.ledgerReleases(0)
	p.chooseTarget("yield_t")
	if got := p.value("est-loss"); got != "smooth-quantile" {
		t.Errorf("task suggested for yield_t: %q, want smooth-quantile", got)
	}
	p.waitJS(`document.getElementById("est-lo-0").value === "0" && document.getElementById("est-hi-t").value === "12"`, 5*time.Second)
	// The task was suggested from the file's contents: the next Run asks the owner to confirm it, spending nothing.
	p.clickRun()
	if s := p.text("#est-err"); !strings.HasPrefix(s, "Check the task first: “regression: smooth median (fast), predicting yield_t” was suggested from your file's contents") ||
		!strings.Contains(s, "Nothing was spent") {
		t.Fatalf("second click: %q", s)
	}
	if f := eval[string](p, `document.activeElement.id`); f != "est-loss" {
		t.Errorf("focus after the task question: %q, want est-loss", f)
	}
	p.ledgerReleases(0)
	p.clickRun()
	if s := p.errorsShown(); s != "" || p.text("#est-status") != "Done." {
		t.Fatalf("the third click with the defaults did not run: status %q, messages %s", p.text("#est-status"), s)
	}
	names := eval[[]string](p, `[...document.querySelectorAll("#est-plot svg text.category")].map(t => t.textContent)`)
	if strings.Join(names, ",") != "rain_mm,temp_c" {
		t.Errorf("coefficient chart's tick labels %q, want the column names rain_mm, temp_c", names)
	}
	if s := p.text("#est-plot figcaption"); !strings.Contains(s, "for your eyes only") {
		t.Errorf("figure caption %q", s)
	}
	if s := p.text("#est-summary"); !strings.Contains(s, "yield_t per unit of each column") {
		t.Errorf("summary %q lacks the per-unit reading", s)
	}
	p.shot("#estimate", "estimate-first-run")

	// A reload: the same header gets its ranges back; Run works at once.
	p.do(chromedp.Navigate(baseURL + "/"))
	p.waitJS(`window.dpsampleUIReady === true`, 30*time.Second)
	p.setValue("est-data", "csv")
	p.setValue("est-csv", strings.Replace(fieldCSV(), "north,", "north2,", 1)) // other rows, same header
	p.waitJS(`document.getElementById("est-lo-0") && document.getElementById("est-lo-0").value === "0"`, 5*time.Second)
	if got := p.value("est-ranges-line"); got != "rain_mm: 0..1500, temp_c: -10..40, yield_t: 0..12" {
		t.Errorf("remembered line %q", got)
	}
	if got := p.value("est-target"); got != "" {
		t.Errorf("target after a reload %q: the target is chosen each time", got)
	}
	p.chooseTarget("yield_t")
	p.clickRun()
	if s := p.errorsShown(); s != "" || p.text("#est-status") != "Done." {
		t.Errorf("run with remembered ranges and task: status %q, messages %s", p.text("#est-status"), s)
	}
	p.click("est-forget")
	p.waitJS(`document.getElementById("est-lo-0").value === ""`, 5*time.Second)
	if n := eval[int](p, `Object.keys(localStorage).filter(k => k.startsWith("dpsample:declared:")).length`); n != 0 {
		t.Errorf("%d remembered declarations after Forget", n)
	}
	p.noConsoleErrors()
}

// TestEstimateMessages: a positive label that matches no row says so before
// Run, with the close label to use; a bad cell's message (by the CSV box,
// which has the focus; nothing spent) goes when its column is unticked; a
// missing cell is filled, not refused (issue 51 item 1); the
// classifier's training accuracy and the log-odds reading are shown; checks
// of the file are labelled as the owner's only.
func TestEstimateMessages(t *testing.T) {
	p := newPage(t, "/")
	p.waitJS(`window.dpsampleUIReady === true`, 30*time.Second)
	eval[bool](p, `(localStorage.clear(), true)`)
	// Keep the last exported Blob, to read what the download link holds.
	p.keepExports()
	p.setValue("est-data", "csv")
	// irisCSV plus a mostly numeric column with one text cell in row 5.
	lines := strings.Split(strings.TrimSpace(irisCSV(",")), "\n")
	for i := range lines {
		cell := strconv.Itoa(10 + i)
		switch i {
		case 0:
			cell = "lab_code"
		case 5:
			cell = "n/k"
		}
		lines[i] = cell + "," + lines[i]
	}
	csv := strings.Join(lines, "\n") + "\n"
	p.setValue("est-csv", csv)
	p.featureBoxes(5)
	p.chooseTarget("species")
	p.waitJS(`document.getElementById("est-positive") !== null`, 5*time.Second)
	if got := p.value("est-loss") + " " + p.value("est-target"); got != "logistic species" {
		t.Errorf("task and target %q, want logistic suggested for the text column species", got)
	}
	p.confirmTask()
	if s := p.text("#est-csv-check"); !strings.Contains(s, `row 5 has "n/k"`) || !strings.Contains(s, "shown only to you") {
		t.Errorf("load-time check %q", s)
	}
	// The positive label, before any Run.
	p.typeInto("est-positive", "Versicolor")
	p.waitJS(`document.getElementById("est-positive-check").textContent.includes("No row")`, 5*time.Second)
	if s := p.text("#est-positive-check"); !strings.Contains(s, "No row of species has the label “Versicolor”") ||
		!strings.Contains(s, "Did you mean “versicolor”") || !strings.Contains(s, "shown only to you") {
		t.Errorf("positive check %q", s)
	}
	p.click("est-positive-use")
	p.waitJS(`document.getElementById("est-positive").value === "versicolor"`, 5*time.Second)
	if s := p.text("#est-positive-check"); !strings.Contains(s, "codes 13 of the 25 labelled rows +1") {
		t.Errorf("positive check after the fix %q", s)
	}
	p.setValue("est-ranges-line", "lab_code: 0..100, sepal_length: 4..8, sepal_width: 2..5, petal_length: 1..7")
	p.click("est-ranges-apply")
	// The mixed column is ticked (its bad cell is reported, not hidden): Run names the cell.
	p.clickRun()
	if s := p.text("#est-csv-err"); !strings.Contains(s, `row 5, column "lab_code"`) {
		t.Fatalf("bad cell message %q", s)
	}
	if f := eval[string](p, `document.activeElement.id`); f != "est-csv" {
		t.Errorf("focus after the bad cell's refusal: %q, want the CSV box", f)
	}
	p.ledgerReleases(0)
	p.checkFeatures("sepal_length", "sepal_width", "petal_length")
	if s := p.text("#est-csv-err"); s != "" {
		t.Errorf("the bad cell's message stays after its column was unticked: %q", s)
	}
	p.clickRun()
	if s := p.errorsShown(); s != "" || p.text("#est-status") != "Done." {
		t.Fatalf("run after the fix: status %q, messages %s", p.text("#est-status"), s)
	}
	// The export: the declarations as a pasteable line; nothing of the file's checks, the accuracies or the labels' counts.
	exp := eval[string](p, `window.lastExport.text()`)
	if !strings.Contains(exp, `"declaredRangesLine": "sepal_length: 4..8, sepal_width: 2..5, petal_length: 1..7"`) {
		t.Errorf("export lacks the ranges line: %s", exp)
	}
	for _, leak := range []string{"shown only to you", "n/k", "Did you mean", "accuracy\"", "Accuracy", "13 of the 25", "nonPrivate"} {
		if strings.Contains(exp, leak) {
			t.Errorf("export holds %q: %s", leak, exp)
		}
	}
	acc := p.text("#est-accuracy")
	if !strings.Contains(acc, "Training accuracy") || !strings.Contains(acc, "private θ") || !strings.Contains(acc, "non-private θ̂") ||
		!strings.Contains(acc, "13 of the 25 rows have species = “versicolor”") {
		t.Errorf("accuracy line %q", acc)
	}
	if s := p.text("#est-summary"); !strings.Contains(s, "log-odds") {
		t.Errorf("summary lacks the log-odds reading: %q", s)
	}
	p.shot("#estimate", "estimate-messages")
	// A missing cell (issue 51 item 1): no message, no "drop rows" checkbox;
	// the run keeps every row, fills the cell with its range's middle and
	// says so to the owner; the column offers a 0/1 "was missing" column.
	na := strings.Split(csv, "\n")
	f := strings.Split(na[3], ",")
	f[2] = "NA" // sepal_width of data row 3
	na[3] = strings.Join(f, ",")
	withNA := strings.Join(na, "\n")
	p.setValue("est-csv", withNA)
	p.waitJS(`document.getElementById("est-ind-1") !== null`, 10*time.Second)
	if s := p.text("label[for=est-ind-1]"); !strings.Contains(s, "“sepal_width missing”") || !strings.Contains(s, "1 cell of sepal_width empty") {
		t.Errorf("the missing cell's column offered: %q", s)
	}
	if n := eval[int](p, `document.querySelectorAll("#est-drop").length`); n != 0 {
		t.Error("the “drop rows with missing cells” checkbox is still there")
	}
	p.clickRun()
	if s := p.errorsShown(); s != "" || p.text("#est-status") != "Done." {
		t.Fatalf("run with a missing cell: status %q, messages %s", p.text("#est-status"), s)
	}
	if s := p.text("#est-data-note"); !strings.Contains(s, "25 rows used") {
		t.Errorf("data note %q: want every one of the 25 rows", s)
	}
	if s := p.text("#est-diagnostics"); !strings.Contains(s, "1 empty cell filled with the middle of its column's declared range") {
		t.Errorf("diagnostics %q", s)
	}
	p.noConsoleErrors()
}

// TestEstimateFileChecks: scikit-learn's header lines are questioned at
// load time, before any range is typed: iris's ("150,4,setosa,…" over rows
// of numbers) must be declared — the message names the "first row is a
// header" control and goes when it is set; wine's (5 names over 14 cells),
// declared a header, is found not to describe the table, marked as
// blocking, with Run naming the row.
func TestEstimateFileChecks(t *testing.T) {
	p := newPage(t, "/")
	p.waitJS(`window.dpsampleUIReady === true`, 30*time.Second)
	p.setValue("est-data", "csv")
	p.setValue("est-csv", "150,4,setosa,versicolor,virginica\n5.1,3.5,1.4,0.2,0\n4.9,3.0,1.4,0.2,0\n7.0,3.2,4.7,1.4,1\n")
	p.waitJS(`document.getElementById("est-csv-err").textContent !== ""`, 5*time.Second)
	if s := p.text("#est-csv-err"); !strings.Contains(s, `its first row "150,4,setosa,versicolor,virginica" mixes numbers and text`) ||
		!strings.Contains(s, "first row is a header") {
		t.Errorf("iris header message %q", s)
	}
	p.setValue("est-header", "absent")
	p.featureBoxes(5) // no target chosen: every column offered (issue 53 item 1)
	if s := p.text("#est-csv-err"); s != "" {
		t.Errorf("the header message stays after the header was declared: %q", s)
	}
	if got := eval[string](p, `[...document.getElementById("est-target").options].map(o => o.value).join()`); got != ",c1,c2,c3,c4,c5" {
		t.Errorf("target choices %q, want none chosen and c1 … c5 offered", got)
	}
	wine := "178,13,class_0,class_1,class_2\n" + strings.Repeat("14.23,1.71,2.43,15.6,127,2.8,3.06,.28,2.29,5.64,1.04,3.92,1065,0\n", 4)
	p.setValue("est-header", "present")
	p.setValue("est-csv", wine)
	p.waitJS(`document.getElementById("est-csv-check").textContent.includes("Every row has 14 cells")`, 5*time.Second)
	if s := p.text("#est-csv-check"); !strings.Contains(s, "shown only to you") {
		t.Errorf("wine check %q lacks the owner-only label", s)
	}
	if n := eval[int](p, `document.querySelectorAll("#est-csv-check li.blocking").length`); n != 1 {
		t.Errorf("%d blocking items for the wine header, want 1", n)
	}
	p.chooseTarget(eval[string](p, `[...document.getElementById("est-target").options].at(-1).value`)) // the last column, as the page once chose
	p.confirmTask()
	p.clickRun()
	if s := p.text("#est-csv-err"); !strings.Contains(s, "row 1") {
		t.Errorf("run on the wine file: %q", s)
	}
	p.shot("#estimate", "estimate-file-checks")
	p.noConsoleErrors()
}

// TestEstimateTargetsAnyColumn (issue 45 item 1): as soon as a file loads,
// every column with values is offered as the target, a text one included,
// whatever task was suggested; choosing a text target while a regression is
// chosen makes the task a classifier, suggested from the column and
// confirmed at Run (nothing spent); choosing a numeric target again keeps
// the user's task.
func TestEstimateTargetsAnyColumn(t *testing.T) {
	p := newPage(t, "/")
	p.waitJS(`window.dpsampleUIReady === true`, 30*time.Second)
	eval[bool](p, `(localStorage.clear(), true)`)
	p.setValue("est-data", "csv")
	var b strings.Builder
	b.WriteString("age,diag,status,death\n")
	for i := 0; i < 60; i++ {
		fmt.Fprintf(&b, "%d,%d,%s,%d\n", 30+i%40, i%3, []string{"alive", "dead", "lost"}[i%3], i%2)
	}
	p.setValue("est-csv", b.String())
	p.waitJS(`document.getElementById("est-target").options.length > 0 && document.querySelectorAll("#est-features input").length > 0`, 5*time.Second)
	opts := eval[[]string](p, `[...document.getElementById("est-target").options].map(o => o.value)`)
	if strings.Join(opts, ",") != ",age,diag,status,death" {
		t.Errorf("target choices after the load %v, want none chosen (issue 53 item 1) and every column", opts)
	}
	p.setValue("est-loss", "smooth-quantile") // the user's own regression
	p.chooseTarget("age")
	if l := p.value("est-loss"); l != "smooth-quantile" {
		t.Errorf("a numeric target changed the user's task to %q", l)
	}
	p.chooseTarget("status")
	if l := p.value("est-loss"); l != "logistic" {
		t.Errorf("a text target with a regression chosen: task %q, want the classifier it suggests", l)
	}
	if opts := eval[[]string](p, `[...document.getElementById("est-target").options].map(o => o.value)`); len(opts) != 4 {
		t.Errorf("target choices for a classifier %v", opts)
	}
	p.waitJS(`document.getElementById("est-positive") !== null`, 5*time.Second)
	p.setValue("est-positive", "dead")
	p.setValue("est-ranges-line", "age: 0..100, diag: 0..2, death: 0..1")
	p.click("est-ranges-apply")
	p.clickRun()
	if s := p.text("#est-err"); !strings.HasPrefix(s, "Check the task first") || !strings.Contains(s, "Nothing was spent") {
		t.Errorf("the suggested task was not confirmed first: %q", s)
	}
	if f := eval[string](p, `document.activeElement.id`); f != "est-loss" {
		t.Errorf("focus after the task question: %q, want est-loss", f)
	}
	p.ledgerReleases(0)
	p.noConsoleErrors()
}
