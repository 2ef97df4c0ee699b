package domain

import (
	"fmt"
	"math"

	"github.com/dpsample/dpsample/core/checks"
	"github.com/dpsample/dpsample/core/privacy"
)

// The public constants of the mechanism (package doc). They were chosen on the
// development half of the utility study (docs/PRIVACY.md §9), never on iris,
// wine, Pima or R's tables.
const (
	// Bins2 is the number of linear bins of stage 2.
	Bins2 = 8
	// Share1 is the fraction of s² spent on stage 1 (magnitude).
	Share1 = 0.5
	// FalseBin1 is β₁: the probability that a column gets a stage-1 survivor
	// where it has no value (a false bin widens the range by orders of
	// magnitude, so it is kept small).
	FalseBin1 = 1e-6
	// FalseBin2 is β₂, the same for stage 2 (a false bin widens the range by
	// at most the window).
	FalseBin2 = 0.05
	// Margin is the number of linear bins the bounds extend beyond the
	// outermost stage-2 survivors, for the rows of a thin tail.
	Margin = 1
	// MaxCells bounds n·d, like a CSV's (dataset.MaxCells).
	MaxCells = 5_000_000
	// MaxColumns bounds d.
	MaxColumns = 1000
)

// Plan is the public description of one release: every number in it is a
// function of n, d, ε, δ and the constants above, never of the data.
type Plan struct {
	N       int     `json:"n"`
	D       int     `json:"d"`
	Epsilon float64 `json:"epsilon"`
	Delta   float64 `json:"delta"`
	// GDP is s = privacy.Calibrate(ε, δ): the release is s-GDP.
	GDP float64 `json:"gdp"`
	// GDP1, GDP2 are the stages' μ₁ = s·√Share1, μ₂ = s·√(1 − Share1).
	GDP1 float64 `json:"gdpMagnitude"`
	GDP2 float64 `json:"gdpLinear"`
	// Sigma1, Sigma2 are the noise scales σ_k = √(2d)/μ_k of the counts.
	Sigma1 float64 `json:"sigmaMagnitude"`
	Sigma2 float64 `json:"sigmaLinear"`
	// Threshold1, Threshold2 are τ_k = ⌈σ_k·Φ⁻¹(1 − β_k/bins_k)⌉.
	Threshold1 float64 `json:"thresholdMagnitude"`
	Threshold2 float64 `json:"thresholdLinear"`
	Bins1      int     `json:"binsMagnitude"`
	Bins2      int     `json:"binsLinear"`
	// Share1 is the fraction of s² spent on stage 1; Margin the linear bins
	// added beyond the outermost survivors.
	Share1 float64 `json:"shareMagnitude"`
	Margin int     `json:"margin"`
}

// Options overrides the public constants, for the study that chose them
// (wasm/tools/bench, -only ranges); a zero field keeps the default.
type Options struct {
	Share1 float64 // in (0, 1); default Share1
	Bins2  int     // in [2, 4096]; default Bins2
	Margin int     // ≥ 0; default Margin (set NoMargin for 0)
}

// NoMargin is Options.Margin for no margin at all.
const NoMargin = -1

// NewPlan validates n, d, ε and δ and returns the plan with the default
// constants. Errors name "x", "epsilon" or "delta"; δ must be below 1/n
// (checks.DeltaForN).
func NewPlan(n, d int, eps, delta float64) (Plan, error) {
	return NewPlanWith(n, d, eps, delta, Options{})
}

// NewPlanWith is NewPlan with some constants overridden (Options).
func NewPlanWith(n, d int, eps, delta float64, o Options) (Plan, error) {
	if n < 1 {
		return Plan{}, checks.Errorf("x", "a non-empty array of rows")
	}
	if d < 1 || d > MaxColumns {
		return Plan{}, &checks.Error{Field: "x[0]", Rule: fmt.Sprintf("a row of 1 to %d columns", MaxColumns), Got: fmt.Sprintf("%d columns", d)}
	}
	if n > MaxCells/d {
		return Plan{}, checks.Errorf("x", "at most %d numbers in all (n·d), got %d·%d", MaxCells, n, d)
	}
	if err := checks.First(checks.Epsilon("epsilon", eps), checks.DeltaForN("delta", delta, n)); err != nil {
		return Plan{}, err
	}
	s, err := privacy.Calibrate(eps, delta)
	if err != nil {
		return Plan{}, err
	}
	share, bins2, margin := Share1, Bins2, Margin
	if o.Share1 != 0 {
		if err := checks.InRange("options.share1", o.Share1, 0.01, 0.99); err != nil {
			return Plan{}, err
		}
		share = o.Share1
	}
	if o.Bins2 != 0 {
		if err := checks.IntRange("options.bins2", o.Bins2, 2, 4096); err != nil {
			return Plan{}, err
		}
		bins2 = o.Bins2
	}
	switch {
	case o.Margin == NoMargin:
		margin = 0
	case o.Margin != 0:
		if err := checks.IntRange("options.margin", o.Margin, 0, 64); err != nil {
			return Plan{}, err
		}
		margin = o.Margin
	}
	p := Plan{N: n, D: d, Epsilon: eps, Delta: delta, GDP: s, Bins1: Bins1, Bins2: bins2, Share1: share, Margin: margin}
	sens := math.Sqrt(2 * float64(d))
	p.GDP1, p.GDP2 = s*math.Sqrt(share), s*math.Sqrt(1-share)
	p.Sigma1, p.Sigma2 = sens/p.GDP1, sens/p.GDP2
	p.Threshold1 = math.Ceil(p.Sigma1 * privacy.PhiInvUpper(FalseBin1/Bins1))
	p.Threshold2 = math.Ceil(p.Sigma2 * privacy.PhiInvUpper(FalseBin2/float64(bins2)))
	return p, nil
}

// Charge is what the release costs a ledger: s-GDP, no total-variation slack
// (the Gaussian mechanism is exact), with its own (ε, δ) for basic composition.
func (p Plan) Charge() privacy.Release {
	return privacy.Release{Label: "column ranges (describe)", GDP: p.GDP, Epsilon: p.Epsilon, Delta: p.Delta}
}
