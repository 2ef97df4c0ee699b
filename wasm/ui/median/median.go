//go:build js && wasm

// Package median is the page's "median" view (<dp-median>): a private median.
package median

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/dpsample/dpsample/core/checks"
	"github.com/dpsample/dpsample/core/mechanism"
	"github.com/dpsample/dpsample/core/plot"
	"github.com/dpsample/dpsample/core/rng"
	"github.com/dpsample/dpsample/wasm/ui/internal/kit"
	"honnef.co/go/js/dom/v2"
)

// paperURL is the paper the lesson's notes cite.
const paperURL = "https://arxiv.org/abs/2105.13637"

// maxMedianNumbers is how many numbers <dp-median> takes (a handful: one
// slider each).
const maxMedianNumbers = 12

// medianView is the "private median" section (<dp-median>): Algorithm 1 in
// one dimension for a handful of numbers. The curves come from
// mechanism.Median (cheap: main thread); the draws from its exact sampler.
type medianView struct {
	id                  string
	numbers             kit.NumberField
	drag                kit.Elem
	numSliders          []slider // one per number, in v.drag
	eps, n, to          slider
	moved               kit.SelectField
	bound, delta        float64
	nums                []float64
	err, summary, count kit.Elem
	fig, ratioFig       kit.Elem
	curves              mechanism.MedianCurves
	ok                  bool
	draws               []float64
}

// slider is a labelled <input type="range"> with its value shown beside it.
type slider struct {
	input *dom.HTMLInputElement
	out   kit.Elem
	wrap  kit.Elem
}

func newSlider(id, label, lo, hi, step, value, help string) slider {
	wrap := kit.El("div", "class", "field slider")
	in := kit.AsInput(kit.El("input", "id", id, "type", "range", "min", lo, "max", hi, "step", step, "value", value,
		"aria-describedby", id+"-help"))
	out := kit.Text("output", value, "id", id+"-out", "for", id)
	lab := kit.Text("label", label+" ", "for", id)
	kit.AppendAll(lab, out)
	kit.AppendAll(wrap, lab, in, kit.Text("small", help, "id", id+"-help", "class", "help"))
	return slider{input: in, out: out, wrap: wrap}
}

func (s slider) value() float64 {
	v, _ := strconv.ParseFloat(s.input.Value(), 64)
	return v
}

func (s slider) set(v float64) {
	s.input.SetValue(strconv.FormatFloat(v, 'g', -1, 64))
	s.out.SetTextContent(s.input.Value())
}

// Build fills root, a <section data-view="median">, with the view (ui.go's
// table of views).
func Build(root kit.Elem) {
	v := &medianView{id: kit.IdPrefix(root, "median")}
	id := v.id
	// The attributes were checked by site/elements.js; index.html's defaults otherwise.
	v.bound, _ = strconv.ParseFloat(kit.Attr(root, "range", "10"), 64)
	v.delta, _ = strconv.ParseFloat(kit.Attr(root, "delta", "1e-5"), 64)
	bs := kit.G3(v.bound)
	kit.AppendAll(root,
		kit.Text("h2", "A private median", "id", id+"-h"),
		kit.Text("p", "Type a few numbers, or drag their sliders. A private answer is not their median: it is a number θ drawn at random, "+
			"most likely near the median and less likely the further away it is. The blue curve shows how likely each θ is. "+
			"Press Draw to take private draws: their histogram follows the curve.", "class", "lede"),
		kit.Text("p", "Now change one number (“move one row”). The dashed curve is the same picture for the table with that one row changed. "+
			"Differential privacy means the two curves are never far apart: one is at most e^ε times the other, except on a region so "+
			"unlikely (probability at most δ) that it can be ignored. So a draw hardly tells which of the two tables it came from — "+
			"nor whether that row was yours. A smaller ε makes the curves closer and wider; more rows (n) make them narrower.", "class", "lede"))
	v.numbers = kit.NewNumberField(id+"-numbers", "your numbers", kit.Attr(root, "numbers", "1, 2, 3, 3.5, 5, 7, 8"), "any",
		fmt.Sprintf("2 to %d numbers between −%s and %s, separated by commas", maxMedianNumbers, bs, bs))
	v.drag = kit.El("div", "id", id+"-drag", "class", "controls drag", "role", "group", "aria-label", "drag a number")
	v.eps = newSlider(id+"-epsilon", "ε =", "0.1", "5", "0.1", kit.Attr(root, "epsilon", "1"), "privacy loss: smaller is more private")
	v.n = newSlider(id+"-n", "n =", "2", "500", "1", kit.Attr(root, "n", "7"), "rows: your numbers, repeated until there are n")
	v.moved = kit.NewSelectField(id+"-moved", "move one row", "the row that differs in the neighbouring table", nil, "")
	v.to = newSlider(id+"-to", "to", "-"+bs, bs, "0.1", "-"+bs, "its value in the neighbouring table")
	v.numbers.Wrap.SetAttribute("class", "field wide")
	form := kit.El("form", "class", "controls", "novalidate", "")
	kit.AppendAll(form, v.numbers.Wrap, v.eps.wrap, v.n.wrap, v.moved.Wrap, v.to.wrap)
	v.err = kit.El("div", "id", id+"-err", "class", "error", "role", "alert")
	drawBtn := kit.Text("button", "Draw 200", "id", id+"-draw", "type", "button")
	clearBtn := kit.Text("button", "Clear", "id", id+"-clear", "type", "button", "class", "secondary")
	v.count = kit.Text("span", "", "id", id+"-count", "class", "detail", "aria-live", "polite")
	bar := kit.AppendAll(kit.El("div", "class", "runbar"), drawBtn, clearBtn, v.count)
	v.fig = kit.El("figure", "id", id+"-plot", "class", "plot")
	v.ratioFig = kit.El("figure", "id", id+"-ratio", "class", "plot")
	v.summary = kit.El("p", "id", id+"-summary", "class", "statement", "aria-live", "polite")
	kit.AppendAll(root, form, v.drag, v.err, bar, v.fig, v.summary, v.ratioFig, v.notes(root))

	kit.On(v.numbers.Input, "input", false, func(kit.Event) { v.numbersChanged(true) })
	for _, s := range []slider{v.eps, v.n, v.to} {
		kit.On(s.input, "input", false, func(kit.Event) { s.out.SetTextContent(s.input.Value()); v.update() })
	}
	kit.On(v.moved.Sel, "change", false, func(kit.Event) { v.update() })
	kit.On(form, "submit", false, func(e kit.Event) { e.PreventDefault(); v.update() })
	kit.On(drawBtn, "click", false, func(kit.Event) {
		if v.ok {
			r, _ := rng.New(nil) // crypto-keyed: these are private draws
			v.draws = append(v.draws, v.curves.Draw(r, 200)...)
			v.draw()
		}
	})
	kit.On(clearBtn, "click", false, func(kit.Event) { v.draws = nil; v.draw() })
	kit.OnResize(v.draw)
	// Without an n attribute, n starts at the count of the numbers.
	v.numbersChanged(kit.Attr(root, "n", "") == "")
}

// notes are the sources and the fine print, in a disclosure.
func (v *medianView) notes(root kit.Elem) kit.Elem {
	det := kit.El("details", "id", v.id+"-notes", "class", "paper-notes")
	paper := kit.Text("a", "Lee, Liu and Lu, “The Power of Sampling” (arXiv 2105.13637)", "href", paperURL, "target", "_blank", "rel", "noopener")
	first := kit.El("li")
	kit.AppendAll(first, kit.TextNode("The curve is Algorithm 1 of "), paper,
		kit.TextNode(fmt.Sprintf(", the regularized exponential mechanism θ ∝ exp(−η(Σ|x_i − θ|/n + μθ²/2)), with the loss |x − θ| "+
			"(1-Lipschitz, G = 1) in one dimension (rank k = 1) and radius C = %s, the public range of the numbers.", kit.G3(v.bound))))
	priv := kit.El("li")
	kit.AppendAll(priv, kit.TextNode("η and μ are calibrated exactly as a dpsample release does: the draw is s-Gaussian-DP with "+
		"s = 2G√η/(n√μ) (the paper's Lemma E.1), s is the largest value whose curve δ_s(ε) is at most δ, and the paper's printed "+
		"μ = 8ηG²/(n²ε²), which does not deliver (ε, δ), is not used ("), kit.DocLink(root, "PRIVACY.md", "the privacy notes"),
		kit.TextNode(fmt.Sprintf("). δ = %s here.", checks.Fmt(v.delta))))
	kit.AppendAll(det, kit.Text("summary", "Notes: the mechanism, the sampler, what is not private"),
		kit.AppendAll(kit.El("ul"), first, priv,
			kit.Text("li", "The draws come from the exact one-dimensional sampler dpsample uses for this loss: the density is a mixture of n + 1 "+
				"truncated Gaussians, one between each pair of neighbouring numbers."),
			kit.Text("li", "The second plot is ln(π(θ)/π′(θ)), the privacy loss of the output θ for this pair of tables. With numbers confined "+
				"to a public range it stays within a fixed band; the (ε, δ) guarantee allows it to exceed ε on a set of probability at "+
				"most δ, and the summary gives the exact excess ∫max(0, π − e^ε·π′) for this pair."),
			kit.Text("li", "Not private: the curves, their ratio and the histogram are computed from your numbers, on your device, to teach. "+
				"A release is one draw; 200 draws together are √200 times less private than one (their GDP levels add in squares)."),
			kit.Text("li", fmt.Sprintf("A number outside [−%s, %s] is brought to the nearest end of the range before use, as dpsample does with "+
				"every row (whether a run fails must not depend on one row).", kit.G3(v.bound), kit.G3(v.bound)))))
	return det
}

// parseNumbers reads the numbers field: 2 … maxMedianNumbers numbers
// separated by commas, semicolons or spaces.
func parseNumbers(s string) ([]float64, error) {
	f := strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ';' || r == ' ' || r == '\t' || r == '\n' })
	if len(f) < 2 || len(f) > maxMedianNumbers {
		return nil, &checks.Error{Field: "numbers", Rule: fmt.Sprintf("2 to %d numbers separated by commas", maxMedianNumbers), Got: strconv.Itoa(len(f))}
	}
	out := make([]float64, len(f))
	for i, t := range f {
		x, err := kit.ParseNumber(fmt.Sprintf("number %d", i+1), t)
		if err != nil {
			return nil, err
		}
		out[i] = x
	}
	return out, nil
}

// numbersChanged reads the typed numbers and rebuilds the sliders and the
// row list when their count changed; typed sets n to the count.
func (v *medianView) numbersChanged(typed bool) {
	nums, err := parseNumbers(v.numbers.Input.Value())
	v.numbers.SetError(err)
	if err != nil {
		v.ok = false
		v.curves = mechanism.MedianCurves{}
		v.draws = nil
		v.draw()
		return
	}
	if len(nums) != len(v.nums) {
		v.drag.SetInnerHTML("")
		v.numSliders = v.numSliders[:0]
		bs := kit.G3(v.bound)
		for i := range nums {
			s := newSlider(fmt.Sprintf("%s-x%d", v.id, i+1), fmt.Sprintf("number %d:", i+1), "-"+bs, bs, "0.1", "0", "")
			i := i
			kit.On(s.input, "input", false, func(kit.Event) {
				v.nums[i] = s.value()
				s.out.SetTextContent(s.input.Value())
				parts := make([]string, len(v.nums))
				for j, x := range v.nums {
					parts[j] = strconv.FormatFloat(x, 'g', -1, 64)
				}
				v.numbers.Input.SetValue(strings.Join(parts, ", "))
				v.syncRows()
				v.update()
			})
			v.drag.AppendChild(s.wrap)
			v.numSliders = append(v.numSliders, s)
		}
		if typed {
			v.n.set(float64(len(nums)))
		}
	}
	v.nums = nums
	for i, x := range nums {
		v.numSliders[i].input.SetValue(strconv.FormatFloat(math.Max(-v.bound, math.Min(v.bound, x)), 'g', -1, 64))
		v.numSliders[i].out.SetTextContent(strconv.FormatFloat(x, 'g', -1, 64))
	}
	v.syncRows()
	v.update()
}

// syncRows lists the numbers as the rows that can move, keeping the choice.
func (v *medianView) syncRows() {
	cur := v.moved.Sel.Value()
	if cur == "" {
		cur = strconv.Itoa(len(v.nums) - 1) // the last number, by default
	}
	opts := make([][2]string, len(v.nums))
	for i, x := range v.nums {
		opts[i] = [2]string{strconv.Itoa(i), fmt.Sprintf("number %d (now %s)", i+1, strconv.FormatFloat(x, 'g', -1, 64))}
	}
	if k, err := strconv.Atoi(cur); err != nil || k >= len(v.nums) {
		cur = "0"
	}
	kit.SetOptions(v.moved.Sel, opts, cur)
}

// table is the numbers repeated to n rows.
func (v *medianView) table(n int) []float64 {
	out := make([]float64, n)
	for i := range out {
		out[i] = v.nums[i%len(v.nums)]
	}
	return out
}

// update recomputes the curves (mechanism.Median) and drops former draws,
// which came from another law.
func (v *medianView) update() {
	v.draws = nil
	v.ok = false
	v.err.SetTextContent("")
	if len(v.nums) < 2 || v.numbers.Input.GetAttribute("aria-invalid") == "true" {
		v.draw()
		return
	}
	n := int(v.n.value())
	moved, _ := strconv.Atoi(v.moved.Sel.Value())
	if moved >= n {
		moved = 0
	}
	c, err := mechanism.Median(mechanism.MedianInput{Points: v.table(n), Bound: v.bound, Epsilon: v.eps.value(), Delta: v.delta,
		Moved: moved, MovedTo: v.to.value(), Cells: 400})
	if err != nil {
		v.err.SetTextContent(err.Error())
	} else {
		v.curves, v.ok = c, true
	}
	v.draw()
}

// draw renders both plots and the summary from v.curves and v.draws.
func (v *medianView) draw() {
	if !v.ok {
		v.fig.SetInnerHTML("")
		v.ratioFig.SetInnerHTML("")
		v.summary.SetTextContent("")
		v.count.SetTextContent("")
		return
	}
	c := &v.curves
	eps := v.eps.value()
	n := int(v.n.value())
	moved, _ := strconv.Atoi(v.moved.Sel.Value())
	if moved >= n {
		moved = 0
	}
	lo, hi := c.Theta[0], c.Theta[len(c.Theta)-1]
	series := []plot.Series{
		{Name: "your table: how likely each θ is", X: c.Theta, Y: c.Density, Color: plot.Palette[0]},
		{Name: fmt.Sprintf("number %d moved to %s", moved%len(v.nums)+1, v.to.input.Value()), X: c.Theta, Y: c.Neighbour,
			Color: plot.Palette[1], Dashed: true},
	}
	if len(v.draws) > 0 {
		const bins = 40
		w := (hi - lo) / bins
		xs, ys := make([]float64, bins), make([]float64, bins)
		for i := range xs {
			xs[i] = lo + (float64(i)+0.5)*w
		}
		for _, d := range v.draws {
			if k := int((d - lo) / w); d >= lo && k >= 0 && k < bins {
				ys[k] += 1 / (float64(len(v.draws)) * w) // a density: the bars' area is the share of draws
			}
		}
		series = append([]plot.Series{{Name: fmt.Sprintf("%d private draws (histogram)", len(v.draws)), X: xs, Y: ys,
			Kind: plot.Bars, Color: plot.Palette[5]}}, series...)
		v.count.SetTextContent(fmt.Sprintf("%d draws so far; the last: θ = %.3g", len(v.draws), v.draws[len(v.draws)-1]))
	} else {
		v.count.SetTextContent("no draws yet")
	}
	var px, py []float64
	for _, x := range v.nums {
		if x >= lo && x <= hi {
			px, py = append(px, math.Max(-v.bound, math.Min(v.bound, x))), append(py, 0)
		}
	}
	series = append(series, plot.Series{Name: "your numbers", X: px, Y: py, Kind: plot.Points, Color: "#000000", Radius: 4})
	p := &plot.Plot{Title: "Where a private median lands", XLabel: "θ", YLabel: "probability density",
		XMin: lo, XMax: hi, Series: series,
		Desc: fmt.Sprintf("The density of the private median for your %d rows and for the neighbouring table, over θ from %.3g to %.3g.", n, lo, hi)}
	v.fig.SetInnerHTML(kit.FitWidth(v.fig, p).SVG())

	top := math.Max(1.25*eps, 1.1*c.MaxLogRatio)
	rp := &plot.Plot{Title: "The ratio of the two curves (log scale)", XLabel: "θ", YLabel: "ln(blue / dashed)",
		XMin: lo, XMax: hi, YMin: -top, YMax: top,
		Series: []plot.Series{{Name: "ln of the ratio", X: c.Theta, Y: c.LogRatio, Color: plot.Palette[2]}},
		Rules: []plot.Rule{{Label: fmt.Sprintf("+ε = %g", eps), At: eps, Horizontal: true, Color: "#D55E00"},
			{Label: fmt.Sprintf("−ε = −%g", eps), At: -eps, Horizontal: true, Color: "#D55E00"}},
		Desc: fmt.Sprintf("ln of the ratio of the two curves, between ±%.3g; ε = %g.", c.MaxLogRatio, eps)}
	v.ratioFig.SetInnerHTML(kit.FitWidth(v.ratioFig, rp).SVG())

	s := fmt.Sprintf("With n = %d rows and ε = %g, one curve is never more than e^%.3g = %.3g times the other", n, eps, c.MaxLogRatio, math.Exp(c.MaxLogRatio))
	if c.MaxLogRatio <= eps {
		s += fmt.Sprintf(" — within e^ε = %.3g everywhere, so for this pair δ is not even needed.", math.Exp(eps))
	} else {
		s += fmt.Sprintf(". Where it exceeds e^ε = %.3g, the excess probability is %.3g, below δ = %s: the promise holds.",
			math.Exp(eps), c.DeltaPair, checks.Fmt(v.delta))
	}
	if c.Clamped > 0 {
		s += fmt.Sprintf(" (%s outside ±%s brought to the range's end.)", kit.Count(c.Clamped, "row"), kit.G3(v.bound))
	}
	v.summary.SetTextContent(s)
}
