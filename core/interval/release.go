package interval

import (
	"math"
	"math/rand/v2"

	"github.com/dpsample/dpsample/core/loss"
	"github.com/dpsample/dpsample/core/rng"
)

// Statistics are the three data statistics at θ: the mean gradient
// g = ∇L(θ) = (1/n)Σφ'ᵢaᵢ, the curvature H = (1/n)Σφ”ᵢaᵢaᵢᵀ = ∇²L(θ) and the
// score covariance J = (1/n)Σφ'ᵢ²aᵢaᵢᵀ (d×d, row-major, symmetric), with
// φ'ᵢ, φ”ᵢ the loss's derivatives at the margin ⟨aᵢ, θ⟩ and target yᵢ.
// Before noise they are NOT private: Release adds it.
type Statistics struct {
	D        int
	Gradient []float64
	Hessian  []float64
	Score    []float64
}

// Stats returns the statistics of set at theta in one pass over the rows
// (n·d multiply-adds for the margins and g, n·d·(d+1) for the upper
// triangles of H and J). set's loss must be smooth (loss.Set.Smooth).
func Stats(set *loss.Set, theta []float64) Statistics {
	n, d := set.N(), set.Dim()
	st := Statistics{D: d, Gradient: make([]float64, d), Hessian: make([]float64, d*d), Score: make([]float64, d*d)}
	g, h, j := st.Gradient, st.Hessian, st.Score
	for i := 0; i < n; i++ {
		a, y := set.Row(i), set.Target(i)
		m := 0.0
		for k, v := range a {
			m += v * theta[k]
		}
		d1, d2 := set.Deriv(m, y), set.Deriv2(m, y)
		d11 := d1 * d1
		for p, ap := range a {
			g[p] += d1 * ap
			wh, wj := d2*ap, d11*ap
			hr, jr := h[p*d:p*d+d], j[p*d:p*d+d]
			for r := p; r < d; r++ {
				hr[r] += wh * a[r]
				jr[r] += wj * a[r]
			}
		}
	}
	inv := 1 / float64(n)
	for p := range g {
		g[p] *= inv
		for r := p; r < d; r++ {
			h[p*d+r] *= inv
			j[p*d+r] *= inv
			h[r*d+p], j[r*d+p] = h[p*d+r], j[p*d+r]
		}
	}
	return st
}

// Released are the three private releases at the model's θ̃ (Release).
type Released struct {
	Gradient []float64 // g̃, length d
	Hessian  []float64 // H̃, d×d row-major, symmetric
	Score    []float64 // J̃, d×d row-major, symmetric
}

// Release returns the Gaussian mechanism's releases of st under pl (which
// must pass its gate): g̃ = g + N(0, σ_g²I); for each symmetric matrix M, the
// vector (M_jj; √2·M_jk, j < k) gets N(0, σ²I), i.e. M̃_jj = M_jj + σ·Z and
// M̃_jk = M̃_kj = M_jk + (σ/√2)·Z. Every normal is rng.Normal53 from r, drawn
// in the order g (j = 0 … d−1), H's upper triangle row by row, J's. Each
// release is then rounded to a power-of-two grid of 2⁻²⁰ of its smallest
// noise sd (as DP-GD's θ̃: Plan.Grid of package mechanism), so that the low
// bits of the floating-point sum carry nothing beyond the noisy value.
func Release(st Statistics, pl Plan, r *rand.Rand) Released {
	d := st.D
	rel := Released{Gradient: make([]float64, d), Hessian: make([]float64, d*d), Score: make([]float64, d*d)}
	gg := grid(pl.Gradient.Noise)
	for j, v := range st.Gradient {
		rel.Gradient[j] = snap(v+pl.Gradient.Noise*rng.Normal53(r), gg)
	}
	for _, m := range []struct {
		src, dst []float64
		sd       float64
	}{{st.Hessian, rel.Hessian, pl.Hessian.Noise}, {st.Score, rel.Score, pl.Score.Noise}} {
		gm := grid(m.sd / math.Sqrt2)
		for p := 0; p < d; p++ {
			m.dst[p*d+p] = snap(m.src[p*d+p]+m.sd*rng.Normal53(r), gm)
			for q := p + 1; q < d; q++ {
				v := snap(m.src[p*d+q]+m.sd/math.Sqrt2*rng.Normal53(r), gm)
				m.dst[p*d+q], m.dst[q*d+p] = v, v
			}
		}
	}
	return rel
}

// grid is the power of two nearest above 2⁻²⁰·sd.
func grid(sd float64) float64 {
	_, e := math.Frexp(math.Ldexp(sd, -20))
	return math.Ldexp(1, e)
}

func snap(v, step float64) float64 { return step * math.Round(v/step) }
