//go:build !js

package main

import (
	"context"
	"fmt"
	"math"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/dpsample/dpsample/core/benchkit"
	"github.com/dpsample/dpsample/core/mechanism"
)

// Rows is the rows-per-tab table (issue 24): one first-order logistic sample
// (benchkit.RowsRequest) at each n, natively and in Chromium (through the
// page's worker API, so the browser rows include the shard workers' start),
// on one worker and on every core, with messages and with shared memory.
type Rows struct {
	Protocol string    `json:"protocol"`
	Cores    int       `json:"cores"`         // runtime.NumCPU()
	Browser  int       `json:"browserCores"`  // navigator.hardwareConcurrency
	Isolated bool      `json:"crossIsolated"` // the page was cross-origin isolated (shared memory available)
	Rows     []RowsRow `json:"rows"`
	// Load is /proc/loadavg's runnable threads sampled before each call
	// (the machine is shared: numbers above the cores mean queueing).
	Load []int `json:"runnable"`
}

// RowsRow is one n: seconds per sample (the fastest of Reps), the workers
// used and the sample's plan.
type RowsRow struct {
	N, D, T         int
	Workers         int       `json:"workers"`  // native: loss.Workers(n, cores)
	BWorkers        int       `json:"bWorkers"` // Chromium
	Native1         []float64 `json:"native1"`
	NativeW         []float64 `json:"nativeW"`
	Chrom1          []float64 `json:"chromium1"`
	ChromShared     []float64 `json:"chromiumShared"`
	ChromMessages   []float64 `json:"chromiumMessages"`
	SameBits        bool      `json:"sameBits"` // every run's θ equal to the native one-worker θ? (natively; in Chromium to its own)
	PassesPerSample float64   `json:"passesPerSample"`
	// CPU seconds of the same calls (the runner process natively, the
	// browser's process tree in Chromium): on a loaded machine the wall
	// clock measures the waiting too, the CPU time only the work.
	Native1CPU       []float64 `json:"native1CPU"`
	NativeWCPU       []float64 `json:"nativeWCPU"`
	Chrom1CPU        []float64 `json:"chromium1CPU"`
	ChromSharedCPU   []float64 `json:"chromiumSharedCPU"`
	ChromMessagesCPU []float64 `json:"chromiumMessagesCPU"`
}

const rowsProtocol = "one first-order logistic sample (benchkit.RowsRequest: d = 30 rows on the unit sphere, ε = 1, δ = 1e-5·455/n, C = 10, seeded) per call, the whole mechanism.sample call (plan, sampler, non-private fit); natively in the runner (mechanism.Sample) and in headless Chromium through the page's worker API (load(); the shard workers start inside the call), %d round(s), the fastest call reported; W = 1 and W = all cores offered (native: runtime.NumCPU(); Chromium: navigator.hardwareConcurrency), in Chromium with shared memory (the dev server sends COOP/COEP) and with messages (dpsample._test.poolMode). Each call is timed by the wall clock and by CPU time (getrusage of the runner natively; the headless browser's process tree from /proc in Chromium, which includes V8's compiler and GC threads)."

// rowsJS generates benchkit.RowsData in the page and runs one sample.
const rowsJS = `(async (n, workers, mode) => {
  const d = await dpsampleRemote;
  await d._test.poolMode(mode);
  const D = 30, x = [], y = [];
  for (let i = 0; i < n; i++) {
    const r = new Array(D); let s = 0, dot = 0;
    for (let j = 0; j < D; j++) { r[j] = Math.sin(1.3 * i + 0.7 * j * j) + Math.cos(0.37 * i * (j + 1)); s += r[j] * r[j]; }
    s = Math.sqrt(s);
    for (let j = 0; j < D; j++) { r[j] /= s; dot += r[j] * Math.cos(j); }
    let l = dot <= 0 ? -1 : 1; if (i % 10 === 3) l = -l;
    x.push(r); y.push(l);
  }
  const t0 = performance.now();
  const res = await d.mechanism.sample({loss: "logistic", x, y, epsilon: 1, delta: 1e-5 * 455 / n, radius: 10, clip: 1, seed: 24, workers});
  return {s: (performance.now() - t0) / 1000, workers: res.diagnostics.workers, note: res.diagnostics.note || "", theta: res.theta,
          cores: navigator.hardwareConcurrency, isolated: crossOriginIsolated};
})`

type rowsJSResult struct {
	S        float64   `json:"s"`
	Workers  int       `json:"workers"`
	Note     string    `json:"note"`
	Theta    []float64 `json:"theta"`
	Cores    int       `json:"cores"`
	Isolated bool      `json:"isolated"`
}

func rowsSection(br *browser) (Rows, error) {
	reps := 1
	ns := benchkit.RowsN
	if quick {
		reps, ns = 1, ns[:1]
	}
	out := Rows{Protocol: fmt.Sprintf(rowsProtocol, reps), Cores: runtime.NumCPU()}
	ctx, done, _, err := br.tab(3 * time.Hour) // a loaded machine stretches the wall clock
	if err != nil {
		return out, err
	}
	defer done()
	chrom := func(n, w int, mode string) (rowsJSResult, error) {
		expr := fmt.Sprintf("%s(%d, %d, %q)", rowsJS, n, w, mode)
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
	probe, err := chrom(ns[0], 1, "auto")
	if err != nil {
		return out, err
	}
	out.Browser, out.Isolated = probe.Cores, probe.Isolated
	if _, err := chrom(ns[0], probe.Cores, "auto"); err != nil {
		return out, err
	}
	for _, n := range ns {
		row := RowsRow{N: n, D: benchkit.RowsD, SameBits: true}
		var ref, cref []float64
		for range reps {
			for _, w := range []int{1, out.Cores} {
				out.Load = append(out.Load, runnable())
				t0, c0 := time.Now(), selfCPU()
				res, err := mechanism.Sample(context.Background(), benchkit.RowsRequest(n, w), nil)
				if err != nil {
					return out, err
				}
				s, c := time.Since(t0).Seconds(), (selfCPU() - c0).Seconds()
				if w == 1 {
					row.Native1CPU = append(row.Native1CPU, c)
				} else {
					row.NativeWCPU = append(row.NativeWCPU, c)
				}
				if w == 1 {
					row.Native1 = append(row.Native1, s)
					row.T = res.Plan.Steps
					row.PassesPerSample = float64(res.Diagnostics.AnchorPasses+res.Diagnostics.Trials) / float64(res.Plan.Samples)
				} else {
					row.NativeW = append(row.NativeW, s)
					row.Workers = res.Plan.Workers
				}
				if ref == nil {
					ref = res.Theta
				}
				row.SameBits = row.SameBits && equal(ref, res.Theta)
			}
			for _, c := range []struct {
				w        int
				mode     string
				dst, cpu *[]float64
			}{{1, "auto", &row.Chrom1, &row.Chrom1CPU}, {out.Browser, "shared", &row.ChromShared, &row.ChromSharedCPU},
				{out.Browser, "messages", &row.ChromMessages, &row.ChromMessagesCPU}} {
				if c.mode == "shared" && !out.Isolated {
					continue
				}
				out.Load = append(out.Load, runnable())
				c0 := treeCPU(br.pid)
				r, err := chrom(n, c.w, c.mode)
				if err != nil {
					return out, err
				}
				*c.dst = append(*c.dst, r.S)
				*c.cpu = append(*c.cpu, (treeCPU(br.pid) - c0).Seconds())
				if c.w > 1 {
					row.BWorkers = r.Workers
				}
				if cref == nil {
					cref = r.Theta
				}
				row.SameBits = row.SameBits && equal(cref, r.Theta)
			}
		}
		out.Rows = append(out.Rows, row)
		fmt.Fprintf(os.Stderr, "bench: rows n=%d: T=%d native %.2f s / %.2f s (W=%d), Chromium %.2f s / shared %.2f s / messages %.2f s (W=%d)\n",
			n, row.T, minimum(row.Native1), minimum(row.NativeW), row.Workers, minimum(row.Chrom1), minimum(row.ChromShared), minimum(row.ChromMessages), row.BWorkers)
	}
	if _, err := chrom(200, 1, "auto"); err != nil { // leave the page's pool mode at auto
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

// rowsMarkdown renders the rows-per-tab table and the closing note.
func rowsMarkdown(r Rows) string {
	if len(r.Rows) == 0 {
		return ""
	}
	var b strings.Builder
	p := func(format string, a ...any) { fmt.Fprintf(&b, format, a...) }
	p("## Rows per tab: parallel passes (issue 24)\n\n%s\n\n", r.Protocol)
	wc := func(w, c []float64) string { return sig(minimum(w)) + " / " + sig(minimum(c)) }
	// cpuSpeedup is W·CPU(W=1)/CPU(W) (see the text below the table).
	cpuSpeedup := func(c1, cw []float64, w int) float64 { return float64(w) * minimum(c1) / minimum(cw) }
	var rows [][]string
	for _, x := range r.Rows {
		best, bestCPU := x.ChromShared, x.ChromSharedCPU
		if len(best) == 0 || minimum(x.ChromMessages) < minimum(best) {
			best, bestCPU = x.ChromMessages, x.ChromMessagesCPU
		}
		rows = append(rows, []string{strconv.Itoa(x.N), strconv.Itoa(x.T), sig(x.PassesPerSample / float64(x.T)),
			wc(x.Native1, x.Native1CPU), wc(x.NativeW, x.NativeWCPU) + " (W=" + strconv.Itoa(x.Workers) + ")",
			sig(minimum(x.Native1)/minimum(x.NativeW)) + "× / " + sig(cpuSpeedup(x.Native1CPU, x.NativeWCPU, x.Workers)) + "×",
			wc(x.Chrom1, x.Chrom1CPU), wc(x.ChromShared, x.ChromSharedCPU), wc(x.ChromMessages, x.ChromMessagesCPU),
			sig(minimum(x.Chrom1)/minimum(best)) + "× / " + sig(cpuSpeedup(x.Chrom1CPU, bestCPU, x.BWorkers)) + "×",
			sig(minimum(x.Chrom1CPU) / minimum(x.Native1CPU)), fmt.Sprint(x.SameBits)})
	}
	p("Seconds per sample, wall clock / CPU; speed-ups wall clock / from CPU time, W·CPU(1)/CPU(W): the speed-up on W free cores if every CPU second of the W-worker run were useful work and no worker waited idle (an estimate, not a bound: waiting that spins — Go's scheduler, Atomics slices — burns CPU and lowers it; idle waiting does not show and raises it).\n\n")
	p("%s\n", table([]string{"n", "T", "passes/step", "native W=1", "native W=cores", "native speed-up", "Chromium W=1",
		fmt.Sprintf("Chromium W=%d shared", r.Browser), fmt.Sprintf("Chromium W=%d messages", r.Browser), "Chromium speed-up (best mode)",
		"Chromium/native CPU (W=1)", "same θ for every W"}, rows))
	last := r.Rows[len(r.Rows)-1]
	best := last.ChromSharedCPU
	if len(best) == 0 || minimum(last.ChromMessagesCPU) < minimum(best) {
		best = last.ChromMessagesCPU
	}
	sn, n4, n8 := amdahl(cpuSpeedup(last.Native1CPU, last.NativeWCPU, last.Workers), last.Workers)
	sc, c4, c8 := amdahl(cpuSpeedup(last.Chrom1CPU, best, last.BWorkers), last.BWorkers)
	lo, hi, med := loadStats(r.Load)
	p("The machine (%d CPUs) was shared: %d–%d runnable threads (median %d) when the calls started, so the wall clock includes queueing and its speed-ups are not a measurement of the parallel passes; the CPU times are. ", r.Cores, lo, hi, med)
	p("Projection to 4 and 8 cores (Amdahl's law, serial fraction fitted to the CPU-time speed-up at n = %d): natively serial fraction %s → %s× on 4 cores, %s× on 8; in Chromium %s → %s× on 4, %s× on 8, so one sample at n = %d would take ≈ %s s on a 4-core and ≈ %s s on an 8-core machine like this one (Chromium, single-worker CPU time %s s).\n\n",
		last.N, sig(sn), sig(n4), sig(n8), sig(sc), sig(c4), sig(c8), last.N, sig(minimum(last.Chrom1CPU)/c4), sig(minimum(last.Chrom1CPU)/c8), sig(minimum(last.Chrom1CPU)))
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
