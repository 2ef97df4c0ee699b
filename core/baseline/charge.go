package baseline

import (
	"math"

	"github.com/dpsample/dpsample/core/privacy"
)

// The baselines charge the same per-table ledger as Algorithm 1
// (privacy.Ledger): DP-GD and output perturbation are Gaussian mechanisms,
// so each release is s-GDP with no total-variation slack (TV = 0). Objective
// perturbation is not: its (ε, δ) comes from a tail bound on the noise (see
// ObjPert), not from a Gaussian trade-off, and a GDP filter cannot account
// for it (privacy.Ledger's doc: composing (ε, δ) pairs in a filter is not
// valid in general), so it has no charge and cannot run under a ledger.

// release builds a GDP charge with its own (ε, δ_s(ε)).
func release(label string, s, eps float64) (privacy.Release, error) {
	d, err := privacy.Delta(s, eps)
	if err != nil {
		return privacy.Release{}, err
	}
	return privacy.Release{Label: label, GDP: s, Epsilon: eps, Delta: d}, nil
}

// Charge is what one T-step DP-GD run on n records costs a ledger: T steps of the
// Gaussian mechanism with sensitivity 2G/n and noise σ compose to
// s = √T·2G/(nσ) (= s*(ε, δ) by Sigma), TV = 0. The value does not depend on
// projected or not (the projection is post-processing of each step).
func (p GD) Charge(n int) (privacy.Release, error) {
	sigma, err := p.Sigma(n)
	if err != nil {
		return privacy.Release{}, err
	}
	return release("dp-gd", math.Sqrt(float64(p.Steps))*2*p.G/(float64(n)*sigma), p.Epsilon)
}

// Charge is what one OutputPerturbation release on n records costs a ledger:
// the Gaussian mechanism with sensitivity Δ and noise σ is (Δ/σ)-GDP
// (= s*(ε, δ) by Sigma), TV = 0.
func (p OutputPert) Charge(n int) (privacy.Release, error) {
	sens, err := p.Sensitivity(n)
	if err != nil {
		return privacy.Release{}, err
	}
	sigma, err := p.Sigma(n)
	if err != nil {
		return privacy.Release{}, err
	}
	return release("output-perturbation", sens/sigma, p.Epsilon)
}
