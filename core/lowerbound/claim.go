package lowerbound

import (
	"math"

	"github.com/dpsample/dpsample/core/privacy"
)

// Claim is the privacy a mechanism promises to one person of the experiment:
// all Copies of their rows (Lemma 3.6's group construction, Theorem 3.7).
// The implied ε of the attack is computed at this δ and compared with this ε.
//
// Neighbours are "remove one person's k rows" with the mechanism's
// data-independent parameters fixed by the full dataset (Options.law):
//
//   - gaussian: θ = clip(mean + N(0, σ²I)) with σ fixed; removing k of N rows
//     moves every column mean by at most k/N (|N·b − k·ones|/(N(N−k)) ≤ k/N
//     for b of the k removed bits set), so the ℓ2 sensitivity is k√D/N and the
//     mechanism is exactly (k·s)-GDP — the GDP group property s → k·s.
//   - exponential (Algorithm 1): a = η/N and b = ημ/2 fixed; removing k rows
//     changes the potential by a·Σ_removed‖θ − z‖₁, whose gradient has norm
//     ≤ k·a·√D, against strong log-concavity 2b, which gives (k·s/2)-GDP by
//     the argument of Lemma E.1; k·s is claimed (conservative).
//   - box-exponential: λ = ε/(2D) fixed, so removing k rows changes the log
//     density by ≤ k·ε/2 and the normaliser by ≤ e^{kε/2}: (kε, 0)-DP.
//   - median: no claim (Epsilon is nil, i.e. +∞).
//
// For the GDP mechanisms Delta = δ_{k·s}(k·ε), the tight δ of (k·s)-GDP at
// k·ε; DeltaGeneric = min(1, k·e^{(k−1)ε}·δ) is the generic group rule for an
// (ε, δ)-DP mechanism (valid too, but looser: at ε = 1, δ = 1e-5, k = 3 it is
// 2.2e-4 against 7.6e-5). With k = 1 both equal δ (up to the calibration's
// tolerance for Delta). The per-row δ is NOT a valid claim when k > 1.
type Claim struct {
	Copies       int      `json:"copies"`
	Rule         string   `json:"rule"`               // "none" (median), "pure" (box-exponential), "gdp"
	Epsilon      *float64 `json:"epsilon"`            // k·ε; nil = no claim (+∞)
	Delta        float64  `json:"delta"`              // δ at Epsilon used for the implied ε
	DeltaGeneric float64  `json:"deltaGeneric"`       // min(1, k·e^{(k−1)ε}·δ)
	GDP          float64  `json:"gdp,omitempty"`      // k·s for the GDP mechanisms
	RowDelta     float64  `json:"rowDelta,omitempty"` // the per-row δ the mechanism was calibrated for
}

// GroupClaim returns the Claim of a mechanism with parameters m for a person
// with k rows (k ≥ 1).
func GroupClaim(m MechanismInfo, k int) Claim {
	c := Claim{Copies: k}
	fk := float64(k)
	switch m.Name {
	case Median:
		c.Rule = "none"
		return c
	case BoxExponential:
		e := fk * m.Epsilon
		c.Rule, c.Epsilon = "pure", &e
		return c
	}
	e := fk * m.Epsilon
	c.Rule, c.Epsilon, c.GDP, c.RowDelta = "gdp", &e, fk*m.GDP, m.Delta
	c.DeltaGeneric = math.Min(1, fk*math.Exp((fk-1)*m.Epsilon)*m.Delta)
	if k == 1 {
		c.Delta = m.Delta
		return c
	}
	d, err := privacy.Delta(c.GDP, e)
	if err != nil || d > c.DeltaGeneric {
		d = c.DeltaGeneric
	}
	c.Delta = d
	return c
}
