//go:build !js

package stats

import (
	"math"
	"sort"
)

// SignTestCI is the distribution-free confidence interval for the median of
// d from the sign test: [d₍ₖ₎, d₍ₙ₊₁₋ₖ₎] in sorted order, with k the largest
// integer such that P(X ≤ k−1) ≤ alpha/2 for X ~ Binomial(n, ½). Its
// coverage, returned as level, is 1 − 2·P(X ≤ k−1) ≥ 1 − alpha for every
// continuous distribution of i.i.d. d. For n too small to reach 1 − alpha
// (n ≤ 5 at alpha = 0.05) it returns the range of d and its coverage.
func SignTestCI(d []float64, alpha float64) (lo, hi, level float64) {
	n := len(d)
	if n == 0 {
		return math.NaN(), math.NaN(), 0
	}
	s := append([]float64(nil), d...)
	sort.Float64s(s)
	cdf := func(j int) float64 { // P(X ≤ j)
		p := 0.0
		for i := 0; i <= j; i++ {
			p += math.Exp(lchoose(n, i) - float64(n)*math.Ln2)
		}
		return p
	}
	k := 1
	for k+1 <= (n+1)/2 && cdf(k) <= alpha/2 {
		k++
	}
	return s[k-1], s[n-k], 1 - 2*cdf(k-1)
}

// lchoose is ln C(n, k).
func lchoose(n, k int) float64 {
	a, _ := math.Lgamma(float64(n + 1))
	b, _ := math.Lgamma(float64(k + 1))
	c, _ := math.Lgamma(float64(n - k + 1))
	return a - b - c
}
