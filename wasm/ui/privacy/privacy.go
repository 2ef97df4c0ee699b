//go:build js && wasm

// Package privacy is the page's "privacy" view (<dp-privacy-curve>).
package privacy

import (
	"fmt"
	"math"

	"github.com/dpsample/dpsample/core/checks"
	"github.com/dpsample/dpsample/core/plot"
	"github.com/dpsample/dpsample/core/privacy"
	"github.com/dpsample/dpsample/wasm/ui/internal/kit"
)

// Build is the "Privacy curve" section: ε and δ in, the calibrated
// GDP level s* out, and the curve δ_{s*}(ε) plotted against ε on a log δ axis.
// The section's data-epsilon and data-delta attributes (<dp-privacy-curve
// epsilon delta>) set the initial values, and data-prefix its ids.
func Build(root kit.Elem) {
	id := kit.IdPrefix(root, "privacy")
	kit.AppendAll(root,
		kit.Text("h2", "Privacy curve", "id", id+"-h"),
		kit.Text("p", "A private method keeps not one promise but a whole curve of them: (ε, δ) means that changing one person's "+
			"record changes the chance of any outcome by at most a factor e^ε, except with probability δ — and the same method "+
			"also keeps a smaller ε with a larger δ, and the other way round. dpsample's methods are described by one number s "+
			"(Gaussian differential privacy: the smaller s, the more private). Choose the (ε, δ) you want: dpsample finds the "+
			"largest s that keeps it, and the curve shows every other promise that s keeps.", "class", "lede"),
	)
	form := kit.El("form", "class", "controls", "novalidate", "")
	epsF := kit.NewNumberField(id+"-epsilon", "ε (epsilon)", kit.Attr(root, "epsilon", "1"), "any", "privacy loss; smaller is more private")
	delF := kit.NewNumberField(id+"-delta", "δ (delta)", kit.Attr(root, "delta", "1e-5"), "any", "failure probability, in (0, 1)")
	kit.AppendAll(form, epsF.Wrap, delF.Wrap)
	out := kit.El("div", "class", "result", "aria-live", "polite")
	sOut := kit.Text("output", "", "id", id+"-s", "for", id+"-epsilon "+id+"-delta")
	kit.AppendAll(out, kit.Text("span", "s* = "), sOut)
	detail := kit.Text("p", "", "id", id+"-detail", "class", "detail")
	fig := kit.El("figure", "id", id+"-plot", "class", "plot")
	// The formula, its source and the correction to the paper, in a disclosure.
	paperLine := kit.Text("li", "", "id", id+"-paper")
	notes := kit.AppendAll(kit.El("details", "id", id+"-notes", "class", "paper-notes"),
		kit.Text("summary", "Notes: the formula and the paper's constants"),
		kit.AppendAll(kit.El("ul", "class", "detail"),
			kit.Text("li", "An s-GDP mechanism is (ε, δ)-DP for every ε with δ = Φ(−ε/s + s/2) − e^ε·Φ(−ε/s − s/2): the paper's "+
				"Lemma E.1, which prints this curve with a typo, corrected here."),
			paperLine))
	kit.AppendAll(root, form, out, detail, fig, notes)

	update := func() {
		eps, err := epsF.Value("epsilon")
		if err == nil {
			err = checks.Epsilon("epsilon", eps)
		}
		epsF.SetError(err)
		delta, err2 := delF.Value("delta")
		if err2 == nil {
			err2 = checks.Delta("delta", delta)
		}
		delF.SetError(err2)
		// Nothing drawn for former values stays beside an invalid one: σ and
		// the curve go with the input that caused them.
		blank := func() {
			sOut.SetTextContent("—")
			detail.SetTextContent("σ and the curve appear when ε and δ are valid.")
			paperLine.SetTextContent("")
			fig.SetInnerHTML("")
		}
		if err != nil || err2 != nil {
			blank()
			return
		}
		s, err := privacy.Calibrate(eps, delta)
		if err != nil {
			epsF.SetError(err)
			blank()
			return
		}
		sOut.SetTextContent(fmt.Sprintf("%.6g", s))
		paper := privacy.PaperGDP(eps)
		paperDelta, _ := privacy.Delta(paper, eps)
		detail.SetTextContent(fmt.Sprintf("For example, adding Gaussian noise to a count (which one person changes by at most 1) "+
			"keeps this promise when the noise has standard deviation σ = 1/s* = %.4g.", 1/s))
		paperLine.SetTextContent(fmt.Sprintf("The paper's printed constants (μ = 8ηG²/(n²ε²)) would give s = ε/√2 = %.4g, which is only "+
			"(ε, %.3g)-DP; dpsample calibrates s exactly instead (the dashed curve).", paper, paperDelta))
		// Drawn at the figure's width (and again on resize), so its tick
		// labels stay ≥ 10 px on a 375 px phone.
		fig.SetInnerHTML(kit.FitWidth(fig, privacyPlot(s, eps, delta, paper)).SVG())
	}
	for _, f := range []kit.NumberField{epsF, delF} {
		kit.On(f.Input, "input", false, func(kit.Event) { update() })
	}
	kit.On(form, "submit", false, func(e kit.Event) { e.PreventDefault(); update() })
	kit.OnResize(update)
	update()
}

// privacyPlot draws δ_s(ε) against ε for the calibrated s and for the paper's s.
func privacyPlot(s, eps, delta, paper float64) *plot.Plot {
	hi := math.Max(3*eps, 1)
	var xs, ys, ps []float64
	for i := 0; i <= 200; i++ {
		e := hi * float64(i) / 200
		d, _ := privacy.Delta(s, e)
		pd, _ := privacy.Delta(paper, e)
		xs, ys, ps = append(xs, e), append(ys, d), append(ps, pd)
	}
	ymin := math.Max(ys[len(ys)-1], 1e-300)
	return &plot.Plot{
		Title: fmt.Sprintf("Privacy curve of %.4g-GDP", s), XLabel: "ε", YLabel: "δ(ε) (log scale)", YLog: true,
		YMin: math.Max(ymin, delta/1e6), YMax: 1,
		Desc: "The (ε, δ) pairs guaranteed by the calibrated mechanism; the target (ε, δ) lies on the curve.",
		Series: []plot.Series{
			{Name: fmt.Sprintf("calibrated s* = %.3g", s), X: xs, Y: ys},
			{Name: fmt.Sprintf("paper's constants, s = ε/√2 = %.3g", paper), X: xs, Y: ps, Dashed: true},
		},
		Rules: []plot.Rule{
			{Label: fmt.Sprintf("target δ = %.3g", delta), At: delta, Horizontal: true, Color: "#D55E00"},
			{Label: fmt.Sprintf("target ε = %g", eps), At: eps, Color: "#D55E00"},
		},
	}
}
