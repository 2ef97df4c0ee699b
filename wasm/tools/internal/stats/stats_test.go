//go:build !js

package stats

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/dpsample/dpsample/core/rng"
)

func TestStats(t *testing.T) {
	for _, c := range []struct {
		xs            []float64
		med, mean, sd float64
		min           float64
	}{
		{nil, 0, 0, 0, 0},
		{[]float64{3}, 3, 3, 0, 3},
		{[]float64{4, 1, 3}, 3, 8.0 / 3, math.Sqrt(7.0 / 3), 1},
		{[]float64{4, 1, 3, 2}, 2.5, 2.5, math.Sqrt(5.0 / 3), 1},
	} {
		m, sd := MeanStd(c.xs)
		if Median(c.xs) != c.med || math.Abs(m-c.mean) > 1e-12 || math.Abs(sd-c.sd) > 1e-12 || Minimum(c.xs) != c.min {
			t.Errorf("%v: median %g mean %g sd %g min %g, want %g %g %g %g", c.xs, Median(c.xs), m, sd, Minimum(c.xs), c.med, c.mean, c.sd, c.min)
		}
	}
}

// TestBootstrapCoverage: the 95 % percentile-bootstrap interval of the median
// of 30 standard normals covers the true median 0 in about 95 % of
// replications. Percentile intervals of a median at m = 30 are known to be
// somewhat conservative or liberal by a few points, so the test accepts
// coverage in [0.88, 0.99] over R = 400 replications: for a true coverage
// of 0.95 the binomial SD is 0.011, so the band is > 5 SD on each side
// (false-failure rate < 10⁻⁶ given a true coverage in [0.93, 0.97]). A broken
// interval (narrowed to a nominal 50 % width) must fail the band.
func TestBootstrapCoverage(t *testing.T) {
	const R, m = 400, 30
	r := rng.Seeded(77)
	cover, coverBroken := 0, 0
	for i := 0; i < R; i++ {
		xs := make([]float64, m)
		for j := range xs {
			xs[j] = r.NormFloat64()
		}
		ci := BootstrapCI(xs, Median, uint64(i))
		if ci[0] <= 0 && 0 <= ci[1] {
			cover++
		}
		if ci[0] > ci[1] || Median(xs) < ci[0] || Median(xs) > ci[1] {
			t.Fatalf("interval %v does not contain the sample median %g", ci, Median(xs))
		}
		if b := brokenCI(xs, uint64(i)); b[0] <= 0 && 0 <= b[1] {
			coverBroken++
		}
	}
	in := func(c int) bool { f := float64(c) / R; return f >= 0.88 && f <= 0.99 }
	if !in(cover) {
		t.Errorf("coverage %d/%d outside [0.88, 0.99]", cover, R)
	}
	if in(coverBroken) {
		t.Errorf("a 50 %% interval passed the coverage band: %d/%d", coverBroken, R)
	}
	// The ratio interval contains the observed ratio.
	lo, hi := []float64{1, 2, 3, 4, 5}, []float64{2, 4, 6, 8, 10}
	if ci := RatioCI(lo, hi, 1); ci[0] > 2 || ci[1] < 2 || math.IsNaN(ci[0]) {
		t.Errorf("ratio interval %v does not contain 2", ci)
	}
}

// brokenCI is bootstrapCI narrowed about its centre to the width of a
// nominal 50 % normal interval (×0.674/1.96).
func brokenCI(xs []float64, seed uint64) [2]float64 {
	c := BootstrapCI(xs, Median, seed) // same resamples, then narrowed
	mid := (c[0] + c[1]) / 2
	half := (c[1] - c[0]) / 2 * 0.674 / 1.96
	return [2]float64{mid - half, mid + half}
}

// TestSignTestCIOrderStatistics: the interval's ends are the order
// statistics the binomial table gives (n = 21: the 6th and 16th, coverage
// 0.973; n = 10: the 2nd and 9th, 0.979; n = 5: too few, the range, 0.9375).
func TestSignTestCIOrderStatistics(t *testing.T) {
	for _, c := range []struct {
		n, lo, hi int
		level     float64
	}{{21, 6, 16, 0.9734}, {10, 2, 9, 0.9785}, {5, 1, 5, 0.9375}, {1, 1, 1, 0}} {
		d := make([]float64, c.n)
		for i := range d {
			d[i] = float64(c.n - i) // reversed: the function sorts
		}
		lo, hi, level := SignTestCI(d, 0.05)
		if lo != float64(c.lo) || hi != float64(c.hi) || math.Abs(level-c.level) > 5e-4 {
			t.Errorf("n = %d: [%g, %g] at %.4f, want [%d, %d] at %.4f", c.n, lo, hi, level, c.lo, c.hi, c.level)
		}
	}
}

// TestSignTestCICoverage: over 4,000 samples of n = 21 paired differences
// from a skewed law (exponential minus its median, shifted by 30), the
// interval holds the true median 30 in a share consistent with its stated
// coverage 0.9734: the test fails when the share is below 0.9734 − 4 standard
// errors (0.0025 each; false failure < 1e-4). The same check fails for an
// interval one order statistic narrower on each side (coverage 0.922).
func TestSignTestCICoverage(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 31))
	const reps, n, truth = 4000, 21, 30.0
	narrow := func(d []float64) (float64, float64) { // the deliberately broken interval
		s := append([]float64(nil), d...)
		slices.Sort(s)
		return s[6], s[n-7]
	}
	hit, hitNarrow := 0, 0
	var level float64
	for range reps {
		d := make([]float64, n)
		for i := range d {
			d[i] = truth + 40*(rng.ExpFloat64()-math.Ln2)
		}
		lo, hi, l := SignTestCI(d, 0.05)
		level = l
		if lo <= truth && truth <= hi {
			hit++
		}
		if a, b := narrow(d); a <= truth && truth <= b {
			hitNarrow++
		}
	}
	se := math.Sqrt(level * (1 - level) / reps)
	if got := float64(hit) / reps; got < level-4*se {
		t.Errorf("coverage %.4f, stated %.4f (4 SE = %.4f)", got, level, 4*se)
	}
	if got := float64(hitNarrow) / reps; got >= level-4*se {
		t.Errorf("the narrowed interval covered %.4f: the check cannot tell it from %.4f", got, level)
	}
}

// TestRankTests: the two-sample statistics on hand-computed cases. KS:
// disjoint samples are 1 apart, a sample against itself 0, and {1,2,3,4}
// against {3,4,5,6} 0.5 (F_a − F_b = 2/4 − 0 at 2). Mann–Whitney: b wholly
// above a (n = 3, 3) has U = 9 and z = (9 − 4.5)/√(9·7/12) = 1.964 with p =
// erfc(z/√2) = 0.0495 (no ties: no correction); MannWhitneyZ is the same z
// with the sides swapped. Ties: KS ignores a shared value's copies.
func TestRankTests(t *testing.T) {
	a, b := []float64{1, 2, 3}, []float64{4, 5, 6}
	for _, c := range []struct {
		a, b []float64
		want float64
	}{{a, b, 1}, {a, a, 0}, {[]float64{1, 2, 3, 4}, []float64{3, 4, 5, 6}, 0.5}, {[]float64{1, 1, 2}, []float64{1, 2, 2}, 1.0 / 3}} {
		if got := KSTwoSample(c.a, c.b); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("KSTwoSample(%v, %v) = %g, want %g", c.a, c.b, got, c.want)
		}
	}
	wantZ := 4.5 / math.Sqrt(9*7.0/12)
	z, p := MannWhitney(a, b)
	if math.Abs(z-wantZ) > 1e-12 || math.Abs(p-math.Erfc(wantZ/math.Sqrt2)) > 1e-12 || math.Abs(p-0.0495) > 5e-4 {
		t.Errorf("MannWhitney = %g, %g, want %g, 0.0495", z, p, wantZ)
	}
	if z := MannWhitneyZ(b, a); math.Abs(z-wantZ) > 1e-12 {
		t.Errorf("MannWhitneyZ = %g, want %g", z, wantZ)
	}
	if p := KSPValue(0, 30, 30); p != 1 {
		t.Errorf("KSPValue(0) = %g, want 1", p)
	}
}
