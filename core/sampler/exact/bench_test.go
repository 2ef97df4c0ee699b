package exact

import (
	"testing"

	"github.com/dpsample/dpsample/core/rng"
)

// BenchmarkL1Binary reports coordinates per second of the lower-bound hot path
// (n = 1000 points in {0,1} per coordinate, counts cycling over 0..n).
func BenchmarkL1Binary(b *testing.B) {
	for _, c := range []struct {
		name  string
		a, bb float64
	}{{"spread", 0.002, 2}, {"peaked", 0.05, 20}} {
		b.Run(c.name, func(b *testing.B) {
			r := rng.Seeded(1)
			L1Binary(r, 1000, 0, c.a, c.bb) // build the table
			b.ResetTimer()
			s := 0.0
			for i := 0; i < b.N; i++ {
				s += L1Binary(r, 1000, (i*7919)%1001, c.a, c.bb)
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "coords/s")
			_ = s
		})
	}
}

// BenchmarkL1Separable reports coordinates per second of the general separable
// sampler (n points per coordinate).
func BenchmarkL1Separable(b *testing.B) {
	for _, n := range []int{5, 100} {
		b.Run("n="+itoa(n), func(b *testing.B) {
			r := rng.Seeded(2)
			const d = 1000
			x := separableData(r, n, d)
			aa, bb := L1Params(50, 0.5, n, d)
			s := NewL1Separable(x, n, d, aa, bb)
			out := make([]float64, d)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				s.Sample(r, out)
			}
			b.ReportMetric(float64(b.N)*d/b.Elapsed().Seconds(), "coords/s")
		})
	}
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	s := ""
	for ; n > 0; n /= 10 {
		s = string(rune('0'+n%10)) + s
	}
	return s
}
