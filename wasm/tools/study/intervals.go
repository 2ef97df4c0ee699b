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
}

// ivResult is one cell's measurements.
type ivResult struct {
	cell               ivCell
	runs               int
	gate               bool
	ns                 float64
	steps              int
	hits               map[interval.Variant][]int
	widthRatio         []float64 // Newton's width / the non-private sandwich's, every coordinate of every run
	allStepped, capped int       // runs whose Newton step took every direction; coordinates cut at ±C
	seconds            float64
}

var ivVariants = []interval.Variant{interval.VariantNewton, interval.VariantPlain, interval.VariantNoPrivacy}

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
func runIvCell(ctx context.Context, c ivCell, runs int, level float64, shares interval.Shares, minNS float64) (ivResult, error) {
	ds, err := interval.LookupDesign(c.design)
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
	res := ivResult{cell: c, runs: runs, hits: map[interval.Variant][]int{}}
	for _, v := range ivVariants {
		res.hits[v] = make([]int, dim)
	}
	start := time.Now()
	pl, sch, err := interval.Simulate(ctx, interval.SimConfig{Design: ds, N: c.n, Runs: runs, Epsilon: c.eps, Delta: 1e-5, Level: level,
		Radius: radius, Seed: seedOf(c), Shares: shares, MinNS: minNS}, func(r interval.SimRun) {
		_, se := interval.Sandwich(r.Set)
		z := privacy.PhiInvUpper((1 - level) / 2)
		for _, v := range ivVariants {
			iv, det := interval.EstimateVariant(r.Theta, r.Rel, r.Plan, r.Sched, v)
			for j, t := range ds.Theta {
				if iv.Lo[j] <= t && t <= iv.Hi[j] {
					res.hits[v][j]++
				}
				if v == interval.VariantNewton {
					res.widthRatio = append(res.widthRatio, (iv.Hi[j]-iv.Lo[j])/(2*z*se[j]))
					if iv.Lo[j] == -radius || iv.Hi[j] == radius {
						res.capped++
					}
				}
			}
			if v == interval.VariantNewton && det.Stepped == dim {
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
	row := []string{r.cell.design, fmt.Sprint(r.cell.n), md.Sig(r.cell.eps), fmt.Sprintf("%.0f", r.ns), fmt.Sprint(r.steps), fmt.Sprint(r.runs)}
	for _, v := range ivVariants {
		m, w := coverageSummary(r.hits[v], r.runs)
		mark := ""
		if interval.CheckCoverage(r.hits[v], r.runs, level) != nil {
			mark = " ✗"
		}
		row = append(row, fmt.Sprintf("%.3f / %.3f%s", m, w, mark))
	}
	row = append(row, md.Sig(median(r.widthRatio)), fmt.Sprintf("%.0f %%", 100*float64(r.allStepped)/float64(r.runs)),
		fmt.Sprintf("%.0f %%", 100*float64(r.capped)/float64(len(r.widthRatio))), fmt.Sprintf("%.2f", r.seconds/float64(r.runs)))
	return row
}

var ivHeader = []string{"design", "n", "ε", "n·s", "T", "runs", "Newton (mean / worst)", "no Newton step", "privacy part dropped",
	"width / non-private (median)", "all directions stepped", "cut at ±C", "s per run"}

// runIntervalCells runs cells on par goroutines and writes a row as each
// finishes (in the cells' order at the end).
func runIntervalCells(cells []ivCell, runs, par int, level float64, shares interval.Shares, minNS float64, w io.Writer) ([]ivResult, error) {
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
			out[i], errs[i] = runIvCell(context.Background(), c, runs, level, shares, minNS)
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
