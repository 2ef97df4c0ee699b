//go:build !js

package e2e

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
	"time"
)

// rangesCSV is a 600-row table whose columns live at very different scales:
// an age, an income in the tens of thousands, a score that can be negative.
func rangesCSV() string {
	r := rand.New(rand.NewPCG(1, 2))
	var b strings.Builder
	b.WriteString("age,income,score\n")
	for i := 0; i < 600; i++ {
		fmt.Fprintf(&b, "%d,%d,%.2f\n", 20+r.IntN(60), 20000+r.IntN(80000), r.NormFloat64()*2)
	}
	return b.String()
}

// TestFindRangesPrivately (issue 28): on a fresh CSV with blank ranges the
// cost of finding them is said before anything is spent; the first Run finds
// them privately (one release charged to the table's budget), fills the
// inputs marked "found privately", shows the table privately and runs the
// model (a second release); a second Run does not pay for the ranges again;
// the statement and the export say which ranges were private and what they
// cost; a typed range wins over a found one, and the range then reads
// "found privately, then edited by you" (issue 51 item 4).
func TestFindRangesPrivately(t *testing.T) {
	p := newPage(t, "/")
	p.waitJS(`window.dpsampleUIReady === true`, 30*time.Second)
	eval[bool](p, `(localStorage.clear(), true)`)
	loaded := p.requestCount()
	p.keepExports()
	p.setValue("est-data", "csv")
	p.setValue("est-loss", "l1")
	p.setValue("est-csv", rangesCSV())
	p.waitJS(`document.querySelectorAll("#est-features input").length === 3`, 5*time.Second)
	p.checkFeatures("age", "income")
	if s := p.text("#est-private-cost"); !strings.Contains(s, "Blank ranges (age, income) will be found privately when you press Run") ||
		!strings.Contains(s, "ε = 1") || !strings.Contains(s, "once") {
		t.Errorf("cost line: %q", s)
	}
	p.ledgerReleases(0)
	p.runEstimate()
	p.ledgerReleases(2) // the ranges, then the model
	lo0, hi0 := p.value("est-lo-0"), p.value("est-hi-0")
	if lo0 == "" || hi0 == "" || p.value("est-lo-1") == "" {
		t.Fatalf("ranges not filled: age [%q, %q]", lo0, hi0)
	}
	var lo, hi float64
	fmt.Sscan(lo0, &lo)
	fmt.Sscan(hi0, &hi)
	// Ages 20–79 lie in the magnitude bins [16, 64) and [64, 256). A false
	// neighbour (probability Φ̄(2) a side, core/domain) widens the range by a
	// bin, a factor 4, which stage 2 does not always trim: hi up to 1027 in
	// 0.7 % of 20,000 seeded draws (the former bound 1000 failed them), up to
	// 4099 in 17 of them (two such bins). 5000 still fails a range orders of
	// magnitude off.
	if !(lo < hi) || lo < -1000 || hi > 5000 {
		t.Errorf("age's range found: [%g, %g]", lo, hi)
	}
	if n := eval[int](p, `document.querySelectorAll("#est-ranges .found-private").length`); n != 2 {
		t.Errorf("%d inputs marked found privately, want 2", n)
	}
	if s := p.text("#est-private-table"); !strings.Contains(s, "The table, privately") || !strings.Contains(s, "median") || !strings.Contains(s, "income") {
		t.Errorf("private panel: %q", s)
	}
	if s := p.text("#est-statement"); !strings.Contains(s, "The ranges of age, income were found privately by a separate (ε = 1") {
		t.Errorf("statement: %q", s)
	}
	exp := eval[string](p, `window.lastExport.text()`)
	if !strings.Contains(exp, `"privateRanges"`) || !strings.Contains(exp, `"income"`) {
		t.Errorf("export lacks the private ranges: %.400s", exp)
	}
	// 600 rows and 3 columns: stage 2 reads the quartiles (issue 52), shown to
	// the precision of the bins they were read from (issue 45 item 7) and
	// exported with what they were read from.
	cells := eval[[]string](p, `[...document.querySelectorAll("#est-private-table td:nth-child(n+3):nth-child(-n+5)")].map(td => td.textContent)`)
	if len(cells) != 6 {
		t.Errorf("%d quartile cells, want 2 columns × 3", len(cells))
	}
	for _, c := range cells {
		if _, err := strconv.ParseFloat(c, 64); err != nil {
			t.Errorf("quartile cell %q at 600 rows: not a number", c)
		}
		digits := c
		if !strings.Contains(c, ".") {
			digits = strings.TrimRight(c, "0") // 40000: one significant digit
		}
		if n := len(strings.TrimLeft(strings.ReplaceAll(digits, ".", ""), "-0")); n > 4 {
			t.Errorf("quartile %q has %d significant digits: more than its bins support", c, n)
		}
	}
	if q := eval[string](p, `window.lastExport.text().then(t => JSON.parse(t).privateRanges.income).then(r => r.quartiles + " " + typeof r.q1)`); q != "linear number" {
		t.Errorf("export of income's quartiles: %q, want \"linear number\"", q)
	}
	if n := p.requestCount(); n != loaded {
		t.Errorf("%d requests while finding ranges and estimating", n-loaded)
	}
	p.shot("#estimate", "ranges-found-privately")

	// Run again: the ranges are not paid for twice.
	p.runEstimate()
	p.ledgerReleases(3)

	// A typed range wins, and an edited found range keeps its release
	// (issue 51 item 4): age's note says it was edited, and so does the
	// statement; nothing is found again.
	p.setValue("est-lo-0", "18")
	p.setValue("est-hi-0", "100")
	if s := p.text(`#est-ranges [data-private="age"]`); s != "— found privately (ε = 1), then edited by you" {
		t.Errorf("age's note after editing it: %q", s)
	}
	p.runEstimate()
	p.ledgerReleases(4)
	if s := p.text("#est-statement"); !strings.Contains(s, "The ranges of age, income were found privately (age then edited by you) by a separate (ε = 1") {
		t.Errorf("statement after typing age's range: %q", s)
	}
	if s := p.text("#est-declared"); !strings.Contains(s, "age [18, 100]") {
		t.Errorf("the typed range did not win: %q", s)
	}
	p.noConsoleErrors()
}

// smallCSV is a 111-row table of the shape people bring (issue 40): a
// reading spread over two orders of magnitude, a wind speed, a temperature, a
// 0/1 column with 20 % ones and a count. Synthetic: the reserved tables
// (R's datasets, MASS) are never used here.
func smallCSV() string {
	r := rand.New(rand.NewPCG(40, 111))
	var b strings.Builder
	b.WriteString("reading,wind,temp,flag,count\n")
	for i := 0; i < 111; i++ {
		flag := 0
		if i%5 == 0 {
			flag = 1
		}
		fmt.Fprintf(&b, "%.0f,%.1f,%d,%d,%d\n", 5+r.ExpFloat64()*40, 2+r.Float64()*18, 56+r.IntN(42), flag, r.IntN(6))
	}
	return b.String()
}

// smallTablePage opens the page with nothing stored and smallCSV pasted
// into the estimate under loss.
func smallTablePage(t *testing.T, loss string) *page {
	t.Helper()
	p := newPage(t, "/")
	p.waitJS(`window.dpsampleUIReady === true`, 30*time.Second)
	eval[bool](p, `(localStorage.clear(), true)`)
	p.setValue("est-data", "csv")
	p.setValue("est-loss", loss)
	p.setValue("est-csv", smallCSV())
	return p
}

// TestFindRangesSmallTable (issue 40 items 4 and 6): a 111-row table with
// every range blank gets a model on the first press of Run, which charges
// the ranges once and the model once (2 releases); every range is filled
// (the 0/1 column's holds 0 and 1); the next press adds exactly one release.
// An invalid ε is reported before anything is charged (item 5).
func TestFindRangesSmallTable(t *testing.T) {
	p := smallTablePage(t, "l1")
	p.waitJS(`document.querySelectorAll("#est-features input").length === 5`, 5*time.Second)
	p.checkFeatures("reading", "wind", "temp", "flag", "count")
	p.ledgerReleases(0)

	// Validate first, charge second: a bad ε spends nothing on ranges.
	eps := p.value("est-epsilon")
	p.setValue("est-epsilon", "-1")
	p.click("est-run")
	time.Sleep(1500 * time.Millisecond)
	p.ledgerReleases(0)
	if p.value("est-lo-0") != "" {
		t.Errorf("ranges were found although ε was invalid")
	}
	p.setValue("est-epsilon", eps)

	p.keepExports()
	p.runEstimate()
	p.ledgerReleases(2) // the ranges, then the model
	// 111 rows, one stage: the export leaves out stage 1's mode bin as
	// quartiles and says so (issue 52).
	if q := eval[string](p, `window.lastExport.text().then(t => JSON.parse(t).privateRanges.wind).then(r => r.quartiles + " " + typeof r.q1 + " " + typeof r.lo)`); q != "magnitude undefined number" {
		t.Errorf("export of wind's quartiles: %q, want \"magnitude undefined number\"", q)
	}
	for i := 0; i < 5; i++ {
		lo, hi := p.value(fmt.Sprintf("est-lo-%d", i)), p.value(fmt.Sprintf("est-hi-%d", i))
		if lo == "" || hi == "" {
			t.Fatalf("column %d's range left blank: [%q, %q]", i, lo, hi)
		}
	}
	var lo, hi float64
	fmt.Sscan(p.value("est-lo-3"), &lo)
	fmt.Sscan(p.value("est-hi-3"), &hi)
	if !(lo <= 0 && hi >= 1) || hi > 1e3 {
		t.Errorf("the 0/1 column's range [%g, %g] does not hold 0 and 1 sensibly", lo, hi)
	}
	if s := p.text("#est-statement"); s == "" {
		t.Error("no model after the first Run")
	} else if !strings.HasPrefix(s, "An attacker who knows every row but one person's guesses from this result") || !strings.Contains(s, "they catch that person at most") {
		t.Errorf("the result does not start with the attacker's odds (issue 44): %.300q", s)
	}
	if s := p.text("#est-ledger-summary"); !strings.Contains(s, "An attacker who knows every row but one person's guesses from everything released on this table so far") {
		t.Errorf("the meter does not give the attacker's odds: %q", s)
	}
	p.runEstimate()
	p.ledgerReleases(3) // one more model, no ranges again
	p.noConsoleErrors()
}

// TestRangesNotCarried (issue 41 item 1): ranges found privately on one
// table are not carried to another. On a near-copy of the table (one cell
// changed: another budget) the inputs are blank, not pre-filled and marked
// "found privately" (main filled and marked them from the first table's
// release, and the copy's first model then said its ranges came from a
// release "charged once to this table's budget" that its ledger did not
// hold); Run finds them on the copy, charged to the copy's budget. After a
// reload the copy's ranges come back filled and marked (its ledger holds
// their release), and a reset of its budget, which forgets that release,
// blanks them again.
func TestRangesNotCarried(t *testing.T) {
	p := newPage(t, "/")
	p.waitJS(`window.dpsampleUIReady === true && document.getElementById("status").dataset.state === "ready"`, 60*time.Second)
	eval[bool](p, `(localStorage.clear(), true)`)
	p.keepExports()
	marked := `document.querySelectorAll("#est-ranges .found-private").length`
	blank := `["est-lo-0", "est-hi-0", "est-lo-1", "est-hi-1"].every(id => document.getElementById(id).value === "")`
	show := func(csv string) {
		p.setValue("est-data", "csv")
		p.setValue("est-loss", "l1")
		p.setValue("est-csv", csv)
		p.waitJS(`document.querySelectorAll("#est-features input").length === 3`, 5*time.Second)
		p.checkFeatures("age", "income")
	}
	csv := rangesCSV()
	show(csv)
	p.ledgerReleases(0)
	p.runEstimate()
	p.ledgerReleases(2) // the ranges, then the model
	if n := eval[int](p, marked); n != 2 || eval[bool](p, blank) {
		t.Fatalf("the first table's ranges were not found: %d marked", n)
	}

	// The near-copy: the first row's score changed.
	lines := strings.SplitN(csv, "\n", 3)
	cells := strings.Split(lines[1], ",")
	cells[2] += "1"
	near := lines[0] + "\n" + strings.Join(cells, ",") + "\n" + lines[2]
	p.setValue("est-csv", near)
	p.ledgerReleases(0)
	if n := eval[int](p, marked); n != 0 || !eval[bool](p, blank) {
		t.Errorf("the copy (a fresh budget) shows the first table's ranges: age [%q, %q], income [%q, %q], %d marked found privately",
			p.value("est-lo-0"), p.value("est-hi-0"), p.value("est-lo-1"), p.value("est-hi-1"), n)
	}
	if s := eval[string](p, `document.getElementById("est-private-cost")?.textContent ?? "(none)"`); !strings.Contains(s, "Blank ranges (age, income) will be found privately") {
		t.Errorf("cost line on the copy: %q", s)
	}
	p.runEstimate()
	p.ledgerReleases(2) // the copy pays for its own ranges, then the model
	if n := eval[int](p, marked); n != 2 {
		t.Errorf("%d of the copy's ranges marked found privately, want 2", n)
	}
	if s := p.text("#est-statement"); !strings.Contains(s, "The ranges of age, income were found privately by a separate (ε = 1") ||
		!strings.Contains(s, "(2 releases, this one included)") {
		t.Errorf("statement on the copy: %q", s)
	}
	exp := eval[map[string]any](p, `window.lastExport.text().then(t => JSON.parse(t)).then(e => ({ranges: Object.keys(e.privateRanges ?? {}).sort().join(","),
	  releases: e.privacy.ledger.history.length}))`)
	if exp["ranges"] != "age,income" || exp["releases"] != 2.0 {
		t.Errorf("export of the copy: privateRanges %v, %v releases in its ledger", exp["ranges"], exp["releases"])
	}

	// Its ledger holds the release: after a reload they are filled and marked.
	p.reloadPage()
	show(near)
	p.ledgerReleases(2)
	if !p.waitJSSoft(marked+` === 2`, 10*time.Second) || eval[bool](p, blank) {
		t.Errorf("after a reload the copy's ranges: age [%q, %q], %d marked", p.value("est-lo-0"), p.value("est-hi-0"), eval[int](p, marked))
	}
	p.runEstimate()
	p.ledgerReleases(3)
	if s := p.text("#est-statement"); !strings.Contains(s, "The ranges of age, income were found privately") {
		t.Errorf("statement after a reload: %q", s)
	}

	// A reset forgets the release that found them: they are blank again.
	p.click("est-ledger-reset")
	p.waitJS(`!document.getElementById("est-ledger-confirm").hidden`, 5*time.Second)
	p.click("est-ledger-reset-yes")
	p.ledgerReleases(0)
	if !p.waitJSSoft(marked+` === 0 && `+blank, 10*time.Second) {
		t.Errorf("after a reset: age [%q, %q], %d marked", p.value("est-lo-0"), p.value("est-hi-0"), eval[int](p, marked))
	}
	p.noConsoleErrors()
}

// TestFindRangesNarrow (issue 45 item 4): at 375 px, after private ranges
// are found, the page stays 375 px wide (the quartile table scrolls in its
// box), with the columns spaced. At 111 rows the release has one stage: its
// "quartiles" would be stage 1's mode bin, so the page shows dashes and says
// why (issue 52).
func TestFindRangesNarrow(t *testing.T) {
	p := openPage(t, "/", 375, 800)
	p.waitJS(`window.dpsampleUIReady === true`, 60*time.Second)
	eval[bool](p, `(localStorage.clear(), true)`)
	p.setValue("est-data", "csv")
	p.setValue("est-loss", "l1")
	p.setValue("est-csv", smallCSV())
	p.waitJS(`document.querySelectorAll("#est-features input").length === 5`, 5*time.Second)
	p.checkFeatures("reading", "wind", "temp", "flag", "count")
	p.click("est-find-ranges")
	p.waitJS(`document.querySelector("#est-private-table table") !== null || document.getElementById("est-ranges-err").textContent !== ""`, 60*time.Second)
	if s := p.text("#est-ranges-err"); s != "" {
		t.Fatalf("finding ranges: %q", s)
	}
	if w := eval[int](p, `document.documentElement.scrollWidth`); w > 375 {
		wide := eval[[]string](p, `[...document.querySelectorAll("#estimate *")].filter(e => e.getBoundingClientRect().right > 376 && ![...e.children].some(c => c.getBoundingClientRect().right > 376)).slice(0, 8).map(e => e.tagName + "#" + e.id + "." + e.className + " " + Math.round(e.getBoundingClientRect().right))`)
		chain := eval[[]string](p, `(() => { const out = []; for (let e = document.getElementById("est-private-table"); e && e !== document.body; e = e.parentElement) { const cs = getComputedStyle(e); out.push(e.tagName + "#" + e.id + "." + e.className + " " + cs.display + " w=" + Math.round(e.getBoundingClientRect().width) + " minw=" + cs.minWidth + " minis=" + cs.minInlineSize); } return out })()`)
		t.Errorf("after private ranges the page is %d px wide at 375 px: %v; parents %v", w, wide, chain)
	}
	cells := eval[[]string](p, `[...document.querySelectorAll("#est-private-table td:nth-child(n+3):nth-child(-n+5)")].map(td => td.textContent)`)
	if len(cells) != 15 {
		t.Fatalf("%d quartile cells, want 5 columns × 3", len(cells))
	}
	for _, c := range cells {
		if c != "—" {
			t.Errorf("quartile cell %q at 111 rows (one stage): want a dash", c)
		}
	}
	if s := p.text("#est-no-quartiles"); !strings.Contains(s, "too few rows for this budget to place that column's quartiles") {
		t.Errorf("no word on the dashes: %q", s)
	}
	if pad := eval[string](p, `getComputedStyle(document.querySelector("#est-private-table td:nth-child(3)")).paddingLeft`); pad == "0px" {
		t.Errorf("the quartile columns are not spaced (padding-left %s)", pad)
	}
	p.noConsoleErrors()
}

// TestSmallTableEstimator (issue 40, docs/DEFAULTS.md "Small tables"): below
// mechanism.SmallTableRows a supervised loss runs on Algorithm 1 only when
// every range was typed; when the ranges were found privately it keeps
// DP-GD, which matched or beat Algorithm 1 on every development table at 100
// rows with private ranges. The estimator select shows what ran.
func TestSmallTableEstimator(t *testing.T) {
	p := smallTablePage(t, "logistic")
	p.chooseTarget("flag")
	p.waitJS(`document.getElementById("est-positive") !== null`, 5*time.Second)
	p.setValue("est-positive", "1")
	p.runEstimate() // the blank ranges are found privately first
	if s := p.text("#est-statement"); !strings.Contains(s, "Estimator: drawn by DP-GD") || p.value("est-estimator") != "dp-gd" {
		t.Errorf("111 rows, ranges found privately: estimator %q, statement %q; want DP-GD", p.value("est-estimator"), s)
	}
	p.setValue("est-ranges-line", "reading: 0..400, wind: 0..25, temp: 40..110, count: 0..10")
	p.click("est-ranges-apply")
	p.runEstimate()
	if s := p.text("#est-statement"); strings.Contains(s, "drawn by DP-GD") || p.value("est-estimator") != "exponential" {
		t.Errorf("111 rows, every range typed: estimator %q, statement %q; want Algorithm 1", p.value("est-estimator"), s)
	}
}
