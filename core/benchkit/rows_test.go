package benchkit

import (
	"context"
	"fmt"
	"runtime"
	"testing"
	"time"

	"github.com/dpsample/dpsample/core/mechanism"
)

// BenchmarkRowsPerTab draws, side by side in one benchmark, one first-order
// sample of the rows-per-tab table (RowsRequest) on one worker and on
// runtime.NumCPU() workers for n = 2,000, 10,000 and 20,000, and reports T,
// seconds per sample of each, the speed-up and the speed-up per worker
// (the two samples are the same bits):
//
//	go test -run xxx -bench RowsPerTab -benchtime 1x ./core/benchkit/
func BenchmarkRowsPerTab(b *testing.B) {
	cores := runtime.NumCPU()
	for _, n := range RowsN {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			var secs [2]float64
			var plan mechanism.Plan
			for i := 0; i < b.N; i++ {
				for k, w := range []int{1, cores} {
					t0 := time.Now()
					res, err := mechanism.Sample(context.Background(), RowsRequest(n, w), nil)
					if err != nil {
						b.Fatal(err)
					}
					secs[k] += time.Since(t0).Seconds()
					plan = res.Plan
				}
			}
			b.ReportMetric(float64(plan.Steps), "T")
			b.ReportMetric(float64(plan.Workers), "W")
			b.ReportMetric(secs[0]/float64(b.N), "s/sample-W1")
			b.ReportMetric(secs[1]/float64(b.N), "s/sample-Wcores")
			b.ReportMetric(secs[0]/secs[1], "speedup")
			b.ReportMetric(secs[0]/secs[1]/float64(plan.Workers), "speedup/worker")
		})
	}
}
