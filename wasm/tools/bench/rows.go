//go:build !js

package main

import (
	"context"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/dpsample/dpsample/core/benchkit"
	"github.com/dpsample/dpsample/core/mechanism"
	"github.com/dpsample/dpsample/wasm/tools/internal/chrome"
	"github.com/dpsample/dpsample/wasm/tools/internal/md"
	"github.com/dpsample/dpsample/wasm/tools/internal/stats"
)

// Rows is the rows-per-tab table (issue 24): one first-order logistic sample
// (benchkit.RowsRequest) at each n, natively and in Chromium (through the
// page's worker API, so the browser rows include the shard workers' start),
// on one worker and on every core, with fixed work (the default since issue
// 21, what the page runs) and without it (adaptive: the work the issue's
// baseline did), in Chromium with shared memory and with messages, and the
// module of the baseline commit (BaseCommit) in a second browser.
type Rows struct {
	Protocol string    `json:"protocol"`
	Cores    int       `json:"cores"`         // runtime.NumCPU()
	Browser  int       `json:"browserCores"`  // navigator.hardwareConcurrency
	Isolated bool      `json:"crossIsolated"` // the page was cross-origin isolated (shared memory available)
	Base     string    `json:"baseCommit"`    // the baseline module's commit ("" when not measured)
	Rows     []RowsRow `json:"rows"`
	// Load is /proc/loadavg's runnable threads sampled before each call
	// (numbers above the cores mean queueing).
	Load []int `json:"runnable"`
	// Later are the n whose rows come from a later run (BENCH_ROWS_N,
	// merged by mergeRows) than the others.
	Later []int `json:"measuredLater,omitempty"`
}

// RowsRow is one n: the sample's plan and, per configuration (rowsConfigs'
// keys), seconds per sample.
type RowsRow struct {
	N, D, T  int
	Workers  int `json:"workers"`  // native: loss.Workers(n, cores)
	BWorkers int `json:"bWorkers"` // Chromium
	// PassesFixed and PassesAdaptive are the passes over the rows per
	// sample (anchor passes + trials, padding included) natively.
	PassesFixed    float64              `json:"passesFixed"`
	PassesAdaptive float64              `json:"passesAdaptive"`
	Cells          map[string]*RowsCell `json:"cells"`
	// SameBits: every native run's θ equal to the native W = 1 θ of its
	// work mode, and every Chromium run's to Chromium's W = 1 θ of its mode.
	SameBits bool `json:"sameBits"`
}

// RowsCell is one configuration at one n: wall-clock seconds per call and
// CPU seconds of the same calls (the runner process natively, the browser's
// process tree in Chromium, V8's compiler and GC threads included).
type RowsCell struct {
	Wall    []float64 `json:"wall"`
	CPU     []float64 `json:"cpu"`
	Workers int       `json:"workers"`
}

// BaseCommit is the commit issue 24 was filed at: its module is "today's
// single-worker time" of the issue's goals (before the faster passes, the
// shards and fixed work).
const BaseCommit = "cc7be60"

// rowsConfig is one column of the table.
type rowsConfig struct {
	key    string
	where  string // "native", "chromium", "base" (the baseline module in Chromium)
	all    bool   // W = every core offered (else 1)
	fixed  bool   // fixedWork
	mode   string // Chromium pool: "auto", "shared", "messages"
	header string
	maxN   int // measured up to this n only (0: every n)
}

var rowsConfigs = []rowsConfig{
	{"native-fixed-1", "native", false, true, "", "native W=1 fixed", 0},
	{"native-fixed-W", "native", true, true, "", "native W=cores fixed", 0},
	{"native-adaptive-1", "native", false, false, "", "native W=1 adaptive", 0},
	{"native-adaptive-W", "native", true, false, "", "native W=cores adaptive", 0},
	{"base-1", "base", false, false, "", "Chromium then (" + BaseCommit + ") W=1", 0},
	{"chromium-adaptive-1", "chromium", false, false, "auto", "Chromium W=1 adaptive", 0},
	{"chromium-adaptive-W", "chromium", true, false, "shared", "Chromium W=cores adaptive (shared)", 0},
	{"chromium-fixed-1", "chromium", false, true, "auto", "Chromium W=1 fixed", 0},
	{"chromium-fixed-W", "chromium", true, true, "shared", "Chromium W=cores fixed (shared)", 0},
	{"chromium-fixed-W-messages", "chromium", true, true, "messages", "Chromium W=cores fixed (messages)", 10_000}, // the slowest column: measured where the page's default tables are
}

const rowsProtocol = "one first-order logistic sample (benchkit.RowsRequest: d = 30 rows on the unit sphere, ε = 1, δ = 1e-5·455/n, C = 10, seeded) per call, the whole mechanism.sample call (plan, sampler, non-private fit); natively in the runner (mechanism.Sample) and in headless Chromium through the page's worker API (load(); the shard workers start inside the call), %d round(s), the fastest call reported; W = 1 and W = all cores offered (native: runtime.NumCPU(); Chromium: navigator.hardwareConcurrency); with fixed work (`fixedWork`, the default since issue 21 and what the page runs: T·(K+1) anchor passes and B trials, padded) and adaptive (`fixedWork: false`, the work of the issue's baseline); in Chromium with shared memory (the dev server sends COOP/COEP) and with messages (dpsample._test.poolMode), with the fallback to one worker off (dpsample._test.keepWorkers: the column measures the workers, which a run on a busy device would otherwise leave for the sampling worker alone); \"then\" is the module built at %s, the commit the issue was filed at (before the faster passes, the shards and fixed work), loaded in a second headless Chromium and given the same request (adaptive, one worker: all it had). Each call is timed by the wall clock and by CPU time (getrusage of the runner natively; the headless browser's process tree from /proc in Chromium)."

// rowsJS generates benchkit.RowsData in the page and runs one sample. A
// negative workers leaves workers and fixedWork out of the request (the
// baseline module knows neither field).
const rowsJS = `(async (n, workers, mode, fixedWork) => {
  const d = await dpsampleRemote;
  if (workers >= 0) { await d._test.poolMode(mode); await d._test.keepWorkers(true); }
  const D = 30, x = [], y = [];
  for (let i = 0; i < n; i++) {
    const r = new Array(D); let s = 0, dot = 0;
    for (let j = 0; j < D; j++) { r[j] = Math.sin(1.3 * i + 0.7 * j * j) + Math.cos(0.37 * i * (j + 1)); s += r[j] * r[j]; }
    s = Math.sqrt(s);
    for (let j = 0; j < D; j++) { r[j] /= s; dot += r[j] * Math.cos(j); }
    let l = dot <= 0 ? -1 : 1; if (i % 10 === 3) l = -l;
    x.push(r); y.push(l);
  }
  const req = {loss: "logistic", x, y, epsilon: 1, delta: 1e-5 * 455 / n, radius: 10, clip: 1, seed: 24};
  if (workers >= 0) { req.workers = workers; req.fixedWork = fixedWork; }
  const t0 = performance.now();
  const res = await d.mechanism.sample(req);
  const s = (performance.now() - t0) / 1000;
  const pool = workers > 1 ? await d._test.poolStats() : null;
  return {s, workers: res.diagnostics.workers || 1, note: res.diagnostics.note || "", theta: res.theta,
          cores: navigator.hardwareConcurrency, isolated: crossOriginIsolated, pool};
})`

type rowsJSResult struct {
	S        float64   `json:"s"`
	Workers  int       `json:"workers"`
	Note     string    `json:"note"`
	Theta    []float64 `json:"theta"`
	Cores    int       `json:"cores"`
	Isolated bool      `json:"isolated"`
	Pool     *struct {
		Passes                   int
		BeginMs, LocalMs, WaitMs float64
	} `json:"pool"`
}

// rowsSection measures the table. base is a second browser on a checkout
// built at BaseCommit (nil: the "then" column is left out).
func rowsSection(br, base *chrome.Browser) (Rows, error) {
	reps := 1
	ns := benchkit.RowsN
	if quick {
		reps, ns = 1, ns[:1]
	}
	if v := os.Getenv("BENCH_ROWS_N"); v != "" { // for iterating: one n (not for quoting)
		n, err := strconv.Atoi(v)
		if err != nil || n < benchkit.RowsMinN {
			return Rows{}, fmt.Errorf("BENCH_ROWS_N=%q: want a whole number ≥ %d", v, benchkit.RowsMinN)
		}
		ns = []int{n}
	}
	out := Rows{Protocol: fmt.Sprintf(rowsProtocol, reps, BaseCommit), Cores: runtime.NumCPU()}
	ctx, done, _, err := br.Tab(3 * time.Hour)
	if err != nil {
		return out, err
	}
	defer done()
	var bctx context.Context
	if base != nil {
		var bdone context.CancelFunc
		if bctx, bdone, _, err = base.Tab(3 * time.Hour); err != nil {
			return out, fmt.Errorf("the baseline module (%s): %w", BaseCommit, err)
		}
		defer bdone()
		out.Base = BaseCommit
	}
	chrom := func(ctx context.Context, n, w int, mode string, fixed bool) (rowsJSResult, error) {
		expr := fmt.Sprintf("%s(%d, %d, %q, %t)", rowsJS, n, w, mode, fixed)
		cctx, cancel := context.WithTimeout(ctx, time.Hour)
		defer cancel()
		r, err := chromedp.Run(cctx, chromedp.Evaluate[rowsJSResult](expr, chromedp.EvalAwaitPromise))
		if err == nil && r.Note != "" {
			err = fmt.Errorf("n=%d W=%d %s: %s", n, w, mode, r.Note)
		}
		return r, err
	}
	// Warm-up (V8 tiers the hot functions up from Liftoff between calls,
	// and the shard path with a small pool): not reported.
	probe, err := chrom(ctx, ns[0], 1, "auto", true)
	if err != nil {
		return out, err
	}
	out.Browser, out.Isolated = probe.Cores, probe.Isolated
	if _, err := chrom(ctx, ns[0], probe.Cores, "auto", true); err != nil {
		return out, err
	}
	if bctx != nil {
		if _, err := chrom(bctx, ns[0], -1, "", false); err != nil {
			return out, fmt.Errorf("the baseline module (%s): %w", BaseCommit, err)
		}
	}
	for _, n := range ns {
		row := RowsRow{N: n, D: benchkit.RowsD, SameBits: true, Cells: map[string]*RowsCell{}}
		refs := map[string][]float64{}
		same := func(key string, theta []float64) {
			if ref, ok := refs[key]; ok {
				row.SameBits = row.SameBits && equal(ref, theta)
			} else {
				refs[key] = theta
			}
		}
		for range reps {
			for _, c := range rowsConfigs {
				if c.where == "base" && bctx == nil || c.mode == "shared" && !out.Isolated || c.maxN > 0 && n > c.maxN {
					continue
				}
				cell := row.Cells[c.key]
				if cell == nil {
					cell = &RowsCell{}
					row.Cells[c.key] = cell
				}
				out.Load = append(out.Load, runnable())
				switch c.where {
				case "native":
					w := 1
					if c.all {
						w = out.Cores
					}
					req := benchkit.RowsRequest(n, w)
					req.FixedWork = &c.fixed
					t0, c0 := time.Now(), selfCPU()
					res, err := mechanism.Sample(context.Background(), req, nil)
					if err != nil {
						return out, err
					}
					cell.Wall = append(cell.Wall, time.Since(t0).Seconds())
					cell.CPU = append(cell.CPU, (selfCPU() - c0).Seconds())
					cell.Workers = res.Plan.Workers
					row.T = res.Plan.Steps
					passes := float64(res.Diagnostics.AnchorPasses+res.Diagnostics.Trials) / float64(res.Plan.Samples)
					if c.fixed {
						row.PassesFixed = passes
					} else {
						row.PassesAdaptive = passes
					}
					if c.all {
						row.Workers = res.Plan.Workers
					}
					same(fmt.Sprintf("native %t", c.fixed), res.Theta)
				default:
					cx, b, w := ctx, br, 1
					if c.where == "base" {
						cx, b, w = bctx, base, -1
					} else if c.all {
						w = out.Browser
					}
					c0 := treeCPU(b.Pid)
					r, err := chrom(cx, n, w, c.mode, c.fixed)
					if err != nil {
						return out, err
					}
					cell.Wall = append(cell.Wall, r.S)
					cell.CPU = append(cell.CPU, (treeCPU(b.Pid) - c0).Seconds())
					cell.Workers = r.Workers
					if c.all {
						row.BWorkers = r.Workers
					}
					if c.where != "base" {
						same(fmt.Sprintf("chromium %t", c.fixed), r.Theta)
					}
					if r.Pool != nil {
						fmt.Fprintf(os.Stderr, "bench: rows n=%d %s: pool %d passes, µs per pass: begin %.1f, own shard %.1f, wait %.1f\n", n, c.key,
							r.Pool.Passes, 1e3*r.Pool.BeginMs/float64(r.Pool.Passes), 1e3*r.Pool.LocalMs/float64(r.Pool.Passes), 1e3*r.Pool.WaitMs/float64(r.Pool.Passes))
					}
				}
				fmt.Fprintf(os.Stderr, "bench: rows n=%d %s: %.2f s (CPU %.2f s, W=%d)\n", n, c.key, cell.Wall[len(cell.Wall)-1], cell.CPU[len(cell.CPU)-1], cell.Workers)
			}
		}
		out.Rows = append(out.Rows, row)
	}
	if _, err := chrom(ctx, 200, 1, "auto", true); err != nil { // leave the page's pool mode at auto
		return out, err
	}
	return out, nil
}

// selfCPU is the runner's CPU time (user + system).
func selfCPU() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// treeCPU is the CPU time (user + system) of process pid and its
// descendants (the headless browser and its renderers), from /proc.
func treeCPU(pid int) time.Duration {
	if pid <= 0 {
		return 0
	}
	type proc struct{ ppid, ticks int }
	procs := map[int]proc{}
	dirs, _ := os.ReadDir("/proc")
	for _, d := range dirs {
		p, err := strconv.Atoi(d.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile("/proc/" + d.Name() + "/stat")
		if err != nil {
			continue
		}
		f := strings.Fields(string(b[strings.LastIndexByte(string(b), ')')+1:]))
		if len(f) < 13 {
			continue
		}
		ppid, _ := strconv.Atoi(f[1])
		ut, _ := strconv.Atoi(f[11])
		st, _ := strconv.Atoi(f[12])
		procs[p] = proc{ppid, ut + st}
	}
	in := map[int]bool{pid: true}
	for changed := true; changed; {
		changed = false
		for p, pr := range procs {
			if !in[p] && in[pr.ppid] {
				in[p], changed = true, true
			}
		}
	}
	ticks := 0
	for p := range in {
		ticks += procs[p].ticks
	}
	return time.Duration(ticks) * (time.Second / 100) // USER_HZ = 100 on Linux
}

// runnable is the number of runnable threads now (/proc/loadavg).
func runnable() int {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return -1
	}
	f := strings.Fields(string(b))
	if len(f) < 4 {
		return -1
	}
	n, _ := strconv.Atoi(strings.SplitN(f[3], "/", 2)[0])
	return n
}

func equal(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// amdahl returns the serial fraction s of a speed-up S measured on w
// workers (S = 1/(s + (1−s)/w)) and the projected speed-ups on 4 and 8.
func amdahl(speedup float64, w int) (s, s4, s8 float64) {
	if w < 2 || !(speedup > 0) {
		return math.NaN(), math.NaN(), math.NaN()
	}
	s = (float64(w)/speedup - 1) / float64(w-1)
	s = math.Max(0, math.Min(1, s))
	proj := func(k float64) float64 { return 1 / (s + (1-s)/k) }
	return s, proj(4), proj(8)
}

// rowsMarkdown renders the rows-per-tab tables and the projection.
func rowsMarkdown(r Rows) string {
	if len(r.Rows) == 0 {
		return ""
	}
	var b strings.Builder
	p := func(format string, a ...any) { fmt.Fprintf(&b, format, a...) }
	p("## Rows per tab: parallel passes (issue 24)\n\n%s\n\n", r.Protocol)
	wall := func(x RowsRow, key string) float64 {
		if c := x.Cells[key]; c != nil {
			return stats.Minimum(c.Wall)
		}
		return math.NaN()
	}
	var header []string
	header = append(header, "n", "T", "passes/sample fixed / adaptive")
	for _, c := range rowsConfigs {
		if c.where == "base" && r.Base == "" || c.mode == "shared" && !r.Isolated {
			continue
		}
		h := c.header
		if c.all {
			h = strings.Replace(h, "W=cores", fmt.Sprintf("W=%d", map[bool]int{true: r.Cores, false: r.Browser}[c.where == "native"]), 1)
		}
		header = append(header, h)
	}
	var rows [][]string
	for _, x := range r.Rows {
		row := []string{strconv.Itoa(x.N), strconv.Itoa(x.T), md.Sig(x.PassesFixed) + " / " + md.Sig(x.PassesAdaptive)}
		for _, c := range rowsConfigs {
			if c.where == "base" && r.Base == "" || c.mode == "shared" && !r.Isolated {
				continue
			}
			if w := wall(x, c.key); math.IsNaN(w) {
				row = append(row, "—")
			} else {
				row = append(row, md.Sig(w)+" s")
			}
		}
		rows = append(rows, row)
	}
	p("Seconds per sample (wall clock, one call):\n\n%s\n", md.Table(header, rows))
	// The goals, as ratios of the same run.
	bestW := func(x RowsRow, fixed bool) (float64, string) {
		if !fixed {
			return wall(x, "chromium-adaptive-W"), "shared"
		}
		s, m := wall(x, "chromium-fixed-W"), wall(x, "chromium-fixed-W-messages")
		if math.IsNaN(s) || m < s {
			return m, "messages"
		}
		return s, "shared"
	}
	rows = nil
	for _, x := range r.Rows {
		fw, fm := bestW(x, true)
		aw, _ := bestW(x, false)
		base := wall(x, "base-1")
		rows = append(rows, []string{strconv.Itoa(x.N),
			md.Sig(wall(x, "native-fixed-1")/wall(x, "native-fixed-W")) + "× / " + md.Sig(wall(x, "native-adaptive-1")/wall(x, "native-adaptive-W")) + "×",
			md.Sig(wall(x, "chromium-fixed-1")/fw) + "× (" + fm + ") / " + md.Sig(wall(x, "chromium-adaptive-1")/aw) + "×",
			md.Sig(aw / base), md.Sig(fw / base),
			md.Sig(wall(x, "chromium-adaptive-1") / wall(x, "native-adaptive-1")),
			fmt.Sprint(x.SameBits)})
	}
	p("The goals, as ratios within this run: the speed-up on W = %d workers (goal ≥ %s: 0.8·W), with fixed work / adaptive; Chromium on all its workers against the baseline module on one (goal ≤ 0.4), adaptive (the same work as then) and with fixed work (the page's default: more passes, see passes/sample); Chromium/native per sample, one worker, adaptive:\n\n", r.Cores, md.Sig(0.8*float64(r.Cores)))
	p("%s\n", md.Table([]string{"n", "native speed-up fixed / adaptive", "Chromium speed-up fixed / adaptive", "Chromium all workers ÷ then, adaptive", "Chromium all workers ÷ then, fixed work", "Chromium/native (W=1, adaptive)", "same θ for every W"}, rows))
	last := r.Rows[len(r.Rows)-1]
	fw, _ := bestW(last, true)
	sn, n4, n8 := amdahl(wall(last, "native-fixed-1")/wall(last, "native-fixed-W"), last.Workers)
	sc, c4, c8 := amdahl(wall(last, "chromium-fixed-1")/fw, last.BWorkers)
	lo, hi, med := loadStats(r.Load)
	p("The machine has %d CPUs; %d–%d runnable threads (median %d) when the calls started. ", r.Cores, lo, hi, med)
	if len(r.Later) > 0 {
		later := make([]string, len(r.Later))
		for i, n := range r.Later {
			later[i] = strconv.Itoa(n)
		}
		p("The row n = %s comes from a later run of this section alone (`BENCH_ROWS_N`: the code changed, or the first run's calls at that n were disturbed; the header says when), the others and the baseline from one run; its baseline cells are blank. ", strings.Join(later, ", "))
	}
	c1 := wall(last, "chromium-fixed-1")
	p("Projection to 4 and 8 cores (Amdahl's law, serial fraction fitted to the wall-clock speed-up with fixed work at n = %d): natively serial fraction %s → %s× on 4 cores, %s× on 8; in Chromium %s → %s× on 4, %s× on 8, so the page's sample at n = %d (fixed work, %s s on one worker here) would take ≈ %s s on a 4-core and ≈ %s s on an 8-core machine of this per-core speed.\n\n",
		last.N, md.Sig(sn), md.Sig(n4), md.Sig(n8), md.Sig(sc), md.Sig(c4), md.Sig(c8), last.N, md.Sig(c1), md.Sig(c1/c4), md.Sig(c1/c8))
	return b.String()
}

// loadStats returns the least, greatest and median of xs.
func loadStats(xs []int) (lo, hi, med int) {
	if len(xs) == 0 {
		return 0, 0, 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	return s[0], s[len(s)-1], s[len(s)/2]
}

// rowsWithBaseline runs rowsSection with a second browser on baseRoot (a
// checkout built at BaseCommit) when baseRoot is set; "auto" makes one: a
// detached git worktree of root at BaseCommit, built by its ./build.sh build
// and removed afterwards.
func rowsWithBaseline(br *chrome.Browser, root, baseRoot string) (Rows, error) {
	if baseRoot == "" {
		return rowsSection(br, nil)
	}
	if baseRoot == "auto" {
		dir, err := os.MkdirTemp("", "dpsample-base-")
		if err != nil {
			return Rows{}, err
		}
		baseRoot = filepath.Join(dir, "base")
		for _, c := range [][]string{{"git", "-C", root, "worktree", "add", "--detach", baseRoot, BaseCommit}, {filepath.Join(baseRoot, "build.sh"), "build"}} {
			cmd := exec.Command(c[0], c[1:]...)
			cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
			if err := cmd.Run(); err != nil {
				return Rows{}, fmt.Errorf("-rows-baseline auto: %s: %w", strings.Join(c, " "), err)
			}
		}
		defer exec.Command("git", "-C", root, "worktree", "remove", "--force", baseRoot).Run()
	}
	base, err := chrome.Start(baseRoot)
	if err != nil {
		return Rows{}, fmt.Errorf("-rows-baseline %s: %w", baseRoot, err)
	}
	defer base.Close()
	return rowsSection(br, base)
}

// mergeRows returns prev with the rows of next (same n replaced, new n
// added, sorted by n), next's protocol and machine, and both runs' load
// samples.
func mergeRows(prev, next Rows) Rows {
	out := next
	out.Rows = nil
	for _, r := range prev.Rows {
		if !slices.ContainsFunc(next.Rows, func(x RowsRow) bool { return x.N == r.N }) && r.Cells != nil {
			out.Rows = append(out.Rows, r)
		}
	}
	out.Rows = append(out.Rows, next.Rows...)
	slices.SortFunc(out.Rows, func(a, b RowsRow) int { return a.N - b.N })
	out.Load = append(slices.Clone(prev.Load), next.Load...)
	for _, r := range next.Rows {
		if !slices.Contains(prev.Later, r.N) {
			out.Later = append(slices.Clone(prev.Later), r.N)
		}
	}
	if out.Base == "" {
		out.Base = prev.Base
	}
	return out
}
