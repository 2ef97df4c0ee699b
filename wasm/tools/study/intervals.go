//go:build !js

package main

import (
	"context"
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/dpsample/dpsample/core/interval"
	"github.com/dpsample/dpsample/core/loss"
	"github.com/dpsample/dpsample/core/mechanism"
	"github.com/dpsample/dpsample/core/privacy"
	"github.com/dpsample/dpsample/wasm/tools/internal/md"
	"github.com/dpsample/dpsample/wasm/tools/internal/study"
)

// Issue 54's interval study: coverage of the true θ* and width against the
// non-private sandwich, for the intervals of core/interval, on the
// synthetic designs of interval.Designs (synthetic cells) and on the study's
// development tables (intervalsDev).

// ivCell is one synthetic cell.
type ivCell struct {
	design string
	n      int
	eps    float64
	radius float64 // C·clip; 0: the page's rule (mechanism.DefaultRadius)
	runs   int     // 0: the command's -intervals-runs
}

// ivResult is one cell's measurements.
type ivResult struct {
	cell               ivCell
	runs               int
	gate               bool
	ns                 float64
	steps              int
	hits               map[interval.Variant][]int
	widthRatio         []float64 // the width / the non-private sandwich's, every coordinate of every run
	widthNewton        []float64 // the full Newton step's
	npHits             []int     // the non-private sandwich interval's coverage
	errRatio           []float64 // ‖θ̂ − θ*‖ / ‖θ̃ − θ*‖ of DP-GD alone at the whole budget, per run (with -intervals-error)
	allStepped, capped int       // runs whose Newton step took every direction; coordinates cut at ±C
	seconds            float64
	thetaOverC         float64 // ‖θ*‖/C
	dim                int
	dpgdSec, relSec    float64 // summed wall times of the DP-GD runs and of the releases plus the estimate
}

var ivVariants = []interval.Variant{interval.VariantCombined, interval.VariantNewton, interval.VariantPlain, interval.VariantNoPrivacy}

// parseIvCells reads "design:n:eps[:c],…".
func parseIvCells(s string) ([]ivCell, error) {
	var out []ivCell
	for _, f := range strings.Split(s, ",") {
		p := strings.Split(strings.TrimSpace(f), ":")
		if len(p) < 3 {
			return nil, fmt.Errorf("-intervals-cells: %q is not design:n:eps[:c]", f)
		}
		n, err := strconv.Atoi(p[1])
		if err != nil {
			return nil, err
		}
		eps, err := strconv.ParseFloat(p[2], 64)
		if err != nil {
			return nil, err
		}
		c := ivCell{design: p[0], n: n, eps: eps}
		if len(p) > 3 {
			if c.radius, err = strconv.ParseFloat(p[3], 64); err != nil {
				return nil, err
			}
		}
		out = append(out, c)
	}
	return out, nil
}

// runIvCell runs one synthetic cell.
func runIvCell(ctx context.Context, c ivCell, runs int, level float64, shares interval.Shares, minNS float64, withError bool) (ivResult, error) {
	ds, err := lookupIvDesign(c.design)
	if err != nil {
		return ivResult{}, err
	}
	dim := len(ds.Theta)
	clip := math.Sqrt(float64(dim))
	kind := ds.Loss
	radius := c.radius / clip
	if c.radius == 0 {
		k, _ := loss.ParseKind(kind)
		radius = mechanism.DefaultRadius(k, clip, nil)
	}
	if c.runs > 0 {
		runs = c.runs
	}
	res := ivResult{cell: c, runs: runs, hits: map[interval.Variant][]int{}, dim: dim}
	for _, t := range ds.Theta {
		res.thetaOverC += t * t
	}
	res.thetaOverC = math.Sqrt(res.thetaOverC) / radius
	for _, v := range ivVariants {
		res.hits[v] = make([]int, dim)
	}
	res.npHits = make([]int, dim)
	start := time.Now()
	pl, sch, err := interval.Simulate(ctx, interval.SimConfig{Design: ds, N: c.n, Runs: runs, Epsilon: c.eps, Delta: 1e-5, Level: level,
		Radius: radius, Seed: seedOf(c), Shares: shares, MinNS: minNS}, func(r interval.SimRun) {
		t0 := time.Now()
		interval.Estimate(r.Theta, r.Rel, r.Plan, r.Sched)
		res.dpgdSec += r.DPGDSeconds
		res.relSec += r.ReleaseSeconds + time.Since(t0).Seconds()
		thNP, se := interval.Sandwich(r.Set)
		z := privacy.PhiInvUpper((1 - level) / 2)
		for j, t := range ds.Theta {
			if math.Abs(thNP[j]-t) <= z*se[j] {
				res.npHits[j]++
			}
		}
		if withError {
			full, err := interval.PlainDPGD(ctx, r.Set, c.eps, 1e-5, radius, uint64(r.Index)^seedOf(c))
			if err == nil {
				iv := interval.Estimate(r.Theta, r.Rel, r.Plan, r.Sched)
				res.errRatio = append(res.errRatio, dist(iv.Estimate, ds.Theta)/dist(full, ds.Theta))
			}
		}
		for _, v := range ivVariants {
			iv, det := interval.EstimateVariant(r.Theta, r.Rel, r.Plan, r.Sched, v)
			for j, t := range ds.Theta {
				if iv.Lo[j] <= t && t <= iv.Hi[j] {
					res.hits[v][j]++
				}
				if v == interval.VariantNewton {
					res.widthNewton = append(res.widthNewton, (iv.Hi[j]-iv.Lo[j])/(2*z*se[j]))
				}
				if v == interval.VariantCombined {
					res.widthRatio = append(res.widthRatio, (iv.Hi[j]-iv.Lo[j])/(2*z*se[j]))
					if iv.Lo[j] == -radius || iv.Hi[j] == radius {
						res.capped++
					}
				}
			}
			if v == interval.VariantCombined && det.Stepped == dim {
				res.allStepped++
			}
		}
	})
	if err != nil {
		return ivResult{}, err
	}
	res.gate, res.ns, res.steps = pl.Gate, pl.NS, sch.Steps
	res.seconds = time.Since(start).Seconds()
	return res, nil
}

func seedOf(c ivCell) uint64 {
	return uint64(c.n)*1_000_003 + uint64(c.eps*1000)*7919 + uint64(len(c.design))*104729 + uint64(c.design[len(c.design)-1])
}

// coverageSummary returns "mean / worst" coverage of a variant.
func coverageSummary(hits []int, runs int) (mean, worst float64) {
	worst = 1
	for _, h := range hits {
		c := float64(h) / float64(runs)
		mean += c / float64(len(hits))
		worst = math.Min(worst, c)
	}
	return mean, worst
}

func median(v []float64) float64 {
	if len(v) == 0 {
		return math.NaN()
	}
	s := append([]float64(nil), v...)
	sort.Float64s(s)
	return s[len(s)/2]
}

// ivRow formats one cell's row.
func ivRow(r ivResult, level float64) []string {
	gate := "✓"
	if r.ns < interval.GateNS(r.dim) {
		gate = "below"
	}
	row := []string{r.cell.design, fmt.Sprint(r.cell.n), md.Sig(r.cell.eps), fmt.Sprintf("%.0f", r.ns), gate, fmt.Sprint(r.steps), md.Sig(r.thetaOverC), fmt.Sprint(r.runs)}
	for _, v := range ivVariants {
		m, w := coverageSummary(r.hits[v], r.runs)
		mark := ""
		if interval.CheckCoverage(r.hits[v], r.runs, level) != nil {
			mark = " ✗"
		}
		row = append(row, fmt.Sprintf("%.3f / %.3f%s", m, w, mark))
	}
	m, w := coverageSummary(r.npHits, r.runs)
	row = append(row, fmt.Sprintf("%.3f / %.3f", m, w), md.Sig(median(r.widthRatio)), md.Sig(median(r.widthNewton)), md.Sig(median(r.errRatio)), fmt.Sprintf("%.0f %%", 100*float64(r.allStepped)/float64(r.runs)),
		fmt.Sprintf("%.0f %%", 100*float64(r.capped)/float64(len(r.widthRatio))), fmt.Sprintf("%.3f", r.relSec/r.dpgdSec))
	return row
}

var ivHeader = []string{"design", "n", "ε", "n·s", "gate", "T", "‖θ*‖/C", "runs", "coverage (mean / worst)", "full Newton step", "no Newton step ✗", "privacy part dropped ✗",
	"non-private sandwich", "width / non-private (median)", "full Newton's", "error / DP-GD alone (median)", "all directions stepped", "cut at ±C", "time: releases / DP-GD"}

// runIntervalCells runs cells on par goroutines and writes a row as each
// finishes (in the cells' order at the end).
func runIntervalCells(cells []ivCell, runs, par int, level float64, shares interval.Shares, minNS float64, withError bool, w io.Writer) ([]ivResult, error) {
	out := make([]ivResult, len(cells))
	errs := make([]error, len(cells))
	var wg sync.WaitGroup
	sem := make(chan struct{}, par)
	var mu sync.Mutex
	for i, c := range cells {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			out[i], errs[i] = runIvCell(context.Background(), c, runs, level, shares, minNS, withError)
			if errs[i] == nil {
				mu.Lock()
				fmt.Fprintln(w, "| "+strings.Join(ivRow(out[i], level), " | ")+" |")
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	for _, e := range errs {
		if e != nil {
			return nil, e
		}
	}
	return out, nil
}

// devPopulation loads a development table as a resampling population: its
// rows (features scaled from the declared ranges, the intercept appended)
// and targets, the study's first loss of its task (logistic or huber) and
// θ*, the minimiser over the whole table (interval.Sandwich).
func devPopulation(root string, ds study.StudyDataset) (interval.Design, error) {
	t, _, err := ds.Load(root)
	if err != nil {
		return interval.Design{}, err
	}
	rows := make([][]float64, len(t.X))
	for i, r := range t.X {
		rows[i] = append(append([]float64(nil), r...), 1)
	}
	kind := "logistic"
	if ds.Task == study.TaskRegression {
		kind = "huber"
	}
	dim := len(rows[0])
	k, _ := loss.ParseKind(kind)
	set, err := loss.New(k, rows, t.Y, loss.Params{Clip: math.Sqrt(float64(dim))})
	if err != nil {
		return interval.Design{}, err
	}
	theta, _ := interval.Sandwich(set)
	return interval.Design{Name: ds.Key, Loss: kind, Theta: theta, Rows: rows, Targets: t.Y}, nil
}

// runIntervalDev runs the interval cells on the development half's tables:
// each table as the population, tables of n rows drawn from it with
// replacement (n = the table's size, and the multiples given), at every ε.
func runIntervalDev(root string, mults, epsilons []float64, runs, par int, level float64, shares interval.Shares, w io.Writer) ([]ivResult, error) {
	var cells []ivCell
	pops := map[string]interval.Design{}
	for _, ds := range study.StudyDatasets {
		if ds.Half != study.HalfDev {
			continue
		}
		pop, err := devPopulation(root, ds)
		if err != nil {
			return nil, err
		}
		pops[ds.Key] = pop
		for _, m := range mults {
			for _, eps := range epsilons {
				cells = append(cells, ivCell{design: ds.Key, n: int(math.Round(m * float64(len(pop.Rows)))), eps: eps})
			}
		}
	}
	devDesigns = pops
	return runIntervalCells(cells, runs, par, level, shares, 1, false, w)
}

// devDesigns are the development tables' populations (runIntervalDev), found
// by name before interval.Designs.
var devDesigns map[string]interval.Design

func lookupIvDesign(name string) (interval.Design, error) {
	if d, ok := devDesigns[name]; ok {
		return d, nil
	}
	return interval.LookupDesign(name)
}

func dist(a, b []float64) float64 {
	s := 0.0
	for i := range a {
		s += (a[i] - b[i]) * (a[i] - b[i])
	}
	return math.Sqrt(s)
}

// ivSynthetic is the study's synthetic grid (ε = 1 unless given): every
// design around the gate's bound on n·s, the two n = 2·10⁵ cells, and
// ε = 4 cells with fewer rows at the same n·s.
var ivSynthetic = []ivCell{
	{design: "d1", n: 2240, eps: 1}, {design: "d1", n: 9330, eps: 1}, {design: "d1", n: 200_000, eps: 1, radius: 2, runs: 100},
	{design: "d3-corr", n: 3730, eps: 1}, {design: "d3-corr", n: 9330, eps: 1}, {design: "d3-corr", n: 18650, eps: 1}, {design: "d3-corr", n: 2800, eps: 4},
	{design: "d3-rare", n: 3730, eps: 1}, {design: "d3-rare", n: 9330, eps: 1}, {design: "d3-rare", n: 1081, eps: 4}, {design: "d3-rare", n: 2800, eps: 4},
	{design: "d3-rare", n: 2800, eps: 4, radius: 8},
	{design: "d8-mixed", n: 5600, eps: 1}, {design: "d8-mixed", n: 9330, eps: 1}, {design: "d8-mixed", n: 18650, eps: 1}, {design: "d8-mixed", n: 2800, eps: 4},
	{design: "d8-mixed", n: 200_000, eps: 1, runs: 40},
	{design: "d16-mixed", n: 9330, eps: 1, runs: 100}, {design: "d16-mixed", n: 17720, eps: 1, runs: 100},
	{design: "d30-mixed", n: 32270, eps: 1, runs: 60},
	{design: "d3-huber", n: 3730, eps: 1}, {design: "d3-huber", n: 9330, eps: 1}, {design: "d3-huber", n: 2800, eps: 4},
	{design: "d3-squant", n: 3730, eps: 1}, {design: "d3-squant", n: 9330, eps: 1}, {design: "d3-squant", n: 2800, eps: 4},
}

// intervalStudy runs the synthetic grid and the development tables (each
// table as a population, tables of 1× and 10× its rows at ε = 1 and 4) and
// writes docs/study/intervals-development.md.
func intervalStudy(root string, runs, par int, w io.Writer) error {
	level := 0.95
	fmt.Fprintf(w, "# Intervals for DP-GD's coefficients: coverage, width and cost (issue 54, development)\n\n")
	fmt.Fprintf(w, "Written by `go run ./wasm/tools/study -intervals development` at commit %s (native, 2-CPU shared machine). "+
		"Every cell releases DP-GD's θ̃ and the three releases of core/interval at δ = 10⁻⁵ with 95 %% intervals, on independent tables "+
		"at fixed seeds, and checks whether each coefficient's interval held θ*. Columns: n·s (s the request's whole GDP budget) and whether the "+
		"public gate max(2500, 2500·d/9) passes (cells below it were run anyway, to show why it is there); T, DP-GD's steps at the model's "+
		"share; ‖θ*‖/C (the radius must bound θ*); coverage mean / worst coordinate of the estimator (the combined one), of the full Newton step, "+
		"and of the two deliberately broken variants (no Newton step; privacy part of the variance dropped), ✗ where interval.CheckCoverage fails "+
		"(a coordinate below 0.95 − 3·√(0.95·0.05/R), or the mean below interval.MeanBound: 0.93 unless R·d is small); the non-private sandwich interval's coverage (θ̂ₙ ± 1.96·SE on "+
		"the same tables: the asymptotics the private interval inherits); the median width over coordinates and runs against that non-private "+
		"interval; the share of runs whose Newton step took every direction; the share of intervals cut at ±C; and the wall time of the releases "+
		"and the estimate against DP-GD's run. The evaluation half was not run.\n\n", study.GitCommit(root))
	fmt.Fprintf(w, "## Synthetic designs (interval.Designs: θ* known exactly)\n\n")
	fmt.Fprint(w, md.Table(ivHeader, nil))
	res, err := runIntervalCells(ivSynthetic, runs, par, level, interval.Shares{}, 1, false, io.Discard)
	if err != nil {
		return err
	}
	for _, r := range res {
		fmt.Fprintln(w, "| "+strings.Join(ivRow(r, level), " | ")+" |")
	}
	fmt.Fprintf(w, "\n## Development tables as populations\n\nEach development table (wasm/tools/internal/study) is the population: "+
		"features scaled from their declared ranges, the intercept appended, clip = √dim, the page's radius rule; θ* is the whole table's "+
		"minimiser (logistic for classification, huber for regression), and the tables of each cell are drawn from its rows with "+
		"replacement (1× and 10× its size). Where ‖θ*‖/C > 1 the table's minimiser lies outside the radius (separable or nearly so), "+
		"and an interval cut to [−C, C] cannot hold it: Assumption 1.2 fails there, not the interval.\n\n")
	fmt.Fprint(w, md.Table(ivHeader, nil))
	dev, err := runIntervalDev(root, []float64{1, 10}, []float64{1, 4}, min(runs, 100), par, level, interval.Shares{}, io.Discard)
	if err != nil {
		return err
	}
	for _, r := range dev {
		fmt.Fprintln(w, "| "+strings.Join(ivRow(r, level), " | ")+" |")
	}
	return nil
}
