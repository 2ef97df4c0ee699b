package dataset

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestCoefficientsPredictTheSame: for random θ (scaled units) and random
// rows x in the columns' units, the score computed the mechanism's way —
// scale x by the declared ranges, θ·x_s + θ_0, map the target back — equals
// β·x + β_0 with β = Coefficients(θ): the transform is exact, up to rounding
// (tolerance 1e-9 relative to the score's magnitude). The same check fails
// for the deliberately broken map that forgets the intercept shift.
func TestCoefficientsPredictTheSame(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	ranges := []Range{{4.3, 7.9}, {2, 4.4}, {-10, 250}}
	target := &Range{1000, 9000}
	for _, tc := range []struct {
		name      string
		target    *Range
		intercept bool
	}{{"regression", target, true}, {"classifier", nil, true}, {"no intercept", target, false}} {
		broken := 0
		for trial := 0; trial < 200; trial++ {
			d := len(ranges)
			theta := make([]float64, d+btoi(tc.intercept))
			for j := range theta {
				theta[j] = r.NormFloat64()
			}
			beta, err := Coefficients(theta, ranges, tc.target, tc.intercept)
			if err != nil {
				t.Fatal(err)
			}
			x := make([]float64, d)
			for j, rg := range ranges {
				x[j] = rg.Lo + (rg.Hi-rg.Lo)*r.Float64()
			}
			// The mechanism's way, in scaled units.
			s := 0.0
			for j, rg := range ranges {
				s += theta[j] * rg.ToScaled(x[j])
			}
			if tc.intercept {
				s += theta[d]
			}
			want := s
			if tc.target != nil {
				want = tc.target.FromScaled(s)
			}
			got := beta[d]
			for j := range x {
				got += beta[j] * x[j]
			}
			if math.Abs(got-want) > 1e-9*(1+math.Abs(want)) {
				t.Fatalf("%s: β·x + β_0 = %v, scaled score mapped back = %v", tc.name, got, want)
			}
			// Broken: β_0 without the shift −Σθ_j c_j/h_j.
			b0 := 0.0
			if tc.intercept {
				b0 = theta[d]
			}
			if tc.target != nil {
				b0 = tc.target.Centre() + tc.target.Half()*b0
			}
			bad := b0
			for j := range x {
				bad += beta[j] * x[j]
			}
			if math.Abs(bad-want) > 1e-9*(1+math.Abs(want)) {
				broken++
			}
		}
		if broken < 190 {
			t.Errorf("%s: the map without the intercept shift agreed in %d of 200 trials; the test cannot tell", tc.name, 200-broken)
		}
	}
	if _, err := Coefficients([]float64{1}, ranges, nil, true); err == nil {
		t.Error("a θ of the wrong length must be an error")
	}
}

// TestPointAndScaleAgree: Scale then Point returns a row inside its ranges
// unchanged (up to rounding), and Table.Clamped counts the cells outside.
func TestPointAndScaleAgree(t *testing.T) {
	tab, err := Parse("a;b\n5,0;3\n8,5;2\n4,3;4,4\n", Options{})
	if err != nil {
		t.Fatal(err)
	}
	ranges := map[string]Range{"a": {4.3, 7.9}, "b": {2, 4.4}}
	if err := tab.Scale(ranges); err != nil {
		t.Fatal(err)
	}
	if tab.Clamped != 1 {
		t.Errorf("Clamped = %d, want 1 (8.5 > 7.9)", tab.Clamped)
	}
	back := Point(tab.X[0], []Range{ranges["a"], ranges["b"]})
	if math.Abs(back[0]-5) > 1e-12 || math.Abs(back[1]-3) > 1e-12 {
		t.Errorf("round trip of (5, 3) = %v", back)
	}
	if got := Point(tab.X[1], []Range{ranges["a"], ranges["b"]}); got[0] != 7.9 {
		t.Errorf("a clamped cell maps back to the range's end: %v", got)
	}
	if err := (Range{2, 2}).Valid("ranges.a"); err == nil || err.Error() != "ranges.a must be [lo, hi] with lo < hi, got [2, 2]" {
		t.Errorf("Valid: %v", err)
	}
}

// TestRangeEffects: each effect is the per-unit coefficient times its
// column's declared width (Coefficients), for a classifier's score and a
// regression's target.
func TestRangeEffects(t *testing.T) {
	feats := []Range{{0, 10}, {100, 2600}, {0.05, 0.17}}
	theta := []float64{0.3, -1.2, 0.8, 0.1}
	for _, target := range []*Range{nil, {2500, 6500}} {
		beta, err := Coefficients(theta, feats, target, true)
		if err != nil {
			t.Fatal(err)
		}
		eff := RangeEffects(theta, feats, target)
		if len(eff) != 3 {
			t.Fatalf("%d effects, want 3", len(eff))
		}
		for j, r := range feats {
			if want := beta[j] * (r.Hi - r.Lo); math.Abs(eff[j]-want) > 1e-12*math.Abs(want) {
				t.Errorf("target %v, feature %d: effect %g, want β·width = %g", target, j, eff[j], want)
			}
		}
	}
}

// TestToScaledSaturates (issue 21 item 6): ToScaled is the affine formula
// bit for bit from lo − w to hi + w (w = hi − lo), saturates at ±3 beyond,
// and is finite for every finite x, ±MaxFloat64 included; Valid refuses ends
// beyond MaxRange, naming them.
func TestToScaledSaturates(t *testing.T) {
	for _, r := range []Range{{-50, 150}, {0, 1}, {-MaxRange, MaxRange}, {1e-300, 2e-300}} {
		if err := r.Valid("ranges.y"); err != nil {
			t.Fatal(err)
		}
		w := r.Hi - r.Lo
		for _, x := range []float64{r.Lo, r.Hi, (r.Lo + r.Hi) / 2, r.Lo - w/2, r.Hi + w, r.Lo - w} {
			if got, want := r.ToScaled(x), (2*x-r.Lo-r.Hi)/w; got != want {
				t.Errorf("%v: ToScaled(%g) = %g, formula %g", r, x, got, want)
			}
		}
		for _, x := range []float64{math.MaxFloat64, 1e308, -math.MaxFloat64, -1e308, r.Hi + 1.5*w, r.Lo - 1.5*w} {
			want := 3.0
			if x < r.Lo {
				want = -3
			}
			if got := r.ToScaled(x); got != want {
				t.Errorf("%v: ToScaled(%g) = %g, want %g", r, x, got, want)
			}
		}
	}
	err := Range{Lo: -1e301, Hi: 0}.Valid("ranges.y")
	if err == nil || !strings.HasPrefix(err.Error(), "ranges.y.lo must be a finite number in [") {
		t.Errorf("lo = −1e301: %v", err)
	}
}
