package exact

import (
	"math"
	"math/rand/v2"
)

// The 1-D ℓ1 target of LLL Algorithm 1 with ℓ1-location loss is
//
//	p(t) ∝ exp(−a·Σ_{i=1}^n |t − z_i| − b·t²),  a ≥ 0, b > 0,
//
// (a = η/(n√d), b = ημ/2 per coordinate). With the points sorted,
// z_(0) = −∞ ≤ z_(1) ≤ … ≤ z_(n) ≤ z_(n+1) = +∞ and S_k = Σ_{i≤k} z_(i),
// on I_k = [z_(k), z_(k+1)] the sum is (2k−n)·t + S_n − 2S_k, so
//
//	p(t) ∝ exp(c_k)·exp(−(t−m_k)²/(2s²)),
//	m_k = −a(2k−n)/(2b),  c_k = b·m_k² − a(S_n − 2S_k),  s² = 1/(2b),
//
// and p is a mixture over k of N(m_k, s²) truncated to I_k with weights
// w_k = exp(c_k)·s√(2π)·[Φ(β_k) − Φ(α_k)], α_k = (z_(k)−m_k)/s,
// β_k = (z_(k+1)−m_k)/s (privacy-and-sampler design note §1.8b).

// l1Offsets fills off[k] = S_k − S_{k0} for k = 0..n (len(off) = n+1), with the
// pivot k0 = ⌊n/2⌋, accumulating outward from the pivot: the log weight of
// piece k is c_k = b·m_k² + 2a·off[k] plus a constant common to all pieces,
// so no sum containing every point is ever formed. (The former code used
// c_k = b·m_k² − a(S_n − 2S_k) directly: with one point at 10¹⁶, S_n carries an
// absolute rounding error of ≈ 2, which shifted the log weights by O(a) and
// drew from a wrong law; issue 13.)
func l1Offsets(sorted, off []float64) {
	n := len(sorted)
	k0 := n / 2
	off[k0] = 0
	for k := k0 + 1; k <= n; k++ {
		off[k] = off[k-1] + sorted[k-1]
	}
	for k := k0 - 1; k >= 0; k-- {
		off[k] = off[k+1] - sorted[k]
	}
}

// l1Piece returns the parameters of piece k of the mixture: its mean m, the
// standardised bounds (lo, hi) and log w_k up to a constant common to all
// pieces. off is S_k − S_{k0} (l1Offsets).
func l1Piece(sorted []float64, k int, off, a, b, s float64) (m, lo, hi, logw float64) {
	n := len(sorted)
	m = -a * float64(2*k-n) / (2 * b)
	c := b*m*m + 2*a*off
	zl, zh := math.Inf(-1), math.Inf(1)
	if k > 0 {
		zl = sorted[k-1]
	}
	if k < n {
		zh = sorted[k]
	}
	lo, hi = (zl-m)/s, (zh-m)/s
	return m, lo, hi, c + logPhiDiff(lo, hi)
}

// L1Coord returns one exact draw of t with density proportional to
// exp(−a·Σ_i|t − z_i| − b·t²) for the points z = sorted (ascending), a ≥ 0,
// b > 0. For n < l1RejectMin points it makes two passes over the n+1 pieces
// of the mixture (one to normalise in log space, one to select); for more it
// samples by exact rejection from a three-piece envelope (l1Reject). It does
// not allocate. Its work is bounded for every input (O(n) per pass, rejection
// loops capped by maxRejectTrials). The caller validates its arguments;
// invalid ones give NaN.
func L1Coord(r *rand.Rand, sorted []float64, a, b float64) float64 {
	if !(a >= 0) || !(b > 0) || math.IsInf(a, 0) || math.IsInf(b, 0) {
		return math.NaN()
	}
	if len(sorted) >= l1RejectMin {
		return l1Reject(r, sorted, a, b)
	}
	var buf [l1RejectMin]float64
	return l1Mixture(r, sorted, a, b, buf[:len(sorted)+1])
}

// l1MixtureAlloc is l1Mixture with its own scratch (the rejection sampler's
// fallback).
func l1MixtureAlloc(r *rand.Rand, sorted []float64, a, b float64) float64 {
	return l1Mixture(r, sorted, a, b, make([]float64, len(sorted)+1))
}

// l1Mixture draws from the mixture representation; off is scratch of length
// n+1.
func l1Mixture(r *rand.Rand, sorted []float64, a, b float64, off []float64) float64 {
	s := 1 / math.Sqrt(2*b)
	l1Offsets(sorted, off)
	// Pass 1: streaming log-sum-exp of the piece weights.
	mx, sum := l1WeightSum(sorted, off, a, b, s)
	// Pass 2: select piece k with probability w_k / Σw.
	u := r.Float64() * sum
	acc := 0.0
	var pm, plo, phi float64
	found := false
	for k := 0; k <= len(sorted); k++ {
		m, lo, hi, lw := l1Piece(sorted, k, off[k], a, b, s)
		if !(lw > math.Inf(-1)) {
			continue
		}
		pm, plo, phi, found = m, lo, hi, true
		acc += math.Exp(lw - mx)
		if u < acc {
			break
		}
	}
	if !found {
		return math.NaN()
	}
	return clampPiece(pm+s*truncStdNormal(r, plo, phi), pm+s*plo, pm+s*phi)
}

// clampPiece keeps a draw inside its piece against rounding in m + s·x.
func clampPiece(t, lo, hi float64) float64 {
	if t < lo {
		return lo
	}
	if t > hi {
		return hi
	}
	return t
}

// L1LogDensity returns the unnormalised log density −a·Σ|t−z_i| − b·t².
func L1LogDensity(z []float64, a, b, t float64) float64 {
	s := 0.0
	for _, v := range z {
		s += math.Abs(t - v)
	}
	return -a*s - b*t*t
}

// L1CDF returns P(T ≤ t) for the law sampled by L1Coord, in closed form from
// the mixture: Σ_{k<j} w_k + w_j·[Φ((t−m_j)/s) − Φ(α_j)]/[Φ(β_j) − Φ(α_j)],
// normalised, where I_j ∋ t.
func L1CDF(sorted []float64, a, b, t float64) float64 {
	s := 1 / math.Sqrt(2*b)
	off := make([]float64, len(sorted)+1)
	l1Offsets(sorted, off)
	mx := math.Inf(-1)
	for k := 0; k <= len(sorted); k++ {
		_, _, _, lw := l1Piece(sorted, k, off[k], a, b, s)
		if lw > mx { // NaN (∞ − ∞ at overflowing sums) is an empty piece
			mx = lw
		}
	}
	var below, all float64
	for k := 0; k <= len(sorted); k++ {
		m, lo, hi, lw := l1Piece(sorted, k, off[k], a, b, s)
		if !(lw > math.Inf(-1)) {
			continue
		}
		w := math.Exp(lw - mx)
		all += w
		x := (t - m) / s
		switch {
		case x >= hi:
			below += w
		case x > lo:
			below += w * math.Exp(logPhiDiff(lo, x)-logPhiDiff(lo, hi))
		}
	}
	return below / all
}

// L1LogNorm returns log Z, Z = ∫ exp(−a·Σ_i|t − z_i| − b·t²) dt, for the points
// z = sorted (ascending), a ≥ 0, b > 0, in closed form from the mixture:
// Z = s√(2π)·Σ_k exp(c_k)·[Φ(β_k) − Φ(α_k)], with c_k as in L1Coord's pieces,
// summed in log space. exp(L1LogDensity(z, a, b, t) − L1LogNorm(z, a, b)) is
// the normalised density of L1Coord's law.
func L1LogNorm(sorted []float64, a, b float64) float64 {
	if !(a >= 0) || !(b > 0) || math.IsInf(a, 0) || math.IsInf(b, 0) {
		return math.NaN()
	}
	s := 1 / math.Sqrt(2*b)
	n := len(sorted)
	off := make([]float64, n+1)
	l1Offsets(sorted, off)
	mx, sum := l1WeightSum(sorted, off, a, b, s)
	// l1Piece's log weights omit the constant −a(S_n − 2S_{k0}) common to all
	// pieces; S_n − 2S_{k0} = off[n] + off[0].
	return mx + math.Log(sum) + math.Log(s*math.Sqrt(2*math.Pi)) - a*(off[n]+off[0])
}

// l1WeightSum is the streaming log-sum-exp of l1Piece's log weights over the
// n+1 pieces: Σ_k w_k = e^mx · sum, with pieces of weight 0 skipped. The
// sampler (l1Mixture) and the normaliser (L1LogNorm) share it.
func l1WeightSum(sorted []float64, off []float64, a, b, s float64) (mx, sum float64) {
	mx = math.Inf(-1)
	for k := 0; k <= len(sorted); k++ {
		_, _, _, lw := l1Piece(sorted, k, off[k], a, b, s)
		if !(lw > math.Inf(-1)) {
			continue
		}
		if lw > mx {
			sum = sum*math.Exp(mx-lw) + 1
			mx = lw
		} else {
			sum += math.Exp(lw - mx)
		}
	}
	return mx, sum
}
