// Package exact draws exact samples from the targets of Algorithm 1 of
// Lee–Liu–Lu ("The Power of Sampling", called LLL below) in the cases where the
// density π(θ) ∝ exp(−η(L(θ;D) + μ/2·‖θ‖²)) can be sampled without a Markov
// chain:
//
//   - separable ℓ1 location, L(θ) = (1/(n√d))·Σ_i ‖θ − z_i‖₁: per coordinate a
//     mixture of truncated Gaussians (L1Coord, L1Binary, L1Separable);
//   - linear loss ℓ(θ;z) = ⟨z,θ⟩: a Gaussian (LinearGaussian);
//   - any convex potential in one dimension: rejection from a tabulated
//     piecewise envelope (LogConcave).
//
// These samplers are exact up to floating-point rounding (no truncation, no
// mixing time), so the mechanism reports a sampler TV distance of 0 when it
// uses them, and every approximate sampler in dpsample is tested against them.
// Each sampler has a matching CDF so that tests can apply the probability
// integral transform.
package exact
