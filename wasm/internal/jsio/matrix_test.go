//go:build js && wasm

package jsio

import (
	"errors"
	"fmt"
	"math"
	"reflect"
	"syscall/js"
	"testing"

	"github.com/dpsample/dpsample/core/checks"
)

// TestFlatMatrix: {data, shape} (FlatMatrix) reads back as the same rows as
// the array-of-rows form; a wrong shape, a short or long data, a non-finite
// value or data that is not a Float64Array is an error naming the field.
func TestFlatMatrix(t *testing.T) {
	rows := [][]float64{{1, 2, 3}, {4, 5, 6}, {-7, 0.5, 1e-300}, {8, 9, 10}}
	got, err := Matrix(FlatMatrix(rows), "req.x")
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, rows) {
		t.Fatalf("flat round trip %v, want %v", got, rows)
	}
	viaRows, err := Matrix(Float64Rows(rows), "req.x")
	if err != nil || !reflect.DeepEqual(viaRows, got) {
		t.Fatalf("rows form %v (%v), flat form %v", viaRows, err, got)
	}
	// A row's slice must not reach into the next row.
	got[0] = append(got[0], 99)
	if got[1][0] != 4 {
		t.Fatal("appending to a row overwrote the next one")
	}
	obj := func(data any, shape any) js.Value {
		o := js.Global().Get("Object").New()
		o.Set("data", data)
		o.Set("shape", shape)
		return o
	}
	f := func(v ...float64) js.Value { return Float64Array(v) }
	for _, c := range []struct {
		v     js.Value
		field string
	}{
		{obj(f(1, 2, 3, 4), []any{2}), "req.x.shape"},
		{obj(f(1, 2, 3, 4), []any{2, 0}), "req.x.shape[1]"},
		{obj(f(1, 2, 3, 4), []any{1.5, 2}), "req.x.shape[0]"},
		{obj(f(1, 2, 3), []any{2, 2}), "req.x.data"},
		{obj(f(1, 2, 3, 4, 5), []any{2, 2}), "req.x.data"},
		{obj(f(1, math.NaN(), 3, 4), []any{2, 2}), "req.x.data[1]"},
		{obj([]any{1, 2, 3, 4}, []any{2, 2}), "req.x.data"},
		{obj(f(1, 2), []any{MaxCells, 2}), "req.x"},
	} {
		for name, read := range map[string]func(js.Value, string) ([][]float64, error){"Matrix": Matrix, "MatrixPieces": MatrixPieces} {
			_, err := read(c.v, "req.x")
			var ce *checks.Error
			if !errors.As(err, &ce) || ce.Field != c.field {
				t.Errorf("%s(%s): error %v, want one naming %q", name, Describe(c.v), err, c.field)
			}
		}
	}
}

// TestMatrixPieces: a matrix of more than one piece (rows not a whole
// number of pieces) goes out (FlatMatrixPieces) and comes back
// (MatrixPieces) as FlatMatrix and Matrix write and read it; a NaN in a
// later piece is named by its index in data.
func TestMatrixPieces(t *testing.T) {
	const n, d = 100_003, 3 // 300,009 cells: two pieces of piecesCells and a bit
	rows := make([][]float64, n)
	for i := range rows {
		rows[i] = []float64{float64(i), -0.5 * float64(i), math.Sin(float64(i))}
	}
	out := FlatMatrixPieces(rows)
	whole := FlatMatrix(rows)
	a, b := make([]float64, n*d), make([]float64, n*d)
	CopyFromFloat64Array(a, out.Get("data"))
	CopyFromFloat64Array(b, whole.Get("data"))
	if !reflect.DeepEqual(a, b) || out.Get("shape").Index(0).Int() != n || out.Get("shape").Index(1).Int() != d {
		t.Fatal("FlatMatrixPieces differs from FlatMatrix")
	}
	got, err := MatrixPieces(out, "req.x")
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, rows) {
		t.Fatal("MatrixPieces(FlatMatrixPieces(rows)) differs from rows")
	}
	bad := piecesCells + 7
	out.Get("data").SetIndex(bad, math.Inf(-1))
	_, err = MatrixPieces(out, "req.x")
	var ce *checks.Error
	if !errors.As(err, &ce) || ce.Field != fmt.Sprintf("req.x.data[%d]", bad) {
		t.Errorf("−Inf at data[%d]: error %v", bad, err)
	}
}
