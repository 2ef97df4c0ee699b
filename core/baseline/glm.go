package baseline

import (
	"math"

	"github.com/dpsample/dpsample/core/checks"
	"github.com/dpsample/dpsample/core/loss"
)

// The utility benchmark's losses are generalised linear: ℓ(θ; x, y) = φ(⟨θ, x⟩; y)
// with ‖x‖ ≤ clip. This file holds their scalar parts and the two non-private
// solvers the baselines need: the ball-constrained reference fit (the origin of
// every excess risk) and the certified L2-regularised minimiser (output
// perturbation).

// IsGLM reports whether k is one of the GLM losses the benchmark uses.
func IsGLM(k loss.Kind) bool { return k == loss.Logistic || k == loss.Hinge || k == loss.LAD }

// ReferenceFit is min_{‖θ‖≤C} L(θ; D), the comparator of every excess risk
// (LLL Assumption 1.2 puts θ* in that ball): loss.BallMin.
type ReferenceFit = loss.BallMin

// Reference minimises L over ‖θ‖ ≤ C with a certified gap
// (loss.Set.MinimizeInBall, shared with the mechanism's reference fit). Not
// private: used only to measure.
func Reference(set *loss.Set, radius float64, iters int) ReferenceFit {
	return set.MinimizeInBall(radius, iters)
}

// RegularizedFit is an approximate minimiser of the μ-strongly convex
// F(θ) = L(θ; D) + μ/2·‖θ‖² with a certified distance to the exact one.
type RegularizedFit struct {
	Theta  []float64 `json:"theta"`
	Gap    float64   `json:"gap"`    // certified duality gap P(θ) − D(α) ≥ F(θ) − min F
	Dist   float64   `json:"dist"`   // certified ‖θ − argmin F‖ ≤ √(2·Gap/μ)
	Epochs int       `json:"epochs"` // SDCA passes over the data
}

// Regularized minimises F(θ) = (1/n)Σ φ(⟨θ, x_i⟩; y_i) + μ/2‖θ‖² by
// stochastic dual coordinate ascent (Shalev-Shwartz & Zhang, JMLR 2013) with
// cyclic passes, until the duality gap certifies ‖θ − θ̂‖ ≤ tol (μ-strong
// convexity: F(θ) − F(θ̂) ≥ μ/2‖θ − θ̂‖², and P(θ) − D(α) ≥ F(θ) − F(θ̂)).
// The dual is D(α) = (1/n)Σ −φ_i*(−α_i) − μ/2‖w(α)‖², w(α) = (1/(μn))Σ α_i x_i:
//
//	hinge    φ = max(0, 1 − y·a):  −φ*(−α) = αy,             αy ∈ [0, 1]
//	LAD      φ = |a − y|:           −φ*(−α) = αy,             α ∈ [−1, 1]
//	logistic φ = log(1 + e^{−y·a}): −φ*(−α) = H(αy) (entropy), αy ∈ [0, 1]
//
// Hinge and LAD coordinates have closed-form maximisers; logistic's is found
// by bisection on the (decreasing) derivative. It returns an error naming
// "tolerance" if maxEpochs passes do not certify tol.
func Regularized(set *loss.Set, mu, tol float64, maxEpochs int) (RegularizedFit, error) {
	if !IsGLM(set.Kind()) {
		return RegularizedFit{}, checks.Errorf("loss", `"logistic", "hinge" or "lad" for output perturbation, got %q`, set.Kind().String())
	}
	if err := checks.Positive("mu", mu); err != nil {
		return RegularizedFit{}, err
	}
	n, d := set.N(), set.Dim()
	nf := float64(n)
	alpha := make([]float64, n)
	w := make([]float64, d)
	kind := set.Kind()
	fit := RegularizedFit{}
	for ep := 1; ep <= maxEpochs; ep++ {
		for i := 0; i < n; i++ {
			x, y := set.Row(i), set.Target(i)
			xx := dot(x, x)
			if xx == 0 {
				continue
			}
			q := xx / (mu * nf)
			a := dot(w, x)
			var na float64
			switch kind {
			case loss.Hinge:
				na = y * math.Max(0, math.Min(1, (1-y*a)/q+alpha[i]*y))
			case loss.LAD:
				na = math.Max(-1, math.Min(1, alpha[i]+(y-a)/q))
			case loss.Logistic:
				b0 := alpha[i] * y
				// g(b) = log((1−b)/b) − y·a − (b − b0)·q is decreasing on (0, 1).
				lo, hi := 0.0, 1.0
				for it := 0; it < 60; it++ {
					m := (lo + hi) / 2
					if math.Log1p(-m)-math.Log(m)-y*a-(m-b0)*q > 0 {
						lo = m
					} else {
						hi = m
					}
				}
				na = y * (lo + hi) / 2
			}
			if delta := na - alpha[i]; delta != 0 {
				alpha[i] = na
				c := delta / (mu * nf)
				for j, v := range x {
					w[j] += c * v
				}
			}
		}
		// Recompute w from α to remove drift, then the gap.
		clear(w)
		for i := 0; i < n; i++ {
			c := alpha[i] / (mu * nf)
			for j, v := range set.Row(i) {
				w[j] += c * v
			}
		}
		var dualSum float64
		for i := 0; i < n; i++ {
			b := alpha[i] * set.Target(i)
			switch kind {
			case loss.Hinge, loss.LAD:
				dualSum += b
			case loss.Logistic:
				dualSum += entropy(b)
			}
		}
		ww := dot(w, w)
		primal := set.Mean(w) + mu/2*ww
		dual := dualSum/nf - mu/2*ww
		gap := math.Max(0, primal-dual)
		// Rounding in the two n-term sums: add 4·n·2⁻⁵² relative to their size.
		gap += 4 * nf * 0x1p-52 * (math.Abs(primal) + math.Abs(dual) + mu*ww)
		fit = RegularizedFit{Theta: w, Gap: gap, Dist: math.Sqrt(2 * gap / mu), Epochs: ep}
		if fit.Dist <= tol {
			return fit, nil
		}
	}
	return fit, checks.Errorf("tolerance", "reachable: SDCA did not certify ‖θ − θ̂‖ ≤ %s in %d epochs (reached %s)", checks.Fmt(tol), maxEpochs, checks.Fmt(fit.Dist))
}

// entropy is H(b) = −b·log b − (1−b)·log(1−b), with H(0) = H(1) = 0.
func entropy(b float64) float64 {
	var h float64
	if b > 0 {
		h -= b * math.Log(b)
	}
	if b < 1 {
		h -= (1 - b) * math.Log1p(-b)
	}
	return h
}
