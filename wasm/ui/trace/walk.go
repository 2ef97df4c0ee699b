//go:build js && wasm

package trace

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/dpsample/dpsample/core/fingerprint"
	"github.com/dpsample/dpsample/core/lowerbound"
	"github.com/dpsample/dpsample/core/plot"
	"github.com/dpsample/dpsample/wasm/internal/jsio"
	"github.com/dpsample/dpsample/wasm/ui/internal/kit"
)

// traceWalkStage is stage 4: one seeded trial, its rounded output and its scores.
type traceWalkStage struct {
	output     kit.Elem
	outputNote kit.Elem
	hint       kit.Elem // where the accurate side begins, from the measured sweep
	excessOut  kit.Elem
	violOut    kit.Elem
	walkStatus kit.Elem
	walkGen    int
	walkRun    *remoteRun
	last       *lowerbound.Experiment
	lastMech   traceMech     // mechanism of last
	lastRep    *traceReplica // code of last
	scores     kit.Elem
	accusedOut kit.Elem
	scoreNote  kit.Elem
}

// runWalk reruns the seeded walk-through trial in the worker (cancelling a
// running one) and redraws stages 3 and 4.
func (v *traceView) runWalk() {
	m, ok := v.readMech()
	if !ok || v.rep == nil {
		return
	}
	v.walk.walkGen++
	gen := v.walk.walkGen
	v.walk.walkRun.abort()
	run := &remoteRun{}
	v.walk.walkRun = run
	su := v.su
	rep := v.rep
	opts := m.lbOptions(su) // seeded: the replica replays this trial
	opts.Trials, opts.Ghosts = 1, traceGhosts
	v.root.SetAttribute("data-walk", "running")
	v.walk.walkStatus.SetTextContent("Running one trial in the worker…")
	go func() {
		ex, err := runLowerbound(opts, run, func(f float64) {
			if gen == v.walk.walkGen {
				v.walk.walkStatus.SetTextContent(fmt.Sprintf("Running one trial in the worker… %.0f%%", 100*f))
			}
		})
		if gen != v.walk.walkGen {
			return // superseded
		}
		if err != nil {
			if jsio.IsAbort(err) {
				return
			}
			v.walk.walkStatus.SetTextContent("The trial failed: " + err.Error())
			v.root.SetAttribute("data-walk", "error")
			return
		}
		v.walk.last = ex
		v.drawWorst(ex, su)
		v.walk.lastMech, v.walk.lastRep = m, rep
		v.drawOutput(rep, ex, m)
		v.drawScores(ex, m)
		if len(ex.ExcessOverD) > 0 {
			v.dich.points = append(v.dich.points, tracePoint{ex.ExcessOverD[0], ex.Traced[0], false})
			v.drawDichotomy()
		}
		v.walk.walkStatus.SetTextContent(fmt.Sprintf("One trial of %s on the code above (seeded so the page can show the key; "+
			"a seeded run is marked not private — the data here are synthetic).", m.label()))
		if v.root.GetAttribute("data-verify") == "1" {
			v.walk.output.SetAttribute("data-verified", strconv.FormatBool(rep.verify(ex, m)))
		}
		v.root.SetAttribute("data-walk-n", strconv.Itoa(gen))
		v.root.SetAttribute("data-walk", "done")
	}()
}

func (v *traceView) drawOutput(r *traceReplica, ex *lowerbound.Experiment, m traceMech) {
	c := r.code
	theta, err := r.window(m, v.windowCols())
	if err != nil {
		v.walk.outputNote.SetTextContent(err.Error())
		return
	}
	cols := len(theta)
	exD, viD := ex.ExcessOverD[0], ex.ViolationsOverD[0]
	v.walk.excessOut.SetTextContent(fmtNum(exD))
	v.walk.excessOut.SetAttribute("data-value", strconv.FormatFloat(exD, 'g', -1, 64))
	v.walk.violOut.SetTextContent(fmtNum(viD))
	laneTop, laneH := 10.0, 90.0
	rowY := laneTop + laneH + 14
	h := rowY + 2*16 + 6
	w := stripWidth(cols)
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 %g %g" role="img" aria-label="mechanism output on the window" font-family="system-ui, sans-serif" font-size="12">`, w, h)
	fmt.Fprintf(&b, `<desc>θ on published columns 1 to %d, its rounding at one half, and the unanimous bit; violations in red.</desc>`, cols)
	y := func(t float64) float64 { return laneTop + laneH*(1-math.Min(1, math.Max(0, t))) }
	fmt.Fprintf(&b, `<line x1="%g" x2="%g" y1="%g" y2="%g" stroke="#999"/>`, stripLeft, stripLeft+stripCell*float64(cols), y(0), y(0))
	fmt.Fprintf(&b, `<text x="%g" y="%g" text-anchor="end">θ = 1</text><text x="%g" y="%g" text-anchor="end">0</text>`, stripLeft-6, y(1)+4, stripLeft-6, y(0)+4)
	fmt.Fprintf(&b, `<text x="4" y="%g">c = round(θ)</text><text x="4" y="%g">unanimous bit</text>`, rowY+12, rowY+28)
	viol := 0
	for k, t := range theta {
		x := stripLeft + stripCell*float64(k)
		o := c.Ones(k)
		un := o == 0 || o == c.N
		bit := t >= 0.5
		bad := un && bit != (o == c.N)
		col := "#56B4E9"
		if bad {
			col = "#D55E00"
			viol++
		}
		top := y(t)
		fmt.Fprintf(&b, `<rect x="%g" y="%.2f" width="%g" height="%.2f" fill="%s"><title>column %d: θ = %.3f</title></rect>`,
			x+1.5, top, stripCell-3, math.Max(y(0)-top, 0.8), col, k+1, t)
		fill := "#fff"
		if bit {
			fill = "#1d1d1f"
		}
		stroke, sw := "#bbb", 0.5
		if bad {
			stroke, sw = "#D55E00", 2
		}
		fmt.Fprintf(&b, `<rect x="%g" y="%g" width="%g" height="14" fill="%s" stroke="%s" stroke-width="%g"/>`, x, rowY, stripCell, fill, stroke, sw)
		if un {
			f := "#fff"
			if o == c.N {
				f = "#1d1d1f"
			}
			fmt.Fprintf(&b, `<rect x="%g" y="%g" width="%g" height="14" fill="%s" stroke="#bbb" stroke-width="0.5"/>`, x, rowY+16, stripCell, f)
		}
	}
	fmt.Fprintf(&b, `<line x1="%g" x2="%g" y1="%g" y2="%g" stroke="#000" stroke-dasharray="4 3"/><text x="%g" y="%g" text-anchor="end">½</text>`,
		stripLeft, stripLeft+stripCell*float64(cols), y(0.5), y(0.5), stripLeft-6, y(0.5)+4)
	b.WriteString(`</svg>`)
	fmt.Fprintf(&b, "<figcaption class=\"detail\">Output θ of %s on published columns 1–%d, rounded at ½. Red: a violation "+
		"(a unanimous column rounded the wrong way) — %d in this window.</figcaption>", kit.Esc(m.label()), cols, viol)
	v.walk.output.SetInnerHTML(b.String())
	v.walk.output.SetAttribute("data-violations", strconv.Itoa(viol))
	var note string
	switch {
	case exD <= accurateCut:
		note = fmt.Sprintf("Accurate: excess/D = %s ≤ 1/150, so at most D/75 columns violate the marking condition — the regime the attack's promise is about: the probability of landing here untraced is ≤ ξ.", fmtNum(exD))
	case viD > 0.2:
		note = fmt.Sprintf("Inaccurate: excess/D = %s, %s× the 1/150 line, and %s of all columns violate the marking condition. "+
			"The rounded word carries almost nothing of anyone's row.", fmtNum(exD), fmtNum(exD*150), fmtNum(viD))
	default:
		note = fmt.Sprintf("Between the regimes: excess/D = %s is above 1/150, where the promise says nothing; Trace may still succeed.", fmtNum(exD))
	}
	if m.mech == lowerbound.Exponential && ex.Mechanism.A > 0 {
		note += fmt.Sprintf(" Per column Algorithm 1's target is exp(−a·Σᵢ|t − zᵢ| − b·t²) with "+
			"a = η/N = %s and b = ημ/2 = %s (b/(aN) = %s). The ridge term μ/2‖θ‖² pulls θ towards 0 until the data term wins, "+
			"a·N ≫ b: with the default η rule that needs s* ≳ √(2D)/N, i.e. ε of order D/N² or more, because this instance has "+
			"D ≫ N² coordinates.",
			fmtNum(ex.Mechanism.A), fmtNum(ex.Mechanism.B), fmtNum(ex.Mechanism.B/(ex.Mechanism.A*float64(ex.Rows))))
	}
	v.walk.outputNote.SetTextContent(note)
	v.updateHint()
}

func (v *traceView) buildScores() {
	s := stage(v.pre+"-stage-trace", "4. Trace: who does the rounded answer point to?")
	v.walk.scores = kit.El("figure", "id", v.pre+"-scores", "class", "plot")
	v.walk.accusedOut = kit.El("p", "id", v.pre+"-accused", "class", "result", "aria-live", "polite")
	css(v.walk.accusedOut, "font-size", "16px")
	v.walk.scoreNote = kit.Text("p", "", "class", "detail")
	how := kit.El("details", "id", v.pre+"-score-how", "class", "paper-notes")
	kit.AppendAll(how, kit.Text("summary", "The score and the threshold"),
		v.narrationWithNote("Trace undoes the permutation, drops the dummy columns and scores every person on the real ones: "+
			"Sᵢ = Σⱼ cⱼ·Uᵢⱼ with Uᵢⱼ = √((1−pⱼ)/pⱼ) when person i has a 1 and −√(pⱼ/(1−pⱼ)) when not (Tardos' asymmetric score). "+
			"Everyone with Sᵢ ≥ Z/2 (the threshold of stage 1) is in the accused set A, and Trace returns one of them at random, or ⊥. "+
			"On how Trace picks among several accused, see ", 4, "."))
	kit.AppendAll(s, narration("Trace compares the rounded answer with each person's row of the code: a person whose bits the answer "+
		"repeats where the code made that unlikely gets a high score, and everyone whose score clears the line is accused. "+
		fmt.Sprintf("The grey bars are %d ghosts: fresh rows from the same code that no mechanism ever saw — innocents, to show where an outsider's score lands. "+
			"A ghost over the line is an innocent Trace would accuse: a false accusation, whose rate stage 6 measures.", traceGhosts)),
		v.walk.accusedOut, v.walk.scores, v.walk.scoreNote, how)
	v.root.AppendChild(s)
}

func (v *traceView) drawScores(ex *lowerbound.Experiment, m traceMech) {
	d := ex.Last
	if d == nil {
		return
	}
	// Ghosts first (x = 1…G), then the people (x = G+2…): the legend sits top left, over the short ghost bars.
	// Every series spans all positions (NaN where it has no bar) so that core/plot sizes the bars alike.
	G, n := len(d.GhostScores), len(d.Scores)
	total := G + 1 + n
	series := func(name, color string) plot.Series {
		s := plot.Series{Name: name, Kind: plot.Bars, Color: color, X: make([]float64, total), Y: make([]float64, total)}
		for i := range total {
			s.X[i], s.Y[i] = float64(i+1), math.NaN()
		}
		return s
	}
	ret := series("returned by Trace", "#D55E00")
	acc := series("accused (in A)", "#E69F00")
	mem := series("in the data, not accused", "#0072B2")
	gh := series("ghost (never in the data)", "#999999")
	inA := map[int]bool{}
	for _, i := range d.Accused {
		inA[i] = true
	}
	copy(gh.Y, d.GhostScores)
	for i, s := range d.Scores {
		x := G + 1 + i
		switch {
		case d.Returned != nil && *d.Returned == i:
			ret.Y[x] = s
		case inA[i]:
			acc.Y[x] = s
		default:
			mem.Y[x] = s
		}
	}
	lo, hi := 0.0, 1.3*d.Threshold // room for the threshold's label and the legend
	for _, s := range append(append([]float64(nil), d.Scores...), d.GhostScores...) {
		lo, hi = math.Min(lo, 1.1*s), math.Max(hi, 1.1*s)
	}
	if w := v.walk.scores.Underlying().Get("clientWidth").Float(); w > 0 && w < 500 {
		hi *= 1.8 // on a phone the legend spans the plot: keep the bars below it
	}
	p := &plot.Plot{
		Title: "Trace scores Sᵢ", XLabel: fmt.Sprintf("ghosts 1–%d | people 1–%d", G, n), YLabel: "score Sᵢ",
		Height: 340, XMin: 0.3, XMax: float64(total) + 0.7, YMin: lo, YMax: hi,
		Desc:   "Bars: the ghosts' scores (grey), then the people's scores (orange when accused, red for the one Trace returns, blue otherwise); the horizontal line is the accusation threshold.",
		Series: []plot.Series{gh, mem, acc, ret},
		Rules:  []plot.Rule{{Label: fmt.Sprintf("threshold %s", fmtNum(d.Threshold)), At: d.Threshold, Horizontal: true, Color: "#000000"}},
	}
	v.walk.scores.SetInnerHTML(kit.FitWidth(v.walk.scores, p).SVG())
	var who string
	if d.Returned != nil {
		names := make([]string, len(d.Accused))
		for i, a := range d.Accused {
			names[i] = strconv.Itoa(a + 1)
		}
		who = fmt.Sprintf("From the published answer alone, Trace picked out person %d as someone in the data: an answer this accurate "+
			"gives its people away, which is why a private method must be less accurate. (Accused set A = {%s}; Trace returns person %d.)",
			*d.Returned+1, strings.Join(names, ", "), *d.Returned+1)
	} else {
		who = "Trace could not pick out anyone from this answer: it does not give its people away — and, by the same argument, it cannot " +
			"be accurate on every table. (A = ∅: Trace returns ⊥.)"
	}
	v.walk.accusedOut.SetTextContent(who)
	v.walk.accusedOut.SetAttribute("data-accused", strconv.Itoa(len(d.Accused)))
	gAcc := 0
	maxS := math.Inf(-1)
	for _, s := range d.Scores {
		maxS = math.Max(maxS, s)
	}
	for _, s := range d.GhostScores {
		if s >= d.Threshold {
			gAcc++
		}
	}
	var why string
	switch {
	case d.Returned != nil:
		why = "The answer carries the members' bits: their scores climb far above the ghosts'."
	case maxAbs(d.Scores) < 0.01*d.Threshold:
		why = "Every score is about 0: the rounded answer has (almost) no 1s on the real columns, and the score counts only the 1s."
	default:
		why = "The answer carries too little of anyone's bits: nobody clears the threshold, and the members are hard to tell from the ghosts."
	}
	if ex.Options.Mode == fingerprint.Symmetric {
		why += " (Practical mode: Škorić's symmetric score Sᵢ = Σⱼ (2cⱼ − 1)·Uᵢⱼ, which also counts the 0s, against the threshold √(2ℓ·ln(n/ξ)).)"
	}
	ghosts := fmt.Sprintf("%d of the %d ghosts are over it: innocents, never in the data, whom Trace would accuse — false accusations, "+
		"which stage 6 counts (soundness).", gAcc, len(d.GhostScores))
	if gAcc == 0 {
		ghosts = fmt.Sprintf("None of the %d ghosts (innocents, never in the data) is over it: Trace would accuse none of them.", len(d.GhostScores))
	}
	v.walk.scoreNote.SetTextContent(fmt.Sprintf("Highest member score = %s × the threshold; %s %s",
		fmtNum(maxS/d.Threshold), ghosts, why))
}
