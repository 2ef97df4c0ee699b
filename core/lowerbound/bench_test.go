package lowerbound

import (
	"context"
	"fmt"
	"testing"
)

// BenchmarkTrial measures one full trial (Gen, mechanism over D columns,
// trace, 100 ghosts) at ξ = 0.01.
func BenchmarkTrial(b *testing.B) {
	for _, n := range []int{4, 8, 16, 32} {
		for _, m := range []Mechanism{Median, Exponential} {
			b.Run(fmt.Sprintf("n=%d/%s", n, m), func(b *testing.B) {
				o := Options{N: n, Xi: .01, Mechanism: m, Epsilon: 1, Delta: 1e-6, Ghosts: 100, Seed: seed(1)}
				for b.Loop() {
					if _, err := Run(context.Background(), o, nil); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// BenchmarkSoundnessDefaults measures the trace page's defaults (n = 4,
// ξ = 1/16, median, person 1 removed, 10 ghosts per trial) over many trials
// and reports the soundness numbers and the implied ε's ceiling and limit
// (run with -benchtime=1x; the trial count is the -trials metric).
func BenchmarkSoundnessDefaults(b *testing.B) {
	for _, trials := range []int{100, 3000} {
		b.Run(fmt.Sprintf("trials=%d", trials), func(b *testing.B) {
			o := Options{N: 4, Xi: 1.0 / 16, Mechanism: Median, Remove: iptr(0), Ghosts: 10, Trials: trials, Seed: seed(17)}
			for b.Loop() {
				e, err := Run(context.Background(), o, nil)
				if err != nil {
					b.Fatal(err)
				}
				s, im := e.Soundness, e.ImpliedEpsilon
				b.ReportMetric(float64(s.Trials), "trials")
				b.ReportMetric(float64(s.RemovedHits), "removed-hits")
				b.ReportMetric(s.RemovedCI[0], "removed-CI-lo")
				b.ReportMetric(s.RemovedCI[1], "removed-CI-hi")
				b.ReportMetric(*s.RemovedExact, "removed-exact")
				b.ReportMetric(float64(e.GhostAccused), "ghost-hits")
				b.ReportMetric(float64(e.GhostScored), "ghost-n")
				b.ReportMetric(s.GhostExact, "ghost-exact")
				b.ReportMetric(s.WorstCaseGaussian, "worst-gauss")
				b.ReportMetric(s.WorstCaseExact, "worst-exact")
				b.ReportMetric(im.Lower, "implied-lower")
				if im.Estimate != nil {
					b.ReportMetric(*im.Estimate, "implied-estimate")
				}
				b.ReportMetric(*im.Ceiling, "implied-ceiling")
				b.ReportMetric(*im.Limit, "implied-limit")
			}
		})
	}
}
