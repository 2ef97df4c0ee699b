//go:build js && wasm

package trace

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/dpsample/dpsample/core/lowerbound"
	"github.com/dpsample/dpsample/core/plot"
	"github.com/dpsample/dpsample/wasm/internal/jsio"
	"github.com/dpsample/dpsample/wasm/ui/internal/kit"
)

// traceDichotomyStage is stage 5: accuracy against tracing (Lemma G.2's
// completeness), trial by trial and swept over the parameter.
type traceDichotomyStage struct {
	dichotomy kit.Elem
	sweepPlot kit.Elem
	corner    kit.Elem
	sweepBtn  kit.Elem
	sweepNote kit.Elem
	sweepProg kit.Elem
	points    []tracePoint
	sweep     []sweepPoint
	sweepRun  *remoteRun
	sweepMech traceMech // mechanism of sweep
}

// tracePoint is one trial in the (excess/D, traced) plane; fresh marks the
// unseeded trials of a sweep (independent draws), as opposed to the seeded
// walk-through trials, which repeat when a setting is revisited.
type tracePoint struct {
	excess float64
	traced bool
	fresh  bool
}

// sweepPoint is the mean excess/D of the trials at one parameter value.
type sweepPoint struct {
	param, excess, traced float64
}

func (v *traceView) buildDichotomy() {
	s := stage(v.pre+"-stage-dichotomy", "5. The dichotomy: accuracy against tracing")
	v.dich.sweepBtn = kit.Text("button", "Sweep the slider (runs in the worker)", "type", "button", "id", v.pre+"-sweep")
	v.dich.sweepProg = kit.El("progress", "id", v.pre+"-sweep-progress", "max", "1", "value", "0", "hidden", "", "aria-label", "progress of the privacy sweep")
	v.dich.sweepPlot = kit.El("figure", "id", v.pre+"-sweep-plot", "class", "plot")
	v.dich.sweepNote = kit.Text("p", "", "id", v.pre+"-sweep-note", "class", "detail")
	v.dich.dichotomy = kit.El("figure", "id", v.pre+"-dichotomy", "class", "plot")
	v.dich.corner = kit.Text("p", "", "id", v.pre+"-corner", "class", "result", "aria-live", "polite")
	css(v.dich.corner, "font-size", "16px")
	kit.AppendAll(s, narration("What the code guarantees (completeness, in the notes): the chance that an answer is accurate (excess ≤ D/150) "+
		"and traces nobody is ≤ ξ. That is about the two together: among accurate answers alone the failure rate can be larger, up to "+
		"ξ divided by the chance of being accurate. Every trial the page runs lands in this plane; the promise says nothing about "+
		"the trials right of the 1/150 line, traced or not. "+
		"Sweeping runs the chosen mechanism at 9 values of its slider, "+strconv.Itoa(sweepTrials)+" fresh trials each."),
		v.dich.sweepBtn, v.dich.sweepProg, v.dich.corner, v.dich.dichotomy, v.dich.sweepPlot, v.dich.sweepNote)
	v.root.AppendChild(s)
	kit.On(v.dich.sweepBtn, "click", false, func(kit.Event) { v.runSweep() })
	v.drawDichotomy()
}

func (v *traceView) drawDichotomy() {
	var tx, ty, ux, uy []float64
	acc, accUntraced, fresh, freshCorner := 0, 0, 0, 0
	for i, p := range v.dich.points {
		j := 0.12 * (float64((i*7919)%21)/10 - 1) // deterministic jitter in ±0.12
		x := math.Max(p.excess, 1.15e-4)          // the median's excess 0 is drawn at the left edge
		if p.traced {
			tx, ty = append(tx, x), append(ty, 1+j)
		} else {
			ux, uy = append(ux, x), append(uy, j)
		}
		corner := p.excess <= accurateCut && !p.traced
		if p.excess <= accurateCut {
			acc++
		}
		if corner {
			accUntraced++
		}
		if p.fresh {
			fresh++
			if corner {
				freshCorner++
			}
		}
	}
	p := &plot.Plot{
		Title: "Every trial: accuracy vs tracing", XLabel: "excess / D (log scale)", YLabel: "traced (1) or ⊥ (0)", XLog: true,
		XMin: 1e-4, XMax: 1, YMin: -0.4, YMax: 1.4, Height: 320,
		Desc: "Each dot is a trial: its excess over D and whether Trace returned a member. The vertical line is excess = D/150; trials with excess 0 sit on the left edge.",
		Series: []plot.Series{
			{Name: "traced", X: tx, Y: ty, Kind: plot.Points, Color: "#D55E00"},
			{Name: "⊥ (untraced)", X: ux, Y: uy, Kind: plot.Points, Color: "#0072B2"},
		},
		Rules: []plot.Rule{{Label: "excess = D/150 (accurate to the left)", At: accurateCut, Color: "#000000"}},
	}
	v.dich.dichotomy.SetInnerHTML(kit.FitWidth(v.dich.dichotomy, p).SVG())
	say := fmt.Sprintf("%d trials so far; %d accurate (excess ≤ D/150); accurate but untraced: %d. "+
		"(Trials with excess 0, the median's, sit on the left edge.) ", len(v.dich.points), acc, accUntraced)
	if fresh == 0 {
		say += "The seeded walk-through trials repeat when a setting is revisited, so they are not independent draws: sweep the slider for fresh trials."
	} else {
		_, hi := lowerbound.ClopperPearson(freshCorner, fresh, 0.05)
		say += fmt.Sprintf("In the %d fresh trials of the sweeps, %d landed in the accurate-but-untraced corner (95 %% Clopper–Pearson upper bound %s "+
			"on the joint probability, for the sweeps' mix of settings). The lemma bounds that probability by ξ = %s. It does not say the corner is empty, "+
			"and a run of zeros only bounds it by ≈ 3.7/N.", fresh, freshCorner, fmtNum(hi), fmtNum(v.su.xi))
		v.dich.corner.SetAttribute("data-fresh-hi", strconv.FormatFloat(hi, 'g', -1, 64))
	}
	v.dich.corner.SetTextContent(say)
	v.dich.corner.SetAttribute("data-fresh", strconv.Itoa(fresh))
	v.dich.corner.SetAttribute("data-fresh-untraced", strconv.Itoa(freshCorner))
	v.dich.corner.SetAttribute("data-trials", strconv.Itoa(len(v.dich.points)))
	v.dich.corner.SetAttribute("data-accurate", strconv.Itoa(acc))
	v.dich.corner.SetAttribute("data-accurate-untraced", strconv.Itoa(accUntraced))
}

// sweepGrid is the slider values a sweep visits.
func sweepGrid(m traceMech) []traceMech {
	var out []traceMech
	for i := range 9 {
		mm := m
		switch m.mech {
		case lowerbound.BoxExponential:
			mm.logS = -2 + 5*float64(i)/8
		case lowerbound.Exponential, lowerbound.Gaussian:
			mm.logEps = -1 + 10*float64(i)/8 // the slider's whole range, 0.1 … 10⁹, on its 0.25 steps
		default:
			if i > 0 {
				return out
			}
		}
		out = append(out, mm)
	}
	return out
}

func (v *traceView) runSweep() {
	if v.dich.sweepRun != nil {
		v.dich.sweepRun.abort()
		return
	}
	m, ok := v.readMech()
	if !ok {
		return
	}
	su := v.su
	grid := sweepGrid(m)
	run := &remoteRun{}
	v.dich.sweepRun = run
	v.dich.sweep = nil
	v.dich.sweepBtn.SetTextContent("Stop the sweep")
	kit.Show(v.dich.sweepProg, true)
	v.root.SetAttribute("data-sweep", "running")
	go func() {
		defer func() {
			v.dich.sweepRun = nil
			v.dich.sweepBtn.SetTextContent("Sweep the slider (runs in the worker)")
			kit.Show(v.dich.sweepProg, false)
			v.updateHint()
			v.root.SetAttribute("data-sweep", "done")
		}()
		for gi, g := range grid {
			opts := g.lbOptions(su)
			opts.Seed, opts.Trials = nil, sweepTrials
			ex, err := runLowerbound(opts, run, func(f float64) {
				v.dich.sweepProg.SetAttribute("value", strconv.FormatFloat((float64(gi)+f)/float64(len(grid)), 'f', 3, 64))
			})
			if err != nil {
				if !jsio.IsAbort(err) {
					v.dich.corner.SetTextContent("The sweep failed: " + err.Error())
				}
				return
			}
			mean, tr := 0.0, 0.0
			for i, e := range ex.ExcessOverD {
				v.dich.points = append(v.dich.points, tracePoint{e, ex.Traced[i], true})
				mean += e
				if ex.Traced[i] {
					tr++
				}
			}
			param := g.eps()
			if g.mech == lowerbound.BoxExponential {
				param = g.s()
			}
			v.dich.sweep = append(v.dich.sweep, sweepPoint{param, mean / float64(len(ex.ExcessOverD)), tr / float64(len(ex.ExcessOverD))})
			v.dich.sweepMech = g
			v.drawDichotomy()
			v.drawSweep(g)
		}
	}()
}

func (v *traceView) drawSweep(m traceMech) {
	var x, y []float64
	var parts []string
	for _, p := range v.dich.sweep {
		x, y = append(x, p.param), append(y, p.excess)
		parts = append(parts, fmt.Sprintf("%s → %d/%d", fmtNum(p.param), int(math.Round(p.traced*sweepTrials)), sweepTrials))
	}
	xl := "ε (log scale)"
	if m.mech == lowerbound.BoxExponential {
		xl = "s = εN/(2D) (log scale)"
	}
	p := &plot.Plot{
		Title:  "Excess/D along the slider",
		XLabel: xl, YLabel: "excess / D (log scale)", XLog: true, YLog: true, YMin: 1e-4, YMax: 10, Height: 320,
		Desc: "Mean excess over D at each slider value, with the 1/150 line.",
		Series: []plot.Series{
			{Name: "mean excess/D over " + strconv.Itoa(sweepTrials) + " trials", X: x, Y: y, Kind: plot.Line, Color: "#0072B2"},
			{Name: "", X: x, Y: y, Kind: plot.Points, Color: "#0072B2"},
		},
		Rules: []plot.Rule{{Label: "1/150", At: accurateCut, Horizontal: true, Color: "#000000"}},
	}
	v.dich.sweepPlot.SetInnerHTML(kit.FitWidth(v.dich.sweepPlot, p).SVG())
	v.dich.sweepNote.SetTextContent("Trials traced at each " + xl[:strings.Index(xl, " (")] + ": " + strings.Join(parts, " · "))
	// The measured values, for the hint of stage 3 and for tests.
	var ps, ms []string
	for _, pt := range v.dich.sweep {
		ps, ms = append(ps, strconv.FormatFloat(pt.param, 'g', -1, 64)), append(ms, strconv.FormatFloat(pt.excess, 'g', -1, 64))
	}
	v.dich.sweepPlot.SetAttribute("data-params", strings.Join(ps, ","))
	v.dich.sweepPlot.SetAttribute("data-means", strings.Join(ms, ","))
	v.dich.sweepPlot.SetAttribute("data-mech", string(m.mech))
	v.updateHint()
}

// updateHint says, under an inaccurate walk-through trial, where the
// accurate side begins — as the sweep of stage 5 measured it for this
// mechanism and code (the first slider value whose mean excess/D is at most
// 1/150, or the lowest mean when none is), or that the sweep would measure
// it. It is hidden when the trial is already accurate.
func (v *traceView) updateHint() {
	h := v.walk.hint
	ex, m := v.walk.last, v.walk.lastMech
	for _, a := range []string{"data-first-accurate", "data-best", "data-best-param"} {
		h.RemoveAttribute(a)
	}
	if ex == nil || len(ex.ExcessOverD) == 0 || m.mech == lowerbound.Median || ex.ExcessOverD[0] <= accurateCut {
		h.SetTextContent("")
		kit.Show(h, false)
		return
	}
	name := "ε"
	if m.mech == lowerbound.BoxExponential {
		name = "s"
	}
	kit.Show(h, true)
	if len(v.dich.sweep) == 0 || v.dich.sweepMech.mech != m.mech {
		h.SetTextContent(fmt.Sprintf("This trial is on the inaccurate side (excess/D above 1/150). Where the accurate side begins "+
			"is measured, not guessed: sweep the slider in stage 5, and this line will say which %s reached it.", name))
		return
	}
	so := ""
	if v.dich.sweepRun != nil {
		so = " so far"
	}
	best := v.dich.sweep[0]
	for _, pt := range v.dich.sweep {
		if pt.excess <= accurateCut {
			h.SetAttribute("data-first-accurate", strconv.FormatFloat(pt.param, 'g', -1, 64))
			h.SetTextContent(fmt.Sprintf("In the sweep of stage 5%s, the mean excess/D over %d trials first fell to 1/150 or below at %s = %s "+
				"(mean %s): move the slider there to reach the accurate side.", so, sweepTrials, name, fmtNum(pt.param), fmtNum(pt.excess)))
			return
		}
		if pt.excess < best.excess {
			best = pt
		}
	}
	h.SetAttribute("data-best", strconv.FormatFloat(best.excess, 'g', -1, 64))
	h.SetAttribute("data-best-param", strconv.FormatFloat(best.param, 'g', -1, 64))
	last := v.dich.sweep[len(v.dich.sweep)-1].param
	h.SetTextContent(fmt.Sprintf("In the sweep of stage 5%s, no %s up to %s reached the accurate side on average: the lowest mean excess/D "+
		"over %d trials was %s, at %s = %s, above 1/150 ≈ 0.0067 (a single trial may still land below the line).",
		so, name, fmtNum(last), sweepTrials, fmtNum(best.excess), name, fmtNum(best.param)))
}

// ---- stage 6: soundness ----
