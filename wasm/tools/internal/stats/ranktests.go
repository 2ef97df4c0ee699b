//go:build !js

package stats

import (
	"math"
	"sort"
)

// KSTwoSample is the two-sample Kolmogorov–Smirnov statistic sup|F_a − F_b|.
func KSTwoSample(a, b []float64) float64 {
	a, b = append([]float64(nil), a...), append([]float64(nil), b...)
	sort.Float64s(a)
	sort.Float64s(b)
	var i, j int
	var dmax float64
	for i < len(a) && j < len(b) {
		// Advance past every copy of the smaller value in both samples, so
		// that ties do not inflate the statistic.
		v := math.Min(a[i], b[j])
		for i < len(a) && a[i] == v {
			i++
		}
		for j < len(b) && b[j] == v {
			j++
		}
		dmax = math.Max(dmax, math.Abs(float64(i)/float64(len(a))-float64(j)/float64(len(b))))
	}
	return dmax
}

// KSPValue is the asymptotic p-value of the two-sample KS statistic D for
// sizes n and m: Q(λ) = 2Σ_{k≥1}(−1)^{k−1}e^{−2k²λ²} at
// λ = (√N + 0.12 + 0.11/√N)·D, N = nm/(n+m) (Stephens' finite-size
// correction, Numerical Recipes §14.3).
func KSPValue(d float64, n, m int) float64 {
	en := math.Sqrt(float64(n) * float64(m) / float64(n+m))
	lam := (en + 0.12 + 0.11/en) * d
	if lam < 0.2 {
		return 1
	}
	sum, sign := 0.0, 1.0
	for k := 1; k <= 100; k++ {
		term := sign * 2 * math.Exp(-2*float64(k*k)*lam*lam)
		sum += term
		if math.Abs(term) < 1e-12*math.Abs(sum) {
			break
		}
		sign = -sign
	}
	return math.Max(0, math.Min(1, sum))
}

// MannWhitney returns the normal-approximation z of the Mann–Whitney U
// statistic of b against a (positive when b tends to be larger), with the
// tie correction of the variance, and its two-sided p-value.
func MannWhitney(a, b []float64) (z, p float64) {
	type obs struct {
		v float64
		b bool
	}
	all := make([]obs, 0, len(a)+len(b))
	for _, v := range a {
		all = append(all, obs{v, false})
	}
	for _, v := range b {
		all = append(all, obs{v, true})
	}
	sort.Slice(all, func(i, j int) bool { return all[i].v < all[j].v })
	n1, n2 := float64(len(a)), float64(len(b))
	nn := n1 + n2
	var rb, ties float64
	for i := 0; i < len(all); {
		j := i
		for j < len(all) && all[j].v == all[i].v {
			j++
		}
		rank := float64(i+j+1) / 2 // mean of ranks i+1 … j
		for k := i; k < j; k++ {
			if all[k].b {
				rb += rank
			}
		}
		t := float64(j - i)
		ties += t*t*t - t
		i = j
	}
	u := rb - n2*(n2+1)/2
	mean := n1 * n2 / 2
	v := n1 * n2 / 12 * (nn + 1 - ties/(nn*(nn-1)))
	z = (u - mean) / math.Sqrt(v)
	return z, math.Erfc(math.Abs(z) / math.Sqrt2)
}

// MannWhitneyZ is the normal approximation of the Mann–Whitney U statistic
// of a against b (ties count ½): z > 0 when a tends to be larger. Without
// the tie correction of the variance (the excess values are continuous).
func MannWhitneyZ(a, b []float64) float64 {
	u := 0.0
	for _, x := range a {
		for _, y := range b {
			switch {
			case x > y:
				u++
			case x == y:
				u += 0.5
			}
		}
	}
	n1, n2 := float64(len(a)), float64(len(b))
	return (u - n1*n2/2) / math.Sqrt(n1*n2*(n1+n2+1)/12)
}
