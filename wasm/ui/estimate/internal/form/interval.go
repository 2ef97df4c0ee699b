package form

import (
	"fmt"

	"github.com/dpsample/dpsample/core/loss"
	"github.com/dpsample/dpsample/core/mechanism"
	"github.com/dpsample/dpsample/core/privacy"
)

// IntervalLevel is the level of the page's intervals (issue 54).
const IntervalLevel = 0.95

// intervalFor is the level of the intervals req asks for: IntervalLevel
// when the person asked for them and DP-GD draws one estimate of a smooth
// loss, else 0. Below the public gate (core/interval: n·s and d) the run
// then releases no interval but its reason, and the model keeps the whole
// budget: asking costs nothing there.
func (s State) intervalFor(req mechanism.Request) float64 {
	if !s.Choice.Interval || req.Method != mechanism.EstimatorDPGD || req.Samples > 1 || !intervalLosses[s.Choice.Loss] {
		return 0
	}
	return IntervalLevel
}

// intervalLosses are the losses core/interval has bounds for (φ” ≤ β).
var intervalLosses = map[loss.Kind]bool{loss.Logistic: true, loss.Huber: true, loss.SmoothHinge: true, loss.SmoothQuantile: true}

// IntervalLine says before a run what the intervals will be (issue 54: the
// cost shown before Run): their share of the run's ε, or why there are
// none ("" when they are not asked for).
func (s State) IntervalLine() string {
	if !s.Choice.Interval {
		return ""
	}
	l := s.Choice.Loss
	if !intervalLosses[l] {
		return "No 95 % intervals for this task: they are released for the smooth losses (logistic, Huber, smooth hinge, smooth median) drawn by DP-GD."
	}
	n := s.Rows()
	if n == 0 {
		return "95 % intervals beside the coefficients, where DP-GD's run allows them (decided from n, d and ε at Run)."
	}
	req, _, dMax, err := s.request(n)
	if err != nil {
		return ""
	}
	if req.Method != mechanism.EstimatorDPGD {
		return "No 95 % intervals with Algorithm 1: they are released beside DP-GD's estimate (choose it as the estimator)."
	}
	if req.Samples > 1 {
		return "No 95 % intervals with several samples: an interval is for the one estimate you would publish."
	}
	req.Interval = IntervalLevel
	pl, err := mechanism.PlanShape(req, n, dMax)
	if err != nil || pl.Interval == nil {
		return ""
	}
	ip := pl.Interval
	if !ip.Gate {
		return "No 95 % intervals at this size: " + ip.Reason + " The whole ε goes to the model."
	}
	alone := ""
	if e, err := privacy.Epsilon(ip.Model, req.Delta); err == nil {
		alone = fmt.Sprintf(" (as precise as a run at ε ≈ %s without intervals)", privacy.FormatDown(e, 2))
	}
	return fmt.Sprintf("95 %% intervals beside the coefficients, inside this run's ε = %g: the model is drawn with %.0f %% of its privacy budget%s, "+
		"and three releases at its estimate (the gradient, the curvature and the spread of the rows' gradients) pay for the intervals.",
		req.Epsilon, 100*ip.Model*ip.Model/(ip.GDP*ip.GDP), alone)
}
