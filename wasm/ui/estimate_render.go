//go:build js && wasm

package ui

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/dpsample/dpsample/core/loss"
	"github.com/dpsample/dpsample/core/mechanism"
	"github.com/dpsample/dpsample/core/privacy"
)

// meanSD are the mean and sample standard deviation of each coordinate.
func meanSD(samples [][]float64, d int) (mean, sd []float64) {
	mean, sd = make([]float64, d), make([]float64, d)
	for _, s := range samples {
		for j := 0; j < d && j < len(s); j++ {
			mean[j] += s[j] / float64(len(samples))
		}
	}
	for _, s := range samples {
		for j := 0; j < d && j < len(s); j++ {
			sd[j] += (s[j] - mean[j]) * (s[j] - mean[j]) / math.Max(1, float64(len(samples)-1))
		}
	}
	for j := range sd {
		sd[j] = math.Sqrt(sd[j])
	}
	return mean, sd
}

// coefTable is the table of θ (first sample, spread, non-private fit).
func coefTable(names []string, theta, sd, fit []float64, spread bool, head string) elem {
	tbl := el("table", "class", "coef")
	tr := el("tr")
	appendAll(tr, text("th", "coordinate"), text("th", head), text("th", "spread over samples (sd)"), text("th", "non-private θ̂"))
	tbl.AppendChild(tr)
	for j := range theta {
		row := el("tr")
		np, s := text("td", "—"), text("td", "—")
		if j < len(fit) {
			np = text("td", g3(fit[j]), "data-v", strconv.FormatFloat(fit[j], 'g', -1, 64))
		}
		if spread {
			s = text("td", g3(sd[j]))
		}
		// data-v holds the full-precision value (for copying and tests).
		appendAll(row, text("td", names[j]), text("td", g3(theta[j]), "data-v", strconv.FormatFloat(theta[j], 'g', -1, 64)), s, np)
		tbl.AppendChild(row)
	}
	return tbl
}

func (v *estimateView) render(in *estimateInput, r *mechanism.Result) {
	d := len(r.Theta)
	// θ in the columns' units: every sample, the first one and the fit.
	units := make([][]float64, len(r.Samples))
	for i, s := range r.Samples {
		units[i] = in.toUnits(s)
	}
	du := len(in.toUnits(r.Theta))
	names := append([]string(nil), in.columns...)
	if du > len(names) { // a shift with no intercept column (not used by the page's losses)
		names = append(names, "offset")
	}
	_, sd := meanSD(units, du)
	fit := in.toUnits(r.Fit.Theta[:min(d, len(r.Fit.Theta))])
	_, ssd := meanSD(r.Samples, d)
	head := "private θ (first sample)"
	what := ""
	switch {
	case in.kind.Location():
		head = "private centre (first sample)"
		what = "The centre is in each column's own units."
	case in.target != nil:
		what = fmt.Sprintf("Coefficients are in %s per unit of each column; the intercept is in %s.", in.targetCol, in.targetCol)
	case in.kind == loss.Logistic:
		what = fmt.Sprintf("Coefficients are log-odds per unit of each column: the score is the log-odds log(p/(1 − p)) of p, the probability "+
			"that %s is “%s”, and a coefficient is how much it changes when the column grows by one unit; the intercept is the log-odds "+
			"where every column is 0.", in.targetCol, in.positive)
	default:
		what = "Coefficients are the score's change per unit of each column (the score's sign is the predicted label; a hinge loss's " +
			"score is a margin, not a log-odds)."
	}
	if !in.kind.Location() {
		what += " The chart compares them on one scale: the change across each column's declared range."
	}
	v.summary.SetInnerHTML("")
	rangeList := make([]string, len(in.ranges))
	for j, rg := range in.ranges {
		rangeList[j] = fmt.Sprintf("%s [%s, %s]", in.table.Columns[j], g6(rg.Lo), g6(rg.Hi))
	}
	ranges := "Declared public ranges: " + strings.Join(rangeList, ", ")
	if in.target != nil {
		ranges += fmt.Sprintf("; target %s [%s, %s]", in.targetCol, g6(in.target.Lo), g6(in.target.Hi))
	}
	appendAll(v.summary,
		text("p", fmt.Sprintf("Data: %s — %s used%s%s. Features scaled from their declared public ranges to [−1, 1]%s%s.",
			in.source, count(len(in.req.X), "row"), dropped(in.table.Dropped), delimiter(in.table.Delimiter, in.source),
			targetNote(in), labels(in)), "class", "detail", "id", v.id+"-data-note"),
		text("p", ranges+".", "class", "detail", "id", v.id+"-declared"),
		text("p", what, "class", "detail"),
		coefTable(names, units[0], sd, fit, len(r.Samples) > 1, head))
	// The scaled values, one click away.
	det := el("details", "id", v.id+"-scaled")
	appendAll(det, text("summary", "Scaled values (what the mechanism saw: every declared range mapped to [−1, 1])"),
		coefTable(in.columns, r.Theta, ssd, r.Fit.Theta, len(r.Samples) > 1, "private θ, scaled (first sample)"))
	v.summary.AppendChild(det)
	// Plot.
	v.redraw = func() { v.drawResult(in, r, units, fit) }
	v.redraw()
	v.excess.SetInnerHTML("")
	dg := r.Diagnostics
	var clamps []string
	clamps = append(clamps, count(in.table.Clamped, "feature value")+" outside its declared range (clamped)")
	if in.target != nil {
		clamps = append(clamps, count(dg.ClampedTargets, "target")+" outside the target range (clamped)")
	}
	if in.kind.Location() {
		clamps = append(clamps, count(dg.ClampedPoints, "point")+" clamped to the box")
	} else {
		clamps = append(clamps, count(dg.ClippedRows, "row")+" clipped to length √d")
	}
	if in.table.Dropped > 0 {
		clamps = append(clamps, count(in.table.Dropped, "row")+" dropped for missing cells")
	}
	work := fmt.Sprintf("The run took %.2f s", dg.Seconds)
	if dg.Trials > 0 {
		work += fmt.Sprintf(", %s and %s", count(int(dg.Trials), "rejection trial"), count(int(dg.LossEvals), "loss evaluation"))
	}
	if dg.Workers > 1 {
		work += fmt.Sprintf(" on %d workers", dg.Workers)
	}
	if dg.Note != "" {
		work += " (" + dg.Note + ")"
	}
	p1 := el("p")
	appendAll(p1, text("strong", "Not private — for your eyes only: "),
		textNode(fmt.Sprintf("the released θ has loss %.4g against %.4g for the best θ with ‖θ‖ ≤ C (excess %.3g). ",
			r.Fit.Loss, r.Fit.NonPrivateLoss, r.Fit.Excess)+negativeExcess(r)))
	appendAll(v.excess, p1)
	if r.Fit.Accuracy != nil && r.Fit.NonPrivateAccuracy != nil {
		v.excess.AppendChild(text("p", fmt.Sprintf("Training accuracy — the share of the %d rows whose label the sign of the score predicts, "+
			"on the rows the model was fitted on (not new data): private θ %s, non-private θ̂ %s.%s",
			len(in.req.X), pct(*r.Fit.Accuracy), pct(*r.Fit.NonPrivateAccuracy), coded(in)), "id", v.id+"-accuracy"))
	}
	if cmp := trivialNote(v.id, in, r); cmp != nil {
		v.excess.AppendChild(cmp)
	}
	diag := text("p", "Your data against the declarations: "+strings.Join(clamps, ", ")+". "+work+
		". These numbers are computed from your raw data on this device and are not private; do not publish them.", "id", v.id+"-diagnostics")
	appendAll(v.excess, diag)
	v.statement.SetTextContent(attackerLine(r) + " " + statement(r) + v.privateStatement(in, r.Privacy.Ledger) + ledgerStatement(r.Privacy.Ledger))
	v.exportJSON(in, r)
}

// negativeExcess says why a negative excess is possible where it is shown.
func negativeExcess(r *mechanism.Result) string {
	f := r.Fit
	if !(f.Excess < 0) {
		return ""
	}
	if f.Norm > r.Plan.Radius {
		return fmt.Sprintf("The excess is negative: the released θ fits your rows better than the best θ inside the ball ‖θ‖ ≤ C = %g. "+
			"That can happen, because the sampler draws θ from all of ℝ^d, not from the ball, and this sample has ‖θ‖ = %.3g, "+
			"outside it, where a lower loss is possible. C shapes the distribution (η and μ are set from it); it does not confine θ.",
			r.Plan.Radius, f.Norm)
	}
	return fmt.Sprintf("The excess is negative but within %.2g, the precision to which the non-private fit is certified: "+
		"that fit is found by an iterative method, and the released θ is as good as it.", f.Gap)
}

// pct writes a share as a percentage.
func pct(x float64) string { return strconv.FormatFloat(100*x, 'f', 1, 64) + " %" }

// coded says how many rows the positive label coded +1 (the owner's check
// that the label matched their file).
func coded(in *estimateInput) string {
	if in.positive == "" || in.table == nil {
		return ""
	}
	n := 0
	for _, y := range in.table.Y {
		if y > 0 {
			n++
		}
	}
	s := fmt.Sprintf(" Labels: %d of the %d rows have %s = “%s” (coded +1).", n, len(in.table.Y), in.targetCol, in.positive)
	if n == 0 {
		s += " None does: check the positive label."
	}
	return s
}

func dropped(n int) string {
	if n == 0 {
		return ""
	}
	return fmt.Sprintf(" (%s with missing cells dropped)", count(n, "row"))
}

func delimiter(name, source string) string {
	if source != "your CSV" || name == "" {
		return ""
	}
	return "; " + name + "-separated"
}

func targetNote(in *estimateInput) string {
	if in.target == nil {
		return ""
	}
	return fmt.Sprintf(", the target %s likewise (targetRange [−1, 1] in scaled units)", in.targetCol)
}

func labels(in *estimateInput) string {
	if in.positive == "" {
		return ""
	}
	return fmt.Sprintf("; labels of %s: %s → +1, every other label → −1 (declared)", in.targetCol, in.positive)
}

// statement is the plain-language guarantee of a result.
// attackerLine is issue 44's plain sentence for this release: what the best
// membership test can do against it (privacy.AttackerSentence), the samples
// composed (√m·s) with their total variation (m·TV).
func attackerLine(r *mechanism.Result) string {
	return privacy.AttackerSentence(r.Privacy.GDP, r.Plan.TV*float64(max(r.Privacy.ComposedOver, 1)))
}

func statement(r *mechanism.Result) string {
	pl, pv := r.Plan, r.Privacy
	released := "the released sample is"
	if pv.ComposedOver != 1 {
		released = fmt.Sprintf("the %d released samples together are", pv.ComposedOver)
	}
	s := fmt.Sprintf("Privacy of this release: %s (ε = %g, δ = %.2g)-differentially private "+
		"with respect to replacing any one row (%.3g-GDP). The unit of privacy is one complete row of the table the "+
		"mechanism received (rows with a missing cell, if dropped, are not counted); n = %d is public. Whatever anyone "+
		"learns from the release, they could have learned almost as well (within a factor e^ε, plus probability δ) had any "+
		"single row been different. Treated as public: n = %d, d = %d, the loss, ε, δ, the radius C = %g, the rank k = %d, "+
		"the clipping norm %.3g, the declared ranges and labels. Sampler: %s (%s).", released, pv.Epsilon, pv.Delta, pv.GDP,
		pl.N, pl.N, pl.D, pl.Radius, pl.Rank, pl.Clip, pl.Sampler, pl.Method)
	if pl.Schedule != nil { // plan.estimator is a DP-GD variant
		s += fmt.Sprintf(" Estimator: drawn by DP-GD (T = %d, public schedule), not by Algorithm 1's sampler.", pl.Steps)
	} else {
		s += " Estimator: Algorithm 1 (the regularized exponential mechanism, by sampling)."
	}
	if pv.Delta >= 1/float64(pl.N) {
		s += fmt.Sprintf(" Note: δ = %g is not below 1/n = %.3g; a mechanism that publishes one random row in full meets such a δ.", pv.Delta, 1/float64(pl.N))
	}
	if !r.Private {
		s += " This run used a fixed seed: it is reproducible and NOT private."
	}
	return s
}

// g6 formats a declared bound compactly.
func g6(x float64) string { return strconv.FormatFloat(x, 'g', 6, 64) }

// trivialNote sets the private model beside the trivial answer — the
// majority class, or the median for every row — on the rows it was fitted
// on, in the target's units, with a plain warning when the model does no
// better (mechanism.CompareClassifier / CompareRegression). For the owner's
// eyes only: not private, left out of the export.
func trivialNote(id string, in *estimateInput, r *mechanism.Result) elem {
	var t mechanism.Trivial
	var msg string
	switch {
	case in.kind.Classification() && len(in.req.Y) == len(in.req.X):
		t = mechanism.CompareClassifier(in.req.X, in.req.Y, r.Theta)
		label := "“" + in.positive + "”"
		if t.Majority < 0 {
			label = "not “" + in.positive + "”"
		}
		msg = fmt.Sprintf("Against the trivial answer: always answering %s is right for %s of the rows; the private model for %s.",
			label, pct(t.Trivial), pct(t.Model))
	case in.target != nil && in.table != nil && len(in.table.Y) == len(in.req.X):
		t = mechanism.CompareRegression(in.req.X, in.table.Y, r.Theta, in.target.FromScaled)
		msg = fmt.Sprintf("Against the trivial answer: predicting the median, %s, for every row is off by %s on average (RMSE %s) in %s's units; "+
			"the private model by %s (RMSE %s).", readable(t.Median), readable(t.Trivial), readable(t.TrivialRMSE), in.targetCol,
			readable(t.Model), readable(t.ModelRMSE))
	default:
		return nil
	}
	p := el("p", "id", id+"-trivial")
	appendAll(p, text("strong", "For your eyes only: "), textNode(msg))
	if t.NoBetter {
		p.Class().Add("warn")
		w := text("strong", " The private model does no better than the trivial answer", "class", "no-better")
		appendAll(p, w, textNode(": at this ε and with these rows the noise outweighs the signal. What would help: more rows, "+
			"a larger ε (a larger share of the table's budget), or fewer features. (Training rows; not private.)"))
	}
	return p
}

// readable formats a number for reading: 4 significant digits, no exponent
// between 10⁻³ and 10⁹.
func readable(x float64) string {
	a := math.Abs(x)
	if a != 0 && (a < 1e-3 || a >= 1e9) {
		return strconv.FormatFloat(x, 'g', 4, 64)
	}
	s := strconv.FormatFloat(x, 'f', max(0, 3-int(math.Floor(math.Log10(math.Max(a, 1e-3))))), 64)
	if strings.Contains(s, ".") {
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	}
	return s
}
