//go:build !js

package e2e

import (
	"strings"
	"testing"
	"time"
)

// TestWorkerAPI drives site/dpsample.js in Chromium: the worker answers with
// the same names as the raw module, bad input rejects with the field named,
// progress arrives at ≥ 5 per second on a ~3 s run, the main thread keeps
// running timers meanwhile, cancel stops the run in < 200 ms, a forced panic
// is reported and the next call works, and a non-yielding call is stopped by
// the hard fallback (terminate + respawn).
func TestWorkerAPI(t *testing.T) {
	p := newPage(t, "/")
	p.waitJS(`window.dpsampleUIReady === true && document.getElementById("status").dataset.state === "ready"`, 60*time.Second)
	p.buildAll(30 * time.Second)

	if s := eval[float64](p, `dpsampleRemote.then(d => d.privacy.calibrate(1, 1e-5))`); s < 0.26805 || s > 0.26806 {
		t.Fatalf("worker calibrate(1, 1e-5) = %g", s)
	}
	msg := eval[string](p, `dpsampleRemote.then(d => d.privacy.calibrate(-1, 1e-5)).then(() => "resolved", e => e.message)`)
	if !strings.HasPrefix(msg, "epsilon must be a finite number > 0") {
		t.Fatalf("bad epsilon through the worker: %q", msg)
	}

	// A ~3 s proximal run: logistic regression, d = 3, with progress and a
	// main-thread timer counting ticks.
	const setup = `
	globalThis.run = (signal) => dpsampleRemote.then(d => {
	  const rows = [], y = [];
	  for (let i = 0; i < 160; i++) { const a = Math.sin(i), b = Math.cos(3*i); rows.push([a*0.5, b*0.5, 0.3]); y.push(a + 0.3*b > 0 ? 1 : -1); }
	  const prog = []; let ticks = 0; const timer = setInterval(() => ticks++, 20);
	  const t0 = performance.now();
	  return d.mechanism.sample({loss: "logistic", x: rows, y, epsilon: 1, delta: 1e-5, radius: 4, sampler: "proximal", seed: 7},
	                            {onProgress: p => prog.push([performance.now() - t0, p.done, p.total]), signal})
	    .then(r => ({ok: true, ms: performance.now() - t0, prog, ticks, steps: r.stats.steps, private: r.private, n: r.theta.length}),
	          e => ({ok: false, name: e.name, message: e.message, ms: performance.now() - t0, prog, ticks}))
	    .finally(() => clearInterval(timer));
	});`
	eval[bool](p, setup+` true`)
	type runResult struct {
		OK      bool        `json:"ok"`
		MS      float64     `json:"ms"`
		Prog    [][]float64 `json:"prog"`
		Ticks   int         `json:"ticks"`
		Steps   int         `json:"steps"`
		Private bool        `json:"private"`
		N       int         `json:"n"`
		Name    string      `json:"name"`
		Message string      `json:"message"`
	}
	full := eval[runResult](p, `run()`)
	if !full.OK || full.Private || full.N != 3 {
		t.Fatalf("full run: %+v", full)
	}
	perSec := float64(len(full.Prog)) / (full.MS / 1000)
	t.Logf("run: %.0f ms, %d steps, %d progress events (%.1f/s), %d timer ticks", full.MS, full.Steps, len(full.Prog), perSec, full.Ticks)
	if full.MS > 1000 && perSec < 5 {
		t.Errorf("progress arrived %.1f times per second, want ≥ 5", perSec)
	}
	if want := int(full.MS / 20 / 3); full.Ticks < want {
		t.Errorf("main-thread timer ticked %d times in %.0f ms: the page was not responsive", full.Ticks, full.MS)
	}

	// Cancel after 500 ms: the rejection must arrive within 200 ms.
	c := eval[map[string]float64](p, `(() => { const ac = new AbortController(); let abortedAt;
	  setTimeout(() => { abortedAt = performance.now(); ac.abort(); }, 500);
	  return run(ac.signal).then(r => ({ok: r.ok ? 1 : 0, abort: r.name === "AbortError" ? 1 : 0, latency: performance.now() - abortedAt})); })()`)
	if c["ok"] != 0 || c["abort"] != 1 {
		t.Fatalf("cancelled run: %v", c)
	}
	t.Logf("cancel latency %.0f ms", c["latency"])
	if c["latency"] > 200 {
		t.Errorf("cancel took %.0f ms, want < 200", c["latency"])
	}

	// A forced panic is a rejection, and the runtime keeps working.
	msg = eval[string](p, `dpsampleRemote.then(d => d._test.panic()).then(() => "resolved", e => e.message)`)
	if !strings.Contains(msg, "panic") {
		t.Fatalf("forced panic: %q", msg)
	}
	// Its trace names the function that panicked; the module has no line
	// tables (wasm/tools/wasmpack), and the "?:0" lines are left out.
	if !strings.Contains(msg, "wasm/jsapi.") || strings.Contains(msg, "?:0") {
		t.Errorf("forced panic's trace: %q", msg)
	}
	if s := eval[float64](p, `dpsampleRemote.then(d => d.privacy.delta(1, 1))`); s < 0.1269 || s > 0.127 {
		t.Fatalf("call after panic: %g", s)
	}

	// A call that never yields is cut off by terminate + respawn.
	h := eval[map[string]any](p, `(async () => { const d = await dpsampleRemote; const ac = new AbortController();
	  const before = d.restarts; const t0 = performance.now();
	  setTimeout(() => ac.abort(), 300);
	  const r = await d._test.spin(20000, {signal: ac.signal}).then(() => "finished", e => e.name);
	  const after = await d.privacy.delta(1, 1);
	  return {r, ms: performance.now() - t0, restarted: d.restarts - before, after};
	})()`)
	t.Logf("hard cancel: %v", h)
	if h["r"] != "AbortError" || h["restarted"].(float64) != 1 || h["ms"].(float64) > 5000 || h["after"].(float64) < 0.1269 {
		t.Errorf("hard cancel of a non-yielding call: %v", h)
	}
	p.noConsoleErrors()
}
