package mechanism

import (
	"context"
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/dpsample/dpsample/core/loss"
	"github.com/dpsample/dpsample/core/privacy"
	"github.com/dpsample/dpsample/core/rng"
	"github.com/dpsample/dpsample/core/sampler/exact"
	"github.com/dpsample/dpsample/core/stats"
)

// column turns points into an n×1 matrix.
func column(z []float64) [][]float64 {
	x := make([][]float64, len(z))
	for i, v := range z {
		x[i] = []float64{v}
	}
	return x
}

// logDensity is the unnormalised log output density of Algorithm 1 in d = 1,
// u(t) = −η(L(t; D) + μt²/2), evaluated through the same loss.Set the
// mechanism samples with.
func logDensity(t *testing.T, z []float64, eta, mu float64) func(float64) float64 {
	set, err := loss.New(loss.L1, column(z), nil, loss.Params{})
	if err != nil {
		t.Fatal(err)
	}
	x := []float64{0}
	return func(v float64) float64 { x[0] = v; return -eta * (set.Mean(x) + mu/2*v*v) }
}

// gl8 are the 8-point Gauss–Legendre nodes and weights on [−1, 1].
var gl8x = []float64{-0.9602898564975363, -0.7966664774136267, -0.5255324099163290, -0.1834346424956498,
	0.1834346424956498, 0.5255324099163290, 0.7966664774136267, 0.9602898564975363}
var gl8w = []float64{0.1012285362903763, 0.2223810344533745, 0.3137066458778873, 0.3626837833783620,
	0.3626837833783620, 0.3137066458778873, 0.2223810344533745, 0.1012285362903763}

// glInt integrates f on [a, b] with 8-point Gauss–Legendre.
func glInt(f func(float64) float64, a, b float64) float64 {
	s := 0.0
	for k, x := range gl8x {
		s += gl8w[k] * f((a+b)/2+x*(b-a)/2)
	}
	return s * (b - a) / 2
}

// hockeyStick returns δ_actual(ε) = ∫ (p − e^ε q)₊ for the densities
// p ∝ e^{uP}, q ∝ e^{uQ} on [lo, hi] (both normalised there; the callers'
// windows leave out mass below e^{−1000}). Composite 8-point Gauss–Legendre
// on `cells` equal cells; a cell where p − e^ε q changes sign is split at the
// root (bisection), so the integrand is smooth on every piece.
func hockeyStick(uP, uQ func(float64) float64, eps, lo, hi float64, cells int) float64 {
	h := (hi - lo) / float64(cells)
	logZ := func(u func(float64) float64) float64 {
		m := math.Inf(-1)
		for c := 0; c <= cells; c++ {
			m = math.Max(m, u(lo+float64(c)*h))
		}
		s := 0.0
		for c := 0; c < cells; c++ {
			s += glInt(func(t float64) float64 { return math.Exp(u(t) - m) }, lo+float64(c)*h, lo+float64(c+1)*h)
		}
		return m + math.Log(s)
	}
	zp, zq := logZ(uP), logZ(uQ)
	g := func(t float64) float64 { return (uP(t) - zp) - (eps + uQ(t) - zq) } // sign of p − e^ε q
	f := func(t float64) float64 { return math.Max(0, math.Exp(uP(t)-zp)-math.Exp(eps+uQ(t)-zq)) }
	d := 0.0
	for c := 0; c < cells; c++ {
		a, b := lo+float64(c)*h, lo+float64(c+1)*h
		ga, gb := g(a), g(b)
		if (ga > 0) == (gb > 0) {
			if ga > 0 {
				d += glInt(f, a, b)
			}
			continue
		}
		x, y := a, b
		for i := 0; i < 100 && y-x > 1e-15*math.Max(1, math.Abs(x)); i++ {
			mid := (x + y) / 2
			if (g(mid) > 0) == (ga > 0) {
				x = mid
			} else {
				y = mid
			}
		}
		d += glInt(f, a, x) + glInt(f, x, b)
	}
	return d
}

// auditPairs are neighbouring datasets (replace-one) for ℓ1 location.
//
// "far": every point lies at ±A with A beyond all the output mass, and one
// point moves from −A to +A. On the window Σ|t − z_i| is then linear, so both
// output laws are Gaussians N(m, 1/(ημ)) whose means differ by
// 2G/(nμ) = s·σ: the pair attains the GDP curve exactly, δ_actual = δ_s(ε)
// (the worst case of Lemma E.1). "close": the pair of design note §2.6.
var auditPairs = []struct {
	name  string
	d, d2 func(n int) []float64
}{
	{"far", func(n int) []float64 { return farPair(n, -1) }, func(n int) []float64 { return farPair(n, 1) }},
	{"close", func(n int) []float64 {
		z := make([]float64, n)
		for i := range z {
			z[i] = 1
			if i < (n+1)/2-1 {
				z[i] = -1
			}
		}
		return z
	}, func(n int) []float64 {
		z := make([]float64, n)
		for i := range z {
			z[i] = 1
			if i < (n+1)/2 {
				z[i] = -1
			}
		}
		return z
	}},
}

const farA = 1000

func farPair(n int, side float64) []float64 {
	z := make([]float64, n)
	z[0] = side * farA
	for i := 1; i < n; i++ {
		z[i] = farA * float64(2*(i%2)-1)
	}
	return z
}

var (
	auditEps   = []float64{0.1, 0.5, 1, 2, 4}
	auditDelta = []float64{1e-3, 1e-6}
)

// auditDeltas returns δ_actual(ε) in both directions for η, μ on a pair.
func auditDeltas(t *testing.T, z, z2 []float64, eta, mu, eps float64) (float64, float64) {
	uP, uQ := logDensity(t, z, eta, mu), logDensity(t, z2, eta, mu)
	sigma := 1 / math.Sqrt(eta*mu)
	w := 1/mu + 45*sigma // ‖mode‖ ≤ G/μ, then ≥ 45σ of Gaussian tail: mass < e^{−1000}
	cells := 6000
	if testing.Short() {
		cells = 3000
	}
	return hockeyStick(uP, uQ, eps, -w, w, cells), hockeyStick(uQ, uP, eps, -w, w, cells)
}

// auditTol is the relative quadrature error allowed in δ_actual. The far pair
// attains the curve exactly and s* is the largest s with δ_s(ε) ≤ δ, so
// δ_actual = δ up to the calibration's 1e-14 and the quadrature's error.
const auditTol = 1e-9

// TestExactAudit1D integrates both output densities of the implemented
// mechanism (η, μ from NewPlan, the loss.Set it samples) on worst-case
// neighbours and checks δ_actual(ε) ≤ the δ the plan claims (exact sampler:
// the whole δ goes to the curve), up to auditTol. The audit is tight: on the
// far pair δ_actual is within 0.1% of δ, so any loss of privacy shows.
func TestExactAudit1D(t *testing.T) {
	for _, n := range []int{5, 20} {
		for _, pair := range auditPairs {
			if pair.name == "close" && n == 20 {
				continue
			}
			for _, delta := range auditDelta {
				for _, eps := range auditEps {
					z, z2 := pair.d(n), pair.d2(n)
					pl, err := NewPlan(Request{Loss: "l1", X: column(z), Epsilon: eps, Delta: delta, Radius: 1, Sampler: "exact"})
					if err != nil {
						t.Fatal(err)
					}
					if pl.DeltaCurve != delta || pl.TV != 0 {
						t.Fatalf("exact plan must give the whole δ to the curve: %+v", pl)
					}
					a, b := auditDeltas(t, z, z2, pl.Eta, pl.Mu, eps)
					got := math.Max(a, b)
					t.Logf("n=%d %s ε=%v δ=%v: δ_actual/δ − 1 = %.3g", n, pair.name, eps, delta, got/delta-1)
					if got > delta*(1+auditTol) {
						t.Errorf("n=%d %s ε=%v δ=%v: δ_actual = %.6g > δ claimed", n, pair.name, eps, delta, got)
					}
					if pair.name == "far" && got < delta*(1-1e-3) {
						t.Errorf("n=%d far ε=%v δ=%v: δ_actual = %.6g, the pair should attain the curve", n, eps, delta, got)
					}
				}
			}
		}
	}
}

// TestPaperConstantsFailAudit: the paper's literal η = nε√(k ln(1/δ))/(GC),
// μ = 8ηG²/(n²ε²) (s = ε/√2 whatever δ) fail the same audit on the far pair
// for every (ε, δ) of the grid.
func TestPaperConstantsFailAudit(t *testing.T) {
	for _, n := range []int{5, 20} {
		for _, delta := range auditDelta {
			for _, eps := range auditEps {
				z, z2 := auditPairs[0].d(n), auditPairs[0].d2(n)
				eta, mu := PaperConstants(n, 1, 1, 1, eps, delta)
				a, b := auditDeltas(t, z, z2, eta, mu, eps)
				if got := math.Max(a, b); got <= delta {
					t.Errorf("n=%d ε=%v δ=%v: paper constants passed the audit (δ_actual = %.3g)", n, eps, delta, got)
				}
			}
		}
	}
	// The design note's close-pair number: n = 5, ε = 1, δ = 1e-6 gives
	// δ_actual ≈ 0.0396, the GDP curve at s = ε/√2, 40 000× the claim.
	eta, mu := PaperConstants(5, 1, 1, 1, 1, 1e-6)
	a, b := auditDeltas(t, auditPairs[1].d(5), auditPairs[1].d2(5), eta, mu, 1)
	curve, _ := privacy.Delta(1/math.Sqrt2, 1)
	if got := math.Max(a, b); got < 0.5*curve || got > curve*(1+1e-6) {
		t.Errorf("close pair, paper constants: δ_actual = %.4g, want ≈ δ_{1/√2}(1) = %.4g", got, curve)
	}
}

// TestAuditDetectsMiscalibration: the audit is sharp enough to catch μ only
// 1% below the calibrated value (s 0.5% too large) on the far pair.
func TestAuditDetectsMiscalibration(t *testing.T) {
	for _, eps := range []float64{0.5, 2} {
		const delta = 1e-6
		z, z2 := auditPairs[0].d(5), auditPairs[0].d2(5)
		pl, err := NewPlan(Request{Loss: "l1", X: column(z), Epsilon: eps, Delta: delta, Radius: 1, Sampler: "exact"})
		if err != nil {
			t.Fatal(err)
		}
		a, b := auditDeltas(t, z, z2, pl.Eta, 0.99*pl.Mu, eps)
		if got := math.Max(a, b); got <= delta*(1+auditTol) {
			t.Errorf("ε=%v: μ·0.99 passed the audit (δ_actual/δ = %.6f)", eps, got/delta)
		}
	}
}

// mcEpsilonLower draws m outputs of the implemented exact mechanism on each of
// the far pair's datasets (n = 5, d = 1) and returns a lower confidence bound
// (level 1 − 0.001) on the ε of the event S = {θ < c}, with c fixed in
// advance from the analytic law so that P_{D′}(S) = 0.01:
// ε ≥ log((P_D(S) − δ)/P_{D′}(S)).
func mcEpsilonLower(t *testing.T, eta, mu, delta float64, m int, seed uint64) float64 {
	const n = 5
	z, z2 := auditPairs[0].d(n), auditPairs[0].d2(n)
	sorted2 := slices.Sorted(slices.Values(z2))
	a, b := exact.L1Params(eta, mu, n, 1)
	// c with P_{D′}(θ < c) = 0.01, by bisection on the closed-form CDF.
	lo, hi := -50.0, 50.0
	for i := 0; i < 200; i++ {
		mid := (lo + hi) / 2
		if exact.L1CDF(sorted2, a, b, mid) < 0.01 {
			lo = mid
		} else {
			hi = mid
		}
	}
	c := lo
	count := func(z []float64) int {
		p := &prepared{plan: Plan{N: n, D: 1, Eta: eta, Mu: mu, Sampler: SamplerExact, Method: MethodL1}}
		set, err := loss.New(loss.L1, column(z), nil, loss.Params{})
		if err != nil {
			t.Fatal(err)
		}
		p.set = set
		p.plan.Grid = grid(p.plan)
		dr, err := newDrawer(p)
		if err != nil {
			t.Fatal(err)
		}
		r := rng.Seeded(seed)
		out := []float64{0}
		k := 0
		for i := 0; i < m; i++ {
			if err := dr.draw(context.Background(), r, out, &Diagnostics{}, func(int, int) {}); err != nil {
				t.Fatal(err)
			}
			round(out, p.plan.Grid)
			if out[0] < c {
				k++
			}
		}
		return k
	}
	kP, kQ := count(z), count(z2)
	pLo, _ := stats.ClopperPearson(kP, m, 0.001)
	_, qHi := stats.ClopperPearson(kQ, m, 0.001)
	return math.Log(math.Max(pLo-delta, 1e-300) / qHi)
}

// TestMonteCarloAudit: 10⁵ draws per dataset from the implemented exact
// sampler; the Clopper–Pearson lower bound on ε stays ≤ the claimed ε, while
// for the paper's constants it exceeds it (the audit has power).
func TestMonteCarloAudit(t *testing.T) {
	const m = 100_000
	for _, eps := range []float64{0.5, 1, 2} {
		const delta = 1e-6
		pl, err := NewPlan(Request{Loss: "l1", X: column(auditPairs[0].d(5)), Epsilon: eps, Delta: delta, Radius: 1, Sampler: "exact"})
		if err != nil {
			t.Fatal(err)
		}
		if lb := mcEpsilonLower(t, pl.Eta, pl.Mu, delta, m, 11); lb > eps {
			t.Errorf("ε=%v: Monte-Carlo lower bound %.3f > claimed ε", eps, lb)
		} else {
			t.Logf("ε=%v: implemented mechanism, ε lower bound %.3f", eps, lb)
		}
		eta, mu := PaperConstants(5, 1, 1, 1, eps, delta)
		if lb := mcEpsilonLower(t, eta, mu, delta, m, 12); lb <= eps {
			t.Errorf("ε=%v: paper constants not detected: lower bound %.3f ≤ ε", eps, lb)
		} else {
			t.Logf("ε=%v: paper constants, ε lower bound %.3f", eps, lb)
		}
	}
}

func ExampleCalibrate() {
	c, _ := Calibrate(Calibration{N: 1000, D: 100, G: 1, Radius: 1, Epsilon: 1, Delta: 1e-5, Exact: true})
	fmt.Printf("s=%.4f mu·n²ε²/(ηG²)=%.2f\n", c.GDP, c.Mu*1e6/c.Eta)
	// Output: s=0.2681 mu·n²ε²/(ηG²)=55.67
}
