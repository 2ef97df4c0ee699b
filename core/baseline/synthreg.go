package baseline

import (
	"math/rand/v2"
)

// NewRankKRegression draws a rank-k regression dataset for the LAD loss: the
// latent features z_i of NewRankK (‖z_i‖ ≤ 1) and real targets
// y_i = ⟨w, z_i⟩ + noise·ξ_i, ξ_i ~ N(0, 1), w = Signal·e_1 (so the LAD
// minimiser has norm ≈ Signal). The labels NewRankK draws are replaced.
func NewRankKRegression(n, k int, noise float64, r *rand.Rand) (RankK, error) {
	s, err := NewRankK(n, k, r)
	if err != nil {
		return RankK{}, err
	}
	for i, z := range s.Z {
		s.Y[i] = dot(s.W, z) + noise*r.NormFloat64()
	}
	return s, nil
}
