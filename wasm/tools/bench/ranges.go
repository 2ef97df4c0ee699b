//go:build !js

package main

import (
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"sort"

	"github.com/dpsample/dpsample/core/dataset"
	"github.com/dpsample/dpsample/core/domain"
)

// The private ranges study (issue 28): core/domain's constants and the page's
// default budget for "find ranges privately" are chosen on the development
// half of the utility study (StudyDatasets), never on the evaluation half nor
// on iris, wine, Pima or R's tables. For every development table (features
// and the regression target, as the page would describe them) and every
// configuration it draws Reps private descriptions (seeded: a study, not a
// release) and reports, per column averaged over columns and draws:
//
//   - clamped: the fraction of the column's values outside [lo, hi] (rows the
//     range would clamp);
//   - width: (hi − lo) / (max − min) over the columns found (not "none"), how much wider than the data's span the
//     range is (the declared ranges' own ratio is shown beside it);
//   - median: |F_n(median) − ½|, the private median's error in rank;
//   - none: the fraction of columns whose description found nothing (Resolution "none").
//
// go run ./wasm/tools/bench -ranges [-ranges-half development] prints the
// table (markdown) on stdout.

// rangesConfig is one configuration of the study.
type rangesConfig struct {
	Epsilon float64
	Opt     domain.Options
}

func (c rangesConfig) String() string {
	s := fmt.Sprintf("ε=%g", c.Epsilon)
	if c.Opt.Share1 != 0 {
		s += fmt.Sprintf(" share1=%g", c.Opt.Share1)
	}
	if c.Opt.Bins2 != 0 {
		s += fmt.Sprintf(" bins2=%d", c.Opt.Bins2)
	}
	if c.Opt.Margin != 0 {
		s += fmt.Sprintf(" margin=%d", max(c.Opt.Margin, 0))
	}
	return s
}

// rangesGrid is what the study tries: the budget, then each constant around
// its default at ε = 1.
func rangesGrid() []rangesConfig {
	var g []rangesConfig
	for _, e := range []float64{0.25, 0.5, 1, 2, 4} {
		g = append(g, rangesConfig{Epsilon: e})
	}
	for _, s := range []float64{0.3, 0.5} {
		for _, b := range []int{8, 16} {
			for _, m := range []int{domain.NoMargin, 1} {
				g = append(g, rangesConfig{Epsilon: 1, Opt: domain.Options{Share1: s, Bins2: b, Margin: m}})
			}
		}
	}
	return g
}

// rangesTable is one table as the page would describe it: its numeric columns
// (features, and the target of a regression) and their declared ranges.
type rangesTable struct {
	key      string
	x        [][]float64
	names    []string
	declared []dataset.Range
}

func loadRangesTable(root string, s StudyDataset) (rangesTable, error) {
	dir := filepath.Join(root, "site", "data")
	if s.Dir == "bench" {
		dir = filepath.Join(root, "wasm", "tools", "bench", "data")
	}
	text, err := os.ReadFile(filepath.Join(dir, s.File))
	if err != nil {
		return rangesTable{}, err
	}
	opt := dataset.Options{Drop: "missing", Features: s.Features}
	if s.Task == TaskClassification {
		opt.Target, opt.TargetType, opt.Positive = s.Target, dataset.TargetLabel, s.Positive
	}
	t, err := dataset.Parse(string(text), opt)
	if err != nil {
		return rangesTable{}, err
	}
	rt := rangesTable{key: s.Key, x: t.X, names: t.Columns}
	for _, c := range t.Columns {
		r, ok := s.Ranges[c]
		if c == s.Target {
			r, ok = s.TargetRange, true
		}
		if !ok {
			r = dataset.Range{Lo: math.NaN(), Hi: math.NaN()}
		}
		rt.declared = append(rt.declared, r)
	}
	return rt, nil
}

// rangesScore is one configuration's averages on one table.
type rangesScore struct {
	clamped, width, median, none float64
}

func scoreRanges(t rangesTable, c rangesConfig, reps int) (rangesScore, error) {
	n, d := len(t.x), len(t.x[0])
	p, err := domain.NewPlanWith(n, d, c.Epsilon, 1e-6, c.Opt)
	if err != nil {
		return rangesScore{}, err
	}
	cols := make([][]float64, d)
	for j := range cols {
		for i := range t.x {
			cols[j] = append(cols[j], t.x[i][j])
		}
		sort.Float64s(cols[j])
	}
	var s rangesScore
	found := 0
	for rep := 0; rep < reps; rep++ {
		seed := uint64(rep + 1)
		res, err := domain.Describe(t.x, p, &seed)
		if err != nil {
			return rangesScore{}, err
		}
		for j, col := range res.Columns {
			v := cols[j]
			out := 0
			for _, x := range v {
				if x < col.Lo || x > col.Hi {
					out++
				}
			}
			s.clamped += float64(out) / float64(n)
			span := v[n-1] - v[0]
			if span == 0 {
				span = math.Max(math.Abs(v[0]), 1)
			}
			if col.Resolution != domain.ResolutionNone {
				s.width += (col.Hi - col.Lo) / span
				found++
			}
			rank := float64(sort.SearchFloat64s(v, col.Median)) / float64(n)
			s.median += math.Abs(rank - 0.5)
			if col.Resolution == domain.ResolutionNone {
				s.none++
			}
		}
	}
	k := float64(reps * d)
	return rangesScore{s.clamped / k, s.width / float64(max(found, 1)), s.median / k, s.none / k}, nil
}

// runRangesStudy writes the study's table for one half.
func runRangesStudy(root, half string, reps int, w io.Writer) error {
	fmt.Fprintf(w, "Private ranges (core/domain) on the %s half: %d seeded draws per table; δ = 1e-6; averages over columns and draws.\n\n", half, reps)
	fmt.Fprintln(w, "| table | n | d | declared width | config | clamped | width | median rank err | none |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|---|---|---|")
	for _, s := range StudyDatasets {
		if s.Half != half {
			continue
		}
		t, err := loadRangesTable(root, s)
		if err != nil {
			return err
		}
		dw, dn := 0.0, 0
		for j, r := range t.declared {
			if math.IsNaN(r.Lo) {
				continue
			}
			lo, hi := math.Inf(1), math.Inf(-1)
			for _, row := range t.x {
				lo, hi = math.Min(lo, row[j]), math.Max(hi, row[j])
			}
			if hi > lo {
				dw += (r.Hi - r.Lo) / (hi - lo)
				dn++
			}
		}
		for _, c := range rangesGrid() {
			sc, err := scoreRanges(t, c, reps)
			if err != nil {
				return err
			}
			fmt.Fprintf(w, "| %s | %d | %d | %.2f | %s | %.3f | %.2f | %.3f | %.2f |\n", t.key, len(t.x), len(t.x[0]), dw/float64(max(dn, 1)), c, sc.clamped, sc.width, sc.median, sc.none)
		}
	}
	return nil
}
