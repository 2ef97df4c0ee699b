//go:build js && wasm

package estimate

import (
	"fmt"
	"slices"
	"strings"

	"github.com/dpsample/dpsample/core/loss"
	"github.com/dpsample/dpsample/core/mechanism"
	"github.com/dpsample/dpsample/wasm/ui/estimate/internal/form"
	"github.com/dpsample/dpsample/wasm/ui/estimate/internal/ledger"
	"github.com/dpsample/dpsample/wasm/ui/estimate/internal/report"
	"github.com/dpsample/dpsample/wasm/ui/internal/kit"
)

func (v *estimateView) render(in *report.Input, r *mechanism.Result) {
	d := len(r.Theta)
	// θ in the columns' units: every sample, the first one and the fit.
	units := make([][]float64, len(r.Samples))
	for i, s := range r.Samples {
		units[i] = in.ToUnits(s)
	}
	du := len(in.ToUnits(r.Theta))
	names := append([]string(nil), in.Columns...)
	if du > len(names) { // a shift with no intercept column (not used by the page's losses)
		names = append(names, "offset")
	}
	for _, u := range in.Cats { // a label's coefficient compares it with its reference (issue 53 item 2)
		for j, c := range names {
			if u.Reference != "" && strings.HasPrefix(c, u.Col+"=") && in.OneHot[c] {
				names[j] = c + " (vs " + u.Reference + ")"
			}
		}
	}
	_, sd := report.MeanSD(units, du)
	fit := in.ToUnits(r.Fit.Theta[:min(d, len(r.Fit.Theta))])
	_, ssd := report.MeanSD(r.Samples, d)
	head := "private θ (first sample)"
	what := ""
	switch {
	case in.Kind.Location():
		head = "private centre (first sample)"
		what = "The centre is in each column's own units."
	case in.Target != nil:
		what = fmt.Sprintf("Coefficients are in %s per unit of each column; the intercept is in %s.", in.TargetCol, in.TargetCol)
	case in.Kind == loss.Logistic:
		what = fmt.Sprintf("Coefficients are log-odds per unit of each column: the score is the log-odds log(p/(1 − p)) of p, the probability "+
			"that %s is “%s”, and a coefficient is how much it changes when the column grows by one unit; the intercept is the log-odds "+
			"where every column is 0.", in.TargetCol, in.Positive)
	default:
		what = "Coefficients are the score's change per unit of each column (the score's sign is the predicted label; a hinge loss's " +
			"score is a margin, not a log-odds)."
	}
	if !in.Kind.Location() {
		what += " The chart compares them on one scale: the change across each column's declared range."
	}
	v.el.summary.SetInnerHTML("")
	rangeList := make([]string, len(in.Ranges))
	for j, rg := range in.Ranges {
		rangeList[j] = fmt.Sprintf("%s [%s, %s]", in.Table.Columns[j], report.G6(rg.Lo), report.G6(rg.Hi))
		switch c := in.Table.Columns[j]; {
		case in.OneHot[c]:
			rangeList[j] = c + " one-hot 0/1"
		case slices.Contains(in.Table.Indicators, c):
			rangeList[j] = c + " 0/1" // whether the cell was empty: no declared range
		}
	}
	ranges := "Declared public ranges: " + strings.Join(rangeList, ", ")
	if in.Target != nil {
		ranges += fmt.Sprintf("; target %s [%s, %s]", in.TargetCol, report.G6(in.Target.Lo), report.G6(in.Target.Hi))
	}
	kit.AppendAll(v.el.summary,
		kit.Text("p", fmt.Sprintf("Data: %s — %s used%s%s. Features scaled from their declared public ranges to [−1, 1]%s%s.",
			in.Source, kit.Count(len(in.Req.X), "row"), report.Dropped(in.Table.Dropped), report.Delimiter(in.Table.Delimiter, in.Source),
			report.TargetNote(in), report.Labels(in)), "class", "detail", "id", v.id+"-data-note"),
		kit.Text("p", ranges+".", "class", "detail", "id", v.id+"-declared"),
		kit.Text("p", what, "class", "detail"),
		report.CoefTable(names, units[0], sd, fit, len(r.Samples) > 1, head, intervalCells(in, r, true)))
	// The scaled values, one click away.
	det := kit.El("details", "id", v.id+"-scaled")
	kit.AppendAll(det, kit.Text("summary", "Scaled values (what the mechanism saw: every declared range mapped to [−1, 1])"),
		report.CoefTable(in.Columns, r.Theta, ssd, r.Fit.Theta, len(r.Samples) > 1, "private θ, scaled (first sample)", intervalCells(in, r, false)))
	v.el.summary.AppendChild(det)
	// Plot.
	v.redraw = func() { v.drawResult(in, r, units, fit) }
	v.redraw()
	v.el.excess.SetInnerHTML("")
	dg := r.Diagnostics
	var clamps []string
	clamps = append(clamps, kit.Count(in.Table.Clamped, "feature value")+" outside its declared range (clamped)")
	if in.Target != nil {
		clamps = append(clamps, kit.Count(dg.ClampedTargets, "target")+" outside the target range (clamped)")
	}
	if in.Kind.Location() {
		clamps = append(clamps, kit.Count(dg.ClampedPoints, "point")+" clamped to the box")
	} else {
		clamps = append(clamps, kit.Count(dg.ClippedRows, "row")+" clipped to length √d")
	}
	if in.Table.Dropped > 0 {
		clamps = append(clamps, kit.Count(in.Table.Dropped, "row")+" dropped for missing cells")
	}
	if in.Table.MissingCells > 0 {
		how := " filled with the middle of its column's declared range"
		if len(in.Cats) > 0 { // a text feature's empty cell is counted too: it codes as zeros (dataset.Table.MissingCells)
			how = " filled (a number with the middle of its column's declared range, a text label with zeros)"
		}
		clamps = append(clamps, kit.Count(in.Table.MissingCells, "empty cell")+how)
	}
	if in.Zeroed > 0 {
		clamps = append(clamps, kit.Count(in.Zeroed, "row")+" without a target, which weigh nothing (n still counts them)")
	}
	work := fmt.Sprintf("The run took %.2f s", dg.Seconds)
	if dg.Trials > 0 {
		work += fmt.Sprintf(", %s and %s", kit.Count(int(dg.Trials), "rejection trial"), kit.Count(int(dg.LossEvals), "loss evaluation"))
	}
	if dg.Workers > 1 {
		work += fmt.Sprintf(" on %d workers", dg.Workers)
	}
	if dg.Note != "" {
		work += " (" + dg.Note + ")"
	}
	kit.AppendAll(v.el.excess, report.Excess(r)...)
	if r.Fit.Accuracy != nil && r.Fit.NonPrivateAccuracy != nil {
		v.el.excess.AppendChild(kit.Text("p", fmt.Sprintf("Training accuracy — the share of the %d rows whose label the sign of the score predicts, "+
			"on the rows the model was fitted on (not new data): private θ %s, non-private θ̂ %s.%s",
			len(in.Req.X), report.Pct(*r.Fit.Accuracy), report.Pct(*r.Fit.NonPrivateAccuracy), report.Coded(in)), "id", v.id+"-accuracy"))
	}
	if cmp := report.TrivialNote(v.id, in, r); cmp != nil {
		v.el.excess.AppendChild(cmp)
	}
	diag := kit.Text("p", "Your data against the declarations: "+strings.Join(clamps, ", ")+". "+work+
		". These numbers are computed from your raw data on this device and are not private; do not publish them.", "id", v.id+"-diagnostics")
	kit.AppendAll(v.el.excess, diag)
	report.FillStatement(v.el.statement, r, v.st.PrivateStatement(in.Spec, r.Privacy.Ledger)+form.CatsStatement(in.Cats, r.Privacy.Ledger)+
		intervalStatement(r)+ledger.Statement(r.Privacy.Ledger))
	v.exportJSON(in, r)
}

// intervalUnits maps an interval [lo, hi] of θ's coordinate j (scaled) to
// the columns' units, where the map is one coordinate's own (a
// coefficient's hy/h_j, a centre's c_j + h_j·θ_j): ok is false for the
// intercept, whose value in the units mixes every coefficient (its interval
// would need their covariance).
func intervalUnits(in *report.Input, theta []float64, j int, lo, hi float64) (float64, float64, bool) {
	if j >= len(in.Ranges) {
		return 0, 0, false
	}
	at := func(x float64) float64 {
		v := make([]float64, len(theta))
		v[j] = x
		return in.ToUnits(v)[j]
	}
	a, b := at(lo), at(hi)
	return min(a, b), max(a, b), true
}

// intervalCells are the coefficient table's interval column (nil when no
// interval was released): in the columns' units, or scaled.
func intervalCells(in *report.Input, r *mechanism.Result, units bool) []string {
	iv := r.Intervals
	if iv == nil || len(iv.Lo) == 0 {
		return nil
	}
	cells := make([]string, len(iv.Lo))
	for j := range iv.Lo {
		lo, hi, ok := iv.Lo[j], iv.Hi[j], true
		if units {
			lo, hi, ok = intervalUnits(in, r.Theta, j, lo, hi)
		}
		if !ok {
			cells[j] = "— (see below)"
			continue
		}
		cells[j] = "[" + kit.G3(lo) + ", " + kit.G3(hi) + "]"
		if c := r.Plan.Radius; c > 0 && (iv.Lo[j] <= -c*(1-1e-9) || iv.Hi[j] >= c*(1-1e-9)) {
			cells[j] += " (cut at the radius C: the value may lie beyond)"
		}
	}
	return cells
}

// intervalStatement is the statement's sentence on the intervals (issue 54):
// what one means, in one plain sentence, or why none was released.
func intervalStatement(r *mechanism.Result) string {
	iv := r.Intervals
	switch {
	case iv == nil:
		return ""
	case len(iv.Lo) == 0:
		return fmt.Sprintf(" No %g %% intervals were released: %s (the model kept the whole budget).", 100*iv.Level,
			strings.TrimSuffix(strings.TrimPrefix(iv.Reason, "no intervals: "), "."))
	}
	return fmt.Sprintf(" The %g %% intervals beside the coefficients are part of this release: if the table were drawn again from the same "+
		"population, %g of 100 such intervals would hold the population's value — privacy noise included. They are centred on the "+
		"corrected estimate (one Newton step from the released θ, with the gradient and curvature released for it); the intercept's "+
		"interval is given in scaled units only (in the columns' units it depends on every coefficient together).", 100*iv.Level, 100*iv.Level)
}
