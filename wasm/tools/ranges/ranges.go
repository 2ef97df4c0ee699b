//go:build !js

package main

import (
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"sort"

	"github.com/dpsample/dpsample/core/dataset"
	"github.com/dpsample/dpsample/core/domain"
	"github.com/dpsample/dpsample/core/rng"
	"github.com/dpsample/dpsample/wasm/tools/internal/study"
)

// The private ranges study (issues 28 and 40): core/domain's constants and
// the page's default budget for "find ranges privately" are chosen on the
// development half of the utility study (StudyDatasets), never on the
// evaluation half nor on iris, wine, Pima or R's tables. For every development
// table (features and the regression target, as the page would describe them),
// at its full size and subsampled to 250 and 100 rows (a fresh subsample each
// draw), and every configuration it draws Reps private descriptions (seeded:
// a study, not a release) at δ = 10⁻⁵ (the page's) and reports:
//
//   - clamped: the share of a column's values outside [lo, hi] (rows the
//     range would clamp), averaged over columns and draws, and worst: the
//     largest of the columns' averages;
//   - width: the median over columns of (hi − lo) / (max − min) (averaged over
//     draws), and max width: the largest single draw's ratio;
//   - levels: for columns of at most 10 distinct values each held by ≥ 10 % of
//     the rows (0/1 and small-integer columns), the share of draws whose range
//     holds every level (issue 40 item 2 asks ≥ 0.95);
//   - median: |F_n(median) − ½|, the private median's error in rank;
//   - none: the share of column-draws labelled Resolution "none".
//
// go run ./wasm/tools/bench -ranges development prints the table (markdown)
// on stdout.

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
	if c.Opt.Grow != 0 {
		s += fmt.Sprintf(" grow=%g", c.Opt.Grow)
	}
	if c.Opt.Trim != 0 {
		s += fmt.Sprintf(" trim=%g", max(c.Opt.Trim, 0))
	}
	return s
}

// rangesGrid is what the study tries: the budget at the defaults, then each
// constant around its default at ε = 1.
func rangesGrid() []rangesConfig {
	var g []rangesConfig
	for _, e := range []float64{0.5, 1, 2} {
		g = append(g, rangesConfig{Epsilon: e})
	}
	for _, o := range []domain.Options{
		{Share1: 0.3}, {Share1: 0.7}, {Bins2: 8}, {Bins2: 32}, {Margin: domain.NoMargin}, {Margin: 2},
		{Grow: 1.5}, {Grow: 2.5}, {Trim: 1.5}, {Trim: 2.5}, {Trim: domain.NoTrim},
	} {
		g = append(g, rangesConfig{Epsilon: 1, Opt: o})
	}
	return g
}

// rangesSizes are the table sizes the study describes: 0 is the full table.
var rangesSizes = []int{0, 250, 100}

// rangesTable is one table as the page would describe it: its numeric columns
// (features, and the target of a regression) and their declared ranges.
type rangesTable struct {
	key      string
	x        [][]float64
	names    []string
	declared []dataset.Range
}

func loadRangesTable(root string, s study.StudyDataset) (rangesTable, error) {
	text, err := os.ReadFile(s.Path(root))
	if err != nil {
		return rangesTable{}, err
	}
	opt := dataset.Options{Drop: "missing", Features: s.Features}
	if s.Task == study.TaskClassification {
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

// rangesScore is one configuration's figures on one table at one size.
type rangesScore struct {
	clamped, worst, width, maxWidth, median, none float64
	levels                                        float64 // NaN when the table has no level column
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

func scoreRanges(t rangesTable, c rangesConfig, size, reps int) (rangesScore, error) {
	d := len(t.x[0])
	colClamped := make([]float64, d)
	colWidth := make([]float64, d)
	var s rangesScore
	levelOK, levelN := 0, 0
	pick := rng.Seeded(uint64(size) + 1000)
	for rep := 0; rep < reps; rep++ {
		x := subsample(t.x, size, pick)
		n := len(x)
		p, err := domain.NewPlanWith(n, d, c.Epsilon, 1e-5, c.Opt)
		if err != nil {
			return rangesScore{}, err
		}
		seed := uint64(rep + 1)
		res, err := domain.Describe(x, p, &seed)
		if err != nil {
			return rangesScore{}, err
		}
		for j, col := range res.Columns {
			v := make([]float64, n)
			for i := range x {
				v[i] = x[i][j]
			}
			sort.Float64s(v)
			out := 0
			for _, y := range v {
				if y < col.Lo || y > col.Hi {
					out++
				}
			}
			colClamped[j] += float64(out) / float64(n)
			span := v[n-1] - v[0]
			if span == 0 {
				span = math.Max(math.Abs(v[0]), 1)
			}
			wr := (col.Hi - col.Lo) / span
			colWidth[j] += wr
			s.maxWidth = math.Max(s.maxWidth, wr)
			rank := float64(sort.SearchFloat64s(v, col.Median)) / float64(n)
			s.median += math.Abs(rank - 0.5)
			if col.Resolution == domain.ResolutionNone {
				s.none++
			}
			if lv := levelColumn(v); lv != nil {
				levelN++
				if col.Lo <= lv[0] && lv[len(lv)-1] <= col.Hi {
					levelOK++
				}
			}
		}
	}
	k := float64(reps)
	widths := make([]float64, d)
	for j := range colClamped {
		colClamped[j] /= k
		s.clamped += colClamped[j] / float64(d)
		s.worst = math.Max(s.worst, colClamped[j])
		widths[j] = colWidth[j] / k
	}
	sort.Float64s(widths)
	s.width = widths[d/2]
	if d%2 == 0 {
		s.width = (widths[d/2-1] + widths[d/2]) / 2
	}
	s.median /= k * float64(d)
	s.none /= k * float64(d)
	s.levels = math.NaN()
	if levelN > 0 {
		s.levels = float64(levelOK) / float64(levelN)
	}
	return s, nil
}

// runRangesStudy writes the study's table for one half.
func runRangesStudy(root, half string, reps int, w io.Writer) error {
	fmt.Fprintf(w, "Private ranges (core/domain) on the %s half: %d seeded draws per table, size and configuration (a fresh subsample each draw); δ = 1e-5.\n\n", half, reps)
	fmt.Fprintln(w, "| table | n | d | declared width | config | clamped | worst column | width (median) | max width | levels kept | median rank err | none |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|---|---|---|---|---|---|")
	for _, s := range study.StudyDatasets {
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
		for _, size := range rangesSizes {
			n := len(t.x)
			if size != 0 {
				n = min(size, n)
			}
			for _, c := range rangesGrid() {
				sc, err := scoreRanges(t, c, size, reps)
				if err != nil {
					return err
				}
				lv := "—"
				if !math.IsNaN(sc.levels) {
					lv = fmt.Sprintf("%.2f", sc.levels)
				}
				fmt.Fprintf(w, "| %s | %d | %d | %.2f | %s | %.3f | %.3f | %.2f | %.3g | %s | %.3f | %.2f |\n", t.key, n, len(t.x[0]), dw/float64(max(dn, 1)), c, sc.clamped, sc.worst, sc.width, sc.maxWidth, lv, sc.median, sc.none)
			}
		}
	}
	return nil
}
