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
}

const rowsProtocol = "one first-order logistic sample (benchkit.RowsRequest: d = 30 rows on the unit sphere, ε = 1, δ = 1e-5·455/n, C = 10, seeded) per call, the whole mechanism.sample call (plan, sampler, non-private fit); natively in the runner (mechanism.Sample) and in headless Chromium through the page's worker API (load(); the shard workers start inside the call), %d rounds interleaved, fastest call reported; W = 1 and W = all cores offered (native: runtime.NumCPU(); Chromium: navigator.hardwareConcurrency), in Chromium with shared memory (the dev server sends COOP/COEP) and with messages (dpsample._test.poolMode). The machine is shared with other jobs: the minimum is the least disturbed estimate."

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
	reps := 2
	ns := benchkit.RowsN
	if quick {
		reps, ns = 1, ns[:1]
	}
	out := Rows{Protocol: fmt.Sprintf(rowsProtocol, reps), Cores: runtime.NumCPU()}
	ctx, done, _, err := br.tab()
	if err != nil {
		return out, err
	}
	defer done()
	chrom := func(n, w int, mode string) (rowsJSResult, error) {
		expr := fmt.Sprintf("%s(%d, %d, %q)", rowsJS, n, w, mode)
		cctx, cancel := context.WithTimeout(ctx, 10*time.Minute)
		defer cancel()
		r, err := chromedp.Run(cctx, chromedp.Evaluate[rowsJSResult](expr, chromedp.EvalAwaitPromise))
		if err == nil && r.Note != "" {
			err = fmt.Errorf("n=%d W=%d %s: %s", n, w, mode, r.Note)
		}
		return r, err
	}
	probe, err := chrom(200, 1, "auto")
	if err != nil {
		return out, err
	}
	out.Browser, out.Isolated = probe.Cores, probe.Isolated
	for _, n := range ns {
		row := RowsRow{N: n, D: benchkit.RowsD, SameBits: true}
		var ref, cref []float64
		for range reps {
			for _, w := range []int{1, out.Cores} {
				t0 := time.Now()
				res, err := mechanism.Sample(context.Background(), benchkit.RowsRequest(n, w), nil)
				if err != nil {
					return out, err
				}
				s := time.Since(t0).Seconds()
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
				w    int
				mode string
				dst  *[]float64
			}{{1, "auto", &row.Chrom1}, {out.Browser, "shared", &row.ChromShared}, {out.Browser, "messages", &row.ChromMessages}} {
				if c.mode == "shared" && !out.Isolated {
					continue
				}
				r, err := chrom(n, c.w, c.mode)
				if err != nil {
					return out, err
				}
				*c.dst = append(*c.dst, r.S)
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
	var rows [][]string
	for _, x := range r.Rows {
		n1, nw := minimum(x.Native1), minimum(x.NativeW)
		c1, cs, cm := minimum(x.Chrom1), minimum(x.ChromShared), minimum(x.ChromMessages)
		per := func(a, b float64, w int) string {
			if !(b > 0) || w < 2 {
				return "—"
			}
			return sig(a/b) + "× (" + sig(a/b/float64(w)) + "/worker)"
		}
		rows = append(rows, []string{strconv.Itoa(x.N), strconv.Itoa(x.T), sig(x.PassesPerSample / float64(x.T)),
			sig(n1) + " s", sig(nw) + " s (W=" + strconv.Itoa(x.Workers) + ")", per(n1, nw, x.Workers),
			sig(c1) + " s", sig(cs) + " s", sig(cm) + " s", per(c1, math.Min(cs, cm), x.BWorkers), sig(c1 / n1), fmt.Sprint(x.SameBits)})
	}
	p("%s\n", table([]string{"n", "T", "passes/step", "native W=1", "native W=cores", "native speed-up", "Chromium W=1",
		fmt.Sprintf("Chromium W=%d shared", r.Browser), fmt.Sprintf("Chromium W=%d messages", r.Browser), "Chromium speed-up (best mode)", "Chromium/native (W=1)", "same θ for every W"}, rows))
	last := r.Rows[len(r.Rows)-1]
	n1, nw := minimum(last.Native1), minimum(last.NativeW)
	s, s4, s8 := amdahl(n1/nw, last.Workers)
	c1, cw := minimum(last.Chrom1), math.Min(minimum(last.ChromShared), minimum(last.ChromMessages))
	cs, c4, c8 := amdahl(c1/cw, last.BWorkers)
	p("Projection (Amdahl's law with the serial fraction fitted to the measured speed-up at n = %d): natively serial fraction %s → %s× on 4 cores, %s× on 8; in Chromium %s → %s× on 4, %s× on 8 (page time at n = %d: %s s on 4 cores, %s s on 8). A machine with %d cores shared with other jobs measures a lower bound on the speed-up.\n\n",
		last.N, sig(s), sig(s4), sig(s8), sig(cs), sig(c4), sig(c8), last.N, sig(c1/c4), sig(c1/c8), r.Cores)
	return b.String()
}
