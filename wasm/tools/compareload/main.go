//go:build !js

// Command compareload times cold loads of the page with two or more builds
// of the module, interleaved in one headless Chromium, and prints medians
// and paired differences (nothing is written):
//
//	go run ./wasm/tools/compareload -compare-load old.wasm,new.wasm [-loads 21] [-root .]
//
// It was the bench's -compare-load mode until issue 46; the bench forwards
// its old flag here.
package main

import (
	"flag"
	"fmt"
	"os"
	"strings"
)

func main() {
	root := flag.String("root", ".", "repository root")
	compare := flag.String("compare-load", "", "comma-separated .wasm files: time cold loads of index.html with each as site/dpsample.wasm, interleaved in one Chromium, print medians and paired differences, and exit (nothing is written)")
	loads := flag.Int("loads", 21, "cold loads per module")
	flag.Parse()
	if *compare == "" {
		flag.Usage()
		os.Exit(2)
	}
	if err := compareLoad(*root, strings.Split(*compare, ","), *loads, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "compareload:", err)
		os.Exit(1)
	}
}
