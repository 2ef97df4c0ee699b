package lowerbound

import (
	"math"

	"github.com/dpsample/dpsample/core/checks"
)

// GroupGap evaluates Lemma 3.6: for n_k = len(z) numbers z_i ∈ {0, ½, 1},
// each copied k times and followed by r = n − k·n_k zeros, it returns
//
//	gap = | Σ_i |q − z_i|/n_k − Σ_{i≤n} |q − z′_i|/n |
//
// for q ∈ [0,1], and the lemma's bound 3k/n. (The direct computation gives
// gap ≤ r/n + r·q/n ≤ 2r/n < 2k/n, so 3k/n holds with room; the proof's last
// line in the paper is garbled.) This is the per-coordinate reason why
// running a mechanism on the k-fold group dataset changes the excess by at
// most 6kd/n in Theorem 3.7's proof.
func GroupGap(z []float64, k, n int, q float64) (gap, bound float64, err error) {
	nk := len(z)
	if nk == 0 {
		return 0, 0, checks.Errorf("z", "a non-empty array")
	}
	if err := checks.IntRange("k", k, 1, math.MaxInt32); err != nil {
		return 0, 0, err
	}
	if err := checks.IntRange("n", n, k*nk, k*nk+k-1); err != nil {
		return 0, 0, err
	}
	if err := checks.InRange("q", q, 0, 1); err != nil {
		return 0, 0, err
	}
	var a, b float64
	for _, v := range z {
		a += math.Abs(q - v)
	}
	b = float64(k)*a + float64(n-k*nk)*q // the r zero rows contribute |q − 0| = q each
	return math.Abs(a/float64(nk) - b/float64(n)), 3 * float64(k) / float64(n), nil
}
