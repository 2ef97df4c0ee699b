//go:build js && wasm

package timing

import (
	"math"
	"strings"
	"testing"
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
