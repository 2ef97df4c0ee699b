package loss

import (
	"errors"
	"math"
	"testing"
	"time"

	"github.com/dpsample/dpsample/core/rng"
)

// timedExec is a copyExec on a fake clock: Begin advances it by the
// caller's local work (Begin is called between the two clock readings that
// frame the local shards), Wait by the extra time the remote shards take
// beyond it.
type timedExec struct {
	*copyExec
	now          *time.Time
	local, extra time.Duration
	closed       bool
}

func (e *timedExec) Begin(op Op, v, lin, part []float64) {
	if e.closed {
		panic("Begin after Close")
	}
	*e.now = e.now.Add(e.local)
	e.copyExec.Begin(op, v, lin, part)
}

func (e *timedExec) Wait() ([]int, error) {
	*e.now = e.now.Add(e.extra)
	return e.copyExec.Wait()
}

func (e *timedExec) Close() { e.closed = true }

// TestShardedFallback (issue 29 item 5): on W = 4 equal shards the caller
// alone would take 4× its own shard's time, so a pass of wall time L + extra
// (L the caller's shard) is slower than the caller alone iff extra > 3L.
// With extra = 2L the shards keep running for 300 passes; with extra = 4L the
// caller takes every shard over after the first window (WatchPasses passes
// and WatchWindow of wall time), the workers are closed, the note says
// ErrSlower once — and every pass, before and after, returns the Set's bits
// (Linearize and Bregman alternating, so a take-over before a Bregman
// rebuilds the remote lin).
func TestShardedFallback(t *testing.T) {
	n, d := 2048, 5
	s := shardSet(t, Logistic, n, d, 29)
	bounds := Partition(n, 4)
	if bounds[1] != n/4 {
		t.Fatalf("bounds %v: want four equal shards", bounds)
	}
	const L = 10 * time.Millisecond
	for _, c := range []struct {
		extra    time.Duration
		fallback bool
	}{{2 * L, false}, {4 * L, true}} {
		now := time.Unix(0, 0)
		ex := &timedExec{copyExec: newCopyExec(t, s, bounds, nil), now: &now, local: L, extra: c.extra}
		var notes []error
		sh := NewShardedWith(s, bounds, ex, func(err error) { notes = append(notes, err) })
		sh.WatchSpeed(func() time.Time { return now })
		r := rng.Seeded(3)
		g1, g2 := make([]float64, d), make([]float64, d)
		l1, l2 := make([]float64, 3*n), make([]float64, 3*n)
		fellAt := -1
		for step := 0; step < 150; step++ {
			z, x := randVec(r, d, 3), randVec(r, d, 3)
			v1, v2 := s.Linearize(z, g1, l1), sh.Linearize(z, g2, l2)
			if math.Float64bits(v1) != math.Float64bits(v2) || !sameBits(g1, g2) {
				t.Fatalf("extra %v step %d: Linearize %v vs %v", c.extra, step, v1, v2)
			}
			if b1, b2 := s.Bregman(x, l1), sh.Bregman(x, l2); math.Float64bits(b1) != math.Float64bits(b2) {
				t.Fatalf("extra %v step %d: Bregman %v vs %v", c.extra, step, b1, b2)
			}
			if fellAt < 0 && ex.closed {
				fellAt = 2 * (step + 1)
			}
		}
		if !c.fallback {
			if ex.closed || len(notes) != 0 || sh.Slowed() != nil {
				t.Errorf("extra %v: fell back (closed %v, notes %v) though the shards were faster than the caller alone", c.extra, ex.closed, notes)
			}
			continue
		}
		// The window ends at the pass where both WatchPasses and WatchWindow
		// are reached; the take-over happens at the next pass.
		window := max(WatchPasses, int(math.Ceil(float64(WatchWindow)/float64(L+c.extra))))
		if !ex.closed || len(notes) != 1 || !errors.Is(notes[0], ErrSlower) || !errors.Is(sh.Slowed(), ErrSlower) {
			t.Fatalf("extra %v: closed %v, notes %v, slowed %v: want one fallback", c.extra, ex.closed, notes, sh.Slowed())
		}
		if fellAt > window+2 {
			t.Errorf("extra %v: fell back after %d passes, want within the first window (%d passes) and the next", c.extra, fellAt, window)
		}
		if sh.Failure() != nil {
			t.Errorf("a slow pool is not a failure: %v", sh.Failure())
		}
	}
}

// TestSlowerRule: the decision is wall > local·n/n_local, the caller alone
// at its measured speed — not wall > local (which would call any pool
// slower whose pass takes longer than the caller's own shard, i.e. almost
// every pool); the broken rule is checked to fail the same table.
func TestSlowerRule(t *testing.T) {
	ms := time.Millisecond
	cases := []struct {
		wall, local  time.Duration
		n, localRows int
		want         bool
	}{
		{1500 * ms, 1000 * ms, 2000, 1000, false}, // 2 shards: solo 2 s
		{2100 * ms, 1000 * ms, 2000, 1000, true},
		{1000 * ms, 300 * ms, 4000, 1000, false}, // 4 shards: solo 1.2 s
		{1300 * ms, 300 * ms, 4000, 1000, true},
		{1100 * ms, 1000 * ms, 2000, 2000, true}, // every shard local already: any overhead is slower
	}
	check := func(rule func(wall, local time.Duration, n, localRows int) bool) (bad int) {
		for _, c := range cases {
			if rule(c.wall, c.local, c.n, c.localRows) != c.want {
				bad++
			}
		}
		return bad
	}
	if bad := check(slower); bad != 0 {
		t.Errorf("slower: %d of %d decisions wrong", bad, len(cases))
	}
	broken := func(wall, local time.Duration, _, _ int) bool { return wall > local }
	if check(broken) == 0 {
		t.Error("the unscaled rule (wall > local) passes the table: the table cannot tell the rules apart")
	}
}
