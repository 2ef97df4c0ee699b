package loss

import (
	"testing"
	"time"

	"github.com/dpsample/dpsample/core/rng"
)

// BenchmarkPass times, side by side in one benchmark, b.N Linearize passes
// and b.N Bregman passes of each smooth loss over n = 10,000 rows, d = 30
// (the first-order sampler's two kinds of data pass), with pass.go and with
// the reference loops it replaced (pass_ref_test.go), and reports ns per row
// of each and their ratio:
//
//	go test -run xxx -bench Pass ./core/loss/
//	GOOS=js GOARCH=wasm go test -run xxx -bench Pass -exec="$(go env GOROOT)/lib/wasm/go_js_wasm_exec" ./core/loss/
func BenchmarkPass(b *testing.B) {
	const n, d = 10_000, 30
	for _, k := range smoothKinds {
		r := rng.Seeded(11)
		x, y := data(r, k, n, d)
		s, err := New(k, x, y, Params{Huber: 0.5, Tau: 0.3})
		if err != nil {
			b.Fatal(err)
		}
		z, u := randVec(r, d, 1), randVec(r, d, 1)
		g, lin := make([]float64, d), make([]float64, 3*n)
		perRow := func(t time.Duration, m int) float64 { return float64(t.Nanoseconds()) / float64(m) / n }
		b.Run(k.String(), func(b *testing.B) {
			t0 := time.Now()
			for i := 0; i < b.N; i++ {
				s.refLinearize(z, g, lin)
			}
			t1 := time.Now()
			for i := 0; i < b.N; i++ {
				s.Linearize(z, g, lin)
			}
			t2 := time.Now()
			for i := 0; i < b.N; i++ {
				s.refBregman(u, lin)
			}
			t3 := time.Now()
			for i := 0; i < b.N; i++ {
				s.Bregman(u, lin)
			}
			t4 := time.Now()
			lr, ln := perRow(t1.Sub(t0), b.N), perRow(t2.Sub(t1), b.N)
			br, bn := perRow(t3.Sub(t2), b.N), perRow(t4.Sub(t3), b.N)
			b.ReportMetric(lr, "lin-ref-ns/row")
			b.ReportMetric(ln, "lin-ns/row")
			b.ReportMetric(br, "breg-ref-ns/row")
			b.ReportMetric(bn, "breg-ns/row")
			b.ReportMetric((lr+br)/(ln+bn), "speedup")
		})
	}
}
