package privacy

import (
	"math"

	"github.com/dpsample/dpsample/core/checks"
)

// Budget is how an (ε, δ) guarantee is spent by Algorithm 1 run with an
// approximate sampler: δ = DeltaCurve + DeltaSampler, where DeltaCurve is the
// δ of the GDP curve at ε and DeltaSampler = (1+e^ε)·TV pays for a sampler
// whose output is within total variation TV of the exact law. (If every output
// law is within TV τ of an (ε, δ₀)-DP mechanism's, the sampler is
// (ε, δ₀ + (1+e^ε)τ)-DP: P[A ∈ S] ≤ P[A* ∈ S] + τ ≤ e^ε P[A*′ ∈ S] + δ₀ + τ
// ≤ e^ε (P[A′ ∈ S] + τ) + δ₀ + τ.)
type Budget struct {
	Epsilon      float64 `json:"epsilon"`
	Delta        float64 `json:"delta"`
	DeltaCurve   float64 `json:"deltaCurve"`
	DeltaSampler float64 `json:"deltaSampler"`
	TV           float64 `json:"tv"`
}

// SamplerShare is the fraction of δ that Split gives to the sampler.
const SamplerShare = 0.5

// Split divides δ in half between the GDP curve and the sampler's total
// variation, TV = (δ/2)/(1+e^ε). 1+e^ε is formed as e^{log1p... } in log space
// so that large ε underflows TV gracefully instead of overflowing.
func Split(eps, delta float64) (Budget, error) {
	if err := checks.Epsilon("epsilon", eps); err != nil {
		return Budget{}, err
	}
	if err := checks.Delta("delta", delta); err != nil {
		return Budget{}, err
	}
	ds := SamplerShare * delta
	// log(1+e^ε) = ε + log1p(e^−ε), stable for every ε > 0.
	log1pe := eps + math.Log1p(math.Exp(-eps))
	return Budget{
		Epsilon:      eps,
		Delta:        delta,
		DeltaCurve:   delta - ds,
		DeltaSampler: ds,
		TV:           math.Exp(math.Log(ds) - log1pe),
	}, nil
}
