//go:build !js

package e2e

import (
	"testing"
	"time"
)

// TestWorkerLedger drives dpsample.ledger through site/dpsample.js in
// Chromium: a sample with {ledger} reports the charge (onLedger) before any
// progress and returns the state after it; a typo in the options is refused
// by the loader (it would otherwise run without the budget); a release over
// budget is refused naming the ledger with no progress event; and a worker
// replaced by a hard cancel while a charged run is in flight gets every
// ledger back, with that run's charge (no refund, no reset).
func TestWorkerLedger(t *testing.T) {
	p := newPage(t, "/")
	p.waitJS(`document.getElementById("status").dataset.state === "ready"`, 60*time.Second)
	r := eval[map[string]any](p, `(async () => {
	  const d = await dpsampleRemote;
	  const key = "e2e-ledger-" + Math.random();
	  const x = Array.from({ length: 30 }, (_, i) => [Math.sin(i) / 2]);
	  const req = { loss: "l1", x, epsilon: 1.5, delta: 1e-5, radius: 1 };
	  await d.ledger.open({ key, epsilon: 3, delta: 1e-5 });
	  const events = [];
	  const res = await d.mechanism.sample(req, { ledger: key, onLedger: (st) => events.push("ledger:" + st.spent.releases),
	                                               onProgress: () => events.push("progress") });
	  const typo = await d.mechanism.sample(req, { ledgr: key }).then(() => "ran", (e) => e.message);
	  await d.mechanism.sample(req, { ledger: key });
	  await d.mechanism.sample(req, { ledger: key });
	  let progress = 0;
	  const over = await d.mechanism.sample(req, { ledger: key, onProgress: () => progress++ }).then(() => "ran", (e) => e.message);
	  // A charged run in flight, then a non-yielding call cut off by
	  // terminate + respawn: the charge must survive in the new worker.
	  const key2 = key + "-2";
	  await d.ledger.open({ key: key2, epsilon: 3, delta: 1e-5 });
	  const rows = [], y = [];
	  for (let i = 0; i < 400; i++) { const a = Math.sin(i), b = Math.cos(3 * i); rows.push([a * 0.5, b * 0.5, 0.3]); y.push(a + 0.3 * b > 0 ? 1 : -1); }
	  const before = d.restarts;
	  const ac = new AbortController();
	  let charged;
	  const chargedP = new Promise((ok) => { charged = ok; });
	  const long = d.mechanism.sample({ loss: "logistic", x: rows, y, epsilon: 1, delta: 1e-5, radius: 4, sampler: "proximal" },
	                                  { ledger: key2, onLedger: charged }).then(() => "finished", (e) => e.message);
	  await chargedP;
	  setTimeout(() => ac.abort(), 200);
	  const spin = await d._test.spin(20000, { signal: ac.signal }).then(() => "finished", (e) => e.name);
	  const longEnd = await long;
	  const after = await d.ledger.get(key2);
	  const first = await d.ledger.get(key);
	  return { events, resLedger: res.privacy.ledger.spent.releases, typo, over, progress, spin, longEnd,
	           restarted: d.restarts - before, after: after.spent.releases, first: first.spent.releases };
	})()`)
	t.Logf("%v", r)
	ev, _ := r["events"].([]any)
	if len(ev) < 2 || ev[0] != "ledger:1" || ev[len(ev)-1] != "progress" || r["resLedger"].(float64) != 1 {
		t.Errorf("events %v, result ledger %v: want the charge first, then progress", ev, r["resLedger"])
	}
	if r["typo"] != "opts.ledgr must be a known field (ledger, onLedger, onProgress, signal), got an unknown field" {
		t.Errorf("typo in the options: %q", r["typo"])
	}
	if over, _ := r["over"].(string); len(over) < 20 || over[:len("ledger must be large enough")] != "ledger must be large enough" || r["progress"].(float64) != 0 {
		t.Errorf("4th release at ε = 1.5 in (3, 1e-5): %q with %v progress events", r["over"], r["progress"])
	}
	if r["spin"] != "AbortError" || r["restarted"].(float64) != 1 {
		t.Errorf("hard cancel: spin %v, restarts %v", r["spin"], r["restarted"])
	}
	if r["after"].(float64) != 1 || r["first"].(float64) != 3 {
		t.Errorf("after the worker was replaced: %v releases on the in-flight ledger (want 1: charged, not refunded), %v on the first (want 3)", r["after"], r["first"])
	}
	p.noConsoleErrors()
}
