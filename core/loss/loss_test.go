package loss

import (
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/dpsample/dpsample/core/checks"
	"github.com/dpsample/dpsample/core/rng"
)

// The interface of the proximal sampler (core/sampler.Potential).
var _ interface {
	N() int
	Dim() int
	Value(i int, x []float64) float64
	Mean(x []float64) float64
} = (*Set)(nil)

func randVec(r *rand.Rand, d int, scale float64) []float64 {
	v := make([]float64, d)
	for j := range v {
		v[j] = scale * r.NormFloat64()
	}
	return v
}

// data returns n random records for kind k, with some rows longer than the clip.
func data(r *rand.Rand, k Kind, n, d int) ([][]float64, []float64) {
	x := make([][]float64, n)
	for i := range x {
		x[i] = randVec(r, d, 1.5/math.Sqrt(float64(d)))
	}
	var y []float64
	if k.Supervised() {
		y = make([]float64, n)
		for i := range y {
			if k.Classification() {
				y[i] = float64(2*r.IntN(2) - 1)
			} else {
				y[i] = 3 * r.NormFloat64()
			}
		}
	}
	return x, y
}

func TestValues(t *testing.T) {
	p := Params{Clip: 10, Tau: 0.25, Huber: 1}
	cases := []struct {
		k     Kind
		x     []float64
		y     float64
		theta []float64
		want  float64
	}{
		{L1, []float64{1, 2, 3, 4}, 0, []float64{0, 0, 0, 0}, 10.0 / 2}, // ‖·‖₁/√4
		{L2Dist, []float64{3, 4}, 0, []float64{0, 0}, 5},
		{LAD, []float64{1, 2}, 1, []float64{1, 1}, 2},
		{Quantile, []float64{1, 0}, 3, []float64{1, 5}, 0.25 * 2},  // r = 2 > 0 → τr
		{Quantile, []float64{1, 0}, -1, []float64{1, 5}, 0.75 * 2}, // r = −2 → (1−τ)|r|
		{Hinge, []float64{1, 1}, -1, []float64{0.5, 0.5}, 2},
		{Hinge, []float64{1, 1}, 1, []float64{1, 1}, 0},
		{Logistic, []float64{2}, 1, []float64{0}, math.Ln2},
		{Logistic, []float64{1}, -1, []float64{800}, 800}, // no overflow
		{Huber, []float64{1}, 0, []float64{0.5}, 0.125},
		{Huber, []float64{1}, 0, []float64{3}, 2.5},
		{Linear, []float64{1, -2}, 0, []float64{3, 1}, 1},
	}
	for _, c := range cases {
		var y []float64
		if c.k.Supervised() {
			y = []float64{c.y, c.y}
		}
		s, err := New(c.k, [][]float64{c.x, c.x}, y, p)
		if err != nil {
			t.Fatalf("%v: %v", c.k, err)
		}
		if got := s.Value(0, c.theta); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("%v: ℓ = %v, want %v", c.k, got, c.want)
		}
		if got := s.Mean(c.theta); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("%v: mean = %v, want %v", c.k, got, c.want)
		}
	}
}

// lipRatio returns the largest |ℓ(θ)−ℓ(θ′)|/‖θ−θ′‖ seen over random pairs.
func lipRatio(r *rand.Rand, f func(i int, th []float64) float64, n, d, pairs int) float64 {
	worst := 0.0
	for k := 0; k < pairs; k++ {
		a := randVec(r, d, 3)
		b := make([]float64, d)
		step := math.Pow(10, -3*r.Float64())
		dir := randVec(r, d, 1)
		nd := Norm(dir)
		for j := range b {
			b[j] = a[j] + step*dir[j]/nd
		}
		i := r.IntN(n)
		worst = math.Max(worst, math.Abs(f(i, a)-f(i, b))/step)
	}
	return worst
}

// Every loss is G-Lipschitz with the G derived from the public bounds, for
// data that violates the clip bound (clipping must enforce it), in d = 1, 7, 50.
// In d = 1 the bound is also nearly attained (ratio ≥ 0.5·G), so G is not
// overstated.
func TestLipschitz(t *testing.T) {
	r := rng.Seeded(1)
	for k := Kind(0); k < numKinds; k++ {
		for _, d := range []int{1, 7, 50} {
			x, y := data(r, k, 40, d)
			for i := range x { // make many rows long
				for j := range x[i] {
					x[i][j] *= 4
				}
			}
			s, err := New(k, x, y, Params{Clip: 2, Tau: 0.1, Huber: 0.7, Ball: 1.5})
			if err != nil {
				t.Fatal(err)
			}
			if !k.Location() && s.Clipped() == 0 {
				t.Errorf("%v d=%d: expected clipped rows", k, d)
			}
			for i := 0; i < s.N(); i++ {
				if !k.Location() && Norm(s.Row(i)) > 2*(1+1e-12) {
					t.Fatalf("%v: row %d norm %v > clip", k, i, Norm(s.Row(i)))
				}
			}
			got := lipRatio(r, s.Value, s.N(), d, 3000)
			if got > s.G()*(1+1e-9) {
				t.Errorf("%v d=%d: Lipschitz ratio %v > G = %v", k, d, got, s.G())
			}
			if d == 1 && got < 0.5*s.G() && k != LinExt && k != Logistic {
				t.Errorf("%v d=%d: ratio %v far below G = %v (G overstated?)", k, d, got, s.G())
			}
		}
	}
}

// Without the 1/√d normalisation the ℓ1 loss is not 1-Lipschitz: the same
// check fails (it has power).
func TestLipschitzUnnormalisedL1Fails(t *testing.T) {
	r := rng.Seeded(2)
	d := 50
	x, _ := data(r, L1, 10, d)
	s, _ := New(L1, x, nil, Params{})
	raw := func(i int, th []float64) float64 { return s.Value(i, th) * math.Sqrt(float64(d)) }
	if got := lipRatio(r, raw, 10, d, 3000); got <= 1 {
		t.Errorf("unnormalised ℓ1 passed the G = 1 check: ratio %v", got)
	}
}

// Convexity (midpoint) and the subgradient inequality L(θ′) ≥ L(θ) + ⟨g, θ′−θ⟩.
func TestConvexAndSubgradient(t *testing.T) {
	r := rng.Seeded(3)
	for k := Kind(0); k < numKinds; k++ {
		d := 5
		x, y := data(r, k, 30, d)
		s, err := New(k, x, y, Params{Tau: 0.3, Huber: 0.5})
		if err != nil {
			t.Fatal(err)
		}
		g := make([]float64, d)
		for trial := 0; trial < 500; trial++ {
			a, b := randVec(r, d, 2), randVec(r, d, 2)
			mid := make([]float64, d)
			for j := range mid {
				mid[j] = (a[j] + b[j]) / 2
			}
			if s.Mean(mid) > (s.Mean(a)+s.Mean(b))/2+1e-12 {
				t.Fatalf("%v: midpoint convexity fails", k)
			}
			s.Subgradient(a, g)
			lin := s.Mean(a)
			for j := range g {
				lin += g[j] * (b[j] - a[j])
			}
			if s.Mean(b) < lin-1e-9 {
				t.Fatalf("%v: subgradient inequality fails by %g", k, lin-s.Mean(b))
			}
			if nrm := Norm(g); nrm > s.G()*(1+1e-9) {
				t.Fatalf("%v: ‖subgradient‖ %v > G %v", k, nrm, s.G())
			}
		}
	}
}

func TestLinearExtension(t *testing.T) {
	r := rng.Seeded(4)
	// Appendix D facts with R = G = 1.
	for trial := 0; trial < 200; trial++ {
		d := 1 + r.IntN(6)
		th := randVec(r, d, 1)
		zero := make([]float64, d)
		if got, want := LinearExtension(th, zero, 1, 1), math.Max(0, Norm(th)-1); math.Abs(got-want) > 1e-12 {
			t.Fatalf("ℓ̃(θ;0) = %v, want max(0,‖θ‖−1) = %v", got, want)
		}
		z := randVec(r, d, 1)
		nz := Norm(z)
		for j := range z {
			z[j] /= nz
		}
		if v := LinearExtension(th, z, 1, 1); v < -1-1e-12 {
			t.Fatalf("ℓ̃ = %v < −1", v)
		}
		if v := LinearExtension(z, z, 1, 1); math.Abs(v+1) > 1e-12 {
			t.Fatalf("ℓ̃(z;z) = %v, want −1", v)
		}
		if Norm(th) <= 1 {
			if got, want := LinearExtension(th, z, 1, 1), -dot(th, z); math.Abs(got-want) > 1e-12 {
				t.Fatalf("inside K: %v, want %v", got, want)
			}
		}
	}
	// Against brute force over a polar grid of the disc in d = 2.
	for trial := 0; trial < 30; trial++ {
		R, G := 0.5+r.Float64(), 1+r.Float64()
		z := randVec(r, 2, 0.6)
		th := randVec(r, 2, 3)
		best := math.Inf(1)
		for a := 0; a < 4000; a++ {
			phi := 2 * math.Pi * float64(a) / 4000
			for _, rad := range []float64{R, 0.9 * R, 0.5 * R, 0} {
				u := []float64{rad * math.Cos(phi), rad * math.Sin(phi)}
				v := -dot(u, z) + G*math.Hypot(th[0]-u[0], th[1]-u[1])
				best = math.Min(best, v)
			}
		}
		got := LinearExtension(th, z, R, G)
		if got > best+1e-9 || got < best-1e-5 {
			t.Errorf("ℓ̃ = %.10f, brute force %.10f (R=%v G=%v θ=%v z=%v)", got, best, R, G, th, z)
		}
	}
}

func TestBadInput(t *testing.T) {
	nan := math.NaN()
	ok := [][]float64{{1, 2}, {3, 4}}
	cases := []struct {
		name  string
		k     Kind
		x     [][]float64
		y     []float64
		p     Params
		field string
	}{
		{"empty", L1, nil, nil, Params{}, "x"},
		{"empty row", L1, [][]float64{{}}, nil, Params{}, "x[0]"},
		{"ragged", L1, [][]float64{{1, 2}, {3}}, nil, Params{}, "x[1]"},
		{"NaN", L1, [][]float64{{1, 2}, {3, nan}}, nil, Params{}, "x[1][1]"},
		{"Inf", LAD, [][]float64{{math.Inf(1), 2}, {3, 4}}, []float64{1, 2}, Params{}, "x[0][0]"},
		{"y missing", LAD, ok, nil, Params{}, "y"},
		{"y short", LAD, ok, []float64{1}, Params{}, "y"},
		{"y NaN", Huber, ok, []float64{1, nan}, Params{}, "y[1]"},
		{"label", Hinge, ok, []float64{1, 2}, Params{}, "y[1]"},
		{"y unexpected", L2Dist, ok, []float64{1, 2}, Params{}, "y"},
		{"clip", LAD, ok, []float64{1, 2}, Params{Clip: -1}, "clip"},
		{"clip NaN", LAD, ok, []float64{1, 2}, Params{Clip: nan}, "clip"},
		{"tau", Quantile, ok, []float64{1, 2}, Params{Tau: 1}, "tau"},
		{"huber", Huber, ok, []float64{1, 2}, Params{Huber: math.Inf(1)}, "huber"},
		{"ball", LinExt, ok, nil, Params{Ball: -2}, "ball"},
		{"kind", Kind(200), ok, nil, Params{}, "loss"},
	}
	for _, c := range cases {
		_, err := New(c.k, c.x, c.y, c.p)
		var ce *checks.Error
		if !errors.As(err, &ce) || ce.Field != c.field {
			t.Errorf("%s: error %v, want one naming %q", c.name, err, c.field)
		}
	}
	if _, err := ParseKind("squared"); err == nil || !strings.HasPrefix(err.Error(), "loss must be") {
		t.Errorf("unknown loss: %v", err)
	}
	for _, name := range Names() {
		if k, err := ParseKind(name); err != nil || k.String() != name {
			t.Errorf("ParseKind(%q) = %v, %v", name, k, err)
		}
	}
	// 0/1 labels are mapped to −1/+1.
	s, err := New(Logistic, ok, []float64{0, 1}, Params{})
	if err != nil || s.Target(0) != -1 || s.Target(1) != 1 {
		t.Errorf("0/1 labels: %v %v", err, s)
	}
}

func BenchmarkMean(b *testing.B) {
	r := rng.Seeded(5)
	for _, k := range []Kind{L1, Logistic, Hinge} {
		b.Run(k.String(), func(b *testing.B) {
			x, y := data(r, k, 1000, 30)
			s, _ := New(k, x, y, Params{})
			th := randVec(r, 30, 1)
			b.ResetTimer()
			v := 0.0
			for i := 0; i < b.N; i++ {
				v += s.Mean(th)
			}
			_ = v
			b.ReportMetric(float64(b.N)*1000/b.Elapsed().Seconds(), "rows/s")
		})
	}
}
