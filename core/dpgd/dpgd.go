// Package dpgd is full-batch noisy gradient descent (DP-GD) with a schedule
// fixed from public quantities only: n, d, the public rank k, the Lipschitz
// constant G, the curvature bound β·clip², the radius C and (ε, δ) (through
// s; two data sets of the same shape and bounds get the same schedule). It is
// accounted with the same exact Gaussian-DP curve as Algorithm 1 (package
// privacy): replacing one record moves the mean gradient by at most 2G/n, so
// one step with noise N(0, σ²I) is (2G/(nσ))-GDP and T steps compose to
// √T·2G/(nσ) (Dong–Roth–Su 2022, Corollary 3.3); σ = 2G√T/(n·s) makes the
// run s-GDP, with s = privacy.Calibrate(ε, δ) for one release.
//
// Schedules (Schedule, NewSchedule):
//
//   - smooth losses (∇²ℓ ⪯ β·clip²·I: logistic, huber, smooth-hinge,
//     smooth-quantile): step h = 1/(β·clip²), the largest step for which
//     gradient descent on a β·clip²-smooth convex function decreases it
//     monotonically; the output is the average of the second half of the
//     iterates (suffix averaging); and (issue 43, RuleCapped, the default)
//
//     T = ⌈SmoothStepsPerGDP · min(n·s, SmoothNSCap) · β·clip²·C/G⌉ in [MinSteps, MaxSteps].
//
//     Why. Gradient descent with this step from θ₀ = 0 is within
//     β·clip²·C²/(2T) of any point of the ball ‖θ‖ ≤ C (its worst case), so
//     this T bounds the optimisation error by G·C/min(n·s, K), K =
//     SmoothNSCap. While n·s < K that is G·C/(n·s), the scale of the noise
//     term, as before issue 43 (RuleGrowing: T ∝ n·s at every n, so a run
//     cost n²·d and 5·10⁴ rows took minutes); past n·s = K it is a fixed
//     fraction 1/K of G·C (the loss's range over the ball is ≤ 2G·C), and T
//     no longer depends on n: a run costs n·d·T with T ≤ 0.5·K·β·clip²·C/G
//     (≈ 1600 for logistic at the page's C·clip = 16, ≈ 400 for Huber at C·clip
//     = 1). The worst-case bound is loose on real data: the error that
//     remains is in the flattest directions of L, where a fixed step also
//     lets the noise wander further the more steps are taken (the suffix
//     average's noise error in a direction of curvature λ is
//     ≈ σ²/(λ·T) = 4G²/(λ·n²s²) once λhT ≳ 1, independent of T, but grows
//     with T below), so fewer, less noisy steps lose little. K was chosen
//     on the utility study's development half
//     (docs/study/dpgd-schedule-development.md, docs/DEFAULTS.md). The cap
//     is a measured choice, not a worst-case guarantee: the known routes to
//     a provably n-free T — strong convexity from a public regulariser (T ≈
//     (β/λ)·log), acceleration, localisation — are not used here. Privacy
//     does not depend on it: T is public and σ exact for it.
//
//   - non-smooth losses (hinge, lad, quantile): the subgradient method with
//     the average iterate, T = ⌈(n·s/√k)²⌉ clamped (the rate
//     GC/√T of the average then matches the noise term GC√k/(n·s)), step
//     h = C/(√T·√(G² + mσ²)), m = k unprojected (the GLM noise outside the
//     row span never reaches the loss; Song–Steinke–Thakkar–Thakurta 2021),
//     m = d projected (Bassily–Smith–Thakurta 2014, Theorem 2.4).
//
// Projected runs project every iterate onto ‖θ‖ ≤ C; unprojected runs start
// at θ₀ = 0 and use C only in T and in the step of the non-smooth rule.
//
// Passes. A smooth loss's gradient pass is loss.Set.Gradient, or the same
// pass sharded over W workers (RunOn with a loss.Sharded, as the first-order
// sampler's: goroutines natively, Web Workers in the browser), the same bits
// for every W; a non-smooth loss's is loss.Set.Subgradient on the caller.
package dpgd

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/dpsample/dpsample/core/checks"
	"github.com/dpsample/dpsample/core/loss"
	"github.com/dpsample/dpsample/core/privacy"
	"github.com/dpsample/dpsample/core/rng"
)

// Limits and constants of the schedule.
const (
	MinSteps = 50
	MaxSteps = 20_000
	// SmoothStepsPerGDP: T = 0.5·n·s·β·clip²·C/G for a smooth loss, i.e.
	// worst-case optimisation error β·clip²C²/(2T) = G·C/(n·s), the scale of
	// the noise term. Chosen on breast cancer (development half): 0.25·n·s
	// and 1·n·s without the C factor were tried first; the former left the
	// noise-free run 90 % short at C·clip = 16, the latter doubled the
	// private excess at C·clip = 4 (more steps at a fixed step size add
	// noise in the flat directions). TestNoiseFreeConverges checks the ≤ 1 %
	// criterion at ε = 5.
	SmoothStepsPerGDP = 0.5
	// SmoothNSCap is K of the capped smooth rule: T stops growing once
	// n·s ≥ K (see the package doc). Chosen on the study's development half
	// (docs/study/dpgd-schedule-development.md).
	SmoothNSCap = 800
)

// Averaging of the iterates.
const (
	AverageSuffix = "suffix-half" // mean of θ_{⌈T/2⌉+1} … θ_T
	AverageAll    = "all"         // mean of θ_1 … θ_T
)

// Params are the public inputs of a schedule.
type Params struct {
	N, D, Rank     int     // records, dimension, public rank k (0: d)
	G              float64 // Lipschitz constant of every record's loss
	Curvature      float64 // β·clip² (0: not smooth)
	Radius         float64 // C
	Epsilon, Delta float64 // the run's budget (one release)
	GDP            float64 // if > 0, the run's GDP parameter s (overrides ε, δ: e.g. s/√m for m releases)
	Projected      bool
	// Rule selects the smooth rule: "" or RuleCapped (the default), or
	// RuleGrowing (the rule before issue 43, kept for the development
	// comparison of the bench tool). Ignored for non-smooth losses.
	Rule string
	// NSCap, if > 0, replaces SmoothNSCap in the capped rule (for the
	// development comparison of candidate caps; public like every other
	// field).
	NSCap float64
}

// Smooth rules (Params.Rule).
const (
	RuleCapped  = "capped"  // T ∝ min(n·s, SmoothNSCap): bounded in n
	RuleGrowing = "growing" // T ∝ n·s (before issue 43): grows with n
)

// Schedule is a complete, data-independent description of one DP-GD run.
type Schedule struct {
	Rule      string  `json:"rule"`      // which rule set it, in words
	Steps     int     `json:"steps"`     // T
	Step      float64 `json:"step"`      // h
	Sigma     float64 `json:"sigma"`     // per-step noise σ (per coordinate)
	GDP       float64 `json:"gdp"`       // s of the whole run
	Average   string  `json:"average"`   // AverageSuffix or AverageAll
	Projected bool    `json:"projected"` // project onto ‖θ‖ ≤ Radius
	Radius    float64 `json:"radius"`
}

// NewSchedule fixes the schedule from public quantities. Errors name the
// parameter.
func NewSchedule(p Params) (Schedule, error) {
	if err := checks.First(checks.IntRange("n", p.N, 2, math.MaxInt32), checks.IntRange("d", p.D, 1, math.MaxInt32),
		checks.IntRange("rank", p.Rank, 0, p.D), checks.Positive("G", p.G), checks.Positive("radius", p.Radius)); err != nil {
		return Schedule{}, err
	}
	if p.Curvature < 0 || math.IsNaN(p.Curvature) || math.IsInf(p.Curvature, 0) {
		return Schedule{}, checks.Errorf("curvature", "a finite number ≥ 0, got %s", checks.Fmt(p.Curvature))
	}
	s := p.GDP
	if s <= 0 {
		var err error
		if s, err = privacy.Calibrate(p.Epsilon, p.Delta); err != nil {
			return Schedule{}, err
		}
	}
	k := p.Rank
	if k == 0 {
		k = p.D
	}
	ns := float64(p.N) * s
	sch := Schedule{GDP: s, Projected: p.Projected, Radius: p.Radius}
	if p.Curvature > 0 {
		sch.Step = 1 / p.Curvature
		sch.Average = AverageSuffix
		switch p.Rule {
		case "", RuleCapped:
			k := float64(SmoothNSCap)
			if p.NSCap > 0 {
				k = p.NSCap
			}
			sch.Steps = clampSteps(math.Ceil(SmoothStepsPerGDP * math.Min(ns, k) * p.Curvature * p.Radius / p.G))
			sch.Rule = fmt.Sprintf("smooth: h = 1/(β·clip²), T = ⌈%g·min(n·s, %g)·β·clip²·C/G⌉ in [%d, %d], suffix average", SmoothStepsPerGDP, k, MinSteps, MaxSteps)
		case RuleGrowing:
			sch.Steps = clampSteps(math.Ceil(SmoothStepsPerGDP * ns * p.Curvature * p.Radius / p.G))
			sch.Rule = fmt.Sprintf("smooth: h = 1/(β·clip²), T = ⌈%g·n·s·β·clip²·C/G⌉ in [%d, %d], suffix average", SmoothStepsPerGDP, MinSteps, MaxSteps)
		default:
			return Schedule{}, checks.Errorf("rule", "%q or %q, got %q", RuleCapped, RuleGrowing, p.Rule)
		}
	} else {
		sch.Steps = clampSteps(math.Ceil(ns * ns / float64(k)))
		sch.Average = AverageAll
		sch.Rule = fmt.Sprintf("non-smooth: T = ⌈(n·s)²/k⌉ in [%d, %d], h = C/(√T·√(G² + mσ²)), average iterate", MinSteps, MaxSteps)
	}
	sch.Sigma = 2 * p.G * math.Sqrt(float64(sch.Steps)) / ns
	if p.Curvature == 0 {
		m := float64(k)
		if p.Projected {
			m = float64(p.D)
		}
		sch.Step = p.Radius / (math.Sqrt(float64(sch.Steps)) * math.Sqrt(p.G*p.G+m*sch.Sigma*sch.Sigma))
	}
	return sch, nil
}

func clampSteps(t float64) int { return int(math.Max(MinSteps, math.Min(MaxSteps, t))) }

// Run performs the schedule on set: θ_{t+1} = Π(θ_t − h·(∇L(θ_t) + σ·ξ_t)),
// θ₀ = 0, ξ_t ~ N(0, I) drawn by rng.Normals53 from r (the 53-bit polar
// method; not math/rand/v2's NormFloat64, whose ziggurat's density is off by
// up to 3·10⁻⁷ relative and has a hole just below |x| = 3.4426, which over
// the T·d draws of a run could cost up to T·d·4.9·10⁻⁷ in ε and
// e^ε·T·d·2.35·10⁻¹⁰ in δ: issue 51, core/rng/source.go), and returns the
// averaged iterate. progress
// (may be nil) gets (done, total) steps every 64 steps. set.G() must not
// exceed the G the schedule was calibrated for (the caller's Params.G).
// For a smooth loss the gradient pass is loss.Set.Gradient (blocks of
// pass.go); otherwise loss.Set.Subgradient.
func Run(ctx context.Context, set *loss.Set, sch Schedule, r *rand.Rand, progress func(done, total int)) ([]float64, error) {
	return RunOn(ctx, set, nil, sch, r, progress)
}

// RunOn is Run with the gradient passes of a smooth loss on the shards of
// sh (a loss.Sharded of set: natively goroutines, in the browser Web
// Workers); sh nil runs them on the caller. The result is the same bits for
// every number of shards and for sh nil: Sharded.Linearize's gradient is
// Set.Gradient's bit for bit (loss/shard.go, TestRunShardedSameBits). sh is
// ignored for a loss that is not smooth.
func RunOn(ctx context.Context, set *loss.Set, sh *loss.Sharded, sch Schedule, r *rand.Rand, progress func(done, total int)) ([]float64, error) {
	d := set.Dim()
	theta := make([]float64, d)
	grad := make([]float64, d)
	noise := make([]float64, d)
	avg := make([]float64, d)
	_, smooth := set.Smooth()
	var lin []float64
	if sh != nil && smooth {
		lin = make([]float64, 3*set.N())
	}
	first := 0
	if sch.Average == AverageSuffix {
		first = sch.Steps / 2
	}
	w := 1 / float64(sch.Steps-first)
	for t := 0; t < sch.Steps; t++ {
		if t%64 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			if progress != nil && t > 0 {
				progress(t, sch.Steps)
			}
		}
		switch {
		case lin != nil:
			sh.Linearize(theta, grad, lin)
		case smooth:
			set.Gradient(theta, grad)
		default:
			set.Subgradient(theta, grad)
		}
		rng.Normals53(r, noise)
		for j := range theta {
			theta[j] -= sch.Step * (grad[j] + sch.Sigma*noise[j])
		}
		if sch.Projected {
			if nn := math.Sqrt(dot(theta, theta)); nn > sch.Radius {
				for j := range theta {
					theta[j] *= sch.Radius / nn
				}
			}
		}
		if t >= first {
			for j := range avg {
				avg[j] += w * theta[j]
			}
		}
	}
	if progress != nil {
		progress(sch.Steps, sch.Steps)
	}
	return avg, nil
}

func dot(a, b []float64) float64 {
	var s float64
	for i := range a {
		s += a[i] * b[i]
	}
	return s
}
