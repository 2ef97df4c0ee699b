// Package privacy is dpsample's privacy accountant: the Gaussian differential
// privacy (GDP) curve of Lemma E.1 of Lee, Liu & Lu, "The Power of Sampling"
// (arXiv 2105.13637), its exact calibration, and the budget split that
// Algorithm 1 needs when its sampler is only approximately exact.
//
// # The curve, and the paper's typo
//
// A mechanism is s-GDP when distinguishing neighbouring datasets is no easier
// than telling N(0,1) from N(s,1) (Dong, Roth & Su 2022). Its (ε, δ) profile
// is the hockey-stick divergence of those two Gaussians (Dong–Roth–Su,
// Corollary 2.13; Balle & Wang 2018, Theorem 8):
//
//	δ_s(ε) = Φ(−ε/s + s/2) − e^ε·Φ(−ε/s − s/2).
//
// The paper prints the first term as Φ(−ε/2 + s/2). That form tends to
// Φ(−ε/2) > 0 as s → 0 instead of 0, and agrees with the curve only at ε = 0
// or s = 2; it is a typo, and TestPaperCurveIsWrong keeps it from coming back.
//
// # Evaluation
//
// Φ is computed from erfc, never as ½(1+erf), and δ in log space:
//
//	log δ = A + log1p(−exp(B − A)),  A = logΦ(s/2 − ε/s),  B = ε + logΦ(−s/2 − ε/s),
//
// so e^ε is never formed (it overflows for ε > 709 during bracketing) and δ
// keeps ~1e-11 relative accuracy down to 1e-300.
//
// # Calibration
//
// dδ/ds = φ(s/2 − ε/s) > 0, so for δ ∈ (0, 1) the largest s with δ_s(ε) ≤ δ
// is unique. Calibrate brackets it from the always-feasible lower end
// s = √(z² + 2ε) − z, z = Φ⁻¹(1−δ) (because δ_s(ε) ≤ Φ(s/2 − ε/s)), doubles the
// upper end, bisects on log δ, and returns the feasible (conservative) end.
//
// # Algorithm 1's constants
//
// Algorithm 1 sets μ = 8ηG²/(n²ε²). With replace-one neighbours the mechanism
// is s-GDP with s = 2G√η/(n√μ) = ε/√2 whatever η is, so ln(1/δ) never enters:
// at ε = 1 it delivers δ ≈ 0.04, not a small δ. dpsample instead calibrates
// μ = 4ηG²/(n²·s*²) with s* = Calibrate(ε, δ_curve); see PaperMu and the tests.
//
// # One budget per table
//
// Ledger is a privacy filter: a total (ε, δ) for one table, charged by every
// release (Algorithm 1, DP-GD, output perturbation) before it runs, with the
// fully adaptive composition of Gaussian DP (Smith & Thakurta 2022) as its
// rule: Σ s_i² ≤ S², plus the samplers' total variation. See ledger.go.
package privacy
