//go:build js && wasm

package estimate

import (
	"math"
	"testing"

	"github.com/dpsample/dpsample/core/dataset"
	"github.com/dpsample/dpsample/wasm/ui/estimate/internal/report"
)

// TestScaleInPieces: a table scaled a piece of rowsPiece rows at a time is
// the table Scale gives in one go — the same cells and clamped count — and
// a missing range is the same error; withIntercept adds a column of ones
// to a copy; plottedOf copies every plotStep-th row.
func TestScaleInPieces(t *testing.T) {
	n := 2*rowsPiece + 77
	mk := func() *dataset.Table {
		tab := &dataset.Table{Columns: []string{"a", "b"}, X: make([][]float64, n)}
		for i := range tab.X {
			tab.X[i] = []float64{math.Sin(float64(i)) * 12, float64(i%7) - 3}
		}
		return tab
	}
	ranges := map[string]dataset.Range{"a": {Lo: -10, Hi: 10}, "b": {Lo: -2, Hi: 3}}
	whole, pieces := mk(), mk()
	if err := whole.Scale(ranges); err != nil {
		t.Fatal(err)
	}
	if err := scaleInPieces(pieces, ranges); err != nil {
		t.Fatal(err)
	}
	if whole.Clamped == 0 || pieces.Clamped != whole.Clamped {
		t.Errorf("clamped %d in pieces, %d whole", pieces.Clamped, whole.Clamped)
	}
	for i := range whole.X {
		if whole.X[i][0] != pieces.X[i][0] || whole.X[i][1] != pieces.X[i][1] {
			t.Fatalf("row %d: %v in pieces, %v whole", i, pieces.X[i], whole.X[i])
		}
	}
	err := scaleInPieces(mk(), map[string]dataset.Range{"a": {Lo: -1, Hi: 1}})
	if want := mk().Scale(map[string]dataset.Range{"a": {Lo: -1, Hi: 1}}); err == nil || err.Error() != want.Error() {
		t.Errorf("missing range: %v, want %v", err, want)
	}
	x := withIntercept(pieces.X)
	if len(x) != n || len(x[n-1]) != 3 || x[n-1][2] != 1 || x[n-1][0] != pieces.X[n-1][0] || cap(x[0]) != 3 {
		t.Errorf("withIntercept: last row %v (cap %d), from %v", x[n-1], cap(x[0]), pieces.X[n-1])
	}
	p := report.PlottedOf(mk().X)
	if p.N != n || p.Step != report.PlotStep(n) || len(p.Rows) != (n+p.Step-1)/p.Step || p.Rows[1][0] != mk().X[p.Step][0] {
		t.Errorf("plottedOf: n %d, step %d, %d rows", p.N, p.Step, len(p.Rows))
	}
}
