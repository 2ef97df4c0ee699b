package baseline

import (
	"context"
	"math"
	"math/rand/v2"

	"github.com/dpsample/dpsample/core/checks"
	"github.com/dpsample/dpsample/core/dpgd"
	"github.com/dpsample/dpsample/core/loss"
)

// NoisyGD is DP-GD: full-batch noisy (sub)gradient descent on the mean loss
// of any convex G-Lipschitz loss.Set (every record's subgradient at every
// step, no sampling of batches), with or without projection:
//
//	θ_{t+1} = Π(θ_t − h·(g_t + N(0, σ²I))),  g_t ∈ ∂L(θ_t),  θ_0 = 0,
//
// returning the average of θ_1 … θ_T (the loop is dpgd.Run; the
// converging public schedules of the real-data study are dpgd.NewSchedule's). σ is GD.Sigma (replace-one: the mean
// subgradient moves by ≤ 2G/n, T steps compose to √T·2G/(nσ) = s*, Dong–Roth–Su
// Corollary 3.3); G is set.G(), p.G is ignored.
//
//   - projected (Π onto ‖θ‖ ≤ C, Bassily–Smith–Thakurta 2014): step
//     h = C/(√T·√(G² + dσ²)), the minimiser of the projected SGD bound
//     2C√(G² + dσ²)/√T, which grows like √d once dσ² > G² (BST14,
//     Theorem 2.4, up to constants) — the baseline of DimensionFree;
//   - unprojected (Π = identity, the GLM setting of Song–Steinke–Thakkar–
//     Thakurta, AISTATS 2021): step h = C/(√T·√(G² + kσ²)) with k the public
//     rank. For a GLM every subgradient lies in the row span of the data, so
//     the noise orthogonal to it never reaches the loss and only k noise
//     directions count; that is why the rank, not d, sets the step.
//
// Both step rules use public quantities only (C, T, G, σ, d or k).
func NoisyGD(ctx context.Context, set *loss.Set, p GD, projected bool, rank int, r *rand.Rand) ([]float64, error) {
	n, d := set.N(), set.Dim()
	p.G = set.G()
	sigma, err := p.Sigma(n)
	if err != nil {
		return nil, err
	}
	if err := checks.IntRange("rank", rank, 1, d); err != nil {
		return nil, err
	}
	dim := float64(d)
	if !projected {
		dim = float64(rank)
	}
	h := GDStep(p.Radius, p.Steps, p.G, sigma, dim)
	// The loop is core/dpgd's (the converging schedules live there); this is
	// the demo's fixed-T schedule with the average of every iterate.
	return dpgd.Run(ctx, set, dpgd.Schedule{Steps: p.Steps, Step: h, Sigma: sigma, Average: dpgd.AverageAll,
		Projected: projected, Radius: p.Radius}, r, nil)
}

// GDStep is the step h = C/(√T·√(G² + m·σ²)) for m noisy directions.
func GDStep(radius float64, steps int, g, sigma, m float64) float64 {
	return radius / (math.Sqrt(float64(steps)) * math.Sqrt(g*g+m*sigma*sigma))
}
