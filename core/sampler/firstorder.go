package sampler

import (
	"context"
	"math"
	"math/rand/v2"

	"github.com/dpsample/dpsample/core/checks"
	"github.com/dpsample/dpsample/core/rng"
)

// SmoothPotential is the data term of the first-order sampler:
// f(x) = η·L(x), L the mean of n GLM losses smooth in ⟨aᵢ, x⟩. It is
// implemented by loss.Set for the smooth losses (loss.Smooth); the curvature
// bound itself comes from the plan (public), not from the potential.
type SmoothPotential interface {
	N() int
	Dim() int
	// Linearize returns L(z), sets grad = ∇L(z) and fills lin (length
	// 3·N()) with what Bregman needs.
	Linearize(z, grad, lin []float64) float64
	// Bregman returns L(x) − L(z) − ⟨∇L(z), x − z⟩ ≥ 0 for the z of the
	// Linearize call that filled lin, summed per record.
	Bregman(x, lin []float64) float64
}

// GradientPotential is an optional cheaper pass of a SmoothPotential:
// Gradient sets grad = ∇L(z), bit for bit the grad of Linearize(z, grad, ·),
// without L(z) and lin (loss.Set; for the logistic loss it skips the log1p).
// With fixed work the anchor iterations before the last use it; a potential
// without it (loss.Sharded) runs Linearize there, with the same θ.
type GradientPotential interface {
	Gradient(z, grad []float64)
}

// First-order restricted Gaussian oracle (smooth-sampler.md §2). Target of a
// call: π_y(x) ∝ exp(−f(x) − ‖x − m‖²/(2σ²)), m = y/(1+λα), σ² = λ/(1+λα).
//
//  1. Anchor. z₀ = m − σ²∇f(z_prev) (the previous step's anchor; z₀ = m on
//     the first step), then gradient descent on the prox objective
//     h(x) = f(x) + ‖x − m‖²/(2σ²), μ_h = 1/σ²-strongly convex and
//     L_h = (1+κ)/σ²-smooth, with the step 2/(μ_h + L_h) = 2σ²/(2+κ):
//     z ← z + 2r/(2+κ), r = m − σ²∇f(z) − z = −σ²∇h(z). With this step
//     ‖z_{k+1} − z*‖ ≤ ρ‖z_k − z*‖, ρ = (L_h − μ_h)/(L_h + μ_h) = κ/(2+κ) ≤ ⅓
//     (Nesterov 2004, Thm 2.1.15; the step 1/L_h gives only κ/(1+κ) ≤ ½).
//     The warm start's distance is data-independent:
//     ‖z₀ − z*‖ = σ²‖∇f(z_prev) − ∇f(z*)‖ ≤ σ²ηD (z* = m − σ²∇f(z*)), D the
//     plan's bound on ‖∇ℓᵢ(u) − ∇ℓᵢ(v)‖ (≤ 2G; G for logistic, whose φ'
//     keeps one sign: loss.Set.GradSpread), and r = −(I + σ²H̄)(z − z*) with
//     0 ⪯ σ²H̄ ⪯ κI, so after k iterations ‖r_k‖ ≤ (1+κ)ρ^k·σ²ηD = a_k·σ
//     for every data set and every y.
//     Adaptive work: the loop stops on the computed residual,
//     ‖r‖ ≤ AnchorTol·σ, or after AnchorMax iterations (by then a_K ≤
//     AnchorTol). Fixed work: exactly AnchorMax iterations, the plan's K
//     (FirstOrderPlan.AnchorMax), and the residual is only bounded by
//     AnchorBound = a_K. The stop only changes speed: the law of the output
//     holds for every z.
//  2. Trials. Propose x ~ N(m − σ²∇f(z), σ²I) ∝ exp(−⟨∇f(z), x⟩ − ‖x − m‖²/(2σ²))
//     and accept with probability e^{−B(x)}, B = f(x) − f(z) − ⟨∇f(z), x − z⟩ ≥ 0
//     (convexity). Accepted x has density ∝ exp(−f(x) − ‖x − m‖²/(2σ²)) = π_y:
//     exact.
//  3. Acceptance. E_q B ≤ (η·Curv/2)(σ² + ‖r‖²) = (κ/2)(1 + ‖r‖²/σ²) for a GLM
//     (E⟨aᵢ, x − z⟩² = ⟨aᵢ, r⟩² + σ²‖aᵢ‖², ‖aᵢ‖ ≤ clip), so by Jensen each trial
//     accepts with probability ≥ PMin = e^{−(κ/2)(1+AnchorBound²)} for every
//     data set and every y — independent of n, d and rank (≥ e^{−17/16} ≈ 0.35
//     with adaptive work).
//  4. Cap. After M = TrialBudget rejections x is left unchanged; probability
//     ≤ (1 − PMin)^M, charged to TV (FirstOrderPlan.TauFail).

// foChain is the state of one first-order run; all buffers are allocated once.
type foChain struct {
	pot       SmoothPotential
	gradOnly  GradientPotential // pot's gradient-only pass, or nil
	r         *rand.Rand
	n         int
	d         int64
	eta       float64
	shrink    float64 // 1/(1+λα)
	sigma     float64
	s2eta     float64 // σ²·η
	sqrtLam   float64
	relax     float64 // 2/(2+κ)
	tol2      float64 // (AnchorBound·σ)²
	kmax      int
	trials    int
	pinAnchor bool  // fixed work: always kmax + 1 anchor passes
	padTrials bool  // WorkPerStep: always M trials
	budget    int64 // WorkTotal: B, trials left in the run; −1 without a total budget
	acceptAll bool
	x, m      []float64
	z, g, c   []float64 // anchor, ∇L(z), proposal centre m − σ²η∇L(z)
	prop      []float64
	lin       []float64
	st        Stats
	nonFinit  bool
}

// step performs one alternating step: y ← x + √λ·ξ, then x ← RGO(y).
// Every normal is rng.Normal53 (53-bit polar method): the released θ is the
// last accepted proposal c + σ·ξ, so its low bits are the generator's.
func (c *foChain) step() {
	r := c.r
	for j, xj := range c.x {
		c.m[j] = (xj + c.sqrtLam*rng.Normal53(r)) * c.shrink
	}
	c.st.Draws += c.d
	c.st.Steps++
	// Warm start z₀ = m − σ²η·∇L(previous anchor) (z₀ = m on the first step,
	// g = 0): no extra pass, and ‖z₀ − z*‖ ≤ 2σ²ηG still bounds K.
	for j, mj := range c.m {
		c.z[j] = mj - c.s2eta*c.g[j]
	}
	for k := 0; ; k++ {
		v := 0.0 // L(z): only its finiteness is used
		if c.gradOnly != nil && c.pinAnchor && k < c.kmax {
			c.gradOnly.Gradient(c.z, c.g) // not the last pass: lin not needed
		} else {
			v = c.pot.Linearize(c.z, c.g, c.lin)
		}
		c.st.LossEvals += int64(c.n)
		c.st.AnchorIters++
		rr := 0.0
		for j, mj := range c.m {
			cj := mj - c.s2eta*c.g[j]
			c.c[j] = cj
			e := cj - c.z[j]
			rr += e * e
		}
		if math.IsNaN(v) || math.IsInf(v, 0) || math.IsNaN(rr) || math.IsInf(rr, 0) {
			c.nonFinit = true
			return
		}
		if rr <= c.tol2 && !c.pinAnchor {
			break
		}
		if k == c.kmax {
			if rr > c.tol2 {
				c.st.AnchorMisses++
			}
			break
		}
		for j, cj := range c.c {
			c.z[j] += (cj - c.z[j]) * c.relax
		}
	}
	accepted := false
	for k := 0; k < c.trials; k++ {
		if c.budget == 0 {
			c.st.Overruns++
			return // the run's trial budget is spent: x stays (charged to TV)
		}
		b := c.trial()
		if c.nonFinit {
			return
		}
		u := r.Float64()
		if accepted {
			continue // a padding trial (WorkPerStep): drawn, evaluated, discarded
		}
		if c.acceptAll || u < math.Exp(-b) {
			c.x, c.prop = c.prop, c.x
			accepted = true
			if !c.padTrials {
				return
			}
		}
	}
	if !accepted {
		c.st.Failures++
	}
}

// trial draws a proposal c + σξ into prop and returns η·B(prop), counting one
// trial, its loss evaluations and its d + 1 draws (the uniform of the
// acceptance test is drawn by the caller, step or pad, for every trial).
func (c *foChain) trial() float64 {
	c.st.Trials++
	c.st.Draws += c.d + 1
	if c.budget > 0 {
		c.budget--
	}
	for j, cj := range c.c {
		c.prop[j] = cj + c.sigma*rng.Normal53(c.r)
	}
	b := c.eta * c.pot.Bregman(c.prop, c.lin)
	c.st.LossEvals += int64(c.n)
	if math.IsNaN(b) || math.IsInf(b, 0) {
		c.nonFinit = true
	}
	return b
}

// pad spends the rest of the total trial budget (WorkTotal) on trials at the
// last anchor, each drawn, evaluated and discarded with its uniform, so that
// the run does exactly B trials. prop is scratch here: x was copied out of
// the chain's buffers before.
func (c *foChain) pad() {
	for c.budget > 0 {
		c.trial()
		c.r.Float64()
		c.st.Padded++
	}
}

// RunFirstOrder draws one sample from π within TV pl.TV with the first-order
// proximal sampler, starting from x₀ = 0 and running exactly pl.Steps steps.
// The contract is Run's: chunks of pl.ChunkSteps steps, progress (may be nil,
// may block) after each chunk with (steps done, pl.Steps), ctx checked between
// chunks (a cancelled run returns ctx.Err() and no sample), no allocation in
// the hot loop. Work: T and the cap are fixed; with pl.Work = WorkAdaptive the
// anchor iterations and trials per step are random and data-dependent
// (≤ AnchorMax + 1 passes and a geometric number of trials with success
// probability ≥ PMin); with fixed work every step makes AnchorMax + 1
// anchor passes; with WorkPerStep or WorkTotal (work.go) the counters
// of Stats other than Failures, AnchorMisses, Overruns and Padded are
// functions of the plan alone.
func RunFirstOrder(ctx context.Context, pl FirstOrderPlan, pot SmoothPotential, r *rand.Rand, progress func(done, total int)) ([]float64, Stats, error) {
	if err := validateFirstOrder(pl, pot, r); err != nil {
		return nil, Stats{}, err
	}
	c := newFOChain(pl, pot, r)
	err := chunked(ctx, pl.Steps, pl.ChunkSteps, c.step, func() error {
		if c.nonFinit {
			return checks.Errorf("potential", "finite at every point (Linearize or Bregman returned NaN or ±Inf)")
		}
		return nil
	}, progress)
	if err != nil {
		return nil, c.st, err
	}
	out := make([]float64, pl.D)
	copy(out, c.x)
	if err := ctx.Err(); err != nil {
		return nil, c.st, err
	}
	c.pad()
	return out, c.st, nil
}

func newFOChain(pl FirstOrderPlan, pot SmoothPotential, r *rand.Rand) *foChain {
	d := pl.D
	buf := make([]float64, 6*d)
	sigma := math.Sqrt(pl.Sigma2)
	c := &foChain{
		pot:       pot,
		r:         r,
		n:         pl.N,
		d:         int64(d),
		eta:       pl.Eta,
		shrink:    1 / (1 + pl.Lambda*pl.Alpha),
		sigma:     sigma,
		s2eta:     pl.Sigma2 * pl.Eta,
		sqrtLam:   math.Sqrt(pl.Lambda),
		relax:     2 / (2 + pl.Kappa),
		tol2:      pl.AnchorBound * pl.AnchorBound * pl.Sigma2,
		kmax:      pl.AnchorMax,
		trials:    pl.TrialBudget,
		acceptAll: pl.acceptAll,
		pinAnchor: pl.Work != WorkAdaptive,
		padTrials: pl.Work == WorkPerStep,
		budget:    -1,
		x:         buf[:d:d],
		m:         buf[d : 2*d : 2*d],
		z:         buf[2*d : 3*d : 3*d],
		g:         buf[3*d : 4*d : 4*d],
		c:         buf[4*d : 5*d : 5*d],
		prop:      buf[5*d:],
		lin:       make([]float64, 3*pl.N),
	}
	if pl.Work == WorkTotal {
		c.budget = pl.TrialTotal
	}
	c.gradOnly, _ = pot.(GradientPotential)
	if pl.start != nil {
		copy(c.x, pl.start)
	}
	return c
}

func validateFirstOrder(pl FirstOrderPlan, pot SmoothPotential, r *rand.Rand) error {
	if pot == nil {
		return checks.Errorf("potential", "non-nil")
	}
	if r == nil {
		return checks.Errorf("rng", "non-nil")
	}
	if pl.Steps < 1 || pl.TrialBudget < 1 || pl.AnchorMax < 0 {
		return checks.Errorf("plan", "a plan made by NewFirstOrderPlan (steps and trial budget ≥ 1)")
	}
	if err := checkWork(pl.Work); err != nil {
		return err
	}
	if pl.Work == WorkTotal && pl.TrialTotal < int64(pl.Steps) {
		return checks.Errorf("plan", "a plan made by NewFirstOrderPlan (total trial budget ≥ T)")
	}
	for _, f := range []struct {
		name string
		v    float64
	}{{"plan.Lambda", pl.Lambda}, {"plan.Alpha", pl.Alpha}, {"plan.Eta", pl.Eta}, {"plan.Sigma2", pl.Sigma2}, {"plan.Kappa", pl.Kappa}} {
		if err := checks.Positive(f.name, f.v); err != nil {
			return err
		}
	}
	if pot.N() != pl.N {
		return checks.Errorf("potential", "a potential over the plan's n = %d records (got n = %d)", pl.N, pot.N())
	}
	if pot.Dim() != pl.D {
		return checks.Errorf("potential", "a potential in the plan's dimension d = %d (got d = %d)", pl.D, pot.Dim())
	}
	if pl.start != nil && len(pl.start) != pl.D {
		return checks.Errorf("plan", "a start of length d")
	}
	return nil
}
