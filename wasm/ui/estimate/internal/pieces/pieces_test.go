//go:build js && wasm

package pieces

import (
	"math"
	"testing"

	"github.com/dpsample/dpsample/core/dataset"
)

// TestScaleInPieces: a table scaled a piece of RowsPiece rows at a time is
// the table Scale gives in one go — the same cells and clamped count — and
// a missing range is the same error; WithIntercept adds a column of ones
// to a copy.
func TestScaleInPieces(t *testing.T) {
	n := 2*RowsPiece + 77
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
	if err := Scale(pieces, ranges); err != nil {
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
	err := Scale(mk(), map[string]dataset.Range{"a": {Lo: -1, Hi: 1}})
	if want := mk().Scale(map[string]dataset.Range{"a": {Lo: -1, Hi: 1}}); err == nil || err.Error() != want.Error() {
		t.Errorf("missing range: %v, want %v", err, want)
	}
	x := WithIntercept(pieces.X)
	if len(x) != n || len(x[n-1]) != 3 || x[n-1][2] != 1 || x[n-1][0] != pieces.X[n-1][0] || cap(x[0]) != 3 {
		t.Errorf("WithIntercept: last row %v (cap %d), from %v", x[n-1], cap(x[0]), pieces.X[n-1])
	}
}
