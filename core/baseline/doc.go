// Package baseline holds what the dimension-free demonstration compares
// Algorithm 1 of Lee–Liu–Lu ("The Power of Sampling", LLL) against, and the
// demonstration itself:
//
//   - RankK: synthetic logistic-regression data whose feature rows span a
//     k-dimensional subspace of ℝ^d (the setting of LLL Theorem 2.2);
//   - DP-GD, projected (the "DP-SGD" of Bassily–Smith–Thakurta 2014 with
//     full batches) and unprojected (Song–Steinke–Thakkar–Thakurta 2021), on
//     core/dpgd's public schedule and its exact Gaussian-DP accounting (the
//     same as Algorithm 1's). Projected DP-GD's excess risk grows with d: the
//     noise lives in all d directions and the projection onto ‖θ‖ ≤ C lets
//     it crowd out the signal;
//   - DimensionFree: excess empirical risk against d for Algorithm 1 and
//     both DP-GD variants, with Theorem 2.2's bound GC·√(k·ln(1/δ))/(nε).
//
// The utility benchmark (issue 9; UtilityBench in
// wasm/tools/internal/utility, which holds its options, worker pool, disk
// I/O and summary) compares
// Algorithm 1 at equal (ε, δ) and equal accounting with:
//
//   - DP-GD (core/dpgd), unprojected for any GLM loss (Song–Steinke–
//     Thakkar–Thakurta 2021) or projected onto ‖θ‖ ≤ C (BST14);
//   - OutputPert (with Regularized): the certified L2-regularised minimiser plus Gaussian
//     noise (Chaudhuri–Monteleoni–Sarwate 2011, Gaussian version);
//   - ObjPert (with PerturbedLogistic): Kifer–Smith–Thakurta 2012 for the logistic loss,
//     with the replace-one accounting written out in ObjPert;
//
// with a priori hyper-parameters (OutputMu, ObjectiveLambda) and the
// certified comparator min_{‖θ‖≤C} L (Reference).
//
// GD.Charge and OutputPert.Charge are what a run costs a table's
// privacy.Ledger (s*(ε, δ)-GDP, no TV), the same ledger Algorithm 1 charges;
// objective perturbation is not GDP and has no charge (charge.go).
package baseline
