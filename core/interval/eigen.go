package interval

import "math"

// eigSym returns the eigenvalues λ and orthonormal eigenvectors of the
// symmetric d×d matrix a (row-major; only read): a = Q·diag(λ)·Qᵀ with
// eigenvector k in column k of q (row-major, q[j*d+k] = Q_jk). Cyclic Jacobi
// (Golub & Van Loan, Matrix Computations, 4th ed., Algorithm 8.5.3): each
// rotation zeroes one off-diagonal pair, and sweeps repeat until the
// off-diagonal mass is below 2⁻¹⁰⁴ of the Frobenius norm (≈ unit rounding
// squared) or after maxSweeps (quadratic convergence takes ≈ 6–10 sweeps for
// the d ≤ MaxDim here). The eigenvalues are not sorted. Its error is a few
// ulp of ‖a‖ per entry, and it never fails: a matrix of NaN returns NaN.
func eigSym(a []float64, d int) (lam, q []float64) {
	const maxSweeps = 60
	m := make([]float64, d*d)
	copy(m, a)
	for i := 0; i < d; i++ { // symmetrise against rounding in the caller
		for j := i + 1; j < d; j++ {
			v := 0.5 * (m[i*d+j] + m[j*d+i])
			m[i*d+j], m[j*d+i] = v, v
		}
	}
	q = make([]float64, d*d)
	for i := 0; i < d; i++ {
		q[i*d+i] = 1
	}
	total := 0.0
	for _, v := range m {
		total += v * v
	}
	for sweep := 0; sweep < maxSweeps; sweep++ {
		off := 0.0
		for i := 0; i < d; i++ {
			for j := i + 1; j < d; j++ {
				off += 2 * m[i*d+j] * m[i*d+j]
			}
		}
		if !(off > math.Ldexp(total, -104)) { // NaN stops too
			break
		}
		for p := 0; p < d; p++ {
			for r := p + 1; r < d; r++ {
				apr := m[p*d+r]
				if apr == 0 {
					continue
				}
				tau := (m[r*d+r] - m[p*d+p]) / (2 * apr)
				t := 1 / (math.Abs(tau) + math.Sqrt(1+tau*tau))
				if tau < 0 {
					t = -t
				}
				c := 1 / math.Sqrt(1+t*t)
				s := t * c
				for k := 0; k < d; k++ { // columns p, r: m ← m·J
					kp, kr := m[k*d+p], m[k*d+r]
					m[k*d+p], m[k*d+r] = c*kp-s*kr, s*kp+c*kr
				}
				for k := 0; k < d; k++ { // rows p, r: m ← Jᵀ·m
					pk, rk := m[p*d+k], m[r*d+k]
					m[p*d+k], m[r*d+k] = c*pk-s*rk, s*pk+c*rk
				}
				m[p*d+r], m[r*d+p] = 0, 0
				for k := 0; k < d; k++ { // q ← q·J
					kp, kr := q[k*d+p], q[k*d+r]
					q[k*d+p], q[k*d+r] = c*kp-s*kr, s*kp+c*kr
				}
			}
		}
	}
	lam = make([]float64, d)
	for i := range lam {
		lam[i] = m[i*d+i]
	}
	return lam, q
}
