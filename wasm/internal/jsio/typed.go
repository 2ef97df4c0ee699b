//go:build js && wasm

package jsio

import (
	"syscall/js"
	"unsafe"
)

// Float64Bytes views a []float64 as its bytes (little-endian on wasm), for
// js.CopyBytesToJS / js.CopyBytesToGo.
func Float64Bytes(v []float64) []byte {
	if len(v) == 0 {
		return nil
	}
	return unsafe.Slice((*byte)(unsafe.Pointer(&v[0])), len(v)*8)
}

// Float64Array copies v into a new JS Float64Array (one bulk copy, not one
// js.Value per element).
func Float64Array(v []float64) js.Value {
	arr := js.Global().Get("Float64Array").New(len(v))
	if len(v) > 0 {
		bytes := js.Global().Get("Uint8Array").New(arr.Get("buffer"))
		js.CopyBytesToJS(bytes, Float64Bytes(v))
	}
	return arr
}

// Float64Rows converts rows to a JS array of Float64Array rows, the bulk
// format the API accepts for a matrix (Matrix reads it back).
func Float64Rows(rows [][]float64) js.Value {
	out := js.Global().Get("Array").New(len(rows))
	for i, r := range rows {
		out.SetIndex(i, Float64Array(r))
	}
	return out
}

// bytesOf returns a Uint8Array over the bytes of the typed array a (which
// may live on a SharedArrayBuffer).
func bytesOf(a js.Value) js.Value {
	return js.Global().Get("Uint8Array").New(a.Get("buffer"), a.Get("byteOffset"), a.Get("byteLength"))
}

// CopyToFloat64Array copies src into the Float64Array dst (len(src) ≤ its
// length); one bulk copy.
func CopyToFloat64Array(dst js.Value, src []float64) {
	if len(src) > 0 {
		js.CopyBytesToJS(bytesOf(dst), Float64Bytes(src))
	}
}

// CopyFromFloat64Array fills dst from the Float64Array src and returns the
// number of values copied (min(len(dst), its length)); one bulk copy.
func CopyFromFloat64Array(dst []float64, src js.Value) int {
	if len(dst) == 0 {
		return 0
	}
	return js.CopyBytesToGo(Float64Bytes(dst), bytesOf(src)) / 8
}

// Float64View is a Uint8Array made once over a Float64Array's bytes, for
// repeated bulk copies (a pass of the shard protocol) without the four calls
// into JS that building the byte view costs each time.
type Float64View struct {
	bytes js.Value
	n     int
}

// NewFloat64View returns the view of the Float64Array a (which may live on
// a SharedArrayBuffer).
func NewFloat64View(a js.Value) Float64View { return Float64View{bytesOf(a), a.Length()} }

// Len is the number of float64 values in the view.
func (v Float64View) Len() int { return v.n }

// CopyFrom fills dst from the view and returns the number of values copied
// (min(len(dst), Len())).
func (v Float64View) CopyFrom(dst []float64) int {
	if len(dst) == 0 {
		return 0
	}
	return js.CopyBytesToGo(Float64Bytes(dst), v.bytes) / 8
}

// CopyTo copies src (len(src) ≤ Len()) into the view.
func (v Float64View) CopyTo(src []float64) {
	if len(src) > 0 {
		js.CopyBytesToJS(v.bytes, Float64Bytes(src))
	}
}
