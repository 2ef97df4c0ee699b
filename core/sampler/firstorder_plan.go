package sampler

import (
	"fmt"
	"math"

	"github.com/dpsample/dpsample/core/checks"
)

// Constants of the first-order RGO (smooth-sampler.md §2–3).
const (
	// StepRatio is c in λ = c/(η·Curv) with adaptive work: it makes
	// κ = σ²·η·Curv ≤ c. FixedStepRatio is c under fixed work.
	//
	// Any c > 0 gives the same law (the RGO is exact and CCSW22's mixing
	// bound holds for every step); c only trades steps for trials. T is
	// ∝ 1/c, and each step costs the anchor passes plus ≈ 1/p trials, where
	// p ≥ p_min = e^{−(κ/2)(1+a²)} on every data set. With adaptive work the
	// worst case per unit of work is (1 + e^{(c/2)(1+AnchorTol²)})/c: 2.7 at
	// c = 1, 1.95 at c = 2, 1.90 at c = 2.5, 1.97 at c = 3; on random rows
	// (logistic, d = 30, ε = 1) the passes per sample fell from c = 1 to c = 2
	// by 1.9× (1,129 → 600 at n = 455, 17,939 → 9,468 at n = 10⁴) and the time
	// by 1.5× and 1.7× (BenchmarkFixedWorkRows, native, 0.0458 → 0.0301 s and
	// 16.3 → 9.7 s). Under fixed work the plan's T·(K+1) + B also falls (3,481
	// → 3,139, 67,438 → 58,464: K doubles, B/T grows), but the time did not:
	// 0.120 → 0.135 s at n = 455 and 51.2 → 49.6 s at n = 10⁴, so fixed work
	// keeps c = 1. Issue 31; c was 1 in both modes before.
	StepRatio      = 2.0
	FixedStepRatio = 1.0
	// AnchorTol is the residual target of the anchor: the GD loop stops as
	// soon as ‖r‖ ≤ AnchorTol·σ (r = m − σ²∇f(z) − z).
	AnchorTol = 0.25
	// FailShare is the share of the TV budget given to the trial cap:
	// T·(1 − p_min)^M ≤ FailShare·τ.
	FailShare = 1e-3
)

// FirstOrderParams are the data-independent inputs of the first-order
// proximal sampler. The potential is F(x) = η·L(x) + (ημ/2)‖x‖² with L the
// mean of n GLM losses, each G-Lipschitz and with Hessian ⪯ Curv·I on all of
// ℝ^d (Curv = β·clip², loss.Set.Curvature).
type FirstOrderParams struct {
	N, D int
	G    float64 // Lipschitz constant of each loss
	Curv float64 // curvature bound β·clip² of each loss
	// Spread bounds ‖∇ℓ(u) − ∇ℓ(v)‖ for every record and all u, v
	// (loss.Set.GradSpread); 0 means 2G, and it is used as
	// max(G, min(2G, Spread)).
	Spread float64
	Eta    float64
	Mu     float64
	TV     float64 // total-variation budget τ, in (0, 1)
	// Work is the work mode (work.go): WorkAdaptive (""), WorkPerStep or
	// WorkTotal.
	Work string
}

// FirstOrderPlan is everything RunFirstOrder needs, computed from
// FirstOrderParams alone (never from the data). The TV budget is spent as
//
//	τ = TauC + TauFail + TauOver,  TauFail = Steps·FailBound,  FailBound = (1 − PMin)^Trials,
//
// TauC being the mixing error of the exact proximal sampler after T steps
// (CCSW22 Thm 3 + Pinsker, as in Plan): the first-order RGO is exact except
// when all M = TrialBudget trials of a call reject, and, with Work =
// WorkTotal, when the run's total trial budget runs out (TauOver; 0 in the
// other modes).
type FirstOrderPlan struct {
	FirstOrderParams

	Steps  int     // T
	Lambda float64 // λ = c/(η·Curv), c = StepRatio (adaptive) or FixedStepRatio
	Alpha  float64 // α = ημ
	Sigma2 float64 // σ² = λ/(1+λα), variance of the RGO's Gaussian
	Kappa  float64 // κ = σ²·η·Curv ≤ c: curvature of f in units of 1/σ²
	// AnchorMax is K: the most gradient-descent iterations on the prox
	// objective per step. Adaptive work: the data-independent worst case for
	// ‖r‖ ≤ AnchorTol·σ from the warm start z₀ = m − σ²∇f(z_prev),
	// ρ^K·σ²ηD·(1+κ) ≤ AnchorTol·σ with ρ = κ/(2+κ), D the Spread; the loop stops earlier
	// on the computed residual. Fixed work: every step runs exactly K
	// iterations, K chosen from public quantities to minimise the run's passes
	// (NewFirstOrderPlan), with the residual bound AnchorBound it guarantees.
	AnchorMax int
	// AnchorBound is the bound on ‖r‖/σ the anchor loop guarantees for every
	// data set: AnchorTol (adaptive), ρ^K·σηD·(1+κ) (fixed).
	AnchorBound float64
	// PMin = exp(−(κ/2)(1 + AnchorBound²)) lower-bounds the acceptance
	// probability of every trial (Jensen on E e^{−B}), for every data set and
	// every y.
	PMin        float64
	TrialBudget int     // M: trials per RGO call before it counts as failed
	FailBound   float64 // (1 − PMin)^M: the TV error of one call
	TauC        float64 // mixing share of TV
	TauFail     float64 // Steps·FailBound
	// TrialTotal is B, the run's total trial budget (WorkTotal; 0 otherwise),
	// and TauOver ≤ OverShare·τ the bound on P(overrun) (TotalBudget).
	TrialTotal int64
	TauOver    float64
	RadiusBall float64 // LLL Lemma E.3 radius (reported, not enforced; see Plan)
	W2         float64 // (G/μ + √(d/α))²

	// ExpectedLossEvals bounds the expected single-record loss evaluations:
	// T·n·(AnchorMax + 1 + 1/PMin); with fixed work it is the exact count,
	// T·n·(AnchorMax + 1 + M) (WorkPerStep) or T·n·(AnchorMax + 1) + B·n
	// (WorkTotal).
	ExpectedLossEvals float64
	// ChunkSteps is the number of steps between progress callbacks (≈ 10⁶
	// multiply-adds of work).
	ChunkSteps int

	start     []float64 // test hook: a non-zero start (breaks the guarantee)
	acceptAll bool      // test hook: a broken oracle that drops e^{−B}
}

// NewFirstOrderPlan validates p and computes λ, K, M and T (smooth-sampler.md
// §3):
//
//	λ = c/(η·Curv), σ² = λ/(1+λα), κ = σ²η·Curv, ρ = κ/(2+κ), a_k = ρ^k·σηD·(1+κ),
//	p_min = e^{−(κ/2)(1+a²)},  a = AnchorBound: AnchorTol (adaptive) or a_K (fixed work),
//	T = ⌈ln(1 + αW²/(2τ_c²)) / (2 ln(1 + αλ))⌉     (CCSW22's W₂ bound from x₀ = 0; NewPlan now starts at N(0, α⁻¹I) with a KL bound),
//	M = the least M with T₀·(1 − p_min)^M ≤ FailShare·τ, T₀ = T at τ_c = τ/2,
//	τ_c = τ − T₀·(1 − p_min)^M − τ_over  (≥ (1 − FailShare − OverShare)τ; T ≤ T₀ at this τ_c),
//
// τ_over = OverShare·τ with Work = WorkTotal (B from TotalBudget), else 0,
// and D = max(G, min(2G, Spread)) (2G without Spread). Adaptive work: K is the least k with a_k ≤ AnchorTol (the worst case of
// the residual stop). Fixed work: K is the k ∈ [0, K_adaptive]
// that minimises the run's passes T·(k+1) + T·M (WorkPerStep) or T·(k+1) + B
// (WorkTotal), each with the p_min its a_k guarantees (k with p_min <
// minPMin skipped). Every quantity is a function of p alone, so the choice
// is public; the law of each oracle call does not depend on K (the RGO is
// exact for every anchor), only the acceptance bound, M, B and the TV split do.
//
// Errors name the field ("n", "d", "G", "curvature", "eta", "mu", "tv", "work").
func NewFirstOrderPlan(p FirstOrderParams) (FirstOrderPlan, error) {
	if err := checks.IntRange("n", p.N, 1, 1_000_000_000); err != nil {
		return FirstOrderPlan{}, err
	}
	if err := checks.IntRange("d", p.D, 1, 1_000_000); err != nil {
		return FirstOrderPlan{}, err
	}
	for _, f := range []struct {
		name string
		v    float64
	}{{"G", p.G}, {"curvature", p.Curv}, {"eta", p.Eta}, {"mu", p.Mu}} {
		if err := checks.Positive(f.name, f.v); err != nil {
			return FirstOrderPlan{}, err
		}
	}
	if err := checks.Probability("tv", p.TV); err != nil {
		return FirstOrderPlan{}, err
	}
	if err := checkWork(p.Work); err != nil {
		return FirstOrderPlan{}, err
	}
	alpha := p.Eta * p.Mu
	lam := stepRatio(p.Work) / (p.Eta * p.Curv)
	for _, v := range []float64{alpha, lam, p.Eta * p.G} {
		if v == 0 || math.IsInf(v, 0) || math.IsNaN(v) {
			return FirstOrderPlan{}, checks.Errorf("eta", "such that ημ, ηG and 1/(η·curvature) are finite and non-zero (eta=%s, mu=%s)",
				checks.Fmt(p.Eta), checks.Fmt(p.Mu))
		}
	}
	pl := FirstOrderPlan{FirstOrderParams: p, Lambda: lam, Alpha: alpha}
	pl.Sigma2 = lam / (1 + lam*alpha)
	pl.Kappa = pl.Sigma2 * p.Eta * p.Curv
	sigma := math.Sqrt(pl.Sigma2)
	rho := pl.Kappa / (2 + pl.Kappa)
	// z* = m − σ²∇f(z*), so ‖z₀ − z*‖ = σ²‖∇f(z_prev) − ∇f(z*)‖ ≤ σ²ηD
	// (D = Spread ≤ 2G; ≤ σ²ηG on the first step, g = 0), and
	// ‖r‖ ≤ (1+κ)‖z − z*‖; after k iterations ‖z − z*‖ ≤ ρ^k·σ²ηD.
	spread := 2 * p.G
	if p.Spread > 0 {
		spread = max(p.G, min(2*p.G, p.Spread))
	}
	dist0 := pl.Sigma2 * p.Eta * spread * (1 + pl.Kappa) / sigma // ‖r₀‖/σ bound
	if start := dist0 / AnchorTol; start > 1 {
		pl.AnchorMax = int(math.Ceil(math.Log(start) / math.Log(1/rho)))
	}

	d := float64(p.D)
	pl.RadiusBall = Radius(p.G, p.Mu, alpha, p.D, p.TV)
	w := p.G/p.Mu + math.Sqrt(d/alpha)
	pl.W2 = w * w
	aw := p.G*math.Sqrt(p.Eta/p.Mu) + math.Sqrt(d)
	stepsFor := func(tauC float64) float64 {
		return math.Ceil(math.Log1p(aw*aw/(2*tauC*tauC)) / (2 * math.Log1p(alpha*lam)))
	}
	t0 := stepsFor(p.TV / 2)
	if t0 > MaxSteps || math.IsNaN(t0) {
		return FirstOrderPlan{}, &checks.Error{Field: "eta", Rule: fmt.Sprintf("such that the sampler needs ≤ %g steps", MaxSteps), Got: fmt.Sprintf("T ≈ %s", checks.Fmt(t0))}
	}
	over := 0.0
	if p.Work == WorkTotal {
		over = OverShare * p.TV
	}
	if p.Work == WorkAdaptive {
		pl.AnchorBound = AnchorTol
		pl.budgets(t0, over, stepsFor)
	} else {
		// Fixed work: K' iterations every step, K' ≤ K chosen to minimise the
		// run's passes T·(K'+1) + T·M (WorkPerStep) or + B (WorkTotal), each
		// K' with the acceptance bound its residual bound guarantees.
		best, bestK := math.Inf(1), pl.AnchorMax
		for k := 0; k <= pl.AnchorMax; k++ {
			q := pl
			q.AnchorBound = dist0 * math.Pow(rho, float64(k))
			if !q.budgets(t0, over, stepsFor) {
				continue
			}
			if c := float64(q.Steps)*float64(k+1) + q.trialsPlanned(); c < best {
				best, bestK = c, k
			}
		}
		pl.AnchorMax = bestK
		pl.AnchorBound = dist0 * math.Pow(rho, float64(bestK))
		pl.budgets(t0, over, stepsFor)
	}
	k1 := float64(pl.AnchorMax) + 1
	perStep := k1 + 1/pl.PMin // passes per step (expected)
	if p.Work != WorkAdaptive {
		perStep = k1 + pl.trialsPlanned()/float64(pl.Steps)
	}
	pl.ExpectedLossEvals = float64(pl.Steps) * float64(p.N) * perStep
	units := float64(p.N) * d * perStep
	pl.ChunkSteps = int(math.Max(1, math.Min(float64(pl.Steps), math.Round(ChunkWork/units))))
	return pl, nil
}

// stepRatio is c of the work mode: StepRatio (adaptive) or FixedStepRatio.
func stepRatio(work string) float64 {
	if work == WorkAdaptive {
		return StepRatio
	}
	return FixedStepRatio
}

// minPMin is the least acceptance bound a fixed-work plan considers: below
// it the trials of K' anchor iterations cost more than any pass they save.
const minPMin = 1e-3

// budgets sets PMin from AnchorBound, then M, FailBound, TauC, T, TauFail and,
// with WorkTotal, B and TauOver (see NewFirstOrderPlan); it returns false
// when PMin < minPMin (the fields are then not set).
func (pl *FirstOrderPlan) budgets(t0, over float64, stepsFor func(float64) float64) bool {
	pl.PMin = math.Exp(-pl.Kappa / 2 * (1 + pl.AnchorBound*pl.AnchorBound))
	if pl.PMin < minPMin {
		return false
	}
	m := math.Ceil(math.Log(FailShare*pl.TV/t0) / math.Log1p(-pl.PMin))
	pl.TrialBudget = max(1, int(m))
	pl.FailBound = math.Pow(1-pl.PMin, float64(pl.TrialBudget))
	pl.TauC = pl.TV - t0*pl.FailBound - over
	pl.Steps = int(stepsFor(pl.TauC))
	pl.TauFail = float64(pl.Steps) * pl.FailBound
	pl.TrialTotal, pl.TauOver = 0, 0
	if pl.Work == WorkTotal {
		pl.TrialTotal, pl.TauOver = TotalBudget(pl.Steps, pl.TrialBudget, pl.PMin, over)
	}
	return true
}

// trialsPlanned is the run's trials under fixed work: T·M (WorkPerStep) or B
// (WorkTotal).
func (pl *FirstOrderPlan) trialsPlanned() float64 {
	if pl.Work == WorkTotal {
		return float64(pl.TrialTotal)
	}
	return float64(pl.Steps) * float64(pl.TrialBudget)
}
