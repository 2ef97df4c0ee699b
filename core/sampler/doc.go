// Package sampler draws approximately from the regularised exponential
// mechanism's law
//
//	π(x) ∝ exp(−f(x) − (α/2)‖x‖²),  f = η·L(·; D) = (1/n)Σᵢ fᵢ,  fᵢ = η·l(·; zᵢ),  α = ημ,
//
// using loss values only (no gradients, no smoothness): the zeroth-order
// proximal sampler of Lee–Liu–Lu Lemma E.2 (after Gopi–Lee–Liu 2022), with the
// stated total-variation budget spent as follows (Plan documents each term):
//
//	TV(output, π) ≤ τ_c (mixing) + T·τ_step (inexact RGO)  (+ τ_over with WorkTotal).
//
// The alternating sampler (Lee–Shen–Tian 2021; Chen–Chewi–Salim–Wibisono 2022)
// is Gibbs sampling on π(x, y) ∝ π(x)·exp(−‖x−y‖²/(2λ)):
//
//	x₀ ~ N(0, α⁻¹I)                          (data-independent start, KL(x₀‖π) ≤ ηG²/(2μ))
//	y ← x + √λ·N(0, I)                       (exact)
//	x ← RGO(y): ∝ exp(−f(x) − (α/2)‖x‖² − ‖x−y‖²/(2λ))
//
// Lemma E.3's data-independent radius R (π(‖x‖ > R) ≤ τ) is reported in the
// plan but not imposed as a truncation: with proposals restricted to B(0, R)
// the RGO's acceptance rate is ∝ q_y(B)², which has no lower bound uniform in
// y, so its trial cap — and with it the TV budget — could not be proven.
// Without the ball every bound holds for every y, because each loss is
// G-Lipschitz on all of ℝ^d and the target is π on ℝ^d, as in Algorithm 1.
//
// The quadratic part of the RGO is the Gaussian q_y = N(y/(1+λα), λ/(1+λα)·I);
// the data term is handled by the dimension-free two-sample rejection rule:
// draw X, X′ ~ q_y independently and accept X with probability
// min(1, exp(f(X′) − f(X) − c)) (full batch), or with the Poisson/Bernoulli
// factory probability exp(−E_J[f_J(X) − f_J(X′) + c]) using one random fᵢ per
// query (stochastic). See rgo.go for the exactness argument and the TV bounds.
//
// Every parameter (T, λ, R, the trial budgets) depends only on (n, d, G, η, μ,
// TV): never on the data. T is computed up front and always run in full.
//
// For losses smooth in ⟨aᵢ, x⟩ the package also has an exact first-order RGO
// (firstorder.go, smooth-sampler.md §2): a tangent-plane Gaussian proposal
// at an anchor found by gradient descent on the prox objective, accepted
// with probability e^{−B} (B the Bregman divergence of f, ≥ 0 by
// convexity). Its step λ = c/(η·β·clip²) (c = 2, 1 under fixed work) is set by the curvature instead of
// G_f, so T (NewFirstOrderPlan, the same mixing bound) is linear in n·s
// instead of quadratic; its only TV error is the trial cap.
package sampler
