// Package lowerbound makes the lower-bound half of Lee–Liu–Lu runnable
// (Section 3.2, Lemma G.2, Lemma 3.6, Theorem 3.7): an ℓ1 ERM problem over a
// fingerprinting codebook, mechanisms to attack, the rounding adversary and
// Trace, and the privacy loss the attack implies. It also evaluates Table 1
// and Theorem 2.2 (Table).
//
// # The ℓ1 instance
//
// A code from package fingerprint (Algorithm 2) for n users publishes rows
// z_i ∈ {0,1}^D with D = 5d₀ (the padded length — Definition G.1's d). The
// dataset is those rows (Options.Copies times each, then Options.Pad zero
// rows: Lemma 3.6's group construction, built for the n distinct users) and
// the loss is
//
//	ℓ(θ; z) = ‖θ − z‖₁,  L(θ; D) = (1/N)·Σ_i ‖θ − z_i‖₁ = Σ_k f_k(θ_k),
//	f_k(x) = m_k|x − 1| + (1 − m_k)|x|,  m_k = share of 1s in column k,
//
// so the excess is Σ_k |1−2m_k|·|θ_k − θ*_k| on [0,1]^D, and a wrong rounding
// of a unanimous column costs ≥ ½: violations ≤ 2·excess, hence excess ≤ D/150
// implies at most D/75 marking violations (Lemma G.2 with β = 1/75).
//
// Every mechanism here sees the data only through the column counts m_k, and
// its output law factorises over columns, so a run streams over the D
// columns, never storing θ: it draws θ_k, adds its excess and keeps the bit
// [θ_k ≥ ½] (the rounding adversary A_FP of Theorem 3.7's proof).
//
// # Mechanisms
//
//   - median: the non-private minimiser (θ_k = ½ on ties, which rounds to 1).
//   - exponential: dpsample's Algorithm 1 on this instance with exact
//     calibration (Algorithm1): G = C = √D, rank D, η = Nε√(ln(1/δ)/D),
//     s = s*(ε,δ), μ = 4ηD/(N²s²); per coordinate the target is
//     p(t) ∝ exp(−a·Σ_i|t − z_ik| − b·t²) with a = η/N, b = ημ/2, sampled
//     exactly by sampler/exact.Binary (so no TV budget is needed).
//   - box-exponential: the pure-ε exponential mechanism on [0,1]^D,
//     density ∝ exp(−(ε/2D)·Σ_i‖θ − z_i‖₁), parameterised by s = εN/(2D);
//     closed-form E[excess] = Σ_k |1−2m_k|·g(s|1−2m_k|), g(a) = 1/a − 1/(e^a−1).
//   - gaussian: clip(m + N(0, σ²I), 0, 1) with σ = √D/(N·s*(ε,δ)), N the
//     full dataset's row count.
//
// # Soundness, the claim and the implied privacy loss
//
// With Options.Remove = i every trial also runs the mechanism on the dataset
// without user i's rows (all Copies of them). Every data-independent
// parameter stays the one fixed by the full dataset (σ, λ, Algorithm 1's a
// and b), so the two datasets are neighbours under one mechanism. Definition
// G.1 replaces the row by a fixed element instead; removal is the issue's
// choice and matches the "coalition [n]∖{i}" of the code's soundness.
//
// What is proven and what is measured (Experiment.Soundness):
//
//   - Definition G.1 asks that an innocent be accused with probability ≤ ξ
//     per person, for every mechanism. For Algorithm 2 that rests on [BUV18]
//     as cited; the threshold Z/2 with d₀ = 100n²ln(n/ξ) gives, for an
//     arbitrary output, a per-innocent rate ≈ Φ̄(threshold/√d₀) ≈ Φ̄(√k),
//     k = ln(n/ξ) (the all-ones output: Var S = d₀, threshold = 10nk), which
//     exceeds ξ at small ξ (n = 4: 2.0e-3 at ξ = 1e-3, 5.7e-4 at ξ = 1e-4).
//     WorstCaseExceedsXi flags this.
//   - Measured: the removed person's accusations, RemovedHits of Trials, with
//     the exact two-sided Clopper–Pearson interval at SoundnessLevel.
//   - Computed: the exact probability that the removed person (or a ghost) is
//     accused given each trial's code and output (fingerprint InnocentRate),
//     averaged over trials.
//
// Experiment.Claim is what the mechanism promises for one person's k rows
// (Lemma 3.6): (k·s)-GDP and δ_{k·s}(k·ε) for the GDP mechanisms, kε for the
// box mechanism. ImpliedEpsilon turns P[i accused | i ∈ D] and P[i accused |
// i ∉ D] into the smallest ε an (ε, Claim.Delta)-DP mechanism could have,
// with Clopper–Pearson intervals. Its lower end is a statement about this
// attack's evidence, not a bound on the mechanism's ε from above; it cannot
// exceed Ceiling ≈ ln(n/3.7) for n trials, and as n grows the estimate
// settles at Limit = ln((p₁ − δ)/p₀), finite because p₀ > 0.
package lowerbound
