package mechanism

import (
	"math"

	"github.com/dpsample/dpsample/core/loss"
)

// Fit compares the released θ with a non-private reference fit. It is
// computed from the raw data on the data owner's device for display only and
// is NOT private.
type Fit struct {
	Loss           float64   `json:"loss"`           // L(θ; D) at the released θ (the first sample)
	NonPrivateLoss float64   `json:"nonPrivateLoss"` // ≈ min_{‖θ‖≤C} L(θ; D), within Gap
	Excess         float64   `json:"excess"`         // Loss − NonPrivateLoss
	Gap            float64   `json:"gap"`            // certified: NonPrivateLoss − min ≤ Gap
	Theta          []float64 `json:"theta"`          // the non-private minimiser found
	Iterations     int       `json:"iterations"`
	Clipped        int       `json:"clipped"` // feature rows shrunk to the clip bound
	Private        bool      `json:"private"` // always false
	// Norm is ‖θ‖ of the released θ. The sampler draws θ from all of ℝ^d,
	// so Norm may exceed the radius C, and then Loss may fall below
	// NonPrivateLoss (the best inside the ball): a negative Excess.
	Norm float64 `json:"norm"`
	// Accuracy and NonPrivateAccuracy are, for a classification loss, the
	// shares of the rows whose label the released θ and the non-private θ̂
	// predict (loss.Set.Accuracy: training accuracy, rows whose features are
	// all zero left out — a missing target's row, dataset.ZeroMissingTargets);
	// absent otherwise. Loss and NonPrivateLoss are means over all n rows:
	// such a row adds the constant ℓ(0, y0)/n to both, so Excess is the
	// excess of the rows with a target times their share of n.
	Accuracy           *float64 `json:"accuracy,omitempty"`
	NonPrivateAccuracy *float64 `json:"nonPrivateAccuracy,omitempty"`
}

// fitBudget bounds the work of the reference fit: iterations·n·d ≤ fitBudget.
const fitBudget = 2e7

// fitIters is the reference fit's iteration count, a function of n and d
// alone: iterations·n·d ≤ fitBudget, between 100 and 2000.
func fitIters(n, d int) int {
	return int(math.Max(100, math.Min(2000, fitBudget/float64(n*d))))
}

// fitPasses is the passes over the rows of the reference fit: fitIters
// iterations of one Linearize pass (value and gradient together) for a
// smooth loss, of a Mean and a Subgradient pass otherwise.
func fitPasses(n, d int, smooth bool) float64 {
	if smooth {
		return float64(fitIters(n, d))
	}
	return 2 * float64(fitIters(n, d))
}

// fit compares theta with the certified non-private minimiser of L over the
// ball ‖θ‖ ≤ C (loss.Set.MinimizeInBallBy), with the work bounded by
// fitBudget. It runs inside the call that releases θ, so its work must not
// depend on the data (issue 21): the iteration count is a function of n and
// d alone and MinimizeInBall always runs all of them (no stop on a zero
// gradient). A smooth loss is evaluated by one Linearize pass per iteration,
// on sh's shards when sh is not nil (the sampler's workers: issue 43 item 5,
// at 10⁵ rows the fit on one worker took as long as a third of DP-GD's
// passes on two); after(t, iters) follows its progress (nil: not called).
func fit(set *loss.Set, sh *loss.Sharded, theta []float64, radius float64, after func(t, iters int)) Fit {
	n, d := set.N(), set.Dim()
	iters := fitIters(n, d)
	eval := loss.ValueGrad(set.MeanSubgradient)
	if _, smooth := set.Smooth(); smooth {
		lin := make([]float64, 3*n)
		eval = func(x, g []float64) float64 { return set.Linearize(x, g, lin) }
		if sh != nil {
			eval = func(x, g []float64) float64 { return sh.Linearize(x, g, lin) }
		}
	}
	var step func(int)
	if after != nil {
		step = func(t int) { after(t, iters) }
	}
	m := set.MinimizeInBallBy(radius, iters, eval, step)
	l := set.Mean(theta)
	f := Fit{Loss: l, NonPrivateLoss: m.Loss, Excess: l - m.Loss, Gap: m.Gap, Theta: m.Theta,
		Iterations: m.Iters, Clipped: set.Clipped(), Norm: loss.Norm(theta)}
	if set.Kind().Classification() {
		a, b := set.Accuracy(theta), set.Accuracy(m.Theta)
		f.Accuracy, f.NonPrivateAccuracy = &a, &b
	}
	return f
}
