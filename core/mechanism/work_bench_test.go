package mechanism

import (
	"context"
	"math"
	"testing"
	"time"
)

// BenchmarkFixedWorkCall prices fixedWork for a whole mechanism.Sample call
// (plan, sampler, rounding, the non-private fit) side by side in one run:
// every iteration makes the same seeded call with fixedWork on and off, and
// the benchmark reports both seconds per call and their ratio, at the page's
// default shapes (docs/DEFAULTS.md: clip √dim, C by the loss family's rule,
// ε = 1, δ = 1e-5):
//
//	go test -run xxx -bench FixedWorkCall -benchtime 5x ./core/mechanism/
//
// first-order: breast cancer's 3 default features + intercept (logistic,
// n = 569, clip 2, C 2); zeroth-order: breast cancer hinge (same shape) and
// penguins LAD (n = 333, 2 features + intercept, clip √3, C 2/√3).
func BenchmarkFixedWorkCall(b *testing.B) {
	for _, c := range []struct {
		name    string
		loss    string
		n, d    int
		clip, r float64
	}{
		{"logistic/n=569,d=4", "logistic", 569, 4, 2, 2},
		{"hinge/n=569,d=4", "hinge", 569, 4, 2, 2},
		{"lad/n=333,d=3", "lad", 333, 3, math.Sqrt(3), 2 / math.Sqrt(3)},
	} {
		b.Run(c.name, func(b *testing.B) {
			x, y := smallGLM(c.n, c.d, c.loss != "lad")
			var sec [2]float64
			var method string
			off := false
			if _, err := Sample(context.Background(), Request{Loss: c.loss, X: x, Y: y, Epsilon: 1, Delta: 1e-5, Radius: c.r, Clip: c.clip, FixedWork: &off, Seed: seed(1 << 40)}, nil); err != nil {
				b.Fatal(err) // warm-up (JIT under wasm), untimed
			}
			b.ResetTimer()
			for k := 0; k < b.N; k++ {
				for i, fixed := range []bool{false, true} {
					req := Request{Loss: c.loss, X: x, Y: y, Epsilon: 1, Delta: 1e-5, Radius: c.r, Clip: c.clip, FixedWork: &fixed, Seed: seed(uint64(k))}
					t0 := time.Now()
					res, err := Sample(context.Background(), req, nil)
					if err != nil {
						b.Fatal(err)
					}
					sec[i] += time.Since(t0).Seconds()
					method = res.Plan.Method
				}
			}
			b.ReportMetric(sec[0]/float64(b.N), "adaptive-s/call")
			b.ReportMetric(sec[1]/float64(b.N), "fixed-s/call")
			b.ReportMetric(sec[1]/sec[0], "fixed/adaptive")
			b.Logf("%s: %s", c.name, method)
		})
	}
}
