// Package interval releases confidence intervals for the coefficients of a
// DP-GD estimate (issue 54): after DP-GD (package dpgd) has released θ̃, three
// more Gaussian releases at θ̃ — the gradient, the curvature and the score
// covariance of the mean loss — give a corrected estimate θ̂ and, per
// coefficient, an interval θ̂ⱼ ± z·√Vⱼⱼ that holds the population's θ*ⱼ with
// the requested probability, privacy noise included. The request's (ε, δ)
// pays for everything: one GDP budget s = privacy.Calibrate(ε, δ) is split
// between the model and the three releases by a public rule.
//
// # The mechanism
//
// Records are (aᵢ, yᵢ) with ‖aᵢ‖ ≤ clip (package loss clips) and a smooth
// GLM loss ℓ(θ; aᵢ, yᵢ) = φ(⟨aᵢ, θ⟩; yᵢ) whose public bounds are |φ'| ≤ G/clip
// (G = loss.Set.G) and 0 ≤ φ” ≤ β (loss.Smooth): logistic (β = ¼), huber
// (β = 1, |φ'| ≤ h), smooth-hinge and smooth-quantile (β = 1/h). The
// non-smooth losses have no bound on φ” and get no interval. With the shares
// of Shares (fractions of s²),
//
//  1. θ̃ = DP-GD at s_m = s·√share_m (package dpgd's schedule: step h, T
//     steps, noise σ = 2G√T/(n·s_m) per step, the suffix average of the
//     iterates θ_{T₀+1} … θ_T, T₀ = ⌊T/2⌋, M = T − T₀; unprojected, θ₀ = 0).
//  2. At θ̃ (released, so public from here on), with φ'ᵢ, φ”ᵢ at ⟨aᵢ, θ̃⟩:
//     g = (1/n)Σφ'ᵢaᵢ = ∇L(θ̃), H = (1/n)Σφ”ᵢaᵢaᵢᵀ = ∇²L(θ̃) and
//     J = (1/n)Σφ'ᵢ²aᵢaᵢᵀ (Stats: one pass, n·d·(d+2) multiply-adds).
//  3. g̃ = g + N(0, σ_g²I); for M ∈ {H, J} the vector vec(M) = (M_jj; √2·M_jk,
//     j < k), whose norm is ‖M‖_F, gets N(0, σ_M²I): M̃_jj = M_jj + σ_M·Z,
//     M̃_jk = M̃_kj = M_jk + (σ_M/√2)·Z. σ_• = Δ_•/s_•. Every normal is
//     rng.Normal53; each release is rounded to a power-of-two grid of 2⁻²⁰
//     of its smallest sd (Release), as θ̃ is.
//  4. Everything else is post-processing of θ̃, g̃, H̃, J̃ and public inputs
//     (Estimate).
//
// # Privacy
//
// Replace-one sensitivities (L2; Part.Sensitivity). For two neighbouring
// tables only one term of each mean changes:
//
//	g: ‖φ'ᵢaᵢ − φ'ⱼ'aⱼ'‖ ≤ 2·sup|φ'|·clip = 2G, so Δ_g = 2G/n (as DP-GD's step).
//	H: φ''aaᵀ = uuᵀ with u = √φ''·a, ‖u‖² ≤ β·clip²; for any u, v
//	   ‖uuᵀ − vvᵀ‖_F² = ‖u‖⁴ + ‖v‖⁴ − 2(u·v)² ≤ 2·max(‖u‖², ‖v‖²)²,
//	   so Δ_H = √2·β·clip²/n.
//	J: φ'²aaᵀ = uuᵀ with u = φ'·a, ‖u‖² ≤ G², so Δ_J = √2·G²/n.
//
// All three are attained (orthogonal rows at the top curvature or slope:
// TestSensitivity; for logistic g the bound 2G/n is a supremum, approached by
// two nearly opposite rows at a large θ). The Gaussian mechanism with noise
// sd Δ/s on every coordinate is s-GDP (Dong, Roth & Su 2022, Theorem 2.7),
// and vec(·) is an isometry from symmetric matrices with ‖·‖_F, so the
// noise on a matrix's off-diagonal entries is σ/√2. The four mechanisms
// compose adaptively — the releases are computed at θ̃, an output of the
// first — to √(s_m² + s_g² + s_H² + s_J²) = s-GDP (ibid., Corollary 3.3), so
// the whole release is (ε, δ_s(ε))-DP with δ_s(ε) ≤ δ: the same accountant
// and the same single ledger charge as a DP-GD run at s. No sampler is
// involved: TV = 0, the whole δ is on the curve.
//
// # The estimate and its variance
//
// Let θ̂ₙ minimise L (the non-private estimate), H its Hessian, and
// linearise around θ̂ₙ (exact for a quadratic L; the remainder is
// O(‖θ̃ − θ̂ₙ‖²) for a smooth one). DP-GD's iterates then obey, in H's
// eigenbasis (λ_k, q_k), e_{t+1} = (1 − hλ_k)·e_t − hσ·ξ_t with e = q_kᵀ(θ − θ̂ₙ)
// and independent standard normals ξ (the step noise is isotropic), so
//
//	q_kᵀθ̃ = (1 − a_k)·c_k + ν_k,   c_k = q_kᵀθ̂ₙ,   ν_k ~ N(0, v_k) independent over k,
//
// with v_k and the start's weight a_k = (1/M)·Σ_{m=T₀+1}^{T} ρ_k^m, ρ_k = 1 −
// hλ_k, given exactly by the schedule (suffixNoise; TestSuffixNoise checks
// them against the iteration). And g̃ = H(θ̃ − θ̂ₙ) + e_g, so the Newton
// point y = θ̃ − H⁻¹g̃ = θ̂ₙ − H⁻¹e_g: in direction k a second measurement of
// c_k, with error −e_{g,k}/λ_k of variance p_k = σ_g²/λ_k², independent of
// ν_k (θ̃'s noise cancels). Their combination
//
//	q_kᵀθ̂ = w_k·q_kᵀθ̃ + (1 − w_k)·q_kᵀy,   w_k = p_k/(p_k + v_k + a_k²C²),
//
// i.e. a Newton step shortened by the factor 1 − w_k, has privacy variance
// w_k²v_k + (1 − w_k)²p_k and inherits the start's pull w_k·a_k·c_k; w_k
// minimises the worst case of their sum, w²(v_k + a_k²C²) + (1 − w)²p_k
// over |c_k| ≤ C, and is the inverse-variance weight p_k/(p_k + v_k), with
// variance v_k·p_k/(v_k + p_k) below both, where DP-GD has converged
// (a_k ≈ 0). With the inverse-variance weight everywhere, the pull, bounded
// through C, made d8-mixed's interval at n = 2·10⁵ 2.6 times the
// non-private one; with this weight 1.2 times. In a direction where θ̃ has
// converged
// (hλ_k·T ≫ 1) v_k ≈ σ²/(λ_k²M) = 8G²/(λ_k²n²s_m²) and p_k = 4G²/(λ_k²n²s_g²):
// per unit of s², the gradient release is twice as informative as DP-GD's
// run, which spends its noise on all T steps and keeps the last half.
// Where DP-GD has not converged (a rare binary feature, correlated features:
// small λ_k), a_k is near 1 and v_k large: w_k → 0 and the full Newton step
// removes the bias towards θ₀ = 0 that the plain interval around θ̃ cannot
// see (the design note measured coverage 0.45 on one coordinate at n = 2·10⁵
// without the step).
//
// With the releases in place of the truth: H̃ = QΛ̃Qᵀ (eigSym, cyclic
// Jacobi). A direction is stepped when λ̃_k > σ_H (one noise sd of a diagonal
// entry: below it the curvature is indistinguishable from the noise and
// 1/λ̃_k meaningless); its curvature is λ̂_k = min(λ̃_k, β·clip²) (the public
// ceiling ∇²L ⪯ β·clip²·I), an unstepped one keeps θ̃ (w_k = 1) with λ̂_k =
// σ_H in its variance. J̃₊ is J̃ with negative eigenvalues set to 0. Then
//
//	θ̂ = θ̃ − Σ_{k stepped} (1 − w_k)·q_k·(q_kᵀg̃)/λ̂_k,
//	V = H̄⁻¹J̃₊H̄⁻¹/n + Q·(diag(π_k) + Γ)·Qᵀ,   H̄ = Q·diag(λ̂)·Qᵀ,
//	π_k = w_k²v_k + (1 − w_k)²p_k stepped,  v_k unstepped (w_k = 1),
//	Γ_kl = (1 − w_k)(1 − w_l)/(λ̂_k·λ̂_l)·(σ_H²/2)·(m₀·1{k = l} + δ̂_k·δ̂_l)  (k, l stepped; 0 else),
//	b_j = C·√(Σ_k Q_jk²·w_k²·a_k²),
//	interval_j = [θ̂_j − z·√V_jj − b_j, θ̂_j + z·√V_jj + b_j] ∩ [−C, C],
//
// with z = Φ⁻¹(1 − (1 − level)/2) and v_k, a_k at λ̂_k. Γ is the curvature
// noise's share: with H̃ = H + E the step's error is, to first order,
// H⁻¹E·δ (δ = θ̃ − θ̂ₙ), and for a symmetric E with entries of sd σ_H on the
// diagonal and σ_H/√2 off it Cov(E·u) = (σ_H²/2)·(‖u‖²I + uuᵀ); δ_k is
// estimated by the full step δ̂_k = q_kᵀg̃/λ̂_k where stepped (its own noise
// only adds to it) and, in m₀ = Σ_stepped δ̂_k² + Σ_unstepped (v_k +
// a_k²C²), by its expected square where not. Without Γ the worst
// coordinate of d8-mixed covered 0.92 at n·s = 2,500 (0.94 with it; 100
// runs) at 15 % more width. The first term of V
// is the sandwich (Huber 1967, White 1982): θ̂ₙ − θ* ≈ N(0, H*⁻¹J*H*⁻¹/n)
// for the population minimiser θ* whether or not the model is well
// specified, with H*, J* estimated at θ̃. The privacy noise is independent of
// the sample, so the two variances add. b_j bounds the start's pull:
// Σ_k q_k·w_k·a_k·q_kᵀθ* has j-th coordinate at most √(Σ_k Q_jk²w_k²a_k²)·‖θ*‖
// (Cauchy–Schwarz), and ‖θ*‖ ≤ C is the radius's assumption (its part
// w_k·a_k·q_kᵀ(θ̂ₙ − θ*) only shrinks the sampling error, which V counts
// whole). The same assumption justifies cutting the interval, and θ̂, to
// [−C, C]. SE reports √V_jj. The intervals are marginal (each coordinate
// on its own), not simultaneous.
//
// What is asymptotic: the sandwich (n large), the linearisation (θ̃ within
// the region where L is quadratic: privacy noise small against the
// curvature, n·s large) and the plug-in H̃, J̃ (σ_H small against the λ_k).
// The broken variants (Variant) are what the coverage test must catch: no
// Newton step (centred at θ̃ with the sandwich and v_k) and the privacy part
// dropped (the sandwich alone).
//
// # The split
//
// DefaultShares gives (s_m², s_g², s_H², s_J²) = (0.4, 0.4, 0.1, 0.1)·s². In
// the combination's precision 1/v_k + 1/p_k the model and the gradient count
// about s_m²/8 + s_g²/4 in a converged direction, so the gradient earns its
// share; the model still needs enough for θ̃ to sit in the quadratic region
// and for DP-GD to converge in the flatter directions, and H̃ and J̃ enter only
// through 1/λ̂ and the sandwich, where a 10 % share's noise was small beside
// the rest. Measured during development (study -intervals-cells …
// -intervals-shares, 100 runs a cell, ε = 1, before the curvature term and
// the error-minimising weight were added): against the design note's split (the
// model s_m and each release s_m/2, i.e. 4/7 and 1/7 each) the median width
// fell by 6–12 % (d3-corr n = 5,000: 2.50 → 2.25 times the non-private
// sandwich; d3-rare n = 10⁴: 2.10 → 1.92; huber: 1.66 → 1.51) with the same
// coverage; a model share of 0.3 (0.3, 0.5, 0.1, 0.1) was narrower by
// another 5 % but under-covered (d3-corr n = 5,000: 0.89 on one
// coordinate), and 0.5/0.3/0.1/0.1, 0.4/0.45/0.1/0.05 and 0.35/0.35/0.2/0.1
// were within ±4 % of it.
//
// # The gate
//
// Intervals are released only when n·s ≥ max(MinNS, NSPerCoefficient·d) =
// max(2500, 2500·d/9) and d ≤ MaxDim (GateNS; n, s and d are public, so the
// gate is decided with the plan, before any data is read). Below it the
// model gets the whole budget and the result says why (Plan.Reason).
// Measured (docs/study/intervals-development.md, 200 runs a cell): below
// n·s ≈ 2,500 the intervals held θ* less often than they said — d8-mixed (8
// features and the intercept) covered 0.755 on its worst coordinate at
// n·s = 1,500; d3-rare (a rare binary and a skewed feature) 0.865 at
// n·s = 1,000 (0.850 with n = 1,081 rows at ε = 4), where the designs
// without a flat direction (d3-corr, huber, smooth-quantile) still covered;
// from n·s ≈ 2,500 every design with d ≤ 9 covered (mean 0.930–0.986, worst
// coordinate 0.920–0.975; at d1's n = 2·10⁵ the non-private sandwich
// itself covered 0.925). With 16 features and the intercept (d16-mixed)
// n·s = 2,500 was not enough (0.860) and 4,750 was (1.000): the bound grows
// with d, through the noise of g̃ and H̃ (G = clip = √d in the page's
// scaling, and the d×d noise E has ‖E‖ ≈ √(2d)·σ_H). The scaling 2500·d/9 is
// fitted to d = 9 and checked at d = 17 and 31 (d30-mixed at n·s = 8,650:
// 1.000, 60 runs), where the intervals are conservative and wide (7 and 14
// times the non-private ones: the flat directions' start bias is bounded
// through C). MaxDim = 64 caps the d×d work (Jacobi sweeps of O(d³)); it is
// not a measured limit.
//
// Costs: the releases take one pass over the rows for the margins and g and
// d + 1 for the two matrices' upper triangles (Plan.Passes = d + 2, in
// units of n·d multiply-adds), beside DP-GD's T passes; the post-processing
// is O(d³).
package interval
