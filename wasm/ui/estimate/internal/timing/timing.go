//go:build js && wasm

// Package timing estimates how long an estimate run will take on this
// device: the measured cost of a pass and the workers' speed-up.
package timing

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"syscall/js"
	"time"

	"github.com/dpsample/dpsample/core/loss"
	"github.com/dpsample/dpsample/core/mechanism"
	"github.com/dpsample/dpsample/core/rng"
	"github.com/dpsample/dpsample/wasm/internal/jsio"
	"github.com/dpsample/dpsample/wasm/ui/internal/kit"
)

// Work before it starts (issue 24). The page's limit on a table is the time
// its run would take, not its size in bytes: the plan's work estimate
// (Plan.Work: passes over the rows, n·d multiply-adds a pass, from public
// inputs only) times a cost per row·column·pass measured on this device,
// divided by the speed-up of the workers. A run estimated at
//
//	≥ warnSeconds     says "about N s" when it starts;
//	≥ confirmSeconds  does not start until Run is pressed a second time;
//	> maxRunSeconds   is refused, with the number of rows that would fit.
//
// Only n, d, the form's parameters and the device's speed enter: never the
// values of the rows. The device's speed is that of the moment (issue 29
// item 5): a pass is timed again when the last timing is older than
// costMaxAge, and the workers' speed-up is the one the last run on as many
// workers achieved (workerSpeeds), counted at workerGain a worker only until
// a run has measured it. A run whose workers turn out slower than one falls
// back to one by itself (loss.Sharded.WatchSpeed). The text box itself is capped at maxPasteBytes, a
// bound on what the page parses on its main thread, far above what the time
// limit lets a smooth loss run at the default ε.
const (
	WarnSeconds    = 10
	ConfirmSeconds = 120
	MaxRunSeconds  = 3600
	// workerGain is the speed-up each worker beyond the first is counted
	// for until a run has measured it here: measured 0.62–0.70 in Chromium
	// on 2 cores at n = 10,000 (the rows-per-tab table of docs/BENCHMARKS.md).
	workerGain = 0.6
	// costMaxAge: an older pass timing is taken again (the load changes).
	costMaxAge = 30 * time.Second
	// speedMaxAge: an older measured speed-up is not used.
	speedMaxAge = 10 * time.Minute
)

// costKey is a measured pass: the loss's kind, the row length and the
// kind of pass.
type costKey struct {
	kind loss.Kind
	d    int
	mode passMode
}

// passMode is what a pass evaluates.
type passMode uint8

const (
	passLinearize passMode = iota // value and gradient (Linearize): the first-order sampler's passes
	passValue                     // values (Mean): the zeroth-order full mode's, and the other methods'
	passRows                      // single rows at random (Value): the zeroth-order stochastic mode's factory
)

// passCosts caches the measured seconds per row·column·pass, with the time
// of the measurement.
var passCosts = map[costKey]timed{}

// timed is a measured rate and when it was measured.
type timed struct {
	v  float64
	at time.Time
}

// workerSpeeds are the speed-ups over one worker that the last run on W
// workers achieved on this device (speed of the run ÷ the pass timing of
// its estimate), by W: timings, not private, kept in the page for its owner.
var workerSpeeds = map[int]timed{}

// costRows are the rows of the measurement (public, deterministic, on the
// unit sphere: the clipped rows the sampler sees).
const costRows = 2048

// PassCost returns the seconds one pass of the loss costs per row·column on
// this device: the median rate of the later half of a few rounds of passes
// over costRows public rows of d columns over 150 ms of rounds (V8 compiles
// the hot loop in tiers), about 0.2 s the first time for a (loss, d), in rounds of ≈ 10 ms
// between which the main thread is yielded (no long task), and again when
// the last timing is older than costMaxAge. Call it from a goroutine.
func PassCost(k loss.Kind, d int, value bool) float64 {
	mode := passLinearize
	if value {
		mode = passValue
	}
	return cost(k, d, mode)
}

// cost is PassCost for a pass mode, cached for costMaxAge.
func cost(k loss.Kind, d int, mode passMode) float64 {
	key := costKey{k, d, mode}
	if c, ok := passCosts[key]; ok && time.Since(c.at) < costMaxAge {
		return c.v
	}
	c := passCost(k, d, mode, jsio.Yield)
	passCosts[key] = timed{c, time.Now()}
	return c
}

// passCost is PassCost's measurement, with yield run between rounds (the
// page's event loop; a benchmark under node passes a no-op). passRows
// evaluates costRows single rows at random (rng.Seeded: the factory's own
// draws are counted in Draws) for one pass.
func passCost(k loss.Kind, d int, mode passMode, yield func()) float64 {
	x, y := costData(k, d)
	set, err := loss.New(k, x, y, loss.Params{})
	if err != nil {
		return math.NaN()
	}
	if _, smooth := set.Smooth(); !smooth && mode == passLinearize {
		mode = passValue
	}
	z := make([]float64, d)
	for j := range z {
		z[j] = 0.1 * math.Cos(float64(j))
	}
	grad, lin := make([]float64, d), make([]float64, 3*costRows)
	rows := make([]int, costRows)
	r := rng.Seeded(uint64(d))
	for i := range rows {
		rows[i] = r.IntN(costRows)
	}
	pass := func() {
		switch mode {
		case passValue:
			set.Mean(z)
		case passRows:
			for _, i := range rows {
				set.Value(i, z)
			}
		default:
			set.Linearize(z, grad, lin)
		}
	}
	round := func(passes int) time.Duration {
		yield() // the event loop runs between rounds
		t0 := time.Now()
		for range passes {
			pass()
		}
		return time.Since(t0)
	}
	passes := 1
	for round(passes) < 10*time.Millisecond && passes < 1<<16 { // a round of ≥ 10 ms
		passes *= 2
	}
	return laterMedian(func() float64 { return round(passes).Seconds() }) / float64(passes) / float64(costRows*d)
}

// laterMedian times rounds for 150 ms (at least 4) and returns the median
// of the later half. V8 runs a function in its baseline tier first and
// optimises it once it is hot: by the later half it is optimised, and
// slowed as much as the load of the moment slows this thread (the best
// round would be the one in which the device happened to be free).
func laterMedian(round func() float64) float64 {
	var times []float64
	for t0 := time.Now(); time.Since(t0) < 150*time.Millisecond || len(times) < 4; {
		times = append(times, round())
	}
	later := times[len(times)/2:]
	slices.Sort(later)
	return later[len(later)/2]
}

// drawCosts caches the measured seconds per random draw: the first-order
// sampler's (rng.Normal53 one normal at a time, true) and the others'
// (rng.Normals53 filling a vector, both normals of each polar pair kept,
// false).
var drawCosts = map[bool]timed{}

// DrawCost returns the seconds one random draw of the samplers costs on
// this device (plan.work.draws counts them): a normal of rng.Normal53 for
// the first-order sampler, of rng.Normals53 over a vector for the
// zeroth-order sampler and DP-GD (issue 51: both are the 53-bit polar
// method from ChaCha8; a pair makes two). Their uniforms and row indices
// cost less (a Float64 is one of the polar method's two), so counting them
// at a normal's cost errs long. Timed like PassCost, cached for
// costMaxAge.
func DrawCost(firstOrder bool) float64 {
	if c, ok := drawCosts[firstOrder]; ok && time.Since(c.at) < costMaxAge {
		return c.v
	}
	c := drawCost(firstOrder, jsio.Yield)
	drawCosts[firstOrder] = timed{c, time.Now()}
	return c
}

// drawCost is DrawCost's measurement (yield as for passCost).
func drawCost(firstOrder bool, yield func()) float64 {
	r := rng.Seeded(53)
	const per = 1 << 14
	v := make([]float64, 32)
	sink := 0.0
	round := func() float64 {
		yield()
		t0 := time.Now()
		if firstOrder {
			for range per {
				sink += rng.Normal53(r)
			}
		} else {
			for range per / len(v) {
				rng.Normals53(r, v)
				sink += v[0]
			}
		}
		return time.Since(t0).Seconds()
	}
	c := laterMedian(round) / per
	if math.IsNaN(sink) { // keeps the draws from being optimised away
		return math.NaN()
	}
	return c
}

// costData are passCost's rows: costRows public, deterministic rows of d
// columns on the unit sphere (the clipped rows the sampler sees), with ±1
// labels (±½ targets for a regression; none for a centre).
func costData(k loss.Kind, d int) ([][]float64, []float64) {
	x := make([][]float64, costRows)
	y := make([]float64, costRows)
	for i := range x {
		r, s := make([]float64, d), 0.0
		for j := range r {
			r[j] = math.Sin(1.3*float64(i)+0.7*float64(j*j)) + math.Cos(0.37*float64(i)*float64(j+1))
			s += r[j] * r[j]
		}
		for j := range r {
			r[j] /= math.Sqrt(s)
		}
		x[i] = r
		y[i] = float64(2*(i%2) - 1)
		if !k.Classification() {
			y[i] *= 0.5
		}
	}
	if !k.Supervised() {
		y = nil
	}
	return x, y
}

// WorkEstimate is a run's expected duration on this device.
type WorkEstimate struct {
	Seconds   float64
	Passes    float64
	Rows, D   int
	Workers   int
	Fixed     bool
	NsPerRow  float64 // measured nanoseconds per row·column·pass
	Speed     float64 // the workers' speed-up over one counted
	Measured  bool    // speed was measured by a recent run on as many workers
	Linear    bool    // the time grows as n, not n² (FittingRows)
	Draws     float64 // random draws (plan.work.draws)
	NsPerDraw float64 // measured nanoseconds per draw
}

// ForPlan is the page's estimate of a run of plan pl for loss k on this
// device (issue 53 item 7b):
//
//	seconds = (passes·c + referencePasses·c_ref)·rowsTimesD / speed + draws·c_draw
//
// c the cost of the sampler's pass (Linearize for the first-order sampler;
// single rows at random for the zeroth-order stochastic mode, 1.4–2× a
// value pass per row·column under node; a value pass otherwise), c_ref the
// reference fit's (Linearize for the first-order sampler, a value pass
// otherwise: as before), speed the workers' (the shards share the passes,
// not the draws, which the sampling worker makes) and c_draw DrawCost. The
// estimate before counted passes alone: under node a zeroth-order run took
// 3.0 (hinge, d = 7) to 7.4 (lad, d = 22) times its estimate, most of it
// the 2d normals of each trial (BenchmarkEstimateRatio, BenchmarkPassKinds).
func ForPlan(k loss.Kind, pl mechanism.Plan) WorkEstimate {
	return forPlan(pl, func(m passMode) float64 { return cost(k, pl.D, m) }, DrawCost)
}

// forPlan is ForPlan with the pass and draw costs measured by cost and
// drawCost.
func forPlan(pl mechanism.Plan, cost func(passMode) float64, drawCost func(firstOrder bool) float64) WorkEstimate {
	mode, ref := passValue, passValue
	switch pl.Method {
	case mechanism.MethodFirstOrder:
		mode, ref = passLinearize, passLinearize
	case "proximal-stochastic":
		mode = passRows
	}
	c, cr := cost(mode), cost(ref)
	dc := drawCost(pl.Method == mechanism.MethodFirstOrder)
	w := max(1, pl.Workers)
	speed, measured := WorkerSpeed(w)
	wk := pl.Work
	secs := (wk.Passes*c+wk.Reference*cr)*wk.RowsTimesD/speed + wk.Draws*dc
	return WorkEstimate{Seconds: secs, Passes: wk.Passes + wk.Reference, Rows: pl.N, D: pl.D, Workers: w, Fixed: pl.FixedWork,
		NsPerRow: c * 1e9, Speed: speed, Measured: measured, Linear: pl.Schedule != nil && pl.Curvature > 0,
		Draws: wk.Draws, NsPerDraw: dc * 1e9}
}

// WorkerSpeed is the speed-up of w workers: the last run's on w workers
// if recent, else 1 + workerGain·(w − 1) on a cross-origin isolated page
// (shared memory) and 1 otherwise.
func WorkerSpeed(w int) (speed float64, measured bool) {
	if w <= 1 {
		return 1, false
	}
	if s, ok := workerSpeeds[w]; ok && time.Since(s.at) < speedMaxAge {
		return s.v, true
	}
	if isolated() {
		return 1 + workerGain*float64(w-1), false
	}
	return 1, false
}

// RanFor records the speed-up a finished run on e.workers achieved: the
// seconds its passes would have taken at e's pass timing on one worker,
// over the seconds it took (start-up included). Short runs (under 2 s)
// say more about the start-up than about the workers and are not kept.
func (e WorkEstimate) RanFor(elapsed float64) {
	if e.Workers <= 1 || math.IsNaN(e.Seconds) || elapsed < 2 {
		return
	}
	workerSpeeds[e.Workers] = timed{math.Max(0.1, e.Seconds*e.Speed/elapsed), time.Now()}
}

// Describe says where the estimate comes from.
func (e WorkEstimate) Describe() string {
	s := fmt.Sprintf("%s over %s × %d columns, measured here at %.2g ns per row·column", kit.Count(int(math.Round(e.Passes)), "pass/passes"),
		kit.Count(e.Rows, "row"), e.D, e.NsPerRow)
	switch {
	case e.Workers > 1 && e.Measured:
		s += fmt.Sprintf(", on %d workers (%.2g× one in the last run on them)", e.Workers, e.Speed)
	case e.Workers > 1:
		s += fmt.Sprintf(", on %d workers (counted at %.2g× one until a run measures them)", e.Workers, e.Speed)
	}
	if e.Draws >= 1e6 {
		s += fmt.Sprintf(", and %.3g million random draws at %.2g ns", e.Draws/1e6, e.NsPerDraw)
	}
	if e.Fixed {
		s += "; fixed work: the same passes whatever the rows hold"
	}
	return s
}

// FittingRows is about how many rows would run within limit seconds at the
// same settings: the run's time grows about as n² (T and the rows of a
// pass both grow with n), or as n for DP-GD's capped schedule (issue 43: T
// stops growing once n·s reaches the cap).
func (e WorkEstimate) FittingRows(limit float64) int {
	n := float64(e.Rows) * math.Sqrt(limit/e.Seconds)
	if e.Linear {
		n = float64(e.Rows) * limit / e.Seconds
	}
	p := math.Pow(10, math.Floor(math.Log10(n))-1)
	return int(math.Floor(n/p) * p)
}

// ErrConfirm stops a run that waits for a second press of Run.
var ErrConfirm = fmt.Errorf("press Run again to start")

// cores is what the page offers the sampler: navigator.hardwareConcurrency
// (at least 1, at most loss.MaxWorkers).
func cores() int {
	n := js.Global().Get("navigator").Get("hardwareConcurrency")
	if n.Type() != js.TypeNumber {
		return 1
	}
	return max(1, min(n.Int(), loss.MaxWorkers))
}

// WorkerOptions are the workers the form offers: 1 … cores().
func WorkerOptions() [][2]string {
	var out [][2]string
	for w := 1; w <= cores(); w++ {
		label := strconv.Itoa(w)
		if w == cores() {
			label += " (every core)"
		}
		out = append(out, [2]string{strconv.Itoa(w), label})
	}
	return out
}

// OfferedWorkers is the form's first choice of workers: the workers
// attribute, at most cores(); when it is absent, every core on a
// cross-origin isolated page and one otherwise. Without isolation the shard
// workers talk by messages, and a pass then costs more in messages than the
// second core saves (docs/BENCHMARKS.md: 119 s on 2 workers against 98 s on
// one at n = 10,000).
func OfferedWorkers(attr string) int {
	if w, err := strconv.Atoi(attr); err == nil && w >= 1 {
		return min(w, cores())
	}
	if !isolated() {
		return 1
	}
	return cores()
}

// isolated reports whether the page is cross-origin isolated (its shard
// workers can share memory).
func isolated() bool { return js.Global().Get("crossOriginIsolated").Truthy() }
