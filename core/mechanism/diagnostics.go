package mechanism

import "github.com/dpsample/dpsample/core/interval"

// Stats are the public counts of a release: they follow from the plan alone
// (Plan.Steps, Plan.Samples), never from the run.
type Stats struct {
	Steps   int64 `json:"steps"`   // proximal steps in all: T·m (0 for an exact sampler)
	Samples int   `json:"samples"` // m
}

// Diagnostics are statistics of the data and of the run, shown to the data
// owner and NOT private (issue 13): without fixed work the numbers of
// rejection trials and loss evaluations of the proximal sampler depend on the
// data (neighbouring datasets at n = 20 shift mean trials by ≈ 0.23 sd); the
// wall-clock time, the TV events (failures, anchor misses, overruns) and
// the clamp counts depend on it in any case. They must not be released
// beside θ; Result.Release drops them.
type Diagnostics struct {
	Private      bool  `json:"private"`      // always false
	Trials       int64 `json:"trials"`       // rejection trials, summed over samples
	LossEvals    int64 `json:"lossEvals"`    // evaluations of ℓ(θ; z_i)
	AnchorPasses int64 `json:"anchorPasses"` // first-order sampler: gradient passes of the anchor search
	Draws        int64 `json:"draws"`        // proximal samplers: random variates requested (normals, uniforms, integers)
	// The events charged to TV (plan.tvRGO, plan.tvOver), counted so that the
	// bounds can be checked from the API: RGO calls that used all M trials
	// (x left unchanged), first-order anchors whose last pass left the
	// residual above AnchorTol·σ (0 in exact arithmetic; the acceptance
	// bound p_min assumes none), and steps that found the total trial budget
	// spent (fixedWork).
	Failures       int64   `json:"failures"`
	AnchorMisses   int64   `json:"anchorMisses"`
	Overruns       int64   `json:"overruns"`
	Padded         int64   `json:"padded"`         // fixedWork: trials run after the last step to fill the budget (counted in trials)
	Seconds        float64 `json:"seconds"`        // wall-clock time of Sample, including the non-private fit
	ClampedTargets int     `json:"clampedTargets"` // records whose target was clamped to targetRange
	ClampedPoints  int     `json:"clampedPoints"`  // records with a coordinate clamped to pointBox
	ClippedRows    int     `json:"clippedRows"`    // feature rows shrunk to ‖x‖₂ = clip
	Workers        int     `json:"workers"`        // shards the passes ran on (Plan.Workers, or 1 if the workers could not start; Note says when they fell back to one, slower)
	Note           string  `json:"note,omitempty"` // what went wrong with the workers, if anything (the result is unchanged)
}

// Release is the private part of a Result: what may leave the data owner's
// device. It carries no diagnostics and no non-private fit. Its plan carries
// n (plan.n), which is released: when rows with a missing cell were dropped
// before the call, n is the count of complete rows, and whoever knows the
// file's row count learns how many were dropped (docs/PRIVACY.md §1, §7.6);
// the unit of privacy is a complete row.
type Release struct {
	Theta   []float64   `json:"theta"`
	Samples [][]float64 `json:"samples"`
	Private bool        `json:"private"`
	Plan    Plan        `json:"plan"`
	Privacy Privacy     `json:"privacy"`
	Stats   Stats       `json:"stats"`
	// Intervals are the intervals of a request with Interval set: private,
	// computed from releases that Privacy covers.
	Intervals *interval.Intervals `json:"intervals,omitempty"`
}

// Release returns the private part of r (for an export); Fit and
// Diagnostics are left out.
func (r Result) Release() Release {
	return Release{Theta: r.Theta, Samples: r.Samples, Private: r.Private, Plan: r.Plan, Privacy: r.Privacy, Stats: r.Stats, Intervals: r.Intervals}
}
