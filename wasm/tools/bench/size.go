//go:build !js

package main

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"os"
	"os/exec"

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
func sizeAndLoad(wasmPath string, br *browser) (SizeLoad, error) {
	var s SizeLoad
	raw, err := os.ReadFile(wasmPath)
	if err != nil {
		return s, err
	}
	s.WasmRaw = len(raw)
	gz, brotli, err := compressed(raw)
	if err != nil {
		return s, err
	}
	s.WasmGzip, s.WasmBrotli = len(gz), len(brotli)
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
	s.LoadMedian = stats.Median(s.LoadMs)
	return s, nil
}

// compressed returns raw as gzip at compress/gzip's BestCompression and as
// brotli at quality 11 (node's zlib, as ./build.sh build writes the .br
// siblings).
func compressed(raw []byte) (gz, br []byte, err error) {
	var b bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&b, gzip.BestCompression)
	zw.Write(raw)
	if err := zw.Close(); err != nil {
		return nil, nil, err
	}
	cmd := exec.Command("node", "-e", `const z = require("zlib"), fs = require("fs");
const b = fs.readFileSync(0);
process.stdout.write(z.brotliCompressSync(b, { params: { [z.constants.BROTLI_PARAM_QUALITY]: 11, [z.constants.BROTLI_PARAM_SIZE_HINT]: b.length } }));`)
	cmd.Stdin = bytes.NewReader(raw)
	if br, err = cmd.Output(); err != nil {
		return nil, nil, fmt.Errorf("brotli (node): %w", err)
	}
	return b.Bytes(), br, nil
}
