//go:build js && wasm

package estimate

import (
	"fmt"
	"math"
	"slices"
	"syscall/js"

	"github.com/dpsample/dpsample/core/dataset"
	"github.com/dpsample/dpsample/core/loss"
	"github.com/dpsample/dpsample/core/mechanism"
	"github.com/dpsample/dpsample/core/plot"
	"github.com/dpsample/dpsample/wasm/internal/jsio"
	"github.com/dpsample/dpsample/wasm/ui/estimate/internal/form"
	"github.com/dpsample/dpsample/wasm/ui/estimate/internal/ledger"
	"github.com/dpsample/dpsample/wasm/ui/estimate/internal/report"
	"github.com/dpsample/dpsample/wasm/ui/internal/kit"
)

// cloudPlot: 2-D samples over the loss contours (location losses), in the
// columns' units: the contours are evaluated on the scaled loss at the
// scaled image of each grid point — over the rows the figure draws (every
// in.raw.step-th): 36² evaluations over a million rows would hold the main
// thread for seconds, and the level sets of a stride of 5,000 rows are the
// figure's purpose as well (the legend says so).
func (v *estimateView) cloudPlot(in *report.Input, r *mechanism.Result, units [][]float64, fit []float64) *plot.Plot {
	var rows [][]float64
	var ys []float64
	for i := 0; i < len(in.Req.X); i += in.Raw.Step {
		rows = append(rows, in.Req.X[i])
		if in.Req.Y != nil {
			ys = append(ys, in.Req.Y[i])
		}
	}
	set, err := loss.New(in.Kind, rows, ys, loss.Params{Clip: in.Req.Clip})
	rx, ry := in.Ranges[0], in.Ranges[1]
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
		if in.Raw.Step > 1 {
			series[0].Name = "loss contours (of the rows drawn)"
		}
	}
	dx, dy := make([]float64, 0, len(in.Raw.Rows)), make([]float64, 0, len(in.Raw.Rows))
	for _, r := range in.Raw.Rows {
		dx, dy = append(dx, r[0]), append(dy, r[1])
	}
	sx, sy := make([]float64, len(units)), make([]float64, len(units))
	for i, s := range units {
		sx[i], sy[i] = s[0], s[1]
	}
	// The private sample(s) last, large and outlined, so they are found
	// among hundreds of rows.
	series = append(series,
		plot.Series{Name: report.RowsName(in.Raw.N), X: dx, Y: dy, Kind: plot.Points, Color: "#c4c4c4", Radius: 2.5},
		plot.Series{Name: "non-private minimiser (not private)", X: fit[:1], Y: fit[1:2], Kind: plot.Points, Color: plot.Palette[1], Radius: 6, Stroke: "#000"},
		plot.Series{Name: report.SamplesName(len(units)), X: sx, Y: sy, Kind: plot.Points, Color: plot.Palette[0], Radius: 7, Stroke: "#000"})
	return &plot.Plot{Title: "Private centre over your rows", XLabel: in.Columns[0],
		YLabel: in.Columns[1], Series: series, XMin: xlo, XMax: xhi, YMin: ylo, YMax: yhi, Height: 480,
		Desc: "Each large blue dot is one private sample of the centre, in the columns' units; small grey dots are your rows; grey lines are level sets of the loss; the orange dot is the non-private minimiser."}
}

// drawResult draws the result's figure at the figure's width: the centre
// over the rows (a 2-D centre), the rows with the fitted lines (a regression
// on one feature), or the coefficients per declared range.
func (v *estimateView) drawResult(in *report.Input, r *mechanism.Result, units [][]float64, fit []float64) {
	var p *plot.Plot
	caption := report.RawCaption
	switch {
	case in.Kind.Location() && len(r.Theta) == 2:
		p = v.cloudPlot(in, r, units, fit)
	case in.Target != nil && len(in.Ranges) == 1:
		p = report.RegressionPlot(in, units, fit)
	default:
		p = report.CoefPlot(in, r)
		caption = "Bars: the private release. Orange dots: the non-private fit — not private, for your eyes only."
	}
	p = kit.FitWidth(v.el.fig, p)
	if len(p.YCategories) > 0 { // one row per column, not the width's aspect
		p.Height = 110 + 44*float64(len(p.YCategories))
	}
	v.el.fig.SetInnerHTML(`<figcaption class="owner-only">` + kit.Esc(caption) + `</figcaption>` + p.SVG())
}

// exportJSON offers the result and plan as a JSON download (a Blob URL).
func (v *estimateView) exportJSON(in *report.Input, r *mechanism.Result) {
	// Only the private release (mechanism.Result.Release: θ, samples, plan,
	// privacy, public stats), its image in the columns' units (a function of
	// θ and the declared ranges only) and public inputs: no fit, no work
	// counters or timings, no count of dropped or clamped rows.
	rel := r.Release()
	rel.Privacy.Ledger = ledger.Export(rel.Privacy.Ledger) // the table's budget and releases, without its fingerprint
	declared := map[string][2]float64{}
	var lineCols []string
	lineRanges := map[string]dataset.Range{}
	for j, c := range in.Table.Columns {
		if in.OneHot[c] || slices.Contains(in.Table.Indicators, c) { // Table.Indicators holds the 0/1 columns' own names ("age missing")
			continue // coded 0/1 from its list (payload.categories) or from its column's empty cells: not a declared range
		}
		lineCols = append(lineCols, c)
		declared[c] = [2]float64{in.Ranges[j].Lo, in.Ranges[j].Hi}
		lineRanges[c] = in.Ranges[j]
	}
	if in.Target != nil {
		lineCols, lineRanges[in.TargetCol] = append(lineCols, in.TargetCol), *in.Target
	}
	payload := map[string]any{
		"source": in.Source, "columns": in.Columns, "theta": rel.Theta, "samples": rel.Samples, "private": rel.Private,
		"plan": report.Pruned(rel.Plan), "privacy": rel.Privacy, "stats": rel.Stats,
		"thetaInUnits": in.ToUnits(rel.Theta), "declaredRanges": declared,
		"declaredRangesLine": dataset.FormatRanges(lineCols, lineRanges), // pasteable back into the page's one-line field
		"note":               "plan: the fields that apply to the estimator that ran; only the private release and public declarations: the non-private fit, the accuracies, the work counters and timings (diagnostics), the checks of your file and anything else computed from the raw data are omitted (see PRIVACY.md in dpsample's documentation); theta is in scaled units, thetaInUnits in the columns' units (from the declared ranges); privacy.ledger is the table's budget and every release charged to it, without the table's fingerprint",
	}
	if in.Target != nil {
		payload["targetRange"] = [2]float64{in.Target.Lo, in.Target.Hi}
	}
	if in.TargetCol != "" {
		payload["target"] = in.TargetCol // the predicted column (its meaning: "positive" for a classifier, targetRange's units for a regression)
	}
	if in.Positive != "" {
		payload["positive"] = in.Positive
	}
	if found := v.st.PrivateExport(in.Spec, r.Privacy.Ledger); len(found) > 0 {
		payload["privateRanges"] = found // which declared ranges were found privately, and what that release cost (its id in privacy.ledger)
	}
	if rel.Intervals != nil {
		payload["intervals"] = rel.Intervals // in scaled units, like theta: private, paid for inside the same ε (issue 54)
	}
	if cats := form.CatsExport(in.Cats, r.Privacy.Ledger); len(cats) > 0 {
		payload["categories"] = cats // each text feature's labels (its columns name=label) and where they came from: typed, or the release in privacy.ledger
	}
	b := jsio.JSON(payload, "  ") // not encoding/json: ≈ 47 KB less to download (jsio.JSON)
	// The coefficients as a table to publish (issue 53 item 4): CSV and
	// Markdown, nothing in them that is not private.
	refs := map[string]string{}
	for _, u := range in.Cats {
		if u.Reference != "" {
			refs[u.Col] = u.Reference
		}
	}
	est := in.ToUnits(rel.Theta)
	iv := r.Intervals
	withIv := iv != nil && len(iv.Lo) > 0
	if withIv {
		est = in.ToUnits(iv.Estimate) // the intervals' centre: the corrected estimate
	}
	tbl := report.Published{Rows: report.CoefRows(in.Kind, in.Columns, est, in.TargetCol, refs, in.OneHot),
		Guarantee: report.Guarantee(estimatorName(rel.Plan), rel.Privacy.Epsilon, rel.Privacy.Delta, rel.Plan.N, rel.Private)}
	if withIv {
		tbl.Level = iv.Level
		for j := range tbl.Rows {
			if j < len(iv.Lo) {
				if lo, hi, ok := intervalUnits(in, rel.Theta, j, iv.Lo[j], iv.Hi[j]); ok {
					tbl.Rows[j].Lo, tbl.Rows[j].Hi = &lo, &hi
				}
			}
		}
		tbl.Guarantee += fmt.Sprintf(" The estimates are the corrected ones the %g %% intervals are centred on (released with them, inside the same ε); "+
			"if the table were drawn again from the same population, %g of 100 such intervals would hold the population's value, privacy noise included.",
			100*iv.Level, 100*iv.Level)
	}
	for _, u := range v.exportURLs {
		js.Global().Get("URL").Call("revokeObjectURL", u)
	}
	v.exportURLs = nil
	link := func(text, mime, label, file, id string) kit.Elem {
		parts := js.Global().Get("Array").New(1)
		parts.SetIndex(0, text)
		opts := js.Global().Get("Object").New()
		opts.Set("type", mime)
		u := js.Global().Get("URL").Call("createObjectURL", js.Global().Get("Blob").New(parts, opts)).String()
		v.exportURLs = append(v.exportURLs, u)
		return kit.Text("a", label, "href", u, "download", file, "id", v.id+"-download"+id)
	}
	csvLink := link(tbl.CSV(), "text/csv", "CSV", "dpsample-coefficients.csv", "-csv")
	mdLink := link(tbl.Markdown(), "text/markdown", "Markdown", "dpsample-coefficients.md", "-md")
	jsonLink := link(b, "application/json", "Download the private result and its plan (JSON)", "dpsample-estimate.json", "") // made last: the tests' hook keeps the last Blob
	v.el.export.SetInnerHTML("")
	kit.AppendAll(v.el.export,
		jsonLink,
		kit.TextNode(" — contains θ, the samples, the plan and the privacy report; not the data or the non-private fit. The coefficients to publish: "),
		csvLink, kit.TextNode(", "), mdLink,
		kit.TextNode(" (each coefficient in its column's units, a text feature's labels named against their reference, and the guarantee in one sentence)."))
}

// estimatorName names a plan's estimator for a sentence.
func estimatorName(pl mechanism.Plan) string {
	if pl.Schedule != nil {
		return "DP-GD"
	}
	return "Algorithm 1 (the regularized exponential mechanism)"
}
