// Package loss holds the convex, G-Lipschitz losses ℓ(θ; z) that
// Algorithm 1 of Lee–Liu–Lu ("The Power of Sampling", LLL) samples with, and
// the data they are evaluated on.
//
// A Set stores the (clipped) data contiguously and evaluates ℓ by value only:
// the mechanism never needs gradients. Each loss has a Lipschitz constant G
// (in ℓ2, over all θ ∈ R^d) derived from declared public bounds, never from
// the data:
//
//	loss       ℓ(θ; z)                                  G
//	l1         ‖θ − z‖₁/√d  (coordinate median)         1
//	l2dist     ‖θ − z‖₂     (geometric median)          1
//	lad        |⟨θ,x⟩ − y|                              clip
//	quantile   ρ_τ(y − ⟨θ,x⟩), ρ_τ(u) = u(τ − 1{u<0})   max(τ, 1−τ)·clip
//	hinge      max(0, 1 − y⟨θ,x⟩), y ∈ {−1,+1}          clip
//	logistic   log(1 + exp(−y⟨θ,x⟩)), y ∈ {−1,+1}       clip
//	huber      H_h(⟨θ,x⟩ − y)                           h·clip
//	linear     ⟨θ, x⟩                                   clip
//	linext     min_{‖u‖≤R} −⟨u,x⟩ + G‖θ − u‖  (Lemma 3.2) clip
//	smooth-hinge     Huberised hinge (smooth.go)         clip
//	smooth-quantile  Huberised quantile/LAD (smooth.go)  max(τ, 1−τ)·clip
//
// The losses smooth in ⟨θ,x⟩ (logistic, huber, smooth-hinge, smooth-quantile)
// also report a public curvature bound β (Smooth) and a one-pass value and
// gradient with per-record Bregman terms (Linearize, Bregman) for the
// first-order proximal sampler.
//
// The ℓ1-location loss is normalised by √d: ‖θ − z‖₁ has subgradients
// sign(θ − z) of ℓ2 norm up to √d, so without the factor its G would grow with
// the dimension. The normalisation does not change the law of Algorithm 1
// (scaling ℓ by c scales G by c, the utility-optimal η by 1/c and μ by c, so
// ηℓ and ημ are unchanged), it only fixes the units of reported losses.
//
// Features x of the supervised losses (and of linear, linext) are clipped to
// the public norm bound clip: a row with ‖x‖₂ > clip is scaled to length clip.
// Clipping is part of the mechanism; the number of clipped rows is available
// (Clipped) for display on the data owner's device, but it is a statistic of
// the data and is not private. The location losses need no clipping: their G
// holds for every z.
//
// For linext (the Lipschitz extension of Lemma 3.2 applied to the linear loss
// −⟨θ,x⟩ on K = {‖θ‖₂ ≤ R}, used by LLL Appendix D with R = G = 1), see
// LinearExtension.
package loss
