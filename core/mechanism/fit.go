package mechanism

import (
	"github.com/dpsample/dpsample/core/loss"
)

// Fit compares the released θ with a non-private reference fit. It is
// computed from the raw data on the data owner's device for display only and
// is NOT private.
//
// The reference is the best θ over all of ℝ^d, found by a converged method
// with its optimality checked (loss.Set.Minimize, issue 53 item 3): until
// issue 53 it was the best θ in the ball ‖θ‖ ≤ C after a fixed 100–2000
// iterations, and on a regression whose target sits far from the centre of
// its declared range (a price list declared on [0, 32768]) that fit was
// worse than predicting the median — the page then called the private model
// "a little below" a comparison that was itself wrong.
type Fit struct {
	Loss           float64 `json:"loss"`           // L(θ; D) at the released θ (the first sample)
	NonPrivateLoss float64 `json:"nonPrivateLoss"` // L(θ̂), θ̂ the non-private minimiser found
	Excess         float64 `json:"excess"`         // Loss − NonPrivateLoss
	// Gap certifies θ̂: L(θ̂) − L(θ') ≤ Gap for every θ' whose predictions
	// ⟨θ', xᵢ⟩ differ from θ̂'s by at most Reach in root mean square (for a
	// centre, Global: every θ'); Converged is Gap ≤ Tolerance, the stopping
	// rule, FitTolerance times L(0).
	Gap       float64 `json:"gap"`
	Reach     float64 `json:"reach,omitempty"`
	Global    bool    `json:"global,omitempty"`
	Tolerance float64 `json:"tolerance"`
	Converged bool    `json:"converged"`
	// Ball is, for linear and linext only, the radius C of the ball the
	// reference is held to (those losses have no minimiser over ℝ^d); 0
	// otherwise.
	Ball       float64   `json:"ball,omitempty"`
	Theta      []float64 `json:"theta"` // the non-private minimiser found
	Iterations int       `json:"iterations"`
	Passes     int       `json:"passes"`  // passes over the rows it made (Plan.Work.Reference under fixed work)
	Clipped    int       `json:"clipped"` // feature rows shrunk to the clip bound
	Private    bool      `json:"private"` // always false
	// Norm is ‖θ‖ of the released θ.
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

// FitTolerance is the reference fit's relative stopping tolerance: it stops
// when its certified gap is at most FitTolerance·L(0), L(0) the average
// loss of θ = 0 (log 2 for logistic; for a regression the mean deviation of
// the targets from 0, in scaled units).
const FitTolerance = loss.MinTol

// ReachClassification is the reach of a classifier's certificate in
// logits: RadiusClassification, the page's C·clip — a θ' whose scores
// differ from θ̂'s by more, in root mean square, changes the odds of a
// typical row by a factor beyond e^16. A regression's reach is the width
// of its declared target range (2 for [−1, 1]): a θ' whose predictions
// move further is off the declared scale.
const ReachClassification = RadiusClassification

// fitReach is the public reach of the plan's certificate.
func fitReach(k loss.Kind, pl Plan) float64 {
	if k.Classification() {
		return ReachClassification
	}
	if len(pl.TargetRange) == 2 {
		return pl.TargetRange[1] - pl.TargetRange[0]
	}
	return DefaultBox[1] - DefaultBox[0]
}

// fitPasses is the passes over the rows of the reference fit, a function of
// n, d and the loss (loss.MinPassesMax): the work it makes under fixed work,
// a bound on it otherwise.
func fitPasses(n, d int, k loss.Kind) float64 {
	return float64(loss.MinPassesMax(n, d, k))
}

// fit compares theta with the non-private minimiser of L over ℝ^d
// (loss.Set.Minimize; linear and linext over the ball ‖θ‖ ≤ C). It runs
// inside the call that releases θ, so by default (fixed) its work is
// fitPasses(n, d, loss) whatever the data (issue 21, docs/PRIVACY.md §7.1):
// the passes left after it converged are made anyway; a request with
// fixedWork false lets it stop at convergence. A smooth loss is evaluated
// by one Linearize pass per iteration, on sh's shards when sh is not nil
// (the sampler's workers: issue 43 item 5); after(done, total) follows its
// passes (nil: not called).
func fit(set *loss.Set, sh *loss.Sharded, theta []float64, pl Plan, fixed bool, after func(done, total int)) Fit {
	k := set.Kind()
	o := loss.MinOptions{Reach: fitReach(k, pl), Tol: FitTolerance, MaxPasses: int(fitPasses(set.N(), set.Dim(), k)),
		Ball: pl.Radius, Fixed: fixed, After: after}
	if _, smooth := set.Smooth(); smooth && sh != nil {
		lin := make([]float64, 3*set.N())
		o.Eval = func(x, g []float64) float64 { return sh.Linearize(x, g, lin) }
	}
	m := set.Minimize(o)
	l := set.Mean(theta)
	f := Fit{Loss: l, NonPrivateLoss: m.Loss, Excess: l - m.Loss, Gap: m.Gap, Reach: m.Reach, Global: m.Global,
		Tolerance: m.Tolerance, Converged: m.Converged, Ball: m.Ball, Theta: m.Theta, Iterations: m.Iters,
		Passes: m.Passes, Clipped: set.Clipped(), Norm: loss.Norm(theta)}
	if k.Classification() {
		a, b := set.Accuracy(theta), set.Accuracy(m.Theta)
		f.Accuracy, f.NonPrivateAccuracy = &a, &b
	}
	return f
}
