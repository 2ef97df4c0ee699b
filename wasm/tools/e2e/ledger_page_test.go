//go:build !js

package e2e

import (
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	cdppage "github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// setupIrisL1 puts csv in the Private-estimate form: ℓ1 centre of
// sepal_length and petal_length with declared ranges, at ε = eps.
func (p *page) setupIrisL1(csv, eps string) {
	p.t.Helper()
	p.setValue("est-data", "csv")
	p.setValue("est-loss", "l1")
	p.setValue("est-csv", csv)
	p.waitJS(`document.querySelectorAll("#est-features input").length === 4`, 5*time.Second)
	p.checkFeatures("sepal_length", "petal_length")
	p.setValue("est-lo-0", "4")
	p.setValue("est-hi-0", "8")
	p.setValue("est-lo-1", "1")
	p.setValue("est-hi-1", "7")
	p.setValue("est-epsilon", eps)
}

// ledgerReleases waits for the meter to show n releases (0: "no release
// yet") and returns its line.
func (p *page) ledgerReleases(n int) string {
	p.t.Helper()
	want := "no release yet"
	switch {
	case n == 1:
		want = "This table: 1 release,"
	case n > 1:
		want = "This table: " + strconv.Itoa(n) + " releases,"
	}
	if !p.waitJSSoft(`document.getElementById("est-ledger-summary").textContent.includes(`+"`"+want+"`"+`)`, 20*time.Second) {
		p.t.Fatalf("the meter does not say %q: it says %q; status %q, est-err %q (console: %v)", want,
			p.text("#est-ledger-summary"), p.text("#est-status"), p.text("#est-err"), p.consoleErrors())
	}
	return p.text("#est-ledger-summary")
}

// TestEstimateLedger: the page's per-table privacy budget. Three runs at
// ε = 1.5 on one CSV fill the default budget (ε = 3, δ = 1e-5) with a meter
// that grows after each; the result's statement speaks of this release and
// of all releases on the table; the JSON export carries the ledger without
// the table's fingerprint; a reload keeps the ledger (the same file gives
// the same fingerprint); the fourth run is refused with the numbers before it
// starts; a changed file gets a fresh ledger; reset asks first and says what
// it means.
func TestEstimateLedger(t *testing.T) {
	p := newPage(t, "/")
	// The test reads the export back with fetch(blob:…), which the page's
	// CSP (connect-src 'self') forbids: bypass it for this tab.
	if _, err := chromedp.Call(p.ctx, cdppage.SetBypassCSP, cdppage.SetBypassCSPParams{Enabled: true}); err != nil {
		t.Fatal(err)
	}
	p.do(chromedp.Reload())
	p.waitJS(`window.dpsampleUIReady === true && document.getElementById("status").dataset.state === "ready"`, 60*time.Second)
	csv := irisCSV(",")
	p.setupIrisL1(csv, "1.5")
	p.ledgerReleases(0)
	if v := eval[string](p, `document.getElementById("est-budget-epsilon").value + "|" + document.getElementById("est-budget-delta").value`); v != "3|1e-5" {
		t.Errorf("default table budget %q, want 3|1e-5", v)
	}
	var spent []float64
	for i := 1; i <= 3; i++ {
		p.runEstimate()
		line := p.ledgerReleases(i)
		meter := eval[float64](p, `+document.getElementById("est-ledger-meter").getAttribute("value")`)
		t.Logf("after run %d: meter %.3f — %s", i, meter, line)
		if len(spent) > 0 && !(meter > spent[len(spent)-1]) {
			t.Errorf("run %d: the meter did not grow (%.3f after %.3f)", i, meter, spent[len(spent)-1])
		}
		spent = append(spent, meter)
		st := p.text("#est-statement")
		if !strings.Contains(st, "Privacy of this release: the released sample is (ε = 1.5, δ = 1e-05)") ||
			!strings.Contains(st, "All releases on this table so far") || !strings.Contains(st, "stays within (ε = 3, δ = 1e-05)") {
			t.Errorf("run %d: statement %q", i, st)
		}
	}
	if !(spent[2] > 0.85 && spent[2] <= 1) {
		t.Errorf("three runs at ε = 1.5 spent %.3f of ε = 3", spent[2])
	}
	if !eval[bool](p, `document.getElementById("est-budget-epsilon").disabled`) {
		t.Error("the table's budget can still be edited after releases")
	}
	p.shot("#estimate", "ledger-three-runs")
	// The export carries the ledger, not the fingerprint.
	exp := eval[map[string]any](p, `(async () => {
	  const key = Object.keys(localStorage).find(k => k.startsWith("dpsample.ledger."));
	  const text = await (await fetch(document.getElementById("est-download").href)).text();
	  const j = JSON.parse(text);
	  return { releases: j.privacy.ledger.spent.releases, hasKey: "key" in j.privacy.ledger, leaks: text.includes(key.slice(16)),
	           history: j.privacy.ledger.history.length, stored: key.length };
	})()`)
	if exp["releases"].(float64) != 3 || exp["history"].(float64) != 3 || exp["hasKey"].(bool) || exp["leaks"].(bool) || exp["stored"].(float64) != 16+64 {
		t.Errorf("export: %v", exp)
	}

	// Reload: the same file finds its ledger again.
	p.do(chromedp.Reload())
	p.waitJS(`window.dpsampleUIReady === true && document.getElementById("status").dataset.state === "ready"`, 60*time.Second)
	p.setupIrisL1(csv, "1.5")
	line := p.ledgerReleases(3)
	t.Logf("after reload: %s", line)

	// The fourth run is refused before it starts, with the numbers.
	eval[bool](p, `(() => { document.getElementById("est-status").textContent = ""; return true })()`)
	p.click("est-run")
	p.waitJS(`document.getElementById("est-err").textContent !== ""`, 20*time.Second)
	msg := p.text("#est-err")
	t.Logf("refusal: %s", msg)
	// Plain words first (spent, asked, the largest ε that fits), the exact accounting under a disclosure.
	if !strings.HasPrefix(msg, "Not run: this table's privacy budget cannot pay for it. So far 3 releases spent ε = ") ||
		!strings.Contains(msg, "This run asks for ε = 1.5.") || !strings.Contains(msg, "The largest ε that still fits is ") ||
		!strings.Contains(msg, "The exact accounting (Gaussian DP)ledger must be large enough for this release: it costs gdp ") ||
		!strings.Contains(msg, "3 release(s) so far spent ε = ") {
		t.Errorf("refusal message %q", msg)
	}
	// One rounding rule (issue 45 item 6): the refusal offers the ε the meter's
	// line offers, both rounded down.
	meterLeft := regexp.MustCompile(`one more run at ε ≤ ([0-9.e+-]+) `).FindStringSubmatch(line)
	refusalLeft := regexp.MustCompile(`still fits is ([0-9.e+-]+) \(rounded down\)`).FindStringSubmatch(msg)
	if meterLeft == nil || refusalLeft == nil || meterLeft[1] != refusalLeft[1] {
		t.Errorf("what is left: the meter says %q, the refusal %q; want one number", meterLeft, refusalLeft)
	}
	if open := eval[bool](p, `document.querySelector("#est-err details").open`); open {
		t.Error("the GDP detail is open by default")
	}
	// Next to Run: where the problem is, the progress line reset, the focus on
	// ε, the field that makes the run fit (since issue 55's probe).
	if s := p.text("#est-status"); s != "Could not start: the table's budget cannot pay for this run (the message is just above Run; ε has the focus)." ||
		eval[float64](p, `document.getElementById("est-progress").value`) != 0 {
		t.Errorf("a refused run: status %q", s)
	}
	if f := eval[string](p, `document.activeElement?.id ?? ""`); f != "est-epsilon" {
		t.Errorf("a refused run: focus on %q, want est-epsilon", f)
	}
	p.ledgerReleases(3)
	p.shot("#estimate", "ledger-refused")

	// A changed file (one more row) is another table: a fresh ledger.
	p.setupIrisL1(csv+"5.0,3.0,1.5,setosa\n", "1.5")
	p.ledgerReleases(0)
	p.runEstimate()
	p.ledgerReleases(1)

	// Back to the first file; reset asks first and says what it means.
	p.setupIrisL1(csv, "1.5")
	p.ledgerReleases(3)
	p.click("est-ledger-reset")
	p.waitJS(`!document.getElementById("est-ledger-confirm").hidden`, 5*time.Second)
	if s := p.text("#est-ledger-confirm-text"); !strings.Contains(s, "Resetting forgets the 3 releases made on this table") ||
		!strings.Contains(s, "does not take them back") || !strings.Contains(s, "no longer covered") {
		t.Errorf("reset confirmation: %q", s)
	}
	p.click("est-ledger-reset-no")
	p.ledgerReleases(3)
	p.click("est-ledger-reset")
	p.click("est-ledger-reset-yes")
	p.ledgerReleases(0)
	p.noConsoleErrors()
}

// TestLedgerMeterFollowsRowsDelta (found for issue 55): the meter says the
// budget the fields show. A table of 20,000 rows (≈ 240 KB: held by the
// page and profiled in the worker) moves the table budget's δ from 1e-5 to
// 1e-6 once its row count is known; the meter's line must say δ = 1e-06
// too, before any press of Run. On main it kept 1e-05 until the next
// redraw (a press of Run): the profile arrives after the table's key, and
// OfferDelta set the field without redrawing the meter.
func TestLedgerMeterFollowsRowsDelta(t *testing.T) {
	p := newPage(t, "/")
	p.waitJS(`window.dpsampleUIReady === true`, 30*time.Second)
	eval[bool](p, `(localStorage.clear(), true)`)
	p.setValue("est-data", "csv")
	eval[bool](p, `(() => { const out = ["a,b"]; for (let i = 0; i < 20000; i++) out.push((i % 997) / 10 + "," + (i % 13)); window.rowsCSV = out.join("\n") + "\n"; return true })()`)
	p.paste("est-csv", "rowsCSV")
	p.waitJS(`document.getElementById("est-budget-delta").value === "1e-6" && document.querySelectorAll("#est-features input").length > 0`, time.Minute)
	if !p.waitJSSoft(`document.getElementById("est-ledger-summary").textContent.includes("δ = 1e-06")`, 10*time.Second) {
		s := p.text("#est-ledger-summary")
		t.Errorf("the budget field says δ = 1e-6, the meter %q", s)
	}
	p.noConsoleErrors()
}

// TestLedgerBudgetFieldFocus: a typo in the table budget's ε is refused by
// that field — the status says the budget has a field to fix and the focus
// is on it — not as a budget that cannot pay for the run with the focus on
// the run's ε; nothing is spent.
func TestLedgerBudgetFieldFocus(t *testing.T) {
	p := newPage(t, "/")
	p.waitJS(`window.dpsampleUIReady === true && document.getElementById("status").dataset.state === "ready"`, 60*time.Second)
	p.setupIrisL1(irisCSV(","), "1")
	p.typeInto("est-budget-epsilon", "3x")
	p.clickRun()
	if s := p.text("#est-err"); !strings.HasPrefix(s, "budget.epsilon must be a number") {
		t.Errorf("message %q", s)
	}
	if s := p.text("#est-status"); s != "Could not start: the table's budget has a field to fix (the message is just above Run; the field has the focus)." {
		t.Errorf("status %q", s)
	}
	if f := eval[string](p, `document.activeElement?.id ?? ""`); f != "est-budget-epsilon" {
		t.Errorf("focus on %q, want est-budget-epsilon", f)
	}
	p.ledgerReleases(0)
	p.noConsoleErrors()
}
