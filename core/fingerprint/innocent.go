package fingerprint

import (
	"fmt"
	"math"

	"github.com/dpsample/dpsample/core/checks"
)

// InnocentRate returns the probability that an innocent — a user whose row
// is drawn from the code's biases independently of the output w (a removed
// row, a ghost) — is accused by Trace′ on w:
//
//	r(w) = P[S ≥ threshold | p, π, w],  S = Σ_{j<d₀} c_j·U_j  (tardos)  or  Σ_j (2c_j−1)·U_j  (symmetric)
//
// with U_j = q_j w.p. p_j and −1/q_j otherwise, independent over j. This is
// Definition G.1's soundness probability for this code and this output,
// conditional on both; averaging it over trials gives the per-person rate.
// It is computed, not simulated: S is a sum of independent two-point
// variables, its characteristic function is
//
//	φ(t) = Π_j (p_j·e^{i·t·a_j} + (1−p_j)·e^{−i·t·b_j}),  (a_j, b_j) = (q_j, 1/q_j) or −(…) for a 0 in symmetric mode,
//
// and P[S < x] is recovered by Davies' (1973) trapezoidal inversion of
// Gil-Pelaez' formula,
//
//	P[S < x] = ½ − Σ_{k≥0} Im(φ(t_k)·e^{−i·t_k·x}) / (π(k+½)),  t_k = (k+½)·2π/L,
//
// whose aliasing error is below P[|S − x| > L]; L is chosen from Bernstein's
// inequality (|U_j| ≤ q_max, Var S = m) so that this is < 2e-15, and the sum
// stops once |φ| < 1e-17 beyond the Gaussian scale. Var S = m, the number of
// real columns that count (c_j = 1 in tardos mode, all d₀ in symmetric mode),
// because Var U_j = 1 in every column.
//
// The value is derived from the secret key and is NOT private; it exists to
// state soundness as a number next to the measured accusation rates.
func (c *Code) InnocentRate(w Word) (float64, error) {
	if w.Len != c.Length {
		return 0, &checks.Error{Field: "output", Rule: fmt.Sprintf("a word of length %d (the code length)", c.Length),
			Got: fmt.Sprintf("length %d", w.Len)}
	}
	return c.innocentRate(c.unpermute(w, traceConfig{}), c.Threshold), nil
}

// GaussianWorstCase returns Φ̄(threshold/√d₀): the normal approximation of
// the per-innocent accusation rate for the output with the largest innocent
// variance. In tardos mode that is the all-ones output (Var S = #{j : c_j = 1}
// ≤ d₀), and threshold/√d₀ = (Z/2)/√⌈100n²k⌉ ≤ √k with k = ln(n/ξ): the
// "Φ̄(√k)" of docs/LOWERBOUND-NOTES.md. In symmetric mode Var S = d₀ for every
// output and threshold/√d₀ = √(2k). It is an approximation: the U_j are
// heavy-tailed (E U⁴ ≈ 43 at n = 4), and the exact all-ones rate
// (InnocentRate of the all-ones word) is somewhat larger at small ξ.
func (l Lengths) GaussianWorstCase() float64 {
	return 0.5 * math.Erfc(l.Threshold/math.Sqrt(float64(l.D0))/math.Sqrt2)
}

// AllOnes returns the all-ones word of the code's length: the worst case of
// the asymmetric score's soundness (it ignores the marking condition).
func (c *Code) AllOnes() Word {
	w := NewWord(c.Length)
	for i := range w.bits {
		w.bits[i] = ^uint64(0)
	}
	if r := c.Length & 63; r != 0 {
		w.bits[len(w.bits)-1] = 1<<r - 1
	}
	return w
}

// innocentRate is InnocentRate on the unpermuted real-column word y at
// threshold x.
func (c *Code) innocentRate(y []uint64, x float64) float64 {
	d0 := c.D0
	sym := c.Mode == Symmetric
	// Column j contributes a_j w.p. p_j and −b_j otherwise. Factor
	// p e^{ita} + (1−p) e^{−itb} = e^{−itb}·(1 − p + p·e^{it(a+b)}), and
	// a + b = ±w_j, so φ(t) = e^{−it·B}·Π_j (1 − p_j + p_j·e^{±it·w_j}),
	// B = Σ b_j.
	type col struct{ p, w float64 }
	cols := make([]col, 0, d0)
	B := 0.0
	for j := range d0 {
		on := y[j>>6]>>(j&63)&1 == 1
		switch {
		case on:
			cols = append(cols, col{c.p[j], c.w[j]})
			B += c.invq[j]
		case sym: // c_j = 0 counts with the sign flipped: −U_j = −q_j or +1/q_j
			cols = append(cols, col{c.p[j], -c.w[j]})
			B -= c.invq[j]
		}
	}
	m := len(cols)
	if m == 0 { // S ≡ 0
		if x <= 0 {
			return 1
		}
		return 0
	}
	qmax := math.Sqrt((1 - c.T) / c.T)
	fm := float64(m)
	// Bernstein: P[|S| ≥ u] ≤ 2·exp(−u²/(2(m + q_max·u/3))) ≤ 2e-15 at exponent 35.
	u := (70*qmax/3 + math.Sqrt(70*qmax/3*70*qmax/3+280*fm)) / 2
	L := math.Abs(x) + u
	h := 2 * math.Pi / L
	// Phasors z_j = e^{i·t_k·w_j}, advanced by e^{i·h·w_j} per term.
	z := make([]complex128, m)
	rot := make([]complex128, m)
	for j, cl := range cols {
		s, co := math.Sincos(0.5 * h * cl.w)
		z[j] = complex(co, s)
		s, co = math.Sincos(h * cl.w)
		rot[j] = complex(co, s)
	}
	tGauss := math.Sqrt(2 * 45 / fm) // exp(−m t²/2) < 3e-20 beyond
	const maxTerms = 1 << 20
	sum, small := 0.0, 0
	for k := 0; k < maxTerms; k++ {
		tk := (float64(k) + 0.5) * h
		phi := complex(1, 0)
		for j, cl := range cols {
			phi *= complex(1-cl.p, 0) + complex(cl.p, 0)*z[j]
			z[j] *= rot[j]
		}
		if k&255 == 255 { // renormalise the phasors against rounding drift
			for j := range z {
				z[j] /= complex(math.Hypot(real(z[j]), imag(z[j])), 0)
			}
		}
		s, co := math.Sincos(-tk * (x + B))
		sum += imag(phi*complex(co, s)) / (math.Pi * (float64(k) + 0.5))
		if re, im := real(phi), imag(phi); re*re+im*im < 1e-34 {
			small++
		} else {
			small = 0
		}
		if tk > tGauss && small >= 32 {
			break
		}
	}
	// P[S ≥ x] = 1 − P[S < x] = ½ + sum.
	return math.Min(1, math.Max(0, 0.5+sum))
}
