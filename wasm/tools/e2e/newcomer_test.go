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

// TestEstimateFirstRun: a CSV with a text column opens with the text column
// offered as a feature but not ticked (issue 42), a regression on its numeric last column, and
// runs on the first click once the ranges are declared in one pasted line;
// the coefficient chart's tick labels are the column names; the ranges are
// remembered for a file with the same header (filled in after a reload) and
// forgotten on request.
func TestEstimateFirstRun(t *testing.T) {
	p := newPage(t, "/")
	p.waitJS(`window.dpsampleUIReady === true`, 30*time.Second)
	eval[bool](p, `(localStorage.clear(), true)`)
	p.setValue("est-data", "csv")
	p.setValue("est-csv", fieldCSV())
	p.waitJS(`document.querySelectorAll("#est-features input").length === 3`, 5*time.Second)
	if got := p.value("est-loss") + " " + p.value("est-target"); got != "smooth-quantile rain_mm" && got != "smooth-quantile yield_t" {
		t.Errorf("task and target = %q, want a regression on yield_t", got)
	}
	if got := p.value("est-target"); got != "yield_t" {
		t.Errorf("target %q, want the last column yield_t", got)
	}
	st := eval[map[string]string](p, `Object.fromEntries([...document.querySelectorAll("#est-features input")].map(c => [c.value, (c.checked ? "checked" : "unchecked") + (c.disabled ? ",disabled" : "")]))`)
	if st["site"] != "unchecked" || st["rain_mm"] != "checked" || st["temp_c"] != "checked" {
		t.Errorf("features %v: want the text column site offered but unticked (issue 42: one-hot when ticked), the numbers ticked", st)
	}
	p.setValue("est-ranges-line", "rain_mm: 0..1500, temp_c: -10..40, yield_t: 0..12")
	p.click("est-ranges-apply")
	p.waitJS(`document.getElementById("est-lo-0").value === "0" && document.getElementById("est-hi-t").value === "12"`, 5*time.Second)
	if s := p.text("#est-ranges-line-msg"); !strings.Contains(s, "Applied 3 ranges") {
		t.Errorf("line message %q", s)
	}
	// The task was suggested from the file's contents: the first Run asks the owner to confirm it, spending nothing.
	p.clickRun()
	if s := p.text("#est-err"); !strings.HasPrefix(s, "Check the task first: “smooth-quantile of yield_t” was suggested from your file's contents") ||
		!strings.Contains(s, "Nothing was spent") {
		t.Fatalf("first click: %q", s)
	}
	p.ledgerReleases(0)
	p.clickRun()
	if s := p.errorsShown(); s != "" || p.text("#est-status") != "Done." {
		t.Fatalf("the second click with the defaults did not run: status %q, messages %s", p.text("#est-status"), s)
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
	p.clickRun()
	if s := p.errorsShown(); s != "" {
		t.Errorf("run with remembered ranges: %s", s)
	}
	p.click("est-forget")
	p.waitJS(`document.getElementById("est-lo-0").value === ""`, 5*time.Second)
	if n := eval[int](p, `Object.keys(localStorage).filter(k => k.startsWith("dpsample:declared:")).length`); n != 0 {
		t.Errorf("%d remembered declarations after Forget", n)
	}
	p.noConsoleErrors()
}

// TestEstimateMessages: a positive label that matches no row says so before
// Run, with the close label to use; a bad cell's message goes when its column
// is unticked, and a missing-cells message when the rows are dropped; the
// classifier's training accuracy and the log-odds reading are shown; checks
// of the file are labelled as the owner's only.
func TestEstimateMessages(t *testing.T) {
	p := newPage(t, "/")
	p.waitJS(`window.dpsampleUIReady === true`, 30*time.Second)
	eval[bool](p, `(localStorage.clear(), true)`)
	// Keep the last exported Blob, to read what the download link holds.
	eval[bool](p, `(() => { const f = URL.createObjectURL; URL.createObjectURL = b => { window.lastExport = b; return f.call(URL, b); }; return true })()`)
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
	p.waitJS(`document.getElementById("est-positive") !== null`, 5*time.Second)
	if got := p.value("est-loss") + " " + p.value("est-target"); got != "logistic species" {
		t.Errorf("task and target %q, want logistic on the text column species", got)
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
	// Missing cells: the message goes when the rows are dropped.
	na := strings.Split(csv, "\n")
	f := strings.Split(na[3], ",")
	f[2] = "NA" // sepal_width of data row 3
	na[3] = strings.Join(f, ",")
	withNA := strings.Join(na, "\n")
	p.setValue("est-csv", withNA)
	p.waitJS(`document.querySelectorAll("#est-features input").length > 0`, 5*time.Second)
	p.clickRun()
	if s := p.text("#est-csv-err"); !strings.Contains(s, "missing") {
		t.Fatalf("missing-cells message %q", s)
	}
	p.click("est-drop")
	if s := p.text("#est-csv-err"); s != "" {
		t.Errorf("the missing-cells message stays after ticking “drop rows”: %q", s)
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
	p.waitJS(`document.querySelectorAll("#est-features input").length === 4`, 5*time.Second)
	if s := p.text("#est-csv-err"); s != "" {
		t.Errorf("the header message stays after the header was declared: %q", s)
	}
	if got := p.value("est-target"); got != "c5" {
		t.Errorf("target %q, want c5", got)
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
	if strings.Join(opts, ",") != "age,diag,status,death" {
		t.Errorf("target choices after the load %v, want every column", opts)
	}
	p.setValue("est-loss", "smooth-quantile") // the user's own regression
	p.setValue("est-target", "age")
	if l := p.value("est-loss"); l != "smooth-quantile" {
		t.Errorf("a numeric target changed the user's task to %q", l)
	}
	p.setValue("est-target", "status")
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
	p.noConsoleErrors()
}
