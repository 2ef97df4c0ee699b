package plot

import (
	"encoding/xml"
	"fmt"
	"math"
	"strconv"
	"strings"
	"testing"
)

func TestTicksLinear(t *testing.T) {
	for _, c := range []struct {
		lo, hi float64
		want   []float64
	}{
		{0, 1, []float64{0, 0.2, 0.4, 0.6, 0.8, 1}},
		{-3, 7, []float64{-2, 0, 2, 4, 6}},
	} {
		got := Ticks(c.lo, c.hi, 5, false)
		if len(got) != len(c.want) {
			t.Fatalf("Ticks(%g,%g) = %v, want %v", c.lo, c.hi, got, c.want)
		}
		for i := range got {
			if math.Abs(got[i]-c.want[i]) > 1e-12 {
				t.Errorf("Ticks(%g,%g)[%d] = %g, want %g", c.lo, c.hi, i, got[i], c.want[i])
			}
		}
	}
}

func TestTicksLog(t *testing.T) {
	got := Ticks(1e-12, 1, 6, true)
	if len(got) < 4 || got[0] < 1e-12 || got[len(got)-1] > 1 {
		t.Fatalf("log ticks %v", got)
	}
	for _, v := range got {
		if e := math.Log10(v); math.Abs(e-math.Round(e)) > 1e-9 {
			t.Errorf("wide log range gave a non-decade tick %g", v)
		}
	}
	// Under three decades, 1-2-5 ticks within each decade.
	want := []float64{1, 2, 5, 10, 20, 50}
	if got := Ticks(1, 50, 5, true); len(got) != len(want) {
		t.Errorf("narrow log ticks %v, want %v", got, want)
	}
}

// TestSVGWellFormed renders a plot with every kind of series, rules, NaNs and
// log axes, and checks the markup parses as XML and carries title and labels.
func TestSVGWellFormed(t *testing.T) {
	p := &Plot{Title: "δ vs ε <test>", XLabel: "ε", YLabel: "δ (log)", YLog: true,
		Series: []Series{
			{Name: "curve", X: []float64{0, 1, 2, math.NaN(), 4}, Y: []float64{0.5, 0.1, 1e-3, 1e-5, 0}},
			{Name: "pts", X: []float64{1, 2}, Y: []float64{0.2, 0.02}, Kind: Points, Err: []float64{0.05, 0.01}},
			{Name: "bars", X: []float64{1, 2}, Y: []float64{0.3, 0.03}, Kind: Bars},
			{Name: "steps", X: []float64{0, 3}, Y: []float64{0.3, 0.03}, Kind: Steps, Dashed: true},
		},
		Rules: []Rule{{Label: "target δ", At: 1e-5, Horizontal: true}, {Label: "ε", At: 1}},
	}
	s := p.SVG()
	if err := xml.Unmarshal([]byte(s), new(struct{})); err != nil {
		t.Fatalf("SVG is not well-formed XML: %v\n%s", err, s)
	}
	for _, want := range []string{"δ vs ε &lt;test&gt;", ">ε<", "δ (log)", "target δ", "<polyline", "<circle", "<rect x="} {
		if !strings.Contains(s, want) {
			t.Errorf("SVG lacks %q", want)
		}
	}
	if strings.Contains(s, "NaN") || strings.Contains(s, "Inf") {
		t.Errorf("SVG contains a non-finite coordinate")
	}
}

func TestEmptyPlot(t *testing.T) {
	s := (&Plot{Title: "empty", XLog: true, YLog: true}).SVG()
	if err := xml.Unmarshal([]byte(s), new(struct{})); err != nil || strings.Contains(s, "NaN") {
		t.Fatalf("empty plot: %v %s", err, s)
	}
}

// svgGeometry parses the markup and returns the viewBox, the frame (the
// first unfilled rect), every drawn data mark (circles, polyline vertices,
// bars inside the clip group) and every legend entry's box (its swatch and
// its text, the text's width estimated generously at 8 px per character).
func svgGeometry(t *testing.T, s string) (view box, marks, legends []box) {
	t.Helper()
	dec := xml.NewDecoder(strings.NewReader(s))
	num := func(attrs []xml.Attr, name string) float64 {
		for _, a := range attrs {
			if a.Name.Local == name {
				v, err := strconv.ParseFloat(a.Value, 64)
				if err != nil {
					t.Fatalf("attribute %s=%q: %v", name, a.Value, err)
				}
				return v
			}
		}
		return math.NaN()
	}
	attr := func(attrs []xml.Attr, name string) string {
		for _, a := range attrs {
			if a.Name.Local == name {
				return a.Value
			}
		}
		return ""
	}
	var inClip, inLegend int
	var depth int
	var cur box
	for {
		tok, err := dec.Token()
		if err != nil {
			break
		}
		switch e := tok.(type) {
		case xml.StartElement:
			depth++
			switch e.Name.Local {
			case "svg":
				f := strings.Fields(attr(e.Attr, "viewBox"))
				w, _ := strconv.ParseFloat(f[2], 64)
				h, _ := strconv.ParseFloat(f[3], 64)
				view = box{0, 0, w, h}
			case "g":
				if attr(e.Attr, "clip-path") != "" {
					inClip = depth
				}
				if attr(e.Attr, "class") == "legend" {
					inLegend = depth
					cur = box{math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)}
				}
			}
			grow := func(b box) {
				cur = box{math.Min(cur.x0, b.x0), math.Min(cur.y0, b.y0), math.Max(cur.x1, b.x1), math.Max(cur.y1, b.y1)}
			}
			if inLegend > 0 {
				switch e.Name.Local {
				case "circle":
					cx, cy, r := num(e.Attr, "cx"), num(e.Attr, "cy"), num(e.Attr, "r")
					grow(box{cx - r, cy - r, cx + r, cy + r})
				case "line":
					grow(box{num(e.Attr, "x1"), num(e.Attr, "y1") - 2, num(e.Attr, "x2"), num(e.Attr, "y2") + 2})
				case "text":
					var txt string
					if err := dec.DecodeElement(&txt, &e); err != nil {
						t.Fatal(err)
					}
					depth--
					x, y := num(e.Attr, "x"), num(e.Attr, "y")
					// SVG drops a text's trailing spaces (xml:space default)
					grow(box{x, y - 13, x + 8*float64(len([]rune(strings.TrimRight(txt, " ")))), y + 3})
				}
				continue
			}
			if inClip > 0 {
				switch e.Name.Local {
				case "circle":
					cx, cy, r := num(e.Attr, "cx"), num(e.Attr, "cy"), num(e.Attr, "r")
					marks = append(marks, box{cx - r, cy - r, cx + r, cy + r})
				case "rect":
					x, y := num(e.Attr, "x"), num(e.Attr, "y")
					marks = append(marks, box{x, y, x + num(e.Attr, "width"), y + num(e.Attr, "height")})
				case "polyline":
					for _, pt := range strings.Fields(attr(e.Attr, "points")) {
						var x, y float64
						fmt.Sscanf(pt, "%g,%g", &x, &y)
						marks = append(marks, box{x - 1, y - 1, x + 1, y + 1})
					}
				}
			}
		case xml.EndElement:
			if depth == inLegend {
				inLegend = 0
				legends = append(legends, cur)
			}
			if depth == inClip {
				inClip = 0
			}
			depth--
		}
	}
	return view, marks, legends
}

// TestLegendCoversNoData fills every corner of the frame with points and
// lines (where an in-frame legend would have to go) at desktop and phone
// widths, and checks that no legend entry overlaps a data mark, that entries
// do not overlap each other, and that all lie inside the viewBox (a name
// wider than the phone's plot wraps). The old layout (legend at the top left
// of the frame) fails the first check; a name that does not wrap, the last.
func TestLegendCoversNoData(t *testing.T) {
	var xs, ys []float64
	for i := 0; i <= 20; i++ {
		for j := 0; j <= 20; j++ {
			xs, ys = append(xs, float64(i)/20), append(ys, float64(j)/20)
		}
	}
	for _, w := range []float64{640, 300} {
		p := &Plot{Title: "grid", XLabel: "x", YLabel: "y", Width: w, Height: w * 0.9,
			Series: []Series{
				{Name: "every point of a 21 × 21 grid", X: xs, Y: ys, Kind: Points},
				{Name: "diagonal (a rising line)", X: []float64{0, 1}, Y: []float64{0, 1}},
				{Name: "anti-diagonal, dashed", X: []float64{0, 1}, Y: []float64{1, 0}, Dashed: true},
				{Name: "bars", X: []float64{0.25, 0.75}, Y: []float64{0.9, 0.9}, Kind: Bars},
				// wider than a phone's plot: it wraps inside the viewBox (issue 29)
				{Name: "upper, Thm 2.2 at full rank (k = d): unconstrained, rank k = d, (ε, δ)", X: []float64{0, 1}, Y: []float64{0.5, 0.5}},
			}}
		view, marks, legends := svgGeometry(t, p.SVG())
		if len(legends) != 5 {
			t.Fatalf("width %g: %d legend entries, want 5", w, len(legends))
		}
		if len(marks) < 441 {
			t.Fatalf("width %g: parsed %d data marks, want ≥ 441", w, len(marks))
		}
		for i, l := range legends {
			if l.x0 < 0 || l.x1 > view.x1 || l.y0 < 0 || l.y1 > view.y1 {
				t.Errorf("width %g: legend entry %d %+v outside the viewBox %+v", w, i, l, view)
			}
			for _, m := range marks {
				if l.overlaps(m) {
					t.Errorf("width %g: legend entry %d %+v covers the data mark %+v", w, i, l, m)
					break
				}
			}
			for j := i + 1; j < len(legends); j++ {
				if l.overlaps(legends[j]) {
					t.Errorf("width %g: legend entries %d and %d overlap: %+v %+v", w, i, j, l, legends[j])
				}
			}
		}
	}
}

// TestRuleLabelsOverData: a rule's label is drawn after the series (so a bar
// cannot hide it) and carries a white halo.
func TestRuleLabelsOverData(t *testing.T) {
	p := &Plot{Series: []Series{{X: []float64{1, 2, 3}, Y: []float64{5, 6, 7}, Kind: Bars}},
		Rules: []Rule{{Label: "threshold", At: 4, Horizontal: true}}}
	s := p.SVG()
	lab, bar := strings.Index(s, ">threshold<"), strings.LastIndex(s, `fill-opacity="0.8"`)
	if lab < 0 || bar < 0 || lab < bar {
		t.Errorf("the rule label (at %d) is not drawn after the last bar (at %d)", lab, bar)
	}
	if !strings.Contains(s, `paint-order="stroke"`) {
		t.Error("the rule label has no halo")
	}
}

// TestNarrowTicks: a phone-width plot gets at most 5 x tick labels, each
// given at least 40 px.
func TestNarrowTicks(t *testing.T) {
	p := &Plot{Width: 300, Height: 270, Series: []Series{{X: []float64{0, 1000}, Y: []float64{0, 1}}}}
	s := p.SVG()
	var xs []float64
	for _, part := range strings.Split(s, `<text x="`)[1:] {
		if !strings.Contains(part[:80], `class="tick"`) || !strings.Contains(part[:80], `text-anchor="middle"`) {
			continue
		}
		x, _ := strconv.ParseFloat(part[:strings.IndexByte(part, '"')], 64)
		xs = append(xs, x)
	}
	if len(xs) < 2 || len(xs) > 5 {
		t.Fatalf("%d x tick labels at 300 px, want 2–5", len(xs))
	}
	for i := 1; i < len(xs); i++ {
		if xs[i]-xs[i-1] < 40 {
			t.Errorf("x ticks %g and %g are %g px apart", xs[i-1], xs[i], xs[i]-xs[i-1])
		}
	}
}

// TestStepsStaircase: a Steps series is drawn as a staircase, each step first
// along x at the previous point's height, then up or down to its own.
func TestStepsStaircase(t *testing.T) {
	p := &Plot{Title: "s", Series: []Series{{Name: "s", X: []float64{0, 1, 2, 3}, Y: []float64{1, 3, 2, 5}, Kind: Steps}}}
	svg := p.SVG()
	i := strings.Index(svg, `points="`)
	if i < 0 {
		t.Fatal("no polyline")
	}
	raw := strings.Fields(svg[i+len(`points="`) : i+len(`points="`)+strings.Index(svg[i+len(`points="`):], `"`)])
	if len(raw) != 7 {
		t.Fatalf("%d points, want 7 (4 data points and 3 steps): %v", len(raw), raw)
	}
	pt := make([][2]string, len(raw))
	for k, r := range raw {
		x, y, _ := strings.Cut(r, ",")
		pt[k] = [2]string{x, y}
	}
	for k := 1; k < len(pt); k += 2 {
		if pt[k][1] != pt[k-1][1] || pt[k][0] != pt[k+1][0] || pt[k][1] == pt[k+1][1] {
			t.Errorf("step %d: %v → %v → %v is not along x then along y", k/2, pt[k-1], pt[k], pt[k+1])
		}
	}
}

// svgText is a <text> element of a rendered plot: its attributes, its own
// text and its <tspan> lines.
type svgText struct {
	X      float64 `xml:"x,attr"`
	Y      float64 `xml:"y,attr"`
	Anchor string  `xml:"text-anchor,attr"`
	Class  string  `xml:"class,attr"`
	Size   float64 `xml:"font-size,attr"`
	Rotate string  `xml:"transform,attr"`
	Text   string  `xml:",chardata"`
	Spans  []struct {
		Dy   float64 `xml:"dy,attr"`
		Text string  `xml:",chardata"`
	} `xml:"tspan"`
}

// content is the text as a reader sees it: the lines joined.
func (t svgText) content() string {
	s := t.Text
	for _, sp := range t.Spans {
		s += sp.Text
	}
	return s
}

// bounds estimates the text's box from its anchor, lines and font size, at
// 0.6 em per character (a little wider than placement's own estimate).
func (t svgText) bounds() box {
	px := t.Size
	if px == 0 {
		px = 14
	}
	lines := []string{t.Text}
	if t.Text == "" {
		lines = nil
	}
	h := 0.0
	for _, sp := range t.Spans {
		lines = append(lines, sp.Text)
		h += sp.Dy
	}
	w := 0.0
	for _, l := range lines {
		w = math.Max(w, 0.6*px*float64(len([]rune(strings.TrimRight(l, " ")))))
	}
	x0 := t.X
	switch t.Anchor {
	case "end":
		x0 -= w
	case "middle":
		x0 -= w / 2
	}
	return box{x0, t.Y - px*0.8, x0 + w, t.Y + h + px*0.2}
}

// texts returns every <text> of the SVG and the polylines' points in pixels.
func texts(t *testing.T, s string) (out []svgText, lines [][][2]float64) {
	t.Helper()
	dec := xml.NewDecoder(strings.NewReader(s))
	for {
		tok, err := dec.Token()
		if err != nil {
			break
		}
		e, ok := tok.(xml.StartElement)
		if !ok {
			continue
		}
		switch e.Name.Local {
		case "text":
			var st svgText
			if err := dec.DecodeElement(&st, &e); err != nil {
				t.Fatal(err)
			}
			out = append(out, st)
		case "polyline":
			var l [][2]float64
			for _, a := range e.Attr {
				if a.Name.Local == "points" {
					for _, pt := range strings.Fields(a.Value) {
						var x, y float64
						fmt.Sscanf(pt, "%g,%g", &x, &y)
						l = append(l, [2]float64{x, y})
					}
				}
			}
			lines = append(lines, l)
		}
	}
	return out, lines
}

// TestRuleLabelClearOfLines: two falling curves on a log axis cross a
// horizontal rule's height near the right end of the frame, where a rule's
// label used to be drawn; at desktop and phone widths the label is now
// placed where it meets no curve, and inside the frame. (The privacy
// curve's "target δ" sat on the paper's dashed curve.)
func TestRuleLabelClearOfLines(t *testing.T) {
	var xs, a, b []float64
	for i := 0; i <= 100; i++ {
		x := 3 * float64(i) / 100
		xs, a, b = append(xs, x), append(a, math.Pow(10, -4*x)), append(b, math.Pow(10, -2*x))
	}
	for _, w := range []float64{640, 330} {
		p := &Plot{Title: "curves", YLog: true, YMin: 1e-12, YMax: 1, Width: w, Height: 0.9 * w,
			Series: []Series{{Name: "steep", X: xs, Y: a}, {Name: "shallow, dashed", X: xs, Y: b, Dashed: true}},
			Rules:  []Rule{{Label: "target δ = 1e-05", At: 1e-5, Horizontal: true}, {Label: "target ε = 1", At: 1}}}
		all, lines := texts(t, p.SVG())
		var labs []svgText
		for _, tx := range all {
			if tx.Class == "rulelabel" {
				labs = append(labs, tx)
			}
		}
		if len(labs) != 2 {
			t.Fatalf("width %g: %d rule labels, want 2", w, len(labs))
		}
		frame := box{84, 40, w - 16, 0.9*w - 52}
		for _, l := range labs {
			bx := l.bounds()
			if !bx.inside(frame) {
				t.Errorf("width %g: label %q at %+v leaves the frame %+v", w, l.content(), bx, frame)
			}
			for _, pl := range lines {
				for i := 1; i < len(pl); i++ {
					if segHitsBox(pl[i-1][0], pl[i-1][1], pl[i][0], pl[i][1], bx) {
						t.Errorf("width %g: label %q at %+v crosses a curve at %v–%v", w, l.content(), bx, pl[i-1], pl[i])
						break
					}
				}
			}
		}
		if labs[0].bounds().overlaps(labs[1].bounds()) {
			t.Errorf("width %g: the two rule labels overlap", w)
		}
	}
}

// TestLabelsInsideView: a long label on a vertical rule near the right edge
// of a 330 px plot (the trace page's "excess = D/150 (accurate to the
// left)") and the last decade of a log axis stay inside the view; the label
// is wrapped when it fits neither side whole.
func TestLabelsInsideView(t *testing.T) {
	p := &Plot{Title: "trials", XLog: true, XMin: 1e-4, XMax: 1, Width: 330, Height: 300,
		XLabel: "change in log-odds across the column's declared range", YLabel: "excess risk bound, G·C units (log scale)",
		YCategories: []string{"worst_fractal_dimension", "mean_radius"},
		Series:      []Series{{Name: "x", X: []float64{1e-3, 0.5}, Y: []float64{0, 1}, Kind: Points}},
		Rules:       []Rule{{Label: "excess = D/150 (accurate to the left)", At: 1.0 / 150}}}
	q := &Plot{Title: "sweep", XLog: true, YLog: true, Width: 330, Height: 300,
		Series: []Series{{X: []float64{0.1, 1e9}, Y: []float64{1, 0.01}}}}
	for _, pl := range []*Plot{p, q} {
		all, _ := texts(t, pl.SVG())
		view := box{0, 0, pl.Width, pl.Height + 40}
		for _, tx := range all {
			if tx.Rotate != "" {
				if tx.Class == "ylabel" && tx.content() != "" && len(tx.Spans) == 0 {
					t.Errorf("%s: y label %q, longer than the frame, not wrapped", pl.Title, tx.content())
				}
				continue // the y-axis label, rotated along the left edge
			}
			if b := tx.bounds(); !b.inside(view) {
				t.Errorf("%s: %q at %+v leaves the view %+v", pl.Title, tx.content(), b, view)
			}
			if (tx.Class == "rulelabel" || tx.Class == "xlabel" || tx.Class == "ylabel") && tx.content() != "" && len(tx.Spans) == 0 {
				t.Errorf("%s: %s %q not wrapped", pl.Title, tx.Class, tx.content())
			}
		}
	}
}

// TestCategoryAxis: with YCategories the y tick labels are the names (long
// ones wrapped on the left margin, the lines joining back to the name), one
// horizontal bar per category, no two names overlapping, and every label in
// the view at phone width.
func TestCategoryAxis(t *testing.T) {
	names := []string{"mean_radius", "mean_texture", "worst_fractal_dimension", "x"}
	for _, w := range []float64{640, 320} {
		p := &Plot{Title: "coefficients", XLabel: "effect", Width: w, Height: 200, YCategories: names,
			Series: []Series{
				{Name: "private", X: []float64{1, -2, 0.5, 3}, Y: []float64{1, 2, 3, 4}, Kind: HBars, Err: []float64{0.1, 0.2, 0.1, 0.1}},
				{Name: "non-private", X: []float64{1.2, -1.5, 0.4, 2}, Y: []float64{1, 2, 3, 4}, Kind: Points},
			}}
		s := p.SVG()
		if err := xml.Unmarshal([]byte(s), new(struct{})); err != nil {
			t.Fatalf("not XML: %v", err)
		}
		all, _ := texts(t, s)
		var got []string
		var boxes []box
		for _, tx := range all {
			if strings.Contains(tx.Class, "category") {
				got, boxes = append(got, tx.content()), append(boxes, tx.bounds())
			}
		}
		if strings.Join(got, "|") != strings.Join(names, "|") {
			t.Errorf("width %g: category labels %q, want %q", w, got, names)
		}
		for i := range boxes {
			if boxes[i].x0 < 0 {
				t.Errorf("width %g: %q starts at x = %g, outside the view", w, got[i], boxes[i].x0)
			}
			for j := i + 1; j < len(boxes); j++ {
				if boxes[i].overlaps(boxes[j]) {
					t.Errorf("width %g: labels %q and %q overlap", w, got[i], got[j])
				}
			}
		}
		if n := strings.Count(s, `fill-opacity="0.8"`); n != 4 {
			t.Errorf("width %g: %d bars, want 4", w, n)
		}
	}
}

// TestPointStyle: a Points series with Radius and Stroke is drawn with that
// radius and outline, in the plot and in its legend.
func TestPointStyle(t *testing.T) {
	p := &Plot{Series: []Series{{Name: "sample", X: []float64{1}, Y: []float64{1}, Kind: Points, Radius: 7, Stroke: "#000"}}}
	s := p.SVG()
	if n := strings.Count(s, `r="7" fill="#0072B2" stroke="#000" stroke-width="1.5"`); n != 2 {
		t.Errorf("%d outlined dots of radius 7 (plot and legend), want 2:\n%s", n, s)
	}
}

// TestPointBox: a point's interval box draws one horizontal and one vertical
// bar between its ends (not symmetric about the point), widens the axes to
// hold them, and leaves out a bar with a NaN end.
func TestPointBox(t *testing.T) {
	p := &Plot{Width: 400, Height: 300, Series: []Series{{Name: "test", X: []float64{0.5, 0.2}, Y: []float64{0.5, 0.3}, Kind: Points,
		Box: [][4]float64{{0.4, 0.55, 0.45, 0.9}, {math.NaN(), 0.25, 0.28, 0.31}}}}}
	xlo, xhi := extent(p, true)
	ylo, yhi := extent(p, false)
	if !(xlo <= 0.2 && xhi >= 0.55 && ylo <= 0.28 && yhi >= 0.9) {
		t.Errorf("axes x [%v, %v], y [%v, %v] do not hold the boxes", xlo, xhi, ylo, yhi)
	}
	s := p.SVG()
	if n := strings.Count(s, `stroke="#0072B2" stroke-width="1.5"/>`); n != 3 {
		t.Errorf("%d interval bars, want 3 (two for the first point, the second's vertical only):\n%s", n, s)
	}
}
