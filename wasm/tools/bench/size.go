//go:build !js

package main

import (
	"bytes"
	"compress/gzip"
	"os"
	"os/exec"
	"strconv"
	"strings"
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
func sizeAndLoad(wasmPath string, br *browser) (SizeLoad, error) {
	var s SizeLoad
	raw, err := os.ReadFile(wasmPath)
	if err != nil {
		return s, err
	}
	s.WasmRaw = len(raw)
	var gz bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&gz, gzip.BestCompression)
	zw.Write(raw)
	if err := zw.Close(); err != nil {
		return s, err
	}
	s.WasmGzip = gz.Len()
	out, err := exec.Command("node", "-e", `const z = require("zlib");
const b = z.brotliCompressSync(require("fs").readFileSync(process.argv[1]),
  { params: { [z.constants.BROTLI_PARAM_QUALITY]: 11, [z.constants.BROTLI_PARAM_SIZE_HINT]: 0 } });
process.stdout.write(String(b.length));`, wasmPath).Output()
	if err != nil {
		return s, err
	}
	if s.WasmBrotli, err = strconv.Atoi(strings.TrimSpace(string(out))); err != nil {
		return s, err
	}
	n := 5
	if quick {
		n = 2
	}
	var w *wire
	if s.LoadMs, w, err = br.loadTimes(n); err != nil {
		return s, err
	}
	w.mu.Lock()
	s.WireWasm, s.WireTotal, s.WireEncoding = w.wasm, w.total, w.wasmEnc
	w.mu.Unlock()
	s.LoadMedian = median(s.LoadMs)
	return s, nil
}
