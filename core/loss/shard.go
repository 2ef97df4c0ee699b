package loss

import (
	"fmt"
	"math"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/dpsample/dpsample/core/checks"
)

// Sharded passes. A pass is a sum over rows; Sharded splits the rows into W
// contiguous shards of whole blocks (pass.go), lets W workers compute the
// block sums of their shards at once, and adds the block sums in block
// order, which is exactly what the single-worker pass does: Sharded returns
// the same bits as Set for every W (TestShardedSameBits), so a seeded run is
// reproducible whatever the number of cores.
//
// The partition depends on n and W only (Partition), and W on n and the
// cores offered only (Workers): never on the data.

// MinShardRows is the fewest rows a shard gets (Workers): below it the
// hand-off costs about as much as the rows (BenchmarkSharded).
const MinShardRows = 4 * PassBlock

// MaxWorkers bounds the workers of one potential.
const MaxWorkers = 64

// Workers returns the number of shards for n rows when cores workers are
// offered: min(cores, ⌊n/MinShardRows⌋, MaxWorkers), at least 1. It depends
// on n and cores only.
func Workers(n, cores int) int {
	return max(1, min(cores, n/MinShardRows, MaxWorkers))
}

// Partition returns the W+1 row boundaries of W contiguous shards of n rows:
// shard s holds rows [bounds[s], bounds[s+1]), bounds[s] = PassBlock·⌊s·B/W⌋
// with B = Blocks(n) (so every shard is a whole number of blocks, the last
// one ending at n), bounds[W] = n. It depends on n and W only. W must be in
// [1, Blocks(n)].
func Partition(n, w int) []int {
	nb := Blocks(n)
	if w < 1 || w > nb {
		panic(fmt.Sprintf("loss: Partition(%d, %d): W must be in [1, %d]", n, w, nb))
	}
	b := make([]int, w+1)
	for s := 1; s < w; s++ {
		b[s] = PassBlock * (s * nb / w)
	}
	b[w] = n
	return b
}

// Slice returns the set of rows [lo, hi) of s, sharing its storage (lo a
// multiple of PassBlock, so the slice's blocks are blocks of s). Its passes
// fill lin[0 : 3(hi−lo)] for its rows.
func (s *Set) Slice(lo, hi int) *Set {
	if lo < 0 || hi > s.n || lo >= hi || lo%PassBlock != 0 {
		panic(fmt.Sprintf("loss: Slice(%d, %d) of %d rows", lo, hi, s.n))
	}
	t := *s
	t.n = hi - lo
	t.x = s.x[lo*s.d : hi*s.d]
	if s.y != nil {
		t.y = s.y[lo:hi]
	}
	t.clipped = 0
	return &t
}

// NewShard builds the set of one shard from rows that already passed New
// (x: n×d row-major, clipped; y: ±1 labels or clamped targets), for a worker
// that holds only its shard. It validates instead of clipping: every value
// finite, every row's Norm ≤ clip exactly (New stores rows so: clipRow), the
// labels ±1 for classification; so a shard computes with exactly the values
// of the set it came from and accepts every set New built. Errors name the
// field.
func NewShard(k Kind, p Params, x, y []float64, d int) (*Set, error) {
	if k >= numKinds {
		return nil, checks.Errorf("loss", "a known loss")
	}
	p, err := p.withDefaults()
	if err != nil {
		return nil, err
	}
	if d < 1 || len(x) == 0 || len(x)%d != 0 {
		return nil, checks.Errorf("x", "a non-empty n×%d row-major array", d)
	}
	n := len(x) / d
	if err := checks.Vector("x", x, len(x)); err != nil {
		return nil, err
	}
	g, _ := Lipschitz(k, p)
	s := &Set{kind: k, n: n, d: d, p: p, g: g, scale: 1, x: x}
	if k == L1 {
		s.scale = 1 / math.Sqrt(float64(d))
	}
	if k.Supervised() {
		if err := checks.Vector("y", y, n); err != nil {
			return nil, err
		}
		for i, v := range y {
			if k.Classification() && v != 1 && v != -1 {
				return nil, &checks.Error{Field: fmt.Sprintf("y[%d]", i), Rule: "a class label −1 or +1", Got: checks.Fmt(v)}
			}
		}
		s.y = y
	} else if len(y) != 0 {
		return nil, checks.Errorf("y", "absent: loss %q takes no targets", k.String())
	}
	if !k.Location() {
		for i := 0; i < n; i++ {
			if nrm := Norm(x[i*d : (i+1)*d]); nrm > p.Clip {
				return nil, &checks.Error{Field: fmt.Sprintf("x[%d]", i), Rule: fmt.Sprintf("a row of norm ≤ clip = %s (a shard holds clipped rows)", checks.Fmt(p.Clip)), Got: checks.Fmt(nrm)}
			}
		}
	}
	return s, nil
}

// LinearizeBlocks is the shard's part of Linearize(z, ·, lin): it fills lin
// (length 3·N()) and writes block b's sums to part[b(d+1) : (b+1)(d+1)]:
// Σ φ(vᵢ) first, then Σ φ'(vᵢ)·aᵢ (part has length Blocks(N())·(d+1)).
func (s *Set) LinearizeBlocks(z, lin, part []float64) {
	if _, ok := s.Smooth(); !ok {
		panic("loss: LinearizeBlocks on a loss that is not smooth: " + s.kind.String())
	}
	d := s.d
	part = part[:Blocks(s.n)*(d+1)]
	for b := range Blocks(s.n) {
		p := part[b*(d+1) : (b+1)*(d+1)]
		clear(p)
		p[0] = s.linBlock(b, z, lin, p[1:])
	}
}

// BregmanBlocks is the shard's part of Bregman(x, lin): part[b] is block
// b's sum of clamped Bregman terms (part has length Blocks(N())).
func (s *Set) BregmanBlocks(x, lin, part []float64) {
	part = part[:Blocks(s.n)]
	for b := range part {
		part[b] = s.bregBlock(b, x, lin)
	}
}

// reduceLinearize adds the block sums of a Linearize in block order into
// grad (length d) and returns L(z), as Set.Linearize does.
func reduceLinearize(part []float64, n, d int, grad []float64) float64 {
	clear(grad)
	tot := 0.0
	for b := range Blocks(n) {
		p := part[b*(d+1) : (b+1)*(d+1)]
		tot += p[0]
		for j, v := range p[1:] {
			grad[j] += v
		}
	}
	inv := 1 / float64(n)
	for j := range grad {
		grad[j] *= inv
	}
	return tot * inv
}

// reduceBregman adds the block sums of a Bregman pass in block order.
func reduceBregman(part []float64, n int) float64 {
	tot := 0.0
	for _, v := range part[:Blocks(n)] {
		tot += v
	}
	return tot / float64(n)
}

// Op is a pass a shard runs.
type Op uint8

// The passes.
const (
	OpLinearize Op = iota + 1
	OpBregman
)

// Executor runs shards 1..W−1 of a Sharded potential while the caller runs
// shard 0 (natively goroutines sharing the Set; in the browser Web Workers
// that hold their own rows and lin: wasm/internal/pool).
type Executor interface {
	// Begin starts op at v (length d) on every shard not yet failed. By
	// the time Wait returns, each shard s that succeeded has written its
	// block sums into part at their absolute block positions
	// (LinearizeBlocks' layout for OpLinearize, BregmanBlocks' for
	// OpBregman) and, if it shares memory with the caller, its lin entries;
	// a remote shard keeps its own lin and ignores this one. v, lin and part
	// are not used after Wait returns.
	Begin(op Op, v, lin, part []float64)
	// Wait blocks until every shard begun has finished and returns the
	// shards (1..W−1) that failed, with the first error; their part entries
	// are unwritten and they are not begun again.
	Wait() (failed []int, err error)
	// Close stops the workers; the Executor is not used afterwards.
	Close()
}

// Sharded is a smooth potential whose passes run on W shards (see the top of
// this file). It implements sampler.SmoothPotential and sampler.Potential
// (Value and Mean are the Set's, on the caller). Not safe for concurrent
// use; Close it after the run.
type Sharded struct {
	*Set
	bounds []int
	sets   []*Set // the shards' rows
	part   []float64
	ex     Executor
	local  []bool    // shards the caller computes (0, and failed ones)
	lastZ  []float64 // the point of the last Linearize (to rebuild a failed shard's lin)
	remote []bool    // shards whose lin lives remotely
	failed error
	note   func(error)
	watch  *speedWatch // nil: no speed watch (fallback.go)
	slowed error       // ErrSlower once the run fell back
	slow   bool        // the last window was slower: fall back before the next pass
}

// NewSharded returns the set's passes on w workers natively: w−1 persistent
// goroutines (started here, stopped by Close) and the caller. w must be in
// [1, Blocks(n)] (Workers gives one).
func NewSharded(s *Set, w int) *Sharded {
	bounds := Partition(s.n, w)
	var ex Executor
	if w > 1 {
		ex = newGoExec(s, bounds)
	}
	return newSharded(s, bounds, ex, false, nil)
}

// NewShardedWith returns the set's passes on the shards of bounds
// (Partition) with shards 1..W−1 run by ex on workers that hold their own
// rows and lin (remote: a failed shard's lin is rebuilt on the caller from
// the last Linearize point). note, if non-nil, is called once with the first
// failure; the run then goes on with the failed shards on the caller and
// returns the same bits.
func NewShardedWith(s *Set, bounds []int, ex Executor, note func(error)) *Sharded {
	return newSharded(s, bounds, ex, true, note)
}

func newSharded(s *Set, bounds []int, ex Executor, remote bool, note func(error)) *Sharded {
	w := len(bounds) - 1
	sh := &Sharded{Set: s, bounds: bounds, part: make([]float64, Blocks(s.n)*(s.d+1)), ex: ex,
		local: make([]bool, w), remote: make([]bool, w), lastZ: make([]float64, s.d), note: note}
	for i := range w {
		sh.sets = append(sh.sets, s.Slice(bounds[i], bounds[i+1]))
	}
	sh.local[0] = true
	if ex == nil {
		for i := range sh.local {
			sh.local[i] = true
		}
	}
	for i := 1; i < w; i++ {
		sh.remote[i] = remote && !sh.local[i]
	}
	return sh
}

// W returns the number of shards.
func (sh *Sharded) W() int { return len(sh.bounds) - 1 }

// Failure returns the first failure of a remote shard (nil if none).
func (sh *Sharded) Failure() error { return sh.failed }

func (sh *Sharded) runLocal(i int, op Op, v, lin []float64) {
	set, lo, d := sh.sets[i], sh.bounds[i], sh.d
	l := lin[3*lo : 3*(lo+set.n)]
	switch op {
	case OpLinearize:
		set.LinearizeBlocks(v, l, sh.part[lo/PassBlock*(d+1):])
	case OpBregman:
		set.BregmanBlocks(v, l, sh.part[lo/PassBlock:])
	}
}

// run runs op on every shard; failed remote shards are taken over by the
// caller (for OpBregman after rebuilding their lin at lastZ), and so are all
// of them after a window slower than the caller alone (fallback.go).
func (sh *Sharded) run(op Op, v, lin []float64) {
	if sh.slow {
		sh.slow = false
		sh.fallBack(op, lin)
	}
	remote := sh.ex != nil && sh.anyRemote()
	var t0, t1 time.Time
	if remote && sh.watch != nil {
		t0 = sh.watch.clock()
	}
	if remote {
		sh.ex.Begin(op, v, lin, sh.part)
	}
	for i, loc := range sh.local {
		if loc {
			sh.runLocal(i, op, v, lin)
		}
	}
	if !remote {
		return
	}
	if sh.watch != nil {
		t1 = sh.watch.clock()
	}
	failed, err := sh.ex.Wait()
	if w := sh.watch; w != nil && len(failed) == 0 {
		sh.slow = w.record(w.clock().Sub(t0), t1.Sub(t0), sh.n, sh.localRows())
	}
	if len(failed) == 0 {
		return
	}
	if sh.failed == nil {
		sh.failed = err
		if sh.note != nil {
			sh.note(err)
		}
	}
	for _, i := range failed {
		if !sh.local[i] {
			sh.takeOver(i, op, lin)
			sh.runLocal(i, op, v, lin)
		}
	}
}

// takeOver makes the caller compute shard i from now on; a remote shard's
// lin is rebuilt first at the last Linearize point if op is OpBregman (its
// block sums go to a scratch copy: part holds the Bregman op's).
func (sh *Sharded) takeOver(i int, op Op, lin []float64) {
	sh.local[i] = true
	if op == OpBregman && sh.remote[i] {
		set, lo := sh.sets[i], sh.bounds[i]
		set.LinearizeBlocks(sh.lastZ, lin[3*lo:3*(lo+set.n)], make([]float64, Blocks(set.n)*(sh.d+1)))
	}
	sh.remote[i] = false
}

func (sh *Sharded) anyRemote() bool {
	for _, loc := range sh.local {
		if !loc {
			return true
		}
	}
	return false
}

// Linearize is Set.Linearize with the passes on the shards; same bits.
func (sh *Sharded) Linearize(z, grad, lin []float64) float64 {
	copy(sh.lastZ, z)
	sh.run(OpLinearize, z[:sh.d], lin[:3*sh.n])
	return reduceLinearize(sh.part, sh.n, sh.d, grad)
}

// Bregman is Set.Bregman with the passes on the shards; same bits. For
// remote shards lin is theirs, from the last Linearize (the first-order
// sampler only calls Bregman for the point of the last Linearize).
func (sh *Sharded) Bregman(x, lin []float64) float64 {
	sh.run(OpBregman, x[:sh.d], lin[:3*sh.n])
	return reduceBregman(sh.part, sh.n)
}

// Close stops the workers.
func (sh *Sharded) Close() {
	if sh.ex != nil {
		sh.ex.Close()
		sh.ex = nil
	}
}

// goExec runs shards 1..W−1 on persistent goroutines sharing the Set.
//
// The hand-off spins before it sleeps. Passes come back to back (between
// two passes the sampler does O(d) work), and a goroutine parked on a
// channel is woken through the OS: on a virtual machine with idle cores
// that wake-up cost ≈ 250 µs a pass, more than half a pass at n = 10,000,
// and the two workers ran one after the other (BenchmarkSharded: speed-up
// 1.0–1.09 on 2 free cores). So a worker waits for the next job by polling
// an atomic sequence number, yielding its P between polls, for up to
// SpinWait, and only then parks; the caller waits for the workers' results
// the same way. A run's workers stop at Close; an idle worker costs at most
// SpinWait of CPU before it parks.
type goExec struct {
	workers []*goWorker
	job     goJob
	seq     int64
}

// SpinWait is how long a waiting side of the native hand-off polls before
// it parks (goExec).
const SpinWait = 2 * time.Millisecond

type goJob struct {
	op        Op
	v, lin, p []float64
}

// goWorker is one shard's goroutine and its two signals: seq (the job's
// number, −1 to stop) from the caller and done (the last job finished)
// from the worker, each with a parked flag and a wake channel.
type goWorker struct {
	set        *Set
	lo         int
	seq, done  atomic.Int64
	sleeping   atomic.Bool // the worker is parked (or about to) on wake
	waiting    atomic.Bool // the caller is parked (or about to) on finished
	wake       chan struct{}
	finished   chan struct{}
	job        *goJob
	terminated sync.WaitGroup
}

func newGoExec(s *Set, bounds []int) *goExec {
	w := len(bounds) - 1
	e := &goExec{}
	for i := 1; i < w; i++ {
		g := &goWorker{set: s.Slice(bounds[i], bounds[i+1]), lo: bounds[i], wake: make(chan struct{}, 1), finished: make(chan struct{}, 1), job: &e.job}
		g.terminated.Add(1)
		e.workers = append(e.workers, g)
		go g.loop()
	}
	return e
}

// await polls v until it differs from old, for up to SpinWait, then parks
// on ch with flag set (the other side sends on ch after changing v if it
// reads flag set: with Go's sequentially consistent atomics one of the two
// sees the other's write, so no wake-up is lost; a stale token only causes
// one more poll). It returns v's new value.
func await(v *atomic.Int64, old int64, flag *atomic.Bool, ch chan struct{}) int64 {
	t0 := time.Now()
	for i := 1; ; i++ {
		if x := v.Load(); x != old {
			return x
		}
		if i%64 != 0 {
			runtime.Gosched()
			continue
		}
		if time.Since(t0) < SpinWait {
			continue
		}
		flag.Store(true)
		if x := v.Load(); x != old {
			flag.Store(false)
			return x
		}
		<-ch
		flag.Store(false)
	}
}

// signal sets v to x and wakes the other side if it is parked.
func signal(v *atomic.Int64, x int64, flag *atomic.Bool, ch chan struct{}) {
	v.Store(x)
	if flag.Load() {
		select {
		case ch <- struct{}{}:
		default:
		}
	}
}

// loop runs the worker's shard (rows [lo, lo + set.N())) for every job
// until the sequence number is −1.
func (g *goWorker) loop() {
	defer g.terminated.Done()
	b0, d := g.lo/PassBlock, g.set.d
	last := int64(0)
	for {
		last = await(&g.seq, last, &g.sleeping, g.wake)
		if last < 0 {
			return
		}
		j := g.job
		lin := j.lin[3*g.lo : 3*(g.lo+g.set.n)]
		switch j.op {
		case OpLinearize:
			g.set.LinearizeBlocks(j.v, lin, j.p[b0*(d+1):])
		case OpBregman:
			g.set.BregmanBlocks(j.v, lin, j.p[b0:])
		}
		signal(&g.done, last, &g.waiting, g.finished)
	}
}

func (e *goExec) Begin(op Op, v, lin, part []float64) {
	e.job = goJob{op: op, v: v, lin: lin, p: part} // read by the workers after they see the new seq
	e.seq++
	for _, g := range e.workers {
		signal(&g.seq, e.seq, &g.sleeping, g.wake)
	}
}

func (e *goExec) Wait() ([]int, error) {
	for _, g := range e.workers {
		for d := g.done.Load(); d != e.seq; {
			d = await(&g.done, d, &g.waiting, g.finished)
		}
	}
	return nil, nil
}

func (e *goExec) Close() {
	for _, g := range e.workers {
		signal(&g.seq, -1, &g.sleeping, g.wake)
	}
	for _, g := range e.workers {
		g.terminated.Wait()
	}
}
