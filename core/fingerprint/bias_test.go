package fingerprint

import (
	"math"
	"math/rand/v2"
	"sort"
	"testing"

	"github.com/dpsample/dpsample/core/rng"
)

// ksUniform is the one-sample Kolmogorov–Smirnov statistic of x against
// U[lo, hi].
func ksUniform(x []float64, lo, hi float64) float64 {
	s := append([]float64(nil), x...)
	sort.Float64s(s)
	m := float64(len(s))
	d := 0.0
	for i, v := range s {
		f := (v - lo) / (hi - lo)
		d = math.Max(d, math.Max(float64(i+1)/m-f, f-float64(i)/m))
	}
	return d
}

// biasLawCheck draws m biases with draw and reports whether they pass the
// §7 test 2: p ∈ [t, 1−t], mean ½ ± 4.5 standard errors, and a KS test of
// asin√p against U[t′, π/2−t′] at the 1% level (critical value 1.628/√m).
func biasLawCheck(t *testing.T, n, m int, draw func(r *rand.Rand, tPrime float64) float64) (ok bool, ks, mean float64) {
	l, err := Compute(Params{N: n, Xi: .1})
	if err != nil {
		t.Fatal(err)
	}
	r := rng.Seeded(11)
	arc := make([]float64, m)
	ok = true
	var sum, sum2 float64
	for i := range arc {
		p := draw(r, l.TPrime)
		if p < l.T*(1-1e-12) || p > 1-l.T*(1-1e-12) {
			ok = false
		}
		sum += p
		sum2 += p * p
		arc[i] = math.Asin(math.Sqrt(p))
	}
	mean = sum / float64(m)
	se := math.Sqrt((sum2/float64(m) - mean*mean) / float64(m))
	ks = ksUniform(arc, l.TPrime, math.Pi/2-l.TPrime)
	ok = ok && math.Abs(mean-.5) <= 4.5*se && ks < 1.628/math.Sqrt(float64(m))
	return ok, ks, mean
}

func TestBiasLaw(t *testing.T) {
	const m = 100000
	for _, n := range []int{2, 4, 8} {
		if ok, ks, mean := biasLawCheck(t, n, m, sampleBias); !ok {
			t.Errorf("n=%d: bias law rejected: KS=%.4f (crit %.4f), mean=%.4f", n, ks, 1.628/math.Sqrt(m), mean)
		}
	}
	// Broken laws the same test must reject: p = sin r (no square), and the
	// arcsine law without the cutoff t′ (r uniform on [0, π/2]).
	noSquare := func(r *rand.Rand, tp float64) float64 { return math.Sin(tp + (math.Pi/2-2*tp)*r.Float64()) }
	noCutoff := func(r *rand.Rand, tp float64) float64 { s := math.Sin(math.Pi / 2 * r.Float64()); return s * s }
	for name, f := range map[string]func(*rand.Rand, float64) float64{"sin r": noSquare, "no cutoff": noCutoff} {
		if ok, ks, mean := biasLawCheck(t, 4, m, f); ok {
			t.Errorf("broken bias law %q passed (KS=%.4f mean=%.4f)", name, ks, mean)
		}
	}
}

// uMoments draws m pairs (p, X ~ Bernoulli(p)) and returns the sample mean,
// variance and fourth moment of u(p, X).
func uMoments(n, m int, u func(p float64, x bool) float64) (mean, vr, m4 float64) {
	l, _ := Compute(Params{N: n, Xi: .1})
	r := rng.Seeded(12)
	var s1, s2, s4 float64
	for range m {
		p := sampleBias(r, l.TPrime)
		v := u(p, r.Float64() < p)
		s1 += v
		s2 += v * v
		s4 += v * v * v * v
	}
	fm := float64(m)
	mean = s1 / fm
	return mean, s2/fm - mean*mean, s4 / fm
}

func uCorrect(p float64, x bool) float64 {
	q := math.Sqrt((1 - p) / p)
	if x {
		return q
	}
	return -1 / q
}

// TestUMoments is §7 test 3: for an innocent, E U = 0 and Var U = 1. The
// tolerances come from the sample: the mean's standard error is 1/√m, the
// variance's is √((E U⁴ − 1)/m) with E U⁴ ≈ 43 (n=4) to 61 (n=8); both are
// checked at 4.5 standard errors (two-sided false-failure rate < 1e-5).
func TestUMoments(t *testing.T) {
	const m = 100000
	for _, n := range []int{4, 8} {
		mean, vr, m4 := uMoments(n, m, uCorrect)
		seMean, seVar := 1/math.Sqrt(m), math.Sqrt((m4-1)/m)
		if math.Abs(mean) > 4.5*seMean || math.Abs(vr-1) > 4.5*seVar {
			t.Errorf("n=%d: E U = %.4f (±%.4f), Var U = %.4f (±%.4f)", n, mean, seMean, vr, seVar)
		}
	}
	// The classic sign slip U = −q for a 0 is not mean-zero; the test must see it.
	bad := func(p float64, x bool) float64 {
		q := math.Sqrt((1 - p) / p)
		if x {
			return q
		}
		return -q
	}
	mean, vr, m4 := uMoments(4, m, bad)
	if math.Abs(mean) <= 4.5/math.Sqrt(m) && math.Abs(vr-1) <= 4.5*math.Sqrt((m4-1)/m) {
		t.Errorf("U = ±q passed the moment test (mean %.4f, var %.4f)", mean, vr)
	}
}
