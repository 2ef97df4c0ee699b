package exact

import (
	"math"
	"slices"
	"testing"

	"github.com/dpsample/dpsample/core/rng"
	"github.com/dpsample/dpsample/core/stats"
)

// The tests of rng.Normal53, rng.Normals53 and rng.Exp53 (core/rng/source.go)
// live here, beside their first users and this package's KS helpers.

// collisions counts equal pairs among N draws of gen restricted to |x| < 1
// (the bulk, where the rounding grid's cells are most probable).
func collisions(n int, gen func() float64) int {
	xs := make([]float64, 0, n)
	for len(xs) < n {
		if x := gen(); math.Abs(x) < 1 {
			xs = append(xs, x)
		}
	}
	slices.Sort(xs)
	c := 0
	for i := 1; i < len(xs); i++ {
		if xs[i] == xs[i-1] {
			c++
		}
	}
	return c
}

// TestNormal53Resolution checks the generator's resolution directly (issue
// 13, source.go; Normals53's second coordinates since issue 51): among N draws from a source whose outputs near x sit on a
// lattice of spacing w, the expected number of equal pairs is
// ≈ N²/2·Σ_x p_x², which grows with w. For NormFloat64 (w ≈ 1.6·10⁻⁹ per
// layer, 128 layers) that is ≈ 1.6·10⁻¹²·N² pairs (14 measured at seed 2026)
// — at N = 3·10⁶
// restricted to |x| < 1 that is a Poisson count with mean ≈ 15, so requiring
// ≥ 3 fails falsely with probability < 10⁻⁴. Normal53's outputs are ≲ 10⁻¹⁵
// apart, mean ≈ 10⁻⁴ pairs, so requiring 0 fails falsely with probability
// ≈ 10⁻⁴. The ziggurat is the deliberately coarse generator that must fail.
func TestNormal53Resolution(t *testing.T) {
	if testing.Short() {
		t.Skip("3·10⁶ draws")
	}
	const n = 3_000_000
	r := rng.Seeded(2026)
	if c := collisions(n, func() float64 { return rng.Normal53(r) }); c != 0 {
		t.Errorf("Normal53: %d equal pairs among %d draws, want 0 (resolution ≲ 10⁻¹⁵)", c, n)
	}
	// Normals53's second coordinates (v·f; the first are Normal53's).
	var pair [2]float64
	second := func() float64 { rng.Normals53(r, pair[:]); return pair[1] }
	if c := collisions(n, second); c != 0 {
		t.Errorf("Normals53, second coordinates: %d equal pairs among %d draws, want 0 (resolution ≲ 10⁻¹⁵)", c, n)
	}
	if c := collisions(n, r.NormFloat64); c < 3 {
		t.Errorf("NormFloat64: %d equal pairs among %d draws; its 32-bit lattice should give ≈ 15", c, n)
	} else {
		t.Logf("NormFloat64: %d equal pairs among %d draws (32-bit ziggurat lattice)", c, n)
	}
}

// TestNormal53Law: KS of Normal53 against Φ and of Exp53 against 1 − e^{−x}
// at α = 0.001, and the polar method's symmetric law in the tails.
func TestNormal53Law(t *testing.T) {
	const m = 50000
	r := rng.Seeded(7)
	xs := draws(m, func() float64 { return rng.Normal53(r) })
	if d := stats.KS(xs, phi); d > ksCrit(m) {
		t.Errorf("Normal53: KS %.4f > %.4f", d, ksCrit(m))
	}
	es := draws(m, func() float64 { return rng.Exp53(r) })
	if d := stats.KS(es, func(x float64) float64 { return -math.Expm1(-x) }); d > ksCrit(m) {
		t.Errorf("Exp53: KS %.4f > %.4f", d, ksCrit(m))
	}
	// A broken source (uniform on [−√3, √3]: mean 0, variance 1) fails.
	us := draws(m, func() float64 { return math.Sqrt(3) * (2*r.Float64() - 1) })
	if d := stats.KS(us, phi); d <= ksCrit(m) {
		t.Errorf("broken source passed: KS %.4f ≤ %.4f", d, ksCrit(m))
	}
}

// TestNormals53ExtendsNormal53: Normals53's even coordinates are Normal53's
// draws bit for bit, from the same uniforms (so everything shown for
// Normal53 holds for them), with an even or odd length; the generator ends
// in the same state.
func TestNormals53ExtendsNormal53(t *testing.T) {
	for _, n := range []int{1, 2, 7, 64} {
		a, b := rng.Seeded(uint64(n)), rng.Seeded(uint64(n))
		z := make([]float64, n)
		for range 50 {
			rng.Normals53(a, z)
			for i := 0; i < n; i += 2 {
				if want := rng.Normal53(b); z[i] != want {
					t.Fatalf("len %d: coordinate %d = %v, Normal53 gave %v", n, i, z[i], want)
				}
			}
		}
		if a.Uint64() != b.Uint64() {
			t.Errorf("len %d: the generators' states differ after the same pairs", n)
		}
	}
}

// TestNormals53Law: 50,000 pairs. The first and the second coordinates each
// pass KS against Φ (α = 0.001 each), and the pair passes a χ² test of
// independence on the 8×8 cells of Φ-octiles (63 degrees of freedom, the
// marginals known; critical value χ²₆₃(0.999) = 103.4). Two deliberately
// broken pair laws with exact N(0, 1) marginals — the second coordinate
// −u·f (a copy) and |v·f| with the first's sign — pass KS and fail χ².
func TestNormals53Law(t *testing.T) {
	const m = 50000
	r := rng.Seeded(51)
	pairs := make([][2]float64, m)
	for i := range pairs {
		rng.Normals53(r, pairs[i][:])
	}
	copyNeg := func(p [2]float64) [2]float64 { return [2]float64{p[0], -p[0]} }
	sameSign := func(p [2]float64) [2]float64 { return [2]float64{p[0], math.Copysign(p[1], p[0])} }
	cases := []struct {
		name   string
		f      func([2]float64) [2]float64
		broken bool
	}{{"Normals53", func(p [2]float64) [2]float64 { return p }, false}, {"broken: (a, −a)", copyNeg, true}, {"broken: (a, |b|·sign a)", sameSign, true}}
	for _, c := range cases {
		a, b := make([]float64, m), make([]float64, m)
		var cells [8][8]float64
		for i, p := range pairs {
			q := c.f(p)
			a[i], b[i] = q[0], q[1]
			cells[min(7, int(8*phi(q[0])))][min(7, int(8*phi(q[1])))]++
		}
		chi, e := 0.0, float64(m)/64
		for _, row := range cells {
			for _, o := range row {
				chi += (o - e) * (o - e) / e
			}
		}
		for k, xs := range [][]float64{a, b} {
			if d := stats.KS(xs, phi); d > ksCrit(m) {
				t.Errorf("%s, coordinate %d: KS %.4f > %.4f", c.name, k+1, d, ksCrit(m))
			}
		}
		const crit = 103.4
		if fail := chi > crit; fail != c.broken {
			t.Errorf("%s: χ² of independence %.1f (critical %.1f): broken = %v", c.name, chi, crit, c.broken)
		} else {
			t.Logf("%s: χ² of independence %.1f (critical %.1f)", c.name, chi, crit)
		}
	}
}
