package interval

import (
	"math"

	"github.com/dpsample/dpsample/core/loss"
)

// Sandwich returns the non-private minimiser θ̂ of the set's mean loss
// (damped Newton from 0 with exact H and Armijo backtracking until the
// Newton decrement gᵀH⁻¹g is below 10⁻¹⁰, then one full step) and the non-private sandwich standard errors
// √diag(H⁻¹JH⁻¹/n) at it: the reference the study compares the private
// intervals' widths with. NOT private.
func Sandwich(set *loss.Set) (theta, se []float64) {
	d := set.Dim()
	theta = make([]float64, d)
	cand := make([]float64, d)
	for it := 0; it < 100; it++ {
		st := Stats(set, theta)
		dir := solve(st.Hessian, st.Gradient, d)
		dec := 0.0 // the Newton decrement gᵀH⁻¹g
		for j := range dir {
			dec += dir[j] * st.Gradient[j]
		}
		if !(dec > 1e-10) {
			// Within the region of quadratic convergence, where L's rounding
			// (≈ 10⁻¹⁶) hides the decrease: one full step and done.
			for j := range theta {
				theta[j] -= dir[j]
			}
			break
		}
		f0 := set.Mean(theta)
		t := 1.0
		for ; t > 1e-6; t /= 2 {
			for j := range cand {
				cand[j] = theta[j] - t*dir[j]
			}
			if set.Mean(cand) <= f0-0.25*t*dec {
				break
			}
		}
		if t <= 1e-6 {
			break
		}
		copy(theta, cand)
	}
	st := Stats(set, theta)
	lam, q := eigSym(st.Hessian, d)
	b := make([]float64, d*d) // QᵀJQ
	for k := 0; k < d; k++ {
		for l := 0; l < d; l++ {
			for a := 0; a < d; a++ {
				for c := 0; c < d; c++ {
					b[k*d+l] += q[a*d+k] * st.Score[a*d+c] * q[c*d+l]
				}
			}
		}
	}
	se = make([]float64, d)
	n := float64(set.N())
	for j := 0; j < d; j++ {
		v := 0.0
		for k := 0; k < d; k++ {
			for l := 0; l < d; l++ {
				v += q[j*d+k] * q[j*d+l] * b[k*d+l] / (lam[k] * lam[l] * n)
			}
		}
		se[j] = math.Sqrt(math.Max(v, 0))
	}
	return theta, se
}

// solve returns H⁻¹g for a symmetric positive definite H (eigenvalues below
// 10⁻¹² of the largest are treated as that floor).
func solve(h, g []float64, d int) []float64 {
	lam, q := eigSym(h, d)
	top := 0.0
	for _, l := range lam {
		top = math.Max(top, l)
	}
	x := make([]float64, d)
	for k, l := range lam {
		c := 0.0
		for j := 0; j < d; j++ {
			c += q[j*d+k] * g[j]
		}
		c /= math.Max(l, 1e-12*top)
		for j := 0; j < d; j++ {
			x[j] += q[j*d+k] * c
		}
	}
	return x
}
