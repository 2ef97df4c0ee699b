package sampler

import (
	"fmt"
	"math"

	"github.com/dpsample/dpsample/core/checks"
)

// Work modes of the proximal samplers (issue 21). In the default mode each
// RGO call stops at its first accepted trial and the first-order anchor
// search at its first residual below AnchorTol·σ, so the work of a run — the
// counters of Stats, and the run time — depends on the data: with all-zero
// feature rows every step does one anchor pass and one trial, and a row of
// norm clip adds a trial with probability up to 0.44 (n = 455, ε = 5). The
// two fixed-work modes make the work a function of public inputs only,
// padding with real work (passes over the data whose results are discarded,
// never sleeps):
//
//   - WorkPerStep: every step does exactly K + 1 anchor passes (first-order;
//     K the plan's fixed-work count, FirstOrderPlan.AnchorMax) and M trials; the trials after the accepted one are drawn
//     and evaluated in full and discarded. Every step is the same sequence of
//     operations, so no part of the run — a progress event, one step — has
//     data-dependent work. No TV cost.
//   - WorkTotal: K + 1 anchor passes per step (first-order), and a public
//     total budget B of trials for the whole run: each RGO call stops at
//     its first accepted trial as before, and after the last step the unused
//     trials are drawn and evaluated and discarded, so the run does exactly B
//     trials. If the budget runs out before the last step (an overrun), the
//     remaining steps run their anchor passes and leave x where it is; the
//     overrun probability is charged to TV like the trial cap M (TotalBudget).
//     The run's totals are fixed; the split of the trials between the steps
//     is not, so the time between two progress events still varies with the
//     data. The zeroth-order sampler's stochastic mode has a second budget,
//     B_f draws of its Bernoulli factory in all (DrawBudget, rgobound.go), spent and
//     padded the same way.
//
// The random draws follow the same rule: a padded trial draws its proposal
// and its uniform like a real one, so the number of variates requested
// (Stats.Draws) is fixed too. The accepted proposal is the one kept; the
// draws after it are independent of it, so padding does not change the law
// of the output.
const (
	WorkAdaptive = ""         // stop at the first accepted trial (data-dependent work)
	WorkPerStep  = "per-step" // every step K + 1 anchor passes and M trials
	WorkTotal    = "total"    // K + 1 anchor passes per step; B trials in all, padded at the end
)

// OverShare is the share of the TV budget given to an overrun of the total
// trial budget (WorkTotal): P(overrun) ≤ OverShare·τ.
const OverShare = 1e-3

// checkWork validates a work mode; the field is "work".
func checkWork(w string) error {
	switch w {
	case WorkAdaptive, WorkPerStep, WorkTotal:
		return nil
	}
	return &checks.Error{Field: "work", Rule: fmt.Sprintf("%q, %q or %q", WorkAdaptive, WorkPerStep, WorkTotal), Got: fmt.Sprintf("%q", w)}
}

// TotalBudget returns the least B ≤ steps·m with P(overrun) ≤ target and that
// bound, for a run of steps RGO calls of at most m trials each, every trial
// accepting with probability ≥ p given the past (p_min of the plan).
//
// The trial counts N_t of the steps are each stochastically dominated by a
// Geometric(p) given the past, so Σ N_t is dominated by a sum of steps
// independent geometrics, and Σ N_t > B only if B independent
// Bernoulli(p) trials have fewer than steps successes:
//
//	P(overrun) ≤ P(Bin(B, p) ≤ steps − 1) ≤ exp(−B·D((steps − 1)/B ‖ p))
//
// (Chernoff, D the Bernoulli Kullback–Leibler divergence, for
// (steps − 1)/B < p). At B = steps·m no overrun is possible (N_t ≤ m), so the
// bound is then 0.
func TotalBudget(steps, m int, p, target float64) (int64, float64) {
	bound := func(b int64) float64 { return trialOverrun(steps, m, p, b) }
	return leastBudget(int64(steps), int64(steps)*int64(m), bound, target)
}

// trialOverrun is TotalBudget's bound on P(overrun) at budget b.
func trialOverrun(steps, m int, p float64, b int64) float64 {
	if b >= int64(steps)*int64(m) {
		return 0
	}
	q := float64(steps-1) / float64(b)
	if q >= p {
		return 1
	}
	return math.Exp(-float64(b) * klBernoulli(q, p))
}

// leastBudget returns the least b in [lo, hi] with bound(b) ≤ target, and
// bound(b), by bisection; bound is non-increasing and bound(hi) = 0.
func leastBudget(lo, hi int64, bound func(int64) float64, target float64) (int64, float64) {
	if bound(lo) <= target {
		return lo, bound(lo)
	}
	for hi-lo > 1 {
		mid := lo + (hi-lo)/2
		if bound(mid) <= target {
			hi = mid
		} else {
			lo = mid
		}
	}
	return hi, bound(hi)
}

// klBernoulli is D(q ‖ p) = q ln(q/p) + (1 − q) ln((1 − q)/(1 − p)).
func klBernoulli(q, p float64) float64 {
	d := (1 - q) * math.Log((1-q)/(1-p))
	if q > 0 {
		d += q * math.Log(q/p)
	}
	return d
}
