package stats

import (
	"math"
	"slices"
)

// KS is the one-sample Kolmogorov–Smirnov statistic of the sample xs
// against the continuous distribution function cdf:
//
//	D_m = sup_t |F_m(t) − F(t)| = max_i max(F(x₍ᵢ₎) − (i−1)/m, i/m − F(x₍ᵢ₎)),
//
// over the order statistics x₍₁₎ ≤ … ≤ x₍ₘ₎ (a sorted copy: xs is left as
// it is).
func KS(xs []float64, cdf func(float64) float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	m := float64(len(s))
	d := 0.0
	for i, x := range s {
		f := cdf(x)
		d = math.Max(d, math.Max(f-float64(i)/m, float64(i+1)/m-f))
	}
	return d
}

// KSCritical is the asymptotic critical value of KS at false-failure rate
// alpha for m draws, from the Dvoretzky–Kiefer–Wolfowitz inequality with
// Massart's constant, P(D_m > c) ≤ 2·exp(−2mc²):
//
//	c = √(ln(2/α)/2) / √m
//
// (1.36/√m at α = 0.05, 1.63/√m at α = 0.01, 1.95/√m at α = 0.001).
func KSCritical(alpha float64, m int) float64 {
	return math.Sqrt(math.Log(2/alpha)/2) / math.Sqrt(float64(m))
}
