//go:build js && wasm

package ui

import (
	"fmt"
	"math"
	"strconv"

	"honnef.co/go/js/dom/v2"

	"github.com/dpsample/dpsample/core/checks"
	"github.com/dpsample/dpsample/core/lowerbound"
	"github.com/dpsample/dpsample/core/plot"
	"github.com/dpsample/dpsample/core/privacy"
	"github.com/dpsample/dpsample/wasm/internal/jsio"
)

// traceSoundStage is stage 6: soundness — remove one person and count who is accused.
type traceSoundStage struct {
	soundBtn   dom.Element
	soundStop  dom.Element
	soundProg  dom.Element
	soundRates dom.Element
	soundPlot  dom.Element
	implied    dom.Element
	claimed    dom.Element
	trialsF    numberField
	remove     *dom.HTMLSelectElement
	soundRun   *remoteRun
	snd        soundTally
}

// soundTally accumulates the soundness run.
type soundTally struct {
	mech                           traceMech
	su                             traceSetup
	user                           int
	trials, traced, member, remove int
	ghostAcc, ghostN               int
	epsClaim, deltaClaim           float64
	history                        [][4]float64 // trials, traced, member, removed rates
}

func (v *traceView) buildSoundness() {
	s := stage(v.pre+"-stage-soundness", "6. Soundness: remove a person and try again")
	form := el("form", "class", "controls", "novalidate", "")
	rw := el("div", "class", "field")
	v.sound.remove = el("select", "id", v.pre+"-remove").(*dom.HTMLSelectElement)
	appendAll(rw, text("label", "remove person", "for", v.pre+"-remove"), v.sound.remove)
	v.sound.trialsF = newNumberField(v.pre+"-trials", "trials", "100", "1", "fresh code each trial")
	bw := el("div", "class", "field")
	css(bw, "justify-content", "flex-end", "flex-direction", "row", "gap", "8px", "align-self", "center")
	v.sound.soundBtn = text("button", "Run", "type", "submit", "id", v.pre+"-sound-run")
	v.sound.soundStop = text("button", "Stop", "type", "button", "id", v.pre+"-sound-stop", "class", "secondary", "disabled", "")
	appendAll(bw, v.sound.soundBtn, v.sound.soundStop)
	appendAll(form, rw, v.sound.trialsF.wrap, bw)
	v.sound.soundProg = el("progress", "id", v.pre+"-sound-progress", "max", "1", "value", "0", "hidden", "")
	v.sound.soundRates = el("div", "id", v.pre+"-sound-rates", "aria-live", "polite")
	v.sound.implied = el("p", "id", v.pre+"-implied", "class", "result")
	css(v.sound.implied, "font-size", "16px")
	v.sound.claimed = text("p", "", "id", v.pre+"-claimed", "class", "detail")
	v.sound.soundPlot = el("figure", "id", v.pre+"-sound-plot", "class", "plot")
	appendAll(s, narration("The other half of the argument. Each trial draws a fresh code, runs the mechanism on the full data set "+
		"and again on the data without the chosen person (all k copies), and traces both answers. Without their row the person is an "+
		"innocent, and the code's soundness says they are accused with probability at most ξ (Definition G.1, per person). "+
		"If the mechanism is (ε, δ)-DP, then P[accused | in data] ≤ e^ε·P[accused | removed] + δ; the rates below therefore imply a "+
		"lower bound on ε, with 95% Clopper–Pearson intervals on both rates."),
		form, v.sound.soundProg, v.sound.soundRates, v.sound.implied, v.sound.claimed, v.sound.soundPlot)
	v.root.AppendChild(s)
	form.AddEventListener("submit", false, func(e dom.Event) { e.PreventDefault(); v.runSound() })
	v.sound.soundStop.AddEventListener("click", false, func(dom.Event) { v.sound.soundRun.abort() })
}

func (v *traceView) fillRemove() {
	cur := v.sound.remove.Value()
	v.sound.remove.SetInnerHTML("")
	for i := range v.su.n {
		o := text("option", fmt.Sprintf("person %d", i+1), "value", strconv.Itoa(i))
		if strconv.Itoa(i) == cur {
			o.SetAttribute("selected", "")
		}
		v.sound.remove.AppendChild(o)
	}
}

// claim is the privacy the mechanism promises for removing one person's k
// rows: group privacy (privacy.Group; Lemma 3.6 copies each row k times).
func claim(m traceMech, ex *lowerbound.Experiment, copies int) (eps, delta float64) {
	switch m.mech {
	case lowerbound.Median:
		return math.Inf(1), 0
	case lowerbound.BoxExponential:
		eps, delta, err := privacy.Group(copies, ex.Mechanism.Epsilon, 0)
		if err != nil {
			return math.Inf(1), 0 // no claim
		}
		return eps, delta
	}
	eps, delta, err := privacy.Group(copies, m.eps(), m.delta)
	if err != nil {
		return math.Inf(1), 0
	}
	return eps, delta
}

func (v *traceView) runSound() {
	if v.sound.soundRun != nil {
		return
	}
	m, ok := v.readMech()
	if !ok {
		return
	}
	tf, err := v.sound.trialsF.value("trials")
	if err == nil {
		err = checks.IntRange("trials", int(tf), 1, 5000)
	}
	v.sound.trialsF.setError(err)
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
	show(v.sound.soundProg, true)
	v.root.SetAttribute("data-sound", "running")
	v.sound.soundRates.SetTextContent("Running in the worker…")
	go func() {
		defer func() {
			v.sound.soundRun = nil
			v.sound.soundBtn.RemoveAttribute("disabled")
			v.sound.soundStop.SetAttribute("disabled", "")
			show(v.sound.soundProg, false)
			v.root.SetAttribute("data-sound", "done")
		}()
		for v.sound.snd.trials < total {
			n := min(soundChunk, total-v.sound.snd.trials)
			opts := m.lbOptions(su)
			opts.Seed, opts.Trials, opts.Remove, opts.Ghosts = nil, n, &user, 10
			done := v.sound.snd.trials
			ex, err := runLowerbound(opts, run, func(f float64) {
				v.sound.soundProg.SetAttribute("value", strconv.FormatFloat((float64(done)+f*float64(n))/float64(total), 'f', 3, 64))
			})
			if err != nil {
				if !jsio.IsAbort(err) {
					v.sound.soundRates.SetTextContent("The run failed: " + err.Error())
				}
				return
			}
			v.sound.snd.add(ex)
			v.drawSound()
		}
	}()
}

func (t *soundTally) add(ex *lowerbound.Experiment) {
	for i := range ex.Trials {
		t.trials++
		if ex.Traced[i] {
			t.traced++
		}
		if ex.MemberAccused[i] {
			t.member++
		}
		if ex.RemovedAccused[i] {
			t.remove++
		}
		n := float64(t.trials)
		t.history = append(t.history, [4]float64{n, float64(t.traced) / n, float64(t.member) / n, float64(t.remove) / n})
	}
	t.ghostAcc += ex.GhostAccused
	t.ghostN += ex.GhostScored
	t.epsClaim, t.deltaClaim = claim(t.mech, ex, t.su.copies)
}

func ciText(x, n int) string {
	lo, hi := lowerbound.ClopperPearson(x, n, 0.05)
	return fmt.Sprintf("%s [%s, %s]", fmtNum(float64(x)/float64(n)), fmtNum(lo), fmtNum(hi))
}

func (v *traceView) drawSound() {
	t := &v.sound.snd
	if t.trials == 0 {
		return
	}
	u := t.user + 1
	v.sound.soundRates.SetInnerHTML("")
	ul := el("ul")
	ghost := "—"
	if t.ghostN > 0 {
		ghost = fmtNum(float64(t.ghostAcc) / float64(t.ghostN))
	}
	appendAll(ul,
		text("li", fmt.Sprintf("trials: %d (%s)", t.trials, t.mech.label())),
		text("li", fmt.Sprintf("P[Trace ∈ data] on the full data: %s", ciText(t.traced, t.trials))),
		text("li", fmt.Sprintf("P[person %d ∈ A | in the data]: %s", u, ciText(t.member, t.trials))),
		text("li", fmt.Sprintf("P[person %d ∈ A | removed]: %s — the code promises ≤ ξ = %s", u, ciText(t.remove, t.trials), fmtNum(t.su.xi))),
		text("li", fmt.Sprintf("ghost (innocent) accusation rate: %s over %d ghost scores", ghost, t.ghostN)),
	)
	v.sound.soundRates.AppendChild(ul)
	v.sound.soundRates.SetAttribute("data-trials", strconv.Itoa(t.trials))
	v.sound.soundRates.SetAttribute("data-traced", strconv.Itoa(t.traced))
	v.sound.soundRates.SetAttribute("data-member", strconv.Itoa(t.member))
	v.sound.soundRates.SetAttribute("data-removed", strconv.Itoa(t.remove))
	v.sound.soundRates.SetAttribute("data-xi", strconv.FormatFloat(t.su.xi, 'g', -1, 64))

	imp := lowerbound.ImpliedEpsilon(t.member, t.remove, t.trials, t.deltaClaim, 0.05)
	est := "unbounded (never accused after removal)"
	if imp.Estimate != nil {
		est = fmtNum(*imp.Estimate)
	} else if float64(t.member)/float64(t.trials) <= t.deltaClaim || t.member == 0 {
		est = "0 (never accused while in the data)"
	}
	up := "∞"
	if imp.Upper != nil {
		up = fmtNum(*imp.Upper)
	}
	v.sound.implied.SetTextContent(fmt.Sprintf("ε implied by the attack: %s, 95%% interval [%s, %s] · claimed ε = %s",
		est, fmtNum(imp.Lower), up, fmtNum(t.epsClaim)))
	v.sound.implied.SetAttribute("data-lower", strconv.FormatFloat(imp.Lower, 'g', -1, 64))
	claimed := strconv.FormatFloat(t.epsClaim, 'g', -1, 64)
	if math.IsInf(t.epsClaim, 1) {
		claimed = "Infinity" // as JS reads it
	}
	v.sound.implied.SetAttribute("data-claimed", claimed)
	var say string
	switch {
	case math.IsInf(t.epsClaim, 1):
		say = fmt.Sprintf("The median is not private, and the attack proves it: with 95%% confidence no mechanism that behaves like this is ε-DP for ε < %s "+
			"(more trials push this up without limit).", fmtNum(imp.Lower))
	case imp.Lower > t.epsClaim:
		say = "The attack's lower bound exceeds the claimed ε — this would be a privacy bug."
	default:
		say = fmt.Sprintf("Consistent: the attack's lower bound %s does not exceed the claimed ε = %s (δ = %s). "+
			"Claims this large are what accuracy costs on this problem: D ≫ n².", fmtNum(imp.Lower), fmtNum(t.epsClaim), fmtNum(t.deltaClaim))
	}
	if t.su.copies > 1 {
		say += fmt.Sprintf(" With k = %d copies of each row, removing a person removes k rows, so the claim is group privacy (Lemma 3.6): kε and k·e^{(k−1)ε}·δ.", t.su.copies)
	}
	v.sound.claimed.SetTextContent(say)
	var x, tr, mem, rem []float64
	for _, h := range t.history {
		x, tr, mem, rem = append(x, h[0]), append(tr, h[1]), append(mem, h[2]), append(rem, h[3])
	}
	p := &plot.Plot{
		Title: "Running rates", XLabel: "trials", YLabel: "rate", YMin: 0, YMax: 1.6, Height: 320,
		Desc: "Running estimates of P[Trace in data], P[person accused while in the data] and P[person accused after removal], with ξ.",
		Series: []plot.Series{
			{Name: "P[Trace ∈ data]", X: x, Y: tr, Color: "#009E73"},
			{Name: fmt.Sprintf("P[%d accused | in]", u), X: x, Y: mem, Color: "#D55E00", Dashed: true},
			{Name: fmt.Sprintf("P[%d accused | removed]", u), X: x, Y: rem, Color: "#0072B2"},
		},
		Rules: []plot.Rule{{Label: "ξ", At: t.su.xi, Horizontal: true, Color: "#000000"}},
	}
	v.sound.soundPlot.SetInnerHTML(fitWidth(v.sound.soundPlot, p).SVG())
}

// ---- stage 7: what the paper's text gets wrong ----
