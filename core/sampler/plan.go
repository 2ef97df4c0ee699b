package sampler

import (
	"fmt"
	"math"

	"github.com/dpsample/dpsample/core/checks"
)

// Modes of the restricted Gaussian oracle.
const (
	ModeAuto       = "auto"       // the cheaper of the two by expected loss evaluations
	ModeFull       = "full"       // f evaluated on all n records per proposal (2n evaluations per trial)
	ModeStochastic = "stochastic" // one random fᵢ per query (Poisson/Bernoulli factory, ≤ 2K per trial)
)

// Offset is the constant c of the two-sample acceptance rule
// exp(f(X′) − f(X) − c), and FactoryRate the Poisson rate K = 2c of the
// Bernoulli factory (§1.5): each draw rejects with probability
// clip(f_J(X) − f_J(X′) + c, 0, K)/K.
//
// Choice of c and K (issue 31). At scale s (rgobound.go) the TV bias of a
// call is a function of the thresholds c (clamp, lower clip) and K − c
// (upper clip) in units of s, so s ∝ c at a fixed bias, λ ∝ s² and T ∝ 1/c²;
// a trial accepts with probability ≈ e^{−c}, and a stochastic RGO call makes
// ≤ K(1 − p)/(p ln(1/p)) ≈ K(e^c − 1)/c factory draws (StepDraws; 2 loss
// evaluations each). The planned loss evaluations are then ∝ K(e^c − 1)/c³,
// with K − c ≥ c (a smaller K − c makes the upper clip the binding tail),
// i.e. ∝ (e^c − 1)/c² at K = 2c: minimal at c ≈ 1.59, flat around it.
// Planned loss evaluations of NewPlan (WorkTotal; breast cancer's hinge at
// ε = 1 through mechanism.NewPlan: n = 455, d = 31, ηG²/μ = 3430,
// τ = 1.34·10⁻⁶), relative to c = 1.5, K = 3:
//
//	c, K     1, 2    1.25, 2.5   1.4, 2.8   1.5, 3   1.55, 3.1   1.6, 3.2   1.7, 3.4   1.5, 2.94   1.5, 3.1
//	evals    1.105   1.027       1.006      1        0.999       1.000      1.004      1.028       1.018
//
// c = 1.5 is kept over 1.55–1.6 (0.1 % fewer evaluations) for its fewer
// trials per step, each of which draws 2d normals. Full mode (2n evaluations
// per trial, no factory) would prefer c = 2 (∝ e^c/c²: 7 % fewer than at
// 1.5); auto picks it only for n = 1, so both modes share c.
const (
	Offset      = 1.5
	FactoryRate = 2 * Offset
)

// MaxSteps is the largest T NewPlan accepts (about a day of native work).
const MaxSteps = 1e12

// Params are the data-independent inputs of the sampler. The potential is
// F(x) = η·L(x) + (ημ/2)‖x‖², with L the mean of n convex losses each
// G-Lipschitz in x ∈ ℝ^d; TV is the total-variation budget of the output.
type Params struct {
	N, D int     // records, dimension
	G    float64 // Lipschitz constant of each loss l(·; z)
	Eta  float64 // inverse temperature η
	Mu   float64 // regularisation μ
	TV   float64 // total-variation budget τ, in (0, 1)
	Mode string  // "auto" (or ""), "full" or "stochastic"
	Work string  // WorkAdaptive (""), WorkPerStep or WorkTotal (work.go)
}

// Plan is everything Run needs, all computed from Params alone (never from the
// data). The TV budget τ is spent as
//
//	τ = TauC + Steps·TauStep + TauOver,  TauC = ρ·(τ − τ_over),  Steps·TauStep ≤ (1 − ρ)·(τ − τ_over),
//
// where
//   - TauC: the exact proximal sampler after T = Steps steps from
//     x₀ ~ N(0, α⁻¹I) is within TV τ_c of π (CCSW22 + Pinsker, see NewPlan);
//   - TauStep: the per-step TV error of the inexact RGO: the clamp/clip bias
//     (rgoBias(Scale)), the trial cap and, in stochastic mode, the Poisson cap;
//   - TauOver: with Work = WorkTotal, P(the run's total trial or factory
//     budget runs out) ≤ τ_over = OverShare·τ (TotalBudget, DrawBudget); 0
//     and τ_over = 0 otherwise;
//   - ρ = MixShare, chosen by NewPlan to minimise the planned loss evaluations.
type Plan struct {
	Params

	Steps  int     // T: the number of alternating steps; always run in full
	Lambda float64 // λ = s²/(2G_f² − s²α), G_f = ηG: the step at which Z has scale s
	Alpha  float64 // α = ημ
	// RadiusBall is LLL Lemma E.3's data-independent radius at τ_B = τ:
	// π(‖θ‖ > R) ≤ τ. It is reported (the released θ lies in B(0, R) with
	// probability ≥ 1 − τ) but NOT enforced as a truncation: restricting the
	// RGO's proposals to B(0, R) makes the acceptance rate depend on the
	// proposal's mass in B, which has no lower bound uniform in y, so the
	// trial budget — and hence the TV bound — could not be proven. Without
	// the ball every bound below holds for every y, because each loss is
	// G-Lipschitz on all of ℝ^d (features are clipped) and the target is
	// Algorithm 1's π on ℝ^d itself.
	RadiusBall float64
	KL0        float64 // KL(N(0, α⁻¹I) ‖ π) ≤ G_f²/(2α) = ηG²/(2μ): the start's divergence
	Scale      float64 // s = √2·G_f·σ, σ² = λ/(1+λα): the isoperimetric scale of Z (rgobound.go)
	MixShare   float64 // ρ: TauC = ρ·(τ − τ_over)
	TauC       float64 // mixing share of TV
	TauStep    float64 // per-step TV error of the RGO (all causes)
	// TrialBudget is M: proposal pairs per RGO call before the call counts
	// as failed; PoissonCap: stochastic mode, Poisson draws are truncated at
	// this value.
	TrialBudget int
	PoissonCap  int
	Mode        string // "full" or "stochastic" (never "auto")
	// PMin lower-bounds the acceptance probability of every trial, for every
	// data set and every y: e^{−c}(1 − rgoBias) (− P(N > cap), stochastic).
	PMin float64
	// StepDraws bounds E[factory draws per RGO call] for every data set and
	// y (stochastic mode; rgobound.go): K(1 − p)/(p ln(1/p)) at
	// p = e^{−c}(1 − rgoBias), ≈ K(e^c − 1)/c.
	StepDraws float64
	// TrialTotal is B, the run's total trial budget (WorkTotal; 0 otherwise),
	// FactoryTotal B_f its total of factory draws (WorkTotal, stochastic
	// mode), and TauOver the bound on P(either overruns) (TotalBudget,
	// DrawBudget).
	TrialTotal   int64
	FactoryTotal int64
	TauOver      float64

	// ExpectedLossEvals is the expected number of loss evaluations of the whole
	// run (an upper bound: 2n/p_min per step in full mode, 2·StepDraws per
	// step in stochastic mode); with fixed work it is
	// the exact count: 2n (full) or 2·PoissonCap (stochastic: every trial
	// runs the factory to its cap) per trial, T·M trials (WorkPerStep), or
	// 2n·B (full) and 2·B_f (stochastic) with WorkTotal.
	ExpectedLossEvals float64
	// ChunkSteps is the number of steps between progress callbacks: about 10⁶
	// "units" (d per Gaussian coordinate, d per loss evaluation), ≈ 5–10 ms of
	// native work and ≈ 20–35 ms under wasm/node.
	ChunkSteps int

	start []float64 // test hook: a fixed start instead of N(0, α⁻¹I) (breaks the guarantee)
}

// Radius is the data-independent ball radius of LLL Lemma E.3:
// ‖θ*‖ ≤ G/μ because μθ* = −∇L(θ*) has norm ≤ G; E‖x−θ*‖ ≤ √(d/α) for the
// α-strongly log-concave π; ‖x−θ*‖ is 1-Lipschitz, so by Gaussian
// concentration P(‖x‖ ≥ G/μ + √(d/α) + t) ≤ exp(−αt²/2) = τ_B at
// t = √(2 ln(1/τ_B)/α).
func Radius(g, mu, alpha float64, d int, tauB float64) float64 {
	return g/mu + math.Sqrt(float64(d)/alpha) + math.Sqrt(2*math.Log(1/tauB)/alpha)
}

// Shares of the per-step RGO budget τ_step given to the trial cap M and to
// the Poisson cap (stochastic); the rest goes to the clamp/clip bias. With
// WorkAdaptive and WorkTotal the caps cost no planned work (a run stops at
// its first acceptance; the totals B and B_f do not depend on M or the cap),
// so they get 1/64 each: the bias then gets 31/32 of τ_step instead of ½,
// worth ln(31/16) ≈ 0.66 of the ≈ 25 units of (c/s)²/2 that set λ (the
// larger M and cap only bound the worst case). With WorkPerStep every step
// runs M trials to the cap, so they keep ¼ each, as before.
const (
	capShareFree    = 1.0 / 64
	capSharePerStep = 1.0 / 4
)

// mixShares are the values of ρ = τ_c/(τ − τ_over) NewPlan tries. T is a
// product of two logarithms, ln(KL₀/(2τ_c²)) from the mixing bound and
// ≈ (c/s)²/2 ≈ ln(T/τ_R) from the bias, so the optimum ρ* solves
// 2·(c/s)²/2/ρ = ln(KL₀/(2τ_c²))/(1 − ρ): ρ* ≈ 0.6 for the budgets of
// Algorithm 1 (τ ≈ 10⁻⁶); the planned work is flat near it (≈ 0.2 % between
// ρ = ½ and ρ*), so a grid suffices.
var mixShares = []float64{0.35, 0.4, 0.45, 0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8}

// NewPlan validates p and computes T, λ, R, τ's and the trial budgets from
// the TV budget alone.
//
// Mixing. Run starts at x₀ ~ ρ₀ = N(0, α⁻¹I), data-independent. Writing
// π = ρ₀·e^{−f}/Z, KL(ρ₀‖π) = E_ρ₀ f + ln E_ρ₀ e^{−f} = ln E_ρ₀ e^{−(f − E_ρ₀ f)}
// ≤ G_f²/(2α) = KL₀, because f is G_f-Lipschitz and ρ₀ is Gaussian with
// covariance α⁻¹I (Herbst: E e^{g − E g} ≤ e^{Lip(g)²/(2α)}); equality for
// linear f. π is α-strongly log-concave, so it satisfies LSI(1/α)
// (Bakry–Émery), and the exact proximal sampler contracts KL by (1+αλ)⁻²
// per step (Chen–Chewi–Salim–Wibisono 2022, Thm 3: KL(ρ_T‖π) ≤
// KL(ρ₀‖π)/(1+αλ)^{2T}, each half-step a Gaussian channel contracting KL by
// 1/(1+αλ) under the LSI of π and of π∗N(0, λI); theorem number as recalled
// in design/privacy-and-sampler.md, the paper not re-read here. The rate is
// attained by a Gaussian π, whose mean contracts by 1/(1+αλ) per step, so
// it is tight). With Pinsker, TV ≤ √(KL/2) ≤ τ_c when
//
//	T ≥ ln(KL₀/(2τ_c²)) / (2 ln(1 + αλ))      (T ≥ 1; the log is clamped at 0).
//
// The planner before issue 31 started at x₀ = 0 and used CCSW22's W₂ bound
// KL(ρ_T‖π) ≤ αW²/((1+αλ)^{2T} − 1) with αW² ≤ (√(G_f²/α) + √d)² ≥ 2·KL₀:
// a log argument at least twice as large, plus the √d terms.
//
// RGO. Given T, τ_step = (1 − ρ)(τ − τ_over)/T is split between the trial
// cap, the Poisson cap (capShareFree or capSharePerStep each) and the bias;
// the scale s is the largest with rgoBias(s) ≤ the bias share (scaleFor),
// and λ = s²/(2G_f² − s²α) is the step at which σ² = λ/(1+λα) gives
// 2G_f²σ² = s². λ depends on T and T on λ: T is iterated from 1,
// T_{k+1} = T_req(λ(T_k)), which increases and stops as soon as
// T_k ≥ T_req(λ(T_k)), the condition the guarantee needs.
//
// Mode "auto" (or "") picks the mode with fewer expected loss evaluations
// under the plan's work mode; ρ is the share in mixShares with the fewest.
func NewPlan(p Params) (Plan, error) {
	if err := checks.IntRange("n", p.N, 1, 1_000_000_000); err != nil {
		return Plan{}, err
	}
	if err := checks.IntRange("d", p.D, 1, 1_000_000); err != nil {
		return Plan{}, err
	}
	if err := checks.Positive("G", p.G); err != nil {
		return Plan{}, err
	}
	if err := checks.Positive("eta", p.Eta); err != nil {
		return Plan{}, err
	}
	if err := checks.Positive("mu", p.Mu); err != nil {
		return Plan{}, err
	}
	if err := checks.Probability("tv", p.TV); err != nil {
		return Plan{}, err
	}
	if err := checkWork(p.Work); err != nil {
		return Plan{}, err
	}
	switch p.Mode {
	case "", ModeAuto:
		full, err := plan(p, ModeFull)
		if err != nil {
			return Plan{}, err
		}
		st, err := plan(p, ModeStochastic)
		if err != nil {
			return Plan{}, err
		}
		if full.ExpectedLossEvals <= st.ExpectedLossEvals {
			return full, nil
		}
		return st, nil
	case ModeFull, ModeStochastic:
		return plan(p, p.Mode)
	}
	return Plan{}, &checks.Error{Field: "mode", Rule: `one of "auto", "full", "stochastic"`, Got: fmt.Sprintf("%q", p.Mode)}
}

// plan plans one mode: every ρ of mixShares, the one with the fewest
// expected loss evaluations (adaptive count), then the totals of WorkTotal.
func plan(p Params, mode string) (Plan, error) {
	alpha := p.Eta * p.Mu
	gf := p.Eta * p.G
	for _, v := range []float64{alpha, gf, gf * gf / alpha} {
		if v == 0 || math.IsInf(v, 0) || math.IsNaN(v) {
			return Plan{}, checks.Errorf("eta", "such that ηG, ημ and ηG²/μ are finite and non-zero (G=%s, eta=%s, mu=%s)",
				checks.Fmt(p.G), checks.Fmt(p.Eta), checks.Fmt(p.Mu))
		}
	}
	var best Plan
	var firstErr error
	for _, rho := range mixShares {
		pl, err := planShare(p, mode, rho)
		if err != nil {
			if firstErr == nil {
				firstErr = err
			}
			continue
		}
		if best.Steps == 0 || pl.ExpectedLossEvals < best.ExpectedLossEvals {
			best = pl
		}
	}
	if best.Steps == 0 {
		return Plan{}, firstErr
	}
	best.budgets()
	return best, nil
}

// planShare plans one mode at mixing share rho (the λ↔T fixed point of
// NewPlan), with ExpectedLossEvals the adaptive count (WorkAdaptive,
// WorkTotal) or the exact one (WorkPerStep).
func planShare(p Params, mode string, rho float64) (Plan, error) {
	alpha := p.Eta * p.Mu
	gf := p.Eta * p.G
	tau := p.TV
	over := 0.0
	if p.Work == WorkTotal {
		over = OverShare * tau
	}
	pl := Plan{Params: p, Mode: mode, Alpha: alpha, MixShare: rho, TauC: rho * (tau - over)}
	pl.Params.Mode = mode
	tauR := tau - over - pl.TauC
	pl.RadiusBall = Radius(p.G, p.Mu, alpha, p.D, tau)
	pl.KL0 = p.Eta * p.G * p.G / (2 * p.Mu) // G_f²/(2α), formed without ηG·ηG
	logNum := math.Max(0, math.Log(pl.KL0/(2*pl.TauC*pl.TauC)))

	shareFail, sharePois := capShareFree, capShareFree
	if p.Work == WorkPerStep {
		shareFail, sharePois = capSharePerStep, capSharePerStep
	}
	if mode == ModeFull {
		sharePois = 0
	}
	ec := math.Exp(Offset)
	// A trial accepts with probability ≥ E W − E|a − W| ≥
	// e^{−c}(1 − rgoBias) − P(N > cap) for every y (rgo.go), so M trials all
	// fail with probability ≤ (1 − pmin)^M.
	type rgo struct {
		lam, s, tstep, pmin float64
		m, pc               int
	}
	rgoFor := func(T float64) (rgo, bool) {
		var g rgo
		g.tstep = tauR / T
		if mode == ModeStochastic {
			g.pc = 8
			for ec*poissonTail(FactoryRate, g.pc) > sharePois*g.tstep {
				g.pc++
			}
		}
		g.s = scaleFor(mode, (1-shareFail-sharePois)*g.tstep)
		if g.s == 0 {
			return g, false
		}
		// σ² = λ/(1+λα) < 1/α caps s² below 2G_f²/α; past 0.99 of that the
		// step is ≥ 99/α and T is 1 or 2 anyway.
		s2 := math.Min(g.s*g.s, 0.99*2*gf*gf/alpha)
		g.lam = s2 / (2*gf*gf - s2*alpha)
		g.pmin = (1 - rgoBias(mode, g.s)) / ec
		if mode == ModeStochastic {
			g.pmin -= poissonTail(FactoryRate, g.pc)
		}
		g.m = int(math.Ceil(math.Log(shareFail*g.tstep) / math.Log1p(-g.pmin)))
		return g, true
	}
	stepsFor := func(lam float64) float64 { return math.Max(1, math.Ceil(logNum/(2*math.Log1p(alpha*lam)))) }

	T := 1.0
	for it := 0; ; it++ {
		g, ok := rgoFor(T)
		if !ok {
			return Plan{}, checks.Errorf("tv", "a budget for which the RGO's bias can be made small enough (τ = %s)", checks.Fmt(tau))
		}
		next := stepsFor(g.lam)
		if next > MaxSteps || math.IsNaN(next) {
			return Plan{}, &checks.Error{Field: "eta", Rule: fmt.Sprintf("small enough that the sampler needs ≤ %g steps (T grows like ηG²/μ = n²s²/4)", MaxSteps),
				Got: fmt.Sprintf("ηG²/μ = %s, T ≈ %s", checks.Fmt(gf*gf/alpha), checks.Fmt(next))}
		}
		if next <= T {
			break
		}
		T = next
		if it > 200 {
			return Plan{}, checks.Errorf("tv", "a budget for which the λ↔T fixed point converges")
		}
	}
	g, _ := rgoFor(T)
	pl.Steps = int(T)
	pl.Lambda, pl.Scale, pl.TrialBudget, pl.PoissonCap, pl.PMin = g.lam, g.s, g.m, g.pc, g.pmin
	pl.TauStep = rgoBias(mode, g.s) + math.Pow(1-g.pmin, float64(g.m))
	if mode == ModeStochastic {
		pl.TauStep += ec * poissonTail(FactoryRate, g.pc)
		pl.StepDraws = StepDraws(FactoryRate, (1-rgoBias(mode, g.s))/ec)
	}
	perTrial, trials := 2*float64(p.N), 1/g.pmin // loss evaluations per trial; trials per step
	if mode == ModeStochastic {
		perTrial = 2 * pl.StepDraws * g.pmin // so that perTrial·trials = 2·StepDraws
	}
	if p.Work == WorkPerStep {
		trials = float64(g.m)
		if mode == ModeStochastic {
			perTrial = 2 * float64(g.pc)
		}
	}
	pl.ExpectedLossEvals = perTrial * trials * T
	pl.setChunk(trials, perTrial*trials)
	return pl, nil
}

// budgets sets the run's totals under WorkTotal (B, B_f, TauOver) and the
// exact planned loss evaluations they imply: P(trials > B) ≤ τ_over (full) or
// τ_over/2 and P(draws > B_f) ≤ τ_over/2 (stochastic).
func (pl *Plan) budgets() {
	if pl.Work != WorkTotal {
		return
	}
	over := OverShare * pl.TV
	if pl.Mode == ModeFull {
		pl.TrialTotal, pl.TauOver = TotalBudget(pl.Steps, pl.TrialBudget, pl.PMin, over)
		pl.ExpectedLossEvals = 2 * float64(pl.N) * float64(pl.TrialTotal)
		pl.setChunk(float64(pl.TrialTotal)/float64(pl.Steps), 2*float64(pl.N)*float64(pl.TrialTotal)/float64(pl.Steps))
		return
	}
	var tf float64
	pl.TrialTotal, pl.TauOver = TotalBudget(pl.Steps, pl.TrialBudget, pl.PMin, over/2)
	p := (1 - rgoBias(pl.Mode, pl.Scale)) / math.Exp(Offset)
	pl.FactoryTotal, tf = DrawBudget(pl.Steps, FactoryRate, p, pl.TrialTotal*int64(pl.PoissonCap), over/2)
	pl.TauOver += tf
	pl.ExpectedLossEvals = 2 * float64(pl.FactoryTotal)
	pl.setChunk(float64(pl.TrialTotal)/float64(pl.Steps), pl.ExpectedLossEvals/float64(pl.Steps))
}

// setChunk sets ChunkSteps from the trials and loss evaluations per step.
func (pl *Plan) setChunk(trials, evals float64) {
	units := float64(pl.D) * (1 + 2*trials + evals)
	pl.ChunkSteps = int(math.Max(1, math.Min(float64(pl.Steps), math.Round(ChunkWork/units))))
}

// ChunkWork is the work (≈ multiply-adds) of the samplers between two context
// checks and progress reports: ≈ 1 ms natively and a few ms in WebAssembly, so
// that a page sees ≥ 5 progress events per second and a cancel lands within
// 200 ms (docs/API.md) even when other work shares the CPU several times over.
const ChunkWork = 2.5e5
