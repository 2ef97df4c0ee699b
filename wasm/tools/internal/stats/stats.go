//go:build !js

package stats

import (
	"math"
	"math/rand/v2"
	"sort"
)

// Median returns the median of xs (the mean of the two middle values for an
// even count), or 0 for none.
func Median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	m := len(s) / 2
	if len(s)%2 == 1 {
		return s[m]
	}
	return (s[m-1] + s[m]) / 2
}

// Minimum returns the smallest of xs, or 0 for none.
func Minimum(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	m := xs[0]
	for _, x := range xs[1:] {
		m = math.Min(m, x)
	}
	return m
}

// MeanStd returns the mean and the sample standard deviation (n−1). Both are
// 0 for no values and the standard deviation is 0 for one value (reports must
// be plain JSON, which has no NaN; a run count tells the cases apart).
func MeanStd(v []float64) (mean, std float64) {
	if len(v) == 0 {
		return 0, 0
	}
	for _, x := range v {
		mean += x
	}
	mean /= float64(len(v))
	if len(v) < 2 {
		return mean, 0
	}
	var ss float64
	for _, x := range v {
		ss += (x - mean) * (x - mean)
	}
	return mean, math.Sqrt(ss / float64(len(v)-1))
}

// Dot is ⟨a, b⟩.
func Dot(a, b []float64) float64 {
	var s float64
	for i := range a {
		s += a[i] * b[i]
	}
	return s
}

// Mean returns the arithmetic mean of xs, or 0 for none.
func Mean(xs []float64) float64 {
	m, _ := MeanStd(xs)
	return m
}

// bootReps is the number of bootstrap resamples behind every interval.
const bootReps = 2000

// BootSeed derives a fixed, public seed for one cell's bootstrap (the
// intervals are analysis of released outputs, reproducible by design).
func BootSeed(cell, method int) uint64 {
	return uint64(cell)*0x9E3779B97F4A7C15 ^ uint64(method+1)*0xBF58476D1CE4E5B9
}

// BootstrapCI is the 95 % percentile-bootstrap interval of stat(xs):
// bootReps resamples of len(xs) values drawn with replacement, and the
// 2.5 % and 97.5 % quantiles of stat over them (Efron & Tibshirani 1993,
// §13.3). With fewer than two values it returns [stat, stat].
func BootstrapCI(xs []float64, stat func([]float64) float64, seed uint64) [2]float64 {
	if len(xs) < 2 {
		v := stat(xs)
		return [2]float64{v, v}
	}
	r := rand.New(rand.NewPCG(seed, 0x5851F42D4C957F2D))
	buf := make([]float64, len(xs))
	st := make([]float64, bootReps)
	for b := range st {
		for i := range buf {
			buf[i] = xs[r.IntN(len(xs))]
		}
		st[b] = stat(buf)
	}
	return [2]float64{Quantile(st, 0.025), Quantile(st, 0.975)}
}

// RatioCI is the 95 % percentile-bootstrap interval of median(hi)/median(lo)
// with the two samples resampled independently.
func RatioCI(lo, hi []float64, seed uint64) [2]float64 {
	if len(lo) < 2 || len(hi) < 2 {
		v := Median(hi) / Median(lo)
		return [2]float64{v, v}
	}
	r := rand.New(rand.NewPCG(seed, 0x2545F4914F6CDD1D))
	bl, bh := make([]float64, len(lo)), make([]float64, len(hi))
	st := make([]float64, bootReps)
	for b := range st {
		for i := range bl {
			bl[i] = lo[r.IntN(len(lo))]
		}
		for i := range bh {
			bh[i] = hi[r.IntN(len(hi))]
		}
		st[b] = Median(bh) / Median(bl)
	}
	return [2]float64{Quantile(st, 0.025), Quantile(st, 0.975)}
}

// Quantile is the type-7 (linear interpolation) sample quantile of xs at p.
func Quantile(xs []float64, p float64) float64 {
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	h := p * float64(len(s)-1)
	i := int(math.Floor(h))
	if i+1 >= len(s) {
		return s[len(s)-1]
	}
	return s[i] + (h-float64(i))*(s[i+1]-s[i])
}
