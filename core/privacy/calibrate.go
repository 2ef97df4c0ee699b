package privacy

import (
	"math"

	"github.com/dpsample/dpsample/core/checks"
)

// relTol is the bisection's stopping rule, (hi − lo) ≤ relTol·lo. Float64
// bisection on log δ reaches it in ~50 halvings.
const relTol = 1e-14

// Calibrate returns s*(ε, δ), the largest s with δ_s(ε) ≤ δ: the noise level an
// (ε, δ)-DP Gaussian-type mechanism may use. It returns the feasible end of the
// final bracket, so δ_{s*}(ε) ≤ δ always holds (the conservative direction).
//
// Bracket: s_lo = √(z² + 2ε) − z with z = Φ⁻¹(1−δ) is always feasible because
// δ_s(ε) ≤ Φ(s/2 − ε/s); s_hi doubles until infeasible; then bisection on log δ.
func Calibrate(eps, delta float64) (float64, error) {
	if err := checks.Epsilon("epsilon", eps); err != nil {
		return 0, err
	}
	if err := checks.Delta("delta", delta); err != nil {
		return 0, err
	}
	target := math.Log(delta)
	z := PhiInvUpper(delta)
	lo := math.Sqrt(z*z+2*eps) - z
	if !(lo > 0) || logDelta(lo, eps) > target {
		// Only reachable when z² ≫ ε and the subtraction cancels; fall back to
		// shrinking, which terminates because δ_s(ε) → 0 as s → 0.
		if !(lo > 1e-300) { // NaN too (math.Max keeps a NaN)
			lo = 1e-300
		}
		for logDelta(lo, eps) > target {
			lo /= 2
		}
	}
	hi := 2 * lo
	for logDelta(hi, eps) <= target {
		lo, hi = hi, 2*hi
	}
	for hi-lo > relTol*lo {
		mid := lo + (hi-lo)/2
		if mid <= lo || mid >= hi {
			break
		}
		if logDelta(mid, eps) <= target {
			lo = mid
		} else {
			hi = mid
		}
	}
	// log δ ≤ log target does not imply exp(log δ) ≤ target after rounding;
	// step down by ulps until the value callers will compute is feasible too.
	// After 64 ulps the steps double: for a subnormal δ (5e-324, whose
	// neighbours are 100 % apart) stepping by ulps never ended.
	for k := 0; math.Exp(logDelta(lo, eps)) > delta; k++ {
		if k < 64 {
			lo = math.Nextafter(lo, 0)
		} else {
			lo -= math.Ldexp(lo, min(k-64, 60)-52)
		}
	}
	return lo, nil
}

// Epsilon returns the smallest ε ≥ 0 with δ_s(ε) ≤ δ: the ε an s-GDP mechanism
// achieves at the given δ. It returns the feasible end of the final bracket
// (the conservative direction: δ_s(ε) ≤ δ holds at the returned ε).
func Epsilon(s, delta float64) (float64, error) {
	if err := checks.Positive("gdp", s); err != nil {
		return 0, err
	}
	if err := checks.Delta("delta", delta); err != nil {
		return 0, err
	}
	target := math.Log(delta)
	if logDelta(s, 0) <= target {
		return 0, nil
	}
	lo, hi := 0.0, 1.0
	for logDelta(s, hi) > target {
		lo, hi = hi, 2*hi
	}
	for hi-lo > relTol*hi {
		mid := lo + (hi-lo)/2
		if mid <= lo || mid >= hi {
			break
		}
		if logDelta(s, mid) <= target {
			hi = mid
		} else {
			lo = mid
		}
	}
	for math.Exp(logDelta(s, hi)) > delta {
		hi = math.Nextafter(hi, math.Inf(1))
	}
	return hi, nil
}

// Compose returns the GDP parameter of m adaptive compositions of an s-GDP
// mechanism, √m·s (Dong, Roth & Su 2022, Corollary 3.3).
func Compose(s float64, m int) float64 { return math.Sqrt(float64(m)) * s }

// PaperGDP is the GDP parameter that Algorithm 1's printed constant
// μ = 8ηG²/(n²ε²) delivers under replace-one neighbours: s = 2G√η/(n√μ) = ε/√2,
// independent of η and of δ. Kept for tests and for the UI's comparison; it
// does NOT give a small δ (δ_{ε/√2}(ε) ≈ 0.04 at ε = 1).
func PaperGDP(eps float64) float64 { return eps / math.Sqrt2 }
