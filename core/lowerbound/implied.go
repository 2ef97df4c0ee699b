package lowerbound

import (
	"math"

	"github.com/dpsample/dpsample/core/stats"
)

// ClopperPearson is stats.ClopperPearson, the exact two-sided binomial
// interval every rate of this package is reported with.
var ClopperPearson = stats.ClopperPearson

// Implied is the privacy loss the tracing attack exhibits.
type Implied struct {
	// Estimate = ln((p̂₁ − δ)/p̂₀), where p₁ = P[i ∈ Trace(M(D))] and
	// p₀ = P[i ∈ Trace(M(D₋ᵢ))]: (ε, δ)-DP forces p₁ ≤ e^ε·p₀ + δ, so any
	// (ε, δ)-DP mechanism has ε ≥ this. Nil when p̂₀ = 0 (unbounded) or p̂₁ ≤ δ.
	Estimate *float64 `json:"estimate"`
	// Lower = ln((lo₁ − δ)/hi₀) from the 1−α Clopper–Pearson intervals of both
	// proportions (joint coverage ≥ 1−2α), floored at 0: with that
	// confidence the mechanism is not (ε, δ)-DP for any ε < Lower.
	Lower float64 `json:"lower"`
	// Upper = ln((hi₁ − δ)/lo₀); nil when lo₀ = 0 (no evidence bounds it).
	Upper *float64 `json:"upper"`
	// Delta is the δ used (Run: the group claim's, Claim.Delta).
	Delta float64 `json:"delta"`
	// Trials is the number of runs n behind each proportion.
	Trials int `json:"trials"`
	// Ceiling is the largest Lower that n trials can show: x₁ = n, x₀ = 0,
	// i.e. ln(((α/2)^{1/n} − δ)/(1 − (α/2)^{1/n})) ≈ ln(n/3.7) at δ = 0. Lower
	// grows like this only while the removed person is never accused.
	Ceiling *float64 `json:"ceiling"`
	// Limit (Run only) is where Estimate settles as trials grow:
	// ln((p̂₁ − δ)/p₀) with p₀ the exact mean accusation probability of the
	// removed person (Soundness.RemovedExact), not a sampled rate. Once
	// n ≫ 1/p₀ the removed person is accused now and then and Lower stops
	// growing below this value; it is finite whenever p₀ > 0.
	Limit *float64 `json:"limit,omitempty"`
}

// ImpliedEpsilon computes Implied from x1 accusations of user i in n runs
// on D and x0 in n runs on D₋ᵢ.
func ImpliedEpsilon(x1, x0, n int, delta, alpha float64) *Implied {
	if n <= 0 {
		return nil
	}
	p1, p0 := float64(x1)/float64(n), float64(x0)/float64(n)
	lo1, hi1 := ClopperPearson(x1, n, alpha)
	lo0, hi0 := ClopperPearson(x0, n, alpha)
	im := &Implied{Delta: delta, Trials: n}
	if lo, _ := ClopperPearson(n, n, alpha); lo > delta {
		_, hi := ClopperPearson(0, n, alpha)
		v := math.Log((lo - delta) / hi)
		im.Ceiling = &v
	}
	if p0 > 0 && p1 > delta {
		v := math.Log((p1 - delta) / p0)
		im.Estimate = &v
	}
	if lo1 > delta && hi0 > 0 {
		im.Lower = math.Max(0, math.Log((lo1-delta)/hi0))
	}
	if lo0 > 0 && hi1 > delta {
		v := math.Log((hi1 - delta) / lo0)
		im.Upper = &v
	}
	return im
}
