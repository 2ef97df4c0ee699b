//go:build !js

package main

import (
	"fmt"
	"io"
	"math"
	"os"
	"sort"

	"github.com/dpsample/dpsample/core/domain"
	"github.com/dpsample/dpsample/core/rng"
)

// colScore is one column's figures over a configuration's draws at one size.
type colScore struct {
	name                  string
	spread                float64 // mean over draws of max − min
	width, maxWidth       float64 // (hi − lo)/spread: mean and largest over draws
	clamped               float64 // share of values outside [lo, hi], mean over draws
	qErr, qMax            float64 // the largest of the three quartiles' |q̂ − q|/spread: mean and largest over draws
	qOK                   float64 // share of draws whose three quartiles are within spread/4 of the true ones
	qOut                  float64 // share of draws with a quartile outside [lo, hi] or out of order
	none, level, levelsOK float64 // draws labelled "none"; draws of a level column; of those, draws keeping every level
	shown, shownOK        float64 // share of draws whose quartiles are read off stage 2 (Quartiles "linear", what the page shows), and of draws that are and are within spread/4
}

// traceCol ("table:column") and traceSize (0: the full table) name a column
// whose every draw scoreColumns prints on stderr (-trace, -trace-size).
var (
	traceCol  string
	traceSize int
)

// quantileOf is the p-quantile of sorted v (linear interpolation between
// order statistics, R's type 7).
func quantileOf(v []float64, p float64) float64 {
	h := p * float64(len(v)-1)
	i := int(math.Floor(h))
	if i+1 >= len(v) {
		return v[len(v)-1]
	}
	return v[i] + (h-float64(i))*(v[i+1]-v[i])
}

// scoreColumns draws reps seeded descriptions of t at size rows (a fresh
// subsample each draw) and scores every column.
func scoreColumns(t rangesTable, eps float64, opt domain.Options, size, reps int) ([]colScore, error) {
	d := len(t.x[0])
	out := make([]colScore, d)
	for j := range out {
		out[j].name = t.names[j]
	}
	pick := rng.Seeded(uint64(size) + 1000)
	for rep := 0; rep < reps; rep++ {
		x := subsample(t.x, size, pick)
		n := len(x)
		p, err := domain.NewPlanWith(n, d, eps, 1e-5, opt)
		if err != nil {
			return nil, err
		}
		seed := uint64(rep + 1)
		res, err := domain.Describe(x, p, &seed)
		if err != nil {
			return nil, err
		}
		for j, col := range res.Columns {
			v := make([]float64, n)
			for i := range x {
				v[i] = x[i][j]
			}
			sort.Float64s(v)
			o := &out[j]
			clamped := 0
			for _, y := range v {
				if y < col.Lo || y > col.Hi {
					clamped++
				}
			}
			o.clamped += float64(clamped) / float64(n)
			if traceCol != "" && traceCol == t.key+":"+t.names[j] && size == traceSize {
				fmt.Fprintf(os.Stderr, "%s draw %d: [%g, %g] data [%g, %g] quartiles %g %g %g (%s, step %g)\n", traceCol, rep, col.Lo, col.Hi, v[0], v[n-1], col.Q1, col.Median, col.Q3, col.Resolution, col.Step)
			}
			span := v[n-1] - v[0]
			if span == 0 {
				span = math.Max(math.Abs(v[0]), 1)
			}
			o.spread += span
			wr := (col.Hi - col.Lo) / span
			o.width += wr
			o.maxWidth = math.Max(o.maxWidth, wr)
			qe := 0.0
			for k, q := range []float64{col.Q1, col.Median, col.Q3} {
				qe = math.Max(qe, math.Abs(q-quantileOf(v, 0.25*float64(k+1)))/span)
			}
			o.qErr += qe
			o.qMax = math.Max(o.qMax, qe)
			if qe <= 0.25 {
				o.qOK++
			}
			if col.Quartiles == domain.ResolutionLinear {
				o.shown++
				if qe <= 0.25 {
					o.shownOK++
				}
			}
			if !(col.Lo <= col.Q1 && col.Q1 <= col.Median && col.Median <= col.Q3 && col.Q3 <= col.Hi) {
				o.qOut++
			}
			if col.Resolution == domain.ResolutionNone {
				o.none++
			}
			if lv := levelColumn(v); lv != nil {
				o.level++
				if col.Lo <= lv[0] && lv[len(lv)-1] <= col.Hi {
					o.levelsOK++
				}
			}
		}
	}
	k := float64(reps)
	for j := range out {
		o := &out[j]
		o.spread /= k
		o.width /= k
		o.clamped /= k
		o.qErr /= k
		o.qOK /= k
		o.qOut /= k
		o.none /= k
		o.shown /= k
		o.shownOK /= k
	}
	return out, nil
}

// eachScored scores the columns of every table of one half at every size
// of rangesSizes (ε = 1, opt) and hands them to f with the rows drawn.
func eachScored(root, half string, reps int, opt domain.Options, f func(t rangesTable, n int, cs []colScore)) error {
	tables, err := halfTables(root, half)
	if err != nil {
		return err
	}
	for _, t := range tables {
		for _, size := range rangesSizes {
			n := len(t.x)
			if size != 0 {
				n = min(size, n)
			}
			cs, err := scoreColumns(t, 1, opt, size, reps)
			if err != nil {
				return err
			}
			f(t, n, cs)
		}
	}
	return nil
}

// runRangesColumns writes every column's figures, table by table and size
// by size, at ε = 1 with the given options.
func runRangesColumns(root, half string, reps int, opt domain.Options, w io.Writer) error {
	fmt.Fprintf(w, "Private ranges column by column on the %s half: %d seeded draws per table and size, ε = 1, δ = 1e-5.\n\n", half, reps)
	fmt.Fprintln(w, "| table | n | column | spread | width | max width | clamped | quartile err | max q err | q within ¼ | q out | none |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|---|---|---|---|---|---|")
	return eachScored(root, half, reps, opt, func(t rangesTable, n int, cs []colScore) {
		for _, c := range cs {
			fmt.Fprintf(w, "| %s | %d | %s | %.3g | %.2f | %.3g | %.3f | %.3f | %.3g | %.2f | %.2f | %.2f |\n", t.key, n, c.name, c.spread, c.width, c.maxWidth, c.clamped, c.qErr, c.qMax, c.qOK, c.qOut, c.none)
		}
	})
}

// tableSummary is one table's figures at one size: the median column's
// width, the widest column's, the clamped share (mean over columns, and the
// worst column's), the share of column-draws whose quartiles are all within
// a quarter of the spread, the worst column's share, and levels kept.
type tableSummary struct {
	width, worstWidth, clamped, worstClamped, qOK, worstQOK, levels, none float64
	shown, shownOK                                                        float64 // share of column-draws whose quartiles the page shows; of those, the share within a quarter of the spread (NaN when none)
}

func summarize(cs []colScore) tableSummary {
	var s tableSummary
	ws := make([]float64, len(cs))
	s.worstQOK = 1
	lv, lvOK := 0.0, 0.0
	for j, c := range cs {
		ws[j] = c.width
		s.worstWidth = math.Max(s.worstWidth, c.width)
		s.clamped += c.clamped / float64(len(cs))
		s.worstClamped = math.Max(s.worstClamped, c.clamped)
		s.qOK += c.qOK / float64(len(cs))
		s.worstQOK = math.Min(s.worstQOK, c.qOK)
		s.none += c.none / float64(len(cs))
		lv += c.level
		lvOK += c.levelsOK
	}
	sh, shOK := 0.0, 0.0
	for _, c := range cs {
		sh += c.shown
		shOK += c.shownOK
	}
	s.shown, s.shownOK = sh/float64(len(cs)), math.NaN()
	if sh > 0 {
		s.shownOK = shOK / sh
	}
	sort.Float64s(ws)
	d := len(ws)
	s.width = ws[d/2]
	if d%2 == 0 {
		s.width = (ws[d/2-1] + ws[d/2]) / 2
	}
	s.levels = math.NaN()
	if lv > 0 {
		s.levels = lvOK / lv
	}
	return s
}

// runRangesSummary writes one line per table and size at ε = 1 with opt.
func runRangesSummary(root, half string, reps int, opt domain.Options, w io.Writer) error {
	fmt.Fprintf(w, "| table | n | width (median) | worst width | clamped | worst clamped | q within ¼ | worst q | levels | none |\n|---|---|---|---|---|---|---|---|---|---|\n")
	return eachScored(root, half, reps, opt, func(t rangesTable, n int, cs []colScore) {
		su := summarize(cs)
		fmt.Fprintf(w, "| %s | %d | %.2f | %.2f | %.3f | %.3f | %.2f | %.2f | %.2f | %.2f |\n", t.key, n, su.width, su.worstWidth, su.clamped, su.worstClamped, su.qOK, su.worstQOK, su.levels, su.none)
	})
}
