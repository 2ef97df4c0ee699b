package rng

import (
	"math"
	"math/rand/v2"
)

// Normal53 and Exp53 are the normal and exponential variates of every
// sampler whose output is released (the exact samplers of core/sampler/exact
// and the first-order proximal sampler of core/sampler): they are drawn from 53-bit
// uniforms (rand.Rand.Float64 returns k·2⁻⁵³, k uniform on [0, 2⁵³)) instead
// of math/rand/v2's NormFloat64 and ExpFloat64, whose ziggurats return
// j·w_i with a 32-bit j and a float32 layer width w_i.
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

// Exp53 returns a standard exponential variate −log(1 − U) from a 53-bit
// uniform U ∈ [0, 1) (so 1 − U ∈ (0, 1] and the result is finite, ≤ 36.8).
func Exp53(r *rand.Rand) float64 {
	return -math.Log1p(-r.Float64())
}
