package interval

import "math"

// suffixNoise returns, for one eigen-direction of curvature λ of the
// linearised DP-GD iteration, the variance of the suffix average's privacy
// noise and the weight of the start point in it (package doc, "What DP-GD's
// noise leaves in θ̃"):
//
//	e_{t+1} = ρ·e_t − h·σ·ξ_t,  ρ = 1 − h·λ,  ξ_t ~ N(0, 1),  t = 0 … T−1,
//	ē = (1/M)·Σ_{m=T₀+1}^{T} e_m,  T₀ = ⌊T/2⌋,  M = T − T₀,
//
//	Var ē = (hσ/M)²·Σ_{j<T} S_j²,  S_j = Σ_{m=max(j+1, T₀+1)}^{T} ρ^{m−1−j},
//	start = (1/M)·Σ_{m=T₀+1}^{T} ρ^m   (ē's coefficient on e_0).
//
// S_j is computed backwards, S_{T−1} = 1, S_j = 1 + ρ·S_{j+1} for j ≥ T₀ and
// S_j = ρ·S_{j+1} below, which is exact in the recursion and stable for ρ
// near 1 (where the closed form's (1 − ρ^M)/(1 − ρ) cancels). T steps.
func suffixNoise(h, sigma, lam float64, steps int) (variance, start float64) {
	rho := 1 - h*lam
	t0 := steps / 2
	m := float64(steps - t0)
	var ss, sj float64
	for j := steps - 1; j >= 0; j-- {
		if j >= t0 {
			sj = 1 + rho*sj
		} else {
			sj = rho * sj
		}
		ss += sj * sj
	}
	// Σ_{m=T₀+1}^{T} ρ^m = ρ^{T₀+1}·S_{T₀}, and S_{T₀} = Σ_{i<M} ρ^i.
	var geo, pw float64 = 0, 1
	for i := 0; i < steps-t0; i++ {
		geo += pw
		pw *= rho
	}
	return (h * sigma / m) * (h * sigma / m) * ss, math.Pow(rho, float64(t0+1)) * geo / m
}
