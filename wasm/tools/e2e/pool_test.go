//go:build !js

package e2e

import (
	"strconv"
	"strings"
	"testing"
	"time"
)

// poolSetup defines run(workers, extra) on the page: a seeded logistic
// first-order sample on n = 4,200 rows of d = 8 (loss.Workers gives up to 4
// shards) through the worker API, returning θ, the workers that ran, the
// note and the time.
const poolSetup = `
globalThis.poolRun = (workers, opts) => dpsampleRemote.then(d => {
  const x = [], y = [];
  for (let i = 0; i < 4200; i++) {
    const r = []; for (let j = 0; j < 8; j++) r.push(Math.sin(1.3 * i + 0.7 * j * j) / 3);
    x.push(r); y.push(r[0] + 0.5 * r[1] - 0.2 * r[5] > 0 ? 1 : -1);
  }
  const t0 = performance.now();
  let progress = 0;
  return d.mechanism.sample({loss: "logistic", x, y, epsilon: 0.3, delta: 1e-5, radius: 2, seed: 11, workers},
                            {...opts, onProgress: () => progress++})
    .then(r => ({ok: true, theta: r.theta, workers: r.diagnostics.workers, planWorkers: r.plan.workers, note: r.diagnostics.note || "",
                 ms: performance.now() - t0, progress}),
          e => ({ok: false, name: e.name, message: e.message, ms: performance.now() - t0, progress}));
});`

type poolResult struct {
	OK          bool      `json:"ok"`
	Theta       []float64 `json:"theta"`
	Workers     int       `json:"workers"`
	PlanWorkers int       `json:"planWorkers"`
	Note        string    `json:"note"`
	MS          float64   `json:"ms"`
	Name        string    `json:"name"`
	Message     string    `json:"message"`
	Progress    int       `json:"progress"`
}

// TestWorkerPool: in Chromium (the dev server sends COOP/COEP, so the page is
// cross-origin isolated) a seeded first-order run on 2 and 4 shard workers —
// with shared memory and with messages — returns θ bit for bit equal to the
// one-worker run; a pool whose last shard worker crashes mid-run returns the
// same θ with a note saying so; a pool slower than one worker (its last
// shard busy-waits 20 ms a pass) falls back to the sampling worker alone with
// the same θ and a note saying so (issue 29 item 5); a run on a pool can be
// cancelled, and the module works afterwards. The fallback is off
// (_test.keepWorkers) for the runs that check the pool itself: on a loaded
// machine the messages pool is slower than one worker.
func TestWorkerPool(t *testing.T) {
	p := newPage(t, "/")
	p.waitJS(`document.getElementById("status").dataset.state === "ready"`, 60*time.Second)
	if !eval[bool](p, `crossOriginIsolated`) {
		t.Fatal("the dev server's page is not cross-origin isolated (COOP/COEP)")
	}
	eval[bool](p, poolSetup+` true`)
	eval[any](p, `dpsampleRemote.then(d => d._test.keepWorkers(true))`)
	one := eval[poolResult](p, `poolRun(1)`)
	if !one.OK || one.Workers != 1 || len(one.Theta) != 8 {
		t.Fatalf("one worker: %+v", one)
	}
	same := func(name string, r poolResult, workers int) {
		t.Helper()
		t.Logf("%s: %d workers, %.0f ms (one worker %.0f ms), note %q", name, r.Workers, r.MS, one.MS, r.Note)
		if !r.OK || r.Workers != workers || r.PlanWorkers != workers || r.Progress == 0 {
			t.Fatalf("%s: %+v", name, r)
		}
		for j := range one.Theta {
			if r.Theta[j] != one.Theta[j] {
				t.Fatalf("%s: θ %v, one worker %v", name, r.Theta, one.Theta)
			}
		}
	}
	for _, mode := range []string{"shared", "messages"} {
		eval[any](p, `dpsampleRemote.then(d => d._test.poolMode("`+mode+`"))`)
		for _, w := range []int{2, 4} {
			r := eval[poolResult](p, `poolRun(`+strconv.Itoa(w)+`)`)
			same(mode+" W="+strconv.Itoa(w), r, w)
			if r.Note != "" {
				t.Errorf("%s W=%d: note %q", mode, w, r.Note)
			}
		}
		eval[any](p, `dpsampleRemote.then(d => d._test.crashShard(7))`)
		r := eval[poolResult](p, `poolRun(4)`)
		same(mode+" W=4, last shard crashed", r, 4)
		if !strings.Contains(r.Note, "worker failed") || !strings.Contains(r.Note, "crashed") {
			t.Errorf("%s: crashed shard: note %q", mode, r.Note)
		}
	}
	eval[any](p, `dpsampleRemote.then(d => d._test.poolMode("shared"))`)
	eval[any](p, `dpsampleRemote.then(d => d._test.keepWorkers(false))`)
	eval[any](p, `dpsampleRemote.then(d => d._test.slowShard(20))`)
	r := eval[poolResult](p, `poolRun(2)`)
	same("shared W=2, last shard slowed by 20 ms a pass", r, 2)
	if !strings.Contains(r.Note, "slower than one") {
		t.Errorf("a pool with a slowed shard: note %q, want the fallback to one worker named", r.Note)
	}
	eval[any](p, `dpsampleRemote.then(d => d._test.poolMode("auto"))`)
	c := eval[poolResult](p, `(() => { const ac = new AbortController(); setTimeout(() => ac.abort(), 150);
	  return poolRun(4, {signal: ac.signal}); })()`)
	if c.OK || c.Name != "AbortError" {
		t.Errorf("cancelled pool run: %+v", c)
	}
	if s := eval[float64](p, `dpsampleRemote.then(d => d.privacy.delta(1, 1))`); s < 0.1269 || s > 0.127 {
		t.Fatalf("call after a cancelled pool run: %g", s)
	}
	// Hard cancel with shard workers alive: a non-yielding call queued behind
	// a pool run is aborted, the sampling worker (and with it its shard
	// workers) is terminated and respawned, both calls reject, and the next
	// pool run gives the same θ.
	h := eval[map[string]any](p, `(async () => { const d = await dpsampleRemote; const before = d.restarts;
	  const run = poolRun(4);
	  await new Promise(r => setTimeout(r, 300));
	  const ac = new AbortController(); setTimeout(() => ac.abort(), 200);
	  const spin = await d._test.spin(20000, {signal: ac.signal}).then(() => "finished", e => e.name);
	  const r = await run;
	  return {spin, runOK: r.ok, restarted: d.restarts - before};
	})()`)
	t.Logf("hard cancel with a pool: %v", h)
	if h["spin"] != "AbortError" || h["runOK"] != false || h["restarted"].(float64) != 1 {
		t.Errorf("hard cancel with a pool: %v", h)
	}
	same("after a hard cancel, W=4", eval[poolResult](p, `poolRun(4)`), 4)
	p.noConsoleErrors()
}
