package baseline

import (
	"math"
	"math/rand/v2"

	"github.com/dpsample/dpsample/core/checks"
)

// RankK is a logistic-regression dataset of n records whose features are
// z_i ∈ ℝ^k with ‖z_i‖ ≤ 1, labelled y_i = ±1 with P(y_i = +1) = σ(⟨w, z_i⟩),
// σ(t) = 1/(1+e^{−t}), for a fixed w of norm Signal. Embed places it in ℝ^d
// as x_i = U z_i for an orthonormal d×k matrix U, so the feature rows have rank
// k whatever d is and ⟨θ, x_i⟩ = ⟨Uᵀθ, z_i⟩: the loss sees θ only through the
// k numbers Uᵀθ (LLL Assumption 2.1 with G_rank = 0).
type RankK struct {
	Z [][]float64 // n × k latent features
	Y []float64   // labels ±1
	W []float64   // the generating direction (norm Signal)
}

// Signal is ‖w‖ of the generating model.
const Signal = 2.0

// NewRankK draws a RankK dataset: z_i = g_i/max(1, (1+10⁻⁹)‖g_i‖) with g_i ~ N(0, I_k),
// w = Signal·e_1.
func NewRankK(n, k int, r *rand.Rand) (RankK, error) {
	if err := checks.IntRange("n", n, 2, MaxN); err != nil {
		return RankK{}, err
	}
	if err := checks.IntRange("rank", k, 1, MaxRank); err != nil {
		return RankK{}, err
	}
	s := RankK{Z: make([][]float64, n), Y: make([]float64, n), W: make([]float64, k)}
	s.W[0] = Signal
	for i := range s.Z {
		z := make([]float64, k)
		var nn float64
		for j := range z {
			z[j] = r.NormFloat64()
			nn += z[j] * z[j]
		}
		if nn = math.Sqrt(nn); nn > 1 {
			nn *= 1 + 1e-9 // strictly inside the ball, so no float rounding pushes ‖Uz‖ over 1
			for j := range z {
				z[j] /= nn
			}
		}
		s.Z[i] = z
		s.Y[i] = -1
		if r.Float64() < 1/(1+math.Exp(-dot(s.W, z))) {
			s.Y[i] = 1
		}
	}
	return s, nil
}

// Basis returns an orthonormal d×k matrix (as k column vectors of length d):
// Gram–Schmidt applied to k independent N(0, I_d) vectors, i.e. a uniformly
// random k-frame.
func Basis(d, k int, r *rand.Rand) ([][]float64, error) {
	if err := checks.IntRange("d", d, k, MaxD); err != nil {
		return nil, err
	}
	u := make([][]float64, k)
	for c := range u {
		for {
			v := make([]float64, d)
			for j := range v {
				v[j] = r.NormFloat64()
			}
			for _, p := range u[:c] {
				a := dot(p, v)
				for j := range v {
					v[j] -= a * p[j]
				}
			}
			if nn := math.Sqrt(dot(v, v)); nn > 1e-8 {
				for j := range v {
					v[j] /= nn
				}
				u[c] = v
				break
			}
		}
	}
	return u, nil
}

// Embed returns x_i = U z_i for the columns u of an orthonormal basis.
func (s RankK) Embed(u [][]float64) [][]float64 {
	d := len(u[0])
	x := make([][]float64, len(s.Z))
	for i, z := range s.Z {
		row := make([]float64, d)
		for c, zc := range z {
			for j, v := range u[c] {
				row[j] += zc * v
			}
		}
		x[i] = row
	}
	return x
}

func dot(a, b []float64) float64 {
	var s float64
	for i := range a {
		s += a[i] * b[i]
	}
	return s
}
