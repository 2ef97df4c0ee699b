// Package fingerprint implements the fingerprinting code of Lee–Liu–Lu,
// "The Power of Sampling", Appendix C.2 Algorithm 2: Tardos' code [T08] with
// the Bun–Ullman–Vadhan robust wrapper [BUV18, Thm 3.4; the paper's
// Theorem C.5], used by Lemma G.2 and Theorem 3.7 to show that an accurate
// answer to the ℓ1 ERM problem over the codebook identifies a member of the
// dataset.
//
// # What is implemented (Algorithm 2, read as follows)
//
//	k  = ln(n/ξ)                 "log" in the paper is the natural log
//	d₀ = ⌈100·n²·k⌉              rounded up to an integer (the paper leaves d real)
//	t  = 1/(300n), sin²t′ = t
//	Gen′:   r_j ~ U[t′, π/2−t′], p_j = sin²r_j ∈ [t, 1−t];  X_ij ~ Bernoulli(p_j)
//	Gen:    append 2d₀ all-0 and 2d₀ all-1 columns, permute all D = 5d₀ columns
//	        by a secret uniform π; row i of the result is user i's data point
//	Trace′: U_ij = q_j = √((1−p_j)/p_j) if X_ij = 1, −1/q_j otherwise
//	        S_i  = Σ_{j<d₀} c_j·U_ij   (Tardos' asymmetric score: only c_j = 1 counts)
//	        A    = {i : S_i ≥ Z/2}, Z = 20·n·k
//	Trace:  undo π, drop the 4d₀ dummy columns, run Trace′ and return a
//	        uniformly random member of A, or ⊥ if A is empty.
//
// Trace reports every score and the whole set A as well as the returned user.
// The ℓ1 problem built on the code lives in dimension D = 5d₀ (the published
// length): that is the d of Definition G.1 and of "1/150·d" in Lemma G.2.
//
// Mode Symmetric is a clearly separate "practical length" heuristic, NOT the
// proven construction: ℓ = ⌈10·n²·k⌉ real columns (10× shorter), Škorić's
// symmetric score S_i = Σ_j (2c_j−1)·U_ij and threshold √(2ℓk), with the same
// bias law, padding and permutation.
//
// # Slips in the paper's text, and how they are read here
//
//   - d = 100n²log(n/ξ) is not an integer: we take the ceiling. "log" is ln
//     (log₂ would lengthen the code 1.44×); ⌈k⌉ as in Tardos is not used.
//   - U's signs: +q_j for a 1, −1/q_j for a 0 (the paper's "else wise" is this;
//     −q_j for a 0 breaks soundness).
//   - Trace′ "Output i if S_i ≥ Z/2 … ⊥ if S_i < Z/2 for every i" leaves the
//     choice among several i open; the main Trace says "Return: i randomly
//     from Trace′(C,c)", read as a uniformly random member of A.
//   - The score runs over the d₀ real columns after undoing π; dummy columns
//     have no bias (p ∈ {0,1}) and are never scored.
//   - Lemma G.2's proof says a wrongly rounded unanimous column costs "≥ 1";
//     rounding at ½ only guarantees ≥ ½ per such column, which is why the
//     proof ends with βd/2 (α = 1/150 ↔ β = 1/75), with d the padded length.
//   - Theorem 3.7 applies the code to the n_k = ⌊n/k⌋ distinct users of the
//     group-privacy construction, so t, d₀ and Z use n_k.
//
// # Guarantees: what is proven, computed and measured
//
// Definition G.1's soundness is per person: an innocent is accused with
// probability ≤ ξ, for every output. With threshold Z/2 and d₀ = 100n²k the
// innocent score on an arbitrary output c has mean 0 and variance
// #{j : c_j = 1} ≤ d₀, so the worst case (the all-ones output) is
// ≈ Φ̄((Z/2)/√d₀) = Φ̄(√k) (Lengths.GaussianWorstCase). That is ≤ ξ only for
// ξ ≳ 1/(2πnk): at n = 4 it is 2.7e-2 at ξ = .1 but 2.0e-3 at ξ = 1e-3 and
// 5.7e-4 at ξ = 1e-4 — per-person soundness fails there, and it is never
// ≤ ξ/n. Code.InnocentRate computes the exact conditional rate for a given
// output (characteristic-function inversion); the tests check it against
// simulated innocents with Clopper–Pearson bands. Outputs that respect the
// marking condition (the majority) are accused about 5–15× less often.
//
// # Representation
//
// X is bit-packed; published rows are computed on demand and never stored as
// floats. Bernoulli(p_j) is drawn as [u < ⌊p_j·2³²⌋] for 32 uniform bits u.
// Randomness comes from four ChaCha8 streams keyed from the caller's
// generator (biases, codebook, permutation, trace coins).
package fingerprint
