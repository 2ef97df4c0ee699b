//go:build !js

package main

import (
	"context"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/dpsample/dpsample/core/dpgd"
	"github.com/dpsample/dpsample/core/loss"
	"github.com/dpsample/dpsample/core/rng"
	"github.com/dpsample/dpsample/wasm/tools/internal/stats"
	"github.com/dpsample/dpsample/wasm/tools/internal/study"
	"github.com/dpsample/dpsample/wasm/tools/internal/utility"
)

// The schedule comparison of issue 43: DP-GD's smooth rule before (T ∝ n·s,
// dpgd.RuleGrowing) and after (T ∝ min(n·s, K), dpgd.RuleCapped) on the
// study's development half, at every cell of the study's development grid
// (dataset, loss, ε, c, unprojected and projected), over the study's splits
// (makeSplit, splitSeed) with the study's mechanism seeds (runSeed), so the
// "before" runs are the study's DP-GD runs. A run whose schedule is the same
// under both rules (n·s ≤ K) is not run twice: the same T, σ and seed give
// the same bits.
//
// go run ./wasm/tools/bench -dpgd-schedule development [-dpgd-schedule-caps 100,200,400]
// prints the table (docs/study/dpgd-schedule-development.md).

// schedCell is one cell: its before and after scores per split.
type schedCell struct {
	ds, loss, task, method string
	eps, c                 float64
	n                      int
	half                   float64 // the target's half-range (regression)
	tOld                   int
	tNew                   map[float64]int
	old                    []float64             // score per split (accuracy, or −MAE/half-range)
	new                    map[float64][]float64 // cap → score per split
	secOld                 float64
	secNew                 map[float64]float64
}

func (c *schedCell) key() string {
	return fmt.Sprintf("%s|%s|%g|%g|%s", c.ds, c.loss, c.eps, c.c, c.method)
}

// runDPGDSchedule runs the comparison on one half with par goroutines and
// writes the markdown table for caps[0] (the rule's K) and a summary line
// for every cap.
func runDPGDSchedule(root, half string, splits int, caps []float64, par int, w io.Writer) error {
	o := study.DefaultStudyOptions()
	methods := []string{utility.MethodDPGD, utility.MethodDPGDProjected}
	type unit struct {
		ds study.StudyDataset
		ln string
		sp int
	}
	var units []unit
	for _, ds := range study.StudyDatasets {
		if ds.Half != half {
			continue
		}
		for _, ln := range o.Losses[ds.Task] {
			for sp := 0; sp < splits; sp++ {
				units = append(units, unit{ds, ln, sp})
			}
		}
	}
	cells := map[string]*schedCell{}
	var mu sync.Mutex
	cellFor := func(ds study.StudyDataset, ln, m string, eps, c float64, n int) *schedCell {
		probe := &schedCell{ds: ds.Key, loss: ln, method: m, eps: eps, c: c}
		if x, ok := cells[probe.key()]; ok {
			return x
		}
		probe.task, probe.n = ds.Task, n
		probe.half = ds.TargetRange.Half()
		probe.old = make([]float64, splits)
		probe.new, probe.tNew, probe.secNew = map[float64][]float64{}, map[float64]int{}, map[float64]float64{}
		for _, k := range caps {
			probe.new[k] = make([]float64, splits)
		}
		cells[probe.key()] = probe
		return probe
	}
	jobs := make(chan unit)
	errs := make(chan error, par)
	var wg sync.WaitGroup
	start := time.Now()
	done := 0
	for range par {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for u := range jobs {
				if err := schedUnit(root, u.ds, u.ln, u.sp, o, methods, caps, &mu, cellFor); err != nil {
					errs <- err
					return
				}
				mu.Lock()
				done++
				fmt.Fprintf(os.Stderr, "dpgd-schedule: %s %s split %d done (%d/%d, %.0f s)\n", u.ds.Key, u.ln, u.sp, done, len(units), time.Since(start).Seconds())
				mu.Unlock()
			}
		}()
	}
	for _, u := range units {
		select {
		case jobs <- u:
		case err := <-errs:
			close(jobs)
			return err
		}
	}
	close(jobs)
	wg.Wait()
	select {
	case err := <-errs:
		return err
	default:
	}
	var list []*schedCell
	for _, c := range cells {
		list = append(list, c)
	}
	order := map[string]int{}
	for i, d := range study.StudyDatasets {
		order[d.Key] = i
	}
	sort.Slice(list, func(i, j int) bool {
		a, b := list[i], list[j]
		if a.ds != b.ds {
			return order[a.ds] < order[b.ds]
		}
		if a.loss != b.loss {
			return a.loss < b.loss
		}
		if a.method != b.method {
			return a.method < b.method
		}
		if a.eps != b.eps {
			return a.eps < b.eps
		}
		return a.c < b.c
	})
	writeSchedTable(w, half, splits, caps, list)
	return nil
}

// schedUnit runs every cell of one (dataset, loss, split).
func schedUnit(root string, ds study.StudyDataset, ln string, sp int, o study.StudyOptions, methods []string, caps []float64,
	mu *sync.Mutex, cellFor func(study.StudyDataset, string, string, float64, float64, int) *schedCell) error {
	tab, _, err := ds.Load(root)
	if err != nil {
		return err
	}
	k, err := loss.ParseKind(ln)
	if err != nil {
		return err
	}
	s := study.MakeSplit(tab.X, tab.Y, study.SplitSeed(ds.Key, sp), true)
	d := len(s.XTr[0])
	clip := math.Sqrt(float64(d))
	set, err := loss.New(k, s.XTr, s.YTr, loss.Params{Clip: clip})
	if err != nil {
		return err
	}
	for _, c := range o.GridFor(ds.Task) {
		t := &study.StudyTask{Dataset: ds, Loss: k, Split: s, C: c, Clip: clip, Radius: c / clip, Set: set}
		for _, eps := range o.Epsilons {
			for _, m := range methods {
				p := dpgd.Params{N: set.N(), D: d, G: set.G(), Curvature: set.Curvature(), Radius: t.Radius,
					Epsilon: eps, Delta: o.Delta, Projected: m == utility.MethodDPGDProjected, Rule: dpgd.RuleGrowing}
				seed := study.RunSeed(ds.Key, ln, sp, eps, study.ConfigName(c, ""), m)
				run := func(p dpgd.Params) (int, float64, float64, error) {
					sch, err := dpgd.NewSchedule(p)
					if err != nil {
						return 0, 0, 0, err
					}
					t0 := time.Now()
					th, err := dpgd.Run(context.Background(), set, sch, rng.Seeded(seed), nil)
					if err != nil {
						return 0, 0, 0, err
					}
					_, score := t.Evaluate(th)
					return sch.Steps, score, time.Since(t0).Seconds(), nil
				}
				tOld, old, secOld, err := run(p)
				if err != nil {
					return err
				}
				type res struct {
					t          int
					score, sec float64
				}
				news := map[float64]res{}
				for _, kk := range caps {
					q := p
					q.Rule, q.NSCap = dpgd.RuleCapped, kk
					sch, err := dpgd.NewSchedule(q)
					if err != nil {
						return err
					}
					if sch.Steps == tOld {
						news[kk] = res{tOld, old, secOld}
						continue
					}
					tn, sc, sec, err := run(q)
					if err != nil {
						return err
					}
					news[kk] = res{tn, sc, sec}
				}
				mu.Lock()
				cell := cellFor(ds, ln, m, eps, c, set.N())
				cell.tOld, cell.old[sp], cell.secOld = tOld, old, cell.secOld+secOld
				for kk, r := range news {
					cell.tNew[kk], cell.new[kk][sp] = r.t, r.score
					cell.secNew[kk] += r.sec
				}
				mu.Unlock()
			}
		}
	}
	return nil
}

// writeSchedTable writes the summary per cap and the full table for caps[0].
func writeSchedTable(w io.Writer, half string, splits int, caps []float64, list []*schedCell) {
	fmt.Fprintf(w, "DP-GD's smooth schedule before (T = ⌈0.5·n·s·β·clip²·C/G⌉, dpgd.RuleGrowing) and after (T = ⌈0.5·min(n·s, K)·β·clip²·C/G⌉, dpgd.RuleCapped), %s half of the study, %d splits (the study's splits and mechanism seeds), δ = 1e-5, every (dataset, loss, ε, c) of the study's grid, unprojected (dp-gd) and projected (dp-gd-projected). Score: test accuracy (classification) or −MAE/half-range (regression); difference = after − before, mean over splits with a 95 %% bootstrap interval over splits (paired: the same split and seed).\n\n", half, splits)
	fmt.Fprintln(w, "| K | cells | cells changed (T differs) | mean difference over changed cells | cells below −0.005 | of which the interval excludes 0 | worst cell (difference) | DP-GD time after/before (all cells) |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|---|---|")
	for _, k := range caps {
		var changed, below, belowSig int
		var sum, worst, secO, secN float64
		worstCell := ""
		worst = math.Inf(1)
		for ci, c := range list {
			secO += c.secOld
			secN += c.secNew[k]
			if c.tNew[k] == c.tOld {
				continue
			}
			changed++
			diff := diffs(c.new[k], c.old)
			md := stats.Mean(diff)
			sum += md
			if md < -0.005 {
				below++
				if iv := stats.BootstrapCI(diff, stats.Mean, stats.BootSeed(ci, int(k))); iv[1] < 0 {
					belowSig++
				}
			}
			if md < worst {
				worst, worstCell = md, fmt.Sprintf("%s %s %s ε = %g c = %g", c.ds, c.loss, c.method, c.eps, c.c)
			}
		}
		mc := math.NaN()
		if changed > 0 {
			mc = sum / float64(changed)
		}
		fmt.Fprintf(w, "| %g | %d | %d | %+.4f | %d | %d | %s (%+.4f) | %.2f |\n", k, len(list), changed, mc, below, belowSig, worstCell, worst, secN/secO)
	}
	k := caps[0]
	fmt.Fprintf(w, "\nEvery cell at K = %g (metric: accuracy, or MAE in the target's units; n is the training rows, s = privacy.Calibrate(ε, 1e-5)):\n\n", k)
	fmt.Fprintln(w, "| dataset | loss | method | ε | c | n | T before | T after | before | after | after − before (score) [95 % CI] | |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|---|---|---|---|---|---|")
	for ci, c := range list {
		diff := diffs(c.new[k], c.old)
		md := stats.Mean(diff)
		iv := "(same schedule)"
		flag := ""
		if c.tNew[k] != c.tOld {
			b := stats.BootstrapCI(diff, stats.Mean, stats.BootSeed(ci, int(k)))
			iv = fmt.Sprintf("%+.4f [%+.4f, %+.4f]", md, b[0], b[1])
			if md < -0.005 {
				flag = "below −0.005"
			}
		}
		fmt.Fprintf(w, "| %s | %s | %s | %g | %g | %d | %d | %d | %s | %s | %s | %s |\n", c.ds, c.loss, c.method, c.eps, c.c, c.n,
			c.tOld, c.tNew[k], fmtMetric(c, c.old), fmtMetric(c, c.new[k]), iv, flag)
	}
}

func diffs(a, b []float64) []float64 {
	out := make([]float64, len(a))
	for i := range a {
		out[i] = a[i] - b[i]
	}
	return out
}

// fmtMetric is the mean metric in the study's units.
func fmtMetric(c *schedCell, scores []float64) string {
	m := stats.Mean(scores)
	if c.task == study.TaskClassification {
		return fmt.Sprintf("%.4f", m)
	}
	return fmt.Sprintf("%.3g", -m*c.half)
}

// parseCaps reads "100,200,400".
func parseCaps(s string) ([]float64, error) {
	var out []float64
	for _, f := range strings.Split(s, ",") {
		var v float64
		if _, err := fmt.Sscanf(strings.TrimSpace(f), "%g", &v); err != nil || v <= 0 {
			return nil, fmt.Errorf("-dpgd-schedule-caps: %q is not a positive number", f)
		}
		out = append(out, v)
	}
	return slices.Clip(out), nil
}
