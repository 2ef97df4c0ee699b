// Package mechanism implements Algorithm 1 of Lee–Liu–Lu, "The Power of
// Sampling: Dimension-free Risk Bounds in Private ERM" (LLL): the regularized
// exponential mechanism, which releases
//
//	θ ~ π_D(θ) ∝ exp(−η·(L(θ; D) + μ/2·‖θ‖²)),  θ ∈ R^d,
//
// for a convex, G-Lipschitz loss L (package loss), with η and μ calibrated so
// that the release is (ε, δ)-differentially private.
//
// A call goes Request → Plan → Result. NewPlan validates the request in one
// place and computes every parameter from public quantities only (n, d, ε, δ,
// the declared radius C, rank k and the loss's public bounds); Sample draws
// the private sample(s) and reports the guarantee.
//
// Calibration (Calibrate). By LLL Lemma E.1 (after Gopi–Lee–Liu 2022),
// replacing one record changes ηL by a (2ηG/n)-Lipschitz function, and π_D is
// ημ-strongly log-concave, so the mechanism is s-Gaussian-DP with
// s = 2G√η/(n√μ). Instead of the paper's μ = 8ηG²/(n²ε²), which gives
// s = ε/√2 and does not deliver (ε, δ) (δ ≈ 0.04 at ε = 1), μ is calibrated
// exactly: s* is the largest s whose GDP curve δ_s(ε) is ≤ δ (package
// privacy) and μ = 4ηG²/(n²s*²). With m > 1 samples, the m releases compose
// to √m·s, so each uses s = s*/√m. With an approximate (proximal) sampler δ is
// split between the curve and the sampler's total-variation error.
//
// Sampler choice (choose.go). Request.Sampler "auto" picks, from public
// quantities only (the loss and d): an exact sampler when one exists (l1 and
// linear in any d, every loss in d = 1), else the first-order proximal sampler
// of smooth-sampler.md (sampler.RunFirstOrder) when the loss is smooth in
// ⟨θ,x⟩ (loss.Smooth: logistic, huber, smooth-hinge, smooth-quantile), else
// the zeroth-order proximal sampler (sampler.Run). "smooth" forces the
// first-order sampler (an error on the field "sampler" naming the loss when
// it is not smooth), "proximal" the zeroth-order one, "exact" an exact one.
// Plan.Method and Plan.Why say which and why; for the proximal samplers Plan
// reports λ, T (steps), M (trialBudget), the TV split tvMix + tvRGO ≤ tv and,
// for the first-order sampler, K (anchorMax), the curvature β·clip² and the
// acceptance bound acceptMin.
//
// Output rounding. Released coordinates are rounded to a data-independent
// grid (a power of two near 2⁻²⁰ times the posterior scale 1/√(ημ)); rounding
// is post-processing, so it cannot weaken the guarantee, and it removes the
// low-order bits of the floating-point sample, whose pattern can reveal the
// data (Mironov, "On significance of the least significant bits for
// differential privacy", CCS 2012). It is a mitigation: the samplers compute
// in floating point and are exact only up to rounding.
//
// # The guarantee in plain language (README draft)
//
// dpsample releases an estimate θ computed from your table, randomised so that
// it is (ε, δ)-differentially private with respect to replacing any one row:
// for any two tables that differ in a single row (one person's record swapped
// for any other possible record) and for any set S of possible outputs, the
// probability that the output lands in S changes by at most a factor e^ε, plus
// an additive slack δ. Small ε (say ≤ 1) means that whatever can be learned
// from θ could have been learned almost as well without any one person's row;
// δ is the probability budget for that promise to fail and should be much
// smaller than 1/n. What is treated as public and is not protected: the number
// of rows n and columns d, the loss, ε and δ, and the bounds you declare — the
// radius C (how large the best θ may be), the rank k, the clipping norm for
// features (longer rows are shrunk to it before use), the range of the
// target (targetRange, default [−1, 1]) and the box of location points
// (pointBox, default [−1, 1]) into which values are clamped before use, and
// the quantile or Huber parameter. These must be chosen without looking at the data, or the
// guarantee does not hold. Requesting several samples spends the budget on all
// of them together (the report says so), and a fixed seed makes the result
// reproducible but not private. The non-private comparison fit and the diagnostics (work
// counters, run time, counts of clamped and clipped records) are computed on
// your own device for display and are not private; Result.Release is the
// part that may be shared. The unit of privacy is a complete row, n is public,
// and the run time is visible to anyone who can time the run (docs/PRIVACY.md).
package mechanism
