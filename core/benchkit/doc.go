// Package benchkit holds the benchmark kernels that `./build.sh bench` times
// natively, as WebAssembly under node and as WebAssembly in headless Chromium
// (through the hidden dpsample._bench export), so that the three numbers of
// every row of docs/BENCHMARKS.md come from the same Go code:
//
//   - sampler/<loss>/d=<d>: steps of the zeroth-order proximal sampler
//     (package sampler, stochastic RGO, n = 1000, G = 1, η = 20, μ = 0.05,
//     TV = 10⁻⁶) on a synthetic GLM, for the logistic and hinge losses at
//     d ∈ {2, 10, 100};
//   - exact/l1-separable, exact/l1-binary: coordinates of the exact separable
//     ℓ1 sampler (package sampler/exact) and of its binary-data fast path
//     (the lower bound's hot loop);
//   - fingerprint/gen, fingerprint/trace: Gen and Trace of Algorithm 2
//     (package fingerprint) at ξ = 0.01;
//   - rng/chacha8-normal: standard normal draws from the ChaCha8 generator
//     of package rng, the bulk of a sampler step.
//
// Kernels are built once (data, plans, codes; seeded, so every platform runs
// the same work) and cached; Time runs one of them for a number of iterations
// and returns the wall time. Nothing here is private: every generator is
// seeded.
package benchkit
