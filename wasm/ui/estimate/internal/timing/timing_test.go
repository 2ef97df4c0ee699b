//go:build js && wasm

package timing

import (
	"math"
	"strings"
	"testing"

	"github.com/dpsample/dpsample/core/mechanism"
)

// TestWorkerSpeed (issue 29 item 5): the workers' speed-up is counted at
// workerGain a worker (none without shared memory, as under node) until a
// run measures it; a run then sets it to what it achieved — the seconds its
// passes would take on one worker at the estimate's pass timing over the
// seconds it took — and the estimate says which. Runs under 2 s and
// one-worker runs are not kept.
func TestWorkerSpeed(t *testing.T) {
	clear(workerSpeeds)
	defer clear(workerSpeeds)
	if s, m := WorkerSpeed(2); s != 1 || m {
		t.Fatalf("before any run, without shared memory: speed %v measured %v, want 1 false", s, m)
	}
	e := WorkEstimate{Seconds: 10, Passes: 100, Rows: 1000, D: 4, Workers: 2, Speed: 1.6, NsPerRow: 3}
	e.RanFor(1.5) // too short to say anything about the workers
	if _, m := WorkerSpeed(2); m {
		t.Fatal("a run of 1.5 s was kept")
	}
	e.RanFor(20) // 10 s × 1.6 on one worker, done in 20 s: 0.8× one
	s, m := WorkerSpeed(2)
	if !m || math.Abs(s-0.8) > 1e-12 {
		t.Fatalf("after a 20 s run: speed %v measured %v, want 0.8 true", s, m)
	}
	if _, m := WorkerSpeed(3); m {
		t.Error("a run on 2 workers measured 3")
	}
	e.Speed, e.Measured = s, m
	if d := e.Describe(); !strings.Contains(d, "on 2 workers (0.8× one in the last run on them)") {
		t.Errorf("describe: %q", d)
	}
	one := WorkEstimate{Seconds: 10, Workers: 1, Speed: 1}
	one.RanFor(30)
	if _, ok := workerSpeeds[1]; ok {
		t.Error("a one-worker run was kept as a speed-up")
	}
}

// TestForPlan (issue 53 item 7b): the estimate counts the sampler's passes
// at the cost of its kind of pass (random rows for the zeroth-order
// stochastic mode, Linearize for the first-order sampler, values
// otherwise), the reference fit's at the value (or Linearize) cost, divides
// the passes by the workers' speed-up and adds the draws at their own cost,
// undivided; Describe names the draws. Without the draws (the estimate
// before) a stochastic run of this plan is 3.6 times shorter.
func TestForPlan(t *testing.T) {
	clear(workerSpeeds)
	defer clear(workerSpeeds)
	costs := map[passMode]float64{passLinearize: 2e-9, passValue: 3e-9, passRows: 5e-9}
	c := func(m passMode) float64 { return costs[m] }
	dc := func(fo bool) float64 {
		if fo {
			return 90e-9
		}
		return 30e-9
	}
	pl := mechanism.Plan{N: 500, D: 20, Method: "proximal-stochastic", Workers: 1,
		Work: mechanism.Work{Passes: 8000, Reference: 3000, RowsTimesD: 10000, Draws: 7e7}}
	e := forPlan(pl, c, dc)
	want := (8000*5e-9+3000*3e-9)*10000 + 7e7*30e-9
	if math.Abs(e.Seconds-want) > 1e-9*want || math.Abs(e.NsPerDraw-30) > 1e-9 || e.Passes != 11000 {
		t.Errorf("stochastic: %+v, want %v s", e, want)
	}
	if before := (8000 + 3000) * 10000 * 3e-9; want/before < 3.5 {
		t.Errorf("the draws add %.2f× to the passes alone", want/before)
	}
	if d := e.Describe(); !strings.Contains(d, "70 million random draws at 30 ns") {
		t.Errorf("describe: %q", d)
	}
	pl.Method, pl.Workers = mechanism.MethodFirstOrder, 2
	pl.Work.Draws = 1e5
	e = forPlan(pl, c, dc)
	speed, _ := WorkerSpeed(2)
	want = (8000*2e-9+3000*2e-9)*10000/speed + 1e5*90e-9
	if math.Abs(e.Seconds-want) > 1e-9*want || math.Abs(e.NsPerRow-2) > 1e-9 {
		t.Errorf("first-order on 2 workers: %+v, want %v s", e, want)
	}
}
