//go:build !js

package e2e

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// waitJSSoft polls a JS expression until it is truthy and reports whether
// it became so within timeout.
func (p *page) waitJSSoft(expr string, timeout time.Duration) bool {
	return chromedp.Do(p.ctx, chromedp.Poll[chromedp.Void](expr, chromedp.WithPollingTimeout(timeout))) == nil
}

// reloadPage reloads p and waits for the page's UI and worker.
func (p *page) reloadPage() {
	p.t.Helper()
	p.do(chromedp.Reload())
	p.waitJS(`window.dpsampleUIReady === true && document.getElementById("status").dataset.state === "ready"`, 60*time.Second)
}

// irisOneRelease opens the page, sets up irisCSV(",") for the ℓ1 centre
// and runs it once: the table's budget then holds one release.
func irisOneRelease(t *testing.T) (*page, string) {
	p := newPage(t, "/")
	p.waitJS(`window.dpsampleUIReady === true && document.getElementById("status").dataset.state === "ready"`, 60*time.Second)
	csv := irisCSV(",")
	p.setupIrisL1(csv, "1")
	p.ledgerReleases(0)
	p.runEstimate()
	p.ledgerReleases(1)
	return p, csv
}

// sameIrisOtherwise is irisCSV(",") saved again: rows in reverse order
// (header first), CRLF line ends, numbers as 5.10 / 4.0e0, trailing blank
// lines.
func sameIrisOtherwise(csv string) string {
	lines := strings.Split(strings.TrimSuffix(csv, "\n"), "\n")
	out := []string{lines[0]}
	for i := len(lines) - 1; i >= 1; i-- {
		cells := strings.Split(lines[i], ",")
		cells[0] += "0"
		cells[2] += "e0"
		out = append(out, strings.Join(cells, ","))
	}
	return strings.Join(out, "\r\n") + "\r\n\r\n\r\n"
}

// TestLedgerKey (issue 30 item 5). The budget's key comes from the parsed
// table: the same rows saved again in another order, with CRLF line ends,
// trailing blank lines and numbers spelled otherwise find the table's budget
// (keyed by the bytes, main showed "no release yet"), a changed cell does
// not; a budget stored under the former key (the bytes' SHA-256) is carried
// over.
func TestLedgerKey(t *testing.T) {
	p, csv := irisOneRelease(t)
	// (Each step waits for a meter that differs from the step before: the
	// meter keeps the last table's line while the new one is read.)
	p.setupIrisL1(strings.Replace(csv, "4.8,", "4.9,", 1), "1")
	p.ledgerReleases(0)
	p.setupIrisL1(sameIrisOtherwise(csv), "1")
	if !p.waitJSSoft(`document.getElementById("est-ledger-summary").textContent.includes("This table: 1 release,")`, 20*time.Second) {
		t.Fatalf("the same rows saved otherwise: %s", p.text("#est-ledger-summary"))
	}
	p.setupIrisL1(strings.Replace(csv, "4.8,", "4.9,", 1), "1")
	p.ledgerReleases(0)

	// A budget stored under the legacy key of another file is carried over.
	other := strings.Replace(csv, "setosa", "Setosa", -1)
	sum := sha256.Sum256([]byte(other))
	legacy := hex.EncodeToString(sum[:])
	eval[bool](p, `(() => { localStorage.setItem("dpsample.ledger.`+legacy+`", JSON.stringify({key: "`+legacy+`",
	  budget: {epsilon: 3, delta: 1e-5, gdp: 1, tv: 1e-6}, history: [{id: "old-1", gdp: 0.3, tv: 0}, {id: "old-2", gdp: 0.3, tv: 0}]})); return true })()`)
	p.setupIrisL1(other, "1")
	t.Logf("legacy key: %s", p.ledgerReleases(2))
	if eval[bool](p, `localStorage.getItem("dpsample.ledger.`+legacy+`") !== null`) {
		t.Error("the legacy entry was kept beside the carried-over one")
	}

	p.noConsoleErrors()
}

// TestLedgerLegacyMerged (issue 41 item 2): a budget stored under the
// former key (the bytes' SHA-256) is merged into the table's budget by
// release id and removed, also when the table already has a budget under
// the new key (main read the former key only when nothing was stored under
// the new one, so a table saved two ways before the key change kept one of
// its two histories: here 1 release shown instead of 3).
func TestLedgerLegacyMerged(t *testing.T) {
	p, csv := irisOneRelease(t)
	sum := sha256.Sum256([]byte(csv))
	legacy := hex.EncodeToString(sum[:])
	eval[bool](p, `(() => { localStorage.setItem("dpsample.ledger.`+legacy+`", JSON.stringify({key: "`+legacy+`",
	  budget: {epsilon: 3, delta: 1e-5, gdp: 1, tv: 1e-6}, history: [{id: "old-1", gdp: 0.2, tv: 0}, {id: "old-2", gdp: 0.2, tv: 0}]})); return true })()`)
	p.reloadPage()
	p.setupIrisL1(csv, "1")
	t.Logf("merged: %s", p.ledgerReleases(3))
	if eval[bool](p, `localStorage.getItem("dpsample.ledger.`+legacy+`") !== null`) {
		t.Error("the legacy entry was kept beside the merged one")
	}
	ids := eval[string](p, `(() => { const k = Object.keys(localStorage).filter(k => k.startsWith("dpsample.ledger."));
	  return k.length + ": " + JSON.parse(localStorage.getItem(k[0])).history.map(r => r.id.startsWith("old-") ? r.id : "new").sort().join(",") })()`)
	if ids != "1: new,old-1,old-2" {
		t.Errorf("stored budgets after the merge: %s", ids)
	}
	p.noConsoleErrors()
}

// TestLedgerUnreadable (issue 30 item 3): a stored budget that cannot be
// read back (a field another version added) is not replaced by a fresh one:
// after a reload the meter says so, Run is refused with a message naming the
// way out, and reset says what it forgets, then runs start from zero (main
// silently ran on a fresh budget).
func TestLedgerUnreadable(t *testing.T) {
	p, csv := irisOneRelease(t)
	n := eval[int](p, `(() => { let n = 0; for (const k of Object.keys(localStorage)) { if (!k.startsWith("dpsample.ledger.")) continue;
	  const st = JSON.parse(localStorage.getItem(k)); if (st.history.length !== 1) continue;
	  st.addedByAnotherVersion = true; localStorage.setItem(k, JSON.stringify(st)); n++ } return n })()`)
	if n != 1 {
		t.Fatalf("%d stored budgets with one release", n)
	}
	p.reloadPage()
	p.setupIrisL1(csv, "1")
	if !p.waitJSSoft(`document.getElementById("est-ledger-summary").textContent.includes("could not be read back")`, 20*time.Second) {
		t.Errorf("the meter on an unreadable budget: %s", p.text("#est-ledger-summary"))
	}
	eval[bool](p, `(() => { document.getElementById("est-status").textContent = ""; return true })()`)
	p.click("est-run")
	p.waitJS(`document.getElementById("est-err").textContent !== "" || document.getElementById("est-status").textContent === "Done."`, 60*time.Second)
	msg := p.text("#est-err")
	t.Logf("refusal: %s", msg)
	if !strings.HasPrefix(msg, "Not run: this table's stored privacy budget could not be read back (") || !strings.Contains(msg, "reset its budget") {
		t.Fatalf("a run on an unreadable budget: err %q, status %q", msg, p.text("#est-status"))
	}
	p.shot("#estimate", "ledger-unreadable")
	if eval[bool](p, `document.getElementById("est-ledger-reset").disabled`) {
		t.Fatal("no way out: reset is disabled")
	}
	p.click("est-ledger-reset")
	p.waitJS(`!document.getElementById("est-ledger-confirm").hidden`, 5*time.Second)
	if s := p.text("#est-ledger-confirm-text"); !strings.Contains(s, "could not be read back") || !strings.Contains(s, "forgets every release recorded there") {
		t.Errorf("reset confirmation: %q", s)
	}
	p.click("est-ledger-reset-yes")
	p.ledgerReleases(0)
	p.runEstimate()
	p.ledgerReleases(1)
	p.noConsoleErrors()
}

// TestLedgerTwoTabs (issue 30 item 4): two tabs of the page on one table
// spend one budget. Tab B, open on the table, sees tab A's releases as they
// are stored; with room for one more run, Run pressed in both tabs at once
// runs in exactly one and is refused in the other, and both end with the
// same 3 releases stored (main: both ran, and the last write dropped one of
// the two releases).
func TestLedgerTwoTabs(t *testing.T) {
	a := newPage(t, "/")
	a.waitJS(`window.dpsampleUIReady === true && document.getElementById("status").dataset.state === "ready"`, 60*time.Second)
	b := a.sibling("/")
	b.waitJS(`window.dpsampleUIReady === true && document.getElementById("status").dataset.state === "ready"`, 60*time.Second)
	csv := irisCSV(",")
	for _, p := range []*page{a, b} {
		p.setupIrisL1(csv, "1.5")
		p.ledgerReleases(0)
	}
	a.runEstimate()
	a.ledgerReleases(1)
	a.runEstimate()
	a.ledgerReleases(2)
	if !b.waitJSSoft(`document.getElementById("est-ledger-summary").textContent.includes("This table: 2 releases,")`, 20*time.Second) {
		t.Errorf("tab B does not show tab A's two releases: %s", b.text("#est-ledger-summary"))
	}
	for _, p := range []*page{a, b} {
		eval[bool](p, `(() => { document.getElementById("est-status").textContent = ""; document.getElementById("est-err").textContent = ""; return true })()`)
	}
	// Press Run in both tabs in the same instant (as far as two tabs can).
	eval[bool](a, `(() => { document.getElementById("est-run").click(); return true })()`)
	eval[bool](b, `(() => { document.getElementById("est-run").click(); return true })()`)
	done := `document.getElementById("est-status").textContent === "Done." || document.getElementById("est-err").textContent !== ""`
	ran := 0
	for _, p := range []*page{a, b} {
		p.waitJS(done, 90*time.Second)
		if p.text("#est-status") == "Done." {
			ran++
		} else {
			t.Logf("refused: %s", p.text("#est-err"))
			if e := p.text("#est-err"); !strings.Contains(e, "ledger must be large enough") {
				t.Errorf("the refusal does not name the budget: %q", e)
			}
		}
	}
	if ran != 1 {
		t.Errorf("%d of the two simultaneous runs ran, with room for one", ran)
	}
	stored := eval[int](a, `(() => { const k = Object.keys(localStorage).find(k => k.startsWith("dpsample.ledger."));
	  return JSON.parse(localStorage.getItem(k)).history.length })()`)
	if stored != 2+ran {
		t.Errorf("%d releases stored after %d runs", stored, 2+ran)
	}
	for _, p := range []*page{a, b} {
		p.ledgerReleases(3)
	}
	a.noConsoleErrors()
	b.noConsoleErrors()
}

// TestLedgerSharedCopy: a tab whose localStorage does not show another tab's
// charge yet (Chromium hands a write to the other renderers asynchronously;
// staged here by removing the stored copy) still charges on top of it: under
// the table's lock it folds in the IndexedDB copy, which every completed
// charge wrote before letting the lock go (internal/ledger/shared.go). Tab A
// runs once; the stored copy is removed; tab B, opened after, runs: the
// table holds 2 releases, and both are stored again. Without the IndexedDB
// copy tab B started a fresh budget and A's release was lost from storage.
func TestLedgerSharedCopy(t *testing.T) {
	a := newPage(t, "/")
	a.waitJS(`window.dpsampleUIReady === true && document.getElementById("status").dataset.state === "ready"`, 60*time.Second)
	csv := irisCSV(",")
	a.setupIrisL1(csv, "1")
	a.runEstimate()
	a.ledgerReleases(1)
	if n := eval[int](a, `(() => { let n = 0; for (const k of Object.keys(localStorage)) if (k.startsWith("dpsample.ledger.")) { localStorage.removeItem(k); n++ } return n })()`); n != 1 {
		t.Fatalf("%d stored budgets, want 1", n)
	}
	b := a.sibling("/")
	b.waitJS(`window.dpsampleUIReady === true && document.getElementById("status").dataset.state === "ready"`, 60*time.Second)
	b.setupIrisL1(csv, "1")
	b.runEstimate()
	b.ledgerReleases(2)
	stored := eval[int](b, `(() => { const k = Object.keys(localStorage).find(k => k.startsWith("dpsample.ledger."));
	  return k ? JSON.parse(localStorage.getItem(k)).history.length : 0 })()`)
	if stored != 2 {
		t.Errorf("%d releases stored after two runs, want 2", stored)
	}
	a.noConsoleErrors()
	b.noConsoleErrors()
}

// TestLoaderLostLedger (issue 30 item 3, the loader): a ledger the loader
// cannot restore into a replaced worker (here a worker that refuses the
// restore, as another version would refuse a state it cannot read) is not
// replaced by a fresh budget: after the worker is replaced, open, get, a
// charged sample and a charged describe with that key reject, saying so and
// naming the way out; ledger.reset(key, budget) starts it afresh, and runs go
// on (main: open silently gave a fresh budget; issue 41 item 5: describe was
// not keyed by its ledger and answered "must be the key of an open ledger …
// open first", while open was refused).
func TestLoaderLostLedger(t *testing.T) {
	p := newPage(t, "/")
	p.waitJS(`document.getElementById("status").dataset.state === "ready"`, 60*time.Second)
	r := eval[map[string]any](p, `(async () => {
	  const { load } = await import("/site/dpsample.js");
	  const d = await load({ workerURL: "/e2e-testdata/lostworker.js", hardCancelMs: 300 });
	  const key = "lost-" + Math.random();
	  const req = { loss: "l1", x: Array.from({ length: 30 }, (_, i) => [Math.sin(i) / 2]), epsilon: 1, delta: 1e-5, radius: 1 };
	  await d.ledger.open({ key, epsilon: 3, delta: 1e-5 });
	  await d.mechanism.sample(req, { ledger: key });
	  const before = d.restarts;
	  const ac = new AbortController(); setTimeout(() => ac.abort(), 100);
	  const spin = await d._test.spin(20000, { signal: ac.signal }).then(() => "finished", (e) => e.name);
	  const run = await d.mechanism.sample(req, { ledger: key }).then(() => "ran", (e) => e.message);
	  const get = await d.ledger.get(key).then((s) => "got " + s.spent.releases, (e) => e.message);
	  const open = await d.ledger.open({ key, epsilon: 3, delta: 1e-5 }).then((s) => "opened with " + s.spent.releases, (e) => e.message);
	  const describe = await d.describe({ x: req.x, epsilon: 1, delta: 1e-5 }, { ledger: key }).then(() => "described", (e) => e.message);
	  const reset = await d.ledger.reset(key, { epsilon: 3, delta: 1e-5 }).then((s) => s.spent.releases, (e) => e.message);
	  const after = await d.mechanism.sample(req, { ledger: key }).then((r) => r.privacy.ledger.spent.releases, (e) => e.message);
	  d.terminate();
	  return { restarted: d.restarts - before, spin, run, get, open, describe, reset, after };
	})()`)
	t.Logf("%v", r)
	if r["restarted"].(float64) < 1 || r["spin"] != "AbortError" {
		t.Fatalf("the worker was not replaced: %v", r)
	}
	for _, k := range []string{"run", "get", "open", "describe"} {
		if s, _ := r[k].(string); !strings.Contains(s, "could not be (state.extra must be a known field") || !strings.Contains(s, "ledger.reset(key, {epsilon, delta})") {
			t.Errorf("%s on a ledger lost in the restart: %q", k, r[k])
		}
	}
	if r["reset"] != 0.0 || r["after"] != 1.0 {
		t.Errorf("the way out: reset → %v releases, then a run → %v", r["reset"], r["after"])
	}
}
