//go:build js && wasm

package main

import "unsafe"

// float64Bytes views a []float64 as its bytes (little-endian on wasm), for
// js.CopyBytesToJS / js.CopyBytesToGo.
func float64Bytes(v []float64) []byte {
	if len(v) == 0 {
		return nil
	}
	return unsafe.Slice((*byte)(unsafe.Pointer(&v[0])), len(v)*8)
}
