package loss

import (
	"errors"
	"time"
)

// Falling back to one worker (issue 29 item 5). On a busy device a pool of W
// workers can be slower than the caller alone: the shards' workers share the
// cores with everything else, and a pass waits for its slowest shard. The
// sharded passes can therefore watch their own speed: over a window of at
// least WatchPasses passes and WatchWindow of wall time, they compare
//
//	wall = ∑ (the pass's wall time, hand-off and waiting included)
//	solo = ∑ (the caller's own shards' time) · n / n_local
//
// where n_local is the rows of the shards the caller computes: solo is what
// the caller alone would have taken for the same passes, at the speed it had
// at that moment. When wall > solo the caller takes over every remote shard,
// exactly as it takes over a failed one (the same bits: TestShardedSameBits,
// TestShardedFallback), and the workers are closed; the note says so once.
// Each window starts afresh, so a pool that becomes slow later (load arriving
// mid-run) falls back then; the decision is one-way.
//
// The decision depends on timings only, never on the values of the rows; like
// the run time it is not private (with fixed work the passes themselves are
// data-independent, docs/PRIVACY.md §7.2), and it changes nothing but speed.

// The window of the speed watch.
const (
	WatchPasses = 32
	WatchWindow = 250 * time.Millisecond
)

// ErrSlower is the note of a run whose workers were slower than the caller
// alone (WatchSpeed).
var ErrSlower = errors.New("the workers were slower than the sampling worker alone")

// speedWatch accumulates one window.
type speedWatch struct {
	clock       func() time.Time
	passes      int
	wall, local time.Duration
}

// WatchSpeed makes sh fall back to the caller alone when its shards are
// slower than the caller alone would be (see the top of this file), timed by
// clock (time.Now; a test's fake clock). No-op for one shard.
func (sh *Sharded) WatchSpeed(clock func() time.Time) {
	if sh.ex != nil && sh.W() > 1 {
		sh.watch = &speedWatch{clock: clock}
	}
}

// slower reports whether a window's passes were slower on the shards than
// the caller alone: wall > local · n / localRows.
func slower(wall, local time.Duration, n, localRows int) bool {
	return float64(wall) > float64(local)*float64(n)/float64(localRows)
}

// record adds a pass (its wall time and the caller's local time) and
// reports, at the end of a window, whether the window was slower.
func (w *speedWatch) record(wall, local time.Duration, n, localRows int) bool {
	w.passes++
	w.wall += wall
	w.local += local
	if w.passes < WatchPasses || w.wall < WatchWindow {
		return false
	}
	slow := slower(w.wall, w.local, n, localRows)
	w.passes, w.wall, w.local = 0, 0, 0
	return slow
}

// localRows is the number of rows the caller computes.
func (sh *Sharded) localRows() int {
	r := 0
	for i, loc := range sh.local {
		if loc {
			r += sh.bounds[i+1] - sh.bounds[i]
		}
	}
	return r
}

// fallBack takes every remote shard over (after a slower window), closes
// the workers and notes ErrSlower once.
func (sh *Sharded) fallBack(op Op, lin []float64) {
	for i, loc := range sh.local {
		if !loc {
			sh.takeOver(i, op, lin)
		}
	}
	sh.watch = nil
	if sh.slowed == nil {
		sh.slowed = ErrSlower
		if sh.note != nil {
			sh.note(ErrSlower)
		}
	}
	sh.Close()
}

// Slowed returns ErrSlower if the run fell back to the caller alone.
func (sh *Sharded) Slowed() error { return sh.slowed }

// Notify sets the function called once with the first failure of a remote
// shard and once with ErrSlower (NewShardedWith's note).
func (sh *Sharded) Notify(note func(error)) { sh.note = note }
