//go:build !js

package main

import (
	"fmt"
	"math"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/dpsample/dpsample/core/rng"
)

// targetHeader matches a column header that states a target: "target",
// "goal" or a bound such as "≤ 1.3".
var targetHeader = regexp.MustCompile(`(?i)target|goal|[≤<]\s*[0-9]`)

// targetOnInvariant returns an error if a Markdown table in md has a target
// column and a row for a method whose excess-risk law is the same at every d
// by construction (dimInvariant): for those, a target on a d-comparison
// tests nothing (issue 16: "no target ≤ 1.3 column on quantities that are 1
// by construction").
func targetOnInvariant(md string) error {
	lines := strings.Split(md, "\n")
	for i := 0; i+1 < len(lines); i++ {
		if !strings.HasPrefix(lines[i], "|") || !strings.HasPrefix(lines[i+1], "|---") {
			continue
		}
		head := cells(lines[i])
		target := slices.ContainsFunc(head, targetHeader.MatchString)
		for j := i + 2; j < len(lines) && strings.HasPrefix(lines[j], "|"); j++ {
			if !target {
				continue
			}
			for _, c := range cells(lines[j]) {
				if slices.Contains(AllMethods(), c) && dimInvariant(c) {
					return fmt.Errorf("table %q has a target column and a row for %s, whose risk law is the same at every d: %s", lines[i], c, lines[j])
				}
			}
		}
	}
	return nil
}

func cells(line string) []string {
	parts := strings.Split(strings.Trim(line, "|"), "|")
	for i := range parts {
		parts[i] = strings.TrimSpace(parts[i])
	}
	return parts
}

// TestTargetOnInvariantCatches: the checker fails the old report's ratio
// table (a "≤ 1.3" column on Algorithm 1's ratio, 1 by construction) and a
// "target" column on unprojected DP-GD, and passes a target column whose
// rows are projected DP-GD or plain numbers.
func TestTargetOnInvariantCatches(t *testing.T) {
	bad := []string{
		table([]string{"loss", "rank", "ε", "method", "ratio ± SE", "≤ 1.3"}, [][]string{{"logistic", "1", "1", MethodExponential, "0.9 ± 0.2", "yes"}}),
		table([]string{"method", "ratio", "target"}, [][]string{{MethodDPGD, "1.1", "1"}}),
		table([]string{"method", "ratio", "Goal"}, [][]string{{MethodExpLatent, "1.1", "1"}}),
	}
	for _, md := range bad {
		if targetOnInvariant("text\n\n"+md+"\nmore") == nil {
			t.Errorf("not caught:\n%s", md)
		}
	}
	good := []string{
		table([]string{"method", "ratio", "target"}, [][]string{{MethodDPGDProjected, "3", "—"}}),
		table([]string{"ε", "Algorithm 1", "target", "verdict"}, [][]string{{"1", "0.8", "0.76", "met"}}),
		table([]string{"method", "ratio [95 % CI]"}, [][]string{{MethodExponential, "1.0 [0.8, 1.2]"}}),
	}
	for _, md := range good {
		if err := targetOnInvariant(md); err != nil {
			t.Errorf("false alarm: %v", err)
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
		ci := bootstrapCI(xs, median, uint64(i))
		if ci[0] <= 0 && 0 <= ci[1] {
			cover++
		}
		if ci[0] > ci[1] || median(xs) < ci[0] || median(xs) > ci[1] {
			t.Fatalf("interval %v does not contain the sample median %g", ci, median(xs))
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
	if ci := ratioCI(lo, hi, 1); ci[0] > 2 || ci[1] < 2 || math.IsNaN(ci[0]) {
		t.Errorf("ratio interval %v does not contain 2", ci)
	}
}

// brokenCI is bootstrapCI narrowed about its centre to the width of a
// nominal 50 % normal interval (×0.674/1.96).
func brokenCI(xs []float64, seed uint64) [2]float64 {
	c := bootstrapCI(xs, median, seed) // same resamples, then narrowed
	mid := (c[0] + c[1]) / 2
	half := (c[1] - c[0]) / 2 * 0.674 / 1.96
	return [2]float64{mid - half, mid + half}
}
