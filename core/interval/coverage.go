package interval

import (
	"fmt"
	"math"
)

// CoverageBound is the least coverage a coordinate's interval may show over
// R independent runs at the given level before the check fails:
// level − 3·√(level·(1 − level)/R), three binomial standard deviations (a
// correct interval fails it with probability ≈ 0.0013 per coordinate by the
// normal approximation).
func CoverageBound(level float64, runs int) float64 {
	return level - 3*math.Sqrt(level*(1-level)/float64(runs))
}

// MeanBound is the least mean coverage over d coordinates and R runs:
// level − max(0.02, 3·√(level·(1 − level)/(R·d))), i.e. level − 0.02 unless
// R·d is too small for 0.02 to be three standard errors of the mean of d
// independent coverages (a cell of few runs: the n = 2·10⁵ cell of the
// coverage test).
func MeanBound(level float64, runs, d int) float64 {
	return level - math.Max(0.02, 3*math.Sqrt(level*(1-level)/float64(runs*d)))
}

// CheckCoverage is the coverage test's check: hits[j] of runs intervals
// held θ*_j. Every coordinate must reach CoverageBound and their mean
// MeanBound. It returns nil or an error that gives the numbers.
func CheckCoverage(hits []int, runs int, level float64) error {
	bound := CoverageBound(level, runs)
	mean := 0.0
	var bad []string
	for j, h := range hits {
		c := float64(h) / float64(runs)
		mean += c / float64(len(hits))
		if c < bound {
			bad = append(bad, fmt.Sprintf("coordinate %d covered %.3f < %.3f", j, c, bound))
		}
	}
	if mb := MeanBound(level, runs, len(hits)); mean < mb {
		bad = append(bad, fmt.Sprintf("mean coverage %.3f < %.3f", mean, mb))
	}
	if len(bad) > 0 {
		return fmt.Errorf("%d runs at level %g: %v", runs, level, bad)
	}
	return nil
}
