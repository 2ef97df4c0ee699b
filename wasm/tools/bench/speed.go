//go:build !js

package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/dpsample/dpsample/core/benchkit"
	"github.com/dpsample/dpsample/core/mechanism"
	"github.com/dpsample/dpsample/wasm/tools/internal/chrome"
	"github.com/dpsample/dpsample/wasm/tools/internal/stats"
)

// Speed is section 1: the same kernels timed in three places.
type Speed struct {
	Protocol string       `json:"protocol"`
	Kernels  []SpeedRow   `json:"kernels"`
	GoTest   []GoTestRow  `json:"goTest,omitempty"`
	Sample   SampleTarget `json:"sampleTargets"`
}

// SampleTarget is issue 12's speed benchmark: one logistic sample at the
// shape of breast cancer's training split (n = 455, d = 30, C = 10,
// δ = 1e-5), T from mechanism.NewPlan, the seconds of one whole
// mechanism.Sample call (benchkit's mechanism/… kernels, fastest of the
// timed calls) natively, under node and in Chromium in the same run, and
// the first-order step's Chromium/native ratio.
type SampleTarget struct {
	Steps1, Steps5          int     // T at ε = 1 and ε = 5
	Method                  string  // the plan's sampler
	Native1, Node1, Chrom1  float64 // seconds per sample at ε = 1
	Native5, Node5, Chrom5  float64 // seconds per sample at ε = 5
	StepNativeUs, StepRatio float64 // first-order step: native µs, Chromium/native
}

// SpeedRow is one kernel: nanoseconds per unit of work in each place
// (fastest timed call) and the wasm/native ratios.
type SpeedRow struct {
	benchkit.Info
	NativeNs   float64   `json:"nativeNsPerUnit"`
	NodeNs     float64   `json:"nodeNsPerUnit"`
	ChromiumNs float64   `json:"chromiumNsPerUnit"`
	NodeRatio  float64   `json:"nodeRatio"`
	ChromRatio float64   `json:"chromiumRatio"`
	NativeMs   []float64 `json:"nativeMs"`
	NodeMs     []float64 `json:"nodeMs"`
	ChromiumMs []float64 `json:"chromiumMs"`
}

// GoTestRow is one `go test -bench` line present in both runs.
type GoTestRow struct {
	Name     string  `json:"name"`
	NativeNs float64 `json:"nativeNsPerOp"`
	WasmNs   float64 `json:"wasmNodeNsPerOp"`
	Ratio    float64 `json:"ratio"`
}

// job is one kernel's timing plan, shared by the three places.
type job struct {
	Name  string `json:"name"`
	Iters int    `json:"iters"`
	Warm  int    `json:"warm"`
	Reps  int    `json:"reps"`
}

func jobs() []job {
	var js []job
	for _, k := range benchkit.Kernels() {
		j := job{Name: k.Name, Iters: k.Iters, Warm: 2, Reps: 7}
		if quick {
			j.Iters, j.Warm, j.Reps = max(1, k.Iters/4), 1, 3
		}
		js = append(js, j)
	}
	return js
}

const protocol = "each kernel: %d warm-up calls in each place (V8 tiers hot functions up from Liftoff between calls), then %d rounds of one timed call natively, one under node and one in Chromium, interleaved so that the three see the same background load; each call runs a fixed iteration count and the fastest call per place is reported (the machine is shared: interference only adds time, so the minimum is the least disturbed estimate; every call is in docs/benchmarks.json). Every call is timed inside Go (time.Now) around the same benchkit kernel: natively in the runner, and in site/dpsample.wasm through dpsample._bench.run under node and on the page's main thread in headless Chromium."

// place runs job lists somewhere and returns {name: [ms per timed call]}.
type place func([]job) (map[string][]float64, error)

func nativePlace(js []job) (map[string][]float64, error) {
	out := map[string][]float64{}
	for _, j := range js {
		out[j.Name] = []float64{}
		for i := 0; i < j.Warm+j.Reps; i++ {
			d, err := benchkit.Time(j.Name, j.Iters)
			if err != nil {
				return nil, err
			}
			if i >= j.Warm {
				out[j.Name] = append(out[j.Name], float64(d.Nanoseconds())/1e6)
			}
		}
	}
	return out, nil
}

func speed(wasmPath string, br *chrome.Browser) (Speed, error) {
	js := jobs()
	s := Speed{Protocol: fmt.Sprintf(protocol, js[0].Warm, js[0].Reps)}
	node, err := startNode(wasmPath)
	if err != nil {
		return s, fmt.Errorf("node: %w", err)
	}
	defer node.close()
	chrom, err := benchPlace(br)
	if err != nil {
		return s, fmt.Errorf("chromium: %w", err)
	}
	defer chrom.close()
	places := []place{nativePlace, node.run, chrom.run}
	for i, k := range benchkit.Kernels() {
		j := js[i]
		ms := make([][]float64, len(places))
		for pi, pl := range places {
			if _, err := pl([]job{{Name: j.Name, Iters: j.Iters, Warm: j.Warm}}); err != nil {
				return s, fmt.Errorf("%s warm-up (place %d): %w", j.Name, pi, err)
			}
		}
		for range j.Reps {
			for pi, pl := range places {
				out, err := pl([]job{{Name: j.Name, Iters: j.Iters, Reps: 1}})
				if err != nil {
					return s, fmt.Errorf("%s (place %d): %w", j.Name, pi, err)
				}
				ms[pi] = append(ms[pi], out[j.Name]...)
			}
		}
		per := float64(j.Iters) * k.PerIter / 1e6 // ms → ns per unit
		row := SpeedRow{Info: k, NativeMs: ms[0], NodeMs: ms[1], ChromiumMs: ms[2]}
		row.Iters = j.Iters
		row.NativeNs = stats.Minimum(row.NativeMs) / per
		row.NodeNs = stats.Minimum(row.NodeMs) / per
		row.ChromiumNs = stats.Minimum(row.ChromiumMs) / per
		row.NodeRatio = row.NodeNs / row.NativeNs
		row.ChromRatio = row.ChromiumNs / row.NativeNs
		s.Kernels = append(s.Kernels, row)
	}
	s.Sample, err = sampleTarget(s.Kernels)
	return s, err
}

// sampleTarget fills SampleTarget from the kernel rows and the public plans.
func sampleTarget(rows []SpeedRow) (SampleTarget, error) {
	var t SampleTarget
	for _, e := range []float64{1, 5} {
		x := make([][]float64, benchkit.SampleN)
		for i := range x {
			x[i] = make([]float64, benchkit.SampleD)
		}
		pl, err := mechanism.NewPlan(mechanism.Request{Loss: "logistic", X: x, Y: make([]float64, benchkit.SampleN), Epsilon: e, Delta: 1e-5, Radius: benchkit.SampleRadius, Clip: 1})
		if err != nil {
			return t, err
		}
		if e == 1 {
			t.Steps1, t.Method = pl.Steps, pl.Method
		} else {
			t.Steps5 = pl.Steps
		}
	}
	for _, k := range rows {
		switch k.Name {
		case "mechanism/logistic/n=455,d=30,ε=1":
			t.Native1, t.Node1, t.Chrom1 = k.NativeNs/1e9, k.NodeNs/1e9, k.ChromiumNs/1e9
		case "mechanism/logistic/n=455,d=30,ε=5":
			t.Native5, t.Node5, t.Chrom5 = k.NativeNs/1e9, k.NodeNs/1e9, k.ChromiumNs/1e9
		case "firstorder/logistic/n=455,d=30":
			t.StepNativeUs, t.StepRatio = k.NativeNs/1e3, k.ChromRatio
		}
	}
	return t, nil
}

// benchJS runs a job list against globalThis.dpsample._bench and returns
// {name: [ms of each timed call]}. It is shared by node and Chromium.
const benchJS = `async (jobs) => {
  const out = {};
  for (const j of jobs) {
    out[j.name] = [];
    for (let i = 0; i < j.warm + j.reps; i++) {
      const ms = await globalThis.dpsample._bench.run(j.name, j.iters);
      if (i >= j.warm) out[j.name].push(ms);
    }
  }
  return out;
}`

// nodeJS loads site/dpsample.wasm the way go_js_wasm_exec does, then runs
// benchJS on every job list it reads from stdin (one JSON line each) and
// answers with one JSON line; argv: wasm_exec.js, dpsample.wasm.
const nodeJS = `"use strict";
globalThis.require = require;
globalThis.fs = require("fs");
globalThis.path = require("path");
globalThis.TextEncoder = require("util").TextEncoder;
globalThis.TextDecoder = require("util").TextDecoder;
globalThis.performance ??= require("perf_hooks").performance;
globalThis.crypto ??= require("crypto");
require(process.argv[2]);
const bench = ` + benchJS + `;
(async () => {
  const go = new Go();
  const { instance } = await WebAssembly.instantiate(fs.readFileSync(process.argv[3]), go.importObject);
  go.run(instance);
  if (!globalThis.dpsample || !globalThis.dpsample._bench) throw new Error("dpsample._bench did not register");
  const rl = require("readline").createInterface({ input: process.stdin });
  for await (const line of rl) {
    const out = await bench(JSON.parse(line));
    process.stdout.write(JSON.stringify(out) + "\n");
  }
  process.exit(0);
})().catch((e) => { console.error(e); process.exit(1); });
`

// nodeProc is a node process running nodeJS.
type nodeProc struct {
	dir string
	cmd *exec.Cmd
	in  io.WriteCloser
	out *bufio.Reader
}

func startNode(wasmPath string) (*nodeProc, error) {
	dir, err := os.MkdirTemp("", "dpsample-bench")
	if err != nil {
		return nil, err
	}
	script := filepath.Join(dir, "bench.cjs")
	if err := os.WriteFile(script, []byte(nodeJS), 0o644); err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	goroot, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	wasmExec := filepath.Join(strings.TrimSpace(string(goroot)), "lib", "wasm", "wasm_exec.js")
	abs, err := filepath.Abs(wasmPath)
	if err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	n := &nodeProc{dir: dir, cmd: exec.Command("node", script, wasmExec, abs)}
	n.cmd.Stderr = os.Stderr
	if n.in, err = n.cmd.StdinPipe(); err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	stdout, err := n.cmd.StdoutPipe()
	if err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	n.out = bufio.NewReader(stdout)
	if err := n.cmd.Start(); err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	return n, nil
}

func (n *nodeProc) run(js []job) (map[string][]float64, error) {
	arg, _ := json.Marshal(js)
	if _, err := n.in.Write(append(arg, '\n')); err != nil {
		return nil, err
	}
	line, err := n.out.ReadBytes('\n')
	if err != nil {
		return nil, fmt.Errorf("reading node's answer: %w", err)
	}
	var res map[string][]float64
	return res, json.Unmarshal(line, &res)
}

func (n *nodeProc) close() {
	n.in.Close()
	n.cmd.Wait()
	os.RemoveAll(n.dir)
}

func nodeVersion() string {
	out, err := exec.Command("node", "--version").Output()
	if err != nil {
		return "unavailable"
	}
	return strings.TrimSpace(string(out))
}

// goTestRatios pairs the `go test -bench` lines of the native and the node
// runs by name (the -N GOMAXPROCS suffix removed) and divides ns/op.
func goTestRatios(nativePath, wasmPath string) ([]GoTestRow, error) {
	nat, err := parseGoBench(nativePath)
	if err != nil {
		return nil, err
	}
	wasm, err := parseGoBench(wasmPath)
	if err != nil {
		return nil, err
	}
	var rows []GoTestRow
	for _, b := range nat {
		for _, w := range wasm {
			if w.name == b.name && b.ns > 0 {
				rows = append(rows, GoTestRow{Name: b.name, NativeNs: b.ns, WasmNs: w.ns, Ratio: w.ns / b.ns})
			}
		}
	}
	return rows, nil
}

type goBench struct {
	name string
	ns   float64
}

func parseGoBench(path string) ([]goBench, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []goBench
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if b, ok := parseGoBenchLine(sc.Text()); ok {
			out = append(out, b)
		}
	}
	return out, sc.Err()
}

// parseGoBenchLine reads "BenchmarkX/sub-8   123   4567 ns/op ...".
func parseGoBenchLine(line string) (goBench, bool) {
	f := strings.Fields(line)
	if len(f) < 4 || !strings.HasPrefix(f[0], "Benchmark") {
		return goBench{}, false
	}
	name := f[0]
	if i := strings.LastIndexByte(name, '-'); i > 0 {
		if _, err := strconv.Atoi(name[i+1:]); err == nil {
			name = name[:i]
		}
	}
	for i := 2; i+1 < len(f); i++ {
		if f[i+1] == "ns/op" {
			ns, err := strconv.ParseFloat(f[i], 64)
			if err != nil {
				return goBench{}, false
			}
			return goBench{name, ns}, true
		}
	}
	return goBench{}, false
}
