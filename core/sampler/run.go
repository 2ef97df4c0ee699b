package sampler

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/dpsample/dpsample/core/checks"
	"github.com/dpsample/dpsample/core/rng"
)

// Stats counts the work of one Run.
type Stats struct {
	Steps     int64 // alternating steps completed
	Trials    int64 // proposal pairs drawn (RGO trials)
	LossEvals int64 // single-record loss evaluations (a Mean counts n)
	Failures  int64 // RGO calls that used all TrialBudget trials (charged to TV)
	Clips     int64 // clamps (full) or factory clips (stochastic), charged to TV

	// Draws counts the random variates requested (normals, uniforms,
	// integers); a normal counts once however many uniforms its rejection
	// loop used (that number is independent of the data and of the output).
	Draws int64
	// Overruns counts the steps that found the total trial budget spent
	// (WorkTotal; charged to TV), Padded the trials done after the last step
	// to fill it (WorkTotal) — both depend on the data, like Failures.
	Overruns int64
	Padded   int64

	// First-order sampler only (RunFirstOrder):
	AnchorIters  int64 // gradient passes of the anchor loop (Linearize calls)
	AnchorMisses int64 // anchors whose last pass left ‖r‖ > AnchorBound·σ (0 in exact arithmetic)
}

// Run draws one sample from π within TV pl.TV (Plan documents the split),
// starting from x₀ ~ N(0, α⁻¹I) (data-independent) and running exactly
// pl.Steps steps.
//
// Work is done in chunks of pl.ChunkSteps steps; after each chunk progress
// (if non-nil) is called with (steps done, pl.Steps) and may block (the wasm
// layer yields to the JS event loop inside it); ctx is checked between chunks,
// and a cancelled run returns ctx.Err() and no sample.
//
// The hot loop makes no allocations and no interface calls other than the
// Potential's. Work: T is fixed; with pl.Work = WorkAdaptive each RGO call
// stops at its first accepted trial, so the number of trials (and, in
// stochastic mode, loss evaluations) is random with a mean that depends on
// the data only through E[min(1, e^{Z−c})] ∈ [e^{−c}(1 − bias), e^{−c+s²/2}],
// a relative spread of ≈ s²/2 (≈ 2% at the privacy budgets of interest,
// s ≈ 0.2); with WorkPerStep or WorkTotal (work.go) the counters of Stats
// other than Failures, Clips, Overruns and Padded are functions of the plan
// alone.
func Run(ctx context.Context, pl Plan, pot Potential, r *rand.Rand, progress func(done, total int)) ([]float64, Stats, error) {
	if err := validateRun(pl, pot, r); err != nil {
		return nil, Stats{}, err
	}
	d := pl.D
	buf := make([]float64, 6*d)
	c := &chain{
		pot:     pot,
		r:       r,
		n:       pl.N,
		eta:     pl.Eta,
		shrink:  1 / (1 + pl.Lambda*pl.Alpha),
		sigma:   math.Sqrt(pl.Lambda / (1 + pl.Lambda*pl.Alpha)),
		sqrtLam: math.Sqrt(pl.Lambda),
		d:       int64(d),
		trials:  pl.TrialBudget,
		full:    pl.Mode == ModeFull,
		fixed:   pl.Work == WorkPerStep,
		pad:     pl.Work == WorkPerStep,
		budget:  -1,
		x:       buf[:d:d],
		m:       buf[d : 2*d : 2*d],
		xa:      buf[2*d : 3*d : 3*d],
		xb:      buf[3*d : 4*d : 4*d],
		z:       buf[4*d:],
	}
	if pl.Work == WorkTotal {
		c.budget = pl.TrialTotal
	}
	c.fbudget = -1
	if pl.Work == WorkTotal && !c.full {
		c.fbudget = pl.FactoryTotal
	}
	if pl.start != nil {
		copy(c.x, pl.start)
	} else {
		// x₀ ~ N(0, α⁻¹I): the start whose KL to π NewPlan bounds by KL₀.
		sd := 1 / math.Sqrt(pl.Alpha)
		rng.Normals53(r, c.x)
		for j := range c.x {
			c.x[j] *= sd
		}
		c.st.Draws += int64(d)
	}
	if !c.full {
		c.poisCDF = poissonCDF(FactoryRate, pl.PoissonCap)
	}
	err := chunked(ctx, pl.Steps, pl.ChunkSteps, c.step, func() error {
		if c.nonFinit {
			return checks.Errorf("potential", "finite at every point (Value or Mean returned NaN or ±Inf)")
		}
		return nil
	}, progress)
	if err != nil {
		return nil, c.st, err
	}
	out := make([]float64, d)
	copy(out, c.x)
	if err := ctx.Err(); err != nil {
		return nil, c.st, err
	}
	c.padRun()
	return out, c.st, nil
}

// chunked is the run contract both proximal samplers share: steps calls of
// step in chunks of chunk (≥ 1), ctx checked before each chunk (a cancelled
// run returns ctx.Err()), check called after each chunk (an error stops the
// run), then progress(done, steps) if progress is non-nil.
func chunked(ctx context.Context, steps, chunk int, step func(), check func() error, progress func(done, total int)) error {
	chunk = max(chunk, 1)
	for done := 0; done < steps; {
		if err := ctx.Err(); err != nil {
			return err
		}
		k := min(chunk, steps-done)
		for i := 0; i < k; i++ {
			step()
		}
		if err := check(); err != nil {
			return err
		}
		done += k
		if progress != nil {
			progress(done, steps)
		}
	}
	return nil
}

// poissonCDF returns P(N ≤ k) for k = 0..cap−1, N ~ Poisson(rate).
func poissonCDF(rate float64, cap int) []float64 {
	cdf := make([]float64, cap)
	p := math.Exp(-rate)
	s := 0.0
	for k := range cdf {
		if k > 0 {
			p *= rate / float64(k)
		}
		s += p
		cdf[k] = s
	}
	return cdf
}

func validateRun(pl Plan, pot Potential, r *rand.Rand) error {
	if pot == nil {
		return checks.Errorf("potential", "non-nil")
	}
	if r == nil {
		return checks.Errorf("rng", "non-nil")
	}
	if pl.Mode != ModeFull && pl.Mode != ModeStochastic {
		return &checks.Error{Field: "plan.Mode", Rule: `"full" or "stochastic" (use NewPlan)`, Got: fmt.Sprintf("%q", pl.Mode)}
	}
	if pl.Steps < 1 || pl.TrialBudget < 1 || (pl.Mode == ModeStochastic && pl.PoissonCap < 1) {
		return checks.Errorf("plan", "a plan made by NewPlan (steps, trial budget and Poisson cap ≥ 1)")
	}
	if err := checkWork(pl.Work); err != nil {
		return err
	}
	if pl.Work == WorkTotal && (pl.TrialTotal < int64(pl.Steps) || (pl.Mode == ModeStochastic && pl.FactoryTotal < 1)) {
		return checks.Errorf("plan", "a plan made by NewPlan (total trial budget ≥ T, factory budget ≥ 1)")
	}
	for _, f := range []struct {
		name string
		v    float64
	}{{"plan.Lambda", pl.Lambda}, {"plan.Alpha", pl.Alpha}, {"plan.Eta", pl.Eta}, {"plan.RadiusBall", pl.RadiusBall}} {
		if err := checks.Positive(f.name, f.v); err != nil {
			return err
		}
	}
	if pot.N() != pl.N {
		return &checks.Error{Field: "potential", Rule: fmt.Sprintf("a potential over the plan's n = %d records", pl.N), Got: fmt.Sprintf("n = %d", pot.N())}
	}
	if pot.Dim() != pl.D {
		return &checks.Error{Field: "potential", Rule: fmt.Sprintf("a potential in the plan's dimension d = %d", pl.D), Got: fmt.Sprintf("d = %d", pot.Dim())}
	}
	if pl.start != nil && len(pl.start) != pl.D {
		return checks.Errorf("plan", "a start of length d")
	}
	return nil
}
