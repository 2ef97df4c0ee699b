package interval

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/dpsample/dpsample/core/loss"
	"github.com/dpsample/dpsample/core/privacy"
	"github.com/dpsample/dpsample/core/rng"
	"github.com/dpsample/dpsample/core/stats"
)

// ksCrit is the one-sample KS critical value for m draws at false-failure
// rate 0.001.
func ksCrit(m int) float64 { return 1.949 / math.Sqrt(float64(m)) }

// TestEigSym: Q is orthonormal and Q·diag(λ)·Qᵀ is the matrix, to 10⁻¹²
// of its norm, on random symmetric matrices up to MaxDim (indefinite, rank
// one, diagonal, with repeated eigenvalues).
func TestEigSym(t *testing.T) {
	r := rng.Seeded(1)
	for _, d := range []int{1, 2, 3, 9, 30, MaxDim} {
		for kind := range 4 {
			a := make([]float64, d*d)
			u := make([]float64, d)
			for j := range u {
				u[j] = r.NormFloat64()
			}
			for i := 0; i < d; i++ {
				for j := i; j < d; j++ {
					var v float64
					switch kind {
					case 0:
						v = r.NormFloat64()
					case 1:
						v = u[i] * u[j]
					case 2:
						if i == j {
							v = float64(i % 3)
						}
					case 3: // 2I + a rank-one term: d−1 equal eigenvalues
						v = u[i] * u[j]
						if i == j {
							v += 2
						}
					}
					a[i*d+j], a[j*d+i] = v, v
				}
			}
			lam, q := eigSym(a, d)
			nrm := 0.0
			for _, v := range a {
				nrm += v * v
			}
			nrm = math.Sqrt(nrm)
			for i := 0; i < d; i++ {
				for j := 0; j < d; j++ {
					var rec, orth float64
					for k := 0; k < d; k++ {
						rec += q[i*d+k] * lam[k] * q[j*d+k]
						orth += q[k*d+i] * q[k*d+j]
					}
					if i == j {
						orth--
					}
					if math.Abs(rec-a[i*d+j]) > 1e-12*math.Max(nrm, 1) || math.Abs(orth) > 1e-12 {
						t.Fatalf("d=%d kind %d: entry (%d,%d) reconstructed %g want %g, QᵀQ−I = %g", d, kind, i, j, rec, a[i*d+j], orth)
					}
				}
			}
		}
	}
}

// simSuffix runs the linearised iteration of suffixNoise's doc runs times
// and returns the sample variance of ē (e₀ = 0) and ē for e₀ = 1 without
// noise (the start weight).
func simSuffix(r *rand.Rand, h, sigma, lam float64, steps, runs int, allIterates bool) (variance, start float64) {
	rho := 1 - h*lam
	first := steps / 2
	if allIterates {
		first = 0
	}
	var s, s2 float64
	for range runs {
		e, avg := 0.0, 0.0
		for t := 0; t < steps; t++ {
			e = rho*e - h*sigma*r.NormFloat64()
			if t >= first {
				avg += e / float64(steps-first)
			}
		}
		s += avg
		s2 += avg * avg
	}
	e, avg := 1.0, 0.0
	for t := 0; t < steps; t++ {
		e *= rho
		if t >= first {
			avg += e / float64(steps-first)
		}
	}
	m := float64(runs)
	return (s2 - s*s/m) / (m - 1), avg
}

// TestSuffixNoise: the variance of DP-GD's suffix average in one
// eigen-direction, and the weight of its start, agree with the iteration
// itself — the variance within 5 standard errors of a sample variance of
// 20,000 runs (√(2/R) relative: false-failure rate < 10⁻⁶ per case), the
// start weight to 10⁻¹². The same check rejects the variance of the
// all-iterates average (the wrong averaging) in every case with λhT ≥ 1.
func TestSuffixNoise(t *testing.T) {
	r := rng.Seeded(2)
	const runs = 20000
	tol := 5 * math.Sqrt(2.0/runs)
	for _, c := range []struct {
		h, lam float64
		steps  int
	}{{0.5, 0.01, 50}, {0.5, 0.3, 50}, {0.5, 1.9, 51}, {4, 0.001, 201}, {4, 0.05, 200}, {1, 1, 50}} {
		v, a := suffixNoise(c.h, 0.7, c.lam, c.steps)
		sv, sa := simSuffix(r, c.h, 0.7, c.lam, c.steps, runs, false)
		if math.Abs(sv/v-1) > tol {
			t.Errorf("%+v: variance %g, the iteration's %g (ratio %.4f, tolerance %.4f)", c, v, sv, sv/v, tol)
		}
		if math.Abs(a-sa) > 1e-12 {
			t.Errorf("%+v: start weight %g, the iteration's %g", c, a, sa)
		}
		if c.lam*c.h*float64(c.steps) >= 1 {
			all, _ := simSuffix(r, c.h, 0.7, c.lam, c.steps, runs, true)
			if math.Abs(all/v-1) <= tol {
				t.Errorf("%+v: the all-iterates average's variance %g passes as the suffix's %g", c, all, v)
			}
		}
	}
}

// worstPairs returns neighbouring data sets (row 0 replaced, the other
// rows 0) that reach each sensitivity for loss k of width h: H — rows clip·e₁
// and clip·e₂ at a θ where both margins sit at the top curvature β; J and
// g — rows clip·e₁ and (J) clip·e₂ or (g) −clip·e₁ at θ = −20·(e₁ + e₂) with
// label +1, where |φ'| is at its bound; g — rows nearly opposite,
// −clip·(±1, 0.01, 0)/‖·‖, label +1 at θ = 10⁴·e₂, where both |φ'| are at
// the bound and the gradients nearly opposite (for logistic two gradients
// can be exactly opposite only in the limit: σ(⟨b, θ⟩)b for b = −y·a).
func worstPairs(k loss.Kind, clip, h float64) (rows [][2][]float64, ys [][2]float64, thetas [][]float64) {
	e1, e2 := []float64{clip, 0, 0}, []float64{0, clip, 0}
	mH, yH := 0.0, 0.0 // logistic: φ''(0) = 1/4; huber, smooth-quantile: residual 0
	switch k {
	case loss.Logistic:
		yH = 1
	case loss.SmoothHinge:
		mH, yH = 1-h/2, 1
	}
	thH := []float64{mH / clip, mH / clip, 0}
	far := []float64{-20, -20, 0}
	nn := clip / math.Hypot(1, 0.01)
	g1, g2 := []float64{-nn, -0.01 * nn, 0}, []float64{nn, -0.01 * nn, 0}
	rows = [][2][]float64{{e1, e2}, {e1, e2}, {g1, g2}}
	ys = [][2]float64{{yH, yH}, {1, 1}, {1, 1}}
	thetas = [][]float64{thH, far, {0, 1e4, 0}}
	return
}

// diffNorms returns ‖Δg‖ and ‖ΔH‖_F, ‖ΔJ‖_F between the statistics of two
// neighbouring sets.
func diffNorms(a, b Statistics) (g, h, j float64) {
	for i := range a.Gradient {
		g += (a.Gradient[i] - b.Gradient[i]) * (a.Gradient[i] - b.Gradient[i])
	}
	for i := range a.Hessian {
		h += (a.Hessian[i] - b.Hessian[i]) * (a.Hessian[i] - b.Hessian[i])
		j += (a.Score[i] - b.Score[i]) * (a.Score[i] - b.Score[i])
	}
	return math.Sqrt(g), math.Sqrt(h), math.Sqrt(j)
}

// TestSensitivity: replacing one record moves g, H and J by at most the
// plan's sensitivities 2G/n, √2·β·clip²/n and √2·G²/n (in ℓ2 and Frobenius
// norm) over 3,000 random neighbouring pairs per loss, with rows anywhere in
// the clip ball and targets anywhere in the declared range, and at a random
// θ; and the worst-case pairs reach them within 1 % (the bounds are tight,
// so the √2 cannot be dropped: β·clip²/n is exceeded).
func TestSensitivity(t *testing.T) {
	r := rng.Seeded(3)
	const n, d = 5, 3
	for _, k := range []loss.Kind{loss.Logistic, loss.Huber, loss.SmoothHinge, loss.SmoothQuantile} {
		for _, p := range []loss.Params{{Clip: 2, Huber: 0.3, Tau: 0.2}, {Clip: 1.5, Huber: 2, Tau: 0.7}} {
			beta, _, _ := loss.Smooth(k, p)
			g, _ := loss.Lipschitz(k, p)
			dg, dh, dj := 2*g/n, math.Sqrt2*beta*p.Clip*p.Clip/n, math.Sqrt2*g*g/n
			randRow := func() []float64 {
				v := make([]float64, d)
				for j := range v {
					v[j] = r.NormFloat64()
				}
				s := p.Clip * math.Pow(r.Float64(), 0.3) / loss.Norm(v)
				for j := range v {
					v[j] *= s
				}
				return v
			}
			randY := func() float64 {
				if k.Classification() {
					return float64(2*r.IntN(2) - 1)
				}
				return 2*r.Float64() - 1
			}
			stats := func(x [][]float64, y []float64, theta []float64) Statistics {
				set, err := loss.New(k, x, y, p)
				if err != nil {
					t.Fatal(err)
				}
				return Stats(set, theta)
			}
			var mg, mh, mj float64
			for range 3000 {
				x := make([][]float64, n)
				y := make([]float64, n)
				for i := range x {
					x[i], y[i] = randRow(), randY()
				}
				theta := make([]float64, d)
				for j := range theta {
					theta[j] = 3 * r.NormFloat64() / p.Clip
				}
				x2, y2 := slices.Clone(x), slices.Clone(y)
				x2[0], y2[0] = randRow(), randY()
				g1, h1, j1 := diffNorms(stats(x, y, theta), stats(x2, y2, theta))
				mg, mh, mj = math.Max(mg, g1), math.Max(mh, h1), math.Max(mj, j1)
			}
			if mg > dg*(1+1e-12) || mh > dh*(1+1e-12) || mj > dj*(1+1e-12) {
				t.Errorf("%v %+v: largest moves %g, %g, %g exceed the sensitivities %g, %g, %g", k, p, mg, mh, mj, dg, dh, dj)
			}
			rows, ys, thetas := worstPairs(k, p.Clip, p.Huber)
			var wg, wh, wj float64
			for c := range rows {
				base := [][]float64{rows[c][0], {0, 0, 0}, {0, 0, 0}, {0, 0, 0}, {0, 0, 0}}
				repl := slices.Clone(base)
				repl[0] = rows[c][1]
				yb := []float64{ys[c][0], 1, 1, 1, 1}
				if !k.Classification() {
					yb = []float64{ys[c][0], 0, 0, 0, 0}
				}
				yr := slices.Clone(yb)
				yr[0] = ys[c][1]
				g1, h1, j1 := diffNorms(stats(base, yb, thetas[c]), stats(repl, yr, thetas[c]))
				wg, wh, wj = math.Max(wg, g1), math.Max(wh, h1), math.Max(wj, j1)
			}
			if wh < 0.99*dh || wh <= beta*p.Clip*p.Clip/n {
				t.Errorf("%v %+v: worst pair moves H by %g, sensitivity %g (not tight)", k, p, wh, dh)
			}
			if k == loss.Logistic || k == loss.SmoothHinge {
				if wg < 0.99*dg || wj < 0.99*dj {
					t.Errorf("%v %+v: worst pairs move g, J by %g, %g; sensitivities %g, %g (not tight)", k, p, wg, wj, dg, dj)
				}
			}
		}
	}
}

// TestReleaseNoise: the released statistics minus the exact ones, divided
// by the plan's sd (σ on g and on the matrices' diagonals, σ/√2 off them),
// are standard normal (KS at false-failure rate 0.001 per group), and
// independent across the packed coordinates (the noise of the vector
// (M_jj; √2·M_jk) is N(0, σ²I): the sample correlation of two off-diagonal
// and a diagonal coordinate is within 4/√m of 0).
func TestReleaseNoise(t *testing.T) {
	x := [][]float64{{0.5, -0.2, 1}, {0.1, 0.3, 1}, {-0.7, 0.4, 1}, {0.2, -0.9, 1}}
	y := []float64{1, -1, 1, 1}
	set, err := loss.New(loss.Logistic, x, y, loss.Params{Clip: math.Sqrt(3)})
	if err != nil {
		t.Fatal(err)
	}
	theta := []float64{0.3, -0.1, 0.2}
	st := Stats(set, theta)
	pl, err := NewPlan(Params{N: 4, D: 3, G: set.G(), Curvature: set.Curvature(), Radius: 5, Level: 0.95, GDP: 2, MinNS: 1})
	if err != nil {
		t.Fatal(err)
	}
	r := rng.Seeded(4)
	const m = 20000
	groups := map[string][]float64{}
	var a, b, c []float64
	for range m {
		rel := Release(st, pl, r)
		for j := range 3 {
			groups["g"] = append(groups["g"], (rel.Gradient[j]-st.Gradient[j])/pl.Gradient.Noise)
			groups["H diagonal"] = append(groups["H diagonal"], (rel.Hessian[j*3+j]-st.Hessian[j*3+j])/pl.Hessian.Noise)
			groups["J diagonal"] = append(groups["J diagonal"], (rel.Score[j*3+j]-st.Score[j*3+j])/pl.Score.Noise)
		}
		for _, jk := range [][2]int{{0, 1}, {0, 2}, {1, 2}} {
			i := jk[0]*3 + jk[1]
			groups["H off-diagonal"] = append(groups["H off-diagonal"], (rel.Hessian[i]-st.Hessian[i])*math.Sqrt2/pl.Hessian.Noise)
			groups["J off-diagonal"] = append(groups["J off-diagonal"], (rel.Score[i]-st.Score[i])*math.Sqrt2/pl.Score.Noise)
		}
		a = append(a, rel.Hessian[1]-st.Hessian[1])
		b = append(b, rel.Hessian[2]-st.Hessian[2])
		c = append(c, rel.Hessian[0]-st.Hessian[0])
		if rel.Hessian[1] != rel.Hessian[3] || rel.Score[5] != rel.Score[7] {
			t.Fatal("released matrix not symmetric")
		}
	}
	for name, v := range groups {
		if ks := stats.KS(v, privacy.Phi); ks > ksCrit(len(v)) {
			t.Errorf("%s: KS %.4f > %.4f against N(0, 1)", name, ks, ksCrit(len(v)))
		}
	}
	for _, pair := range [][2][]float64{{a, b}, {a, c}} {
		if rho := corr(pair[0], pair[1]); math.Abs(rho) > 4/math.Sqrt(m) {
			t.Errorf("packed noise correlated: %.4f", rho)
		}
	}
}

func corr(a, b []float64) float64 {
	var ma, mb float64
	for i := range a {
		ma += a[i] / float64(len(a))
		mb += b[i] / float64(len(b))
	}
	var sab, saa, sbb float64
	for i := range a {
		sab += (a[i] - ma) * (b[i] - mb)
		saa += (a[i] - ma) * (a[i] - ma)
		sbb += (b[i] - mb) * (b[i] - mb)
	}
	return sab / math.Sqrt(saa*sbb)
}
