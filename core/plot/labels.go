package plot

import (
	"math"
	"strings"
)

// Text placement. SVG text has no layout engine, so its width is estimated
// from the number of characters at a generous average advance per font size
// (system-ui's average lowercase advance is ≈ 0.52 em; 0.6 em errs towards
// boxes a little too wide, which only moves or wraps a label earlier).
const emAdvance = 0.6

// textWidth estimates the rendered width of s at font size px (a trailing
// space, left at the end of a wrapped line, takes no room).
func textWidth(s string, px float64) float64 {
	return emAdvance * px * float64(len([]rune(strings.TrimRight(s, " "))))
}

// wrapText breaks s into lines no wider than width at font size px, breaking
// after a space, an underscore or a hyphen (the separator stays on the first
// line, so joining the lines gives s back), and inside a word only when one
// word alone is too wide. At most maxLines lines; the rest joins the last.
func wrapText(s string, width, px float64, maxLines int) []string {
	maxChars := max(4, int(width/(emAdvance*px)))
	var pieces []string
	start := 0
	rs := []rune(s)
	for i, r := range rs {
		if r == ' ' || r == '_' || r == '-' {
			pieces = append(pieces, string(rs[start:i+1]))
			start = i + 1
		}
	}
	if start < len(rs) {
		pieces = append(pieces, string(rs[start:]))
	}
	var lines []string
	cur := ""
	for _, pc := range pieces {
		for len([]rune(pc)) > maxChars { // one word too wide: break inside it
			if cur != "" {
				lines, cur = append(lines, cur), ""
			}
			r := []rune(pc)
			lines, pc = append(lines, string(r[:maxChars])), string(r[maxChars:])
		}
		if cur != "" && len([]rune(strings.TrimRight(cur+pc, " "))) > maxChars {
			lines, cur = append(lines, cur), ""
		}
		cur += pc
	}
	if cur != "" || len(lines) == 0 {
		lines = append(lines, cur)
	}
	if len(lines) > maxLines {
		lines = append(lines[:maxLines-1], strings.Join(lines[maxLines-1:], ""))
	}
	return lines
}

// segHitsBox reports whether the segment (x0, y0)–(x1, y1) meets the box b
// (Liang–Barsky clipping of the segment to the box).
func segHitsBox(x0, y0, x1, y1 float64, b box) bool {
	t0, t1 := 0.0, 1.0
	dx, dy := x1-x0, y1-y0
	for _, e := range [4][2]float64{{-dx, x0 - b.x0}, {dx, b.x1 - x0}, {-dy, y0 - b.y0}, {dy, b.y1 - y0}} {
		p, q := e[0], e[1]
		if p == 0 {
			if q < 0 {
				return false
			}
			continue
		}
		r := q / p
		if p < 0 {
			t0 = math.Max(t0, r)
		} else {
			t1 = math.Min(t1, r)
		}
		if t0 > t1 {
			return false
		}
	}
	return true
}

// box is an axis-aligned rectangle in SVG user units.
type box struct{ x0, y0, x1, y1 float64 }

func (a box) overlaps(b box) bool { return a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1 }

func (a box) inside(b box) bool { return a.x0 >= b.x0 && a.x1 <= b.x1 && a.y0 >= b.y0 && a.y1 <= b.y1 }

// marks are the drawn data in pixels: polylines (for lines and steps) and
// boxes (points, bars, error bars), against which labels are placed.
type marks struct {
	lines [][][2]float64
	boxes []box
}

// hits counts the marks b meets.
func (m *marks) hits(b box) int {
	n := 0
	for _, l := range m.lines {
		for i := 1; i < len(l); i++ {
			if segHitsBox(l[i-1][0], l[i-1][1], l[i][0], l[i][1], b) {
				n++
				break
			}
		}
	}
	for _, o := range m.boxes {
		if o.overlaps(b) {
			n++
		}
	}
	return n
}

// ruleLabel is a placed rule label: its lines, anchor, first baseline and box.
type ruleLabel struct {
	lines  []string
	anchor string
	x, y   float64
	b      box
}

const (
	ruleFont  = 12.0
	ruleLineH = 14.0
)

// placeRuleLabel puts a rule's label next to its line inside the frame,
// where it meets no data mark and no label placed before it (taken), trying
// both ends and both sides of the line in turn; a label wider than the room
// on either side is wrapped. With no free place it takes the one that meets
// the fewest marks.
func placeRuleLabel(r Rule, at float64, frame box, m *marks, taken []box) ruleLabel {
	best, bestHits := ruleLabel{}, math.MaxInt
	try := func(lines []string, anchor string, x, y float64) bool {
		w := 0.0
		for _, l := range lines {
			w = math.Max(w, textWidth(l, ruleFont))
		}
		x0 := x
		switch anchor {
		case "end":
			x0 = x - w
		case "middle":
			x0 = x - w/2
		}
		b := box{x0 - 2, y - ruleFont, x0 + w + 2, y + ruleLineH*float64(len(lines)-1) + 4}
		if !b.inside(frame) {
			return false
		}
		n := m.hits(b)
		for _, t := range taken {
			if t.overlaps(b) {
				n += 100
			}
		}
		if n < bestHits {
			best, bestHits = ruleLabel{lines, anchor, x, y, b}, n
		}
		return n == 0
	}
	if r.Horizontal {
		// The label whole, then on two lines; at the right end, the left end,
		// then anywhere along the line; above it, then below it.
		full := wrapText(r.Label, frame.x1-frame.x0-8, ruleFont, 3)
		variants := [][]string{full}
		if len(full) == 1 && len([]rune(r.Label)) > 8 {
			variants = append(variants, wrapText(r.Label, textWidth(r.Label, ruleFont)/2+ruleFont, ruleFont, 3))
		}
		for _, lines := range variants {
			h := ruleLineH * float64(len(lines)-1)
			above, below := at-4-h, at+ruleFont+2
			for _, y := range []float64{above, below} {
				if try(lines, "end", frame.x1-4, y) || try(lines, "start", frame.x0+4, y) {
					return best
				}
			}
			for _, y := range []float64{above, below} {
				for x := frame.x0 + 4; x < frame.x1; x += 8 {
					if try(lines, "start", x, y) {
						return best
					}
				}
			}
		}
		return best
	}
	right, left := frame.x1-at-8, at-frame.x0-8 // room on each side of the line
	bottom, top := frame.y1-8, frame.y0+ruleFont+4
	for _, side := range []struct {
		anchor  string
		x, room float64
	}{{"start", at + 4, right}, {"end", at - 4, left}} {
		lines := wrapText(r.Label, math.Max(side.room, 40), ruleFont, 3)
		h := ruleLineH * float64(len(lines)-1)
		// at the bottom of the line, then at its top, then anywhere along it
		ys := []float64{bottom - h, bottom - h - ruleLineH, top, top + ruleLineH}
		for y := bottom - h - 2*ruleLineH; y > top+ruleLineH; y -= 8 {
			ys = append(ys, y)
		}
		for _, y := range ys {
			if try(lines, side.anchor, side.x, y) {
				return best
			}
		}
	}
	if bestHits == math.MaxInt { // fits nowhere beside the line: centred on it, wrapped to the frame
		lines := wrapText(r.Label, frame.x1-frame.x0-8, ruleFont, 4)
		x := math.Min(math.Max(at, frame.x0+4+textWidth(lines[0], ruleFont)/2), frame.x1-4-textWidth(lines[0], ruleFont)/2)
		best = ruleLabel{lines: lines, anchor: "middle", x: x, y: frame.y0 + ruleFont + 4}
	}
	return best
}

// categoryLabels wraps the category names to fit a left margin of at most
// 45 % of the width (and at least the usual 84 px), and returns the margin.
func categoryLabels(names []string, w float64) (left float64, lines [][]string) {
	room := math.Max(70, 0.45*w-14)
	widest := 0.0
	for _, n := range names {
		ls := wrapText(n, room, tickFont, 3)
		lines = append(lines, ls)
		for _, l := range ls {
			widest = math.Max(widest, textWidth(strings.TrimRight(l, " "), tickFont))
		}
	}
	return math.Max(84, widest+14), lines
}

// pixelMarks are the series' marks in pixels, for placing labels.
func (p *Plot) pixelMarks(xa, ya axis) *marks {
	m := &marks{}
	for _, s := range p.Series {
		n := min(len(s.X), len(s.Y))
		switch s.Kind {
		case Line, Steps:
			var l [][2]float64
			for i := 0; i < n; i++ {
				if !usable(s.X[i], p.XLog) || !usable(s.Y[i], p.YLog) {
					if len(l) > 0 {
						m.lines, l = append(m.lines, l), nil
					}
					continue
				}
				x, y := xa.tr(s.X[i]), ya.tr(s.Y[i])
				if s.Kind == Steps && len(l) > 0 {
					l = append(l, [2]float64{x, l[len(l)-1][1]})
				}
				l = append(l, [2]float64{x, y})
			}
			if len(l) > 0 {
				m.lines = append(m.lines, l)
			}
		default:
			r := 3.0
			if s.Radius > 0 {
				r = s.Radius
			}
			for i := 0; i < n; i++ {
				if !usable(s.X[i], p.XLog) || !usable(s.Y[i], p.YLog && s.Kind != HBars) {
					continue
				}
				x, y := xa.tr(s.X[i]), ya.tr(s.Y[i])
				switch s.Kind {
				case Bars:
					base := ya.a
					if !p.YLog && ya.lo < 0 && ya.hi > 0 {
						base = ya.tr(0)
					}
					bw := (xa.b - xa.a) / float64(max(n, 1)) * 0.35
					m.boxes = append(m.boxes, box{x - bw, math.Min(y, base), x + bw, math.Max(y, base)})
				case HBars:
					base := xa.a
					if !p.XLog && xa.lo < 0 && xa.hi > 0 {
						base = xa.tr(0)
					}
					bh := math.Abs(ya.b-ya.a) / math.Max(1, ya.hi-ya.lo) * 0.3
					m.boxes = append(m.boxes, box{math.Min(x, base), y - bh, math.Max(x, base), y + bh})
				default:
					m.boxes = append(m.boxes, box{x - r, y - r, x + r, y + r})
				}
			}
		}
	}
	return m
}
