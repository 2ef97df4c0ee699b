//go:build js && wasm

package report

import (
	"fmt"
	"math"

	"github.com/dpsample/dpsample/core/dataset"
	"github.com/dpsample/dpsample/core/loss"
	"github.com/dpsample/dpsample/core/mechanism"
	"github.com/dpsample/dpsample/core/plot"
	"github.com/dpsample/dpsample/wasm/ui/internal/kit"
)

// plotRows bounds the rows a figure draws: a figure of 100,000 dots is a
// long task to lay out and says no more than one of 5,000.
const plotRows = 5000

// plotted are the rows a figure draws, in the columns' units: every
// step-th row of n (plotStep), copied before the table is scaled.
type plotted struct {
	N, Step int
	Rows    [][]float64
}

// PlottedOf copies the rows of x a figure draws (at most plotRows: a
// million-row table is not copied whole for its figure).
func PlottedOf(x [][]float64) plotted {
	p := plotted{N: len(x), Step: PlotStep(len(x))}
	for i := 0; i < len(x); i += p.Step {
		p.Rows = append(p.Rows, append([]float64(nil), x[i]...))
	}
	return p
}

// PlotStep is the stride of the rows drawn: every row up to plotRows, then
// every step-th (a rule of n alone).
func PlotStep(n int) int { return max(1, (n+plotRows-1)/plotRows) }

// RowsName names the rows' series, with the stride when it is not 1.
func RowsName(n int) string {
	if s := PlotStep(n); s > 1 {
		return fmt.Sprintf("your rows (not private; every %s of %s)", ordinal(s), kit.Count(n, "row"))
	}
	return "your rows (not private)"
}

// ordinal writes k-th for k ≥ 2 ("2nd", "3rd", "20th").
func ordinal(k int) string {
	suffix := "th"
	if k%100 < 11 || k%100 > 13 {
		suffix = [...]string{"th", "st", "nd", "rd", "th", "th", "th", "th", "th", "th"}[k%10]
	}
	return fmt.Sprintf("%d%s", k, suffix)
}

func SamplesName(m int) string {
	if m == 1 {
		return "the private centre"
	}
	return fmt.Sprintf("%d private samples", m)
}

// RawCaption labels a figure that shows the user's rows.
const RawCaption = "Not private — for your eyes only: this figure shows your rows and the non-private fit. Only the blue private result may be published."

// CoefPlot: the coefficients on one scale, the change of the score across
// each column's declared range (dataset.RangeEffects), as horizontal bars
// named by the columns (mean of the samples, ± sd), with the non-private
// fit's; for a centre, its position in each declared range. The per-unit
// values and the intercept are in the table.
func CoefPlot(in *Input, r *mechanism.Result) *plot.Plot {
	d := len(in.Ranges)
	scale := func(theta []float64) []float64 {
		if in.Kind.Location() {
			return theta[:min(d, len(theta))]
		}
		e := dataset.RangeEffects(theta, in.Ranges, in.Target)
		for j := range e {
			if j < len(in.Columns) && in.OneHot[in.Columns[j]] {
				e[j] /= 2 // a one-hot column's change from 0 to 1, not across its declared [−1, 1]
			}
		}
		return e
	}
	eff := make([][]float64, len(r.Samples))
	for i, s := range r.Samples {
		eff[i] = scale(s)
	}
	mean, sd := MeanSD(eff, d)
	idx := make([]float64, d)
	for j := range idx {
		idx[j] = float64(j + 1)
	}
	var errs []float64
	if len(eff) > 1 {
		errs = sd
	}
	np := scale(r.Fit.Theta)
	xlab := "change in the score across the column's declared range"
	switch {
	case in.Kind.Location():
		xlab = "position in the declared range (−1 lowest, +1 highest)"
	case in.Target != nil:
		xlab = "change in " + in.TargetCol + " across the column's declared range"
	case in.Kind == loss.Logistic:
		xlab = "change in log-odds across the column's declared range"
	}
	name := "private θ"
	if len(eff) > 1 {
		name = fmt.Sprintf("private, mean of %d ± sd", len(eff))
	}
	series := []plot.Series{
		{Name: name, X: mean, Y: idx, Kind: plot.HBars, Err: errs, Color: plot.Palette[0]},
		{Name: "non-private θ̂ (not private)", X: np, Y: idx[:len(np)], Kind: plot.Points, Color: plot.Palette[1], Radius: 5, Stroke: "#000"},
	}
	if iv := r.Intervals; iv != nil && len(iv.Lo) > 0 && !in.Kind.Location() {
		// The intervals on the chart's scale (RangeEffects is a coefficient's
		// own linear map): the corrected estimate and its interval.
		c, lo, hi := scale(iv.Estimate), scale(iv.Lo), scale(iv.Hi)
		box := make([][4]float64, len(c))
		for j := range c {
			box[j] = [4]float64{math.Min(lo[j], hi[j]), math.Max(lo[j], hi[j]), math.NaN(), math.NaN()}
		}
		series = append(series, plot.Series{Name: fmt.Sprintf("%g %% interval (private)", 100*iv.Level), X: c, Y: idx[:len(c)], Kind: plot.Points,
			Box: box, Color: "#222222", Radius: 3})
	}
	return &plot.Plot{Title: "Private vs non-private coefficients", XLabel: xlab, YCategories: in.Columns[:d],
		Series: series,
		Rules:  []plot.Rule{{At: 0, Color: "#444444"}},
		Desc:   "One row per column. Bars: the private coefficients, as the change across the column's declared range (mean over samples, with ± one standard deviation); orange dots: the non-private fit. A one-hot column (name=label) shows the change from 0 to 1: that label against none of its list. Per-unit values and the intercept are in the table."}
}

// RegressionPlot: a regression on one feature, drawn as the user's rows with
// the private line(s) and the non-private line, in the columns' units.
func RegressionPlot(in *Input, units [][]float64, fit []float64) *plot.Plot {
	rg := in.Ranges[0]
	lo, hi := rg.Lo-0.05*(rg.Hi-rg.Lo), rg.Hi+0.05*(rg.Hi-rg.Lo)
	xs, ys := make([]float64, 0, len(in.Raw.Rows)), make([]float64, 0, len(in.Raw.Rows))
	for j, r := range in.Raw.Rows {
		xs, ys = append(xs, r[0]), append(ys, in.Table.Y[j*in.Raw.Step])
	}
	line := func(beta []float64) ([]float64, []float64) {
		return []float64{lo, hi}, []float64{beta[1] + beta[0]*lo, beta[1] + beta[0]*hi}
	}
	series := []plot.Series{{Name: RowsName(in.Raw.N), X: xs, Y: ys, Kind: plot.Points, Color: "#b0b0b0", Radius: 2.5}}
	fx, fy := line(fit)
	series = append(series, plot.Series{Name: "non-private line (not private)", X: fx, Y: fy, Color: plot.Palette[1], Dashed: true})
	for i := len(units) - 1; i >= 0; i-- { // the first sample last: on top
		x, y := line(units[i])
		s := plot.Series{X: x, Y: y, Color: "#56B4E9"}
		if i == 0 {
			s.Name, s.Color = "private line", plot.Palette[0]
			if len(units) > 1 {
				s.Name = "private line (first sample; others lighter)"
			}
		}
		series = append(series, s)
	}
	tr := in.Target
	return &plot.Plot{Title: "Your rows and the fitted lines", XLabel: in.Columns[0], YLabel: in.TargetCol, Series: series,
		XMin: lo, XMax: hi, YMin: tr.Lo - 0.05*(tr.Hi-tr.Lo), YMax: tr.Hi + 0.05*(tr.Hi-tr.Lo), Height: 440,
		Desc: "Grey dots: your rows in the columns' units (x the feature, y the target), over the declared ranges; blue: the private line; dashed orange: the non-private line."}
}
