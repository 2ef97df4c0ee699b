//go:build !js

package main

import (
	"math"
	"strings"
	"testing"

	"github.com/dpsample/dpsample/wasm/tools/internal/md"
)

func TestParseGoBenchLine(t *testing.T) {
	for _, c := range []struct {
		line string
		name string
		ns   float64
		ok   bool
	}{
		{"BenchmarkSampler/logistic/d=2/stochastic/n=1000-2   \t  300000\t      1234 ns/op\t  5 B/op", "BenchmarkSampler/logistic/d=2/stochastic/n=1000", 1234, true},
		{"BenchmarkGen/n=4 \t 10 \t 2.5e+06 ns/op \t 3.0 MiB/code", "BenchmarkGen/n=4", 2.5e6, true},
		{"BenchmarkL1Binary/spread-8  100  12.5 ns/op", "BenchmarkL1Binary/spread", 12.5, true},
		{"PASS", "", 0, false},
		{"BenchmarkX-2 --- SKIP", "", 0, false},
		{"ok  	github.com/dpsample/dpsample/core/sampler	3.1s", "", 0, false},
	} {
		b, ok := parseGoBenchLine(c.line)
		if ok != c.ok || b.name != c.name || b.ns != c.ns {
			t.Errorf("%q → %+v %v, want %q %g %v", c.line, b, ok, c.name, c.ns, c.ok)
		}
	}
}

func TestFormatting(t *testing.T) {
	for _, c := range []struct {
		x    float64
		want string
	}{{0, "0"}, {1.23456, "1.23"}, {12345.6, "12346"}, {2.5e7, "2.50e+07"}, {0.0001234, "1.23e-04"}, {math.NaN(), "—"}} {
		if got := md.Sig(c.x); got != c.want {
			t.Errorf("sig(%g) = %q, want %q", c.x, got, c.want)
		}
	}
	tb := md.Table([]string{"a", "b"}, [][]string{{"1", "2"}})
	if tb != "| a | b |\n|---|---|\n| 1 | 2 |\n" {
		t.Errorf("table = %q", tb)
	}
	if !strings.Contains(kib(1<<20), "1.00 MiB") {
		t.Errorf("kib = %q", kib(1<<20))
	}
}

func TestSpliceReadme(t *testing.T) {
	in := "# x\n\n## Benchmarks\n\n" + readmeBegin + "\nold\n" + readmeEnd + "\n\n## Licence\n"
	out, ok := spliceReadme(in, "new\n")
	if !ok || out != "# x\n\n## Benchmarks\n\n"+readmeBegin+"\nnew\n"+readmeEnd+"\n\n## Licence\n" {
		t.Errorf("spliceReadme = %q, %v", out, ok)
	}
	if out, ok := spliceReadme("# no markers\n", "new"); ok || out != "# no markers\n" {
		t.Errorf("without markers: %q, %v", out, ok)
	}
}
