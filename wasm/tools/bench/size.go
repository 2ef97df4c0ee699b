//go:build !js

package main

import (
	"os"

	"github.com/dpsample/dpsample/wasm/tools/internal/chrome"
	"github.com/dpsample/dpsample/wasm/tools/internal/stats"
)

// SizeLoad is section 5.
type SizeLoad struct {
	WasmRaw    int       `json:"wasmRawBytes"`
	WasmGzip   int       `json:"wasmGzipBytes"`   // compress/gzip, BestCompression
	WasmBrotli int       `json:"wasmBrotliBytes"` // node's zlib, quality 11
	LoadMs     []float64 `json:"loadMs"`          // navigation → window.dpsampleUIReady, cache disabled
	LoadMedian float64   `json:"loadMedianMs"`
	// Bytes on the wire of a cold load (last load, counted when the UI is
	// ready): the .wasm response and every response, with the .wasm's
	// Content-Encoding as the dev server negotiated it.
	WireWasm     float64 `json:"wireWasmBytes"`
	WireTotal    float64 `json:"wireTotalBytes"`
	WireEncoding string  `json:"wireWasmEncoding"`
}

// sizeAndLoad measures the module at wasmPath (the shipped build, without the
// dpsample_hooks tag) and times page loads of site/ as served (which, under
// ./build.sh bench, carries the hooks: the load times include their bytes).
func sizeAndLoad(wasmPath string, br *chrome.Browser) (SizeLoad, error) {
	var s SizeLoad
	raw, err := os.ReadFile(wasmPath)
	if err != nil {
		return s, err
	}
	s.WasmRaw = len(raw)
	gz, brotli, err := chrome.Compressed(raw)
	if err != nil {
		return s, err
	}
	s.WasmGzip, s.WasmBrotli = len(gz), len(brotli)
	n := 5
	if quick {
		n = 2
	}
	var w *chrome.Wire
	if s.LoadMs, w, err = br.LoadTimes(n); err != nil {
		return s, err
	}
	s.WireWasm, s.WireTotal, s.WireEncoding = w.Bytes()
	s.LoadMedian = stats.Median(s.LoadMs)
	return s, nil
}
