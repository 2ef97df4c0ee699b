package sampler

import (
	"context"
	"errors"
	"math"
	"testing"

	"github.com/dpsample/dpsample/core/checks"
	"github.com/dpsample/dpsample/core/loss"
	"github.com/dpsample/dpsample/core/rng"
	"github.com/dpsample/dpsample/core/sampler/exact"
	"github.com/dpsample/dpsample/core/stats"
	"gonum.org/v1/gonum/stat/distuv"
)

// foAlpha is the false-failure rate of every KS test of this file; the
// statistic is compared with stats.KSCritical(foAlpha, m) + TV, since the sampler's
// output law is within TV (the plan's budget) of π and that moves the CDF by
// at most TV.
const foAlpha = 1e-3

func mustSet(t testing.TB, k loss.Kind, x [][]float64, y []float64, p loss.Params) *loss.Set {
	t.Helper()
	s, err := loss.New(k, x, y, p)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func foPlan(t testing.TB, set *loss.Set, eta, mu, tv float64) FirstOrderPlan {
	t.Helper()
	pl, err := NewFirstOrderPlan(FirstOrderParams{N: set.N(), D: set.Dim(), G: set.G(), Curv: set.Curvature(), Eta: eta, Mu: mu, TV: tv})
	if err != nil {
		t.Fatal(err)
	}
	return pl
}

// foChains runs m independent first-order chains (seeds seed·10⁶ + i).
func foChains(t *testing.T, pl FirstOrderPlan, pot SmoothPotential, m int, seed uint64) ([][]float64, Stats) {
	t.Helper()
	out := make([][]float64, m)
	var tot Stats
	for i := range out {
		x, st, err := RunFirstOrder(context.Background(), pl, pot, rng.Seeded(seed*1_000_000+uint64(i)), nil)
		if err != nil {
			t.Fatal(err)
		}
		out[i] = x
		tot.Steps += st.Steps
		tot.Trials += st.Trials
		tot.Failures += st.Failures
		tot.AnchorIters += st.AnchorIters
		tot.AnchorMisses += st.AnchorMisses
	}
	return out, tot
}

// oneD returns a 1-D problem for a smooth loss: n = 12 records with
// features in ±[0.3, 1] and targets (labels ±1, or y ~ 0.8·N(0,1) for the
// regression losses), and the exact sampler of π(t) ∝ exp(−η(L(t) + μt²/2)).
func oneD(t *testing.T, k loss.Kind, eta, mu float64, seed uint64) (*loss.Set, *exact.LogConcave) {
	r := rng.Seeded(seed)
	n := 12
	x := make([][]float64, n)
	y := make([]float64, n)
	for i := range x {
		x[i] = []float64{(0.3 + 0.7*r.Float64()) * float64(2*r.IntN(2)-1)}
		if k.Classification() {
			y[i] = float64(2*r.IntN(2) - 1)
		} else {
			y[i] = 0.8 * r.NormFloat64()
		}
	}
	set := mustSet(t, k, x, y, loss.Params{Huber: 0.5})
	return set, exactFor(t, set, eta, eta*mu)
}

// exactFor is the exact 1-D sampler of exp(−(w·L(t) + αt²/2)).
func exactFor(t *testing.T, set *loss.Set, w, alpha float64) *exact.LogConcave {
	t.Helper()
	th := []float64{0}
	u := func(v float64) float64 { th[0] = v; return w*set.Mean(th) + alpha/2*v*v }
	lc, err := exact.NewLogConcave(u, 1/math.Sqrt(alpha))
	if err != nil {
		t.Fatal(err)
	}
	return lc
}

// The 1-D KS problems: η = 40, μ = 0.02 put the curvature of f (up to
// η·β·clip²) well above α = ημ = 0.8, so the Bregman correction matters
// (κ ≈ 0.9 for logistic).
var foKinds = []loss.Kind{loss.Logistic, loss.Huber, loss.SmoothHinge, loss.SmoothQuantile}

// TestFirstOrderKS1D: the first-order sampler's outputs against the exact
// 1-D sampler's CDF for each smooth loss, m = 3000 chains, α = 1e-3.
func TestFirstOrderKS1D(t *testing.T) {
	const eta, mu, tv = 40, 0.02, 1e-3
	m := numChains(3000)
	for i, k := range foKinds {
		set, lc := oneD(t, k, eta, mu, uint64(10+i))
		pl := foPlan(t, set, eta, mu, tv)
		xs, st := foChains(t, pl, set, m, uint64(20+i))
		ks, crit := stats.KS(column(xs, 0), lc.CDF), stats.KSCritical(foAlpha, m)+tv
		t.Logf("%v: T=%d K=%d M=%d κ=%.3f p_min=%.3f: KS %.4f (crit %.4f), acceptance %.3f, anchor passes/step %.2f",
			k, pl.Steps, pl.AnchorMax, pl.TrialBudget, pl.Kappa, pl.PMin, ks, crit,
			float64(st.Steps-st.Failures)/float64(st.Trials), float64(st.AnchorIters)/float64(st.Steps))
		if ks > crit {
			t.Errorf("%v: KS %.4f > critical %.4f", k, ks, crit)
		}
		if st.AnchorMisses != 0 || st.Failures != 0 {
			t.Errorf("%v: %d anchor misses, %d failed calls", k, st.AnchorMisses, st.Failures)
		}
	}
}

// curved returns a 1-D problem whose posterior sits where the loss has its
// full curvature β: logistic with x = 1 and alternating labels (mode 0,
// φ” = 1/4 there), Huber with x = 1, y = 0 and h = 2 (quadratic on the whole
// posterior). Here dropping the e^{−B} step widens the chain's stationary law
// by a factor ≈ √(5/3), which the KS test must see.
func curved(t *testing.T, k loss.Kind, eta, mu float64) (*loss.Set, *exact.LogConcave) {
	n := 12
	x := make([][]float64, n)
	y := make([]float64, n)
	for i := range x {
		x[i] = []float64{1}
		if k.Classification() {
			y[i] = float64(2*(i%2) - 1)
		}
	}
	set := mustSet(t, k, x, y, loss.Params{Huber: 2})
	return set, exactFor(t, set, eta, eta*mu)
}

// TestFirstOrderBrokenFails: on the curved problems the first-order sampler
// passes the KS test (α = 1e-3) and the same sampler with the acceptance step
// removed (every proposal accepted, i.e. the tangent-plane Gaussian taken as
// the target) fails it, for logistic and Huber.
func TestFirstOrderBrokenFails(t *testing.T) {
	const eta, mu, tv = 40, 0.02, 1e-3
	m := numChains(3000)
	for i, k := range foKinds[:2] {
		set, lc := curved(t, k, eta, mu)
		pl := foPlan(t, set, eta, mu, tv)
		crit := stats.KSCritical(foAlpha, m) + tv
		xs, _ := foChains(t, pl, set, m, uint64(30+i))
		ks := stats.KS(column(xs, 0), lc.CDF)
		pl.acceptAll = true
		xb, _ := foChains(t, pl, set, m, uint64(30+i))
		ksb := stats.KS(column(xb, 0), lc.CDF)
		t.Logf("%v curved: KS %.4f, broken %.4f (crit %.4f)", k, ks, ksb, crit)
		if ks > crit {
			t.Errorf("%v curved: KS %.4f > critical %.4f", k, ks, crit)
		}
		if ksb <= crit {
			t.Errorf("%v: broken oracle passed KS (%.4f ≤ %.4f)", k, ksb, crit)
		}
	}
}

// TestFirstOrderKSProduct: d = 5, record i has feature cᵢ·e_{j(i)}, so π is
// a product of five 1-D laws, each sampled exactly; the 5m probability
// integral transforms (independent under π) are tested for uniformity.
func TestFirstOrderKSProduct(t *testing.T) {
	const d, per, eta, mu, tv = 5, 6, 60, 0.02, 1e-3
	m := numChains(1500)
	for ki, k := range foKinds[:2] {
		r := rng.Seeded(uint64(40 + ki))
		n := d * per
		x := make([][]float64, n)
		y := make([]float64, n)
		for i := range x {
			x[i] = make([]float64, d)
			x[i][i%d] = (0.3 + 0.7*r.Float64()) * float64(2*r.IntN(2)-1)
			y[i] = float64(2*r.IntN(2) - 1)
			if !k.Classification() {
				y[i] = 0.8 * r.NormFloat64()
			}
		}
		set := mustSet(t, k, x, y, loss.Params{Huber: 0.5})
		cdfs := make([]func(float64) float64, d)
		for j := 0; j < d; j++ {
			var xj [][]float64
			var yj []float64
			for i := j; i < n; i += d {
				xj = append(xj, []float64{x[i][j]})
				yj = append(yj, y[i])
			}
			sj := mustSet(t, k, xj, yj, loss.Params{Huber: 0.5})
			cdfs[j] = exactFor(t, sj, eta*float64(per)/float64(n), eta*mu).CDF
		}
		pl := foPlan(t, set, eta, mu, tv)
		xs, st := foChains(t, pl, set, m, uint64(50+ki))
		u := make([]float64, 0, d*m)
		for _, v := range xs {
			for j := range v {
				u = append(u, cdfs[j](v[j]))
			}
		}
		ks, crit := stats.KS(u, func(p float64) float64 { return math.Max(0, math.Min(1, p)) }), stats.KSCritical(foAlpha, len(u))+d*tv
		t.Logf("%v d=5: T=%d κ=%.3f: KS %.4f (crit %.4f), acceptance %.3f", k, pl.Steps, pl.Kappa, ks, crit,
			float64(st.Steps-st.Failures)/float64(st.Trials))
		if ks > crit {
			t.Errorf("%v d=5: KS %.4f > critical %.4f", k, ks, crit)
		}
	}
}

// clopperLower is the one-sided (1−α) Clopper–Pearson lower limit for k
// successes in m trials.
func clopperLower(k, m int64, alpha float64) float64 {
	if k == 0 {
		return 0
	}
	return distuv.Beta{Alpha: float64(k), Beta: float64(m - k + 1)}.Quantile(alpha)
}

// TestFirstOrderAcceptanceAdversarial: all n = 50 rows equal to one a with
// ‖a‖ = clip, one label/target, d = 5, η = 400 and μ = 10⁻² (so κ ≥ 0.96,
// near the largest the plan allows) and chains started 30 away on the wrong side:
// the acceptance per trial has a Clopper–Pearson lower limit (α = 1e-3)
// ≥ 0.53, the design bound e^{−5/8}; no anchor ever misses its residual.
func TestFirstOrderAcceptanceAdversarial(t *testing.T) {
	const n, d, eta, mu = 50, 5, 400, 1e-2
	for _, clip := range []float64{1, 3} {
		for _, k := range foKinds {
			a := make([]float64, d)
			for j := range a {
				a[j] = clip / math.Sqrt(d)
			}
			x := make([][]float64, n)
			y := make([]float64, n)
			for i := range x {
				x[i] = a
				y[i] = 1
			}
			set := mustSet(t, k, x, y, loss.Params{Clip: clip, Huber: 0.5})
			pl := foPlan(t, set, eta, mu, 1e-3)
			pl.start = make([]float64, d)
			for j := range pl.start {
				pl.start[j] = -30 * a[j] / clip
			}
			_, st := foChains(t, pl, set, numChains(30), 70)
			acc := st.Steps - st.Failures
			lo := clopperLower(acc, st.Trials, 1e-3)
			t.Logf("%v clip=%v: κ=%.4f p_min=%.3f K=%d: acceptance %d/%d = %.3f (CP lower %.3f), anchor passes/step %.2f",
				k, clip, pl.Kappa, pl.PMin, pl.AnchorMax, acc, st.Trials, float64(acc)/float64(st.Trials), lo, float64(st.AnchorIters)/float64(st.Steps))
			if lo < 0.53 {
				t.Errorf("%v clip=%v: acceptance lower limit %.3f < 0.53", k, clip, lo)
			}
			if st.AnchorMisses != 0 {
				t.Errorf("%v clip=%v: %d anchors missed the residual target", k, clip, st.AnchorMisses)
			}
		}
	}
}

func TestFirstOrderAllocs(t *testing.T) {
	r := rng.Seeded(3)
	pot := randomGLM(r, 200, 10, false)
	x := make([][]float64, pot.n)
	for i := range x {
		x[i] = pot.a[i*pot.d : (i+1)*pot.d]
	}
	set := mustSet(t, loss.Logistic, x, pot.y, loss.Params{})
	pl := foPlan(t, set, 20, 0.05, 1e-6)
	c := newFOChain(pl, set, rng.Seeded(1))
	if a := testing.AllocsPerRun(200, c.step); a != 0 {
		t.Errorf("step allocates %v times", a)
	}
}

func TestFirstOrderRunContract(t *testing.T) {
	set, _ := oneD(t, loss.Logistic, 40, 0.02, 1)
	pl := foPlan(t, set, 40, 0.02, 1e-9)
	pl.ChunkSteps = 7
	calls, last := 0, 0
	_, st, err := RunFirstOrder(context.Background(), pl, set, rng.Seeded(1), func(done, total int) {
		calls++
		if done <= last || total != pl.Steps {
			t.Fatalf("progress (%d, %d) after %d", done, total, last)
		}
		last = done
	})
	if err != nil || last != pl.Steps || calls != (pl.Steps+6)/7 || st.Steps != int64(pl.Steps) {
		t.Errorf("run: err %v, last %d, calls %d, steps %d (T=%d)", err, last, calls, st.Steps, pl.Steps)
	}
	ctx, cancel := context.WithCancel(context.Background())
	_, _, err = RunFirstOrder(ctx, pl, set, rng.Seeded(1), func(done, _ int) {
		if done >= 14 {
			cancel()
		}
	})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("cancel: got %v", err)
	}
	bad := pl
	bad.D = 2
	_, _, err = RunFirstOrder(context.Background(), bad, set, rng.Seeded(1), nil)
	var ce *checks.Error
	if !errors.As(err, &ce) || ce.Field != "potential" {
		t.Errorf("dimension mismatch: %v", err)
	}
	for _, f := range []struct {
		field string
		p     FirstOrderParams
	}{
		{"curvature", FirstOrderParams{N: 5, D: 1, G: 1, Curv: 0, Eta: 1, Mu: 1, TV: 0.1}},
		{"tv", FirstOrderParams{N: 5, D: 1, G: 1, Curv: 1, Eta: 1, Mu: 1, TV: 1}},
		{"G", FirstOrderParams{N: 5, D: 1, G: -1, Curv: 1, Eta: 1, Mu: 1, TV: 0.1}},
	} {
		_, err := NewFirstOrderPlan(f.p)
		if !errors.As(err, &ce) || ce.Field != f.field {
			t.Errorf("%s: got %v", f.field, err)
		}
	}
}

// TestFirstOrderPlanBudget: τ_c + T·(1 − p_min)^M (+ τ_over) ≤ τ, κ ≤ c,
// p_min ≥ e^{−(c/2)(1+AnchorTol²)} (adaptive; c = stepRatio(work)), K is the worst case of the anchor contraction
// ρ = κ/(2+κ) (adaptive), and with fixed work K minimises the run's passes
// over every k ≤ K_adaptive, recomputed here from the formulas, with p_min
// the one a_K = ρ^K·σηD(1+κ) guarantees (D = Spread clamped to [G, 2G],
// 2G without it).
func TestFirstOrderPlanBudget(t *testing.T) {
	for _, p := range []FirstOrderParams{
		{N: 455, D: 30, G: 1, Curv: 0.25, Eta: 30, Mu: 0.01, TV: 1e-6},
		{N: 10, D: 1, G: 2, Curv: 4, Eta: 1e4, Mu: 1e-6, TV: 0.3},
		{N: 1e6, D: 1000, G: 1, Curv: 1, Eta: 1e-2, Mu: 10, TV: 1e-12},
		{N: 455, D: 30, G: 1, Curv: 0.25, Eta: 1370, Mu: 0.04, TV: 2.5e-6},
		{N: 455, D: 30, G: 1, Curv: 0.25, Spread: 1, Eta: 1370, Mu: 0.04, TV: 2.5e-6},
		{N: 455, D: 30, G: 1, Curv: 0.25, Spread: 0.2, Eta: 30, Mu: 0.01, TV: 1e-6},
	} {
		pl, err := NewFirstOrderPlan(p)
		if err != nil {
			t.Fatal(err)
		}
		if pl.TauC+pl.TauFail > p.TV*(1+1e-12) || pl.TauFail > FailShare*p.TV {
			t.Errorf("%+v: τ_c %g + τ_fail %g > τ", p, pl.TauC, pl.TauFail)
		}
		if c := stepRatio(p.Work); pl.Kappa > c*(1+1e-12) || pl.PMin < math.Exp(-c/2*(1+AnchorTol*AnchorTol))*(1-1e-12) {
			t.Errorf("%+v: κ = %g, p_min = %g", p, pl.Kappa, pl.PMin)
		}
		sigma := math.Sqrt(pl.Sigma2)
		spread := 2 * p.G // D: Spread clamped to [G, 2G]
		if p.Spread > 0 {
			spread = math.Max(p.G, math.Min(2*p.G, p.Spread))
		}
		// worstOf(q)(k) bounds ‖z_k − z*‖·(1+κ) at q's κ: ρ^k·σ²ηD(1+κ), ρ = κ/(2+κ).
		worstOf := func(q FirstOrderPlan) func(int) float64 {
			rho := q.Kappa / (2 + q.Kappa)
			return func(k int) float64 { return math.Pow(rho, float64(k)) * q.Sigma2 * p.Eta * spread * (1 + q.Kappa) }
		}
		worst := worstOf(pl)
		if worst(pl.AnchorMax) > AnchorTol*sigma*(1+1e-9) || (pl.AnchorMax > 0 && worst(pl.AnchorMax-1) <= AnchorTol*sigma) {
			t.Errorf("%+v: K = %d is not the least worst-case count", p, pl.AnchorMax)
		}
		steps := math.Ceil(math.Log1p(p.Eta*p.Mu*pl.W2/(2*pl.TauC*pl.TauC)) / (2 * math.Log1p(pl.Alpha*pl.Lambda)))
		if math.Abs(steps-float64(pl.Steps)) > 1 {
			t.Errorf("%+v: T = %d, mixing bound gives %v", p, pl.Steps, steps)
		}
		for _, w := range []string{WorkPerStep, WorkTotal} {
			q := p
			q.Work = w
			fx, err := NewFirstOrderPlan(q)
			if err != nil {
				t.Fatal(err)
			}
			// Fixed work has its own step (FixedStepRatio): its κ, σ and the
			// adaptive K at that κ, the most it may pin.
			sigF, worstF := math.Sqrt(fx.Sigma2), worstOf(fx)
			kmaxF := 0
			for worstF(kmaxF) > AnchorTol*sigF {
				kmaxF++
			}
			if fx.AnchorMax > kmaxF || math.Abs(fx.AnchorBound*sigF-worstF(fx.AnchorMax)) > 1e-9*worstF(fx.AnchorMax) ||
				math.Abs(fx.PMin-math.Exp(-fx.Kappa/2*(1+fx.AnchorBound*fx.AnchorBound))) > 1e-12 {
				t.Errorf("%+v %s: K = %d (adaptive %d), a_K = %g (want %g), p_min = %g", p, w, fx.AnchorMax, kmaxF, fx.AnchorBound, worstF(fx.AnchorMax)/sigF, fx.PMin)
			}
			if fx.TauC+fx.TauFail+fx.TauOver > p.TV*(1+1e-12) || fx.TauFail > FailShare*p.TV || fx.TauOver > OverShare*p.TV {
				t.Errorf("%+v %s: τ split %g + %g + %g > τ", p, w, fx.TauC, fx.TauFail, fx.TauOver)
			}
			// The run's passes for each k, from the formulas: p_k, M_k, T_k, B_k.
			t0 := math.Ceil(math.Log1p(p.Eta*p.Mu*fx.W2/(2*(p.TV/2)*(p.TV/2))) / (2 * math.Log1p(fx.Alpha*fx.Lambda)))
			passes := func(k int) float64 {
				a := worstF(k) / sigF
				pk := math.Exp(-fx.Kappa / 2 * (1 + a*a))
				if pk < minPMin {
					return math.Inf(1)
				}
				mk := max(1, math.Ceil(math.Log(FailShare*p.TV/t0)/math.Log1p(-pk)))
				over := 0.0
				if w == WorkTotal {
					over = OverShare * p.TV
				}
				tauC := p.TV - t0*math.Pow(1-pk, mk) - over
				tk := math.Ceil(math.Log1p(p.Eta*p.Mu*fx.W2/(2*tauC*tauC)) / (2 * math.Log1p(fx.Alpha*fx.Lambda)))
				if w == WorkPerStep {
					return tk * (float64(k) + 1 + mk)
				}
				b, _ := TotalBudget(int(tk), int(mk), pk, over)
				return tk*(float64(k)+1) + float64(b)
			}
			got := passes(fx.AnchorMax)
			if want := float64(fx.Steps)*float64(fx.AnchorMax+1) + fx.trialsPlanned(); math.Abs(got-want) > 1e-9*want {
				t.Errorf("%+v %s: plan's passes %g, formulas %g", p, w, want, got)
			}
			for k := 0; k <= kmaxF; k++ {
				if c := passes(k); c < got*(1-1e-12) {
					t.Errorf("%+v %s: K = %d plans %g passes, K = %d only %g", p, w, fx.AnchorMax, got, k, c)
				}
			}
			t.Logf("%+v %s: K = %d (adaptive at its κ %d), a_K = %.3f, p_min = %.3f, M = %d, %.3f passes/step", p, w, fx.AnchorMax, kmaxF, fx.AnchorBound, fx.PMin, fx.TrialBudget, got/float64(fx.Steps))
		}
	}
}

// TestFirstOrderAnchorWorstCase: the warm start is replaced at every step by
// the worst one the bound allows (a gradient of norm G pointing anywhere,
// ‖z₀ − z*‖ up to 2σ²ηG), on the adversarial Huber data (rank one: the
// Hessian of h is κ/σ² along the rows and 0 across, the two ends of the
// contraction); the anchor loop still reaches ‖r‖ ≤ AnchorTol·σ within
// K = AnchorMax iterations every time (adaptive), and ‖r‖ ≤ AnchorBound·σ
// after the fixed-work plan's K iterations, and trials accept at ≥ p_min − 0.06
// (Clopper–Pearson, α = 1e-3). The checks have power: with K forced to 0, or
// with the fixed plan's K at the step 1/(1+κ) (contraction κ/(1+κ), not
// κ/(2+κ)), the same runs miss the residual.
func TestFirstOrderAnchorWorstCase(t *testing.T) {
	const n, d = 50, 5
	a := make([]float64, d)
	for j := range a {
		a[j] = 1 / math.Sqrt(d)
	}
	x := make([][]float64, n)
	y := make([]float64, n)
	for i := range x {
		x[i], y[i] = a, 0
	}
	set := mustSet(t, loss.Huber, x, y, loss.Params{Huber: 0.5})
	pl := foPlan(t, set, 400, 1e-2, 1e-3)
	fixed, err := NewFirstOrderPlan(FirstOrderParams{N: set.N(), D: set.Dim(), G: set.G(), Curv: set.Curvature(), Eta: 400, Mu: 1e-2, TV: 1e-3, Work: WorkTotal})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name   string
		pl     FirstOrderPlan
		kmax   int
		relax  float64 // 0: the plan's step
		broken bool
	}{
		{"adaptive", pl, pl.AnchorMax, 0, false},
		{"adaptive K=0", pl, 0, 0, true},
		{"fixed", fixed, fixed.AnchorMax, 0, false},
		{"fixed, step 1/(1+κ)", fixed, fixed.AnchorMax, 1 / (1 + fixed.Kappa), true},
	} {
		ch := newFOChain(c.pl, set, rng.Seeded(5))
		ch.kmax, ch.budget = c.kmax, -1
		if c.relax > 0 {
			ch.relax = c.relax
		}
		r := rng.Seeded(6)
		for s := 0; s < 3000; s++ {
			nrm := 0.0
			for j := range ch.g {
				ch.g[j] = r.NormFloat64()
				nrm += ch.g[j] * ch.g[j]
			}
			for j := range ch.g {
				ch.g[j] *= set.G() / math.Sqrt(nrm)
			}
			ch.step()
		}
		st := ch.st
		lo := clopperLower(st.Steps-st.Failures, st.Trials, 1e-3)
		t.Logf("%s (K=%d, a_K=%.3f, p_min=%.3f): misses %d/%d, anchor passes/step %.2f, acceptance %.3f (CP lower %.3f)", c.name, c.kmax, c.pl.AnchorBound, c.pl.PMin,
			st.AnchorMisses, st.Steps, float64(st.AnchorIters)/float64(st.Steps), float64(st.Steps-st.Failures)/float64(st.Trials), lo)
		if !c.broken && (st.AnchorMisses != 0 || lo < c.pl.PMin-0.06) {
			t.Errorf("%s: %d misses, acceptance lower limit %.3f", c.name, st.AnchorMisses, lo)
		}
		if c.broken && st.AnchorMisses == 0 {
			t.Errorf("%s: no anchor missed: the check has no power", c.name)
		}
	}
	// Logistic with D = Spread = G (the same row, alternating labels: ∇L(w) =
	// tanh(⟨a, w⟩/2)/2·a spans a segment of length G): the warm start's
	// gradient is replaced by ∇L(w) at a random w of norm ≈ 50√d, any
	// gradient L takes; the fixed plan's K still leaves ‖r‖ ≤ AnchorBound·σ.
	ly := make([]float64, n)
	for i := range ly {
		ly[i] = float64(2*(i%2) - 1)
	}
	lset := mustSet(t, loss.Logistic, x, ly, loss.Params{})
	lfix, err := NewFirstOrderPlan(FirstOrderParams{N: n, D: d, G: lset.G(), Curv: lset.Curvature(), Spread: lset.GradSpread(), Eta: 400, Mu: 1e-2, TV: 1e-3, Work: WorkTotal})
	if err != nil {
		t.Fatal(err)
	}
	ch := newFOChain(lfix, lset, rng.Seeded(7))
	ch.budget = -1
	r, w := rng.Seeded(8), make([]float64, d)
	for s := 0; s < 3000; s++ {
		for j := range w {
			w[j] = 50 * r.NormFloat64()
		}
		lset.Gradient(w, ch.g)
		ch.step()
	}
	t.Logf("logistic fixed (K=%d, a_K=%.3f, p_min=%.3f): misses %d/%d", lfix.AnchorMax, lfix.AnchorBound, lfix.PMin, ch.st.AnchorMisses, ch.st.Steps)
	if ch.st.AnchorMisses != 0 {
		t.Errorf("logistic fixed: %d misses", ch.st.AnchorMisses)
	}
}

// TestFirstOrderDrawsNormal53 (issue 21 item 3): the first-order sampler's
// normals — the y-step's and the proposals', whose last accepted one is the
// released θ — are rng.Normal53's, in stream order: replaying the seeded
// stream reproduces m and the accepted proposal exactly. With NormFloat64
// (the 32-bit ziggurat, ≈ 4·10³ lattice points per output cell at the page's
// settings instead of ≈ 2·10⁹: TestOutputGridResolution) both differ.
func TestFirstOrderDrawsNormal53(t *testing.T) {
	set, _ := curved(t, loss.Logistic, 40, 0.02)
	pl := foPlan(t, set, 40, 0.02, 1e-3)
	pl.acceptAll = true // the first trial is kept, so x = c + σ·ξ₂
	c := newFOChain(pl, set, rng.Seeded(11))
	c.step()
	r := rng.Seeded(11)
	z1, z2 := rng.Normal53(r), rng.Normal53(r)
	if want := c.sqrtLam * z1 * c.shrink; c.m[0] != want {
		t.Errorf("m = %v, want √λ·ξ₁·shrink = %v from Normal53", c.m[0], want)
	}
	if want := c.c[0] + c.sigma*z2; c.x[0] != want {
		t.Errorf("x = %v, want c + σ·ξ₂ = %v from Normal53", c.x[0], want)
	}
}
