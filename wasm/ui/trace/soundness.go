//go:build js && wasm

package trace

import (
	"fmt"
	"math"
	"strconv"

	"github.com/dpsample/dpsample/core/checks"
	"github.com/dpsample/dpsample/core/fingerprint"
	"github.com/dpsample/dpsample/core/lowerbound"
	"github.com/dpsample/dpsample/core/plot"
	"github.com/dpsample/dpsample/wasm/internal/jsio"
	"github.com/dpsample/dpsample/wasm/ui/internal/kit"
	"honnef.co/go/js/dom/v2"
)

// traceSoundStage is stage 6: soundness — remove one person and count who is accused.
type traceSoundStage struct {
	soundBtn   kit.Elem
	soundStop  kit.Elem
	soundProg  kit.Elem
	soundRates kit.Elem
	soundPlot  kit.Elem
	implied    kit.Elem
	claimed    kit.Elem
	trialsF    kit.NumberField
	remove     *dom.HTMLSelectElement
	worst      kit.Elem
	warn       kit.Elem
	soundRun   *remoteRun
	snd        soundTally
}

// soundTally accumulates the soundness run: the worker's chunks, pooled by
// lowerbound.Pool (the page computes no statistic itself).
type soundTally struct {
	mech                       traceMech
	su                         traceSetup
	user                       int
	runs                       []lowerbound.Experiment
	pooled                     *lowerbound.Pooled
	history                    [][4]float64 // trials, traced, member, removed rates
	tracedN, memberN, removedN int
}

func (v *traceView) buildSoundness() {
	s := stage(v.pre+"-stage-soundness", "6. Soundness: remove a person and try again")
	form := kit.El("form", "class", "controls", "novalidate", "")
	rw := kit.El("div", "class", "field")
	v.sound.remove = kit.AsSelect(kit.El("select", "id", v.pre+"-remove"))
	kit.AppendAll(rw, kit.Text("label", "remove person", "for", v.pre+"-remove"), v.sound.remove)
	v.sound.trialsF = kit.NewNumberField(v.pre+"-trials", "trials", "100", "1", "fresh code each trial")
	bw := kit.El("div", "class", "field")
	css(bw, "justify-content", "flex-end", "flex-direction", "row", "gap", "8px", "align-self", "center")
	v.sound.soundBtn = kit.Text("button", "Run", "type", "submit", "id", v.pre+"-sound-run")
	v.sound.soundStop = kit.Text("button", "Stop", "type", "button", "id", v.pre+"-sound-stop", "class", "secondary", "disabled", "")
	kit.AppendAll(bw, v.sound.soundBtn, v.sound.soundStop)
	kit.AppendAll(form, rw, v.sound.trialsF.Wrap, bw)
	v.sound.worst = kit.Text("p", "", "id", v.pre+"-worst", "class", "detail")
	v.sound.warn = banner(v.pre+"-sound-warning", "warn")
	v.sound.soundProg = kit.El("progress", "id", v.pre+"-sound-progress", "max", "1", "value", "0", "hidden", "", "aria-label", "progress of the soundness runs")
	v.sound.soundRates = kit.El("div", "id", v.pre+"-sound-rates", "aria-live", "polite")
	v.sound.implied = kit.El("p", "id", v.pre+"-implied", "class", "result")
	css(v.sound.implied, "font-size", "16px")
	v.sound.claimed = kit.Text("p", "", "id", v.pre+"-claimed", "class", "detail")
	v.sound.soundPlot = kit.El("figure", "id", v.pre+"-sound-plot", "class", "plot")
	kit.AppendAll(s, v.narrationWithNote("The other half of the argument. Each trial draws a fresh code, runs the mechanism on the full data set "+
		"and again on the data without the chosen person (all k copies of their row; the mechanism's parameters stay the ones the full "+
		"data set fixed), and traces both answers. Without their rows the person is an innocent. Soundness (in the notes) asks that an innocent "+
		"be accused with probability ≤ ξ whatever the mechanism outputs. With this code's constants that holds only approximately, "+
		"and only when Φ̄(√ln(n/ξ)) ≤ ξ: the next line gives the worst output's rate for the code drawn above. "+
		"After a run, the list below says how often this person was actually accused in N runs without them, with a 95 % Clopper–Pearson "+
		"interval, and the exact probability computed from each code's secret key. If the mechanism is (ε, δ)-DP, then "+
		"P[accused | in the data] ≤ e^ε·P[accused | removed] + δ, so the two rates give a lower bound on ε. On the constants, see ", 7, "."),
		v.sound.worst, v.sound.warn, form, v.sound.soundProg, v.sound.soundRates, v.sound.implied, v.sound.claimed, v.sound.soundPlot)
	v.root.AppendChild(s)
	kit.On(form, "submit", false, func(e kit.Event) { e.PreventDefault(); v.runSound() })
	kit.On(v.sound.soundStop, "click", false, func(kit.Event) { v.sound.soundRun.abort() })
}

// drawWorst states the worst case over outputs of Definition G.1's
// soundness for the walk-through trial's code (ex.Soundness, computed by the
// core from the code's key), with the warning when it exceeds ξ.
func (v *traceView) drawWorst(ex *lowerbound.Experiment, su traceSetup) {
	sd := ex.Soundness
	approx := "Φ̄(√ln(n/ξ))"
	lead := "for the worst output (all ones) an innocent is accused with probability"
	if su.mode == fingerprint.Symmetric {
		approx = "Φ̄(√(2·ln(n/ξ)))"
		lead = "practical code: an innocent's score has the same variance for every output; for the all-ones output an innocent is accused with probability"
	}
	meets := "which this worst case meets."
	if sd.WorstCaseExceedsXi {
		meets = "which this worst case exceeds (see the warning)."
	}
	v.sound.worst.SetTextContent(fmt.Sprintf("Code drawn above (n = %d, ξ = %s): %s %s (exact, from this code's key); normal approximation %s = %s. "+
		"Soundness asks ≤ ξ = %s, %s", su.n, fmtNum(su.xi), lead, fmtNum(sd.WorstCaseExact), approx, fmtNum(sd.WorstCaseGaussian), fmtNum(su.xi), meets))
	v.sound.worst.SetAttribute("data-exact", strconv.FormatFloat(sd.WorstCaseExact, 'g', -1, 64))
	v.sound.worst.SetAttribute("data-gaussian", strconv.FormatFloat(sd.WorstCaseGaussian, 'g', -1, 64))
	v.sound.worst.SetAttribute("data-exceeds", strconv.FormatBool(sd.WorstCaseExceedsXi))
	kit.Show(v.sound.warn, sd.WorstCaseExceedsXi)
	worst := fmtNum(math.Max(sd.WorstCaseExact, sd.WorstCaseGaussian))
	if su.mode == fingerprint.Symmetric {
		v.sound.warn.SetTextContent(fmt.Sprintf("At ξ = %s the practical code (a heuristic, not Algorithm 2) is not ξ-sound for arbitrary outputs: "+
			"an innocent is accused with probability %s > ξ (≈ %s).", fmtNum(su.xi), worst, approx))
		return
	}
	v.sound.warn.SetTextContent(fmt.Sprintf("At ξ = %s this code is not ξ-sound for arbitrary outputs: the all-ones output gets an innocent "+
		"accused with probability %s > ξ. This is a gap between Algorithm 2's constants (threshold Z/2, d₀ = 100n²ln(n/ξ)) and the promise they are meant to keep, "+
		"not a bug in this page (note 7 on the paper, below). The rate is ≈ %s, and it exceeds ξ once ξ ≲ 1/(2πn·ln(n/ξ)).", fmtNum(su.xi), worst, approx))
}

func (v *traceView) fillRemove() {
	cur := v.sound.remove.Value()
	v.sound.remove.SetInnerHTML("")
	for i := range v.su.n {
		o := kit.Text("option", fmt.Sprintf("person %d", i+1), "value", strconv.Itoa(i))
		if strconv.Itoa(i) == cur {
			o.SetAttribute("selected", "")
		}
		v.sound.remove.AppendChild(o)
	}
}

func (v *traceView) runSound() {
	if v.sound.soundRun != nil {
		return
	}
	m, ok := v.readMech()
	if !ok {
		return
	}
	tf, err := v.sound.trialsF.Value("trials")
	if err == nil {
		err = checks.IntRange("trials", int(tf), 1, 5000)
	}
	v.sound.trialsF.SetError(err)
	if err != nil {
		return
	}
	total := int(tf)
	user, _ := strconv.Atoi(v.sound.remove.Value())
	su := v.su
	v.sound.snd = soundTally{mech: m, su: su, user: user}
	run := &remoteRun{}
	v.sound.soundRun = run
	v.sound.soundBtn.SetAttribute("disabled", "")
	v.sound.soundStop.RemoveAttribute("disabled")
	kit.Show(v.sound.soundProg, true)
	v.root.SetAttribute("data-sound", "running")
	v.sound.soundRates.SetTextContent("Running in the worker…")
	go func() {
		defer func() {
			v.sound.soundRun = nil
			v.sound.soundBtn.RemoveAttribute("disabled")
			v.sound.soundStop.SetAttribute("disabled", "")
			kit.Show(v.sound.soundProg, false)
			v.root.SetAttribute("data-sound", "done")
		}()
		for v.sound.snd.trials() < total {
			done := v.sound.snd.trials()
			n := min(soundChunk, total-done)
			opts := m.lbOptions(su)
			opts.Seed, opts.Trials, opts.Remove, opts.Ghosts = nil, n, &user, 10
			ex, err := runLowerbound(opts, run, func(f float64) {
				v.sound.soundProg.SetAttribute("value", strconv.FormatFloat((float64(done)+f*float64(n))/float64(total), 'f', 3, 64))
			})
			if err != nil {
				if !jsio.IsAbort(err) {
					v.sound.soundRates.SetTextContent("The run failed: " + err.Error())
				}
				return
			}
			if err := v.sound.snd.add(ex); err != nil {
				v.sound.soundRates.SetTextContent("The run failed: " + err.Error())
				return
			}
			v.drawSound()
		}
	}()
}

func (t *soundTally) trials() int {
	if t.pooled == nil {
		return 0
	}
	return t.pooled.Trials
}

// add pools one chunk of trials with the previous ones (lowerbound.Pool) and
// extends the running rates of the plot.
func (t *soundTally) add(ex *lowerbound.Experiment) error {
	e := *ex
	e.Last = nil // the plot of stage 4 shows the walk-through trial, not these
	p, err := lowerbound.Pool(append(t.runs, e)...)
	if err != nil {
		return err
	}
	t.runs = append(t.runs, e)
	for i := range e.Trials {
		if e.Traced[i] {
			t.tracedN++
		}
		if e.MemberAccused[i] {
			t.memberN++
		}
		if e.RemovedAccused[i] {
			t.removedN++
		}
		n := float64(len(t.history) + 1)
		t.history = append(t.history, [4]float64{n, float64(t.tracedN) / n, float64(t.memberN) / n, float64(t.removedN) / n})
	}
	t.pooled = &p
	return nil
}

// ofN prints "x of N = r, 95 % Clopper–Pearson [lo, hi]".
func ofN(x, n int, ci [2]float64, what string) string {
	return fmt.Sprintf("%d of %d %s = %s, 95 %% Clopper–Pearson [%s, %s]", x, n, what, fmtNum(float64(x)/float64(n)), fmtNum(ci[0]), fmtNum(ci[1]))
}

func optNum(p *float64, none string) string {
	if p == nil {
		return none
	}
	return fmtNum(*p)
}

func (v *traceView) drawSound() {
	t := &v.sound.snd
	p := t.pooled
	if p == nil {
		return
	}
	u := t.user + 1
	n := p.Trials
	sd := p.Soundness
	v.sound.soundRates.SetInnerHTML("")
	ul := kit.El("ul")
	removed := fmt.Sprintf("Person %d accused on the data without them: %s; exact probability for these codes and outputs %s; Definition G.1 asks ≤ ξ = %s.",
		u, ofN(sd.RemovedHits, n, *sd.RemovedCI, "runs"), optNum(sd.RemovedExact, "—"), fmtNum(sd.Xi))
	if sd.RemovedHits == 0 {
		removed += fmt.Sprintf(" (0 hits: the upper end 1 − 0.025^(1/%d) = %s ≈ 3.7/%d is all %d runs can show.)", n, fmtNum(sd.RemovedCI[1]), n, n)
	}
	ghost := "—"
	if p.GhostScored > 0 {
		ghost = fmtNum(float64(p.GhostAccused) / float64(p.GhostScored))
	}
	kit.AppendAll(ul,
		kit.Text("li", fmt.Sprintf("trials: %d (%s; n = %d, ξ = %s, k = %d cop%s)", n, t.mech.label(), t.su.n, fmtNum(t.su.xi), t.su.copies,
			map[bool]string{true: "y", false: "ies"}[t.su.copies == 1])),
		kit.Text("li", "Trace returned a member on the full data: "+ofN(p.Traced, n, p.TracedCI, "runs")+"."),
		kit.Text("li", fmt.Sprintf("Person %d accused on the full data: %s.", u, ofN(p.MemberHits, n, p.MemberCI, "runs"))),
		kit.Text("li", removed, "id", v.pre+"-removed-line"),
		kit.Text("li", fmt.Sprintf("ghost (innocent) accusation rate: %s over %d ghost scores, scored against the full-data output "+
			"(not the output without person %d); exact %s.", ghost, p.GhostScored, u, fmtNum(sd.GhostExact))),
	)
	v.sound.soundRates.AppendChild(ul)
	r := v.sound.soundRates
	r.SetAttribute("data-trials", strconv.Itoa(n))
	r.SetAttribute("data-traced", strconv.Itoa(p.Traced))
	r.SetAttribute("data-member", strconv.Itoa(p.MemberHits))
	r.SetAttribute("data-removed", strconv.Itoa(sd.RemovedHits))
	r.SetAttribute("data-removed-lo", strconv.FormatFloat(sd.RemovedCI[0], 'g', -1, 64))
	r.SetAttribute("data-removed-hi", strconv.FormatFloat(sd.RemovedCI[1], 'g', -1, 64))
	r.SetAttribute("data-xi", strconv.FormatFloat(sd.Xi, 'g', -1, 64))

	imp, c := p.ImpliedEpsilon, p.Claim
	est := "none"
	switch {
	case imp.Estimate != nil:
		est = fmtNum(*imp.Estimate)
	case sd.RemovedHits == 0:
		est = fmt.Sprintf("none (person %d was never accused without their rows)", u)
	default:
		est = "none (p̂₁ ≤ δ)"
	}
	shows := fmt.Sprintf("What this attack shows (%d runs, δ = %s): any (ε, δ)-DP mechanism with these accusation rates "+
		"has ε ≥ %s (95 %%). Point estimate %s. The interval [%s, %s] is about the attack's rates; it does not bound the mechanism's ε from above. "+
		"With %d runs the lower bound can be at most %s ≈ ln(N/3.7). ",
		n, fmtNum(imp.Delta), fmtNum(imp.Lower), est, fmtNum(imp.Lower), optNum(imp.Upper, "∞"), n, optNum(imp.Ceiling, "—"))
	if imp.Limit != nil {
		shows += fmt.Sprintf("As runs grow the estimate settles near ln((p̂₁ − δ)/p₀) = %s, p₀ = %s being the exact probability "+
			"that person %d is accused without their rows.", fmtNum(*imp.Limit), optNum(sd.RemovedExact, "—"), u)
	} else {
		shows += fmt.Sprintf("Person %d was accused in at most a δ share of the runs even with their rows in the data (p̂₁ ≤ δ), "+
			"so these runs give no evidence against any ε; without their rows the exact probability is p₀ = %s.", u, optNum(sd.RemovedExact, "—"))
	}
	v.sound.implied.SetTextContent(shows)
	v.sound.implied.SetAttribute("data-lower", strconv.FormatFloat(imp.Lower, 'g', -1, 64))
	claimed := "Infinity" // no claim, as JS reads it
	if c.Epsilon != nil {
		claimed = strconv.FormatFloat(*c.Epsilon, 'g', -1, 64)
	}
	v.sound.implied.SetAttribute("data-claimed", claimed)
	v.sound.implied.SetAttribute("data-claimed-delta", strconv.FormatFloat(c.Delta, 'g', -1, 64))
	if imp.Ceiling != nil {
		v.sound.implied.SetAttribute("data-ceiling", strconv.FormatFloat(*imp.Ceiling, 'g', -1, 64))
	}
	if imp.Limit != nil {
		v.sound.implied.SetAttribute("data-limit", strconv.FormatFloat(*imp.Limit, 'g', -1, 64))
	}
	var say string
	switch {
	case c.Epsilon == nil:
		say = fmt.Sprintf("The median is not private, and the attack shows it: with 95 %% confidence no mechanism with these accusation rates "+
			"is ε-DP for ε < %s (%d runs; with %d runs this can be at most %s ≈ ln(N/3.7)). More runs raise it only to about "+
			"ln((p̂₁ − δ)/p₀) = %s. Even without their rows the person is accused with probability p₀ = %s (exact, from the codes' keys), "+
			"so this attack cannot certify an ε much above %s, however long it runs.",
			fmtNum(imp.Lower), n, n, optNum(imp.Ceiling, "—"), optNum(imp.Limit, "—"), optNum(sd.RemovedExact, "—"), optNum(imp.Limit, "—"))
	default:
		say = fmt.Sprintf("What the mechanism promises for one person's %d row%s: ε = %s, δ = %s. ", c.Copies,
			map[bool]string{true: "", false: "s"}[c.Copies == 1], fmtNum(*c.Epsilon), fmtNum(c.Delta))
		if imp.Lower > *c.Epsilon {
			say += fmt.Sprintf("The attack's lower bound %s exceeds the claimed ε = %s: this would be a privacy bug.", fmtNum(imp.Lower), fmtNum(*c.Epsilon))
		} else {
			say += fmt.Sprintf("Consistent: the attack's lower bound %s does not exceed the claimed ε = %s.", fmtNum(imp.Lower), fmtNum(*c.Epsilon))
		}
	}
	if c.Copies > 1 {
		switch c.Rule {
		case "gdp":
			say += fmt.Sprintf(" With k = %d copies, removing a person removes %d rows. The Gaussian mechanism and Algorithm 1 are s-GDP per row, "+
				"so they are (k·s)-GDP per person (group privacy for Gaussian DP), "+
				"k·s = %s: ε = kε = %s, δ = δ_{k·s}(kε) = %s. The generic rule k·e^{(k−1)ε}·δ = %s is also valid but looser. The implied ε above uses δ = %s.",
				c.Copies, c.Copies, fmtNum(c.GDP), optNum(c.Epsilon, "—"), fmtNum(c.Delta), fmtNum(c.DeltaGeneric), fmtNum(c.Delta))
		case "pure":
			say += fmt.Sprintf(" With k = %d copies, removing a person removes %d rows; the box mechanism's λ is fixed by the full data, so the promise "+
				"is kε = %s with δ = 0.", c.Copies, c.Copies, optNum(c.Epsilon, "—"))
		}
	}
	v.sound.claimed.SetTextContent(say)
	var x, tr, mem, rem []float64
	for _, h := range t.history {
		x, tr, mem, rem = append(x, h[0]), append(tr, h[1]), append(mem, h[2]), append(rem, h[3])
	}
	pl := &plot.Plot{
		Title: "Running rates", XLabel: "trials", YLabel: "rate", YMin: 0, YMax: 1.6, Height: 320,
		Desc: "Running estimates of P[Trace in data], P[person accused while in the data] and P[person accused without their rows], with ξ.",
		Series: []plot.Series{
			{Name: "P[Trace ∈ data]", X: x, Y: tr, Color: "#009E73"},
			{Name: fmt.Sprintf("P[%d accused | in]", u), X: x, Y: mem, Color: "#D55E00", Dashed: true},
			{Name: fmt.Sprintf("P[%d accused | removed]", u), X: x, Y: rem, Color: "#0072B2"},
		},
		Rules: []plot.Rule{{Label: "ξ", At: t.su.xi, Horizontal: true, Color: "#000000"}},
	}
	v.sound.soundPlot.SetInnerHTML(kit.FitWidth(v.sound.soundPlot, pl).SVG())
}
