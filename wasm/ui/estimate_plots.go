//go:build js && wasm

package ui

import (
	"fmt"
	"math"
	"strings"
	"syscall/js"

	"github.com/dpsample/dpsample/core/dataset"
	"github.com/dpsample/dpsample/core/loss"
	"github.com/dpsample/dpsample/core/mechanism"
	"github.com/dpsample/dpsample/core/plot"
	"github.com/dpsample/dpsample/wasm/internal/jsio"
)

// cloudPlot: 2-D samples over the loss contours (location losses), in the
// columns' units: the contours are evaluated on the scaled loss at the
// scaled image of each grid point.
func (v *estimateView) cloudPlot(in *estimateInput, r *mechanism.Result, units [][]float64, fit []float64) *plot.Plot {
	set, err := loss.New(in.kind, in.req.X, in.req.Y, loss.Params{Clip: in.req.Clip})
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
	}
	dx, dy := make([]float64, 0, len(in.raw)), make([]float64, 0, len(in.raw))
	for _, row := range in.raw {
		dx, dy = append(dx, row[0]), append(dy, row[1])
	}
	sx, sy := make([]float64, len(units)), make([]float64, len(units))
	for i, s := range units {
		sx[i], sy[i] = s[0], s[1]
	}
	series = append(series,
		plot.Series{Name: "data rows", X: dx, Y: dy, Kind: plot.Points, Color: "#bbbbbb"},
		plot.Series{Name: fmt.Sprintf("%d private samples", len(units)), X: sx, Y: sy, Kind: plot.Points, Color: plot.Palette[0]},
		plot.Series{Name: "non-private minimiser", X: fit[:1], Y: fit[1:2], Kind: plot.Points, Color: plot.Palette[1]})
	return &plot.Plot{Title: "Private samples over the loss", XLabel: in.columns[0],
		YLabel: in.columns[1], Series: series, XMin: xlo, XMax: xhi, YMin: ylo, YMax: yhi, Height: 480,
		Desc: "Each blue dot is one private sample of the centre, in the columns' units; grey lines are level sets of the loss; the orange dot is the non-private minimiser."}
}

// coefPlot: coefficient bars in the columns' units (mean of the samples, ±
// sd) and the non-private fit; the intercept is left to the table (its scale
// is the target's, not a per-unit slope).
func coefPlot(in *estimateInput, names []string, units [][]float64, mean, sd, fit []float64) *plot.Plot {
	d := len(mean)
	if in.kind.Supervised() {
		d-- // the intercept
	}
	idx := make([]float64, d)
	for j := range idx {
		idx[j] = float64(j + 1)
	}
	var errs []float64
	if len(units) > 1 {
		errs = sd[:d]
	}
	np := fit
	if len(np) > d {
		np = np[:d]
	}
	ylab := "coefficient per unit of the column"
	if in.target != nil {
		ylab = in.targetCol + " per unit of the column"
	}
	if in.kind.Location() {
		ylab = "centre (column units)"
	}
	return &plot.Plot{Title: "Private vs non-private coefficients", XLabel: "coordinate j: " + strings.Join(names[:d], ", "),
		YLabel: ylab, XMin: 0.4, XMax: float64(d) + 0.6,
		Series: []plot.Series{
			{Name: fmt.Sprintf("private, mean of %d ± sd", len(units)), X: idx, Y: mean[:d], Kind: plot.Bars, Err: errs, Color: plot.Palette[0]},
			{Name: "non-private θ̂", X: idx[:len(np)], Y: np, Kind: plot.Points, Color: plot.Palette[1]},
		},
		Desc: "Bars: private coefficients in the columns' units (mean over samples, with ± one standard deviation); orange dots: the non-private fit. The intercept is in the table."}
}

// exportJSON offers the result and plan as a JSON download (a Blob URL).
func (v *estimateView) exportJSON(in *estimateInput, r *mechanism.Result) {
	// Only the private release (mechanism.Result.Release: θ, samples, plan,
	// privacy, public stats), its image in the columns' units (a function of
	// θ and the declared ranges only) and public inputs: no fit, no work
	// counters or timings, no count of dropped or clamped rows.
	rel := r.Release()
	declared := map[string][2]float64{}
	for j, c := range in.table.Columns {
		declared[c] = [2]float64{in.ranges[j].Lo, in.ranges[j].Hi}
	}
	payload := map[string]any{
		"source": in.source, "columns": in.columns, "theta": rel.Theta, "samples": rel.Samples, "private": rel.Private,
		"plan": rel.Plan, "privacy": rel.Privacy, "stats": rel.Stats,
		"thetaInUnits": in.toUnits(rel.Theta), "declaredRanges": declared,
		"note": "only the private release: the non-private fit, the work counters and timings (diagnostics) and anything else computed from the raw data are omitted (docs/PRIVACY.md); theta is in scaled units, thetaInUnits in the columns' units (from the declared ranges)",
	}
	if in.target != nil {
		payload["targetRange"] = [2]float64{in.target.Lo, in.target.Hi}
	}
	if in.positive != "" {
		payload["positive"] = in.positive
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
	appendAll(v.export, a, doc().CreateTextNode(" — contains θ, the samples, the plan and the privacy report; not the data or the non-private fit."))
}
