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
