//go:build js && wasm

// Package bounds is the page's "bounds" view (<dp-bounds>).
package bounds

import (
	"fmt"
	"math"

	"github.com/dpsample/dpsample/core/lowerbound"
	"github.com/dpsample/dpsample/core/plot"
	"github.com/dpsample/dpsample/wasm/ui/internal/kit"
)

// Build is the "Bounds" section: Table 1 and Theorem 2.2 at the
// user's n, d, k, ε, δ, G, C (lowerbound.Table, cheap: main thread), and the
// bounds plotted against d.
func Build(root kit.Elem) {
	id := kit.IdPrefix(root, "bounds")
	kit.AppendAll(root,
		kit.Text("h2", "Bounds: how accurate can a private method be?"),
		kit.Text("p", "A lower bound says no private method can do better; an upper bound says one method does at least this well. "+
			"Each holds in its own setting: whether θ is confined to a ball of radius C (constrained) or not, whether the data use "+
			"only k of the d directions (rank k) or all of them (full rank, k = d), and whether δ may be above 0. "+
			"Bounds that grow with d are about constrained problems or full-rank data; the sampling mechanism's upper bound "+
			"(Theorem 2.2 of the paper) is about unconstrained problems of rank k and does not grow with d. "+
			"Values are at your sizes with every hidden constant set to 1.", "class", "lede"))
	fields := []kit.NumberField{
		kit.NewNumberField(id+"-n", "n (rows)", kit.Attr(root, "n", "1000"), "1", "records"),
		kit.NewNumberField(id+"-d", "d (dimension)", kit.Attr(root, "d", "100"), "1", "features"),
		kit.NewNumberField(id+"-rank", "k (rank)", kit.Attr(root, "rank", "5"), "1", "1 ≤ k ≤ d"),
		kit.NewNumberField(id+"-epsilon", "ε (epsilon)", kit.Attr(root, "epsilon", "1"), "any", "privacy loss"),
		kit.NewNumberField(id+"-delta", "δ (delta)", kit.Attr(root, "delta", "1e-5"), "any", "in (0, 1)"),
		kit.NewNumberField(id+"-G", "G (Lipschitz)", kit.Attr(root, "g", "1"), "any", "of the loss"),
		kit.NewNumberField(id+"-C", "C (radius)", kit.Attr(root, "radius", "1"), "any", "bound on ‖θ*‖"),
	}
	form := kit.El("form", "class", "controls", "novalidate", "")
	for _, f := range fields {
		form.AppendChild(f.Wrap)
	}
	errBox := kit.El("div", "id", id+"-err", "class", "error", "role", "alert")
	fig := kit.El("figure", "id", id+"-plot", "class", "plot")
	tableWrap := kit.El("div", "class", "tablewrap", "id", id+"-table")
	kit.AppendAll(root, form, errBox, fig, tableWrap)
	clear := func() { // no stale table or plot beside an error
		fig.SetInnerHTML("")
		tableWrap.SetInnerHTML("")
	}
	update := func() {
		errBox.SetTextContent("")
		// n, d and k are integers by the JS API's rule (1.5 is an error, not
		// 1); the rest are numbers, checked by lowerbound.Table's rules.
		var ints [3]int
		for i, f := range fields[:3] {
			x, err := f.IntIn([]string{"n", "d", "rank"}[i], 1, math.MaxInt32)
			f.SetError(err)
			if err != nil {
				clear()
				return
			}
			ints[i] = x
		}
		var vals [4]float64
		for i, f := range fields[3:] {
			x, err := f.Value([]string{"epsilon", "delta", "G", "C"}[i])
			f.SetError(err)
			if err != nil {
				clear()
				return
			}
			vals[i] = x
		}
		in := lowerbound.BoundsInput{N: ints[0], D: ints[1], Rank: ints[2], Epsilon: vals[0], Delta: vals[1], G: vals[2], C: vals[3]}
		rows, err := lowerbound.Table(in)
		if err != nil {
			errBox.SetTextContent(err.Error())
			clear()
			return
		}
		tbl := kit.El("table", "class", "bounds")
		cols := []string{"source", "kind", "privacy", "setting", "rank", "loss", "rate", "value", "applies here?"}
		head := kit.El("tr")
		for _, h := range cols {
			head.AppendChild(kit.Text("th", h, "scope", "col"))
		}
		tbl.AppendChild(head)
		// Each value's conditions are numbered notes below the table, linked
		// from the value: visible and reachable by keyboard (Tab, Enter), not a
		// hover-only title. Rows with the same note share its number.
		notes := kit.El("ol", "class", "notes", "id", id+"-notes", "aria-label", "Conditions of the values")
		noteNum := map[string]int{}
		for _, r := range rows {
			tr := kit.El("tr")
			cls := ""
			if r.Kind == "upper" {
				cls = "upper"
			}
			if !r.Applies {
				cls += " na"
			}
			if cls != "" {
				tr.SetAttribute("class", cls)
			}
			val := kit.Text("td", kit.G3(r.Value))
			if r.Note != "" {
				k, seen := noteNum[r.Note]
				if !seen {
					k = len(noteNum) + 1
					noteNum[r.Note] = k
					notes.AppendChild(kit.Text("li", r.Note, "id", fmt.Sprintf("%s-note-%d", id, k)))
				}
				ref := kit.Text("a", fmt.Sprintf("[%d]", k), "href", fmt.Sprintf("#%s-note-%d", id, k),
					"class", "noteref", "aria-label", fmt.Sprintf("condition %d: %s", k, r.Note))
				kit.AppendAll(val, kit.TextNode(" "), ref)
			}
			cells := []kit.Elem{kit.Text("td", r.Source), kit.Text("td", r.Kind), kit.Text("td", r.Privacy),
				kit.Text("td", r.Constrained+", "+r.Geometry), kit.Text("td", rankWords[r.Rank]), kit.Text("td", r.Loss), kit.Text("td", r.Formula), val,
				kit.Text("td", r.Why)}
			for i, c := range cells {
				c.SetAttribute("data-label", cols[i]) // the column's name on phones, where rows become cards
				tr.AppendChild(c)
			}
			tbl.AppendChild(tr)
		}
		tableWrap.SetInnerHTML("")
		help := "Values are G·C × the rate with constants 1 and ln for log. A row that does not apply at your inputs is greyed; " +
			"an upper bound is compared only with lower bounds of its own setting."
		if len(noteNum) > 0 {
			help += " A value marked [k] holds under condition k, listed below the table."
		}
		kit.AppendAll(tableWrap, tbl, kit.Text("p", help, "class", "help"))
		if len(noteNum) > 0 {
			tableWrap.AppendChild(notes)
		}
		fig.SetInnerHTML(kit.FitWidth(fig, boundsPlot(in)).SVG())
	}
	for _, f := range fields {
		kit.On(f.Input, "input", false, func(kit.Event) { update() })
	}
	kit.On(form, "submit", false, func(e kit.Event) { e.PreventDefault(); update() })
	kit.OnResize(update)
	update()
}

// boundsPlot draws selected rows of the table against d (log–log), from k to
// 100·max(d, k), with the user's d marked.
func boundsPlot(in lowerbound.BoundsInput) *plot.Plot {
	// Each line's name states its setting. The full-rank bounds are drawn at
	// k = d (the x value), and so is Theorem 2.2 at full rank, the upper bound
	// of their setting; Theorem 2.2 at the rank k is compared with Song et al.
	pick := []struct {
		source, formula, name string
		dashed, fullRank      bool
	}{
		{"Bassily et al. (2014)", "√d/(nε)", "lower √d/(nε): constrained, any rank, (ε, δ)", false, false},
		{"Lee–Liu–Lu (Theorem 3.7)", "", "lower, Thm 3.7: full rank (drawn at k = d), (ε, δ)", false, true},
		{"Song et al. (2021)", "", fmt.Sprintf("lower √k/(nε): unconstrained, rank k = %d, (ε, δ)", in.Rank), true, false},
		{"Lee–Liu–Lu (Theorem 2.2)", "", fmt.Sprintf("upper, Thm 2.2: unconstrained, rank k = %d, (ε, δ)", in.Rank), true, false},
		{"Lee–Liu–Lu (Theorem 2.2)", "", "upper, Thm 2.2 at full rank (k = d): unconstrained, (ε, δ)", true, true},
	}
	series := make([]plot.Series, len(pick))
	for i, p := range pick {
		series[i] = plot.Series{Name: p.name, Dashed: p.dashed, Color: plot.Palette[i]}
	}
	// Black dashes: visible over Theorem 3.7's line, which it meets with constants 1.
	series[4].Color = "#000000"
	hi := 100 * float64(max(in.D, in.Rank))
	for e := math.Log10(float64(in.Rank)); e <= math.Log10(hi)+1e-9; e += 0.05 {
		d := int(math.Round(math.Pow(10, e)))
		q := in
		q.D = max(d, in.Rank)
		rows, err := lowerbound.Table(q)
		if err != nil {
			continue
		}
		full := q
		full.Rank = q.D
		fullRows, err := lowerbound.Table(full)
		if err != nil {
			continue
		}
		for i, p := range pick {
			rows := rows
			if p.fullRank {
				rows = fullRows
			}
			for _, r := range rows {
				if r.Source == p.source && (p.formula == "" || r.Formula == p.formula) {
					series[i].X = append(series[i].X, float64(q.D))
					series[i].Y = append(series[i].Y, r.Value)
					break
				}
			}
		}
	}
	ylo, yhi := math.Inf(1), math.Inf(-1)
	for _, s := range series {
		for _, y := range s.Y {
			if y > 0 {
				ylo, yhi = math.Min(ylo, y), math.Max(yhi, y)
			}
		}
	}
	return &plot.Plot{Title: "Excess-risk bounds vs dimension", YMin: ylo / 2, YMax: yhi * 1.5,
		XLabel: "dimension d (log scale)", YLabel: "excess risk bound, G·C units (log)", XLog: true, YLog: true,
		Series: series, Rules: []plot.Rule{{Label: fmt.Sprintf("d = %d", in.D), At: float64(in.D), Color: "#555"}},
		Desc: fmt.Sprintf("At n = %d, k = %d, ε = %g, δ = %g: lower bounds that grow with d (constrained, or full rank k = d) against Theorem 2.2's upper bound at rank k, flat in d, and at full rank.", in.N, in.Rank, in.Epsilon, in.Delta)}
}

// rankWords spells a row's rank condition for the table.
var rankWords = map[string]string{"k": "rank k", "full": "full rank (k = d)", "any": "any rank"}
