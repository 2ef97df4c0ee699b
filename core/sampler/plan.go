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

// Offset is the constant c of the two-sample acceptance rule exp(f(X′) − f(X) − c).
const Offset = 1.0

// FactoryRate is the Poisson rate K of the Bernoulli factory (§1.5): each
// draw rejects with probability clip(f_J(X) − f_J(X′) + c, 0, K)/K.
const FactoryRate = 2.0

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
//	τ = TauC + Steps·TauStep + TauOver,  TauC = τ/2 − τ_over,  Steps·TauStep ≤ τ/2,
//
// where
//   - TauC: the exact proximal sampler after T = Steps steps from x₀ = 0 is
//     within TV τ_c of π (CCSW22 + Pinsker, see stepsFor);
//   - TauStep: the per-step TV error of the inexact RGO: the clamp/clip bias
//     (rgoBias(Tau1)), the trial cap and, in stochastic mode, the Poisson cap;
//   - TauOver: with Work = WorkTotal, P(the run's total trial budget runs
//     out) ≤ τ_over = OverShare·τ (TotalBudget); 0 and τ_over = 0 otherwise.
type Plan struct {
	Params

	Steps  int     // T: the number of alternating steps; always run in full
	Lambda float64 // λ = 1/(4·G_f²·ln(1/τ₁)), G_f = ηG
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
	RadiusBall  float64
	W2          float64 // W₂²(δ₀, π) ≤ (G/μ + √(d/α))², the start distance
	Tau1        float64 // clamp probability parameter: P(f(X′) − f(X) > c) ≤ τ₁ per pair
	TauC        float64 // mixing share of TV
	TauStep     float64 // per-step TV error of the RGO (all causes)
	TrialBudget int     // M: proposal pairs per RGO call before the call counts as failed
	PoissonCap  int     // stochastic mode: Poisson draws are truncated at this value
	Mode        string  // "full" or "stochastic" (never "auto")
	// PMin lower-bounds the acceptance probability of every trial, for every
	// data set and every y: e⁻¹ − rgoBias/e (− P(N > cap), stochastic).
	PMin float64
	// TrialTotal is B, the run's total trial budget (WorkTotal; 0 otherwise),
	// FactoryTotal B_f its total of factory draws (WorkTotal, stochastic
	// mode), and TauOver the bound on P(either overruns) (TotalBudget,
	// FactoryBudget).
	TrialTotal   int64
	FactoryTotal int64
	TauOver      float64

	// ExpectedLossEvals is the expected number of loss evaluations of the whole
	// run (an upper bound: 2n·e per step in full mode, 2K·e per step in
	// stochastic mode, e ≥ 1/P(accept)); with fixed work it is the exact count:
	// 2n (full) or 2·PoissonCap (stochastic: every trial runs the factory to
	// its cap) per trial, T·M trials (WorkPerStep) or B (WorkTotal).
	ExpectedLossEvals float64
	// ChunkSteps is the number of steps between progress callbacks: about 10⁶
	// "units" (d per Gaussian coordinate, d per loss evaluation), ≈ 5–10 ms of
	// native work and ≈ 20–35 ms under wasm/node.
	ChunkSteps int

	start []float64 // test hook: a non-zero start (breaks the guarantee)
}

// Radius is the data-independent ball radius of LLL Lemma E.3:
// ‖θ*‖ ≤ G/μ because μθ* = −∇L(θ*) has norm ≤ G; E‖x−θ*‖ ≤ √(d/α) for the
// α-strongly log-concave π; ‖x−θ*‖ is 1-Lipschitz, so by Gaussian
// concentration P(‖x‖ ≥ G/μ + √(d/α) + t) ≤ exp(−αt²/2) = τ_B at
// t = √(2 ln(1/τ_B)/α).
func Radius(g, mu, alpha float64, d int, tauB float64) float64 {
	return g/mu + math.Sqrt(float64(d)/alpha) + math.Sqrt(2*math.Log(1/tauB)/alpha)
}

// rgoBias bounds the TV distance between one uncapped RGO call and the exact
// π_y (derivation in rgo.go). With L = ln(1/τ₁):
//
//	full:        E(e^Z − e)₊ ≤ e·τ₁/(2L − 1)
//	stochastic:  e·τ₁/(2L − 1) + e·τ₁/L
func rgoBias(mode string, tau1 float64) float64 {
	l := math.Log(1 / tau1)
	b := math.E * tau1 / (2*l - 1)
	if mode == ModeStochastic {
		b += math.E * tau1 / l
	}
	return b
}

// tau1For returns the largest τ₁ ≤ 0.1 with rgoBias(τ₁) ≤ budget (bisection
// on ln τ₁; rgoBias is increasing on (0, 0.1]), rounded down.
func tau1For(mode string, budget float64) float64 {
	if rgoBias(mode, 0.1) <= budget {
		return 0.1
	}
	lo, hi := math.Log(budget)-10, math.Log(0.1) // rgoBias(e^lo) < budget
	for i := 0; i < 100; i++ {
		mid := (lo + hi) / 2
		if rgoBias(mode, math.Exp(mid)) <= budget {
			lo = mid
		} else {
			hi = mid
		}
	}
	return math.Exp(lo)
}

// poissonTail returns P(Poisson(k) > m).
func poissonTail(k float64, m int) float64 {
	p := math.Exp(-k) // P(N = i), built up to i = m
	for i := 1; i <= m; i++ {
		p *= k / float64(i)
	}
	// Sum the tail directly: 1 − CDF would round to 0 for the tails we need.
	tail := 0.0
	for i := m + 1; i < m+200; i++ {
		p *= k / float64(i)
		tail += p
	}
	return tail
}

// NewPlan validates p and computes T, λ, R, τ's and the trial budgets from
// the TV budget alone (the λ↔T fixed point of §1.3):
//
//	τ₁(T) from T·τ_step ≤ τ/2,  λ(T) = 1/(4G_f² ln(1/τ₁(T))),
//	T ≥ ln(1 + αW²/(2τ_c²)) / (2 ln(1 + αλ))     (KL bound of CCSW22 Thm 3, Pinsker),
//
// iterated from T = 1; T_{k+1} = T_req(λ(T_k)) increases and stops as soon as
// T_k ≥ T_req(λ(T_k)), which is the condition the guarantee needs.
// Mode "auto" (or "") picks the mode with fewer expected loss evaluations
// under the plan's work mode.
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

func plan(p Params, mode string) (Plan, error) {
	alpha := p.Eta * p.Mu
	gf := p.Eta * p.G
	d := float64(p.D)
	tau := p.TV
	over := 0.0
	if p.Work == WorkTotal {
		over = OverShare * tau
	}
	pl := Plan{Params: p, Mode: mode, Alpha: alpha, TauC: tau/2 - over}
	pl.Params.Mode = mode
	for _, v := range []float64{alpha, gf, gf * gf / alpha} {
		if v == 0 || math.IsInf(v, 0) || math.IsNaN(v) {
			return Plan{}, checks.Errorf("eta", "such that ηG, ημ and ηG²/μ are finite and non-zero (G=%s, eta=%s, mu=%s)",
				checks.Fmt(p.G), checks.Fmt(p.Eta), checks.Fmt(p.Mu))
		}
	}
	pl.RadiusBall = Radius(p.G, p.Mu, alpha, p.D, tau)
	w := p.G/p.Mu + math.Sqrt(d/alpha)
	pl.W2 = w * w
	// α·W² = (G√(η/μ) + √d)², formed without the possibly huge G/μ.
	aw := p.G*math.Sqrt(p.Eta/p.Mu) + math.Sqrt(d)
	logNum := math.Log1p(aw * aw / (2 * pl.TauC * pl.TauC))

	// Per step: half of τ_step to the clamp/clip bias, the rest to the caps.
	// A trial accepts with probability ≥ E W − E|a − W| ≥
	// e⁻¹ − rgoBias/e − P(N > cap) for every y (rgo.go), so M trials all fail
	// with probability ≤ (1 − pmin)^M.
	var pmin float64
	lambdaFor := func(T float64) (lam, tau1, tstep float64, m, pc int) {
		tstep = tau / (2 * T)
		tau1 = tau1For(mode, tstep/2)
		lam = 1 / (4 * gf * gf * math.Log(1/tau1))
		capShare := tstep / 2
		if mode == ModeStochastic {
			capShare = tstep / 4
			pc = 8
			for math.E*poissonTail(FactoryRate, pc) > capShare {
				pc++
			}
		}
		pmin = 1/math.E - rgoBias(mode, tau1)/math.E
		if mode == ModeStochastic {
			pmin -= poissonTail(FactoryRate, pc)
		}
		m = int(math.Ceil(math.Log(capShare) / math.Log1p(-pmin)))
		return
	}
	stepsFor := func(lam float64) float64 { return math.Ceil(logNum / (2 * math.Log1p(alpha*lam))) }

	T := 1.0
	for it := 0; ; it++ {
		lam, _, _, _, _ := lambdaFor(T)
		next := stepsFor(lam)
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
	lam, tau1, _, m, pc := lambdaFor(T)
	pl.Steps = int(T)
	pl.Lambda, pl.Tau1, pl.TrialBudget, pl.PoissonCap, pl.PMin = lam, tau1, m, pc, pmin
	pl.TauStep = rgoBias(mode, tau1) + math.Pow(1-pmin, float64(m))
	if mode == ModeStochastic {
		pl.TauStep += math.E * poissonTail(FactoryRate, pc)
	}
	perTrial := 2 * float64(p.N) // loss evaluations per trial
	if mode == ModeStochastic {
		perTrial = 2 * FactoryRate
		if p.Work == WorkPerStep {
			perTrial = 2 * float64(pc)
		}
	}
	trials := math.E // per step
	switch p.Work {
	case WorkPerStep:
		trials = float64(m)
	case WorkTotal:
		if mode == ModeFull {
			pl.TrialTotal, pl.TauOver = TotalBudget(pl.Steps, m, pmin, over)
		} else {
			var tf float64
			pl.TrialTotal, pl.TauOver = TotalBudget(pl.Steps, m, pmin, over/2)
			pl.FactoryTotal, tf = FactoryBudget(pl.TrialTotal, FactoryRate, pc, over/2)
			pl.TauOver += tf
			perTrial = 2 * float64(pl.FactoryTotal) / float64(pl.TrialTotal)
		}
		trials = float64(pl.TrialTotal) / T
	}
	perStep := perTrial * trials
	pl.ExpectedLossEvals = perStep * T
	units := d * (1 + 2*trials + perStep)
	pl.ChunkSteps = int(math.Max(1, math.Min(T, math.Round(ChunkWork/units))))
	return pl, nil
}

// ChunkWork is the work (≈ multiply-adds) of the samplers between two context
// checks and progress reports: ≈ 1 ms natively and a few ms in WebAssembly, so
// that a page sees ≥ 5 progress events per second and a cancel lands within
// 200 ms (docs/API.md) even when other work shares the CPU several times over.
const ChunkWork = 2.5e5
