//go:build !js

// Command wasmpack rewrites the data section of a Go WebAssembly module so
// that it is smaller compressed, leaving every other section byte for byte.
// It does two things.
//
// Go's linker (cmd/link/internal/wasm, writeDataSec) starts a new data
// segment at every run of 8 or more zero bytes, which minimises the raw size:
// dpsample's module has ≈ 87,000 segments, most of them separated by 18 zero
// bytes, and ≈ 700 KB of segment headers whose offsets compress poorly.
// wasmpack merges segments separated by fewer than -gap zero bytes, writing
// the zeros out. The memory image the module starts with is unchanged (it is
// checked before the file is written); the raw file grows by ≈ 12 % and its
// gzip size drops by ≈ 9 % (brotli ≈ 8 %), see `./build.sh build`'s output.
//
// Unless -keep-lines, it also removes the file and line tables of Go's
// function table (lines.go: ≈ 200 KB of the page module's memory image,
// −9 % brotli, −8 % gzip): a traceback then names each function but not its
// file and line ("?:0"). Everything the runtime needs to run — stack sizes,
// stack maps, function names — is kept, and the layout is checked first.
//
//	go run ./wasm/tools/wasmpack [-gap 4096] [-keep-lines] module.wasm   (rewrites the file in place)
package main

import (
	"flag"
	"fmt"
	"os"
)

func main() {
	gap := flag.Int("gap", 4096, "merge segments separated by fewer than this many zero bytes")
	keepLines := flag.Bool("keep-lines", false, "keep the file and line tables (tracebacks with file:line)")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: wasmpack [-gap n] [-keep-lines] module.wasm")
		os.Exit(2)
	}
	path := flag.Arg(0)
	in, err := os.ReadFile(path)
	if err != nil {
		fmt.Fprintln(os.Stderr, "wasmpack:", err)
		os.Exit(1)
	}
	out, st, err := pack(in, *gap, !*keepLines)
	if err != nil {
		fmt.Fprintln(os.Stderr, "wasmpack:", path+":", err)
		if !*keepLines {
			fmt.Fprintln(os.Stderr, "wasmpack: with -keep-lines the function table is left as the linker wrote it")
		}
		os.Exit(1)
	}
	if err := os.WriteFile(path, out, 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "wasmpack:", err)
		os.Exit(1)
	}
	fmt.Printf("wasmpack: %s: %d → %d data segments, %d → %d bytes", path, st.before, st.after, len(in), len(out))
	if st.lines != nil {
		fmt.Printf("; line tables of %d functions removed (%d tables, %d bytes)", st.lines.funcs, st.lines.tables, st.lines.bytes)
	}
	fmt.Println()
}
