package mechanism

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/dpsample/dpsample/core/checks"
	"github.com/dpsample/dpsample/core/loss"
)

// TestSampleWorkers: a seeded first-order sample is the same bits with 1, 2
// and 4 workers offered (n = 2,100 and 4,200 rows: loss.Workers gives 1, 2,
// 4 shards); plan.workers and diagnostics.workers say how many
// ran; an executor factory that fails gives the one-worker result and a
// note; workers outside [0, MaxWorkers] is an error naming the field.
func TestSampleWorkers(t *testing.T) {
	for _, n := range []int{2100, 4200} {
		x, y := smallGLM(n, 6, true)
		var first []float64
		for _, w := range []int{0, 2, 4} {
			req := Request{Loss: "logistic", X: x, Y: y, Epsilon: 0.2, Delta: 1e-5, Radius: 1, Seed: seed(9), Workers: w}
			res, err := SampleWith(context.Background(), req, nil, Options{KeepWorkers: true}) // on a busy machine the speed watch may fall back (TestSampleFallback)
			if err != nil {
				t.Fatal(err)
			}
			want := loss.Workers(n, max(1, w))
			if res.Plan.Workers != want || res.Diagnostics.Workers != want || res.Diagnostics.Note != "" {
				t.Errorf("n=%d workers=%d: plan %d, ran %d (want %d), note %q", n, w, res.Plan.Workers, res.Diagnostics.Workers, want, res.Diagnostics.Note)
			}
			t.Logf("n=%d workers=%d: T=%d, %d shards", n, w, res.Plan.Steps, res.Plan.Workers)
			if first == nil {
				first = res.Theta
				continue
			}
			for j := range first {
				if math.Float64bits(first[j]) != math.Float64bits(res.Theta[j]) {
					t.Fatalf("n=%d workers=%d: θ %v, one worker %v", n, w, res.Theta, first)
				}
			}
		}
		req := Request{Loss: "logistic", X: x, Y: y, Epsilon: 0.2, Delta: 1e-5, Radius: 1, Seed: seed(9), Workers: 4}
		res, err := SampleWith(context.Background(), req, nil, Options{Shards: func(*loss.Set, []int) (loss.Executor, error) {
			return nil, errors.New("no Worker constructor")
		}})
		if err != nil || res.Diagnostics.Workers != 1 || res.Diagnostics.Note == "" {
			t.Fatalf("failing pool: %v, diagnostics %+v", err, res.Diagnostics)
		}
		for j := range first {
			if math.Float64bits(first[j]) != math.Float64bits(res.Theta[j]) {
				t.Fatalf("failing pool: θ %v, one worker %v", res.Theta, first)
			}
		}
	}
	x, y := smallGLM(50, 2, true)
	for _, w := range []int{-1, loss.MaxWorkers + 1} {
		_, err := NewPlan(Request{Loss: "logistic", X: x, Y: y, Epsilon: 1, Delta: 1e-5, Radius: 3, Workers: w})
		var ce *checks.Error
		if !errors.As(err, &ce) || ce.Field != "workers" {
			t.Errorf("workers=%d: %v", w, err)
		}
	}
}

// shardCopies is an Executor whose shards 1..W−1 are Sets built by
// loss.NewShard from copies of their rows — what each Web Worker of the
// browser's pool does (wasm/internal/pool) — run in turn on the caller. A
// shard NewShard refuses fails the factory, as the pool's load does.
type shardCopies struct {
	sets []*loss.Set
	lins [][]float64
	b0   []int
	d    int
}

func newShardCopies(set *loss.Set, bounds []int) (loss.Executor, error) {
	d, w := set.Dim(), len(bounds)-1
	e := &shardCopies{sets: make([]*loss.Set, w), lins: make([][]float64, w), b0: make([]int, w), d: d}
	for i := 1; i < w; i++ {
		lo, hi := bounds[i], bounds[i+1]
		x := append([]float64(nil), set.Data()[lo*d:hi*d]...)
		y := make([]float64, hi-lo)
		for r := range y {
			y[r] = set.Target(lo + r)
		}
		s, err := loss.NewShard(set.Kind(), set.Params(), x, y, d)
		if err != nil {
			return nil, err
		}
		e.sets[i], e.lins[i], e.b0[i] = s, make([]float64, 3*(hi-lo)), lo/loss.PassBlock
	}
	return e, nil
}

func (e *shardCopies) Begin(op loss.Op, v, _, part []float64) {
	for i := 1; i < len(e.sets); i++ {
		if op == loss.OpLinearize {
			e.sets[i].LinearizeBlocks(v, e.lins[i], part[e.b0[i]*(e.d+1):])
		} else {
			e.sets[i].BregmanBlocks(v, e.lins[i], part[e.b0[i]:])
		}
	}
}

func (e *shardCopies) Wait() ([]int, error) { return nil, nil }
func (e *shardCopies) Close()               {}

// TestSampleWorkersClippedRows: rows of the shape [a, 3, 3, …] at d = 100,
// which loss.New clips, run on 2 workers whose shards hold their own copies
// (loss.NewShard, as in the browser's pool): the run keeps its 2 workers
// with no note and the one-worker θ bit for bit (issue 30: NewShard refused
// some clipped rows, so the pool fell back to one worker and wrote the row
// into diagnostics.note — the run time depended on one record).
func TestSampleWorkersClippedRows(t *testing.T) {
	const n, d = 2 * loss.MinShardRows, 100
	x, y := make([][]float64, n), make([]float64, n)
	for i := range x {
		x[i] = make([]float64, d)
		x[i][0] = 0.37 + 0.61*float64(i%(n/2)) // the same rows in both shards
		for j := 1; j < d; j++ {
			x[i][j] = 3
		}
		y[i] = float64(i%2*2 - 1)
	}
	req := Request{Loss: "logistic", X: x, Y: y, Epsilon: 1, Delta: 1e-5, Radius: 1, Clip: 0.3, Seed: seed(30), Workers: 2}
	res, err := SampleWith(context.Background(), req, nil, Options{Shards: newShardCopies, KeepWorkers: true}) // the copies run on the caller: no speed watch
	if err != nil {
		t.Fatal(err)
	}
	if res.Diagnostics.Workers != 2 || res.Diagnostics.Note != "" {
		t.Fatalf("clipped rows on 2 workers: ran %d, note %q", res.Diagnostics.Workers, res.Diagnostics.Note)
	}
	req.Workers = 1
	one, err := Sample(context.Background(), req, nil)
	if err != nil {
		t.Fatal(err)
	}
	for j := range one.Theta {
		if math.Float64bits(one.Theta[j]) != math.Float64bits(res.Theta[j]) {
			t.Fatalf("2 workers: θ %v, one worker %v", res.Theta[:3], one.Theta[:3])
		}
	}
}

// slowCopies are shardCopies whose every pass waits 20 ms more, as shards
// on busy cores would.
type slowCopies struct{ *shardCopies }

func (e slowCopies) Wait() ([]int, error) {
	time.Sleep(20 * time.Millisecond)
	return e.shardCopies.Wait()
}

// TestSampleFallback (issue 29 item 5): shards slower than the caller alone
// (every pass 20 ms late, against well under a millisecond of rows) are
// taken over after the first window (loss.WatchPasses, loss.WatchWindow):
// the θ is the one-worker θ bit for bit, and the note says so.
func TestSampleFallback(t *testing.T) {
	const n, d = 2 * loss.MinShardRows, 4
	x, y := make([][]float64, n), make([]float64, n)
	for i := range x {
		x[i] = []float64{math.Sin(float64(i)), math.Cos(0.3 * float64(i)), 0.5, float64(i%3) / 3}
		y[i] = float64(i%2*2 - 1)
	}
	req := Request{Loss: "logistic", X: x, Y: y, Epsilon: 0.3, Delta: 1e-5, Radius: 1, Seed: seed(29), Workers: 2}
	slow := func(s *loss.Set, b []int) (loss.Executor, error) {
		ex, err := newShardCopies(s, b)
		if err != nil {
			return nil, err
		}
		return slowCopies{ex.(*shardCopies)}, nil
	}
	res, err := SampleWith(context.Background(), req, nil, Options{Shards: slow})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(res.Diagnostics.Note, "slower than one") {
		t.Errorf("slow shards: note %q, want the fallback named", res.Diagnostics.Note)
	}
	req.Workers = 1
	one, err := Sample(context.Background(), req, nil)
	if err != nil {
		t.Fatal(err)
	}
	for j := range one.Theta {
		if math.Float64bits(one.Theta[j]) != math.Float64bits(res.Theta[j]) {
			t.Fatalf("θ after the fallback %v, one worker %v", res.Theta, one.Theta)
		}
	}
}

// TestSampleWorkersDPGD: a seeded dp-gd release on a smooth loss is the same
// bits with 1, 2 and 4 workers offered (goroutine shards), with shards that
// hold copies of their rows (shardCopies: the browser pool's layout), and
// with a pool that fails to start (one worker and a note); plan.workers is
// loss.Workers(n, workers) as for the first-order sampler. A non-smooth
// loss (hinge) keeps one worker.
func TestSampleWorkersDPGD(t *testing.T) {
	n := 2100
	x, y := smallGLM(n, 6, true)
	var first []float64
	failing := func(*loss.Set, []int) (loss.Executor, error) { return nil, errors.New("no Worker constructor") }
	for _, c := range []struct {
		w      int
		shards func(*loss.Set, []int) (loss.Executor, error)
		fails  bool
	}{{0, nil, false}, {2, nil, false}, {4, nil, false}, {4, newShardCopies, false}, {4, failing, true}} {
		req := Request{Loss: "logistic", X: x, Y: y, Epsilon: 1, Delta: 1e-5, Radius: 1, Seed: seed(9), Workers: c.w, Method: EstimatorDPGD}
		res, err := SampleWith(context.Background(), req, nil, Options{Shards: c.shards, KeepWorkers: true})
		if err != nil {
			t.Fatal(err)
		}
		want, ran := loss.Workers(n, max(1, c.w)), loss.Workers(n, max(1, c.w))
		if c.fails {
			ran = 1
		}
		if res.Plan.Workers != want || res.Diagnostics.Workers != ran || (res.Diagnostics.Note != "") != c.fails {
			t.Errorf("workers=%d: plan %d, ran %d (want %d), note %q", c.w, res.Plan.Workers, res.Diagnostics.Workers, want, res.Diagnostics.Note)
		}
		if first == nil {
			first = res.Theta
			continue
		}
		for j := range first {
			if math.Float64bits(first[j]) != math.Float64bits(res.Theta[j]) {
				t.Fatalf("workers=%d: θ %v, one worker %v", c.w, res.Theta, first)
			}
		}
	}
	res, err := Sample(context.Background(), Request{Loss: "hinge", X: x, Y: y, Epsilon: 1, Delta: 1e-5, Radius: 1, Seed: seed(9), Workers: 4, Method: EstimatorDPGD}, nil)
	if err != nil || res.Plan.Workers != 1 || res.Diagnostics.Workers != 1 {
		t.Errorf("hinge dp-gd: %v, plan workers %d, ran %d", err, res.Plan.Workers, res.Diagnostics.Workers)
	}
}
