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
// of parameters: λ = 1/(4G_f² ln(1/τ₁)), rgoBias(τ₁) ≤ τ_step/2, the KL bound
// αW²/((1+αλ)^{2T} − 1) ≤ 2τ_c² (so Pinsker gives TV ≤ τ_c), and
// τ_B + τ_c + T·τ_step ≤ τ.
func TestPlanBudget(t *testing.T) {
	for _, n := range []int{1, 10, 569, 100000} {
		for _, d := range []int{1, 30, 1000} {
			for _, tv := range []float64{0.1, 1e-6, 1e-12} {
				for _, mode := range []string{ModeFull, ModeStochastic} {
					p := Params{N: n, D: d, G: 2, Eta: 3, Mu: 0.5, TV: tv, Mode: mode}
					pl := mustPlan(t, p)
					gf := p.Eta * p.G
					if l := 1 / (4 * gf * gf * math.Log(1/pl.Tau1)); math.Abs(l-pl.Lambda) > 1e-12*l {
						t.Errorf("%+v: λ = %g, want %g", p, pl.Lambda, l)
					}
					tstep := tv / (2 * float64(pl.Steps))
					if pl.TauStep > tstep*(1+1e-9) || rgoBias(mode, pl.Tau1) > tstep/2*(1+1e-9) {
						t.Errorf("%+v: τ_step = %g, bias %g, allowed %g", p, pl.TauStep, rgoBias(mode, pl.Tau1), tstep)
					}
					kl := pl.Alpha * pl.W2 / math.Expm1(2*float64(pl.Steps)*math.Log1p(pl.Alpha*pl.Lambda))
					if kl > 2*pl.TauC*pl.TauC*(1+1e-9) {
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
	if r := base.Lambda / dbl.Lambda; r < 4 || r > 4.3 { // 4 × the ratio of ln(1/τ₁)
		t.Errorf("doubling η multiplied 1/λ by %.3f, want in [4, 4.3]", r)
	}
}

func TestPlanAutoMode(t *testing.T) {
	for _, c := range []struct {
		n    int
		want string
	}{{1, ModeFull}, {2, ModeFull}, {3, ModeStochastic}, {569, ModeStochastic}} {
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
