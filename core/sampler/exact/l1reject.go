package exact

import (
	"math"
	"math/rand/v2"

	"github.com/dpsample/dpsample/core/rng"
)

// l1RejectMin is the number of points from which L1Coord samples by
// rejection (l1Reject) instead of the mixture: the mixture costs O(n)
// log-erfc evaluations per draw, the rejection sampler O(n) additions and an
// expected ≤ 3.7 exponentials.
const l1RejectMin = 16

// maxRejectTrials bounds every rejection loop of this package. A valid
// envelope accepts with probability ≥ 0.27 (l1Reject) or ≥ 0.30 (trunc), so a
// valid call reaches the bound with probability < 0.73^(2²⁰) < 10^(−140000):
// the bound changes no law; it only turns a would-be hang on invalid (NaN)
// or numerically degenerate input into a fallback.
const maxRejectTrials = 1 << 20

// l1Reject returns one exact draw of t ∝ exp(−U(t)), U(t) = a·Σ_i|t − z_i| + b·t²
// (sorted z, a ≥ 0, b > 0) by rejection from a three-piece envelope of the
// convex U (Devroye 1986, §VII.2; the adaptive-rejection idea of Gilks & Wild
// 1992 with three abscissae):
//
//   - m = argmin U, found piece by piece: on I_k = [z_(k), z_(k+1)] U is a
//     quadratic whose stationary point m_k = −a(2k−n)/(2b) decreases in k;
//     m = max(m_k, z_(k)) for the first k with m_k ≤ z_(k+1).
//   - Everything is computed for V(t) = U(t) − U(m) in s = t − m, never for U
//     itself: on a piece I_j right of m,
//     V = b·s² + (2bm + a(2j−n))·s + 2a·Σ_{k<i≤j}(m − z_(i)),
//     and symmetrically on the left, so no term of size a·Σ|z_i| or b·m² is
//     ever formed. (The former code set level = U(m) + 1, which is absorbed
//     once U(m) > 2⁵³ ≈ 9·10¹⁵ — one point at 10¹⁶ — and then looped for
//     ever; issue 13.)
//   - t_L < m < t_R solve V(t) = 1 (walking at most n+1 pieces outward).
//   - envelope g = 1 on [t_L, t_R], and e^{−1 − s_R(t−t_R)} right of t_R,
//     e^{−1 − s_L(t−t_L)} left of t_L, with s_R, s_L the slopes of V there.
//     V ≥ 0 everywhere and, by convexity, V lies above its supporting lines,
//     so g ≥ e^{−V}: accepting t ~ g/∫g with probability e^{−V(t)}/g(t) is an
//     exact draw.
//   - acceptance ≥ e⁻¹/(1 + e⁻¹) ≈ 0.27: ∫e^{−V} ≥ (t_R−t_L)·e⁻¹, and
//     convexity gives s_R ≥ 1/(t_R − m), |s_L| ≥ 1/(m − t_L), so the tails weigh
//     ≤ e⁻¹(t_R − t_L).
//
// Every loop is bounded: the mode and the two walks by n+1 pieces, the
// rejection loop by maxRejectTrials. If the envelope is degenerate in
// floating point (a width or slope not finite and positive, e.g. when the
// whole law is narrower than one ulp of m) or the bound is reached, the draw
// falls back to the mixture sampler (l1Mixture), which is exact as well.
func l1Reject(r *rand.Rand, z []float64, a, b float64) float64 {
	n := len(z)
	// Mode: first piece k with m_k ≤ z_(k+1).
	k := 0
	m := math.NaN()
	for ; k <= n; k++ {
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
	}
	if math.IsNaN(m) {
		return math.NaN()
	}
	// Right: pieces j = k, k+1, … for the root s ≥ 0 of V = 1.
	tR, sR := math.NaN(), math.NaN()
	e := 0.0 // Σ_{k≤i<j} (m − z[i]) ≤ 0
	for j := k; j <= n; j++ {
		B := 2*b*m + a*float64(2*j-n)
		s := quadRoot(b, B, 2*a*e-1, true)
		if j == n || m+s <= z[j] {
			tR, sR = m+s, 2*b*s+B
			break
		}
		e += m - z[j]
	}
	// Left: pieces j = k, k−1, … for the root s ≤ 0 of V = 1.
	tL, sL := math.NaN(), math.NaN()
	f := 0.0 // Σ_{j≤i<k} (z[i] − m) ≤ 0
	for j := k; j >= 0; j-- {
		B := 2*b*m + a*float64(2*j-n)
		s := quadRoot(b, B, 2*a*f-1, false)
		if j == 0 || m+s >= z[j-1] {
			tL, sL = m+s, 2*b*s+B
			break
		}
		f += z[j-1] - m
	}
	wMid := tR - tL
	wR := math.Exp(-1) / sR
	wL := math.Exp(-1) / -sL
	wTot := wMid + wR + wL
	if !(wMid > 0) || !(wR > 0) || !(wL > 0) || math.IsInf(wTot, 0) {
		return l1MixtureAlloc(r, z, a, b)
	}
	for range maxRejectTrials {
		u := r.Float64() * wTot
		var t, logRatio float64
		switch {
		case u < wMid:
			t = tL + r.Float64()*wMid
			logRatio = -l1V(z, a, b, m, t)
		case u < wMid+wR:
			t = tR + rng.Exp53(r)/sR
			logRatio = 1 + sR*(t-tR) - l1V(z, a, b, m, t)
		default:
			t = tL + rng.Exp53(r)/sL // sL < 0: moves left
			logRatio = 1 + sL*(t-tL) - l1V(z, a, b, m, t)
		}
		if logRatio >= 0 || r.Float64() < math.Exp(logRatio) {
			return t
		}
	}
	return l1MixtureAlloc(r, z, a, b)
}

// l1V is V(t) = U(t) − U(m) = b(t−m)(t+m) + a·Σ_i(|t − z_i| − |m − z_i|),
// each term formed without cancellation: a point on the far side of both t
// and m contributes ±(t − m) exactly, only points between them are
// subtracted.
func l1V(z []float64, a, b, m, t float64) float64 {
	lo, hi := math.Min(t, m), math.Max(t, m)
	d := t - m
	s := 0.0
	for _, v := range z {
		switch {
		case v <= lo:
			s += d
		case v >= hi:
			s -= d
		default:
			s += math.Abs(t-v) - math.Abs(m-v)
		}
	}
	return a*s + b*d*(t+m)
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
