//go:build js && wasm

// Package pool runs the shards of a first-order run's data passes on Web
// Workers: the sampling worker (site/worker.js), where mechanism.sample runs,
// starts W−1 shard workers (site/shard.js), each a new instance of the module
// it was started with (compiled once, instantiated W−1 times) holding the
// rows of one shard, and drives them as a loss.Executor: the Go potential
// (loss.Sharded) posts the point of a pass to the shards, computes shard 0
// itself, and blocks until their block sums return — a blocked goroutine
// lets the worker's event loop run, which delivers the replies. Where the
// page is cross-origin isolated the point and the block sums go through a
// SharedArrayBuffer with Atomics.wait/notify instead of messages.
//
// A shard that fails (its worker throws, cannot start, or does not answer
// within Timeout) is taken over by the sampling worker: loss.Sharded then
// computes its rows itself, with the same bits, so a failure costs speed and
// never changes the result (the run's diagnostics carry a note).
package pool

import (
	"errors"
	"fmt"
	"syscall/js"
	"time"

	"github.com/dpsample/dpsample/core/loss"
	"github.com/dpsample/dpsample/wasm/internal/jsio"
)

// Mode selects how the sampling worker talks to its shards.
type Mode int

// The modes: Auto is Shared where available, else Messages.
const (
	Auto Mode = iota
	Messages
	Shared
)

var (
	// ForceMode overrides Auto (a benchmark hook).
	ForceMode = Auto
	// CrashAfter, when > 0, makes the last shard of the next pool throw
	// after that many passes (a test hook); it is reset by Start.
	CrashAfter = 0
	// SlowMs, when > 0, makes the last shard of the next pool busy-wait
	// that many milliseconds after each pass, as a shard on a busy core
	// would (a test hook of the fallback to one worker); reset by Start.
	SlowMs = 0.0
	// StartTimeout bounds the start of the shard workers; Timeout bounds
	// one pass of a shard.
	StartTimeout = 20 * time.Second
	Timeout      = 5 * time.Second
)

// Stats are the last pool's hand-off timings (a benchmark hook, read
// through dpsample._test.poolStats; not private, never in a result):
// passes begun, and milliseconds in Begin, between Begin and Wait (the
// owner's own shard) and in Wait.
type Stats struct {
	Passes                   int
	BeginMs, LocalMs, WaitMs float64
}

// LastStats is the current or last pool's Stats.
var LastStats Stats

// SpinMs is how long, in milliseconds, the owner polls a shard's done word
// before it sleeps (site/shard.js polls its start word as long: SPIN_MS).
const SpinMs = 2

// Available reports whether this realm can start shard workers: a Worker
// constructor and the module and shard script that site/worker.js leaves in
// self.dpsampleModule and self.dpsampleShardURL.
func Available() bool {
	g := js.Global()
	return g.Get("Worker").Type() == js.TypeFunction && g.Get("dpsampleModule").Truthy() && g.Get("dpsampleShardURL").Type() == js.TypeString
}

// sharedOK reports whether shared memory works here: the realm is
// cross-origin isolated and has SharedArrayBuffer and Atomics.
func sharedOK() bool {
	g := js.Global()
	return g.Get("crossOriginIsolated").Truthy() && g.Get("SharedArrayBuffer").Type() == js.TypeFunction && g.Get("Atomics").Truthy() &&
		g.Get("dpsampleAwaitShard").Type() == js.TypeFunction
}

type event struct {
	shard int
	kind  string // ready, fatal, loaded, part, failed, error
	seq   int
	data  js.Value
	msg   string
}

// Pool is a loss.Executor over Web Workers (one per shard 1..W−1).
type Pool struct {
	shared  bool
	d       int
	workers []js.Value // [s] for shard s ≥ 1; [0] unused
	alive   []bool
	b0, nb  []int // first block and blocks of shard s
	events  chan event
	funcs   []js.Func
	seq     int
	op      loss.Op
	part    []float64
	begun   []int
	begunAt time.Time

	at       atomicsFns
	vecV     jsio.Float64View   // shared mode: vec's bytes
	viewsV   []jsio.Float64View // shared mode: views' bytes
	ctl, vec js.Value           // shared mode: Int32Array [seq, op, done_1..done_{W−1}], Float64Array(d)
	views    []js.Value         // shared mode: shard s's part region
}

// Start starts the shard workers of set's partition bounds (loss.Partition)
// and loads their rows, blocking the calling goroutine (the event loop keeps
// running) until all are ready. On any failure it stops them and returns an
// error saying what failed.
func Start(set *loss.Set, bounds []int) (*Pool, error) {
	if !Available() {
		return nil, errors.New("no Worker constructor or no module in this realm (node, or a page without site/worker.js)")
	}
	w := len(bounds) - 1
	LastStats = Stats{}
	crash, slow := CrashAfter, SlowMs
	CrashAfter, SlowMs = 0, 0
	d := set.Dim()
	p := &Pool{d: d, workers: make([]js.Value, w), alive: make([]bool, w), b0: make([]int, w), nb: make([]int, w),
		events: make(chan event, 8*w+64)}
	p.shared = ForceMode == Shared || (ForceMode == Auto && sharedOK())
	if ForceMode == Shared && !sharedOK() {
		return nil, errors.New("shared memory requested but this realm is not cross-origin isolated")
	}
	for s := range w {
		p.b0[s], p.nb[s] = bounds[s]/loss.PassBlock, loss.Blocks(bounds[s+1])-bounds[s]/loss.PassBlock
	}
	g := js.Global()
	url, module := g.Get("dpsampleShardURL").String(), g.Get("dpsampleModule")
	for s := 1; s < w; s++ {
		wk, err := newWorker(url)
		if err != nil {
			p.Close()
			return nil, err
		}
		p.workers[s], p.alive[s] = wk, true
		onmsg := js.FuncOf(func(_ js.Value, a []js.Value) any {
			m := a[0].Get("data")
			ev := event{shard: s, kind: m.Get("type").String()}
			if v := m.Get("seq"); v.Type() == js.TypeNumber {
				ev.seq = v.Int()
			}
			switch ev.kind {
			case "part":
				ev.data = m.Get("part")
			case "fatal", "failed":
				ev.msg = m.Get("message").String()
			case "loaded":
				ev.msg = m.Get("error").String()
			}
			p.post(ev)
			return nil
		})
		onerr := js.FuncOf(func(_ js.Value, a []js.Value) any {
			e := a[0]
			e.Call("preventDefault")
			msg := "error"
			if m := e.Get("message"); m.Type() == js.TypeString {
				msg = m.String()
			}
			p.post(event{shard: s, kind: "error", msg: msg})
			return nil
		})
		p.funcs = append(p.funcs, onmsg, onerr)
		wk.Set("onmessage", onmsg)
		wk.Set("onerror", onerr)
		wk.Call("postMessage", map[string]any{"type": "init", "module": module})
	}
	if err := p.await("ready", StartTimeout); err != nil {
		p.Close()
		return nil, fmt.Errorf("shard workers did not start: %w", err)
	}
	if p.shared {
		p.makeShared(w)
	}
	k, prm := set.Kind(), set.Params()
	for s := 1; s < w; s++ {
		lo, hi := bounds[s], bounds[s+1]
		x := jsio.Float64Array(set.Data()[lo*d : hi*d])
		var y js.Value = js.Null()
		if k.Supervised() {
			ys := make([]float64, hi-lo)
			for i := range ys {
				ys[i] = set.Target(lo + i)
			}
			y = jsio.Float64Array(ys)
		}
		msg := map[string]any{"type": "load", "loss": k.String(), "clip": prm.Clip, "tau": prm.Tau, "huber": prm.Huber,
			"ball": prm.Ball, "d": d, "x": x, "y": y}
		if crash > 0 && s == w-1 {
			msg["crashAfter"] = crash
		}
		if slow > 0 && s == w-1 {
			msg["slowMs"] = slow
		}
		if p.shared {
			msg["shared"] = map[string]any{"ctl": p.ctl, "vec": p.vec, "part": p.views[s], "slot": s - 1}
		}
		p.workers[s].Call("postMessage", msg, []any{x.Get("buffer")})
	}
	if err := p.await("loaded", StartTimeout); err != nil {
		p.Close()
		return nil, fmt.Errorf("shard workers could not load their rows: %w", err)
	}
	return p, nil
}

// newWorker starts a classic worker, turning a thrown SecurityError (a
// policy that forbids workers) into an error.
// atomicsFns are the Atomics functions the shared mode calls each pass,
// looked up once (they ignore this: Invoke calls them directly).
type atomicsFns struct{ load, store, add, notify, wait js.Value }

func loadAtomics() atomicsFns {
	a := js.Global().Get("Atomics")
	return atomicsFns{a.Get("load"), a.Get("store"), a.Get("add"), a.Get("notify"), a.Get("wait")}
}

func ms(d time.Duration) float64 { return float64(d) / 1e6 }

func newWorker(url string) (w js.Value, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("new Worker(%s): %v", url, r)
		}
	}()
	return js.Global().Get("Worker").New(url), nil
}

// post queues an event from a JS callback (which must not block).
func (p *Pool) post(ev event) {
	select {
	case p.events <- ev:
	default: // cannot happen: every pass drains the queue; drop rather than block the event loop
	}
}

// await waits until every live shard has sent kind (or failed); any failure
// is an error.
func (p *Pool) await(kind string, limit time.Duration) error {
	pending := 0
	for s := 1; s < len(p.workers); s++ {
		if p.alive[s] {
			pending++
		}
	}
	timer := time.NewTimer(limit)
	defer timer.Stop()
	for pending > 0 {
		select {
		case ev := <-p.events:
			switch {
			case ev.kind == kind && ev.msg == "":
				pending--
			case ev.kind == kind || ev.kind == "fatal" || ev.kind == "error":
				return fmt.Errorf("shard %d: %s", ev.shard, ev.msg)
			}
		case <-timer.C:
			return fmt.Errorf("no answer within %v", limit)
		}
	}
	return nil
}

// makeShared lays out one SharedArrayBuffer: the control words, the point
// and every shard's block sums (Linearize's layout; a Bregman pass uses the
// first blocks of each shard's region).
func (p *Pool) makeShared(w int) {
	g := js.Global()
	ctlBytes := 8 * ((2 + w + 1) / 2)
	nb := p.b0[w-1] + p.nb[w-1]
	sab := g.Get("SharedArrayBuffer").New(ctlBytes + 8*p.d + 8*nb*(p.d+1))
	p.ctl = g.Get("Int32Array").New(sab, 0, 2+w)
	p.vec = g.Get("Float64Array").New(sab, ctlBytes, p.d)
	p.views = make([]js.Value, w)
	p.viewsV = make([]jsio.Float64View, w)
	p.vecV, p.at = jsio.NewFloat64View(p.vec), loadAtomics()
	base := ctlBytes + 8*p.d
	for s := 1; s < w; s++ {
		p.views[s] = g.Get("Float64Array").New(sab, base+8*p.b0[s]*(p.d+1), p.nb[s]*(p.d+1))
		p.viewsV[s] = jsio.NewFloat64View(p.views[s])
	}
}

// Begin starts op at v on every live shard (loss.Executor).
func (p *Pool) Begin(op loss.Op, v, _, part []float64) {
	t0 := time.Now()
	defer func() { LastStats.Passes++; LastStats.BeginMs += ms(time.Since(t0)); p.begunAt = time.Now() }()
	p.op, p.part, p.begun = op, part, p.begun[:0]
	for s := 1; s < len(p.workers); s++ {
		if p.alive[s] {
			p.begun = append(p.begun, s)
		}
	}
	if p.shared {
		p.vecV.CopyTo(v)
		p.at.store.Invoke(p.ctl, 1, int(op))
		p.seq = p.at.add.Invoke(p.ctl, 0, 1).Int() + 1
		p.at.notify.Invoke(p.ctl, 0)
		return
	}
	p.seq++
	arr := jsio.Float64Array(v)
	for _, s := range p.begun {
		p.workers[s].Call("postMessage", map[string]any{"type": "op", "seq": p.seq, "op": int(op), "v": arr})
	}
}

// width is the number of values of op's block sums for shard s.
func (p *Pool) width(s int) (off, n int) {
	if p.op == loss.OpLinearize {
		return p.b0[s] * (p.d + 1), p.nb[s] * (p.d + 1)
	}
	return p.b0[s], p.nb[s]
}

// Wait blocks until every shard begun has answered (loss.Executor).
func (p *Pool) Wait() ([]int, error) {
	t0 := time.Now()
	LastStats.LocalMs += ms(t0.Sub(p.begunAt))
	defer func() { LastStats.WaitMs += ms(time.Since(t0)) }()
	var failed []int
	var first error
	fail := func(s int, err error) {
		if !p.alive[s] {
			return
		}
		p.alive[s] = false
		failed = append(failed, s)
		if first == nil {
			first = fmt.Errorf("shard worker %d: %w", s, err)
		}
		p.workers[s].Call("terminate")
	}
	if p.shared {
		p.waitShared(fail)
		return failed, first
	}
	pending := map[int]bool{}
	for _, s := range p.begun {
		pending[s] = true
	}
	timer := time.NewTimer(Timeout)
	defer timer.Stop()
	for len(pending) > 0 {
		select {
		case ev := <-p.events:
			if !pending[ev.shard] {
				continue
			}
			switch {
			case ev.kind == "part" && ev.seq == p.seq:
				off, n := p.width(ev.shard)
				if jsio.CopyFromFloat64Array(p.part[off:off+n], ev.data) != n {
					fail(ev.shard, errors.New("returned block sums of the wrong length"))
				}
				delete(pending, ev.shard)
			case ev.kind == "failed" || ev.kind == "error" || ev.kind == "fatal":
				fail(ev.shard, errors.New(ev.msg))
				delete(pending, ev.shard)
			}
		case <-timer.C:
			for s := range pending {
				fail(s, fmt.Errorf("no answer within %v", Timeout))
			}
			return failed, first
		}
	}
	return failed, first
}

// waitShared waits on each begun shard's done word: worker.js's
// dpsampleAwaitShard polls it for up to SpinMs and then sleeps in
// Atomics.wait for up to 20 ms, between which slices it yields so that a
// worker's error event gets through.
func (p *Pool) waitShared(fail func(int, error)) {
	await := js.Global().Get("dpsampleAwaitShard")
	deadline := time.Now().Add(Timeout)
	for _, s := range p.begun {
		for p.alive[s] {
			cur := p.at.load.Invoke(p.ctl, 1+s).Int()
			if cur == p.seq {
				off, n := p.width(s)
				p.viewsV[s].CopyFrom(p.part[off : off+n])
				break
			}
			if await.Invoke(p.ctl, 1+s, cur, SpinMs, 20).Int() != cur {
				continue
			}
			jsio.Yield()
			p.drainErrors(fail)
			if time.Now().After(deadline) {
				fail(s, fmt.Errorf("no answer within %v", Timeout))
			}
		}
	}
}

// drainErrors takes the queued events and fails the shards that reported an
// error.
func (p *Pool) drainErrors(fail func(int, error)) {
	for {
		select {
		case ev := <-p.events:
			if ev.kind == "error" || ev.kind == "fatal" || ev.kind == "failed" {
				fail(ev.shard, errors.New(ev.msg))
			}
		default:
			return
		}
	}
}

// Close ends the shard loops and terminates the workers (loss.Executor).
func (p *Pool) Close() {
	if p.shared && p.ctl.Truthy() {
		atomics := js.Global().Get("Atomics")
		atomics.Call("store", p.ctl, 1, 0)
		atomics.Call("add", p.ctl, 0, 1)
		atomics.Call("notify", p.ctl, 0)
	}
	for _, w := range p.workers {
		if w.Truthy() {
			w.Call("terminate")
		}
	}
	for _, f := range p.funcs {
		f.Release()
	}
	p.funcs = nil
}
