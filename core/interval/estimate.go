package interval

import (
	"math"

	"github.com/dpsample/dpsample/core/dpgd"
	"github.com/dpsample/dpsample/core/privacy"
)

// Intervals are the released intervals (mechanism.Result.Intervals): above
// the gate Estimate (θ̂, the Newton-corrected estimate), Lo, Hi and SE, each
// of length d in θ's units; below it only Level and Reason. All of it is
// post-processing of the private releases θ̃, g̃, H̃, J̃ and public inputs.
type Intervals struct {
	Level    float64   `json:"level"`
	Estimate []float64 `json:"estimate,omitempty"`
	Lo       []float64 `json:"lo,omitempty"`
	Hi       []float64 `json:"hi,omitempty"`
	// SE is √V_jj, the standard error before the interval is widened for a
	// flat direction's start bias and cut to [−C, C].
	SE     []float64 `json:"se,omitempty"`
	Reason string    `json:"reason,omitempty"`
}

// Variant selects the estimator. Only VariantCombined, the package's
// estimator, and VariantNewton are correct; VariantPlain and
// VariantNoPrivacy are the deliberately broken variants the coverage test
// must catch (coverage_test.go), which the study reports beside them.
type Variant int

const (
	// VariantCombined is the package doc's estimator: in each stepped
	// direction θ̃ and the Newton point combined with the weight that
	// minimises the worst-case mean square error.
	VariantCombined Variant = iota
	// VariantNewton takes the full Newton step in every stepped direction
	// (the design note's estimator): correct, but its privacy variance is
	// p_k where the combination's is below min(p_k, v_k + a_k²C²).
	VariantNewton
	// VariantPlain takes no Newton step: centred at θ̃, with the sandwich and
	// DP-GD's noise variance v_k in every direction and no start bias.
	VariantPlain
	// VariantNoPrivacy takes the combined estimate with the sandwich alone
	// for its variance (the privacy part dropped).
	VariantNoPrivacy
)

// Detail is what Estimate computed on the way, for tests and the study
// (post-processing of the releases: as private as the intervals).
type Detail struct {
	Stepped  int       // eigen-directions of H̃ the Newton step was taken in
	Eigen    []float64 // λ̃ of H̃
	Sampling []float64 // diagonal of the sandwich part H̄⁻¹J̃₊H̄⁻¹/n
	Privacy  []float64 // diagonal of the privacy part
	Bias     []float64 // the start-bias widening of each coordinate
}

// Estimate returns the intervals at level pl.Level from the model's release
// theta (θ̃, run with schedule sch) and the releases rel (package doc, "The
// estimate and its variance").
func Estimate(theta []float64, rel Released, pl Plan, sch dpgd.Schedule) Intervals {
	iv, _ := EstimateVariant(theta, rel, pl, sch, VariantCombined)
	return iv
}

// EstimateVariant is Estimate with the estimator chosen (Variant) and what
// it computed on the way.
func EstimateVariant(theta []float64, rel Released, pl Plan, sch dpgd.Schedule, v Variant) (Intervals, Detail) {
	d := len(theta)
	n := float64(pl.n)
	lam, q := eigSym(rel.Hessian, d)
	thr := pl.Hessian.Noise
	lhat := make([]float64, d)
	step := make([]bool, d)
	det := Detail{Eigen: lam, Sampling: make([]float64, d), Privacy: make([]float64, d), Bias: make([]float64, d)}
	for k, l := range lam {
		step[k] = l > thr && v != VariantPlain
		lhat[k] = math.Min(math.Max(l, thr), pl.curv)
		if step[k] {
			det.Stepped++
		}
	}
	// The privacy part, diagonal in the eigenbasis, and the start weights.
	priv := make([]float64, d)
	start := make([]float64, d)
	keep := make([]float64, d) // weight of θ̃ in each direction (1: no step)
	sg := pl.Gradient.Noise
	for k := 0; k < d; k++ {
		vk, ak := suffixNoise(sch.Step, sch.Sigma, lhat[k], sch.Steps)
		switch {
		case !step[k]:
			priv[k], start[k], keep[k] = vk, ak, 1
		case v != VariantNewton && v != VariantPlain:
			// The weight that minimises the worst-case mean square error
			// w²(v_k + a_k²C²) + (1 − w)²p_k: θ̃'s start bias counts
			// against it as much as its noise.
			pn := sg * sg / (lhat[k] * lhat[k])
			bb := ak * pl.radius
			keep[k] = pn / (pn + vk + bb*bb)
			priv[k], start[k] = keep[k]*keep[k]*vk+(1-keep[k])*(1-keep[k])*pn, ak
		default:
			priv[k] = sg * sg / (lhat[k] * lhat[k])
		}
	}
	// Newton step in the stepped directions: θ̂ = θ̃ − Σ_k (1 − keep_k)·q_k (q_kᵀg̃)/λ̂_k.
	est := append([]float64(nil), theta...)
	for k := 0; k < d; k++ {
		if keep[k] == 1 {
			continue
		}
		c := 0.0
		for j := 0; j < d; j++ {
			c += q[j*d+k] * rel.Gradient[j]
		}
		c *= (1 - keep[k]) / lhat[k]
		for j := 0; j < d; j++ {
			est[j] -= q[j*d+k] * c
		}
	}
	// J̃₊ in H̃'s eigenbasis: B = Qᵀ·J̃₊·Q.
	mu, p := eigSym(rel.Score, d)
	jp := make([]float64, d*d)
	for a := 0; a < d; a++ {
		for b := a; b < d; b++ {
			s := 0.0
			for k, m := range mu {
				if m > 0 {
					s += p[a*d+k] * m * p[b*d+k]
				}
			}
			jp[a*d+b], jp[b*d+a] = s, s
		}
	}
	bm := make([]float64, d*d)
	tmp := make([]float64, d*d) // J̃₊·Q
	for a := 0; a < d; a++ {
		for k := 0; k < d; k++ {
			s := 0.0
			for b := 0; b < d; b++ {
				s += jp[a*d+b] * q[b*d+k]
			}
			tmp[a*d+k] = s
		}
	}
	for k := 0; k < d; k++ {
		for l := k; l < d; l++ {
			s := 0.0
			for a := 0; a < d; a++ {
				s += q[a*d+k] * tmp[a*d+l]
			}
			s /= lhat[k] * lhat[l] * n
			bm[k*d+l], bm[l*d+k] = s, s
		}
	}
	// The curvature noise's term: the Newton step uses H̃ = H + E, and
	// H̃⁻¹g̃ − H⁻¹g ≈ −H⁻¹Eδ with δ = θ̃ − θ̂ₙ; for E's entries (sd σ_H on
	// the diagonal, σ_H/√2 off it) Cov(Eδ) = (σ_H²/2)·(‖δ‖²I + δδᵀ). In the
	// eigenbasis, with the step's factor (1 − w_k)/λ̂_k, δ_k estimated by the
	// full step (q_kᵀg̃)/λ̂_k where stepped (its noise only adds to it) and
	// by v_k + (a_k·C)² in E[δ_k²] where not.
	curv := make([]float64, d*d)
	if v == VariantCombined || v == VariantNewton {
		dh := make([]float64, d)
		m0 := 0.0
		for k := 0; k < d; k++ {
			if keep[k] == 1 {
				vk, ak := suffixNoise(sch.Step, sch.Sigma, lhat[k], sch.Steps)
				dh[k] = 0
				m0 += vk + ak*ak*pl.radius*pl.radius
				continue
			}
			c := 0.0
			for j := 0; j < d; j++ {
				c += q[j*d+k] * rel.Gradient[j]
			}
			dh[k] = c / lhat[k]
			m0 += dh[k] * dh[k]
		}
		h2 := pl.Hessian.Noise * pl.Hessian.Noise / 2
		for k := 0; k < d; k++ {
			if keep[k] == 1 {
				continue
			}
			for l := 0; l < d; l++ {
				if keep[l] == 1 {
					continue
				}
				m := dh[k] * dh[l]
				if k == l {
					m += m0
				}
				curv[k*d+l] = (1 - keep[k]) * (1 - keep[l]) / (lhat[k] * lhat[l]) * h2 * m
			}
		}
	}
	z := privacy.PhiInvUpper((1 - pl.Level) / 2)
	c := pl.radius
	iv := Intervals{Level: pl.Level, Estimate: est, Lo: make([]float64, d), Hi: make([]float64, d), SE: make([]float64, d)}
	for j := 0; j < d; j++ {
		var vs, vp, b2 float64
		for k := 0; k < d; k++ {
			qjk := q[j*d+k]
			vp += qjk * qjk * priv[k]
			if v != VariantPlain && v != VariantNoPrivacy {
				b2 += qjk * qjk * keep[k] * keep[k] * start[k] * start[k]
			}
			for l := 0; l < d; l++ {
				vs += qjk * q[j*d+l] * bm[k*d+l]
				vp += qjk * q[j*d+l] * curv[k*d+l]
			}
		}
		vs = math.Max(vs, 0)
		if v == VariantNoPrivacy {
			vp = 0
		}
		det.Sampling[j], det.Privacy[j], det.Bias[j] = vs, vp, c*math.Sqrt(b2)
		iv.SE[j] = math.Sqrt(vs + vp)
		half := z*iv.SE[j] + det.Bias[j]
		iv.Lo[j] = math.Min(math.Max(-c, est[j]-half), c)
		iv.Hi[j] = math.Max(math.Min(c, est[j]+half), -c)
		est[j] = math.Min(math.Max(est[j], -c), c)
	}
	return iv, det
}
