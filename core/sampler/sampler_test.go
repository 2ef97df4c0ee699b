package sampler

import (
	"context"
	"math"
	"sort"
	"testing"

	"github.com/dpsample/dpsample/core/rng"
	"github.com/dpsample/dpsample/core/sampler/exact"
	"github.com/dpsample/dpsample/core/stats"
	"gonum.org/v1/gonum/stat/distuv"
)

// chains runs m independent chains of pl on pot (seeds seed·10⁶ + i) and
// returns their outputs and summed Stats.
func chains(t *testing.T, pl Plan, pot Potential, m int, seed uint64) ([][]float64, Stats) {
	t.Helper()
	out := make([][]float64, m)
	var tot Stats
	for i := range out {
		x, st, err := Run(context.Background(), pl, pot, rng.Seeded(seed*1_000_000+uint64(i)), nil)
		if err != nil {
			t.Fatal(err)
		}
		out[i] = x
		tot.Steps += st.Steps
		tot.Trials += st.Trials
		tot.LossEvals += st.LossEvals
		tot.Failures += st.Failures
		tot.Clips += st.Clips
	}
	return out, tot
}

func column(xs [][]float64, j int) []float64 {
	c := make([]float64, len(xs))
	for i, x := range xs {
		c[i] = x[j]
	}
	return c
}

func mustPlan(t *testing.T, p Params) Plan {
	t.Helper()
	pl, err := NewPlan(p)
	if err != nil {
		t.Fatal(err)
	}
	return pl
}

// numChains is the number of independent chains per test: full (or a third with -short).
func numChains(full int) int {
	if testing.Short() {
		return full / 3
	}
	return full
}

// The 1-D ℓ1-location problem of the tests: n = 10 points zᵢ ~ N(1.5, 0.5²),
// η = 4, μ = 1 (G_f²/α = 4), TV = 1e-3. The regulariser pulls the mode (≈ 1)
// below most points, so f has slope ≈ ±G_f over most of the mass and the
// two-sample rule is exercised (with zᵢ centred at 0, f would be nearly flat
// where π lives, and a biased RGO would go unnoticed).
func l1Problem(mode string) (Params, *l1Sep, []float64) {
	r := rng.Seeded(1)
	z := make([]float64, 10)
	for i := range z {
		z[i] = 1.5 + 0.5*r.NormFloat64()
	}
	return Params{N: 10, D: 1, G: 1, Eta: 4, Mu: 1, TV: 1e-3, Mode: mode}, newL1Sep(z, 10, 1), z
}

// l1KS runs the 1-D ℓ1 problem with pl (possibly altered) and returns the
// one-sample KS statistic against the closed-form CDF exact.L1CDF (§1.8b) and
// the two-sample statistic against 20 000 draws of exact.L1Coord, with their
// α = 0.01 critical values √(ln(2/α)/2)·√(1/m + 1/m′).
func l1KS(t *testing.T, pl Plan, pot *l1Sep, z []float64, seed uint64) (ks, crit, ks2, crit2 float64, st Stats) {
	p := pl.Params
	sorted := append([]float64(nil), z...)
	sort.Float64s(sorted)
	a, b := exact.L1Params(p.Eta, p.Mu, p.N, 1)
	m := numChains(1500)
	xs, st := chains(t, pl, pot, m, seed)
	got := column(xs, 0)
	ks = stats.KS(got, func(x float64) float64 { return exact.L1CDF(sorted, a, b, x) })
	const m2 = 20000
	r := rng.Seeded(seed + 999)
	ref := make([]float64, m2)
	for i := range ref {
		ref[i] = exact.L1Coord(r, sorted, a, b)
	}
	ks2 = ks2Stat(got, ref)
	crit, crit2 = stats.KSCritical(0.01, m), stats.KSCritical(0.01, m)*math.Sqrt(1+float64(m)/m2)
	return ks, crit, ks2, crit2, st
}

// TestL1Location1D: 1-D ℓ1 location, both RGO versions, one- and two-sample
// KS at α = 0.01 against the exact law p(t) ∝ exp(−(η/n)Σ|t − zᵢ| − (ημ/2)t²)
// (the ball [−R, R] holds all but τ_B = 2.5e-4 of it).
func TestL1Location1D(t *testing.T) {
	for i, mode := range []string{ModeFull, ModeStochastic} {
		p, pot, z := l1Problem(mode)
		pl := mustPlan(t, p)
		ks, crit, ks2, crit2, st := l1KS(t, pl, pot, z, uint64(10+i))
		t.Logf("%s: T=%d λ=%.3g KS=%.4f (crit %.4f) KS2=%.4f (crit %.4f) trials/step=%.3f evals/step=%.2f clips=%d failures=%d",
			mode, pl.Steps, pl.Lambda, ks, crit, ks2, crit2, float64(st.Trials)/float64(st.Steps), float64(st.LossEvals)/float64(st.Steps), st.Clips, st.Failures)
		if ks > crit || ks2 > crit2 {
			t.Errorf("%s: KS statistics %.4f, %.4f > critical %.4f, %.4f", mode, ks, ks2, crit, crit2)
		}
	}
}

// TestQuadratureMatchesExact cross-checks the two ground truths used here:
// the trapezoid-rule CDF of this package's tests and exact.L1CDF.
func TestQuadratureMatchesExact(t *testing.T) {
	_, _, z := l1Problem(ModeFull)
	sorted := append([]float64(nil), z...)
	sort.Float64s(sorted)
	a, b := exact.L1Params(4, 1, len(z), 1)
	q := newQuadCDF(z, a, b, 40)
	for x := -2.0; x <= 4; x += 0.01 {
		if d := math.Abs(q.cdf(x) - exact.L1CDF(sorted, a, b, x)); d > 1e-6 {
			t.Fatalf("CDF at %.2f: quadrature and exact differ by %.2g", x, d)
		}
	}
}

// TestBrokenSamplersFail: the same KS test rejects (a) T/20 steps from a far
// start (x₀ = −2, ≈ 6 posterior standard deviations from the mode, inside the ball) and (b) the same RGO
// with λ 100× too large, where the min(1, ·) clamp fires on a large fraction
// of pairs and biases every RGO call.
func TestBrokenSamplersFail(t *testing.T) {
	p, pot, z := l1Problem(ModeFull)
	pl := mustPlan(t, p)

	short := pl
	short.Steps = pl.Steps / 20
	short.start = []float64{-2}
	ks, crit, ks2, crit2, _ := l1KS(t, short, pot, z, 20)
	t.Logf("T/20 from x0=-2: KS=%.4f crit=%.4f KS2=%.4f crit2=%.4f", ks, crit, ks2, crit2)
	if ks <= crit || ks2 <= crit2 {
		t.Errorf("T/20 steps from a far start passed a KS test (%.4f ≤ %.4f or %.4f ≤ %.4f)", ks, crit, ks2, crit2)
	}

	big := pl
	big.Lambda *= 100
	ks, crit, ks2, crit2, st := l1KS(t, big, pot, z, 21)
	t.Logf("λ×100: KS=%.4f crit=%.4f KS2=%.4f crit2=%.4f clamps/trial=%.3f", ks, crit, ks2, crit2, float64(st.Clips)/float64(st.Trials))
	if ks <= crit || ks2 <= crit2 {
		t.Errorf("λ×100 passed a KS test (%.4f ≤ %.4f or %.4f ≤ %.4f)", ks, crit, ks2, crit2)
	}
}

// TestSeparableL1Dim5: l(x; z) = Σ_j|x_j − z_j|/√5 factorises, so every
// marginal is the 1-D law with a = η/(n√d) (exact.L1Separable's CDF); KS on each of the 5 marginals at
// α = 0.01/5 (Bonferroni), both RGO versions. (The ball couples coordinates,
// but moves at most τ_B = 2.5e-4 of mass: far below the KS resolution.)
func TestSeparableL1Dim5(t *testing.T) {
	const n, d = 10, 5
	r := rng.Seeded(2)
	z := make([]float64, n*d)
	for i := range z {
		z[i] = r.NormFloat64()
	}
	pot := newL1Sep(z, n, d)
	a, b := exact.L1Params(4, 1, n, d)
	ex := exact.NewL1Separable(z, n, d, a, b)
	for i, mode := range []string{ModeFull, ModeStochastic} {
		pl := mustPlan(t, Params{N: n, D: d, G: 1, Eta: 4, Mu: 1, TV: 1e-3, Mode: mode})
		m := numChains(900)
		xs, st := chains(t, pl, pot, m, uint64(30+i))
		crit := stats.KSCritical(0.01/d, m)
		for j := 0; j < d; j++ {
			ks := stats.KS(column(xs, j), func(x float64) float64 { return ex.CDF(j, x) })
			if ks > crit {
				t.Errorf("%s: marginal %d: KS %.4f > %.4f", mode, j, ks, crit)
			}
		}
		t.Logf("%s: T=%d trials/step=%.3f evals/step=%.2f", mode, pl.Steps, float64(st.Trials)/float64(st.Steps), float64(st.LossEvals)/float64(st.Steps))
	}
}

// TestLinearDim20: linear loss, π = N(−z̄/μ, (ημ)⁻¹I) exactly (§1.8a). With m
// chains and known moments, at α = 0.001 each:
//   - mean: m·α_π‖x̄ − m*‖² ~ χ²_d;
//   - variance: α_π·Σ_i‖x_i − m*‖² ~ χ²_{md} (z-score via the normal approximation);
//   - covariance: the d(d−1)/2 standardised cross-products c_jk = α_π Σ_i u_ij u_ik/√m
//     are ≈ N(0, 1) independent, so Σ c_jk² ~ χ²_{d(d−1)/2}.
func TestLinearDim20(t *testing.T) {
	const n, d = 10, 20
	r := rng.Seeded(3)
	z := make([]float64, n*d)
	for i := 0; i < n; i++ {
		row := z[i*d : (i+1)*d]
		s := 0.0
		for j := range row {
			row[j] = r.NormFloat64() + 0.3
			s += row[j] * row[j]
		}
		for j := range row {
			row[j] /= math.Sqrt(s)
		}
	}
	pot := newLinear(z, n, d)
	for i, mode := range []string{ModeFull, ModeStochastic} {
		pl := mustPlan(t, Params{N: n, D: d, G: 1, Eta: 4, Mu: 1, TV: 1e-3, Mode: mode})
		m := numChains(400)
		xs, _ := chains(t, pl, pot, m, uint64(40+i))
		meanChi, varZ, covChi := gaussianStats(xs, pot.zbar, pl.Mu, pl.Alpha)
		qMean := distuv.ChiSquared{K: d}.Quantile(0.999)
		qCov := distuv.ChiSquared{K: d * (d - 1) / 2}.Quantile(0.999)
		t.Logf("%s: T=%d mean χ²=%.1f (crit %.1f), var z=%.2f, cov χ²=%.1f (crit %.1f)", mode, pl.Steps, meanChi, qMean, varZ, covChi, qCov)
		if meanChi > qMean {
			t.Errorf("%s: mean χ² %.1f > %.1f", mode, meanChi, qMean)
		}
		if math.Abs(varZ) > 3.29 {
			t.Errorf("%s: variance z-score %.2f, |z| > 3.29", mode, varZ)
		}
		if covChi > qCov {
			t.Errorf("%s: covariance χ² %.1f > %.1f", mode, covChi, qCov)
		}
	}
}

// gaussianStats returns the three statistics of TestLinearDim20 for samples xs
// against N(−zbar/μ, α⁻¹I).
func gaussianStats(xs [][]float64, zbar []float64, mu, alpha float64) (meanChi, varZ, covChi float64) {
	m, d := len(xs), len(zbar)
	u := make([][]float64, m)
	xbar := make([]float64, d)
	ss := 0.0
	for i, x := range xs {
		u[i] = make([]float64, d)
		for j := range x {
			u[i][j] = (x[j] + zbar[j]/mu) * math.Sqrt(alpha) // standardised
			xbar[j] += u[i][j] / float64(m)
			ss += u[i][j] * u[i][j]
		}
	}
	for _, v := range xbar {
		meanChi += float64(m) * v * v
	}
	md := float64(m * d)
	varZ = (ss - md) / math.Sqrt(2*md)
	for j := 0; j < d; j++ {
		for k := j + 1; k < d; k++ {
			c := 0.0
			for i := range u {
				c += u[i][j] * u[i][k]
			}
			c /= math.Sqrt(float64(m))
			covChi += c * c
		}
	}
	return
}

// TestLogistic1D: a loss that is neither ℓ1 nor linear. 1-D logistic
// regression, n = 6 records aᵢ ∈ [−1, 1], yᵢ = ±1, η = 4, μ = 1; one-sample
// KS at α = 0.01 against exact.NewLogConcave (derivative-free rejection,
// exact) for U(t) = η·mean ln(1 + e^{−yᵢaᵢt}) + (ημ/2)t², both RGO versions.
func TestLogistic1D(t *testing.T) {
	const n = 6
	r := rng.Seeded(4)
	pot := &glm{n: n, d: 1, a: make([]float64, n), y: make([]float64, n)}
	for i := 0; i < n; i++ {
		pot.a[i] = 2*r.Float64() - 1
		pot.y[i] = 1
		if r.Float64() < 0.2 {
			pot.y[i] = -1
		}
	}
	const eta, mu = 4.0, 1.0
	lc, err := exact.NewLogConcave(func(t float64) float64 {
		return eta*pot.Mean([]float64{t}) + eta*mu/2*t*t
	}, 1/math.Sqrt(eta*mu))
	if err != nil {
		t.Fatal(err)
	}
	for i, mode := range []string{ModeFull, ModeStochastic} {
		pl := mustPlan(t, Params{N: n, D: 1, G: 1, Eta: eta, Mu: mu, TV: 1e-3, Mode: mode})
		m := numChains(600)
		xs, _ := chains(t, pl, pot, m, uint64(50+i))
		ks, crit := stats.KS(column(xs, 0), lc.CDF), stats.KSCritical(0.01, m)
		t.Logf("%s: T=%d KS=%.4f (crit %.4f)", mode, pl.Steps, ks, crit)
		if ks > crit {
			t.Errorf("%s: KS %.4f > %.4f", mode, ks, crit)
		}
	}
}
