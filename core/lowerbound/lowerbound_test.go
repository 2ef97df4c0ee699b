package lowerbound

import (
	"context"
	"errors"
	"math"
	"sort"
	"strings"
	"testing"

	"github.com/dpsample/dpsample/core/fingerprint"
	"github.com/dpsample/dpsample/core/privacy"
	"github.com/dpsample/dpsample/core/rng"
)

func seed(u uint64) *uint64   { return &u }
func fptr(v float64) *float64 { return &v }
func iptr(v int) *int         { return &v }

func mustRun(t *testing.T, o Options) Experiment {
	t.Helper()
	e, err := Run(context.Background(), o, nil)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// bandAlpha is the two-sided false-failure rate of every band below.
const bandAlpha = 1e-3

// removedBand checks the soundness measurement of a run with Remove set:
// the removed person's accusations (one independent Bernoulli per trial,
// with probability RemovedInnocentRate[t] given that trial's code and
// output) must be consistent with the exact mean — RemovedExact inside the
// 1−bandAlpha Clopper–Pearson interval of RemovedHits/Trials. Given the
// trials the count is Poisson-binomial, no more dispersed than the binomial
// with the same mean (Hoeffding 1956), so the false-failure rate is ≤ bandAlpha.
func removedBand(e Experiment) (ok bool, lo, hi float64) {
	s := e.Soundness
	lo, hi = ClopperPearson(s.RemovedHits, s.Trials, bandAlpha)
	return lo <= *s.RemovedExact && *s.RemovedExact <= hi, lo, hi
}

// ghostBand is the same check for the ghosts against GhostExact.
func ghostBand(e Experiment) (ok bool, lo, hi float64) {
	lo, hi = ClopperPearson(e.GhostAccused, e.GhostScored, bandAlpha)
	return lo <= e.Soundness.GhostExact && e.Soundness.GhostExact <= hi, lo, hi
}

// The non-private median: excess 0, no violations, always traced, and the
// removed user accused at the rate the code's key gives (§8 stages 1–2): a
// band from N trials around the exact rate (≈ 2e-3), not a cap of 0.1.
func TestMedian(t *testing.T) {
	e := mustRun(t, Options{N: 4, Xi: .1, Mechanism: Median, Trials: 200, Ghosts: 100, Remove: iptr(1), Seed: seed(1)})
	for i := range e.Trials {
		if e.ExcessOverD[i] != 0 || e.ViolationsOverD[i] != 0 || !e.Traced[i] || !e.MemberAccused[i] {
			t.Fatalf("trial %d: excess %g, violations %g, traced %v, member accused %v", i, e.ExcessOverD[i], e.ViolationsOverD[i], e.Traced[i], e.MemberAccused[i])
		}
	}
	s := e.Soundness
	ok, lo, hi := removedBand(e)
	t.Logf("median n=4 ξ=.1: removed accused %d/%d, 99.9%% CP [%.2e, %.2e], exact %.3e; ghosts %d/%d, exact %.3e; implied ε lower %.2f, ceiling %.2f, limit %.2f",
		s.RemovedHits, s.Trials, lo, hi, *s.RemovedExact, e.GhostAccused, e.GhostScored, s.GhostExact, e.ImpliedEpsilon.Lower, *e.ImpliedEpsilon.Ceiling, *e.ImpliedEpsilon.Limit)
	if !ok {
		t.Errorf("removed person accused %d/%d: exact rate %.3e outside the 99.9%% CP interval [%.2e, %.2e]", s.RemovedHits, s.Trials, *s.RemovedExact, lo, hi)
	}
	if ok, lo, hi := ghostBand(e); !ok {
		t.Errorf("ghosts %d/%d: exact %.3e outside [%.2e, %.2e]", e.GhostAccused, e.GhostScored, s.GhostExact, lo, hi)
	}
	// Soundness ≤ ξ for this (marking-respecting) output, measured: the 95%
	// upper bound of the removed person's rate is below ξ = 0.1 at 200 trials
	// (0 hits give 1.8e-2).
	if s.RemovedCI[1] > e.Options.Xi {
		t.Errorf("removed rate upper bound %.3g > ξ", s.RemovedCI[1])
	}
	if e.ImpliedEpsilon == nil || e.ImpliedEpsilon.Lower <= 1 || e.ImpliedEpsilon.Lower > *e.ImpliedEpsilon.Ceiling {
		t.Errorf("median should imply a large ε, at most the ceiling: %+v", e.ImpliedEpsilon)
	}
	// The member is accused in every trial and δ = 0, so the estimate settles
	// at ln(1/p₀) with p₀ the exact removed rate.
	if lim := e.ImpliedEpsilon.Limit; lim == nil || math.Abs(*lim+math.Log(*s.RemovedExact)) > 1e-12 {
		t.Errorf("limit %v, want ln(1/%g)", lim, *s.RemovedExact)
	}
	if e.Private {
		t.Error("seeded run reported private")
	}
}

// The removal band catches a removal that leaves one of the person's k
// copies in the data (n = 5, k = 2: on the columns where the other four
// split 2–2 the median then copies the person's bit, so they are accused in
// every trial while the exact innocent rate stays ≈ 2e-3).
func TestMedianCatchesLeakyRemoval(t *testing.T) {
	o := Options{N: 5, Xi: .1, Mechanism: Median, Copies: 2, Trials: 20, Remove: iptr(1), Seed: seed(13)}
	if ok, lo, hi := removedBand(mustRun(t, o)); !ok {
		t.Fatalf("correct removal failed the band [%.2e, %.2e]", lo, hi)
	}
	o.dropCopies = 1
	e := mustRun(t, o)
	if ok, lo, hi := removedBand(e); ok {
		t.Errorf("leaky removal passed: %d/%d accused, exact %.3e in [%.2e, %.2e]", e.Soundness.RemovedHits, e.Soundness.Trials, *e.Soundness.RemovedExact, lo, hi)
	}
}

// The worst case over outputs is reported, and flagged when it exceeds ξ:
// at n = 4 it is 2.0e-3 at ξ = 1e-3 (Φ̄(√k), k = ln 4000) and 5.7e-4 at
// ξ = 1e-4, both above ξ; at ξ = .1 it is 2.7e-2 ≤ ξ.
func TestWorstCase(t *testing.T) {
	for _, c := range []struct {
		xi, want float64
		exceeds  bool
	}{{.1, 2.74e-2, false}, {1e-3, 1.99e-3, true}, {1e-4, 5.67e-4, true}} {
		e := mustRun(t, Options{N: 4, Xi: c.xi, Mechanism: Median, Trials: 1, Seed: seed(14)})
		s := e.Soundness
		k := math.Log(4 / c.xi)
		phi := 0.5 * math.Erfc(math.Sqrt(k)/math.Sqrt2)
		t.Logf("n=4 ξ=%g: Φ̄(thr/√d₀) = %.4e, Φ̄(√k) = %.4e, exact all-ones %.4e, exceeds ξ: %v", c.xi, s.WorstCaseGaussian, phi, s.WorstCaseExact, s.WorstCaseExceedsXi)
		if math.Abs(s.WorstCaseGaussian-phi) > 1e-3*phi || math.Abs(phi-c.want) > 0.005*c.want {
			t.Errorf("ξ=%g: worst case %.4e, Φ̄(√k) = %.4e, want ≈ %.3g", c.xi, s.WorstCaseGaussian, phi, c.want)
		}
		// One code: the exact rate varies by ≈ 0.1% between codes (fingerprint's
		// TestWorstCaseTracksGaussian checks the direction on its own codes).
		if s.WorstCaseExact < 0.99*s.WorstCaseGaussian || s.WorstCaseExact > 1.03*s.WorstCaseGaussian {
			t.Errorf("ξ=%g: exact all-ones %.4e not within [0.99, 1.03]× the Gaussian %.4e", c.xi, s.WorstCaseExact, s.WorstCaseGaussian)
		}
		if s.WorstCaseExceedsXi != c.exceeds {
			t.Errorf("ξ=%g: worstCaseExceedsXi = %v", c.xi, s.WorstCaseExceedsXi)
		}
	}
}

// The implied ε's ceiling is ln(((α/2)^{1/n} − δ)/(1 − (α/2)^{1/n})): what
// x₁ = n, x₀ = 0 give; Lower never exceeds it, and it grows like ln(n/3.7).
func TestImpliedCeiling(t *testing.T) {
	for _, n := range []int{10, 100, 1000, 100000} {
		a := math.Pow(0.025, 1/float64(n))
		want := math.Log(a / (1 - a))
		im := ImpliedEpsilon(n, 0, n, 0, .05)
		if math.Abs(*im.Ceiling-want) > 1e-9 || math.Abs(im.Lower-want) > 1e-9 {
			t.Errorf("n=%d: ceiling %g, lower %g, want %g", n, *im.Ceiling, im.Lower, want)
		}
		if r := math.Log(float64(n) / 3.689); n >= 100 && math.Abs(want-r) > 0.02 {
			t.Errorf("n=%d: ceiling %g, ln(n/3.689) = %g", n, want, r)
		}
		if im2 := ImpliedEpsilon(n, 1, n, 0, .05); im2.Lower >= want {
			t.Errorf("n=%d: one accusation after removal did not lower the bound", n)
		}
	}
}

// §7 test 8: the box exponential mechanism's mean excess matches the closed
// form Σ_k |1−2m_k|·g(s|1−2m_k|) to 1%, and the note's table (n = 4, ξ = .1)
// to 3%. The per-trial excess is a sum of D ≈ 30k independent terms, so its
// relative standard deviation is ≈ 0.3% or less.
func TestBoxExponentialExcess(t *testing.T) {
	ref := map[float64]float64{0: .469, 1: .394, 4: .221, 16: .061, 64: .0152, 256: .0038}
	for s, want := range ref {
		e := mustRun(t, Options{N: 4, Xi: .1, Mechanism: BoxExponential, S: fptr(s), Trials: 3, Seed: seed(2)})
		got, exp := mean(e.ExcessOverD), mean(e.ExpectedExcessOverD)
		if math.Abs(got-exp) > 0.01*exp {
			t.Errorf("s=%g: excess/D %.5f, closed form %.5f", s, got, exp)
		}
		if math.Abs(exp-want) > 0.03*want {
			t.Errorf("s=%g: closed form %.5f, note's table %.4f", s, exp, want)
		}
		if e.Mechanism.Epsilon != 2*float64(e.Code.Length)*s/4 {
			t.Errorf("ε_pure = %g, want 2Ds/n", e.Mechanism.Epsilon)
		}
	}
}

// boxExcessGap runs one pass of law on a fresh code and returns the relative
// gap between the sampled excess and the closed form of the correct law.
func boxExcessGap(t *testing.T, lambdaSign float64) float64 {
	code, _ := fingerprint.New(fingerprint.Params{N: 4, Xi: .1}, rng.Seeded(3))
	o := Options{N: 4, Copies: 1}
	lambda := 4.0 / 4 // s = λn = 4
	p, _ := o.pass(code, boxLaw{lambda: lambdaSign * lambda, rows: 4}, -1, rng.Seeded(4), func(int) error { return nil })
	q, _ := o.pass(code, boxLaw{lambda: lambda, rows: 4}, -1, rng.Seeded(4), func(int) error { return nil })
	return math.Abs(p.excess-q.expected) / q.expected
}

// A box mechanism with the rate's sign flipped (favouring the wrong bit)
// fails the same 1% comparison.
func TestBoxExponentialCatchesSign(t *testing.T) {
	if g := boxExcessGap(t, 1); g > 0.01 {
		t.Fatalf("correct law off by %.3f", g)
	}
	if g := boxExcessGap(t, -1); g <= 0.01 {
		t.Errorf("sign-flipped law within 1%% (%.4f) of the closed form", g)
	}
}

// KS test of box-mechanism draws against the truncated exponential CDF
// F(x) = (1 − e^{−ax})/(1 − e^{−a}) at the 1% level (1.628/√m).
func TestTruncExpKS(t *testing.T) {
	const m = 20000
	r := rng.Seeded(5)
	for _, a := range []float64{-3, -0.5, 1e-13, 0.7, 8} {
		x := make([]float64, m)
		for i := range x {
			x[i] = truncExp(r, a)
		}
		sort.Float64s(x)
		cdf := func(v float64) float64 {
			if math.Abs(a) < 1e-12 {
				return v
			}
			return math.Expm1(-a*v) / math.Expm1(-a)
		}
		d := 0.0
		for i, v := range x {
			f := cdf(v)
			d = math.Max(d, math.Max(float64(i+1)/m-f, f-float64(i)/m))
		}
		if d > 1.628/math.Sqrt(m) {
			t.Errorf("a=%g: KS %.4f > %.4f", a, d, 1.628/math.Sqrt(m))
		}
		if a > 0 && math.Abs(mean(x)-meanTruncExp(a)) > 4.5*math.Sqrt(1.0/12/m) {
			t.Errorf("a=%g: mean %.4f, g(a) = %.4f", a, mean(x), meanTruncExp(a))
		}
	}
}

// Algorithm 1 on the ℓ1 instance: the calibration identity s = 2G√η/(n√μ)
// = s*(ε,δ) with G = √D, δ_s(ε) ≤ δ, and a, b as documented.
func TestAlgorithm1Calibration(t *testing.T) {
	for _, c := range []struct {
		n, D       int
		eps, delta float64
	}{{4, 47935, 1, 1e-6}, {8, 213910, 0.5, 1e-5}, {12, 100, 4, 1e-3}} {
		info, err := Algorithm1(c.n, c.D, c.eps, c.delta)
		if err != nil {
			t.Fatal(err)
		}
		G := math.Sqrt(float64(c.D))
		s := 2 * G * math.Sqrt(info.Eta) / (float64(c.n) * math.Sqrt(info.Mu))
		if math.Abs(s-info.GDP) > 1e-12*s {
			t.Errorf("GDP %g, want 2G√η/(n√μ) = %g", info.GDP, s)
		}
		if d, _ := privacy.Delta(s, c.eps); d > c.delta*(1+1e-9) {
			t.Errorf("δ_s(ε) = %g > δ = %g", d, c.delta)
		}
		if math.Abs(info.A-info.Eta/float64(c.n)) > 1e-15 || math.Abs(info.B-2*info.A*info.A*float64(c.D)/(s*s)) > 1e-9*info.B {
			t.Errorf("a, b = %g, %g inconsistent with η, μ", info.A, info.B)
		}
	}
}

// quadExcess integrates E[excess] for one coordinate of Algorithm 1's law
// p(t) ∝ exp(−a·(ones|t−1| + zeros|t|) − b t²) by the trapezoid rule.
func quadExcess(a, b float64, ones, rows int) float64 {
	sd := 1 / math.Sqrt(2*b)
	lo, hi := -12*sd-1, 12*sd+2
	const m = 200000
	h := (hi - lo) / m
	var z, num float64
	for i := 0; i <= m; i++ {
		tt := lo + float64(i)*h
		w := math.Exp(-a*(float64(ones)*math.Abs(tt-1)+float64(rows-ones)*math.Abs(tt)) - b*tt*tt)
		if i == 0 || i == m {
			w /= 2
		}
		z += w
		num += w * excess(tt, ones, rows)
	}
	return num / z
}

// Algorithm 1's mean excess matches quadrature of its exact law, column by
// column (checks the whole pipeline: counts, sampler, excess), and at a
// realistic privacy level it is far above the 1/150 line and rarely traced.
func TestExponentialMechanism(t *testing.T) {
	o := Options{N: 4, Xi: .1, Mechanism: Exponential, Epsilon: 1, Delta: 1e-6, Trials: 2, Ghosts: 50, Seed: seed(6)}
	e := mustRun(t, o)
	code, _ := fingerprint.New(fingerprint.Params{N: 4, Xi: .1}, rng.Seeded(7))
	want := 0.0
	perOnes := map[int]float64{}
	for k := range code.Length {
		ones := code.Ones(k)
		if _, ok := perOnes[ones]; !ok {
			perOnes[ones] = quadExcess(e.Mechanism.A, e.Mechanism.B, ones, 4)
		}
		want += perOnes[ones]
	}
	want /= float64(code.Length)
	got := mean(e.ExcessOverD)
	t.Logf("exponential ε=1 δ=1e-6: excess/D %.4f (quadrature %.4f), traced %.2f, η=%.4g μ=%.4g", got, want, e.Rates.Traced, e.Mechanism.Eta, e.Mechanism.Mu)
	// The code differs between the run and this check, but the share of each
	// column count only fluctuates by O(1/√d₀); 2% covers it.
	if math.Abs(got-want) > 0.02*want {
		t.Errorf("excess/D %.4f, quadrature %.4f", got, want)
	}
	if got < 1.0/150 {
		t.Errorf("ε = 1 gave excess/D %.4f below 1/150", got)
	}
}

// Gaussian baseline: σ = √D/(n·s*) and the output is clipped to [0,1].
func TestGaussianMechanism(t *testing.T) {
	e := mustRun(t, Options{N: 4, Xi: .1, Mechanism: Gaussian, Epsilon: 1, Delta: 1e-5, Trials: 1, Seed: seed(8)})
	s, _ := privacy.Calibrate(1, 1e-5)
	if want := math.Sqrt(float64(e.Code.Length)) / (4 * s); math.Abs(e.Mechanism.Sigma-want) > 1e-12*want {
		t.Errorf("σ = %g, want %g", e.Mechanism.Sigma, want)
	}
	if e.ExcessOverD[0] <= 0 || e.ExcessOverD[0] > 0.5 {
		t.Errorf("excess/D %g outside (0, ½]", e.ExcessOverD[0])
	}
}

// sigmaFixed reports whether the removal pass's law keeps the full
// dataset's σ (a neighbour under the same mechanism).
func sigmaFixed(o Options, lawRem columnLaw, full MechanismInfo) bool {
	g, ok := lawRem.(gaussLaw)
	return ok && g.sigma == full.Sigma && g.rows == o.rows(0)-o.Copies
}

// Removing a person must not re-calibrate the Gaussian: σ stays
// √D/(N·s*) with N the full row count, while the mean is taken over the
// remaining rows. The old re-calibrated law (σ = √D/((N−k)·s*)) fails.
func TestGaussianSigmaFixedUnderRemoval(t *testing.T) {
	o, l, err := Options{N: 4, Xi: .1, Mechanism: Gaussian, Epsilon: 1, Delta: 1e-5, Copies: 2, Remove: iptr(1)}.normalize()
	if err != nil {
		t.Fatal(err)
	}
	full, _ := fullInfo(o, l.Length)
	rem, _, _ := o.law(o.rows(0)-o.dropped(), l.Length, full)
	if !sigmaFixed(o, rem, full) {
		t.Errorf("removal law %+v, full σ %g", rem, full.Sigma)
	}
	recal := gaussLaw{sigma: math.Sqrt(float64(l.Length)) / (float64(o.rows(1)) * full.GDP), rows: o.rows(1)}
	if sigmaFixed(o, recal, full) {
		t.Error("the re-calibrated σ passed")
	}
	// Algorithm 1's per-coordinate a = s/√(2D), b = 1 do not depend on N.
	a4, _ := Algorithm1(8, l.Length, 1, 1e-5)
	a3, _ := Algorithm1(6, l.Length, 1, 1e-5)
	if math.Abs(a4.A-a3.A) > 1e-12*a4.A || math.Abs(a4.B-a3.B) > 1e-12 {
		t.Errorf("Algorithm 1's (a, b) depend on N: %g, %g vs %g, %g", a4.A, a4.B, a3.A, a3.B)
	}
}

// groupDeltaOK is the exact check that a run's implied ε uses the group δ of
// Lemma 3.6 for the GDP mechanisms: δ_{k·s}(k·ε), with s the per-row GDP
// parameter, recomputed here from privacy.Delta.
func groupDeltaOK(e Experiment) (ok bool, want float64) {
	k := float64(e.Options.Copies)
	want, _ = privacy.Delta(k*e.Mechanism.GDP, k*e.Options.Epsilon)
	if e.Options.Copies == 1 {
		want = e.Options.Delta
	}
	close := func(x float64) bool { return math.Abs(x-want) <= 1e-12*want }
	return close(e.Claim.Delta) && e.ImpliedEpsilon != nil && close(e.ImpliedEpsilon.Delta), want
}

// Lemma 3.6's group dataset: k copies + padding. In every trial and in both
// passes the trace names one of the n distinct users (or ⊥ after removal),
// the median on k copies is still exact, and the privacy claim for a
// person's k rows uses the group δ — a run whose implied ε used the per-row δ
// fails the same check.
func TestGroupPrivacy(t *testing.T) {
	e := mustRun(t, Options{N: 4, Xi: .1, Mechanism: Median, Copies: 3, Pad: 2, Trials: 5, Remove: iptr(2), Seed: seed(9)})
	if e.Rows != 14 {
		t.Errorf("rows = %d, want 3·4+2", e.Rows)
	}
	if len(e.Returned) != e.Trials || len(e.RemovedReturned) != e.Trials {
		t.Fatalf("%d trials, %d and %d returned users", e.Trials, len(e.Returned), len(e.RemovedReturned))
	}
	for i := range e.Trials {
		if !e.Traced[i] || e.Returned[i] < 0 || e.Returned[i] >= 4 || e.ExcessOverD[i] != 0 {
			t.Errorf("trial %d, full data: traced %v, returned %d, excess %g", i, e.Traced[i], e.Returned[i], e.ExcessOverD[i])
		}
		if r := e.RemovedReturned[i]; r < -1 || r >= 4 || (r == 2 && !e.RemovedAccused[i]) {
			t.Errorf("trial %d, without user 2: returned %d, removed accused %v", i, r, e.RemovedAccused[i])
		}
	}
	if e.Claim.Epsilon != nil || e.Claim.Rule != "none" {
		t.Errorf("median claim %+v", e.Claim)
	}

	g := mustRun(t, Options{N: 4, Xi: .1, Mechanism: Gaussian, Epsilon: 1, Delta: 1e-5, Copies: 3, Trials: 2, Remove: iptr(0), Seed: seed(15)})
	ok, want := groupDeltaOK(g)
	t.Logf("k=3, ε=1, δ=1e-5: group δ %.3e (GDP 3s = %.4f), generic rule %.3e, per-row %.0e", want, g.Claim.GDP, g.Claim.DeltaGeneric, g.Options.Delta)
	if !ok || *g.Claim.Epsilon != 3 || g.Claim.GDP != 3*g.Mechanism.GDP {
		t.Errorf("group claim %+v, implied δ %g; want δ = %g", g.Claim, g.ImpliedEpsilon.Delta, want)
	}
	if math.Abs(g.Claim.DeltaGeneric-3*math.Exp(2)*1e-5) > 1e-15 || want >= g.Claim.DeltaGeneric {
		t.Errorf("generic δ %g, want 3e²·1e-5 (and above the GDP δ %g)", g.Claim.DeltaGeneric, want)
	}
	bad := g
	bad.ImpliedEpsilon = ImpliedEpsilon(count(g.MemberAccused), count(g.RemovedAccused), g.Trials, g.Options.Delta, .05)
	if ok, _ := groupDeltaOK(bad); ok {
		t.Error("the per-row δ passed the group-δ check")
	}
	one := mustRun(t, Options{N: 4, Xi: .1, Mechanism: Exponential, Epsilon: 1, Delta: 1e-5, Trials: 1, Remove: iptr(0), Seed: seed(16)})
	if ok, _ := groupDeltaOK(one); !ok {
		t.Errorf("k = 1: claim δ %g, implied δ %g, want δ = 1e-5", one.Claim.Delta, one.ImpliedEpsilon.Delta)
	}

	r := rng.Seeded(10)
	for range 2000 {
		k, nk := 1+r.IntN(20), 1+r.IntN(30)
		n := k*nk + r.IntN(k)
		z := make([]float64, nk)
		for i := range z {
			z[i] = float64(r.IntN(3)) / 2
		}
		gap, bound, err := GroupGap(z, k, n, r.Float64())
		if err != nil {
			t.Fatal(err)
		}
		if gap > bound || gap > 2*float64(n-k*nk)/float64(n)+1e-12 {
			t.Fatalf("k=%d n=%d: gap %g exceeds 3k/n = %g or 2r/n", k, n, gap, bound)
		}
	}
	if _, _, err := GroupGap([]float64{0, 1}, 3, 9, .5); err == nil || !strings.HasPrefix(err.Error(), "n must be") {
		t.Errorf("n outside [k·n_k, k·n_k+k−1]: %v", err)
	}
}

func TestImpliedEpsilonAllVsNone(t *testing.T) {
	im := ImpliedEpsilon(20, 0, 20, 0, .05)
	if im.Estimate != nil || im.Upper != nil || im.Lower <= 0 {
		t.Errorf("20/20 vs 0/20: %+v", im)
	}
}

func TestTable(t *testing.T) {
	in := BoundsInput{N: 1000, D: 10000, Rank: 10, Epsilon: 1, Delta: 1e-6, G: 2, C: 3}
	rows, err := Table(in)
	if err != nil {
		t.Fatal(err)
	}
	byFormula := map[string]float64{}
	for _, r := range rows {
		if r.Value != 6*r.Normalized {
			t.Errorf("%s: value %g ≠ GC·%g", r.Source, r.Value, r.Normalized)
		}
		byFormula[r.Source+"|"+r.Privacy] = r.Normalized
	}
	l := math.Log(1e6)
	checks := map[string]float64{
		"Steinke and Ullman (2016)|approximate": math.Sqrt(1e4*l) / 1000,
		"Lee–Liu–Lu (Theorem 2.2)|approximate":  math.Sqrt(10*l) / 1000,
		"Song et al. (2021)|approximate":        math.Sqrt(10) / 1000,
		"Asi et al. (2021)|approximate":         100 / (1000 * math.Log(1e4)),
		"Bassily et al. (2014)|pure":            10,
		"Lee–Liu–Lu (Theorem 3.7)|approximate":  math.Min(1, math.Sqrt(1e4*l)/1000),
	}
	for k, want := range checks {
		if got := byFormula[k]; math.Abs(got-want) > 1e-12*want {
			t.Errorf("%s = %g, want %g", k, got, want)
		}
	}
	// The rank-dependent upper bound sits below the d-dependent lower bound
	// whenever rank < d: the paper's separation.
	if byFormula["Lee–Liu–Lu (Theorem 2.2)|approximate"] >= byFormula["Steinke and Ullman (2016)|approximate"] {
		t.Error("Theorem 2.2 not below the √d lower bound at rank ≪ d")
	}
	for _, c := range []struct {
		in    BoundsInput
		field string
	}{
		{BoundsInput{N: 0, D: 1, Rank: 1, Epsilon: 1, Delta: .1, G: 1, C: 1}, "n"},
		{BoundsInput{N: 1, D: 5, Rank: 6, Epsilon: 1, Delta: .1, G: 1, C: 1}, "rank"},
		{BoundsInput{N: 1, D: 5, Rank: 1, Epsilon: math.NaN(), Delta: .1, G: 1, C: 1}, "epsilon"},
		{BoundsInput{N: 1, D: 5, Rank: 1, Epsilon: 1, Delta: 1, G: 1, C: 1}, "delta"},
		{BoundsInput{N: 1, D: 5, Rank: 1, Epsilon: 1, Delta: .1, G: 0, C: 1}, "G"},
	} {
		if _, err := Table(c.in); err == nil || !strings.HasPrefix(err.Error(), c.field+" must be") {
			t.Errorf("%+v: %v", c.in, err)
		}
	}
}

// Progress is reported per chunk up to total, and cancelling from inside the
// callback stops the run with the trials completed so far.
func TestProgressAndCancel(t *testing.T) {
	var last, calls, total int
	e, err := Run(context.Background(), Options{N: 4, Xi: .1, Mechanism: Median, Trials: 3, Remove: iptr(0), Seed: seed(11)},
		func(done, tot int) {
			if done <= last {
				t.Errorf("progress not increasing: %d after %d", done, last)
			}
			last, total = done, tot
			calls++
		})
	if err != nil || last != total || total != 3*2*e.Code.Length || calls < 6 {
		t.Errorf("progress: last %d total %d calls %d err %v", last, total, calls, err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	e, err = Run(ctx, Options{N: 4, Xi: .1, Mechanism: Median, Trials: 50, Seed: seed(12)}, func(done, tot int) {
		if done > 2*e.Code.Length+1 || done > tot/10 {
			cancel()
		}
	})
	if !errors.Is(err, context.Canceled) || e.Trials == 0 || e.Trials >= 50 || len(e.Traced) != e.Trials {
		t.Errorf("cancel: err %v, %d trials", err, e.Trials)
	}
}

func TestRunBadInput(t *testing.T) {
	for _, c := range []struct {
		o     Options
		field string
	}{
		{Options{N: 1, Xi: .1, Mechanism: Median}, "n"},
		{Options{N: 4, Xi: 1.5, Mechanism: Median}, "xi"},
		{Options{N: 4, Xi: .1, Mechanism: "laplace"}, "mechanism"},
		{Options{N: 4, Xi: .1, Mechanism: Exponential, Epsilon: 1}, "delta"},
		{Options{N: 4, Xi: .1, Mechanism: Gaussian, Epsilon: math.Inf(1), Delta: .1}, "epsilon"},
		{Options{N: 4, Xi: .1, Mechanism: BoxExponential}, "epsilon"},
		{Options{N: 4, Xi: .1, Mechanism: BoxExponential, S: fptr(math.NaN())}, "s"},
		{Options{N: 4, Xi: .1, Mechanism: Median, Remove: iptr(4)}, "remove"},
		{Options{N: 4, Xi: .1, Mechanism: Median, Trials: -1}, "trials"},
		{Options{N: 4, Xi: .1, Mechanism: Median, Ghosts: -5}, "ghosts"},
		{Options{N: 4, Xi: .1, Mechanism: Median, Copies: -1}, "copies"},
		{Options{N: 300, Xi: .01, Mechanism: Median}, "n"},
	} {
		_, err := Run(context.Background(), c.o, nil)
		if err == nil || !strings.HasPrefix(err.Error(), c.field+" must be") {
			t.Errorf("%+v: %v", c.o, err)
		}
	}
}

// TestAlgorithm1ReachesAccuracy: with dpsample's default η rule the data term
// wins once ε ≳ D/n², so sweeping ε moves Algorithm 1 from the untraceable
// regime (excess/D ≈ ½) into the accurate one (excess/D < 1/150), where
// Lemma G.2 says it must be traced — the dichotomy the demo shows. The
// expected excess per coordinate is integrated by quadrature, so this test is
// deterministic.
func TestAlgorithm1ReachesAccuracy(t *testing.T) {
	const n, D = 4, 33275
	prev := math.Inf(1)
	for _, eps := range []float64{1, 1e2, 1e4, 1e6, 1e8} {
		info, err := Algorithm1(n, D, eps, 1e-6)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(info.B-1) > 1e-9 {
			t.Errorf("ε=%g: b = %g, want 1 under the optimal η rule", eps, info.B)
		}
		// A 3-of-4 majority column, the typical informative column.
		ex := quadExcess(info.A, info.B, 3, n)
		if !(ex < prev) {
			t.Errorf("ε=%g: excess %g did not fall (previous %g)", eps, ex, prev)
		}
		prev = ex
		t.Logf("ε=%g: a=%.4g b=%.4g expected excess of a 3-of-4 column %.4g", eps, info.A, info.B, ex)
	}
	if prev > 1.0/150 {
		t.Errorf("at ε = 1e8 the excess per coordinate is %g, not in the accurate regime (< 1/150)", prev)
	}
}

// TestTableNoContradiction: no lower bound that applies at the inputs and
// speaks about Theorem 2.2's setting (unconstrained, ℓ2 geometry, (ε, δ)-DP)
// exceeds Theorem 2.2's upper bound at the same inputs (constants 1), at the
// given rank and at full rank k = d. Without the rank conditions, Theorem
// 3.7 (full rank) at k = 3 < d = 500 sits an order of magnitude above it — the
// contradiction a student read at <dp-bounds>'s defaults.
func TestTableNoContradiction(t *testing.T) {
	def, err := Table(BoundsInput{N: 2000, D: 500, Rank: 3, Epsilon: 1, Delta: 1e-5, G: 1, C: 1})
	if err != nil {
		t.Fatal(err)
	}
	if r := def[7]; r.Source != "Lee–Liu–Lu (Theorem 3.7)" || r.Applies || r.Rank != "full" || !strings.Contains(r.Why, "full rank") {
		t.Errorf("Theorem 3.7 at the defaults: %+v; want rank full, not applying at k = 3 < d", r)
	}
	if r := def[3]; r.Source != "Song et al. (2021)" || !r.Applies || r.Rank != "k" {
		t.Errorf("Song et al. at the defaults: %+v; want rank k, applying", r)
	}
	checked := 0
	for _, n := range []int{100, 2000, 100000} {
		for _, d := range []int{1, 5, 500, 100000} {
			for _, k := range []int{1, 3, d} {
				for _, eps := range []float64{0.3, 1, 4} {
					for _, delta := range []float64{1e-3 / float64(n), 1e-9} {
						in := BoundsInput{N: n, D: d, Rank: min(k, d), Epsilon: eps, Delta: delta, G: 1, C: 1}
						rows, err := Table(in)
						if err != nil {
							t.Fatal(err)
						}
						upper := rows[8]
						for _, r := range rows[:8] {
							if !r.Applies || r.Constrained == "constrained" || r.Geometry == "p=1" {
								continue
							}
							checked++
							if r.Value > upper.Value*(1+1e-12) {
								t.Errorf("%+v: %s (%s) = %g above Theorem 2.2's %g", in, r.Source, r.Why, r.Value, upper.Value)
							}
						}
					}
				}
			}
		}
	}
	if checked < 100 {
		t.Errorf("only %d comparisons made", checked)
	}
}

// TestTableWhy: every row says in words whether it applies ("yes: …" or
// "no: …"), in step with Applies, for inputs that exercise each condition.
//
// Pure-DP rows (δ = 0) never apply at the δ > 0 the table admits (issue 45):
// at k = d = 500 Lee–Liu–Lu's pure d/(nε) = 0.25 would otherwise sit above
// Theorem 2.2's 0.038, which TestTableNoContradiction now also checks.
func TestTableWhy(t *testing.T) {
	for _, in := range []BoundsInput{
		{N: 2000, D: 500, Rank: 3, Epsilon: 1, Delta: 1e-5, G: 1, C: 1},
		{N: 2000, D: 500, Rank: 500, Epsilon: 0.3, Delta: 1e-5, G: 1, C: 1},
		{N: 2000, D: 1, Rank: 1, Epsilon: 2, Delta: 1e-5, G: 1, C: 1},
	} {
		rows, err := Table(in)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range rows {
			if want := map[bool]string{true: "yes: ", false: "no: "}[r.Applies]; !strings.HasPrefix(r.Why, want) {
				t.Errorf("%+v %s: applies %v, why %q", in, r.Source, r.Applies, r.Why)
			}
		}
		full := in.Rank == in.D
		for _, r := range rows {
			if r.Privacy == "pure" && (r.Applies || !strings.Contains(r.Why, "pure-DP bound (δ = 0)") || !strings.Contains(r.Why, "δ > 0")) {
				t.Errorf("%+v %s: a pure-DP row at δ > 0: applies %v, why %q", in, r.Source, r.Applies, r.Why)
			}
		}
		if got := rows[7].Applies; got != (full && in.Epsilon <= 1) {
			t.Errorf("%+v: Theorem 3.7 applies = %v", in, got)
		}
		if got := rows[8].Applies; got != (in.Epsilon < 0.5) {
			t.Errorf("%+v: Theorem 2.2 applies = %v", in, got)
		}
	}
}
