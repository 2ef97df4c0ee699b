package mechanism

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"time"

	"github.com/dpsample/dpsample/core/interval"
	"github.com/dpsample/dpsample/core/loss"
	"github.com/dpsample/dpsample/core/privacy"
	"github.com/dpsample/dpsample/core/rng"
	"github.com/dpsample/dpsample/core/sampler"
	"github.com/dpsample/dpsample/core/sampler/exact"
)

// Result is the output of Sample (docs/API.md, mechanism.sample).
type Result struct {
	Theta   []float64   `json:"theta"`   // the first sample
	Samples [][]float64 `json:"samples"` // all m samples
	Private bool        `json:"private"` // false when a seed was given
	Plan    Plan        `json:"plan"`
	Privacy Privacy     `json:"privacy"`
	Stats   Stats       `json:"stats"` // public counts only (diagnostics.go)
	Fit     Fit         `json:"fit"`   // NOT private
	// Intervals are the intervals of a request with Interval set
	// (core/interval): above the gate level, estimate, lo, hi and se; below
	// it level and reason. Private: post-processing of the releases that
	// Privacy covers.
	Intervals *interval.Intervals `json:"intervals,omitempty"`
	// Diagnostics are data-dependent counters and timings: NOT private, not
	// part of Release.
	Diagnostics Diagnostics `json:"diagnostics"`
}

// Privacy is the guarantee of the whole release (all samples together).
type Privacy struct {
	Epsilon      float64    `json:"epsilon"`
	Delta        float64    `json:"delta"`        // δ_{GDP}(ε) + DeltaSampler ≤ the requested δ
	GDP          float64    `json:"gdp"`          // composed: √m·s
	ComposedOver int        `json:"composedOver"` // m
	Neighbours   Neighbours `json:"neighbours"`
	// Ledger is the table's ledger after this release was charged
	// (SampleCharged); absent without a ledger.
	Ledger *privacy.LedgerState `json:"ledger,omitempty"`
}

// drawer produces independent samples for a prepared request.
type drawer struct {
	p   *prepared
	sep *exact.L1Separable
	lc  *exact.LogConcave
	gau exact.LinearGaussian
	sh  *loss.Sharded // first-order passes on Plan.Workers shards (nil: the Set's)
}

// Options are run-time choices of a Sample call that do not change its
// result: where the shards of the first-order passes run.
type Options struct {
	// Shards, if non-nil, returns the executor of shards 1..W−1 of a
	// first-order or smooth DP-GD run with Plan.Workers = W > 1 (in the browser, a pool of
	// Web Workers); nil runs them on goroutines. If it fails, the run uses
	// one worker and Diagnostics.Note says why.
	Shards func(set *loss.Set, bounds []int) (loss.Executor, error)
	// KeepWorkers keeps the shards on their workers even when they are
	// slower than the sampling worker alone (by default the run then falls
	// back to it: loss.Sharded.WatchSpeed, and Diagnostics.Note says so). For
	// tests and benchmarks of the pool itself.
	KeepWorkers bool
}

// startShards puts the first-order passes, or DP-GD's gradient passes on a
// smooth loss, on Plan.Workers shards (no-op for one worker or another
// sampler); Close them with dr.sh.Close.
func (dr *drawer) startShards(opt Options, diag *Diagnostics) {
	p, pl := dr.p, dr.p.plan
	diag.Workers = 1
	if pl.Workers < 2 {
		return
	}
	diag.Workers = pl.Workers
	note := func(err error) {
		if errors.Is(err, loss.ErrSlower) {
			diag.Note = fmt.Sprintf("the %d workers were slower than one on this device at the time (the cores were busy): "+
				"the sampling worker took their rows over (the result is unchanged)", pl.Workers)
			return
		}
		diag.Note = fmt.Sprintf("a worker failed (%v): its rows were taken over by the sampling worker (the result is unchanged)", err)
	}
	bounds := loss.Partition(pl.N, pl.Workers)
	if opt.Shards == nil {
		dr.sh = loss.NewSharded(p.set, pl.Workers)
		dr.sh.Notify(note)
	} else if ex, err := opt.Shards(p.set, bounds); err != nil {
		diag.Workers = 1
		diag.Note = fmt.Sprintf("%d workers could not start (%v): the run used one worker (the result is unchanged)", pl.Workers, err)
	} else {
		dr.sh = loss.NewShardedWith(p.set, bounds, ex, note)
	}
	if dr.sh != nil && !opt.KeepWorkers {
		dr.sh.WatchSpeed(time.Now)
	}
}

func newDrawer(p *prepared) (*drawer, error) {
	dr := &drawer{p: p}
	pl := p.plan
	if pl.Sampler != SamplerExact {
		return dr, nil
	}
	switch pl.Method {
	case MethodL1:
		a, b := exact.L1Params(pl.Eta, pl.Mu, pl.N, pl.D)
		dr.sep = exact.NewL1Separable(p.set.Data(), pl.N, pl.D, a, b)
	case MethodGauss:
		zbar := make([]float64, pl.D)
		for i := 0; i < pl.N; i++ {
			for j, v := range p.set.Row(i) {
				zbar[j] += v / float64(pl.N)
			}
		}
		dr.gau = exact.NewLinearGaussian(zbar, pl.Eta, pl.Mu)
	case Method1D:
		eta, mu := pl.Eta, pl.Mu
		x := []float64{0}
		u := func(t float64) float64 { x[0] = t; return eta * (p.set.Mean(x) + mu/2*t*t) }
		lc, err := exact.NewLogConcave(u, 1/math.Sqrt(eta*mu))
		if err != nil {
			return nil, err
		}
		dr.lc = lc
	}
	return dr, nil
}

// chunkWork is the number of point-coordinates (n per coordinate) of the
// separable sampler between two context checks and progress callbacks.
const chunkWork = 1 << 16

// draw fills out (length d) with one sample (before rounding). done and total
// count progress units within this sample; report is called between chunks.
func (dr *drawer) draw(ctx context.Context, r *rand.Rand, out []float64, st *Diagnostics, report func(done, total int)) error {
	pl := dr.p.plan
	switch pl.Method {
	case MethodL1:
		chunk := max(1, chunkWork/pl.N)
		for j0 := 0; j0 < pl.D; j0 += chunk {
			if err := ctx.Err(); err != nil {
				return err
			}
			j1 := min(j0+chunk, pl.D)
			dr.sep.SampleRange(r, out, j0, j1)
			report(j1, pl.D)
		}
		return nil
	case MethodGauss:
		dr.gau.Sample(r, out)
		report(1, 1)
		return nil
	case Method1D:
		out[0] = dr.lc.Sample(r)
		report(1, 1)
		return nil
	}
	if pl.Schedule != nil {
		return drawDPGD(ctx, dr.p, dr.sh, r, out, report)
	}
	var theta []float64
	var s sampler.Stats
	var err error
	if dr.p.firstOrder {
		var pot sampler.SmoothPotential = dr.p.set
		if dr.sh != nil {
			pot = dr.sh
		}
		if dr.p.acceptAll {
			pot = acceptAll{dr.p.set}
		}
		theta, s, err = sampler.RunFirstOrder(ctx, dr.p.fo, pot, r, report)
	} else {
		theta, s, err = sampler.Run(ctx, dr.p.prox, dr.p.set, r, report)
	}
	if err != nil {
		return err
	}
	copy(out, theta)
	st.add(s)
	return nil
}

// acceptAll is a deliberately broken first-order oracle, the audit's
// negative control: its Bregman term is 0, so every proposal is accepted and
// the tangent-plane Gaussian is taken for the target (the same break as the
// sampler package's acceptAll test hook).
type acceptAll struct{ *loss.Set }

func (acceptAll) Bregman(x, lin []float64) float64 { return 0 }

// add accumulates one proximal run's counters.
func (d *Diagnostics) add(s sampler.Stats) {
	d.Trials += s.Trials
	d.LossEvals += s.LossEvals
	d.AnchorPasses += s.AnchorIters
	d.Draws += s.Draws
	d.Failures += s.Failures
	d.AnchorMisses += s.AnchorMisses
	d.Overruns += s.Overruns
	d.Padded += s.Padded
}

// Sample validates req, draws its samples and reports the guarantee.
// Randomness comes from rng.New(req.Seed): crypto/rand-seeded unless a seed
// is given, in which case Result.Private is false. progress (may be nil, may
// block) is called between chunks of work with (done, total) units summed over
// all samples; ctx is checked between chunks.
func Sample(ctx context.Context, req Request, progress func(done, total int)) (Result, error) {
	return SampleWith(ctx, req, progress, Options{})
}

// SampleWith is Sample with run-time options (Options).
func SampleWith(ctx context.Context, req Request, progress func(done, total int), opt Options) (Result, error) {
	start := time.Now()
	p, err := prepare(req)
	if err != nil {
		return Result{}, err
	}
	return p.sample(ctx, start, req.Seed, progress, opt)
}

// sample is SampleWith after prepare: the draws, the report, the non-private
// fit and the diagnostics.
func (p *prepared) sample(ctx context.Context, start time.Time, seed *uint64, progress func(done, total int), opt Options) (Result, error) {
	var res Result
	dr, err := newDrawer(p)
	if err != nil {
		return Result{}, err
	}
	dr.startShards(opt, &res.Diagnostics)
	if dr.sh != nil {
		defer dr.sh.Close()
	}
	r, private := rng.New(seed)
	pl := p.plan
	m := pl.Samples
	res.Private, res.Plan, res.Samples = private, pl, make([][]float64, m)
	perSample := 1
	switch {
	case pl.Method == MethodL1:
		perSample = pl.D
	case pl.Sampler == SamplerProximal, pl.Schedule != nil:
		perSample = pl.Steps
	}
	total := m * perSample
	// The reference fit's passes (Work.Reference) count in the sampler's units
	// (Work.Passes per total), so that a page's "time left", the rate so far
	// applied to the units left, covers the fit too.
	fitUnits, ivUnits := 0, 0
	if progress != nil && pl.Work.Reference > 0 {
		fitUnits = max(1, int(math.Round(pl.Work.Reference*float64(total)/math.Max(pl.Work.Passes-pl.Work.Interval, 1))))
	}
	if progress != nil && pl.Work.Interval > 0 {
		ivUnits = max(1, int(math.Round(pl.Work.Interval*float64(total)/math.Max(pl.Work.Passes-pl.Work.Interval, 1))))
	}
	grand := total + ivUnits + fitUnits
	last := -1
	for k := 0; k < m; k++ {
		if err := ctx.Err(); err != nil {
			return Result{}, err
		}
		out := make([]float64, pl.D)
		report := func(done, _ int) {
			if progress == nil {
				return
			}
			now := k*perSample + done
			// The exact 1-D and Gaussian samplers finish a sample in
			// microseconds: report at most ~256 times.
			if perSample == 1 && now != total && now-last < max(1, total/256) {
				return
			}
			last = now
			progress(now, grand)
		}
		if err := dr.draw(ctx, r, out, &res.Diagnostics, report); err != nil {
			return Result{}, err
		}
		round(out, pl.Grid)
		res.Samples[k] = out
	}
	res.Theta = res.Samples[0]
	if pl.Interval != nil {
		res.Intervals = intervals(p, res.Theta, r)
		if ivUnits > 0 {
			last = total + ivUnits
			progress(last, grand)
		}
	}
	curve, err := privacy.Delta(pl.GDPTotal, pl.Epsilon)
	if err != nil {
		return Result{}, err
	}
	res.Privacy = Privacy{Epsilon: pl.Epsilon, Delta: curve + pl.DeltaSampler, GDP: pl.GDPTotal, ComposedOver: m, Neighbours: ReplaceOne}
	var fitted func(done, passes int)
	if progress != nil {
		fitted = func(done, passes int) {
			if now := total + ivUnits + fitUnits*done/max(passes, 1); now > last {
				last = now
				progress(now, grand)
			}
		}
	}
	res.Fit = fit(p.set, dr.sh, res.Theta, pl, p.fitFixed, fitted)
	res.Stats = Stats{Steps: int64(pl.Steps) * int64(m), Samples: m}
	res.Diagnostics.Private = false
	res.Diagnostics.ClampedTargets = p.cl.clampedTargets
	res.Diagnostics.ClampedPoints = p.cl.clampedPoints
	res.Diagnostics.ClippedRows = p.set.Clipped()
	res.Diagnostics.Seconds = time.Since(start).Seconds()
	return res, nil
}
