package interval

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/dpsample/dpsample/core/privacy"
)

// Synthetic designs for the coverage test and the study (wasm/tools/study
// -intervals): features in [−1, 1] as the page scales them from declared
// ranges, the intercept column of ones last, and a well-specified model
// whose population minimiser θ* is known exactly.
//
// Features come from a Gaussian copula: a latent z ~ N(0, Σ), Σ_jk = ρ for
// j ≠ k, and feature j is a transform of z_j (so every pair is correlated):
//
//	gauss     tanh(0.8·z)
//	skewed    −1 + 2B, B = F⁻¹(Φ(z)) of Beta(1, 4) (mean −0.6, a long right tail)
//	binary p  +1 when Φ(z) > 1 − p, else −1 (a 0/1 column scaled from [0, 1])
//	count λ   −1 + 2·min(K, 20)/20, K = F⁻¹(Φ(z)) of Poisson(λ) (declared [0, 20])
//
// Targets. logistic: y = +1 with probability 1/(1 + e^{−⟨θ*, a⟩}), so θ* is
// the population minimiser (the model is well specified). huber and
// smooth-quantile (τ = ½): y = ⟨θ*, a⟩ + e with e = clamp(0.12·t₃, ±0.4),
// symmetric and independent of a, and ‖θ*‖₁ ≤ 0.6, so |y| ≤ 1 lies in the
// declared target range (nothing is clamped) and E[φ'(⟨θ*, a⟩; y) | a] = 0
// for the odd φ' of both losses: θ* is again the population minimiser.
type Design struct {
	Name     string
	Loss     string    // "logistic", "huber" or "smooth-quantile"
	Features []string  // "gauss", "skewed", "binary:p", "count:λ"
	Rho      float64   // latent correlation ρ
	Theta    []float64 // θ*, features then the intercept
	Huber    float64   // the loss's width h (huber, smooth-quantile)
	// Rows and Targets, when set, replace the copula: the population is a
	// table's rows (with the intercept) and targets, drawn with
	// replacement, and Theta must be the table's own minimiser (the study's
	// real-data cells: interval.Sandwich of the whole table).
	Rows    [][]float64
	Targets []float64
}

// Designs is the fixed grid of the coverage test and the study.
var Designs = []Design{
	{Name: "d3-corr", Loss: "logistic", Features: []string{"gauss", "gauss", "skewed"}, Rho: 0.5, Theta: []float64{0.8, -0.5, 0.6, -0.2}},
	{Name: "d3-rare", Loss: "logistic", Features: []string{"skewed", "binary:0.05", "gauss"}, Rho: 0.3, Theta: []float64{-0.7, 1.0, 0.5, 0.3}},
	{Name: "d8-mixed", Loss: "logistic", Features: []string{"gauss", "gauss", "gauss", "skewed", "skewed", "binary:0.2", "binary:0.05", "count:3"},
		Rho: 0.4, Theta: []float64{0.6, -0.4, 0.3, 0.5, -0.3, 0.4, 0.8, -0.5, -0.2}},
	{Name: "d16-mixed", Loss: "logistic", Features: []string{"gauss", "gauss", "gauss", "gauss", "gauss", "gauss", "skewed", "skewed", "skewed", "skewed",
		"binary:0.2", "binary:0.2", "binary:0.05", "binary:0.05", "count:3", "count:3"},
		Rho: 0.3, Theta: []float64{0.6, -0.4, 0.3, 0.2, -0.2, 0.1, 0.5, -0.3, 0.2, -0.1, 0.4, -0.3, 0.8, -0.5, 0.3, -0.2, -0.2}},
	{Name: "d30-mixed", Loss: "logistic", Features: d30Features(), Rho: 0.3, Theta: d30Theta()},
	{Name: "d1", Loss: "logistic", Features: []string{"skewed"}, Rho: 0, Theta: []float64{1.0, -0.5}},
	{Name: "d1-rare", Loss: "logistic", Features: []string{"binary:0.01"}, Rho: 0, Theta: []float64{0.8, -1.0}},
	{Name: "d3-huber", Loss: "huber", Features: []string{"gauss", "gauss", "skewed"}, Rho: 0.5, Theta: []float64{0.2, -0.15, 0.1, 0.05}, Huber: 0.25},
	{Name: "d3-squant", Loss: "smooth-quantile", Features: []string{"gauss", "skewed", "binary:0.1"}, Rho: 0.3, Theta: []float64{0.2, 0.15, -0.1, 0.05}, Huber: 0.25},
}

// d30Features: 10 gauss, 8 skewed, 4 binary:0.2, 4 binary:0.05, 4 count:3.
func d30Features() []string {
	var f []string
	for _, k := range []struct {
		kind string
		m    int
	}{{"gauss", 10}, {"skewed", 8}, {"binary:0.2", 4}, {"binary:0.05", 4}, {"count:3", 4}} {
		for range k.m {
			f = append(f, k.kind)
		}
	}
	return f
}

// d30Theta: coefficients 0.4·(−1)^j·(1 − j/40) on the 30 features, ‖θ*‖ ≈
// 1.6, and the intercept −0.2.
func d30Theta() []float64 {
	t := make([]float64, 31)
	for j := range 30 {
		t[j] = 0.4 * (1 - float64(j)/40)
		if j%2 == 1 {
			t[j] = -t[j]
		}
	}
	t[30] = -0.2
	return t
}

// LookupDesign returns the design of Designs with the given name.
func LookupDesign(name string) (Design, error) {
	for _, d := range Designs {
		if d.Name == name {
			return d, nil
		}
	}
	return Design{}, fmt.Errorf("interval: no design %q", name)
}

// Draw returns n rows (with the intercept) and targets of the design.
func (ds Design) Draw(r *rand.Rand, n int) ([][]float64, []float64) {
	if ds.Rows != nil {
		x := make([][]float64, n)
		y := make([]float64, n)
		for i := range x {
			k := r.IntN(len(ds.Rows))
			x[i], y[i] = ds.Rows[k], ds.Targets[k]
		}
		return x, y
	}
	k := len(ds.Features)
	x := make([][]float64, n)
	y := make([]float64, n)
	z := make([]float64, k)
	sr, s1 := math.Sqrt(ds.Rho), math.Sqrt(1-ds.Rho)
	for i := range x {
		common := r.NormFloat64()
		row := make([]float64, k+1)
		for j := range z {
			z[j] = sr*common + s1*r.NormFloat64()
			row[j] = feature(ds.Features[j], z[j])
		}
		row[k] = 1
		x[i] = row
		m := 0.0
		for j, v := range row {
			m += ds.Theta[j] * v
		}
		switch ds.Loss {
		case "logistic":
			y[i] = -1
			if r.Float64() < 1/(1+math.Exp(-m)) {
				y[i] = 1
			}
		default:
			// Student t₃ = N/√(χ²₃/3), clamped symmetrically.
			c := 0.0
			for range 3 {
				g := r.NormFloat64()
				c += g * g
			}
			e := 0.12 * r.NormFloat64() / math.Sqrt(c/3)
			y[i] = m + math.Max(-0.4, math.Min(0.4, e))
		}
	}
	return x, y
}

// feature maps a latent standard normal to the named feature in [−1, 1].
func feature(kind string, z float64) float64 {
	var p float64
	switch {
	case kind == "gauss":
		return math.Tanh(0.8 * z)
	case kind == "skewed":
		u := privacy.Phi(z)
		return -1 + 2*(1-math.Pow(1-u, 0.25))
	case scan(kind, "binary:%g", &p):
		if privacy.Phi(z) > 1-p {
			return 1
		}
		return -1
	case scan(kind, "count:%g", &p):
		u := privacy.Phi(z)
		kk, pk := 0, math.Exp(-p)
		cdf := pk
		for cdf < u && kk < 20 {
			kk++
			pk *= p / float64(kk)
			cdf += pk
		}
		return -1 + 2*float64(kk)/20
	}
	panic("interval: unknown feature " + kind)
}

func scan(s, format string, p *float64) bool {
	_, err := fmt.Sscanf(s, format, p)
	return err == nil
}
