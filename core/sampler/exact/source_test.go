package exact

import (
	"math"
	"slices"
	"testing"

	"github.com/dpsample/dpsample/core/rng"
)

// The tests of rng.Normal53 and rng.Exp53 (core/rng/source.go) live here,
// beside their first users and this package's KS helpers.

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
// 13, source.go): among N draws from a source whose outputs near x sit on a
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
	if d := ksStat(xs, phi); d > ksCrit(m) {
		t.Errorf("Normal53: KS %.4f > %.4f", d, ksCrit(m))
	}
	es := draws(m, func() float64 { return rng.Exp53(r) })
	if d := ksStat(es, func(x float64) float64 { return -math.Expm1(-x) }); d > ksCrit(m) {
		t.Errorf("Exp53: KS %.4f > %.4f", d, ksCrit(m))
	}
	// A broken source (uniform on [−√3, √3]: mean 0, variance 1) fails.
	us := draws(m, func() float64 { return math.Sqrt(3) * (2*r.Float64() - 1) })
	if d := ksStat(us, phi); d <= ksCrit(m) {
		t.Errorf("broken source passed: KS %.4f ≤ %.4f", d, ksCrit(m))
	}
}
