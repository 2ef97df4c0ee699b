package interval

import (
	"context"
	"fmt"
	"math"
	"time"

	"github.com/dpsample/dpsample/core/dpgd"
	"github.com/dpsample/dpsample/core/loss"
	"github.com/dpsample/dpsample/core/privacy"
	"github.com/dpsample/dpsample/core/rng"
)

// SimConfig is one cell of the coverage experiments: Runs independent tables
// of N rows drawn from Design, each released by DP-GD and the intervals'
// releases at (Epsilon, Delta) as package mechanism runs them with
// method "dp-gd" and interval Level (clip = √dim, the given Radius).
type SimConfig struct {
	Design         Design
	N, Runs        int
	Epsilon, Delta float64
	Level          float64
	Radius         float64 // C (mechanism.DefaultRadius for the page's rule)
	Seed           uint64  // the tables' and the mechanism's seeds derive from it
	Shares         Shares  // zero: DefaultShares
	MinNS          float64 // > 0: the gate's bound instead of MinNS
}

// SimRun is one run: the table's loss set, θ̃ and the releases.
type SimRun struct {
	Index int
	Set   *loss.Set
	Theta []float64
	Rel   Released
	Plan  Plan
	Sched dpgd.Schedule
	// DPGDSeconds and ReleaseSeconds are the wall times of the DP-GD run
	// and of the releases (Stats and Release), for the study's time ratio.
	DPGDSeconds, ReleaseSeconds float64
}

// Simulate runs cfg's runs in order, calling each with every run, and
// returns the plan and DP-GD's schedule (public: the same for every run).
// Plan.Gate false returns before any run.
func Simulate(ctx context.Context, cfg SimConfig, each func(SimRun)) (Plan, dpgd.Schedule, error) {
	ds := cfg.Design
	kind, err := loss.ParseKind(ds.Loss)
	if err != nil {
		return Plan{}, dpgd.Schedule{}, err
	}
	dim := len(ds.Theta)
	lp := loss.Params{Clip: math.Sqrt(float64(dim)), Huber: ds.Huber}
	g, err := loss.Lipschitz(kind, lp)
	if err != nil {
		return Plan{}, dpgd.Schedule{}, err
	}
	beta, _, err := loss.Smooth(kind, lp)
	if err != nil {
		return Plan{}, dpgd.Schedule{}, err
	}
	s, err := privacy.Calibrate(cfg.Epsilon, cfg.Delta)
	if err != nil {
		return Plan{}, dpgd.Schedule{}, err
	}
	pl, err := NewPlan(Params{N: cfg.N, D: dim, G: g, Curvature: beta * lp.Clip * lp.Clip, Radius: cfg.Radius, Level: cfg.Level,
		GDP: s, Epsilon: cfg.Epsilon, Delta: cfg.Delta, Shares: cfg.Shares, MinNS: cfg.MinNS})
	if err != nil {
		return Plan{}, dpgd.Schedule{}, err
	}
	sch, err := dpgd.NewSchedule(dpgd.Params{N: cfg.N, D: dim, G: g, Curvature: beta * lp.Clip * lp.Clip, Radius: cfg.Radius, GDP: pl.Model})
	if err != nil {
		return Plan{}, dpgd.Schedule{}, err
	}
	if !pl.Gate {
		return pl, sch, nil
	}
	for i := 0; i < cfg.Runs; i++ {
		dataR := rng.Seeded(cfg.Seed ^ uint64(i)*0x9E3779B97F4A7C15)
		x, y := ds.Draw(dataR, cfg.N)
		set, err := loss.New(kind, x, y, lp)
		if err != nil {
			return Plan{}, dpgd.Schedule{}, fmt.Errorf("design %s: %w", ds.Name, err)
		}
		r := rng.Seeded(cfg.Seed ^ uint64(i)*0xD1B54A32D192ED03 ^ 1)
		t0 := time.Now()
		theta, err := dpgd.Run(ctx, set, sch, r, nil)
		if err != nil {
			return Plan{}, dpgd.Schedule{}, err
		}
		t1 := time.Now()
		rel := Release(Stats(set, theta), pl, r)
		each(SimRun{Index: i, Set: set, Theta: theta, Rel: rel, Plan: pl, Sched: sch,
			DPGDSeconds: t1.Sub(t0).Seconds(), ReleaseSeconds: time.Since(t1).Seconds()})
	}
	return pl, sch, nil
}

// PlainDPGD runs DP-GD alone on set at the whole budget of (ε, δ) with the
// given radius and seed (the study's comparison: what θ̃ would have been
// without intervals).
func PlainDPGD(ctx context.Context, set *loss.Set, eps, delta, radius float64, seed uint64) ([]float64, error) {
	s, err := privacy.Calibrate(eps, delta)
	if err != nil {
		return nil, err
	}
	sch, err := dpgd.NewSchedule(dpgd.Params{N: set.N(), D: set.Dim(), G: set.G(), Curvature: set.Curvature(), Radius: radius, GDP: s})
	if err != nil {
		return nil, err
	}
	return dpgd.Run(ctx, set, sch, rng.Seeded(seed), nil)
}
