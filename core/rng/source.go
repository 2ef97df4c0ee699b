package rng

import (
	"math"
	"math/rand/v2"
)

// Normal53, Normals53 and Exp53 are the normal and exponential variates of
// every release: the exact samplers of core/sampler/exact, both proximal
// samplers of core/sampler (the first-order one's and, since issue 51, the
// zeroth-order one's start and Gaussian proposals), describe's histogram
// noise (core/domain), DP-GD's per-step noise (core/dpgd), the baselines'
// output and objective perturbation and the dimension-free demo's lift
// (core/baseline), and the lower bound's Gaussian mechanism
// (core/lowerbound). They are drawn from 53-bit uniforms (rand.Rand.Float64
// returns k·2⁻⁵³, k uniform on [0, 2⁵³)) instead of math/rand/v2's
// NormFloat64 and ExpFloat64, whose ziggurats return j·w_i with a 32-bit j
// and a float32 layer width w_i. draws_test.go fails on any NormFloat64 or
// ExpFloat64 in core/ and wasm/ outside a short list of files whose draws
// are public example data (synthetic tables, benchmark inputs).
//
// The ziggurat's law (issue 51). Computed from math/rand/v2's own tables
// (float32 widths wn and heights fn, uint32 thresholds kn, the wedge test
// in float32 arithmetic; TestZigguratLaw), NormFloat64's density is
// φ(x)·(1 + e(x)) with e between −1.83·10⁻⁷ and +3.05·10⁻⁷, except on a hole
// just below its tail's start r = 3.4426198559: it never returns
// |x| ∈ [3.4426198006, r) and almost never |x| ∈ [3.4426197457, 3.4426198006)
// — 2.35·10⁻¹⁰ of normal mass per draw, sent to the tail. For a mechanism
// whose noise is k such draws, (ε, δ) becomes (ε + k·4.88·10⁻⁷,
// (1 + 3.05·10⁻⁷)^k·(δ + e^ε·k·2.35·10⁻¹⁰)) in the worst case
// (docs/PRIVACY.md §6): for DP-GD's k = T·d draws at T = 1,600 and d = 31,
// ε + 0.024 and δ + 3.2·10⁻⁵ (ε = 1, δ = 10⁻⁵); at T = 20,000, ε + 0.30.
//
// Why it matters (issue 13, a Mironov-style floating-point gap). Released
// coordinates are rounded to a grid of step h = 2^⌊log2(2⁻²⁰/√(ημ))⌋, i.e.
// cells of width ≥ 2⁻²¹σ (σ = 1/√(ημ), the posterior scale). The probability
// of a cell is then a count of generator outputs in it. NormFloat64's layer
// i has spacing w_i ≤ r/2³¹ = 3.4426/2³¹ ≈ 1.6·10⁻⁹ (standard units), so a
// cell of 2⁻²⁰ ≈ 9.5·10⁻⁷ holds ≈ 590 points of the widest layer's lattice
// (more in the narrower layers) and its probability is off by up to one point in 590 — a relative error ≈ 1.7·10⁻³
// that depends on where the cell sits, i.e. on the data. Normal53 (Marsaglia's
// polar method on two 53-bit uniforms in (−1, 1), spacing 2⁻⁵²) maps, for
// each fixed second uniform, consecutive first uniforms to outputs at most
// 2⁻⁵²·√(−2 log s/s)·3 ≲ 7·10⁻¹⁶·(|x|+3) apart, so the same cell holds
// ≳ 10⁹ outputs per slice and the relative error is ≲ 10⁻⁹ — far below the
// sampler's other floating-point errors, and below any δ in use. The
// rounding grid is kept at 2⁻²⁰σ; TestNormal53Resolution checks the
// resolution directly by counting exact collisions (NormFloat64: ≈ 1.8·10⁻¹²·N²
// expected equal pairs among N draws; Normal53: ≈ 10⁻¹⁷·N²).
//
// Tails: Normal53 cannot return |x| > √(4·52·ln 2) ≈ 12.0 (mass 3.6·10⁻³³
// lost); Exp53 cannot return more than 53·ln 2 ≈ 36.7 (mass 2⁻⁵³ ≈ 1.1·10⁻¹⁶
// lost per draw). Both are total-variation errors far below δ.

// Normal53 returns a standard normal variate by Marsaglia's polar method on
// 53-bit uniforms (acceptance π/4; the loop is bounded by 2²⁰ trials, all rejected with
// probability (1 − π/4)^(2²⁰) < 10⁻⁷⁰⁰⁰⁰⁰, when it returns 0).
func Normal53(r *rand.Rand) float64 {
	for range 1 << 20 {
		u := 2*r.Float64() - 1
		v := 2*r.Float64() - 1
		s := u*u + v*v
		if s > 0 && s < 1 {
			return u * math.Sqrt(-2*math.Log(s)/s)
		}
	}
	return 0
}

// Normals53 fills dst with independent standard normals by the polar method
// of Normal53, keeping both coordinates of every accepted pair: for (u, v)
// uniform on the unit disc, u·f and v·f with f = √(−2 log s/s), s = u² + v²,
// are two independent N(0, 1) (Marsaglia and Bray 1964), and the second has
// the resolution of the first (swap u and v in the argument above). It uses
// ≈ 4/π·2/2 ≈ 1.27 uniforms and half a logarithm per normal instead of
// Normal53's 2.55 and one, and, like Normal53, the number of trials a pair
// takes is independent of the pair's value (rejection sampling: the
// accepted point is uniform on the disc whatever the number of rejections).
// An odd len(dst) drops the last pair's second coordinate. Each pair's loop
// is bounded by 2²⁰ trials (all rejected with probability < 10⁻⁷⁰⁰⁰⁰⁰; the
// pair is then 0, 0).
func Normals53(r *rand.Rand, dst []float64) {
	for i := 0; i < len(dst); i += 2 {
		a, b := 0.0, 0.0
		for range 1 << 20 {
			u := 2*r.Float64() - 1
			v := 2*r.Float64() - 1
			s := u*u + v*v
			if s > 0 && s < 1 {
				f := math.Sqrt(-2 * math.Log(s) / s)
				a, b = u*f, v*f
				break
			}
		}
		dst[i] = a
		if i+1 < len(dst) {
			dst[i+1] = b
		}
	}
}

// Exp53 returns a standard exponential variate −log(1 − U) from a 53-bit
// uniform U ∈ [0, 1) (so 1 − U ∈ (0, 1] and the result is finite, ≤ 36.8).
func Exp53(r *rand.Rand) float64 {
	return -math.Log1p(-r.Float64())
}
