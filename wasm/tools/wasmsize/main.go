//go:build !js

// Command wasmsize tells where the bytes of a Go WebAssembly module go: the
// size of each section and the code section's function bodies grouped by Go
// package (from the "name" custom section, so build without -ldflags=-s).
// `go tool nm` does not read .wasm files; this is its -size -sort size for
// js/wasm, summed per package. Each package's gzip column is its bodies
// compressed on their own (gzip -9), a guide to its share of the download.
//
//	GOOS=js GOARCH=wasm go build -trimpath -o /tmp/full.wasm ./wasm
//	go run ./wasm/tools/wasmsize [-top 40] [-depth 0] [-funcs pkg] /tmp/full.wasm
package main

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"text/tabwriter"
)

func main() {
	top := flag.Int("top", 40, "packages to list (0: all)")
	depth := flag.Int("depth", 0, "group import paths by their first n elements (0: whole package path)")
	funcs := flag.String("funcs", "", "list this package's largest functions instead")
	mainPkg := flag.String("main", "./wasm", "the module's main package, whose dependencies (GOOS=js go list -deps) name the functions")
	tags := flag.String("tags", "", "build tags of the module, for go list")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: wasmsize [-top n] [-depth n] [-funcs pkg] module.wasm")
		os.Exit(2)
	}
	b, err := os.ReadFile(flag.Arg(0))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	m, err := parse(b)
	if err != nil {
		fmt.Fprintln(os.Stderr, "wasmsize:", err)
		os.Exit(1)
	}
	n := newNamer(listDeps(*mainPkg, *tags))
	w := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	defer w.Flush()
	if *funcs != "" {
		fmt.Fprintln(w, "bytes\tfunction\t")
		for i, f := range m.largest(n, *funcs) {
			if *top > 0 && i == *top {
				break
			}
			fmt.Fprintf(w, "%d\t%s\t\n", f.size, f.name)
		}
		return
	}
	fmt.Fprintf(w, "module\t%d bytes\t\t\n", len(b))
	for _, s := range m.sections {
		fmt.Fprintf(w, "section\t%s\t%d\t%.1f%%\t\n", s.name, s.size, 100*float64(s.size)/float64(len(b)))
	}
	fmt.Fprintln(w)
	rows := m.byPackage(n, *depth)
	var code int
	for _, r := range rows {
		code += r.bytes
	}
	fmt.Fprintf(w, "package\tfuncs\tcode bytes\t%% of code\tgzip alone\t\n")
	for i, r := range rows {
		if *top > 0 && i == *top {
			break
		}
		fmt.Fprintf(w, "%s\t%d\t%d\t%.1f%%\t%d\t\n", r.pkg, r.funcs, r.bytes, 100*float64(r.bytes)/float64(code), r.gzip)
	}
	fmt.Fprintf(w, "total\t\t%d\t\t\t\n", code)
}

// listDeps runs GOOS=js GOARCH=wasm go list -deps main; on failure it warns
// and returns nil (names then group by the text before their first '.').
func listDeps(main, tags string) []string {
	cmd := exec.Command("go", "list", "-tags", tags, "-deps", main)
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		fmt.Fprintln(os.Stderr, "wasmsize: go list:", err, "(grouping by the text before the first '.')")
		return nil
	}
	return strings.Fields(string(out))
}
