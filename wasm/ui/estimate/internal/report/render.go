//go:build js && wasm

package report

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/dpsample/dpsample/core/checks"
	"github.com/dpsample/dpsample/core/dataset"
	"github.com/dpsample/dpsample/core/domain"
	"github.com/dpsample/dpsample/core/mechanism"
	"github.com/dpsample/dpsample/core/privacy"
	"github.com/dpsample/dpsample/wasm/ui/estimate/internal/form"
	"github.com/dpsample/dpsample/wasm/ui/internal/kit"
	"honnef.co/go/js/dom/v2"
)

// MeanSD are the mean and sample standard deviation of each coordinate.
func MeanSD(samples [][]float64, d int) (mean, sd []float64) {
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

// CoefTable is the table of θ (first sample, spread, non-private fit) and,
// when intervals were released (iv non-nil: a cell per row, "—" where none),
// the interval of each coefficient.
func CoefTable(names []string, theta, sd, fit []float64, spread bool, head string, iv []string) kit.Elem {
	tbl := kit.El("table", "class", "coef")
	tr := kit.El("tr")
	kit.AppendAll(tr, kit.Text("th", "coordinate"), kit.Text("th", head), kit.Text("th", "spread over samples (sd)"), kit.Text("th", "non-private θ̂"))
	if iv != nil {
		tr.AppendChild(kit.Text("th", "95 % interval (private)"))
	}
	tbl.AppendChild(tr)
	for j := range theta {
		row := kit.El("tr")
		np, s := kit.Text("td", "—"), kit.Text("td", "—")
		if j < len(fit) {
			np = kit.Text("td", kit.G3(fit[j]), "data-v", strconv.FormatFloat(fit[j], 'g', -1, 64))
		}
		if spread {
			s = kit.Text("td", kit.G3(sd[j]))
		}
		// data-v holds the full-precision value (for copying and tests).
		kit.AppendAll(row, kit.Text("td", names[j]), kit.Text("td", kit.G3(theta[j]), "data-v", strconv.FormatFloat(theta[j], 'g', -1, 64)), s, np)
		if iv != nil {
			cell := "—"
			if j < len(iv) {
				cell = iv[j]
			}
			row.AppendChild(kit.Text("td", cell, "class", "interval"))
		}
		tbl.AppendChild(row)
	}
	return tbl
}

// Excess is the "for your eyes only" comparison of the released model with
// the non-private fit, in plain words first (issue 45 item 2; issue 53 item
// 3: the words scale with the gap, words.go): the average loss of each on
// the rows and the verdict; how the comparison is made and checked in a
// disclosure.
func Excess(r *mechanism.Result) []dom.Node {
	p := kit.El("p")
	kit.AppendAll(p, kit.Text("strong", "Not private — for your eyes only: "), kit.TextNode(ExcessSentence(r.Fit)))
	how := kit.El("details", "class", "excess-how")
	kit.AppendAll(how, kit.Text("summary", "How the comparison is made"), kit.Text("p", HowSentence(r.Fit, r.Plan.Work.ReferenceFixed), "class", "detail"))
	return []dom.Node{p, how}
}

// FillStatement writes a result's privacy statement into box: the plain
// sentence (AttackerLine) first, then the arithmetic — ε, δ, Gaussian DP,
// what is public, the table's budget (more, from the caller) — in a
// disclosure (issue 44 item 2, issue 45 item 2).
func FillStatement(box kit.Elem, r *mechanism.Result, more string) {
	box.SetInnerHTML("")
	full := kit.El("details", "class", "statement-full")
	kit.AppendAll(full, kit.Text("summary", "The guarantee in full: ε, δ, and what is treated as public"),
		kit.Text("p", Statement(r)+more))
	kit.AppendAll(box, kit.Text("p", AttackerLine(r)), full)
}

// Coded says how many rows the positive label coded +1 (the owner's check
// that the label matched their file).
func Coded(in *Input) string {
	if in.Positive == "" || in.Table == nil {
		return ""
	}
	n := 0
	for _, y := range in.Table.Y {
		if y > 0 {
			n++
		}
	}
	s := fmt.Sprintf(" Labels: %d of the %d rows have %s = “%s” (coded +1).", n, len(in.Table.Y), in.TargetCol, in.Positive)
	if n == 0 {
		s += " None does: check the positive label."
	}
	return s
}

func Dropped(n int) string {
	if n == 0 {
		return ""
	}
	return fmt.Sprintf(" (%s with missing cells dropped)", kit.Count(n, "row"))
}

func Delimiter(name, source string) string {
	if source != "your CSV" || name == "" {
		return ""
	}
	return "; " + name + "-separated"
}

func TargetNote(in *Input) string {
	if in.Target == nil {
		return ""
	}
	return fmt.Sprintf(", the target %s likewise (targetRange [−1, 1] in scaled units)", in.TargetCol)
}

func Labels(in *Input) string {
	if in.Positive == "" {
		return ""
	}
	return fmt.Sprintf("; labels of %s: %s → +1, every other label → −1 (declared)", in.TargetCol, in.Positive)
}

// AttackerLine is issue 44's plain sentence for this release: what the best
// membership test can do against it (privacy.AttackerSentence), the samples
// composed (√m·s) with their total variation (m·TV).
func AttackerLine(r *mechanism.Result) string {
	return privacy.AttackerSentence(r.Privacy.GDP, r.Plan.TV*float64(max(r.Privacy.ComposedOver, 1)))
}

// Statement is the plain-language guarantee of a result.
func Statement(r *mechanism.Result) string {
	pl, pv := r.Plan, r.Privacy
	released := "the released sample is"
	if pv.ComposedOver != 1 {
		released = fmt.Sprintf("the %d released samples together are", pv.ComposedOver)
	}
	s := fmt.Sprintf("Privacy of this release: %s (ε = %g, δ = %.2g)-differentially private "+
		"with respect to replacing any one row (%.3g-GDP). The unit of privacy is one row of the table, complete or not, "+
		"replaced by any other possible row (an empty cell takes a public value, a row without its target weighs nothing); "+
		"n = %d, its number of rows, is public. Whatever anyone "+
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

// G6 formats a declared bound compactly.
func G6(x float64) string { return strconv.FormatFloat(x, 'g', 6, 64) }

// AtStep writes a value read from bins of width step to the precision the
// step supports (issue 45 item 7: a quartile of bins 10 wide is "40", not
// "41.7312"): rounded to the power of ten at or below step, with as many
// decimals as that power needs; 3 significant digits without a usable step.
func AtStep(x, step float64) string {
	if !(step > 0) || math.IsInf(step, 0) || math.IsNaN(x) || math.IsInf(x, 0) {
		return strconv.FormatFloat(x, 'g', 3, 64)
	}
	e := int(math.Floor(math.Log10(step)))
	g := math.Pow(10, float64(e))
	if math.Abs(x/g) > 1e15 {
		return strconv.FormatFloat(x, 'g', 3, 64)
	}
	v := math.Round(x/g) * g
	if v == 0 {
		v = 0 // no "-0"
	}
	return strconv.FormatFloat(v, 'f', max(0, -e), 64)
}

// inside is the printed quartile v kept inside the printed range [lo, hi]
// (issue 52: rounding the two at their own steps printed q3 = 260 beside
// hi = 256).
func inside(v, lo, hi string) string {
	x, errX := strconv.ParseFloat(v, 64)
	l, errL := strconv.ParseFloat(lo, 64)
	h, errH := strconv.ParseFloat(hi, 64)
	switch {
	case errX != nil || errL != nil || errH != nil:
		return v
	case x > h:
		return hi
	case x < l:
		return lo
	}
	return v
}

// TrivialNote sets the private model beside the trivial answer — the
// majority class, or the median for every row — on the rows it was fitted
// on, in the target's units, and beside the non-private fit (how much of
// its improvement over the trivial answer the private model keeps:
// GainWords), with a plain warning when the model does no better
// (mechanism.CompareClassifier / CompareRegression). For the owner's eyes
// only: not private, left out of the export.
func TrivialNote(id string, in *Input, r *mechanism.Result) kit.Elem {
	var t mechanism.Trivial
	var msg string
	switch {
	case in.Kind.Classification() && len(in.Req.Y) == len(in.Req.X):
		t = mechanism.CompareClassifier(in.Req.X, in.Req.Y, r.Theta)
		np := math.NaN()
		if r.Fit.NonPrivateAccuracy != nil {
			np = *r.Fit.NonPrivateAccuracy
		}
		msg = TrivialClassifier(in.Positive, t, np)
	case in.Target != nil && in.Table != nil && len(in.Table.Y) == len(in.Req.X):
		t = mechanism.CompareRegression(in.Req.X, in.Table.Y, r.Theta, in.Target.FromScaled)
		var np *mechanism.Trivial
		if len(r.Fit.Theta) == len(r.Theta) {
			c := mechanism.CompareRegression(in.Req.X, in.Table.Y, r.Fit.Theta, in.Target.FromScaled)
			np = &c
		}
		msg = TrivialRegression(in.TargetCol, t, np)
	default:
		return nil
	}
	p := kit.El("p", "id", id+"-trivial")
	kit.AppendAll(p, kit.Text("strong", "For your eyes only: "), kit.TextNode(msg))
	if t.NoBetter {
		p.Class().Add("warn")
		w := kit.Text("strong", " The private model does no better than the trivial answer", "class", "no-better")
		kit.AppendAll(p, w, kit.TextNode(": at this ε and with these rows the noise outweighs the signal. What would help: more rows, "+
			"a larger ε (a larger share of the table's budget), or fewer features. (Training rows; not private.)"))
	}
	return p
}

// RunWords is the attacker's sentence for the run about to happen, shown
// under the ε field (issue 44 item 2): the (ε, δ) typed, as Gaussian DP
// (privacy.Calibrate), for an exact sampler or DP-GD (a proximal sampler's
// slack adds a little: the result's own sentence has it). "" while either
// field is not a valid value.
func RunWords(eps, delta string) string {
	e, err := kit.ParseNumber("epsilon", eps)
	d, err2 := kit.ParseNumber("delta", delta)
	if checks.First(err, err2, checks.Epsilon("epsilon", e), checks.Delta("delta", d)) != nil {
		return ""
	}
	s, err := privacy.Calibrate(e, d)
	if err != nil {
		return ""
	}
	return "Before you run: " + lowerFirst(privacy.AttackerSentenceFor("this run's result", s, 0))
}

// lowerFirst lowers a sentence's first letter, to continue another.
func lowerFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToLower(s[:1]) + s[1:]
}

// OwnerNote fills box with findings about the user's own file: labelled as
// computed on this device for the owner alone, and never exported.
func OwnerNote(box kit.Elem, title string, problems []dataset.Problem) {
	box.SetInnerHTML("")
	head := kit.El("p", "class", "owner-label")
	kit.AppendAll(head, kit.Text("strong", title), kit.TextNode(" — checked on this device and shown only to you; not part of any result or export."))
	ul := kit.El("ul")
	for _, pr := range problems {
		li := kit.Text("li", pr.Text)
		if pr.Blocking {
			li.Class().Add("blocking")
		}
		ul.AppendChild(li)
	}
	kit.AppendAll(box, head, ul)
}

// PositiveNote fills note, under the positive label, with how label codes
// the target column of the user's file (pc, nil when there is nothing to
// check) — above all when it matches no row (a case mismatch: "Virginica"
// for "virginica"), with a button (id-positive-use) calling use with the
// close label. The message is about the owner's own file, for them alone.
func PositiveNote(note kit.Elem, id, target, label string, pc *dataset.Positive, use func(pick string)) {
	note.SetInnerHTML("")
	note.Class().Remove("warn")
	if pc == nil {
		return
	}
	only := " (Checked against your file on this device; shown only to you.)"
	switch {
	case pc.Rows == 0:
		note.Class().Add("warn")
		msg := fmt.Sprintf("No row of %s has the label “%s”: every row would be coded −1.", target, label)
		if pc.Close != "" {
			msg += fmt.Sprintf(" Did you mean “%s”? ", pc.Close)
		}
		note.AppendChild(kit.TextNode(msg))
		if pc.Close != "" {
			btn := kit.Text("button", "Use “"+pc.Close+"”", "type", "button", "id", id+"-positive-use", "class", "secondary small")
			pick := pc.Close
			kit.On(btn, "click", false, func(kit.Event) { use(pick) })
			note.AppendChild(btn)
		}
		note.AppendChild(kit.TextNode(only))
	case pc.Rows == pc.Of:
		note.Class().Add("warn")
		note.SetTextContent(fmt.Sprintf("Every row of %s has the label “%s”: every row would be coded +1.%s", target, label, only))
	default:
		note.SetTextContent(fmt.Sprintf("“%s” codes %d of the %d labelled rows +1.%s", label, pc.Rows, pc.Of, only))
	}
}

// PrivatePanel is "the table, privately": the range, median and quartiles of
// each column of names (cols) found privately by one (eps, delta) release.
// They came with the ranges, at no further cost.
func PrivatePanel(id string, names []string, cols []domain.Column, eps, delta float64) kit.Elem {
	wrap := kit.El("div", "class", "private-table", "id", id+"-private-table")
	tbl := kit.El("table", "class", "coef")
	head := kit.El("tr")
	for _, h := range []string{"column", "low", "q1", "median", "q3", "high"} {
		head.AppendChild(kit.Text("th", h))
	}
	tbl.AppendChild(head)
	dashes := false
	for j, c := range cols {
		tr := kit.El("tr")
		lo, hi := form.NiceRange(c.Lo, c.Hi, c.Step)
		q := func(x float64) string { return inside(AtStep(x, c.QuartileStep), lo, hi) }
		if c.Quartiles == domain.ResolutionMagnitude {
			// stage 1's mode bin, not a reading of the column's quartiles (issue 52)
			q, dashes = func(float64) string { return "—" }, true
		}
		for _, s := range []string{names[j], lo, q(c.Q1), q(c.Median), q(c.Q3), hi} {
			tr.AppendChild(kit.Text("td", s))
		}
		tbl.AppendChild(tr)
	}
	kit.AppendAll(wrap, kit.Text("p", fmt.Sprintf("The table, privately: ranges, quartiles and medians released by one (ε = %g, δ = %g)-DP "+
		"release charged to this table's budget (they are private: fine to share). The quartiles are coarse — they come "+
		"from the same noisy counts as the ranges, at no further cost, and are shown to the resolution those counts support (the width of the bins they were read from); "+
		"a quartile is never shown outside its column's range.", eps, delta), "class", "help"),
		kit.AppendAll(kit.El("div", "class", "scroll"), tbl)) // a wide table scrolls inside the page at 375 px (issue 45 item 4)
	if dashes {
		wrap.AppendChild(kit.Text("p", "A dash: this table has too few rows for this budget to place that column's quartiles — "+
			"the release places its range only (what it holds there is the factor-4 band of magnitudes where most values lie, "+
			"not a quartile).", "class", "help", "id", id+"-no-quartiles"))
	}
	return wrap
}
