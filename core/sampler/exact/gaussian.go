package exact

import (
	"math"
	"math/rand/v2"

	"github.com/dpsample/dpsample/core/rng"
)

// LinearGaussian is the target of LLL Algorithm 1 for the linear loss
// ℓ(θ;z) = ⟨z, θ⟩ (design note §1.8a):
//
//	π(θ) ∝ exp(−η(⟨z̄, θ⟩ + μ/2·‖θ‖²)) = N(−z̄/μ, (ημ)⁻¹·I_d),
//
// where z̄ is the mean of the z_i.
type LinearGaussian struct {
	Mean []float64 // −z̄/μ
	Sd   float64   // 1/√(ημ)
}

// NewLinearGaussian returns the law for the data mean zbar, η > 0 and μ > 0.
func NewLinearGaussian(zbar []float64, eta, mu float64) LinearGaussian {
	m := make([]float64, len(zbar))
	for j, v := range zbar {
		m[j] = -v / mu
	}
	return LinearGaussian{Mean: m, Sd: 1 / math.Sqrt(eta*mu)}
}

// Sample fills out (length d) with one draw.
func (g LinearGaussian) Sample(r *rand.Rand, out []float64) {
	for j, m := range g.Mean {
		out[j] = m + g.Sd*rng.Normal53(r)
	}
}

// CDF returns the marginal CDF of coordinate j at t.
func (g LinearGaussian) CDF(j int, t float64) float64 { return phi((t - g.Mean[j]) / g.Sd) }
