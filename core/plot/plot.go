// Package plot draws the site's charts as standalone SVG: titled, with
// labelled axes, ticks on linear or log₁₀ scales, a legend below the frame
// (never over the data), and text sized to stay readable at 360 px width. It
// is pure Go with no browser bindings, so every view of the site draws through
// the same code and tests check the markup natively.
package plot

import (
	"fmt"
	"html"
	"math"
	"strings"
	"sync/atomic"
)

// Kind is how a Series is drawn.
type Kind int

const (
	Line   Kind = iota // polyline through the points, in order
	Points             // one dot per point
	Bars               // vertical bars from the x-axis baseline
	Steps              // horizontal step function
	HBars              // horizontal bars from x = 0 (or the left edge), at y = a category's number (Plot.YCategories)
)

// Series is one named set of points. Points with a NaN or ±Inf coordinate, or a
// non-positive coordinate on a log axis, are skipped (and break a line).
type Series struct {
	Name   string
	X, Y   []float64
	Kind   Kind
	Color  string    // CSS colour; empty picks from the palette
	Dashed bool      // dashed line (for bounds and references)
	Err    []float64 // optional ± error bar per point (Points and Bars; horizontal for HBars)
	// Box is an optional interval per point of a Points series, in data
	// units, {xLo, xHi, yLo, yHi}: drawn as a vertical bar from yLo to yHi
	// and a horizontal one from xLo to xHi through the point (an interval
	// that need not be symmetric, such as a Clopper–Pearson one). A NaN end
	// leaves its bar out.
	Box [][4]float64
	// Radius of a Points series' dots (default 3) and Stroke, an outline
	// colour: a series meant to be found among many dots (a private sample
	// among the data) is drawn larger and outlined, and so is its legend swatch.
	Radius float64
	Stroke string
}

// Rule is a horizontal (Horizontal = true) or vertical reference line.
type Rule struct {
	Label      string
	At         float64
	Horizontal bool
	Color      string
}

// Plot is a chart description. Width and Height are the SVG viewBox size; the
// SVG scales to its container's width.
type Plot struct {
	Title, XLabel, YLabel string
	XLog, YLog            bool
	Series                []Series
	Rules                 []Rule
	// Optional fixed ranges; zero values mean "fit the data".
	XMin, XMax, YMin, YMax float64
	Width, Height          float64
	// Class is an extra CSS class on the <svg> element.
	Class string
	// Desc is an accessible description (the <desc> element).
	Desc string
	// YCategories makes the y axis categorical: category i (from 1, top to
	// bottom) sits at y = i and its name is the tick label, wrapped on the
	// left margin (which grows to hold the names, up to 45 % of the width).
	// The plot grows taller when the names need more than one line.
	YCategories []string
}

// Palette is the default colour cycle (colour-blind-safe, Okabe–Ito).
var Palette = []string{"#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000"}

// clipIDs numbers clip paths so several plots can share one page.
var clipIDs atomic.Int64

type axis struct {
	lo, hi float64
	log    bool
	a, b   float64 // pixel range
}

func (ax axis) tr(v float64) float64 {
	if ax.log {
		v, lo, hi := math.Log10(v), math.Log10(ax.lo), math.Log10(ax.hi)
		return ax.a + (v-lo)/(hi-lo)*(ax.b-ax.a)
	}
	return ax.a + (v-ax.lo)/(ax.hi-ax.lo)*(ax.b-ax.a)
}

func usable(v float64, log bool) bool {
	return !math.IsNaN(v) && !math.IsInf(v, 0) && (!log || v > 0)
}

// extent returns the data range on one axis, padded, honouring fixed limits.
func extent(p *Plot, xAxis bool) (lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	logAx := p.XLog
	if !xAxis {
		logAx = p.YLog
	}
	take := func(v float64) {
		if usable(v, logAx) {
			lo, hi = math.Min(lo, v), math.Max(hi, v)
		}
	}
	for _, s := range p.Series {
		vs := s.X
		if !xAxis {
			vs = s.Y
		}
		for i, v := range vs {
			take(v)
			if i < len(s.Box) {
				k := 0
				if !xAxis {
					k = 2
				}
				for _, e := range s.Box[i][k : k+2] {
					if usable(e, logAx) {
						take(e)
					}
				}
			}
			if !xAxis && i < len(s.Err) && usable(s.Err[i], false) {
				take(v + s.Err[i])
				take(v - s.Err[i])
			}
		}
		if !xAxis && s.Kind == Bars && !logAx {
			take(0)
		}
		if xAxis && s.Kind == HBars && !logAx {
			take(0)
			for i := range s.X {
				if i < len(s.Err) && usable(s.Err[i], false) {
					take(s.X[i] + s.Err[i])
					take(s.X[i] - s.Err[i])
				}
			}
		}
	}
	for _, r := range p.Rules {
		if r.Horizontal != xAxis {
			take(r.At)
		}
	}
	fixLo, fixHi := p.XMin, p.XMax
	if !xAxis {
		fixLo, fixHi = p.YMin, p.YMax
	}
	if fixLo != 0 || fixHi != 0 {
		if usable(fixLo, logAx) {
			lo = fixLo
		}
		if usable(fixHi, logAx) {
			hi = fixHi
		}
	}
	switch {
	case math.IsInf(lo, 1): // no data
		if logAx {
			return 1, 10
		}
		return 0, 1
	case lo == hi:
		if logAx {
			return lo / 2, hi * 2
		}
		d := math.Max(math.Abs(lo)*0.1, 1e-9)
		return lo - d, hi + d
	}
	if fixLo == 0 && fixHi == 0 && !logAx {
		pad := 0.04 * (hi - lo)
		lo, hi = lo-pad, hi+pad
	}
	return lo, hi
}

// Ticks returns about n "nice" tick positions covering [lo, hi]: 1-2-5
// multiples of a power of ten on a linear axis, powers of ten on a log axis
// (or 1-2-5 within decades when the range spans less than three decades).
func Ticks(lo, hi float64, n int, log bool) []float64 {
	if log {
		a, b := math.Floor(math.Log10(lo)), math.Ceil(math.Log10(hi))
		step := math.Max(1, math.Ceil((b-a)/float64(n)))
		var t []float64
		for e := a; e <= b; e += step {
			for _, m := range []float64{1, 2, 5} {
				if m != 1 && b-a > 2 {
					continue
				}
				v := m * math.Pow(10, e)
				if v >= lo*(1-1e-9) && v <= hi*(1+1e-9) {
					t = append(t, v)
				}
			}
		}
		return t
	}
	raw := (hi - lo) / float64(n)
	mag := math.Pow(10, math.Floor(math.Log10(raw)))
	step := mag
	for _, m := range []float64{1, 2, 5, 10} {
		if m*mag >= raw {
			step = m * mag
			break
		}
	}
	var t []float64
	for v := math.Ceil(lo/step) * step; v <= hi+step*1e-9; v += step {
		if math.Abs(v) < step*1e-9 {
			v = 0
		}
		t = append(t, v)
	}
	return t
}

// FormatTick prints a tick label compactly: 0.001 → "0.001", 1e-6 → "1e-06",
// 25000 → "2.5e+04".
func FormatTick(v float64) string {
	a := math.Abs(v)
	if v == 0 {
		return "0"
	}
	if a >= 1e-3 && a < 1e5 {
		return strings.TrimSuffix(strings.TrimRight(fmt.Sprintf("%.4f", v), "0"), ".")
	}
	return fmt.Sprintf("%.0e", v)
}

// Legend layout: entries flow left to right in rows below the x-axis label,
// outside the data area, so a legend never covers a point or a line. Text
// widths are estimated at legendCharW px per character of the 13 px legend font
// (a generous average for system-ui; an estimate too wide only wraps earlier).
const (
	legendCharW  = 7.6
	legendFont   = 13.0
	legendRowH   = 20.0
	legendSwatch = 30.0 // swatch and gap before the entry's text
	legendGap    = 16.0 // between entries on one row
)

// legendEntry is one positioned legend item.
type legendEntry struct {
	x, y  float64  // top-left of the entry
	idx   int      // index into p.Series
	lines []string // the series' name, wrapped to the legend's width
}

// legendMaxLines is the most lines a legend entry's name wraps onto.
const legendMaxLines = 4

// layoutLegend places the named series' entries in rows of at most width
// pixels starting at x0, and returns them with the number of rows used. A
// name wider than a whole row wraps onto several lines (a phone's narrow
// plot: issue 29), its entry alone on those rows.
func (p *Plot) layoutLegend(x0, width float64) ([]legendEntry, int) {
	var out []legendEntry
	x, row, rowLines := x0, 0, 1
	for i, s := range p.Series {
		if s.Name == "" {
			continue
		}
		lines := []string{s.Name}
		ew := legendSwatch + legendCharW*float64(len([]rune(s.Name)))
		if ew > width {
			lines = wrapText(s.Name, width-legendSwatch, legendFont, legendMaxLines)
			ew = width
		}
		if x > x0 && x+ew > x0+width {
			x, row, rowLines = x0, row+rowLines, 1
		}
		out = append(out, legendEntry{x: x, y: float64(row) * legendRowH, idx: i, lines: lines})
		rowLines = max(rowLines, len(lines))
		x += ew + legendGap
	}
	rows := 0
	if len(out) > 0 {
		rows = row + rowLines
	}
	return out, rows
}

// SVG renders the plot. The viewBox is Width × (Height + the legend's rows):
// the legend sits below the frame, never on the data.
func (p *Plot) SVG() string {
	w, h := p.Width, p.Height
	if w == 0 {
		w = 640
	}
	if h == 0 {
		h = 400
	}
	const right = 16.0
	top, bottom, left := 40.0, 52.0, 84.0
	// The title and the x label wrap onto a second line rather than leave a
	// narrow view (the margins grow to hold it).
	titleLines := wrapText(p.Title, w-8, 16, 2)
	xLines := wrapText(p.XLabel, w-8, tickFont, 2)
	top += 18 * float64(len(titleLines)-1)
	bottom += tickLineH * float64(len(xLines)-1)
	var cats [][]string // the category names, wrapped
	if len(p.YCategories) > 0 {
		left, cats = categoryLabels(p.YCategories, w)
		need := 0.0
		for _, c := range cats {
			need += float64(len(c))*tickLineH + 10
		}
		h = math.Max(h, top+bottom+need)
	}
	legend, rows := p.layoutLegend(8, w-16)
	legendH := float64(rows) * legendRowH
	if rows > 0 {
		legendH += 4
	}
	xlo, xhi := extent(p, true)
	ylo, yhi := extent(p, false)
	xa := axis{xlo, xhi, p.XLog, left, w - right}
	ya := axis{ylo, yhi, p.YLog, h - bottom, top}
	if len(cats) > 0 { // category 1 at the top
		ya = axis{0.5, float64(len(cats)) + 0.5, false, top, h - bottom}
	}
	// Fewer x ticks on a narrow plot, so their labels do not run together.
	nx := 6
	if w-left-right < 360 {
		nx = 4
	}
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 %g %g" class="plot %s" role="img" aria-label="%s" font-family="system-ui, sans-serif" font-size="14">`, w, h+legendH, esc(p.Class), esc(p.Title))
	fmt.Fprintf(&b, `<title>%s</title>`, esc(p.Title))
	if p.Desc != "" {
		fmt.Fprintf(&b, `<desc>%s</desc>`, esc(p.Desc))
	}
	fmt.Fprintf(&b, `<rect x="0" y="0" width="%g" height="%g" fill="#fff"/>`, w, h+legendH)
	fmt.Fprintf(&b, `<text x="%g" y="22" text-anchor="middle" font-size="16" font-weight="600">%s</text>`, w/2, lines(titleLines, w/2, 18))
	// grid and ticks
	for _, t := range Ticks(xlo, xhi, nx, p.XLog) {
		x := xa.tr(t)
		lab := FormatTick(t)
		// A label at either end of the axis is kept inside the viewBox
		// (the last decade of a log axis used to lose its last digit).
		half := textWidth(lab, tickFont) / 2
		lx := math.Min(math.Max(x, half+2), w-half-2)
		fmt.Fprintf(&b, `<line x1="%.1f" y1="%g" x2="%.1f" y2="%g" stroke="#e5e5e5"/>`, x, top, x, h-bottom)
		fmt.Fprintf(&b, `<text x="%.1f" y="%g" text-anchor="middle" class="tick">%s</text>`, lx, h-bottom+18, lab)
	}
	if len(cats) > 0 {
		for i, lines := range cats {
			y := ya.tr(float64(i+1)) + 5 - tickLineH*float64(len(lines)-1)/2
			fmt.Fprintf(&b, `<text x="%g" y="%.1f" text-anchor="end" class="tick category">`, left-6, y)
			for k, l := range lines {
				dy := 0.0
				if k > 0 {
					dy = tickLineH
				}
				fmt.Fprintf(&b, `<tspan x="%g" dy="%g">%s</tspan>`, left-6, dy, esc(l))
			}
			b.WriteString(`</text>`)
		}
	} else {
		for _, t := range Ticks(ylo, yhi, 5, p.YLog) {
			y := ya.tr(t)
			fmt.Fprintf(&b, `<line x1="%g" y1="%.1f" x2="%g" y2="%.1f" stroke="#e5e5e5"/>`, left, y, w-right, y)
			fmt.Fprintf(&b, `<text x="%g" y="%.1f" text-anchor="end" class="tick">%s</text>`, left-6, y+4, FormatTick(t))
		}
	}
	fmt.Fprintf(&b, `<rect x="%g" y="%g" width="%g" height="%g" fill="none" stroke="#444"/>`, left, top, w-left-right, h-top-bottom)
	// The x label is centred under the frame, kept inside the view; the y
	// label along the frame, on two lines when one is longer than the frame.
	xw := 0.0
	for _, l := range xLines {
		xw = math.Max(xw, textWidth(l, tickFont))
	}
	xc := math.Min(math.Max((left+w-right)/2, xw/2+4), w-xw/2-4)
	fmt.Fprintf(&b, `<text x="%.1f" y="%g" text-anchor="middle" class="xlabel">%s</text>`, xc, h-10-tickLineH*float64(len(xLines)-1), lines(xLines, xc, tickLineH))
	yLines := wrapText(p.YLabel, h-top-bottom, tickFont, 2)
	yx := 16.0
	if len(yLines) > 1 {
		yx = 13
	}
	fmt.Fprintf(&b, `<text transform="translate(%g %g) rotate(-90)" text-anchor="middle" class="ylabel">%s</text>`, yx, (top+h-bottom)/2, lines(yLines, 0, tickLineH))
	// clip the data to the frame
	id := clipIDs.Add(1)
	fmt.Fprintf(&b, `<clipPath id="plotclip%d"><rect x="%g" y="%g" width="%g" height="%g"/></clipPath><g clip-path="url(#plotclip%d)">`, id, left, top, w-left-right, h-top-bottom, id)
	// Rule lines go under the data; their labels go over it, with a white
	// halo, each placed beside its line where it meets no data and no other
	// label (placeRuleLabel), so no bar or line hides it and it hides none.
	m := p.pixelMarks(xa, ya)
	frame := box{left, top, w - right, h - bottom}
	var labels strings.Builder
	var taken []box
	for _, r := range p.Rules {
		col := r.Color
		if col == "" {
			col = "#555"
		}
		var at float64
		if r.Horizontal {
			if !usable(r.At, p.YLog) {
				continue
			}
			at = ya.tr(r.At)
			fmt.Fprintf(&b, `<line x1="%g" y1="%.1f" x2="%g" y2="%.1f" stroke="%s" stroke-dasharray="6 4" class="rule"/>`, left, at, w-right, at, col)
		} else {
			if !usable(r.At, p.XLog) {
				continue
			}
			at = xa.tr(r.At)
			fmt.Fprintf(&b, `<line x1="%.1f" y1="%g" x2="%.1f" y2="%g" stroke="%s" stroke-dasharray="6 4" class="rule"/>`, at, top, at, h-bottom, col)
		}
		if r.Label == "" {
			continue
		}
		pl := placeRuleLabel(r, at, frame, m, taken)
		taken = append(taken, pl.b)
		fmt.Fprintf(&labels, `<text x="%.1f" y="%.1f" text-anchor="%s" fill="%s" font-size="%g" class="rulelabel" stroke="#fff" stroke-width="3" paint-order="stroke">`,
			pl.x, pl.y, pl.anchor, col, ruleFont)
		for k, l := range pl.lines {
			if k == 0 {
				labels.WriteString(esc(l))
				continue
			}
			fmt.Fprintf(&labels, `<tspan x="%.1f" dy="%g">%s</tspan>`, pl.x, ruleLineH, esc(l))
		}
		labels.WriteString(`</text>`)
	}
	for i, s := range p.Series {
		col := s.Color
		if col == "" {
			col = Palette[i%len(Palette)]
		}
		p.drawSeries(&b, s, col, xa, ya)
	}
	b.WriteString(labels.String())
	b.WriteString(`</g>`)
	// legend, below the x-axis label
	for _, e := range legend {
		s := p.Series[e.idx]
		col := s.Color
		if col == "" {
			col = Palette[e.idx%len(Palette)]
		}
		dash := ""
		if s.Dashed {
			dash = ` stroke-dasharray="5 3"`
		}
		x, y := e.x, h+e.y
		b.WriteString(`<g class="legend">`)
		if s.Kind == Points {
			r, stroke := 4.0, ""
			if s.Radius > 0 {
				r = math.Min(s.Radius, 7)
			}
			if s.Stroke != "" {
				stroke = fmt.Sprintf(` stroke="%s" stroke-width="1.5"`, s.Stroke)
			}
			fmt.Fprintf(&b, `<circle cx="%g" cy="%g" r="%g" fill="%s"%s/>`, x+12, y+9, r, col, stroke)
		} else {
			fmt.Fprintf(&b, `<line x1="%g" y1="%g" x2="%g" y2="%g" stroke="%s" stroke-width="3"%s/>`, x+2, y+9, x+22, y+9, col, dash)
		}
		for k, line := range e.lines {
			fmt.Fprintf(&b, `<text x="%g" y="%g" font-size="%g">%s</text>`, x+legendSwatch, y+14+float64(k)*legendRowH, legendFont, esc(line))
		}
		b.WriteString(`</g>`)
	}
	b.WriteString(`</svg>`)
	return b.String()
}

const (
	tickFont  = 14.0 // the SVG's font size, which tick labels inherit
	tickLineH = 16.0
)

// esc escapes text for SVG markup.
var esc = html.EscapeString

// lines writes a label's lines: the first as text, the others as tspans
// starting again at x, each lineH below the one before.
func lines(ls []string, x, lineH float64) string {
	var b strings.Builder
	for k, l := range ls {
		if k == 0 {
			b.WriteString(esc(l))
			continue
		}
		fmt.Fprintf(&b, `<tspan x="%g" dy="%g">%s</tspan>`, x, lineH, esc(l))
	}
	return b.String()
}

func (p *Plot) drawSeries(b *strings.Builder, s Series, col string, xa, ya axis) {
	n := min(len(s.X), len(s.Y))
	dash := ""
	if s.Dashed {
		dash = ` stroke-dasharray="6 4"`
	}
	switch s.Kind {
	case Line, Steps:
		var pts []string
		var prevY float64 // the y of pts' last point
		flush := func() {
			if len(pts) > 1 {
				fmt.Fprintf(b, `<polyline fill="none" stroke="%s" stroke-width="2"%s points="%s"/>`, col, dash, strings.Join(pts, " "))
			}
			pts = pts[:0]
		}
		for i := 0; i < n; i++ {
			if !usable(s.X[i], p.XLog) || !usable(s.Y[i], p.YLog) {
				flush()
				continue
			}
			x, y := xa.tr(s.X[i]), ya.tr(s.Y[i])
			if s.Kind == Steps && len(pts) > 0 {
				pts = append(pts, fmt.Sprintf("%.1f,%.1f", x, prevY)) // the step: along x at the previous height
			}
			pts = append(pts, fmt.Sprintf("%.1f,%.1f", x, y))
			prevY = y
		}
		flush()
	case Points:
		for i := 0; i < n; i++ {
			if !usable(s.X[i], p.XLog) || !usable(s.Y[i], p.YLog) {
				continue
			}
			x, y := xa.tr(s.X[i]), ya.tr(s.Y[i])
			p.errBar(b, s, i, x, col, ya)
			if i < len(s.Box) {
				bx := s.Box[i]
				if usable(bx[0], p.XLog) && usable(bx[1], p.XLog) {
					fmt.Fprintf(b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="%s" stroke-width="1.5"/>`, xa.tr(bx[0]), y, xa.tr(bx[1]), y, col)
				}
				if usable(bx[2], p.YLog) && usable(bx[3], p.YLog) {
					fmt.Fprintf(b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="%s" stroke-width="1.5"/>`, x, ya.tr(bx[2]), x, ya.tr(bx[3]), col)
				}
			}
			r, look := 3.0, ` fill-opacity="0.7"`
			if s.Radius > 0 {
				r = s.Radius
			}
			if s.Stroke != "" {
				look = fmt.Sprintf(` stroke="%s" stroke-width="1.5"`, s.Stroke)
			}
			fmt.Fprintf(b, `<circle cx="%.1f" cy="%.1f" r="%g" fill="%s"%s/>`, x, y, r, col, look)
		}
	case HBars:
		bh := math.Abs(ya.b-ya.a) / math.Max(1, ya.hi-ya.lo) * 0.6
		base := xa.a
		if !p.XLog && xa.lo < 0 && xa.hi > 0 {
			base = xa.tr(0)
		}
		for i := 0; i < n; i++ {
			if !usable(s.X[i], p.XLog) || !usable(s.Y[i], false) {
				continue
			}
			x, y := xa.tr(s.X[i]), ya.tr(s.Y[i])
			fmt.Fprintf(b, `<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="%s" fill-opacity="0.8"/>`, math.Min(x, base), y-bh/2, math.Abs(x-base), bh, col)
			if i < len(s.Err) && usable(s.Err[i], false) && s.Err[i] > 0 {
				fmt.Fprintf(b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#222" stroke-width="1.5"/>`, xa.tr(s.X[i]-s.Err[i]), y, xa.tr(s.X[i]+s.Err[i]), y)
			}
		}
	case Bars:
		bw := (xa.b - xa.a) / float64(max(n, 1)) * 0.7
		base := ya.a
		if !p.YLog && ya.lo < 0 && ya.hi > 0 {
			base = ya.tr(0)
		}
		for i := 0; i < n; i++ {
			if !usable(s.X[i], p.XLog) || !usable(s.Y[i], p.YLog) {
				continue
			}
			x, y := xa.tr(s.X[i]), ya.tr(s.Y[i])
			top, hgt := math.Min(y, base), math.Abs(base-y)
			fmt.Fprintf(b, `<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="%s" fill-opacity="0.8"/>`, x-bw/2, top, bw, hgt, col)
			p.errBar(b, s, i, x, "#222", ya)
		}
	}
}

func (p *Plot) errBar(b *strings.Builder, s Series, i int, x float64, col string, ya axis) {
	if i >= len(s.Err) || !usable(s.Err[i], false) || s.Err[i] <= 0 {
		return
	}
	lo, hi := s.Y[i]-s.Err[i], s.Y[i]+s.Err[i]
	if p.YLog && lo <= 0 {
		lo = ya.lo
	}
	fmt.Fprintf(b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="%s" stroke-width="1.5"/>`, x, ya.tr(lo), x, ya.tr(hi), col)
}
