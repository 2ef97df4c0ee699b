//go:build js && wasm

// Package pieces does the estimate view's work on a large table a piece at
// a time, the event loop running between pieces (issue 29 item 4): copying
// a held JS string into Go, scaling the rows, adding the intercept, and
// handing the rows to the worker as one Float64Array. Call its functions
// from a goroutine.
package pieces

import (
	"fmt"
	"math"
	"strings"
	"syscall/js"

	"github.com/dpsample/dpsample/core/checks"
	"github.com/dpsample/dpsample/core/dataset"
	"github.com/dpsample/dpsample/wasm/internal/jsio"
)

// WithIntercept copies rows into one backing array, with a last column of
// ones (the intercept). A large table is copied a piece of RowsPiece rows at
// a time, the event loop running between pieces (issue 29 item 4): call it
// from a goroutine.
func WithIntercept(rows [][]float64) [][]float64 {
	if len(rows) == 0 {
		return nil
	}
	d := len(rows[0]) + 1
	flat := make([]float64, len(rows)*d)
	out := make([][]float64, len(rows))
	for i, r := range rows {
		row := flat[i*d : (i+1)*d : (i+1)*d]
		copy(row, r)
		row[d-1] = 1
		out[i] = row
		if (i+1)%RowsPiece == 0 {
			jsio.Yield()
		}
	}
	return out
}

// RowsPiece is the rows of a piece of WithIntercept and Scale: ≈ 10–30
// ms in Chromium at a few columns.
const RowsPiece = 1 << 17

// Scale is t.Scale(ranges) a piece of RowsPiece rows at a time, the
// event loop running between pieces (Scale transforms each row on its own;
// the clamped cells are summed). Call it from a goroutine.
func Scale(t *dataset.Table, ranges map[string]dataset.Range) error {
	for a := 0; a < len(t.X) || a == 0; a += RowsPiece {
		part := *t
		part.X, part.Clamped = t.X[a:min(a+RowsPiece, len(t.X))], 0
		if err := part.Scale(ranges); err != nil {
			return err
		}
		t.Clamped += part.Clamped
		if a+RowsPiece < len(t.X) {
			jsio.Yield()
		}
	}
	return nil
}

// GoString copies the JS string s into Go a piece at a time (256 Ki UTF-16
// units, never splitting a surrogate pair), yielding to the event loop
// between pieces: in one piece a 10 MB copy is a task of 100 ms or more,
// and a piece of 1 Mi units still took 60–80 ms in Chromium.
func GoString(s js.Value) string {
	const piece = 1 << 18
	n := StrLen(s)
	if n <= piece {
		return s.String()
	}
	s = js.Global().Get("Object").New(s) // a String object: its methods can be called from Go
	var b strings.Builder
	b.Grow(n + n/8)
	for i := 0; i < n; {
		j := min(i+piece, n)
		if j < n {
			if c := s.Call("charCodeAt", j-1).Int(); c >= 0xD800 && c <= 0xDBFF {
				j-- // a high surrogate: its pair goes with the next piece
			}
		}
		b.WriteString(s.Call("substring", i, j).String())
		i = j
		jsio.Yield()
	}
	return b.String()
}

// StrLen is the length of the JS string s (js.Value.Length panics on a
// primitive; the String wrapper does not copy the text).
func StrLen(s js.Value) int { return js.Global().Get("Object").New(s).Get("length").Int() }

// FlatRequest encodes a request (without its rows) for the worker and adds
// the rows x as one Float64Array ({data, shape}: jsio.Matrix reads it), so
// that a large table is one copy, not a JS object per row, made a piece at
// a time. Call it from a goroutine.
func FlatRequest(req any, x [][]float64) js.Value {
	o := jsio.EncodeTyped(req)
	o.Set("x", jsio.FlatMatrixPieces(x))
	return o
}

// Rows reads the flat matrix {data: Float64Array, shape: [n, d]} that
// data.parseCSV returns with {flat: true} into n rows sharing one backing
// array, copied a piece of RowsPiece·d cells at a time, the event loop running
// between pieces (like jsio.MatrixPieces). Unlike jsio.MatrixPieces it keeps a
// NaN: under {missing: "fill"} a missing number is NaN until Scale fills it
// (dataset/missing.go, issue 51). ±Inf is an error naming x. Call it from a
// goroutine.
func Rows(v js.Value) ([][]float64, error) {
	sh, data := v.Get("shape"), v.Get("data")
	if !jsio.IsArray(sh) || sh.Length() != 2 || sh.Index(0).Type() != js.TypeNumber || sh.Index(1).Type() != js.TypeNumber ||
		data.Type() != js.TypeObject || !data.InstanceOf(js.Global().Get("Float64Array")) {
		return nil, &checks.Error{Field: "x", Rule: "{data: Float64Array, shape: [rows, columns]}", Got: jsio.Describe(v)}
	}
	n, d := sh.Index(0).Int(), sh.Index(1).Int()
	if n < 1 || d < 1 || data.Length() != n*d {
		return nil, &checks.Error{Field: "x", Rule: "a Float64Array of shape[0]·shape[1] values", Got: fmt.Sprintf("%d values for %d×%d", data.Length(), n, d)}
	}
	flat := make([]float64, n*d)
	piece := RowsPiece / 4 * d
	for a := 0; a < len(flat); a += piece {
		b := min(a+piece, len(flat))
		bytes := js.Global().Get("Uint8Array").New(data.Get("buffer"), data.Get("byteOffset").Int()+8*a, 8*(b-a))
		js.CopyBytesToGo(jsio.Float64Bytes(flat[a:b]), bytes)
		for i, x := range flat[a:b] {
			if math.IsInf(x, 0) {
				return nil, checks.Finite(fmt.Sprintf("x.data[%d]", a+i), x)
			}
		}
		if b < len(flat) {
			jsio.Yield()
		}
	}
	rows := make([][]float64, n)
	for i := range rows {
		rows[i] = flat[i*d : (i+1)*d : (i+1)*d]
		if (i+1)%RowsPiece == 0 {
			jsio.Yield()
		}
	}
	return rows, nil
}
