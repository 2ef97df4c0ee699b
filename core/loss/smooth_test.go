package loss

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/dpsample/dpsample/core/rng"
)

var smoothKinds = []Kind{Logistic, Huber, SmoothHinge, SmoothQuantile}

// oneRecord returns a 1-record, 1-feature set with x = 1 and target y.
func oneRecord(t *testing.T, k Kind, y float64, p Params) *Set {
	t.Helper()
	s, err := New(k, [][]float64{{1}}, []float64{y}, p)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// grid returns points on [−10, 10] plus the kinks of every smooth loss for
// h ∈ {0.3, 2}, τ = 0.2 and targets ±1, 0.7, each ± 1e-9.
func scalarGrid() []float64 {
	var g []float64
	for v := -10.0; v <= 10; v += 0.01 {
		g = append(g, v)
	}
	for _, c := range []float64{0, 1, -1, 0.7, 0.7 - 0.06, 0.7 + 0.24, 0.7 - 0.4, 0.7 + 1.6, 1 - 0.3, 1 - 2, -1 + 0.3, -1 + 2, 0.7 - 0.3, 0.7 + 0.3, 0.7 - 2, 0.7 + 2} {
		g = append(g, c-1e-9, c, c+1e-9)
	}
	return g
}

// maxCurvature returns sup over the grid of the difference quotient
// (φ'(m+δ) − φ'(m))/δ and its inf (negative means non-convex).
func maxCurvature(s *Set, y float64, grid []float64) (hi, lo float64) {
	hi, lo = math.Inf(-1), math.Inf(1)
	for _, m := range grid {
		for _, del := range []float64{1e-3, 1e-5} {
			q := (s.deriv(m+del, y) - s.deriv(m, y)) / del
			hi, lo = math.Max(hi, q), math.Min(lo, q)
		}
	}
	return hi, lo
}

// TestSmoothCurvature: 0 ≤ φ” ≤ β on ℝ (difference quotients of φ', which
// are exact bounds for a piecewise-C² φ'), and the sup is ≥ 0.95·β, so β is
// not overstated; φ' agrees with central differences of φ (1e-6 relative);
// |φ'| ≤ G/clip; and Deriv2, the φ” core/interval releases, is the
// derivative of φ' in [0, β] (deriv2Mismatch).
func TestSmoothCurvature(t *testing.T) {
	grid := scalarGrid()
	for _, k := range smoothKinds {
		for _, p := range []Params{{Huber: 0.3, Tau: 0.2}, {Huber: 2, Tau: 0.2}, {}} {
			for _, y := range []float64{1, -1, 0.7} {
				if k.Classification() && y == 0.7 {
					continue
				}
				s := oneRecord(t, k, y, p)
				beta, ok := s.Smooth()
				if !ok {
					t.Fatalf("%v: not smooth", k)
				}
				hi, lo := maxCurvature(s, y, grid)
				if hi > beta*(1+1e-6) || lo < -1e-9 {
					t.Errorf("%v %+v y=%v: φ'' ∈ [%g, %g], want ⊂ [0, β=%g]", k, s.p, y, lo, hi, beta)
				}
				if hi < 0.95*beta {
					t.Errorf("%v %+v y=%v: sup φ'' = %g < 0.95·β = %g (β overstated)", k, s.p, y, hi, beta)
				}
				if m := deriv2Mismatch(s, y, grid, s.Deriv2); !math.IsNaN(m) {
					t.Errorf("%v %+v y=%v: Deriv2(%g) = %g disagrees with φ'", k, s.p, y, m, s.Deriv2(m, y))
				}
				g := s.G() / s.p.Clip
				for _, m := range grid {
					c := s.deriv(m, y)
					if math.Abs(c) > g*(1+1e-12) {
						t.Fatalf("%v: |φ'(%g)| = %g > G/clip = %g", k, m, c, g)
					}
					const e = 1e-6
					fd := (s.scalar(m+e, y) - s.scalar(m-e, y)) / (2 * e)
					// central differences across a kink of φ'' are off by ≤ β·e/2
					if math.Abs(fd-c) > 1e-6*math.Max(1, math.Abs(c))+beta*e {
						t.Fatalf("%v y=%v: φ'(%g) = %.10g, finite difference %.10g", k, y, m, c, fd)
					}
				}
			}
		}
	}
}

// The curvature check has power: the design note's β = 1/h for Huber (this
// package's H_h has H” = 1) is exceeded for h = 4, and β/2 is exceeded by
// every smooth loss.
func TestSmoothCurvatureCheckFails(t *testing.T) {
	grid := scalarGrid()
	s := oneRecord(t, Huber, 0.7, Params{Huber: 4})
	if hi, _ := maxCurvature(s, 0.7, grid); hi <= 1.0/4 {
		t.Errorf("Huber h=4: sup φ'' = %g ≤ 1/h: the check cannot see the wrong β", hi)
	}
	for _, k := range smoothKinds {
		s := oneRecord(t, k, 1, Params{Huber: 0.5})
		beta, _ := s.Smooth()
		if hi, _ := maxCurvature(s, 1, grid); hi <= beta/2 {
			t.Errorf("%v: sup φ'' = %g ≤ β/2: check has no power", k, hi)
		}
	}
}

func TestSmoothKinds(t *testing.T) {
	for k := Kind(0); k < numKinds; k++ {
		_, ok, err := Smooth(k, Params{})
		if err != nil {
			t.Fatal(err)
		}
		want := k == Logistic || k == Huber || k == SmoothHinge || k == SmoothQuantile
		if ok != want {
			t.Errorf("%v: Smooth ok = %v, want %v", k, ok, want)
		}
		got, err := ParseKind(k.String())
		if err != nil || got != k {
			t.Errorf("ParseKind(%q) = %v, %v", k.String(), got, err)
		}
	}
	if _, _, err := Smooth(SmoothHinge, Params{Huber: -1}); err == nil {
		t.Error("Smooth accepted huber = −1")
	}
	if b, _, _ := Smooth(SmoothHinge, Params{Huber: 0.25}); b != 4 {
		t.Errorf("smooth-hinge h=0.25: β = %v, want 4", b)
	}
	// The surrogates are within h/2 (resp. max(τ,1−τ)²h/2) of the losses they smooth.
	for _, m := range scalarGrid() {
		h := 0.4
		if d := math.Max(0, 1-m) - smoothHinge(1-m, h); d < 0 || d > h/2+1e-12 {
			t.Fatalf("smooth hinge at %g: hinge − S = %g ∉ [0, h/2]", m, d)
		}
		for _, tau := range []float64{0.2, 0.5} {
			rho := math.Max(tau*m, (tau-1)*m)
			if d := rho - smoothQuantile(m, tau, h); d < -1e-12 || d > math.Max(tau*tau, (1-tau)*(1-tau))*h/2+1e-12 {
				t.Fatalf("smooth quantile τ=%v at %g: ρ − Q = %g", tau, m, d)
			}
		}
	}
}

// smoothSet is n random records of kind k (data) with h = 0.6, τ = 0.3.
func smoothSet(t *testing.T, r *rand.Rand, k Kind, n, d int) *Set {
	t.Helper()
	x, y := data(r, k, n, d)
	s, err := New(k, x, y, Params{Huber: 0.6, Tau: 0.3})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// Linearize: value and gradient equal Mean and Subgradient; Bregman is ≥ 0,
// equals L(x) − L(z) − ⟨∇L(z), x − z⟩ and is ≤ (β/2n)Σ⟨aᵢ, x − z⟩².
func TestLinearizeBregman(t *testing.T) {
	r := rng.Seeded(9)
	for _, k := range smoothKinds {
		d, n := 6, 40
		s := smoothSet(t, r, k, n, d)
		beta, _ := s.Smooth()
		g, sg := make([]float64, d), make([]float64, d)
		lin := make([]float64, 3*n)
		for trial := 0; trial < 200; trial++ {
			z, xx := randVec(r, d, 3), randVec(r, d, 3)
			if trial%2 == 0 { // nearby points: small Bregman terms
				for j := range xx {
					xx[j] = z[j] + 1e-3*xx[j]
				}
			}
			v := s.Linearize(z, g, lin)
			s.Subgradient(z, sg)
			if want := s.Mean(z); math.Abs(v-want) > 1e-12*math.Max(1, math.Abs(want)) {
				t.Fatalf("%v: Linearize value %v, Mean %v", k, v, want)
			}
			for j := range g {
				if math.Abs(g[j]-sg[j]) > 1e-12 {
					t.Fatalf("%v: gradient %v, subgradient %v", k, g, sg)
				}
			}
			b := s.Bregman(xx, lin)
			diff := s.Mean(xx) - v
			quad := 0.0
			for i := 0; i < n; i++ {
				row := s.Row(i)
				e := dot(xx, row) - dot(z, row)
				quad += e * e
			}
			for j := range g {
				diff -= g[j] * (xx[j] - z[j])
			}
			if b < 0 || b > beta/2*quad/float64(n)*(1+1e-9)+1e-15 {
				t.Fatalf("%v: Bregman %g ∉ [0, β/2·mean⟨a, x−z⟩² = %g]", k, b, beta/2*quad/float64(n))
			}
			if math.Abs(b-diff) > 1e-10*math.Max(1, math.Abs(s.Mean(xx))) {
				t.Fatalf("%v: Bregman %g, difference of sums %g", k, b, diff)
			}
		}
	}
}

// TestGradientMatchesLinearize: Gradient returns Linearize's gradient bit for
// bit for every smooth loss, at n = 300 (three blocks, the last partial) and
// at margins from 0 to ±10⁶ (|t| past expFastMax: the exp fallback).
func TestGradientMatchesLinearize(t *testing.T) {
	r := rng.Seeded(31)
	for _, k := range smoothKinds {
		d, n := 7, 300
		s := smoothSet(t, r, k, n, d)
		g, g2 := make([]float64, d), make([]float64, d)
		lin := make([]float64, 3*n)
		for trial := 0; trial < 60; trial++ {
			z := randVec(r, d, math.Pow(10, float64(trial%7)))
			s.Linearize(z, g, lin)
			s.Gradient(z, g2)
			for j := range g {
				if math.Float64bits(g[j]) != math.Float64bits(g2[j]) {
					t.Fatalf("%v trial %d: Gradient %v, Linearize %v", k, trial, g2, g)
				}
			}
		}
	}
}

// TestGradSpread: for every smooth loss, target and clip, the derivative's
// range over margins in [−60, 60] (·clip) is within GradSpread and reaches
// 0.99 of it (the bound is tight, so a halved bound would fail here), and
// GradSpread ≤ 2G; a loss that is not smooth gives 0.
func TestGradSpread(t *testing.T) {
	for _, k := range smoothKinds {
		for _, clip := range []float64{1, 2.5} {
			p := Params{Huber: 0.6, Tau: 0.3, Clip: clip}
			targets := []float64{-1, 1}
			if !k.Classification() {
				targets = []float64{-3, 0, 0.4}
			}
			s, err := New(k, [][]float64{{1}}, []float64{targets[0]}, p)
			if err != nil {
				t.Fatal(err)
			}
			g, err := Lipschitz(k, p)
			if err != nil {
				t.Fatal(err)
			}
			spread := s.GradSpread()
			if spread > 2*g*(1+1e-12) {
				t.Errorf("%v clip %g: spread %g > 2G = %g", k, clip, spread, 2*g)
			}
			for _, y := range targets {
				lo, hi := math.Inf(1), math.Inf(-1)
				for m := -60.0; m <= 60; m += 0.01 {
					c := s.Deriv(m, y)
					lo, hi = math.Min(lo, c), math.Max(hi, c)
				}
				if r := (hi - lo) * clip; r > spread*(1+1e-12) || r < 0.99*spread {
					t.Errorf("%v clip %g y %g: range of φ'·clip %g, GradSpread %g", k, clip, y, r, spread)
				}
			}
		}
	}
	if s, err := New(Hinge, [][]float64{{1}}, []float64{1}, Params{}); err != nil || s.GradSpread() != 0 {
		t.Errorf("hinge: spread %v, %v", s.GradSpread(), err)
	}
}

// deriv2Mismatch returns the first grid point where φ” = d2 disagrees with
// the central difference of φ' (1e-5 relative to β, or between the one-sided
// values across a kink), or NaN when it agrees everywhere and lies in [0, β].
func deriv2Mismatch(s *Set, y float64, grid []float64, d2 func(m, y float64) float64) float64 {
	beta, _ := s.Smooth()
	const e = 1e-6
	for _, m := range grid {
		v := d2(m, y)
		if !(v >= 0 && v <= beta) {
			return m
		}
		fd := (s.deriv(m+e, y) - s.deriv(m-e, y)) / (2 * e)
		lo := math.Min(d2(m-e, y), d2(m+e, y))
		hi := math.Max(d2(m-e, y), d2(m+e, y))
		if fd < lo-1e-5*beta || fd > hi+1e-5*beta {
			return m
		}
	}
	return math.NaN()
}

// TestDeriv2: the check of TestSmoothCurvature that Deriv2 is φ'
// differentiated catches a φ” off by 10 % (logistic) or with the Huber
// window's indicator inverted; Deriv2 of a loss that is not smooth is NaN.
func TestDeriv2(t *testing.T) {
	grid := scalarGrid()
	lg := oneRecord(t, Logistic, 1, Params{})
	if m := deriv2Mismatch(lg, 1, grid, func(m, y float64) float64 { return 0.9 * lg.Deriv2(m, y) }); math.IsNaN(m) {
		t.Error("a logistic φ'' 10 % low passed the check")
	}
	hb := oneRecord(t, Huber, 0.7, Params{})
	if m := deriv2Mismatch(hb, 0.7, grid, func(m, y float64) float64 { return 1 - hb.Deriv2(m, y) }); math.IsNaN(m) {
		t.Error("an inverted Huber φ'' passed the check")
	}
	if v := oneRecord(t, Hinge, 1, Params{}).Deriv2(0.5, 1); !math.IsNaN(v) {
		t.Errorf("hinge: Deriv2 = %g, want NaN (not smooth)", v)
	}
}
