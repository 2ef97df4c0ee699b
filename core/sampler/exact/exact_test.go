package exact

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/dpsample/dpsample/core/rng"
	"github.com/dpsample/dpsample/core/stats"
	"gonum.org/v1/gonum/integrate/quad"
)

// ksCrit is the one-sample Kolmogorov–Smirnov critical value for m draws at
// false-failure rate α = 0.001 (c(α) = √(−ln(α/2)/2) = 1.949).
func ksCrit(m int) float64 { return stats.KSCritical(0.001, m) }

func draws(m int, f func() float64) []float64 {
	xs := make([]float64, m)
	for i := range xs {
		xs[i] = f()
	}
	return xs
}

func TestLogPhi(t *testing.T) {
	// Reference values of log Φ(x) (mpmath, 15 digits).
	for _, c := range []struct{ x, want float64 }{
		{0, -0.693147180559945},
		{-1, -1.84102164500926},
		{2, -0.0230129093289635},
		{-10, -53.2312851505047},
		{-40, -804.608442013754},
		{8, -6.22096057427178e-16},
	} {
		got := logPhi(c.x)
		if math.Abs(got-c.want) > 1e-12*math.Max(1, math.Abs(c.want)) {
			t.Errorf("logPhi(%v) = %.15g, want %.15g", c.x, got, c.want)
		}
	}
	// Continuity at the switch to the asymptotic series.
	if d := math.Abs(logPhi(-37-1e-9) - logPhi(-37+1e-9)); d > 1e-6 {
		t.Errorf("logPhi jumps by %g at −37", d)
	}
}

func TestLogPhiDiff(t *testing.T) {
	for _, c := range [][2]float64{{-1, 1}, {0.5, 3}, {-3, -0.5}, {20, 21}, {-50, -49}, {-0.1, math.Inf(1)}, {math.Inf(-1), -30}} {
		lo, hi := c[0], c[1]
		// Independent: quadrature of the density on a finite window.
		a, b := math.Max(lo, -60), math.Min(hi, 60)
		ref := quad.Fixed(func(x float64) float64 { return math.Exp(-x*x/2 - logSqrt2π - (-lo*lo/2)*0) }, a, b, 200, quad.Legendre{}, 0)
		got := math.Exp(logPhiDiff(lo, hi))
		if lo > 10 || hi < -10 { // compare in logs, the quadrature underflows relative accuracy
			ref = quad.Fixed(func(x float64) float64 { return math.Exp(-x*x/2 + lo*lo/2*boolf(lo > 10) + hi*hi/2*boolf(hi < -10)) }, a, b, 200, quad.Legendre{}, 0)
			shift := lo*lo/2*boolf(lo > 10) + hi*hi/2*boolf(hi < -10)
			gotL := logPhiDiff(lo, hi)
			refL := math.Log(ref) - shift - logSqrt2π
			if math.Abs(gotL-refL) > 1e-9*math.Abs(refL) {
				t.Errorf("logPhiDiff(%v,%v) = %.12g, quadrature %.12g", lo, hi, gotL, refL)
			}
			continue
		}
		if math.Abs(got-ref) > 1e-12 {
			t.Errorf("Φ(%v)−Φ(%v) = %.15g, quadrature %.15g", hi, lo, got, ref)
		}
	}
	if !math.IsInf(logPhiDiff(1, 1), -1) {
		t.Error("empty interval must have log mass −Inf")
	}
}

func boolf(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

func truncCDF(lo, hi float64) func(float64) float64 {
	z := logPhiDiff(lo, hi)
	return func(x float64) float64 {
		if x <= lo {
			return 0
		}
		if x >= hi {
			return 1
		}
		return math.Exp(logPhiDiff(lo, x) - z)
	}
}

// Every regime of truncStdNormal against the closed-form truncated CDF.
func TestTruncStdNormalKS(t *testing.T) {
	const m = 20000
	r := rng.Seeded(1)
	cases := [][2]float64{
		{math.Inf(-1), math.Inf(1)}, {-1, 1}, {-0.2, 5}, {-3, 0.1}, {0.2, 1}, {0.3, math.Inf(1)},
		{0.6, 0.7}, {2, math.Inf(1)}, {8, 8.01}, {40, math.Inf(1)}, {math.Inf(-1), -12}, {-7, -6},
	}
	for _, c := range cases {
		xs := draws(m, func() float64 { return truncStdNormal(r, c[0], c[1]) })
		for _, x := range xs {
			if x < c[0] || x > c[1] {
				t.Fatalf("[%v,%v]: draw %v outside", c[0], c[1], x)
			}
		}
		if d := stats.KS(xs, truncCDF(c[0], c[1])); d > ksCrit(m) {
			t.Errorf("[%v,%v]: KS %.4f > %.4f", c[0], c[1], d, ksCrit(m))
		}
	}
}

// A broken truncated-normal sampler (uniform on the interval) fails the same test.
func TestTruncStdNormalBrokenFails(t *testing.T) {
	const m = 20000
	r := rng.Seeded(2)
	lo, hi := 0.2, 1.0
	xs := draws(m, func() float64 { return lo + r.Float64()*(hi-lo) })
	if d := stats.KS(xs, truncCDF(lo, hi)); d <= ksCrit(m) {
		t.Errorf("uniform passed the truncated-normal KS test: %.4f ≤ %.4f", d, ksCrit(m))
	}
}

// L1CDF (closed form) against quadrature of the unnormalised density.
func TestL1CDFMatchesQuadrature(t *testing.T) {
	cases := []struct {
		z    []float64
		a, b float64
	}{
		{[]float64{-30, 0, 0, 0, 0}, 0.17, 1.0},
		{[]float64{-1, -1, 1, 1, 1}, 3.7, 55},
		{[]float64{0.2, 0.5, 0.5, 0.9}, 0, 2},
		{[]float64{-2, 3}, 10, 0.01},
	}
	for _, c := range cases {
		f := func(x float64) float64 { return math.Exp(L1LogDensity(c.z, c.a, c.b, x)) }
		// integrate on a wide window split at the points
		lo, hi := -80.0, 80.0
		if c.b < 0.1 {
			lo, hi = -60, 60
		}
		nodes := append([]float64{lo}, c.z...)
		nodes = append(nodes, hi)
		slices.Sort(nodes)
		cum := []float64{0}
		for i := 0; i+1 < len(nodes); i++ {
			cum = append(cum, cum[i]+quad.Fixed(f, nodes[i], nodes[i+1], 400, quad.Legendre{}, 0))
		}
		total := cum[len(cum)-1]
		for _, x := range []float64{-3, -0.5, 0, 0.3, 0.5, 1, 2.5} {
			i := 0
			for i+1 < len(nodes) && nodes[i+1] <= x {
				i++
			}
			ref := (cum[i] + quad.Fixed(f, nodes[i], x, 400, quad.Legendre{}, 0)) / total
			if got := L1CDF(c.z, c.a, c.b, x); math.Abs(got-ref) > 1e-9 {
				t.Errorf("z=%v a=%v b=%v: L1CDF(%v) = %.12f, quadrature %.12f", c.z, c.a, c.b, x, got, ref)
			}
		}
	}
}

func TestL1CoordKS(t *testing.T) {
	const m = 20000
	r := rng.Seeded(3)
	cases := []struct {
		z    []float64
		a, b float64
	}{
		{[]float64{-30, 0, 0, 0, 0}, 0.17, 1.0},
		{[]float64{-1, -1, 1, 1, 1}, 3.7, 55},
		{[]float64{0.2, 0.5, 0.5, 0.9}, 0, 2},
		{[]float64{-2, 3}, 10, 0.01},
		{[]float64{0, 1, 1}, 400, 1e-3}, // sharply peaked at the median
		{[]float64{1e3}, 1e3, 1e-6},     // far tail pieces
	}
	for _, c := range cases {
		xs := draws(m, func() float64 { return L1Coord(r, c.z, c.a, c.b) })
		if d := stats.KS(xs, func(x float64) float64 { return L1CDF(c.z, c.a, c.b, x) }); d > ksCrit(m) {
			t.Errorf("z=%v a=%v b=%v: KS %.4f > %.4f", c.z, c.a, c.b, d, ksCrit(m))
		}
	}
}

// A sampler that forgets the quadratic term's factor 2 (s² = 1/b instead of
// 1/(2b)) fails the same test.
func TestL1CoordBrokenFails(t *testing.T) {
	const m = 20000
	r := rng.Seeded(4)
	z := []float64{-30, 0, 0, 0, 0}
	a, b := 0.17, 1.0
	xs := draws(m, func() float64 { return L1Coord(r, z, a, b/2) })
	if d := stats.KS(xs, func(x float64) float64 { return L1CDF(z, a, b, x) }); d <= ksCrit(m) {
		t.Errorf("broken sampler passed: KS %.4f ≤ %.4f", d, ksCrit(m))
	}
}

func TestL1BinaryKS(t *testing.T) {
	const m = 20000
	r := rng.Seeded(5)
	for _, c := range []struct {
		n, ones int
		a, b    float64
	}{
		{10, 0, 0.5, 3}, {10, 10, 0.5, 3}, {10, 4, 0.5, 3}, {200, 150, 0.02, 0.3}, {7, 3, 20, 0.5}, {1, 1, 100, 1e-4},
	} {
		xs := draws(m, func() float64 { return L1Binary(r, c.n, c.ones, c.a, c.b) })
		ref := func(x float64) float64 { return L1CDF(binaryPoints(c.n, c.ones), c.a, c.b, x) }
		if d := stats.KS(xs, ref); d > ksCrit(m) {
			t.Errorf("%+v: KS %.4f > %.4f", c, d, ksCrit(m))
		}
	}
	if !math.IsNaN(L1Binary(r, 3, 4, 1, 1)) || !math.IsNaN(L1Binary(r, 3, 1, 1, 0)) {
		t.Error("invalid arguments must give NaN")
	}
}

// The table for one count must not be used for another: swapping ones and
// zeros (a broken lookup) fails.
func TestL1BinaryBrokenFails(t *testing.T) {
	const m = 20000
	r := rng.Seeded(6)
	bt := NewBinary(10, 0.5, 3)
	xs := draws(m, func() float64 { return bt.Sample(r, 6) })
	if d := stats.KS(xs, func(x float64) float64 { return bt.CDF(4, x) }); d <= ksCrit(m) {
		t.Errorf("wrong count passed: KS %.4f ≤ %.4f", d, ksCrit(m))
	}
}

// pitKS draws one θ in d dimensions and tests the probability-integral
// transforms u_j = F_j(θ_j), which are i.i.d. Uniform(0,1) iff every marginal
// is right and the coordinates are independent draws.
func pitKS(theta []float64, cdf func(j int, t float64) float64) float64 {
	u := make([]float64, len(theta))
	for j, v := range theta {
		u[j] = cdf(j, v)
	}
	return stats.KS(u, func(x float64) float64 { return math.Min(1, math.Max(0, x)) })
}

func separableData(r *rand.Rand, n, d int) []float64 {
	x := make([]float64, n*d)
	for i := range x {
		x[i] = 3 * r.NormFloat64()
		if i%7 == 0 {
			x[i] = math.Round(x[i]) // ties
		}
	}
	return x
}

func TestL1SeparableKS(t *testing.T) {
	r := rng.Seeded(7)
	for _, d := range []int{1, 10000} {
		n := 5
		x := separableData(r, n, d)
		a, b := L1Params(40, 0.3, n, d)
		s := NewL1Separable(x, n, d, a, b)
		if d == 1 {
			const m = 20000
			xs := draws(m, func() float64 { out := []float64{0}; s.Sample(r, out); return out[0] })
			if ks := stats.KS(xs, func(t float64) float64 { return s.CDF(0, t) }); ks > ksCrit(m) {
				t.Errorf("d=1: KS %.4f > %.4f", ks, ksCrit(m))
			}
			continue
		}
		theta := make([]float64, d)
		s.Sample(r, theta)
		if ks := pitKS(theta, s.CDF); ks > ksCrit(d) {
			t.Errorf("d=%d: PIT KS %.4f > %.4f", d, ks, ksCrit(d))
		}
		// Broken: the unnormalised a = η/n (forgetting 1/√d) fails.
		bad := NewL1Separable(x, n, d, a*math.Sqrt(float64(d)), b)
		bad.Sample(r, theta)
		if ks := pitKS(theta, s.CDF); ks <= ksCrit(d) {
			t.Errorf("d=%d: sampler without the 1/√d normalisation passed: %.4f", d, ks)
		}
	}
	if NewL1Separable(make([]float64, 5), 2, 3, 1, 1) != nil {
		t.Error("size mismatch must give nil")
	}
}

func TestLinearGaussianKS(t *testing.T) {
	r := rng.Seeded(8)
	for _, d := range []int{1, 10000} {
		zbar := make([]float64, d)
		for j := range zbar {
			zbar[j] = r.Float64()*2 - 1
		}
		g := NewLinearGaussian(zbar, 30, 0.5)
		m := d
		if d == 1 {
			m = 20000
		}
		u := make([]float64, 0, m)
		theta := make([]float64, d)
		for len(u) < m {
			g.Sample(r, theta)
			for j, v := range theta {
				u = append(u, g.CDF(j, v))
			}
		}
		if ks := stats.KS(u, func(x float64) float64 { return x }); ks > ksCrit(m) {
			t.Errorf("d=%d: KS %.4f > %.4f", d, ks, ksCrit(m))
		}
		// Broken: mean +z̄/μ (sign error) fails.
		bad := NewLinearGaussian(zbar, 30, 0.5)
		for j := range bad.Mean {
			bad.Mean[j] = -bad.Mean[j]
		}
		u = u[:0]
		for len(u) < m {
			bad.Sample(r, theta)
			for j, v := range theta {
				u = append(u, g.CDF(j, v))
			}
		}
		if ks := stats.KS(u, func(x float64) float64 { return x }); ks <= ksCrit(m) {
			t.Errorf("d=%d: sign-flipped mean passed: %.4f", d, ks)
		}
	}
}

func TestLogConcave(t *testing.T) {
	const m = 20000
	r := rng.Seeded(9)
	z := []float64{-1, -1, 1, 1, 1}
	a, b := 3.7, 5.5
	softplus := func(v float64) float64 { return math.Max(v, 0) + math.Log1p(math.Exp(-math.Abs(v))) }
	for _, c := range []struct {
		name string
		u    func(float64) float64
		ref  func(float64) float64 // independent CDF, or nil to use the table's quadrature
	}{
		{"l1 vs closed form", func(x float64) float64 { return -L1LogDensity(z, a, b, x) }, func(x float64) float64 { return L1CDF(z, a, b, x) }},
		{"logistic", func(x float64) float64 { return 20*(softplus(-x)+softplus(-0.3*x)+softplus(2*x)) + 0.2*x*x }, nil},
		{"hinge", func(x float64) float64 { return 50*(math.Max(0, 1-x)+math.Max(0, 1+0.5*x)) + 0.05*x*x }, nil},
		{"far mode", func(x float64) float64 { return 0.5 * (x - 1e4) * (x - 1e4) }, func(x float64) float64 { return phi(x - 1e4) }},
	} {
		lc, err := NewLogConcave(c.u, 1)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		ref := c.ref
		if ref == nil {
			ref = lc.CDF
		} else if c.name == "l1 vs closed form" {
			// the quadrature CDF itself agrees with the closed form
			for _, x := range []float64{-1.2, -0.3, 0.2, 0.9, 1.4} {
				if d := math.Abs(lc.CDF(x) - ref(x)); d > 1e-9 {
					t.Errorf("%s: quadrature CDF(%v) off by %g", c.name, x, d)
				}
			}
		}
		xs := draws(m, func() float64 { return lc.Sample(r) })
		if ks := stats.KS(xs, ref); ks > ksCrit(m) {
			t.Errorf("%s: KS %.4f > %.4f", c.name, ks, ksCrit(m))
		}
	}
	if _, err := NewLogConcave(func(x float64) float64 { return x }, 1); err == nil {
		t.Error("a non-coercive U must be rejected")
	}
	if _, err := NewLogConcave(func(x float64) float64 { return math.NaN() }, 1); err == nil {
		t.Error("NaN U must be rejected")
	}
}

// The envelope dominates the density everywhere (checked on a fine grid and
// in the tails); a crude envelope (8 cells) used without the accept step
// fails the KS test, showing the test has power against a missing rejection.
func TestLogConcaveEnvelope(t *testing.T) {
	z := []float64{-1, -1, 1, 1, 1}
	a, b := 3.7, 5.5
	u := func(x float64) float64 { return -L1LogDensity(z, a, b, x) }
	lc, err := NewLogConcave(u, 1)
	if err != nil {
		t.Fatal(err)
	}
	lo, hi := lc.t[0]-5, lc.t[len(lc.t)-1]+5
	for i := 0; i <= 100000; i++ {
		x := lo + (hi-lo)*float64(i)/100000
		if d := -(u(x) - lc.umin) - lc.logEnvelope(x); d > 1e-9 {
			t.Fatalf("envelope below the density at %v by %g", x, d)
		}
	}

	const m = 20000
	r := rng.Seeded(10)
	crude, err := newLogConcave(u, 1, 8)
	if err != nil {
		t.Fatal(err)
	}
	crude.u = func(float64) float64 { return math.Inf(-1) } // accept every proposal
	xs := draws(m, func() float64 { return crude.Sample(r) })
	if ks := stats.KS(xs, func(x float64) float64 { return L1CDF(z, a, b, x) }); ks <= ksCrit(m) {
		t.Errorf("envelope without rejection passed: KS %.4f", ks)
	}
}

// TestL1RejectKS: the rejection path of L1Coord (n ≥ l1RejectMin) against the
// closed-form mixture CDF, at α = 0.001 per case, over spread, tied, far and
// sharply peaked columns and a = 0.
func TestL1RejectKS(t *testing.T) {
	const m = 20000
	r := rng.Seeded(41)
	col := func(n int, f func(i int) float64) []float64 {
		z := make([]float64, n)
		for i := range z {
			z[i] = f(i)
		}
		slices.Sort(z)
		return z
	}
	cases := []struct {
		z    []float64
		a, b float64
	}{
		{col(50, func(i int) float64 { return math.Sin(float64(i)) }), 0.1, 1},
		{col(50, func(i int) float64 { return math.Sin(float64(i)) }), 4, 0.5},
		{col(16, func(i int) float64 { return float64(i % 2) }), 2, 3},                    // ties
		{col(100, func(i int) float64 { return 30 + float64(i)/10 }), 0.05, 0.01},         // far from 0
		{col(20, func(i int) float64 { return float64(i) - 1e4*float64(i/19) }), 3, 1e-4}, // an outlier
		{col(30, func(i int) float64 { return float64(i) }), 0, 2},                        // a = 0: Gaussian
		{col(200, func(i int) float64 { return math.Cos(float64(i)) }), 500, 1},           // sharply peaked
	}
	for _, c := range cases {
		xs := draws(m, func() float64 { return L1Coord(r, c.z, c.a, c.b) })
		if d := stats.KS(xs, func(x float64) float64 { return L1CDF(c.z, c.a, c.b, x) }); d > ksCrit(m) {
			t.Errorf("n=%d a=%v b=%v: KS %.4f > %.4f", len(c.z), c.a, c.b, d, ksCrit(m))
		}
	}
}

// TestL1RejectBrokenFails: an envelope sampler that evaluates U with the
// quadratic term halved (a wrong target) fails the same test.
func TestL1RejectBrokenFails(t *testing.T) {
	const m = 20000
	r := rng.Seeded(42)
	z := make([]float64, 40)
	for i := range z {
		z[i] = math.Sin(float64(i))
	}
	slices.Sort(z)
	xs := draws(m, func() float64 { return l1Reject(r, z, 0.2, 0.5) })
	if d := stats.KS(xs, func(x float64) float64 { return L1CDF(z, 0.2, 1, x) }); d <= ksCrit(m) {
		t.Errorf("broken sampler passed: KS %.4f ≤ %.4f", d, ksCrit(m))
	}
}
