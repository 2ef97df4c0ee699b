package fingerprint

import (
	"fmt"
	"testing"

	"github.com/dpsample/dpsample/core/rng"
)

var benchSizes = []int{4, 8, 16, 32}

// BenchmarkGen measures Gen at full length (ξ = 0.01) and reports the code's
// memory (the bytes New allocates for the key).
func BenchmarkGen(b *testing.B) {
	for _, n := range benchSizes {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			r := rng.Seeded(1)
			var c *Code
			for b.Loop() {
				c, _ = New(Params{N: n, Xi: .01}, r)
			}
			b.ReportMetric(float64(c.Bytes)/(1<<20), "MiB/code")
			b.ReportMetric(float64(c.Length), "columns")
		})
	}
}

// BenchmarkTrace measures one Trace of a majority output at full length
// (ξ = 0.01); the target is < 50 ms at n = 32.
func BenchmarkTrace(b *testing.B) {
	for _, n := range benchSizes {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			r := rng.Seeded(2)
			c, _ := New(Params{N: n, Xi: .01}, r)
			w := majority(c, -1, r)
			b.ResetTimer()
			for b.Loop() {
				if _, err := c.TraceWord(w); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkInnocentRates runs the heavy soundness/completeness settings
// (Definition G.1 for Algorithm 2; run with -benchtime=1x) and reports the
// measured rates as metrics.
func BenchmarkInnocentRates(b *testing.B) {
	cases := []struct {
		p              Params
		trials, ghosts int
	}{
		{Params{N: 4, Xi: .01}, 400, 200},
		{Params{N: 8, Xi: .1}, 150, 200},
		{Params{N: 8, Xi: .01}, 100, 200},
		{Params{N: 16, Xi: .1}, 30, 100},
	}
	for _, c := range cases {
		b.Run(fmt.Sprintf("n=%d/xi=%g", c.p.N, c.p.Xi), func(b *testing.B) {
			t := &testing.T{}
			for b.Loop() {
				st := run(t, c.p, c.trials, c.ghosts, 71, majority, traceConfig{})
				r, se := st.rate()
				b.ReportMetric(r, "innocent-rate")
				b.ReportMetric(se, "innocent-se")
				b.ReportMetric(st.refRate, "exact-innocent-rate")
				b.ReportMetric(float64(st.fails), "trace-failures")
				b.ReportMetric(st.meanMargin, "mean-margin")
			}
		})
	}
}

// BenchmarkWorstCase measures the all-ones output's innocent rate with ghosts
// at the settings (n = 4, ξ = 1e-3 and 1e-4) and reports it with its
// 95% Clopper–Pearson interval (valid given the codes, see inBand), the exact
// mean and Φ̄(threshold/√d₀). Run with -benchtime=1x.
func BenchmarkWorstCase(b *testing.B) {
	for _, xi := range []float64{1e-3, 1e-4} {
		b.Run(fmt.Sprintf("xi=%g", xi), func(b *testing.B) {
			t := &testing.T{}
			p := Params{N: 4, Xi: xi}
			for b.Loop() {
				st := run(t, p, 40, 10000, 72, allOnes, traceConfig{})
				lo, hi := cpInterval(st.ghostAccused, st.ghostN, 0.05)
				l, _ := Compute(p)
				b.ReportMetric(float64(st.ghostAccused), "hits")
				b.ReportMetric(float64(st.ghostN), "ghosts")
				b.ReportMetric(float64(st.ghostAccused)/float64(st.ghostN), "rate")
				b.ReportMetric(lo, "CI-lo")
				b.ReportMetric(hi, "CI-hi")
				b.ReportMetric(st.refRate, "exact")
				b.ReportMetric(l.GaussianWorstCase(), "gauss")
			}
		})
	}
}
