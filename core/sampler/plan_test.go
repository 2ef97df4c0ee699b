package sampler

import (
	"errors"
	"math"
	"testing"

	"github.com/dpsample/dpsample/core/checks"
	"gonum.org/v1/gonum/stat/distuv"
)

func TestNewPlanBadInput(t *testing.T) {
	ok := Params{N: 100, D: 3, G: 1, Eta: 2, Mu: 0.1, TV: 1e-6}
	cases := []struct {
		field string
		edit  func(*Params)
	}{
		{"n", func(p *Params) { p.N = 0 }},
		{"n", func(p *Params) { p.N = -5 }},
		{"d", func(p *Params) { p.D = 0 }},
		{"d", func(p *Params) { p.D = 10_000_000 }},
		{"G", func(p *Params) { p.G = math.NaN() }},
		{"G", func(p *Params) { p.G = 0 }},
		{"eta", func(p *Params) { p.Eta = -1 }},
		{"eta", func(p *Params) { p.Eta = math.Inf(1) }},
		{"mu", func(p *Params) { p.Mu = 0 }},
		{"mu", func(p *Params) { p.Mu = math.Copysign(0, -1) }},
		{"tv", func(p *Params) { p.TV = 0 }},
		{"tv", func(p *Params) { p.TV = 1 }},
		{"tv", func(p *Params) { p.TV = math.NaN() }},
		{"mode", func(p *Params) { p.Mode = "fast" }},
		{"eta", func(p *Params) { p.Eta, p.Mu = 1e6, 1e-6 }}, // T ≈ 1e13 > MaxSteps
		{"eta", func(p *Params) { p.Eta, p.G = 1e-200, 1e-200 }},
	}
	for _, c := range cases {
		p := ok
		c.edit(&p)
		_, err := NewPlan(p)
		var ce *checks.Error
		if !errors.As(err, &ce) || ce.Field != c.field {
			t.Errorf("%+v: got error %v, want one naming %q", p, err, c.field)
		}
	}
	if _, err := NewPlan(ok); err != nil {
		t.Fatal(err)
	}
}

// TestPlanBudget checks the stated TV split and the λ↔T fixed point on a grid
// of parameters: λ = s²/(2G_f² − s²α) (σ² = λ/(1+λα) gives 2G_f²σ² = s²),
// rgoBias(s) within its share of τ_step, the KL bound
// KL₀/(1+αλ)^{2T} ≤ 2τ_c² (so Pinsker gives TV ≤ τ_c), and
// τ_c + T·τ_step ≤ τ.
func TestPlanBudget(t *testing.T) {
	for _, n := range []int{1, 10, 569, 100000} {
		for _, d := range []int{1, 30, 1000} {
			for _, tv := range []float64{0.1, 1e-6, 1e-12} {
				for _, mode := range []string{ModeFull, ModeStochastic} {
					p := Params{N: n, D: d, G: 2, Eta: 3, Mu: 0.5, TV: tv, Mode: mode}
					pl := mustPlan(t, p)
					gf := p.Eta * p.G
					s2 := pl.Scale * pl.Scale
					if l := s2 / (2*gf*gf - s2*pl.Alpha); math.Abs(l-pl.Lambda) > 1e-12*l {
						t.Errorf("%+v: λ = %g, want %g", p, pl.Lambda, l)
					}
					tstep := (tv - pl.TauC) / float64(pl.Steps)
					share := 1 - 2*capShareFree
					if mode == ModeFull {
						share = 1 - capShareFree
					}
					if pl.TauStep > tstep*(1+1e-9) || rgoBias(mode, pl.Scale) > share*tstep*(1+1e-9) {
						t.Errorf("%+v: τ_step = %g, bias %g, allowed %g", p, pl.TauStep, rgoBias(mode, pl.Scale), tstep)
					}
					kl := pl.KL0 / math.Exp(2*float64(pl.Steps)*math.Log1p(pl.Alpha*pl.Lambda))
					if kl > 2*pl.TauC*pl.TauC*(1+1e-9) && pl.KL0 > 2*pl.TauC*pl.TauC {
						t.Errorf("%+v: KL bound %g > 2τ_c² = %g", p, kl, 2*pl.TauC*pl.TauC)
					}
					if tot := pl.TauC + float64(pl.Steps)*pl.TauStep; tot > tv*(1+1e-9) {
						t.Errorf("%+v: total TV %g > %g", p, tot, tv)
					}
					if pl.Mode != mode || pl.TrialBudget < 10 || pl.ChunkSteps < 1 || pl.ChunkSteps > pl.Steps {
						t.Errorf("%+v: bad plan %+v", p, pl)
					}
				}
			}
		}
	}
}

// TestPlanScaling: T grows like G_f²/α = ηG²/μ (times logs), λ like 1/G_f².
func TestPlanScaling(t *testing.T) {
	base := mustPlan(t, Params{N: 100, D: 10, G: 1, Eta: 10, Mu: 0.01, TV: 1e-6, Mode: ModeStochastic})
	dbl := mustPlan(t, Params{N: 100, D: 10, G: 1, Eta: 20, Mu: 0.01, TV: 1e-6, Mode: ModeStochastic}) // G_f²/α ×2
	if r := float64(dbl.Steps) / float64(base.Steps); r < 2 || r > 2.4 {
		t.Errorf("doubling ηG²/μ multiplied T by %.3f, want in [2, 2.4]", r)
	}
	if r := base.Lambda / dbl.Lambda; r < 4 || r > 4.3 { // 4 × the ratio of the scales s²
		t.Errorf("doubling η multiplied 1/λ by %.3f, want in [4, 4.3]", r)
	}
}

func TestPlanAutoMode(t *testing.T) {
	for _, c := range []struct {
		n    int
		want string
	}{{1, ModeFull}, {2, ModeStochastic}, {3, ModeStochastic}, {569, ModeStochastic}} {
		pl := mustPlan(t, Params{N: c.n, D: 5, G: 1, Eta: 5, Mu: 0.1, TV: 1e-6, Mode: ModeAuto})
		if pl.Mode != c.want {
			t.Errorf("n=%d: auto chose %q, want %q", c.n, pl.Mode, c.want)
		}
	}
}

// TestRadius: for the Gaussian target of a linear loss, N(m*, α⁻¹I) with
// ‖m*‖ ≤ G/μ, P(‖x‖ > R) ≤ P(χ²_d > α(R − G/μ)²) must be ≤ τ_B (computed
// exactly with the χ² survival function). Dropping the concentration term
// √(2 ln(1/τ_B)/α) from R must break the bound.
func TestRadius(t *testing.T) {
	for _, d := range []int{1, 2, 10, 100, 1000} {
		for _, tauB := range []float64{1e-2, 1e-6, 1e-12} {
			for _, alpha := range []float64{0.1, 10} {
				g, mu := 1.0, alpha/4
				R := Radius(g, mu, alpha, d, tauB)
				chi := distuv.ChiSquared{K: float64(d)}
				tail := func(r float64) float64 { return chi.Survival(alpha * (r - g/mu) * (r - g/mu)) }
				if p := tail(R); p > tauB {
					t.Errorf("d=%d τ_B=%g α=%g: P(‖x‖>R) = %g > τ_B", d, tauB, alpha, p)
				}
				if p := tail(R - math.Sqrt(2*math.Log(1/tauB)/alpha)); p <= tauB {
					t.Errorf("d=%d τ_B=%g: the radius without its tail term still passed (%g)", d, tauB, p)
				}
			}
		}
	}
}

// planTV recomputes the TV bound of a plan from its Params and its
// run-time fields (T, λ, M, the Poisson cap, the totals B and B_f) alone,
// with the bounds of NewPlan's and rgobound.go's doc comments:
//
//	√(KL₀/2)·(1+αλ)^{−T} + T·(rgoBias(s) + e^c·P(N > cap) + (1 − p_min)^M) + P(overrun),
//
// KL₀ = ηG²/(2μ), s = √2·ηG·√(λ/(1+λα)), p_min = e^{−c}(1 − rgoBias(s)) −
// P(N > cap), and P(overrun) the Chernoff bounds of TotalBudget and
// DrawBudget evaluated at the plan's B and B_f.
func planTV(pl Plan) float64 {
	p := pl.Params
	alpha, gf := p.Eta*p.Mu, p.Eta*p.G
	kl0 := p.Eta * p.G * p.G / (2 * p.Mu)
	T := float64(pl.Steps)
	mix := math.Sqrt(kl0/2) * math.Exp(-T*math.Log1p(alpha*pl.Lambda))
	s := math.Sqrt2 * gf * math.Sqrt(pl.Lambda/(1+pl.Lambda*alpha))
	bias := rgoBias(pl.Mode, s)
	pmin := (1 - bias) / math.Exp(Offset)
	step := bias
	if pl.Mode == ModeStochastic {
		step += math.Exp(Offset) * poissonTail(FactoryRate, pl.PoissonCap)
		pmin -= poissonTail(FactoryRate, pl.PoissonCap)
	}
	step += math.Pow(1-pmin, float64(pl.TrialBudget))
	over := 0.0
	if p.Work == WorkTotal {
		over = trialOverrun(pl.Steps, pl.TrialBudget, pmin, pl.TrialTotal)
		if pl.Mode == ModeStochastic {
			pa := (1 - bias) / math.Exp(Offset)
			over += drawOverrun(pl.Steps, FactoryRate, pa, pl.TrialTotal*int64(pl.PoissonCap), pl.FactoryTotal, drawThetaMax(FactoryRate, pa))
		}
	}
	return mix + T*step + over
}

// tvCases is a table of (n, d, ε, G, μ) with η from the GDP parameter
// s_gdp = 2G√η/(n√μ) set to ε/√(2 ln(1/δ)) at δ = 10⁻⁵ (a stand-in for
// mechanism.Calibrate, which this package cannot import), so that
// ηG²/μ = n²s_gdp²/4; it includes breast cancer's hinge shape (n = 455,
// d = 31, G = √31) and diabetes' LAD (n = 354, d = 11, G = √11).
var tvCases = []struct {
	n, d       int
	eps, g, mu float64
}{
	{455, 31, 1, math.Sqrt(31), 0.26}, {354, 11, 1, math.Sqrt(11), 1.13}, {455, 31, 5, math.Sqrt(31), 0.26},
	{20, 1, 0.5, 1, 1}, {20, 1000, 5, 1, 0.01}, {189, 3, 1, math.Sqrt(3), 0.5},
	{1000, 100, 1, 10, 0.01}, {5000, 10, 0.5, 1, 2}, {50, 2, 8, 1, 0.1},
}

func tvCaseParams(n, d int, eps, g, mu, tv float64, mode, work string) Params {
	sg := eps / math.Sqrt(2*math.Log(1e5))
	eta := mu * math.Pow(float64(n)*sg/(2*g), 2)
	return Params{N: n, D: d, G: g, Eta: eta, Mu: mu, TV: tv, Mode: mode, Work: work}
}

// TestPlanTVTable: for every case, TV budget, mode and work mode the plan's
// TV bound recomputed by planTV is ≤ τ; a planner that drops the warm start's
// factor KL₀ (T from ln(1/(2τ_c²)) instead of ln(KL₀/(2τ_c²))) must exceed τ
// on every case with KL₀ ≥ 10 (all but n = 20, ε = 0.5, where KL₀ = 0.54 < 1
// and dropping it is conservative), and one whose λ is 1.5× too large for
// its bias budget on every case.
func TestPlanTVTable(t *testing.T) {
	for _, c := range tvCases {
		for _, tv := range []float64{1.3447e-6, 1e-3} {
			for _, mode := range []string{ModeFull, ModeStochastic} {
				for _, work := range []string{WorkAdaptive, WorkPerStep, WorkTotal} {
					p := tvCaseParams(c.n, c.d, c.eps, c.g, c.mu, tv, mode, work)
					pl := mustPlan(t, p)
					got := planTV(pl)
					if got > tv*(1+1e-9) {
						t.Errorf("%+v: TV bound %g > τ = %g (T=%d λ=%g)", p, got, tv, pl.Steps, pl.Lambda)
					}
					// Broken: no warm-start term.
					noWarm := pl
					noWarm.Steps = int(math.Max(1, math.Ceil(math.Log(1/(2*pl.TauC*pl.TauC))/(2*math.Log1p(pl.Alpha*pl.Lambda)))))
					if b := planTV(noWarm); b <= tv && pl.KL0 >= 10 {
						t.Errorf("%+v: the planner without the warm-start term passed (T=%d, TV %g ≤ %g)", p, noWarm.Steps, b, tv)
					}
					// Broken: λ too large for the bias budget.
					big := pl
					big.Lambda *= 1.5
					if b := planTV(big); b <= tv {
						t.Errorf("%+v: λ×1.5 passed (TV %g ≤ %g)", p, b, tv)
					}
				}
			}
		}
	}
}
