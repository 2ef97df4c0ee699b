//go:build js && wasm

package pieces

import (
	"math"
	"strings"
	"syscall/js"
	"testing"

	"github.com/dpsample/dpsample/core/dataset"
	"github.com/dpsample/dpsample/wasm/internal/jsio"
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

// TestRowsKeepsNaN (issue 51): the flat matrix of parseCSV({flat: true,
// missing: "fill"}) reads back with its NaN cells (a missing number, filled
// by Scale: a NaN becomes 0 there, in pieces too) and every other cell bit
// for bit; ±Inf and a bad shape are errors naming x.
func TestRowsKeepsNaN(t *testing.T) {
	n := RowsPiece + 5
	rows := make([][]float64, n)
	for i := range rows {
		rows[i] = []float64{float64(i), math.NaN(), -0.5}
	}
	rows[3][1] = 7
	got, err := Rows(jsio.FlatMatrix(rows))
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != n || got[n-1][0] != float64(n-1) || !math.IsNaN(got[0][1]) || got[3][1] != 7 || got[2][2] != -0.5 {
		t.Fatalf("rows %d: %v … %v", len(got), got[0], got[n-1])
	}
	tab := &dataset.Table{Columns: []string{"a", "b", "c"}, X: got}
	if err := Scale(tab, map[string]dataset.Range{"a": {Lo: 0, Hi: float64(n)}, "b": {Lo: 0, Hi: 10}, "c": {Lo: -1, Hi: 1}}); err != nil {
		t.Fatal(err)
	}
	if tab.X[0][1] != 0 || tab.X[3][1] != 0.4 || tab.X[n-1][1] != 0 {
		t.Errorf("scaled: %v %v", tab.X[0], tab.X[3])
	}
	rows[1][2] = math.Inf(1)
	if _, err := Rows(jsio.FlatMatrix(rows)); err == nil || !strings.HasPrefix(err.Error(), "x.data[5] must") {
		t.Errorf("+Inf: %v", err)
	}
	if _, err := Rows(js.ValueOf(map[string]any{"shape": []any{"2", 1}})); err == nil || !strings.HasPrefix(err.Error(), "x must") {
		t.Errorf("bad shape: %v", err)
	}
}
