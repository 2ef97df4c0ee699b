package exact

import (
	"math"
	"math/rand/v2"
)

// l1RejectMin is the number of points from which L1Coord samples by
// rejection (l1Reject) instead of the mixture: the mixture costs O(n)
// log-erfc evaluations per draw, the rejection sampler O(n) additions and an
// expected ≤ 3.7 exponentials.
const l1RejectMin = 16

// l1Reject returns one exact draw of t ∝ exp(−U(t)), U(t) = a·Σ_i|t − z_i| + b·t²
// (sorted z, a ≥ 0, b > 0) by rejection from a three-piece envelope of the
// convex U (Devroye 1986, §VII.2; the adaptive-rejection idea of Gilks & Wild
// 1992 with three abscissae):
//
//   - m = argmin U, found piece by piece: on I_k = [z_(k), z_(k+1)] U is the
//     quadratic q_k(t) = b·t² + a(2k−n)·t + a(S_n − 2S_k), whose stationary point
//     m_k = −a(2k−n)/(2b) decreases in k; m = max(m_k, z_(k)) for the first k
//     with m_k ≤ z_(k+1).
//   - t_L < m < t_R solve U(t) = U(m) + 1 (walking the pieces outward).
//   - envelope g = e^{−U(m)} on [t_L, t_R], and e^{−U(t_R) − s_R(t−t_R)} right of
//     t_R, e^{−U(t_L) − s_L(t−t_L)} left of t_L, with s_R, s_L subgradients of U at
//     t_R, t_L. U ≥ U(m) everywhere and, by convexity, U lies above its
//     supporting lines, so g ≥ e^{−U} everywhere: accepting t ~ g/∫g with probability e^{−U(t)}/g(t)
//     yields an exact draw.
//   - acceptance ≥ e⁻¹/(1 + e⁻¹) ≈ 0.27: ∫e^{−U} ≥ (t_R−t_L)·e^{−U(m)−1}, and
//     convexity gives s_R ≥ 1/(t_R − m), |s_L| ≥ 1/(m − t_L), so the tails weigh
//     ≤ e⁻¹(t_R − t_L)·e^{−U(m)}.
func l1Reject(r *rand.Rand, z []float64, a, b float64) float64 {
	n := len(z)
	total := 0.0
	for _, v := range z {
		total += v
	}
	// Mode: first piece k with m_k ≤ z_(k+1).
	k, sk := 0, 0.0 // sk = S_k, the sum of the k smallest points
	var m float64
	for {
		mk := -a * float64(2*k-n) / (2 * b)
		hi := math.Inf(1)
		if k < n {
			hi = z[k]
		}
		if mk <= hi {
			m = mk
			if k > 0 && z[k-1] > m {
				m = z[k-1]
			}
			break
		}
		sk += z[k]
		k++
	}
	q := func(k int, sk, t float64) float64 { return b*t*t + a*float64(2*k-n)*t + a*(total-2*sk) }
	um := q(k, sk, m)
	level := um + 1
	// Right: walk pieces k, k+1, … for the root of q_j(t) = level with t ≥ m.
	tR, sR := 0.0, 0.0
	for j, sj := k, sk; ; j++ {
		B, C := a*float64(2*j-n), a*(total-2*sj)-level
		t := quadRoot(b, B, C, true)
		hi := math.Inf(1)
		if j < n {
			hi = z[j]
		}
		if t <= hi {
			tR, sR = t, B+2*b*t
			break
		}
		sj += z[j]
	}
	// Left: walk pieces k, k−1, … for the root with t ≤ m.
	tL, sL := 0.0, 0.0
	for j, sj := k, sk; ; j-- {
		B, C := a*float64(2*j-n), a*(total-2*sj)-level
		t := quadRoot(b, B, C, false)
		lo := math.Inf(-1)
		if j > 0 {
			lo = z[j-1]
		}
		if t >= lo {
			tL, sL = t, B+2*b*t
			break
		}
		sj -= z[j-1]
	}
	wMid := tR - tL
	wR := math.Exp(-1) / sR
	wL := math.Exp(-1) / -sL
	wTot := wMid + wR + wL
	for {
		u := r.Float64() * wTot
		var t, logRatio float64
		switch {
		case u < wMid:
			t = tL + r.Float64()*wMid
			logRatio = um - l1U(z, a, b, t)
		case u < wMid+wR:
			t = tR + r.ExpFloat64()/sR
			logRatio = level + sR*(t-tR) - l1U(z, a, b, t)
		default:
			t = tL + r.ExpFloat64()/sL // sL < 0: moves left
			logRatio = level + sL*(t-tL) - l1U(z, a, b, t)
		}
		if logRatio >= 0 || r.Float64() < math.Exp(logRatio) {
			return t
		}
	}
}

// l1U is U(t) = a·Σ_i|t − z_i| + b·t².
func l1U(z []float64, a, b, t float64) float64 {
	s := 0.0
	for _, v := range z {
		s += math.Abs(t - v)
	}
	return a*s + b*t*t
}

// quadRoot returns the larger (upper) or smaller root of b·t² + B·t + C = 0
// (b > 0, C ≤ 0 at the caller's pieces that contain a root), computed without
// cancellation: q = −(B + sign(B)·√D)/2, roots q/b and C/q.
func quadRoot(b, B, C float64, upper bool) float64 {
	D := B*B - 4*b*C
	if D < 0 {
		D = 0
	}
	sq := math.Sqrt(D)
	var qq float64
	if B >= 0 {
		qq = -(B + sq) / 2
	} else {
		qq = -(B - sq) / 2
	}
	r1, r2 := qq/b, qq/b
	if qq != 0 {
		r2 = C / qq
	}
	lo, hi := math.Min(r1, r2), math.Max(r1, r2)
	if upper {
		return hi
	}
	return lo
}
