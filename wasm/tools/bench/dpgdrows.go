//go:build !js

package main

import (
	"context"
	"fmt"
	"math"
	"os"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/dpsample/dpsample/core/dpgd"
	"github.com/dpsample/dpsample/core/loss"
	"github.com/dpsample/dpsample/core/privacy"
	"github.com/dpsample/dpsample/core/rng"
	"github.com/dpsample/dpsample/wasm/tools/internal/chrome"
	"github.com/dpsample/dpsample/wasm/tools/internal/md"
)

// Rows per tab for the default estimator (issue 43): one DP-GD release
// (dpgd.RunOn: the gradient passes of mechanism.Sample's dp-gd path, without
// the plan's checks and the non-private fit) on synthetic logistic rows,
// d = 30, ε = 1, δ = 1e-6, clip 1, C = 16, natively, with the smooth rule
// before issue 43 (dpgd.RuleGrowing: T ∝ n·s) and after (dpgd.RuleCapped), on
// one worker and on all the cores (loss.Workers(n, NumCPU) shards). The rows
// (dpgdRowsData) are the feasibility check's: uniform in [−1, 1]³⁰
// scaled to norm 1, labels drawn from a logistic model on three features;
// the accuracy is on 10⁴ fresh rows of the same law.
//
// go run ./wasm/tools/bench -only dpgd-rows measures it into
// docs/benchmarks.json and re-renders docs/BENCHMARKS.md.

// DPGDRows is the section.
type DPGDRows struct {
	Protocol string    `json:"protocol"`
	Cores    int       `json:"cores"`
	Rows     []DPGDRow `json:"rows"`
	// Browser is the default estimator as the page runs it (issue 43 item
	// 1: "n = 10⁵ × 30 draws one sample in ≤ 10 s in Chromium with the
	// page's workers"): the whole mechanism.sample call through the page's
	// worker API.
	Browser         []DPGDBrowserRow `json:"browser,omitempty"`
	BrowserProtocol string           `json:"browserProtocol,omitempty"`
}

// DPGDBrowserRow is one n in Chromium.
type DPGDBrowserRow struct {
	N        int     `json:"n"`
	Workers  int     `json:"workers"` // the plan's shards (loss.Workers(n, navigator.hardwareConcurrency))
	Isolated bool    `json:"isolated"`
	T        int     `json:"t"`
	Passes   float64 `json:"passes"` // plan.work.passes + plan.work.referencePasses
	Seconds  float64 `json:"seconds"`
	Accuracy float64 `json:"accuracy"` // training accuracy of θ (diagnostics; the table is synthetic)
	Note     string  `json:"note,omitempty"`
	Runnable int     `json:"runnable"` // /proc/loadavg's runnable threads just before the call (above the cores: queueing)
}

// DPGDRow is one (n, rule, workers) release.
type DPGDRow struct {
	N        int     `json:"n"`
	Rule     string  `json:"rule"`
	Workers  int     `json:"workers"`
	T        int     `json:"t"`
	Passes   int     `json:"passes"` // gradient passes over the n rows (T)
	Sigma    float64 `json:"sigma"`
	Seconds  float64 `json:"seconds"`
	Accuracy float64 `json:"accuracy"`
}

// dpgdRowsN are the row counts (BENCH_DPGD_ROWS_N overrides: "1000,10000").
func dpgdRowsN() []int {
	if v := os.Getenv("BENCH_DPGD_ROWS_N"); v != "" {
		var out []int
		for _, f := range strings.Split(v, ",") {
			if n, err := strconv.Atoi(strings.TrimSpace(f)); err == nil {
				out = append(out, n)
			}
		}
		return out
	}
	if quick {
		return []int{1000, 10_000}
	}
	return []int{1000, 10_000, 50_000, 100_000}
}

const (
	dpgdRowsD      = 30
	dpgdRowsRadius = 16.0
	dpgdRowsDelta  = 1e-6
)

// dpgdRowsData returns n rows and labels of the section's law.
func dpgdRowsData(n int, seed uint64) ([][]float64, []float64) {
	r := rng.Seeded(seed)
	x := make([][]float64, n)
	y := make([]float64, n)
	for i := range x {
		row := make([]float64, dpgdRowsD)
		var s float64
		for j := range row {
			row[j] = 2*r.Float64() - 1
			s += row[j] * row[j]
		}
		s = math.Sqrt(s)
		for j := range row {
			row[j] /= s
		}
		m := 8 * (row[0] - row[1] + row[2])
		y[i] = -1
		if r.Float64() < 1/(1+math.Exp(-m)) {
			y[i] = 1
		}
		x[i] = row
	}
	return x, y
}

// dpgdBrowserJS draws n rows of the section's law in the page (a seeded
// xorshift; the same law as dpgdRowsData, other draws) and times one
// mechanism.sample call with method "dp-gd" on every core the page offers,
// the rows sent as one Float64Array as the page sends them; it returns a
// DPGDBrowserRow's fields but n and runnable.
const dpgdBrowserJS = `(async (n) => {
  const d = await dpsampleRemote;
  let st = 0x9E3779B9 ^ n;
  const u = () => { st ^= st << 13; st >>>= 0; st ^= st >>> 17; st ^= st << 5; st >>>= 0; return st / 4294967296; };
  const D = 30, data = new Float64Array(n * D), y = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    let s = 0;
    for (let j = 0; j < D; j++) { const v = 2 * u() - 1; data[i * D + j] = v; s += v * v; }
    s = Math.sqrt(s);
    for (let j = 0; j < D; j++) data[i * D + j] /= s;
    const m = 8 * (data[i * D] - data[i * D + 1] + data[i * D + 2]);
    y[i] = u() < 1 / (1 + Math.exp(-m)) ? 1 : -1;
  }
  const req = {loss: "logistic", x: {data, shape: [n, D]}, y: Array.from(y), epsilon: 1, delta: 1e-6, radius: 16, clip: 1,
               method: "dp-gd", workers: navigator.hardwareConcurrency, seed: 43};
  const t0 = performance.now();
  const res = await d.mechanism.sample(req);
  const seconds = (performance.now() - t0) / 1000;
  return {seconds, workers: res.plan.workers, isolated: crossOriginIsolated, t: res.plan.steps,
          passes: res.plan.work.passes + res.plan.work.referencePasses, accuracy: res.fit.accuracy ?? 0, note: res.diagnostics.note || ""};
})`

// dpgdBrowser measures the Chromium rows (one call per n, after a warm-up
// call at 10⁴ that is not reported).
func dpgdBrowser(br *chrome.Browser) ([]DPGDBrowserRow, string, error) {
	ctx, done, _, err := br.Tab(time.Hour)
	if err != nil {
		return nil, "", err
	}
	defer done()
	run := func(n int) (DPGDBrowserRow, error) {
		cctx, cancel := context.WithTimeout(ctx, 20*time.Minute)
		defer cancel()
		load := runnable()
		r, err := chromedp.Run(cctx, chromedp.Evaluate[DPGDBrowserRow](fmt.Sprintf("%s(%d)", dpgdBrowserJS, n), chromedp.EvalAwaitPromise))
		r.N, r.Runnable = n, load
		return r, err
	}
	if _, err := run(10_000); err != nil {
		return nil, "", err
	}
	var out []DPGDBrowserRow
	for _, n := range dpgdRowsN() {
		row, err := run(n)
		if err != nil {
			return out, "", err
		}
		fmt.Fprintf(os.Stderr, "bench: dpgd rows, Chromium: n=%d W=%d: T=%d %.3g s\n", n, row.Workers, row.T, row.Seconds)
		out = append(out, row)
	}
	protocol := fmt.Sprintf("In headless Chromium (%s), the whole `mechanism.sample` call with `method: \"dp-gd\"` as the page makes it — the plan, DP-GD's passes on the page's shard workers (`workers` = navigator.hardwareConcurrency; loss.Workers(n, W) shards), the non-private reference fit on the same shards, the result — through the page's worker API (`dpsampleRemote`), the rows (same law, drawn in the page) sent as one Float64Array; d = %d, ε = 1, δ = 10⁻⁶, C = %g, seeded; one call per n after a warm-up call at 10⁴ (not reported). Wall clock from the call to its result, on a %d-core machine: with more runnable threads than cores (the last column) the call waits for them. Issue 43's goal: n = 10⁵ in ≤ 10 s.",
		br.Version, dpgdRowsD, dpgdRowsRadius, runtime.NumCPU())
	return out, protocol, nil
}

// dpgdRows measures the section: natively, and in Chromium when br is not nil.
func dpgdRows(br *chrome.Browser) (DPGDRows, error) {
	cores := runtime.NumCPU()
	out := DPGDRows{Cores: cores, Protocol: fmt.Sprintf("one DP-GD release (`dpgd.RunOn`, the gradient passes of `method: \"dp-gd\"`; the plan and the non-private fit of `mechanism.sample` are not timed) on synthetic logistic rows: d = %d, uniform in [−1, 1]^d scaled to norm 1, labels from a logistic model on three features (the feasibility check's law, /work/shared/design/dpgd-scale.md), clip 1, C = %g, ε = 1, δ = %g, seeded; natively (%s/%s, %d CPUs, the shared development machine), one call per cell, wall clock; \"before\" is the smooth rule before issue 43 (T = ⌈0.5·n·s·β·clip²·C/G⌉ ≤ %d, `dpgd.RuleGrowing`), \"after\" the capped rule (T = ⌈0.5·min(n·s, %d)·β·clip²·C/G⌉, `dpgd.RuleCapped`, the default); W = 1 worker, and for \"after\" also loss.Workers(n, %d) goroutine shards (the same θ bit for bit); accuracy on 10⁴ fresh rows of the same law.",
		dpgdRowsD, dpgdRowsRadius, dpgdRowsDelta, runtime.GOOS, runtime.GOARCH, cores, dpgd.MaxSteps, dpgd.SmoothNSCap, cores)}
	xt, yt := dpgdRowsData(10_000, 4343)
	for _, n := range dpgdRowsN() {
		x, y := dpgdRowsData(n, uint64(n))
		set, err := loss.New(loss.Logistic, x, y, loss.Params{Clip: 1})
		if err != nil {
			return out, err
		}
		s, err := privacy.Calibrate(1, dpgdRowsDelta)
		if err != nil {
			return out, err
		}
		for _, rule := range []string{dpgd.RuleGrowing, dpgd.RuleCapped} {
			sch, err := dpgd.NewSchedule(dpgd.Params{N: n, D: dpgdRowsD, G: set.G(), Curvature: set.Curvature(), Radius: dpgdRowsRadius, GDP: s, Rule: rule})
			if err != nil {
				return out, err
			}
			ws := []int{1}
			if w := loss.Workers(n, cores); w > 1 && rule == dpgd.RuleCapped { // before: one worker (minutes per call at 10⁵)
				ws = append(ws, w)
			}
			for _, w := range ws {
				var sh *loss.Sharded
				if w > 1 {
					sh = loss.NewSharded(set, w)
				}
				t0 := time.Now()
				th, err := dpgd.RunOn(context.Background(), set, sh, sch, rng.Seeded(43), nil)
				sec := time.Since(t0).Seconds()
				if sh != nil {
					sh.Close()
				}
				if err != nil {
					return out, err
				}
				row := DPGDRow{N: n, Rule: rule, Workers: w, T: sch.Steps, Passes: sch.Steps, Sigma: sch.Sigma, Seconds: sec, Accuracy: loss.Accuracy(xt, yt, th)}
				fmt.Fprintf(os.Stderr, "bench: dpgd rows: n=%d %s W=%d: T=%d %.3g s accuracy %.4f\n", n, rule, w, row.T, sec, row.Accuracy)
				out.Rows = append(out.Rows, row)
			}
		}
	}
	if br != nil {
		var err error
		if out.Browser, out.BrowserProtocol, err = dpgdBrowser(br); err != nil {
			return out, err
		}
	}
	return out, nil
}

// dpgdRowsMarkdown renders the section.
func dpgdRowsMarkdown(r DPGDRows) string {
	if len(r.Rows) == 0 {
		return ""
	}
	var b strings.Builder
	p := func(format string, a ...any) { fmt.Fprintf(&b, format, a...) }
	p("## Rows per tab: the default estimator, DP-GD (issue 43)\n\n%s\n\n", r.Protocol)
	find := func(n int, rule string, w int) (DPGDRow, bool) {
		for _, x := range r.Rows {
			if x.N == n && x.Rule == rule && (w == 0 && x.Workers > 1 || x.Workers == w) {
				return x, true
			}
		}
		return DPGDRow{}, false
	}
	var ns []int
	for _, x := range r.Rows {
		if len(ns) == 0 || ns[len(ns)-1] != x.N {
			ns = append(ns, x.N)
		}
	}
	cell := func(x DPGDRow, ok bool) string {
		if !ok {
			return "—"
		}
		return md.Sig(x.Seconds) + " s"
	}
	var rows [][]string
	for _, n := range ns {
		ob, ok1 := find(n, dpgd.RuleGrowing, 1)
		na, ok2 := find(n, dpgd.RuleCapped, 1)
		if !ok1 || !ok2 {
			continue
		}
		nw, okw := find(n, dpgd.RuleCapped, 0)
		wcol := "—"
		if okw {
			wcol = fmt.Sprintf("%s s (W = %d)", md.Sig(nw.Seconds), nw.Workers)
		}
		rows = append(rows, []string{strconv.Itoa(n), fmt.Sprintf("%d / %d", ob.T, na.T), fmt.Sprintf("%d / %d", ob.Passes, na.Passes),
			cell(ob, ok1), cell(na, ok2), wcol, md.Sig(ob.Seconds / na.Seconds), fmt.Sprintf("%.4f / %.4f", ob.Accuracy, na.Accuracy)})
	}
	p("%s\n", md.Table([]string{"n", "T before / after", "passes before / after", "before, W = 1", "after, W = 1", "after, all cores", "before ÷ after (W = 1)", "accuracy before / after"}, rows))
	slower, both := 0, 0
	for _, n := range ns {
		one, ok1 := find(n, dpgd.RuleCapped, 1)
		all, ok2 := find(n, dpgd.RuleCapped, 0)
		if ok1 && ok2 {
			both++
			if all.Seconds > one.Seconds {
				slower++
			}
		}
	}
	if slower > 0 {
		p("In this run the sharded calls were slower than one worker at %d of the %d sizes with more than one shard: with every core of this shared machine busy (other jobs), a second worker only adds hand-offs; the column measures the machine's load as much as the passes (θ is the same bits either way). Each cell is one call.\n\n", slower, both)
	}
	var ratio [][]string
	for _, rule := range []string{dpgd.RuleGrowing, dpgd.RuleCapped} {
		a, ok1 := find(10_000, rule, 1)
		b2, ok2 := find(50_000, rule, 1)
		c, ok3 := find(100_000, rule, 1)
		if !ok1 || !ok2 {
			continue
		}
		r3 := "—"
		if ok3 {
			r3 = md.Sig(c.Seconds / b2.Seconds)
		}
		name := map[string]string{dpgd.RuleGrowing: "before (T ∝ n·s)", dpgd.RuleCapped: "after (T ∝ min(n·s, K))"}[rule]
		ratio = append(ratio, []string{name, md.Sig(b2.Seconds / a.Seconds), r3})
	}
	if len(ratio) > 0 {
		p("Cost against n, one worker (linear: 5 and 2; issue 43's goal: time(5·10⁴)/time(10⁴) ≤ 8):\n\n%s\n", md.Table([]string{"rule", "time(5·10⁴) / time(10⁴)", "time(10⁵) / time(5·10⁴)"}, ratio))
	}
	if len(r.Browser) > 0 {
		var br [][]string
		for _, x := range r.Browser {
			br = append(br, []string{strconv.Itoa(x.N), fmt.Sprintf("%d%s", x.Workers, map[bool]string{true: " (shared memory)", false: " (messages)"}[x.Isolated]),
				strconv.Itoa(x.T), md.Sig(x.Passes), md.Sig(x.Seconds) + " s", fmt.Sprintf("%.4f", x.Accuracy), strconv.Itoa(x.Runnable)})
		}
		p("%s\n\n%s\n", r.BrowserProtocol, md.Table([]string{"n", "workers", "T", "passes (DP-GD + reference fit)", "call, Chromium", "training accuracy", "runnable threads before the call"}, br))
	}
	return b.String()
}
