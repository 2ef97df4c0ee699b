//go:build !js

// Command bench is the runner behind `./build.sh bench`: it times the
// benchkit kernels natively, as WebAssembly under node and in headless
// Chromium (the same site/dpsample.wasm, through dpsample._bench), measures
// the sampler's cost against its formulas, the lower-bound attack's rates,
// the baselines' utility (wasm/tools/internal/utility over core/baseline)
// and the site's size and load time, and writes docs/BENCHMARKS.md (from
// report.md.tmpl), docs/benchmarks.json and docs/bench/*.svg.
//
//	go run ./wasm/tools/bench [-root .] [-gotest-native f] [-gotest-wasm f] [-shipped-wasm f]
//
// BENCH_QUICK=1 shrinks every section (for iterating on the runner; the
// report then says so). site/dpsample.wasm must be built first with the
// build tag dpsample_hooks (for dpsample._bench), and -shipped-wasm names the
// module built without it, whose size section 5 reports (./build.sh bench
// does both).
//
// The experiments that were modes of this command are commands of their own
// since issue 46 (moved.go forwards the old flags to them):
//
//	go run ./wasm/tools/study -study docs/study/runs.jsonl     (issue 20's real-data study)
//	go run ./wasm/tools/study -dpgd-schedule development       (issue 43)
//	go run ./wasm/tools/ranges -ranges development             (core/domain's constants)
//	go run ./wasm/tools/ranges -ranges-model development       (issue 40)
//	go run ./wasm/tools/ranges -categories-model               (issue 42)
//	go run ./wasm/tools/compareload -compare-load a.wasm,b.wasm
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/dpsample/dpsample/wasm/tools/internal/chrome"
	"github.com/dpsample/dpsample/wasm/tools/internal/study"
)

// Report is docs/benchmarks.json: every number of docs/BENCHMARKS.md.
type Report struct {
	Generated string      `json:"generated"`
	Quick     bool        `json:"quick"`
	Machine   Machine     `json:"machine"`
	Speed     Speed       `json:"speed"`
	Cost      []CostRow   `json:"cost"`
	Utility   Utility     `json:"utility"`
	Lower     LowerReport `json:"lowerBound"`
	Audit     AuditReport `json:"privacyAudit"`
	Size      SizeLoad    `json:"sizeAndLoad"`
	Rows      Rows        `json:"rowsPerTab"`
	// DPGDRows is the rows-per-tab table of the default estimator, DP-GD
	// (issue 43; native; -only dpgd-rows).
	DPGDRows DPGDRows `json:"rowsPerTabDPGD"`
	// Study is issue 20's real-data study, summarised from its runs file
	// (docs/study/runs.jsonl.gz, the gzipped file `-study` writes); the bench
	// only reads it.
	Study   *study.StudySummary `json:"study,omitempty"`
	Seconds float64             `json:"runnerSeconds"`
	// SectionSeconds is the wall time of each section of this run.
	SectionSeconds map[string]float64 `json:"sectionSeconds,omitempty"`
	// Remeasured lists the sections measured again after the run with -only
	// (section → "commit at time"), because their code changed since.
	Remeasured map[string]string `json:"remeasured,omitempty"`
}

// Machine records where the numbers were taken.
type Machine struct {
	GOOS, GOARCH string
	CPUs         int    `json:"cpus"`
	Go           string `json:"go"`
	Node         string `json:"node"`
	Chromium     string `json:"chromium"`
	Commit       string `json:"commit"` // git HEAD of the run ("+dirty" with uncommitted changes)
}

var quick = os.Getenv("BENCH_QUICK") != ""

func main() {
	if cmd, ok := moved(os.Args[1:]); ok {
		forward(cmd, os.Args[1:])
		return
	}
	root := flag.String("root", ".", "repository root")
	gtNative := flag.String("gotest-native", "", "output of `go test -bench` natively (optional)")
	gtWasm := flag.String("gotest-wasm", "", "output of `go test -bench` under node (optional)")
	shipped := flag.String("shipped-wasm", "", "the module ./build.sh build ships, for the size section (default: site/dpsample.wasm)")
	render := flag.Bool("render", false, "only re-render docs/BENCHMARKS.md, the plots and README's headline from docs/benchmarks.json (no measurement)")
	only := flag.String("only", "", `measure one section again ("lower", "audit", "rows", "dpgd-rows" (DP-GD's rows per tab, native and Chromium; BENCH_DPGD_BROWSER_ONLY=1: Chromium only), "utility" (§3b, the dimension-free experiment), "cost" (§2, native), "speed" (§1's kernels, native, node and Chromium; site/ built with the hooks), "size" (§5: the module of -shipped-wasm, load times of site/ as built) or "study": re-read the study's runs file) into docs/benchmarks.json, keep the others' numbers, and re-render; the report names the section and its commit`)
	rowsBase := flag.String("rows-baseline", "", "a checkout built at "+BaseCommit+" (./build.sh build), served to a second headless Chromium for the rows section's \"then\" column; \"auto\" makes one in a temporary git worktree (optional)")
	studyResults := flag.String("study-results", filepath.Join("docs", "study", "runs.jsonl.gz"), "the study's runs file (relative to -root) that the report's §3a is built from, without re-running")
	flag.Parse()
	if *only != "" {
		if err := remeasure(*root, *only, *rowsBase, *shipped); err != nil {
			fatal(err)
		}
		return
	}
	if *render {
		if err := rerender(*root); err != nil {
			fatal(err)
		}
		return
	}
	start := time.Now()
	r := Report{Generated: time.Now().UTC().Format(time.RFC3339), Quick: quick}
	r.Machine = Machine{GOOS: runtime.GOOS, GOARCH: runtime.GOARCH, CPUs: runtime.NumCPU(), Go: runtime.Version(), Node: nodeVersion(), Commit: study.GitCommit(*root)}
	r.SectionSeconds = map[string]float64{}
	step := func(name string, f func() error) {
		t := time.Now()
		fmt.Fprintf(os.Stderr, "bench: %s…\n", name)
		if err := f(); err != nil {
			fmt.Fprintf(os.Stderr, "bench: %s: %v\n", name, err)
			os.Exit(1)
		}
		r.SectionSeconds[name] = time.Since(t).Seconds()
		fmt.Fprintf(os.Stderr, "bench: %s done in %.1f s\n", name, time.Since(t).Seconds())
	}
	wasmPath := filepath.Join(*root, "site", "dpsample.wasm")
	var br *chrome.Browser
	step("start headless Chromium", func() (err error) {
		br, err = chrome.Start(*root)
		if err == nil {
			r.Machine.Chromium = br.Version
		}
		return err
	})
	defer br.Close()
	sizePath := wasmPath
	if *shipped != "" {
		sizePath = *shipped
	}
	step("size and load time", func() (err error) { r.Size, err = sizeAndLoad(sizePath, br); return })
	step("speed: native, node, Chromium", func() (err error) { r.Speed, err = speed(wasmPath, br); return })
	step("rows per tab: native and Chromium, 1 and all workers", func() (err error) { r.Rows, err = rowsWithBaseline(br, *root, *rowsBase); return })
	if *gtNative != "" && *gtWasm != "" {
		step("go test -bench ratios", func() (err error) { r.Speed.GoTest, err = goTestRatios(*gtNative, *gtWasm); return })
	}
	step("rows per tab: DP-GD, native and Chromium", func() (err error) { r.DPGDRows, err = dpgdRows(br); return })
	step("cost vs theory", func() (err error) { r.Cost, err = cost(); return })
	step("lower bound", func() (err error) { r.Lower, err = lower(); return })
	step("real-data study (from its runs file)", func() (err error) { r.Study, err = study.LoadStudy(*root, *studyResults); return })
	step("utility vs baselines", func() (err error) { r.Utility, err = measureUtility(*root); return })
	step("privacy audit", func() (err error) { r.Audit, err = privacyAudit(); return })
	r.Seconds = time.Since(start).Seconds()

	docs := filepath.Join(*root, "docs")
	if err := os.MkdirAll(filepath.Join(docs, "bench"), 0o755); err != nil {
		fatal(err)
	}
	js, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		fatal(err)
	}
	if err := os.WriteFile(filepath.Join(docs, "benchmarks.json"), append(js, '\n'), 0o644); err != nil {
		fatal(err)
	}
	if err := writeRendered(*root, &r); err != nil {
		fatal(err)
	}
	fmt.Println(headline(&r))
	fmt.Fprintf(os.Stderr, "bench: wrote docs/BENCHMARKS.md, docs/benchmarks.json, docs/bench/*.svg in %.0f s\n", r.Seconds)
}

// rerender rebuilds every rendered file from docs/benchmarks.json: the
// numbers are the measured run's; only their presentation is regenerated.
func rerender(root string) error {
	js, err := os.ReadFile(filepath.Join(root, "docs", "benchmarks.json"))
	if err != nil {
		return err
	}
	var r Report
	if err := json.Unmarshal(js, &r); err != nil {
		return err
	}
	return writeRendered(root, &r)
}

// remeasure runs one section again on top of docs/benchmarks.json.
func remeasure(root, section, rowsBase, shipped string) error {
	js, err := os.ReadFile(filepath.Join(root, "docs", "benchmarks.json"))
	if err != nil {
		return err
	}
	var r Report
	if err := json.Unmarshal(js, &r); err != nil {
		return err
	}
	commit := study.GitCommit(root) // the code measured: HEAD when the run starts
	switch section {
	case "utility":
		if r.Utility, err = measureUtility(root); err != nil {
			return err
		}
	case "lower":
		if r.Lower, err = lower(); err != nil {
			return err
		}
	case "study":
		if r.Study, err = study.LoadStudy(root, filepath.Join("docs", "study", "runs.jsonl.gz")); err != nil {
			return err
		}
	case "cost":
		if r.Cost, err = cost(); err != nil {
			return err
		}
	case "audit":
		if r.Audit, err = privacyAudit(); err != nil {
			return err
		}
	case "speed":
		gt := r.Speed.GoTest // the go test -bench ratios come from their own files: kept
		if err := inBrowser(root, func(br *chrome.Browser) (err error) {
			r.Speed, err = speed(filepath.Join(root, "site", "dpsample.wasm"), br)
			return err
		}); err != nil {
			return err
		}
		r.Speed.GoTest = gt
	case "size":
		if shipped == "" {
			shipped = filepath.Join(root, "site", "dpsample.wasm")
		}
		if err := inBrowser(root, func(br *chrome.Browser) (err error) { r.Size, err = sizeAndLoad(shipped, br); return err }); err != nil {
			return err
		}
	case "dpgd-rows":
		if os.Getenv("BENCH_DPGD_BROWSER_ONLY") != "" { // the Chromium rows again, the native ones kept
			if err := inBrowser(root, func(br *chrome.Browser) (err error) {
				r.DPGDRows.Browser, r.DPGDRows.BrowserProtocol, err = dpgdBrowser(br)
				return err
			}); err != nil {
				return err
			}
			break
		}
		if err := inBrowser(root, func(br *chrome.Browser) (err error) { r.DPGDRows, err = dpgdRows(br); return err }); err != nil {
			return err
		}
	case "rows":
		prev := r.Rows
		if err := inBrowser(root, func(br *chrome.Browser) (err error) { r.Rows, err = rowsWithBaseline(br, root, rowsBase); return err }); err != nil {
			return err
		}
		if os.Getenv("BENCH_ROWS_N") != "" { // one n measured again: keep the others
			r.Rows = mergeRows(prev, r.Rows)
		}
	default:
		return fmt.Errorf(`-only: unknown section %q (want "lower", "audit", "rows", "dpgd-rows", "utility", "cost", "speed", "size" or "study")`, section)
	}
	if r.Remeasured == nil {
		r.Remeasured = map[string]string{}
	}
	r.Remeasured[section] = commit + " at " + time.Now().UTC().Format(time.RFC3339)
	out, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(root, "docs", "benchmarks.json"), append(out, '\n'), 0o644); err != nil {
		return err
	}
	return writeRendered(root, &r)
}

// inBrowser runs f with a headless Chromium serving root, closed after.
func inBrowser(root string, f func(*chrome.Browser) error) error {
	br, err := chrome.Start(root)
	if err != nil {
		return err
	}
	defer br.Close()
	return f(br)
}

// writeRendered writes the plots, docs/BENCHMARKS.md and README's headline.
func writeRendered(root string, r *Report) error {
	docs := filepath.Join(root, "docs")
	// Every plot is regenerated: drop the previous run's, so none goes stale.
	old, _ := filepath.Glob(filepath.Join(docs, "bench", "*.svg"))
	for _, f := range old {
		os.Remove(f)
	}
	for name, svg := range plots(r) {
		if err := os.WriteFile(filepath.Join(docs, "bench", name), []byte(svg), 0o644); err != nil {
			return err
		}
	}
	if err := os.WriteFile(filepath.Join(docs, "BENCHMARKS.md"), []byte(markdown(r)), 0o644); err != nil {
		return err
	}
	readme := filepath.Join(root, "README.md")
	if old, err := os.ReadFile(readme); err == nil {
		if s, ok := spliceReadme(string(old), readmeHeadline(r)); ok {
			if err := os.WriteFile(readme, []byte(s), 0o644); err != nil {
				return err
			}
		} else {
			fmt.Fprintln(os.Stderr, "bench: README.md has no headline markers; not updated")
		}
	}
	return nil
}

func fatal(err error) {
	fmt.Fprintln(os.Stderr, "bench:", err)
	os.Exit(1)
}

// README's Benchmarks section holds the headline table between these
// markers; the runner rewrites only what lies between them.
const (
	readmeBegin = "<!-- bench:headline:begin (written by ./build.sh bench) -->"
	readmeEnd   = "<!-- bench:headline:end -->"
)

// spliceReadme replaces the text between the markers with body; it reports
// false (and leaves readme unchanged) when the markers are missing.
func spliceReadme(readme, body string) (string, bool) {
	i := strings.Index(readme, readmeBegin)
	j := strings.Index(readme, readmeEnd)
	if i < 0 || j < i {
		return readme, false
	}
	return readme[:i+len(readmeBegin)] + "\n" + body + readme[j:], true
}
