//go:build js && wasm

package estimate

import (
	"testing"

	"github.com/dpsample/dpsample/wasm/ui/estimate/internal/report"
)

// TestPlottedOf: plottedOf copies every plotStep-th row.
func TestPlottedOf(t *testing.T) {
	n := 300000
	x := make([][]float64, n)
	for i := range x {
		x[i] = []float64{float64(i)}
	}
	p := report.PlottedOf(x)
	if p.N != n || p.Step != report.PlotStep(n) || len(p.Rows) != (n+p.Step-1)/p.Step || p.Rows[1][0] != x[p.Step][0] {
		t.Errorf("plottedOf: n %d, step %d, %d rows", p.N, p.Step, len(p.Rows))
	}
}
