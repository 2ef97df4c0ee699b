package mechanism

// Stats are the public counts of a release: they follow from the plan alone
// (Plan.Steps, Plan.Samples), never from the run.
type Stats struct {
	Steps   int64 `json:"steps"`   // proximal steps in all: T·m (0 for an exact sampler)
	Samples int   `json:"samples"` // m
}

// Diagnostics are statistics of the data and of the run, shown to the data
// owner and NOT private (issue 13): the numbers of rejection trials and loss
// evaluations of the proximal sampler and the wall-clock time depend on the
// data (neighbouring datasets at n = 20 shift mean trials by ≈ 0.23 sd), and
// the clamp counts are counts of records outside the declared domain. They
// must not be released beside θ; Result.Release drops them.
type Diagnostics struct {
	Private        bool    `json:"private"`        // always false
	Trials         int64   `json:"trials"`         // rejection trials, summed over samples
	LossEvals      int64   `json:"lossEvals"`      // evaluations of ℓ(θ; z_i)
	AnchorPasses   int64   `json:"anchorPasses"`   // first-order sampler: gradient passes of the anchor search
	Seconds        float64 `json:"seconds"`        // wall-clock time of Sample, including the non-private fit
	ClampedTargets int     `json:"clampedTargets"` // records whose target was clamped to targetRange
	ClampedPoints  int     `json:"clampedPoints"`  // records with a coordinate clamped to pointBox
	ClippedRows    int     `json:"clippedRows"`    // feature rows shrunk to ‖x‖₂ = clip
	Workers        int     `json:"workers"`        // shards the passes ran on (Plan.Workers, or 1 if the workers could not start)
	Note           string  `json:"note,omitempty"` // what went wrong with the workers, if anything (the result is unchanged)
}

// Release is the private part of a Result: what may leave the data owner's
// device. It carries no diagnostics and no non-private fit.
type Release struct {
	Theta   []float64   `json:"theta"`
	Samples [][]float64 `json:"samples"`
	Private bool        `json:"private"`
	Plan    Plan        `json:"plan"`
	Privacy Privacy     `json:"privacy"`
	Stats   Stats       `json:"stats"`
}

// Release returns the private part of r (for an export); Fit and
// Diagnostics are left out.
func (r Result) Release() Release {
	return Release{Theta: r.Theta, Samples: r.Samples, Private: r.Private, Plan: r.Plan, Privacy: r.Privacy, Stats: r.Stats}
}
