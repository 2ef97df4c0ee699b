package privacy

import (
	"math"

	"github.com/dpsample/dpsample/core/checks"
)

// Group is group privacy (the paper's Proposition C.2, after Dwork and Roth
// 2014, Theorem 2.2): a mechanism that is (ε, δ)-DP for datasets differing in
// one record is, for datasets differing in k records, (kε, δ_k)-DP with
//
//	δ_k = Σ_{i<k} e^{iε}·δ ≤ k·e^{(k−1)ε}·δ
//
// (chain k neighbours: P[M(x₀) ∈ S] ≤ e^ε P[M(x₁) ∈ S] + δ ≤ …). Group
// returns (kε, min(1, k·e^{(k−1)ε}·δ)), a factor e^ε below the proposition's
// kδe^{kε}. This is the guarantee Lemma 3.6's construction leans on when one
// person's row is copied k times (lowerbound.Options.Copies).
func Group(k int, eps, delta float64) (groupEps, groupDelta float64, err error) {
	if err := checks.First(
		checks.IntRange("k", k, 1, math.MaxInt32),
		checks.NonNegative("epsilon", eps),
		checks.InRange("delta", delta, 0, 1),
	); err != nil {
		return 0, 0, err
	}
	kf := float64(k)
	if delta == 0 {
		return kf * eps, 0, nil // (avoids 0·∞ when e^{(k−1)ε} overflows)
	}
	return kf * eps, math.Min(1, kf*math.Exp((kf-1)*eps)*delta), nil
}
