package baseline

import (
	"errors"
	"math"
	"sort"
	"testing"

	"github.com/dpsample/dpsample/core/checks"
	"github.com/dpsample/dpsample/core/loss"
	"github.com/dpsample/dpsample/core/privacy"
	"github.com/dpsample/dpsample/core/rng"
)

// TestOutputPertAccounting: σ = Δ/s* makes the Gaussian mechanism with
// sensitivity Δ = (1+2·tol)·2G/(nμ) meet (ε, δ) on the exact GDP curve, tightly.
func TestOutputPertAccounting(t *testing.T) {
	for _, tc := range []OutputPert{
		{Epsilon: 1, Delta: 1e-5, Mu: 0.1, G: 1, Tol: 0.01},
		{Epsilon: 0.1, Delta: 1e-6, Mu: 1, G: 2, Tol: 1e-6},
		{Epsilon: 5, Delta: 3e-5, Mu: 0.01, G: 0.5, Tol: 0.3},
	} {
		for _, n := range []int{10, 455, 10000} {
			sigma, err := tc.Sigma(n)
			if err != nil {
				t.Fatal(err)
			}
			sens := (1 + 2*tc.Tol) * 2 * tc.G / (float64(n) * tc.Mu)
			d, err := privacy.Delta(sens/sigma, tc.Epsilon)
			if err != nil {
				t.Fatal(err)
			}
			if d > tc.Delta*(1+1e-9) || d < tc.Delta*(1-1e-4) {
				t.Errorf("%+v n=%d: δ(Δ/σ) = %g, want %g (tight)", tc, n, d, tc.Delta)
			}
		}
	}
}

// ksNormal is the one-sample Kolmogorov–Smirnov statistic of v against N(0,1).
func ksNormal(v []float64) float64 {
	s := append([]float64(nil), v...)
	sort.Float64s(s)
	var dmax float64
	m := float64(len(s))
	for i, x := range s {
		f := privacy.Phi(x)
		dmax = math.Max(dmax, math.Max(f-float64(i)/m, float64(i+1)/m-f))
	}
	return dmax
}

// TestOutputPertNoise: the released θ minus the certified minimiser,
// standardised by σ, passes a KS test against N(0,1) at α = 0.05 (critical
// value 1.36/√m), and a broken calibration with the add/remove sensitivity
// G/(nμ) (half the replace-one one) fails the same test.
func TestOutputPertNoise(t *testing.T) {
	r := rng.Seeded(11)
	data, _ := NewRankK(40, 3, r)
	set, _ := loss.New(loss.Logistic, data.Z, data.Y, loss.Params{Clip: 1})
	p := OutputPert{Epsilon: 1, Delta: 1e-5, Mu: 0.2, G: 1, Tol: 0.01}
	sigma, _ := p.Sigma(set.N())
	tol := p.Tol * 2 * p.G / (float64(set.N()) * p.Mu)
	fit, err := Regularized(set, p.Mu, tol*1e-2, 10000)
	if err != nil {
		t.Fatal(err)
	}
	var good, bad []float64
	for i := 0; i < 700; i++ {
		out, err := OutputPerturbation(set, p, r)
		if err != nil {
			t.Fatal(err)
		}
		for j, v := range out {
			good = append(good, (v-fit.Theta[j])/sigma)
		}
		// Broken: sensitivity G/(nμ) (add/remove), i.e. Mu doubled in the calibration only.
		bp := p
		bp.Mu *= 2
		bsigma, _ := bp.Sigma(set.N())
		for j := range out {
			bad = append(bad, (fit.Theta[j]+bsigma*r.NormFloat64()-fit.Theta[j])/sigma)
		}
	}
	crit := 1.36 / math.Sqrt(float64(len(good)))
	// The certified solver error (≤ tol = 1% of the sensitivity) shifts the mean
	// by at most tol/σ standard units; allow it on top of the KS bound.
	if ks := ksNormal(good); ks > crit+tol/sigma {
		t.Errorf("output perturbation noise: KS = %.4f > %.4f", ks, crit+tol/sigma)
	}
	if ks := ksNormal(bad); ks <= crit+tol/sigma {
		t.Errorf("broken (add/remove) calibration passed: KS = %.4f ≤ %.4f", ks, crit+tol/sigma)
	}
}

// TestObjPertAccounting: Sigma inverts the stated bound
// ε = log(1+β/(nλ)) + 2G²/σ² + 2G√(2ln(1/δ))/σ, and too small a λ is
// rejected naming "lambda".
func TestObjPertAccounting(t *testing.T) {
	for _, tc := range []struct {
		p ObjPert
		n int
	}{
		{ObjPert{Epsilon: 1, Delta: 1e-5, Lambda: 0.01, Clip: 1}, 455},
		{ObjPert{Epsilon: 0.1, Delta: 1e-6, Lambda: 0.5, Clip: 1}, 100},
		{ObjPert{Epsilon: 5, Delta: 3e-5, Lambda: 1e-3, Clip: 2}, 1000},
	} {
		sigma, err := tc.p.Sigma(tc.n)
		if err != nil {
			t.Fatal(err)
		}
		g, tt := tc.p.Clip, math.Sqrt(2*math.Log(1/tc.p.Delta))
		ej := math.Log(1 + tc.p.Clip*tc.p.Clip/4/(float64(tc.n)*tc.p.Lambda))
		eps := ej + 2*g*g/(sigma*sigma) + 2*g*tt/sigma
		if eps > tc.p.Epsilon || eps < tc.p.Epsilon*(1-1e-9) {
			t.Errorf("%+v: ε(σ) = %.15g, want %g (tight, never above)", tc, eps, tc.p.Epsilon)
		}
	}
	p := ObjPert{Epsilon: 0.1, Delta: 1e-5, Lambda: 1e-6, Clip: 1}
	_, err := p.Sigma(100)
	var ce *checks.Error
	if !errors.As(err, &ce) || ce.Field != "lambda" {
		t.Errorf("tiny λ: got %v, want an error naming lambda", err)
	}
}

// TestObjPertExactPrivacy checks objective perturbation's (ε, δ) end to end
// in d = 1, where the output density is explicit: θ̂ = b_D⁻¹(b) with
// b_D(θ) = −(Σℓ′(θ; z_i) + Λθ), so p_D(θ) = ν(b_D(θ))·(Σℓ″(θ; z_i) + Λ).
// For neighbouring D, D′ (one record replaced by its worst opposite) the
// hockey-stick divergence ∫ max(0, p_D − e^ε p_D′) dθ, integrated on a fine
// grid, must be ≤ δ in both directions. A broken σ (a fifth of the
// calibrated one) must exceed δ.
func TestObjPertExactPrivacy(t *testing.T) {
	const n = 20
	p := ObjPert{Epsilon: 1, Delta: 1e-3, Lambda: 0.05, Clip: 1}
	sigma, err := p.Sigma(n)
	if err != nil {
		t.Fatal(err)
	}
	r := rng.Seeded(5)
	x := make([]float64, n)
	y := make([]float64, n)
	for i := range x {
		x[i] = 2*r.Float64() - 1
		y[i] = 1
	}
	x2 := append([]float64(nil), x...)
	x2[0] = -x[0]
	if x[0] > 0 {
		x2[0] = -1
	} else {
		x2[0] = 1
	}
	lam := float64(n) * p.Lambda
	// density of the output for data xs at θ, with noise scale s.
	dens := func(xs []float64, th, s float64) float64 {
		var d1, d2 float64
		for i, xi := range xs {
			m := y[i] * th * xi
			sg := 1 / (1 + math.Exp(m)) // σ(−m)
			d1 += -y[i] * sg * xi
			d2 += sg * (1 - sg) * xi * xi
		}
		b := -(d1 + lam*th)
		return math.Exp(-b*b/(2*s*s)) / (s * math.Sqrt(2*math.Pi)) * (d2 + lam)
	}
	hockey := func(a, b []float64, s float64) float64 {
		// θ ranges over b_D⁻¹ of ±12σ: |θ| ≤ (12σ + n)/Λ.
		lim := (12*s + float64(n)) / lam
		const m = 200000
		h := 2 * lim / m
		var sum float64
		for i := 0; i < m; i++ {
			th := -lim + (float64(i)+0.5)*h
			sum += math.Max(0, dens(a, th, s)-math.Exp(p.Epsilon)*dens(b, th, s)) * h
		}
		return sum
	}
	for _, pair := range [][2][]float64{{x, x2}, {x2, x}} {
		if d := hockey(pair[0], pair[1], sigma); d > p.Delta {
			t.Errorf("calibrated σ = %g: hockey-stick divergence %g > δ = %g", sigma, d, p.Delta)
		}
	}
	// The bound is conservative (σ/3 still meets δ here), so the broken
	// variant is a fifth of the calibrated σ.
	broken := math.Max(hockey(x, x2, sigma/5), hockey(x2, x, sigma/5))
	if broken <= p.Delta {
		t.Errorf("broken σ/5 = %g: divergence %g ≤ δ = %g; the test cannot fail", sigma/5, broken, p.Delta)
	}
}

// TestRegularizedCertificate: the SDCA certificate ‖θ − θ̂‖ ≤ Dist holds
// against a much tighter solve, for every loss; for logistic also against
// Newton's method.
func TestRegularizedCertificate(t *testing.T) {
	r := rng.Seeded(3)
	for _, kind := range []loss.Kind{loss.Logistic, loss.Hinge, loss.LAD} {
		data, _ := NewRankK(80, 3, r)
		if kind == loss.LAD {
			data, _ = NewRankKRegression(80, 3, 0.5, r)
		}
		set, _ := loss.New(kind, data.Z, data.Y, loss.Params{Clip: 1})
		loose, err := Regularized(set, 0.1, 1e-2, 5000)
		if err != nil {
			t.Fatal(err)
		}
		tight, err := Regularized(set, 0.1, 1e-5, 50000)
		if err != nil {
			t.Fatal(err)
		}
		diff := math.Sqrt(sqDist(loose.Theta, tight.Theta))
		if diff > loose.Dist+tight.Dist {
			t.Errorf("%v: ‖loose − tight‖ = %g > certified %g + %g", kind, diff, loose.Dist, tight.Dist)
		}
		if kind == loss.Logistic {
			newton, gn := PerturbedLogistic(set, 0.1, make([]float64, 3))
			if d := math.Sqrt(sqDist(newton, tight.Theta)); d > tight.Dist+gn/0.1+1e-12 {
				t.Errorf("logistic: SDCA and Newton differ by %g > %g", d, tight.Dist+gn/0.1)
			}
		}
	}
}

func sqDist(a, b []float64) float64 {
	var s float64
	for i := range a {
		s += (a[i] - b[i]) * (a[i] - b[i])
	}
	return s
}

// TestReferenceLowerBound: the reference's certified lower bound
// Loss − Gap is below L at random points of the ball (it would be violated by
// an uncertified "gap").
func TestReferenceLowerBound(t *testing.T) {
	r := rng.Seeded(4)
	for _, kind := range []loss.Kind{loss.Logistic, loss.Hinge, loss.LAD} {
		data, _ := NewRankKRegression(60, 2, 0.5, r)
		if kind != loss.LAD {
			data, _ = NewRankK(60, 2, r)
		}
		set, _ := loss.New(kind, data.Z, data.Y, loss.Params{Clip: 1})
		ref := Reference(set, 2, 4000)
		if ref.Gap > 0.05 {
			t.Errorf("%v: reference gap %g > 0.05", kind, ref.Gap)
		}
		for i := 0; i < 2000; i++ {
			th := []float64{4*r.Float64() - 2, 4*r.Float64() - 2}
			project(th, 2)
			if l := set.Mean(th); l < ref.Loss-ref.Gap-1e-12 {
				t.Fatalf("%v: L(%v) = %g below the certified minimum %g", kind, th, l, ref.Loss-ref.Gap)
			}
		}
	}
}

// TestPerturbationBadInput: every bad parameter of output and objective
// perturbation is an error naming its field.
func TestPerturbationBadInput(t *testing.T) {
	for _, tc := range []struct {
		name, field string
		err         error
	}{
		{"output mu 0", "mu", func() error { _, e := (OutputPert{Epsilon: 1, Delta: 1e-5, G: 1, Tol: 0.01}).Sigma(10); return e }()},
		{"output tol 0", "tol", func() error { _, e := (OutputPert{Epsilon: 1, Delta: 1e-5, Mu: 1, G: 1}).Sigma(10); return e }()},
		{"output eps NaN", "epsilon", func() error {
			_, e := (OutputPert{Epsilon: math.NaN(), Delta: 1e-5, Mu: 1, G: 1, Tol: 0.01}).Sigma(10)
			return e
		}()},
		{"objective clip", "clip", func() error { _, e := (ObjPert{Epsilon: 1, Delta: 1e-5, Lambda: 1}).Sigma(10); return e }()},
		{"objective n", "n", func() error { _, e := (ObjPert{Epsilon: 1, Delta: 1e-5, Lambda: 1, Clip: 1}).Sigma(1); return e }()},
	} {
		var ce *checks.Error
		if !errors.As(tc.err, &ce) || ce.Field != tc.field {
			t.Errorf("%s: got %v, want an error naming %q", tc.name, tc.err, tc.field)
		}
	}
}
