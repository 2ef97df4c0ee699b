//go:build !js

package main

import (
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"sort"

	"github.com/dpsample/dpsample/core/dataset"
	"github.com/dpsample/dpsample/core/domain"
	"github.com/dpsample/dpsample/wasm/tools/internal/study"
)

// The private ranges study (issues 28, 40 and 52): core/domain's constants
// and the page's default budget for "find ranges privately" are chosen on
// the development half of the utility study (StudyDatasets, and the
// synthetic offset table of synthetic.go), never on the evaluation half nor
// on iris, wine, Pima or R's tables. For every table (features and the
// regression target, as the page would describe them), at its full size and
// subsampled to 250, 200 and 100 rows (a fresh subsample each draw), it draws
// Reps private descriptions (seeded: a study, not a release) at δ = 10⁻⁵
// (the page's) and reports, first before (0.6.0's mechanism,
// domain.Options.Before52) and after (the defaults) at ε = 1, then the
// defaults' neighbourhood (rangesGrid):
//
//   - width: the median over columns of (hi − lo)/(max − min), each column's
//     averaged over draws, and worst: the widest column's;
//   - clamped: the share of a column's values outside [lo, hi], averaged over
//     columns and draws, and worst: the largest column's;
//   - quartiles: the share of column-draws whose three quartiles are all
//     within a quarter of the spread of the sample's (R's type 7), and
//     worst: the lowest column's share;
//   - levels: for columns of at most 10 distinct values each held by ≥ 10 %
//     of the rows (0/1 and small-integer columns), the share of draws whose
//     range holds every level (issue 40 item 2 asks ≥ 0.95);
//   - none: the share of column-draws labelled Resolution "none".
//
// go run ./wasm/tools/ranges -ranges development prints the tables
// (markdown) on stdout.

// rangesConfig is one configuration of the study.
type rangesConfig struct {
	Epsilon float64
	Opt     domain.Options
}

func (c rangesConfig) String() string {
	s := fmt.Sprintf("ε=%g", c.Epsilon)
	o := c.Opt
	for _, f := range []struct {
		name string
		v    float64
	}{{"share1", o.Share1}, {"levels", float64(o.Levels)}, {"ω", o.Level1Share}, {"z_e", o.Empty}, {"hold", o.Hold},
		{"span", float64(o.Span)}, {"z_c", o.Ambiguous}, {"z_u", o.Placed}, {"margin", float64(o.Margin)}, {"marginFine", float64(o.MarginFine)}, {"z_m", o.MarginEmpty}} {
		switch {
		case f.v == domain.NoMargin && (f.name == "margin" || f.name == "marginFine"):
			s += fmt.Sprintf(" %s=0", f.name)
		case f.v != 0:
			s += fmt.Sprintf(" %s=%g", f.name, f.v)
		}
	}
	if o.Before52 {
		s += " (0.6.0)"
	}
	return s
}

// rangesGrid is what the study tries beside the defaults at ε = 1: the
// budget, and each of the tree's constants around its default.
func rangesGrid() []rangesConfig {
	var g []rangesConfig
	for _, e := range []float64{0.5, 1, 2} {
		g = append(g, rangesConfig{Epsilon: e})
	}
	for _, o := range []domain.Options{
		{Levels: 1}, {Levels: 3}, {Levels: 4}, {Share1: 0.5}, {Level1Share: 0.35}, {Level1Share: 0.65},
		{Empty: 1.5}, {Empty: 2.5}, {Hold: 0.1}, {Hold: 0.2}, {Span: 2}, {Span: 4},
		{Ambiguous: 0.5}, {Ambiguous: 1.5}, {Placed: 2}, {Placed: 3}, {MarginFine: 1}, {MarginFine: 3},
		{MarginEmpty: 0.01}, {MarginEmpty: 1}, {MarginEmpty: 6},
	} {
		g = append(g, rangesConfig{Epsilon: 1, Opt: o})
	}
	return g
}

// rangesSizes are the table sizes the study describes: 0 is the full table.
var rangesSizes = []int{0, 250, 200, 100}

// rangesTable is one table as the page would describe it: its numeric columns
// (features, and the target of a regression) and their declared ranges.
type rangesTable struct {
	key      string
	x        [][]float64
	names    []string
	declared []dataset.Range
}

func loadRangesTable(root string, s study.StudyDataset) (rangesTable, error) {
	text, err := tableText(root, s)
	if err != nil {
		return rangesTable{}, err
	}
	opt := dataset.Options{Drop: "missing", Features: s.Features}
	if s.Task == study.TaskClassification {
		opt.Target, opt.TargetType, opt.Positive = s.Target, dataset.TargetLabel, s.Positive
	}
	t, err := dataset.Parse(text, opt)
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

// levelColumn returns the distinct values of v (sorted) when there are at
// most 10 and each holds at least 10 % of the values, else nil.
func levelColumn(v []float64) []float64 {
	counts := map[float64]int{}
	for _, x := range v {
		counts[x]++
		if len(counts) > 10 {
			return nil
		}
	}
	var out []float64
	for x, c := range counts {
		if 10*c < len(v) {
			return nil
		}
		out = append(out, x)
	}
	sort.Float64s(out)
	if len(out) < 2 {
		return nil
	}
	return out
}

// subsample returns m rows of x drawn without replacement (all of x when
// m ≥ len(x) or m == 0).
func subsample(x [][]float64, m int, r *rand.Rand) [][]float64 {
	if m == 0 || m >= len(x) {
		return x
	}
	idx := r.Perm(len(x))[:m]
	out := make([][]float64, m)
	for i, k := range idx {
		out[i] = x[k]
	}
	return out
}

// halfTables loads the study's tables of one half.
func halfTables(root, half string) ([]rangesTable, error) {
	var tables []rangesTable
	for _, s := range studyTables() {
		if s.Half != half {
			continue
		}
		t, err := loadRangesTable(root, s)
		if err != nil {
			return nil, err
		}
		tables = append(tables, t)
	}
	return tables, nil
}

// runRangesStudy writes the study's tables for one half.
func runRangesStudy(root, half string, reps int, w io.Writer) error {
	tables, err := halfTables(root, half)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "Private ranges (core/domain) on the %s half: %d seeded draws per table, size and configuration (a fresh subsample each draw); δ = 1e-5. Widths are (hi − lo)/(max − min), the median column's and the widest column's (each column's averaged over draws); clamped is the share of values outside [lo, hi] (mean over columns, and the worst column's); quartiles is the share of column-draws whose three quartiles are within a quarter of the spread of the sample's (mean over columns, and the worst column's); q shown is the share of column-draws whose quartiles were read off stage 2's bins (Quartiles \"linear\": the page shows them, and dashes for stage 1's mode bin), and shown within ¼ the share of those within a quarter of the spread (— when none is shown).\n\n", half, reps)
	fmt.Fprintln(w, "## Before (0.6.0) and after, at ε = 1")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| table | n | d | stage 2 | width before | width after | worst before | worst after | clamped before | clamped after | worst clamped before | worst clamped after | quartiles before | quartiles after | worst q before | worst q after | q shown after | shown within ¼ after | levels before | levels after | none after |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
	for _, t := range tables {
		for _, size := range rangesSizes {
			n := len(t.x)
			if size != 0 {
				n = min(size, n)
			}
			before, err := scoreColumns(t, 1, domain.Options{Before52: true}, size, reps)
			if err != nil {
				return err
			}
			after, err := scoreColumns(t, 1, domain.Options{}, size, reps)
			if err != nil {
				return err
			}
			b, a := summarize(before), summarize(after)
			p, err := domain.NewPlan(n, len(t.x[0]), 1, 1e-5)
			if err != nil {
				return err
			}
			stage := "—"
			switch {
			case p.Stages == 2 && p.Levels > 1:
				stage = fmt.Sprintf("tree, %d levels", p.Levels)
			case p.Stages == 2:
				stage = "one level"
			}
			fmt.Fprintf(w, "| %s | %d | %d | %s | %s | %s | %s | %s | %.3f | %.3f | %.3f | %.3f | %.2f | %.2f | %.2f | %.2f | %.2f | %s | %s | %s | %.2f |\n", t.key, n, len(t.x[0]), stage,
				num(b.width), num(a.width), num(b.worstWidth), num(a.worstWidth), b.clamped, a.clamped, b.worstClamped, a.worstClamped,
				b.qOK, a.qOK, b.worstQOK, a.worstQOK, a.shown, lv(a.shownOK), lv(b.levels), lv(a.levels), a.none)
		}
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "## The defaults' neighbourhood")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| table | n | config | width | worst | clamped | worst clamped | quartiles | worst q | levels | none |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|---|---|---|---|---|")
	for _, t := range tables {
		for _, size := range rangesSizes {
			n := len(t.x)
			if size != 0 {
				n = min(size, n)
			}
			for _, c := range rangesGrid() {
				cs, err := scoreColumns(t, c.Epsilon, c.Opt, size, reps)
				if err != nil {
					return err
				}
				s := summarize(cs)
				fmt.Fprintf(w, "| %s | %d | %s | %s | %s | %.3f | %.3f | %.2f | %.2f | %s | %.2f |\n", t.key, n, c, num(s.width), num(s.worstWidth), s.clamped, s.worstClamped, s.qOK, s.worstQOK, lv(s.levels), s.none)
			}
		}
	}
	return nil
}

// num formats a width: 3 significant digits.
func num(v float64) string { return fmt.Sprintf("%.3g", v) }

// lv formats a share of draws keeping every level ("—" for a table with no
// level column).
func lv(v float64) string {
	if math.IsNaN(v) {
		return "—"
	}
	return fmt.Sprintf("%.2f", v)
}
