//go:build js && wasm

package ui

import (
	"fmt"
	"math"
	"syscall/js"

	"github.com/dpsample/dpsample/core/dataset"
	"github.com/dpsample/dpsample/core/loss"
	"github.com/dpsample/dpsample/core/mechanism"
	"github.com/dpsample/dpsample/core/plot"
	"github.com/dpsample/dpsample/wasm/internal/jsio"
)

// cloudPlot: 2-D samples over the loss contours (location losses), in the
// columns' units: the contours are evaluated on the scaled loss at the
// scaled image of each grid point — over the rows the figure draws (every
// in.raw.step-th): 36² evaluations over a million rows would hold the main
// thread for seconds, and the level sets of a stride of 5,000 rows are the
// figure's purpose as well (the legend says so).
func (v *estimateView) cloudPlot(in *estimateInput, r *mechanism.Result, units [][]float64, fit []float64) *plot.Plot {
	var rows [][]float64
	var ys []float64
	for i := 0; i < len(in.req.X); i += in.raw.step {
		rows = append(rows, in.req.X[i])
		if in.req.Y != nil {
			ys = append(ys, in.req.Y[i])
		}
	}
	set, err := loss.New(in.kind, rows, ys, loss.Params{Clip: in.req.Clip})
	rx, ry := in.ranges[0], in.ranges[1]
	pad := func(rg dataset.Range) (float64, float64) {
		return rg.Lo - 0.05*(rg.Hi-rg.Lo), rg.Hi + 0.05*(rg.Hi-rg.Lo)
	}
	xlo, xhi := pad(rx)
	ylo, yhi := pad(ry)
	for _, s := range units {
		xlo, xhi = math.Min(xlo, s[0]), math.Max(xhi, s[0])
		ylo, yhi = math.Min(ylo, s[1]), math.Max(yhi, s[1])
	}
	const m = 36
	xs, ys := make([]float64, m), make([]float64, m)
	for i := range xs {
		xs[i] = xlo + (xhi-xlo)*float64(i)/(m-1)
		ys[i] = ylo + (yhi-ylo)*float64(i)/(m-1)
	}
	var series []plot.Series
	if err == nil {
		z := make([][]float64, m)
		zmin, zmax := math.Inf(1), math.Inf(-1)
		for i := range z {
			z[i] = make([]float64, m)
			for j := range z[i] {
				z[i][j] = set.Mean([]float64{rx.ToScaled(xs[j]), ry.ToScaled(ys[i])})
				zmin, zmax = math.Min(zmin, z[i][j]), math.Max(zmax, z[i][j])
			}
		}
		var levels []float64
		for q := 1; q <= 6; q++ {
			levels = append(levels, zmin+(zmax-zmin)*math.Pow(float64(q)/7, 2))
		}
		series = plot.Contours(xs, ys, z, levels, "#c8c8c8")
		series[0].Name = "loss contours"
		if in.raw.step > 1 {
			series[0].Name = "loss contours (of the rows drawn)"
		}
	}
	dx, dy := make([]float64, 0, len(in.raw.rows)), make([]float64, 0, len(in.raw.rows))
	for _, r := range in.raw.rows {
		dx, dy = append(dx, r[0]), append(dy, r[1])
	}
	sx, sy := make([]float64, len(units)), make([]float64, len(units))
	for i, s := range units {
		sx[i], sy[i] = s[0], s[1]
	}
	// The private sample(s) last, large and outlined, so they are found
	// among hundreds of rows.
	series = append(series,
		plot.Series{Name: rowsName(in.raw.n), X: dx, Y: dy, Kind: plot.Points, Color: "#c4c4c4", Radius: 2.5},
		plot.Series{Name: "non-private minimiser (not private)", X: fit[:1], Y: fit[1:2], Kind: plot.Points, Color: plot.Palette[1], Radius: 6, Stroke: "#000"},
		plot.Series{Name: samplesName(len(units)), X: sx, Y: sy, Kind: plot.Points, Color: plot.Palette[0], Radius: 7, Stroke: "#000"})
	return &plot.Plot{Title: "Private centre over your rows", XLabel: in.columns[0],
		YLabel: in.columns[1], Series: series, XMin: xlo, XMax: xhi, YMin: ylo, YMax: yhi, Height: 480,
		Desc: "Each large blue dot is one private sample of the centre, in the columns' units; small grey dots are your rows; grey lines are level sets of the loss; the orange dot is the non-private minimiser."}
}

// plotRows bounds the rows a figure draws: a figure of 100,000 dots is a
// long task to lay out and says no more than one of 5,000.
const plotRows = 5000

// plotted are the rows a figure draws, in the columns' units: every
// step-th row of n (plotStep), copied before the table is scaled.
type plotted struct {
	n, step int
	rows    [][]float64
}

// plottedOf copies the rows of x a figure draws (at most plotRows: a
// million-row table is not copied whole for its figure).
func plottedOf(x [][]float64) plotted {
	p := plotted{n: len(x), step: plotStep(len(x))}
	for i := 0; i < len(x); i += p.step {
		p.rows = append(p.rows, append([]float64(nil), x[i]...))
	}
	return p
}

// plotStep is the stride of the rows drawn: every row up to plotRows, then
// every step-th (a rule of n alone).
func plotStep(n int) int { return max(1, (n+plotRows-1)/plotRows) }

// rowsName names the rows' series, with the stride when it is not 1.
func rowsName(n int) string {
	if s := plotStep(n); s > 1 {
		return fmt.Sprintf("your rows (not private; every %s of %s)", ordinal(s), count(n, "row"))
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

func samplesName(m int) string {
	if m == 1 {
		return "the private centre"
	}
	return fmt.Sprintf("%d private samples", m)
}

// rawCaption labels a figure that shows the user's rows.
const rawCaption = "Not private — for your eyes only: this figure shows your rows and the non-private fit. Only the blue private result may be published."

// drawResult draws the result's figure at the figure's width: the centre
// over the rows (a 2-D centre), the rows with the fitted lines (a regression
// on one feature), or the coefficients per declared range.
func (v *estimateView) drawResult(in *estimateInput, r *mechanism.Result, units [][]float64, fit []float64) {
	var p *plot.Plot
	caption := rawCaption
	switch {
	case in.kind.Location() && len(r.Theta) == 2:
		p = v.cloudPlot(in, r, units, fit)
	case in.target != nil && len(in.ranges) == 1:
		p = regressionPlot(in, units, fit)
	default:
		p = coefPlot(in, r)
		caption = "Bars: the private release. Orange dots: the non-private fit — not private, for your eyes only."
	}
	p = fitWidth(v.fig, p)
	if len(p.YCategories) > 0 { // one row per column, not the width's aspect
		p.Height = 110 + 44*float64(len(p.YCategories))
	}
	v.fig.SetInnerHTML(`<figcaption class="owner-only">` + esc(caption) + `</figcaption>` + p.SVG())
}

// coefPlot: the coefficients on one scale, the change of the score across
// each column's declared range (dataset.RangeEffects), as horizontal bars
// named by the columns (mean of the samples, ± sd), with the non-private
// fit's; for a centre, its position in each declared range. The per-unit
// values and the intercept are in the table.
func coefPlot(in *estimateInput, r *mechanism.Result) *plot.Plot {
	d := len(in.ranges)
	scale := func(theta []float64) []float64 {
		if in.kind.Location() {
			return theta[:min(d, len(theta))]
		}
		return dataset.RangeEffects(theta, in.ranges, in.target)
	}
	eff := make([][]float64, len(r.Samples))
	for i, s := range r.Samples {
		eff[i] = scale(s)
	}
	mean, sd := meanSD(eff, d)
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
	case in.kind.Location():
		xlab = "position in the declared range (−1 lowest, +1 highest)"
	case in.target != nil:
		xlab = "change in " + in.targetCol + " across the column's declared range"
	case in.kind == loss.Logistic:
		xlab = "change in log-odds across the column's declared range"
	}
	name := "private θ"
	if len(eff) > 1 {
		name = fmt.Sprintf("private, mean of %d ± sd", len(eff))
	}
	return &plot.Plot{Title: "Private vs non-private coefficients", XLabel: xlab, YCategories: in.columns[:d],
		Series: []plot.Series{
			{Name: name, X: mean, Y: idx, Kind: plot.HBars, Err: errs, Color: plot.Palette[0]},
			{Name: "non-private θ̂ (not private)", X: np, Y: idx[:len(np)], Kind: plot.Points, Color: plot.Palette[1], Radius: 5, Stroke: "#000"},
		},
		Rules: []plot.Rule{{At: 0, Color: "#444444"}},
		Desc:  "One row per column. Bars: the private coefficients, as the change across the column's declared range (mean over samples, with ± one standard deviation); orange dots: the non-private fit. Per-unit values and the intercept are in the table."}
}

// regressionPlot: a regression on one feature, drawn as the user's rows with
// the private line(s) and the non-private line, in the columns' units.
func regressionPlot(in *estimateInput, units [][]float64, fit []float64) *plot.Plot {
	rg := in.ranges[0]
	lo, hi := rg.Lo-0.05*(rg.Hi-rg.Lo), rg.Hi+0.05*(rg.Hi-rg.Lo)
	xs, ys := make([]float64, 0, len(in.raw.rows)), make([]float64, 0, len(in.raw.rows))
	for j, r := range in.raw.rows {
		xs, ys = append(xs, r[0]), append(ys, in.table.Y[j*in.raw.step])
	}
	line := func(beta []float64) ([]float64, []float64) {
		return []float64{lo, hi}, []float64{beta[1] + beta[0]*lo, beta[1] + beta[0]*hi}
	}
	series := []plot.Series{{Name: rowsName(in.raw.n), X: xs, Y: ys, Kind: plot.Points, Color: "#b0b0b0", Radius: 2.5}}
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
	tr := in.target
	return &plot.Plot{Title: "Your rows and the fitted lines", XLabel: in.columns[0], YLabel: in.targetCol, Series: series,
		XMin: lo, XMax: hi, YMin: tr.Lo - 0.05*(tr.Hi-tr.Lo), YMax: tr.Hi + 0.05*(tr.Hi-tr.Lo), Height: 440,
		Desc: "Grey dots: your rows in the columns' units (x the feature, y the target), over the declared ranges; blue: the private line; dashed orange: the non-private line."}
}

// exportJSON offers the result and plan as a JSON download (a Blob URL).
func (v *estimateView) exportJSON(in *estimateInput, r *mechanism.Result) {
	// Only the private release (mechanism.Result.Release: θ, samples, plan,
	// privacy, public stats), its image in the columns' units (a function of
	// θ and the declared ranges only) and public inputs: no fit, no work
	// counters or timings, no count of dropped or clamped rows.
	rel := r.Release()
	rel.Privacy.Ledger = exportLedger(rel.Privacy.Ledger) // the table's budget and releases, without its fingerprint
	declared := map[string][2]float64{}
	lineCols, lineRanges := append([]string(nil), in.table.Columns...), map[string]dataset.Range{}
	for j, c := range in.table.Columns {
		declared[c] = [2]float64{in.ranges[j].Lo, in.ranges[j].Hi}
		lineRanges[c] = in.ranges[j]
	}
	if in.target != nil {
		lineCols, lineRanges[in.targetCol] = append(lineCols, in.targetCol), *in.target
	}
	payload := map[string]any{
		"source": in.source, "columns": in.columns, "theta": rel.Theta, "samples": rel.Samples, "private": rel.Private,
		"plan": rel.Plan, "privacy": rel.Privacy, "stats": rel.Stats,
		"thetaInUnits": in.toUnits(rel.Theta), "declaredRanges": declared,
		"declaredRangesLine": dataset.FormatRanges(lineCols, lineRanges), // pasteable back into the page's one-line field
		"note":               "only the private release and public declarations: the non-private fit, the accuracies, the work counters and timings (diagnostics), the checks of your file and anything else computed from the raw data are omitted (see PRIVACY.md in dpsample's documentation); theta is in scaled units, thetaInUnits in the columns' units (from the declared ranges); privacy.ledger is the table's budget and every release charged to it, without the table's fingerprint",
	}
	if in.target != nil {
		payload["targetRange"] = [2]float64{in.target.Lo, in.target.Hi}
	}
	if in.targetCol != "" {
		payload["target"] = in.targetCol // the predicted column (its meaning: "positive" for a classifier, targetRange's units for a regression)
	}
	if in.positive != "" {
		payload["positive"] = in.positive
	}
	if found := v.privateExport(in, r.Privacy.Ledger); len(found) > 0 {
		payload["privateRanges"] = found // which declared ranges were found privately, and what that release cost (its id in privacy.ledger)
	}
	b := jsio.JSON(payload, "  ") // not encoding/json: ≈ 47 KB less to download (jsio.JSON)
	if v.exportURL != "" {
		js.Global().Get("URL").Call("revokeObjectURL", v.exportURL)
	}
	parts := js.Global().Get("Array").New(1)
	parts.SetIndex(0, b)
	opts := js.Global().Get("Object").New()
	opts.Set("type", "application/json")
	blob := js.Global().Get("Blob").New(parts, opts)
	v.exportURL = js.Global().Get("URL").Call("createObjectURL", blob).String()
	v.export.SetInnerHTML("")
	a := text("a", "Download the private result and its plan (JSON)", "href", v.exportURL, "download", "dpsample-estimate.json", "id", v.id+"-download")
	appendAll(v.export, a, textNode(" — contains θ, the samples, the plan and the privacy report; not the data or the non-private fit."))
}
