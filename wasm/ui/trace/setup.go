//go:build js && wasm

package trace

import (
	"fmt"
	"math"
	"strconv"
	"time"

	"github.com/dpsample/dpsample/core/checks"
	"github.com/dpsample/dpsample/core/fingerprint"
	"github.com/dpsample/dpsample/wasm/ui/internal/kit"
	"honnef.co/go/js/dom/v2"
)

// traceSetupStage is stage 1: the code (n, ξ, k copies, mode) and its sizes.
type traceSetupStage struct {
	nF        kit.NumberField
	xiF       kit.NumberField
	kF        kit.NumberField
	mode      *dom.HTMLSelectElement
	practical kit.Elem
	xiWarn    kit.Elem
	lengths   kit.Elem
	counts    kit.Elem
	xiTouched bool
	setupGen  int
}

func (v *traceView) buildSetup() {
	s := stage(v.pre+"-stage-setup", "1. The code: who is in the data")
	form := kit.El("form", "class", "controls", "novalidate", "")
	v.setup.nF = kit.NewNumberField(v.pre+"-n", "n (people)", "4", "1", "distinct users, 2–16")
	v.setup.xiF = kit.NewNumberField(v.pre+"-xi", "ξ (code security)", "0.0625", "any", "default 1/(4n)")
	v.setup.kF = kit.NewNumberField(v.pre+"-k", "k (copies of each row)", "1", "1", "a person with k rows (group privacy)")
	modeWrap := kit.El("div", "class", "field")
	v.setup.mode = kit.AsSelect(kit.El("select", "id", v.pre+"-mode"))
	kit.AppendAll(v.setup.mode.BasicHTMLElement,
		kit.Text("option", "proven length (Algorithm 2)", "value", "tardos"),
		kit.Text("option", "practical length (heuristic)", "value", "symmetric"))
	kit.AppendAll(modeWrap, kit.Text("label", "code length", "for", v.pre+"-mode"), v.setup.mode, kit.Text("small", "d₀ = ⌈100n²ln(n/ξ)⌉ or ℓ = ⌈10n²ln(n/ξ)⌉", "class", "help"))
	kit.AppendAll(form, v.setup.nF.Wrap, v.setup.xiF.Wrap, v.setup.kF.Wrap, modeWrap)
	v.setup.practical = banner(v.pre+"-practical-banner", "note")
	v.setup.practical.SetTextContent("Practical length: a shorter heuristic code (ℓ = ⌈10n²ln(n/ξ)⌉, Škorić's symmetric score, " +
		"threshold √(2ℓ·ln(n/ξ))). It is NOT the proven construction of the paper's Algorithm 2; its guarantees here are measured, not proven.")
	v.setup.xiWarn = banner(v.pre+"-xi-warning", "warn")
	v.setup.lengths = kit.El("p", "id", v.pre+"-lengths", "class", "result")
	css(v.setup.lengths, "font-size", "16px")
	v.setup.counts = kit.Text("p", "", "id", v.pre+"-counts", "class", "detail")
	// The construction and its symbols first, then the numbers that use them.
	kit.AppendAll(s, form, v.setup.practical, v.setup.xiWarn,
		narration("Algorithm 2 (Tardos' code with the Bun–Ullman–Vadhan padding): each of d₀ real columns j gets a secret bias p_j, "+
			"drawn between t and 1 − t with the cutoff t = 1/(300n), and person i's bit is 1 with probability p_j. Then 2d₀ all-0 "+
			"and 2d₀ all-1 dummy columns are added and all D = 5d₀ columns are shuffled by a secret permutation. A real column where "+
			"everybody happens to agree looks exactly like a dummy, which is what makes the code robust: an algorithm that gets some "+
			"unanimous columns wrong cannot tell whether it hit a real one. Tracing (stage 4) scores each person against the rounded "+
			"answer and accuses everyone whose score clears a line set in advance (Z/2, with Z = 20n·ln(n/ξ))."),
		v.setup.lengths, v.setup.counts)
	v.root.AppendChild(s)
	kit.On(form, "submit", false, func(e kit.Event) { e.PreventDefault() })
	kit.On(v.setup.nF.Input, "input", false, func(kit.Event) {
		if n, err := v.setup.nF.Value("n"); err == nil && !v.setup.xiTouched && n >= 2 && n == math.Trunc(n) {
			v.setup.xiF.Input.SetValue(strconv.FormatFloat(1/(4*n), 'g', 4, 64))
		}
		v.scheduleSetup()
	})
	kit.On(v.setup.xiF.Input, "input", false, func(kit.Event) { v.setup.xiTouched = true; v.scheduleSetup() })
	kit.On(v.setup.kF.Input, "input", false, func(kit.Event) { v.scheduleSetup() })
	kit.On(v.setup.mode, "change", false, func(kit.Event) { v.scheduleSetup() })
}

// readSetup validates the setup fields, showing errors inline.
func (v *traceView) readSetup() (traceSetup, bool) {
	su := v.su
	ok := true
	n, err := v.setup.nF.Value("n")
	if err == nil {
		err = checks.IntRange("n", int(n), 2, traceMaxN)
		if err == nil && n != math.Trunc(n) {
			err = checks.Errorf("n", "an integer in [2, %d], got %s", traceMaxN, checks.Fmt(n))
		}
	}
	v.setup.nF.SetError(err)
	ok = ok && err == nil
	su.n = int(n)
	xi, err := v.setup.xiF.Value("xi")
	if err == nil {
		err = checks.InRange("xi", xi, 0, 1)
		if err == nil && (xi <= 0 || xi >= 1) {
			err = checks.Errorf("xi", "a number in (0, 1), got %s", checks.Fmt(xi))
		}
	}
	v.setup.xiF.SetError(err)
	ok = ok && err == nil
	su.xi = xi
	k, err := v.setup.kF.Value("k")
	if err == nil {
		err = checks.IntRange("k", int(k), 1, 8)
		if err == nil && k != math.Trunc(k) {
			err = checks.Errorf("k", "an integer in [1, 8], got %s", checks.Fmt(k))
		}
	}
	v.setup.kF.SetError(err)
	ok = ok && err == nil
	su.copies = int(k)
	su.mode = fingerprint.Mode(v.setup.mode.Value())
	if ok {
		if _, err := fingerprint.Compute(fingerprint.Params{N: su.n, Xi: su.xi, Mode: su.mode}); err != nil {
			v.setup.xiF.SetError(err)
			ok = false
		}
	}
	return su, ok
}

// scheduleSetup runs setupChanged once the fields have been still for a
// moment: rebuilding the code takes the main thread ~0.2–0.4 s at n ≥ 8, which
// should happen once per edit, not per keystroke, and after the field has
// shown what was typed.
func (v *traceView) scheduleSetup() {
	v.setup.setupGen++
	gen := v.setup.setupGen
	if _, ok := v.readSetup(); ok {
		v.setup.counts.SetTextContent("Drawing the code…")
	}
	go func() {
		time.Sleep(200 * time.Millisecond) // a setTimeout: the page repaints meanwhile
		if gen == v.setup.setupGen {
			v.setupChanged()
		}
	}()
}

// setupChanged rebuilds the code and reruns the walk-through trial.
func (v *traceView) setupChanged() {
	su, ok := v.readSetup()
	if !ok {
		return
	}
	if su != v.su { // the dichotomy plane and the sweep show one code setup: Lemma G.2's ξ is that setup's
		v.dich.points, v.dich.sweep = nil, nil
		v.dich.sweepPlot.SetInnerHTML("")
		v.dich.sweepNote.SetTextContent("")
	}
	v.su = su
	kit.Show(v.setup.practical, su.mode == fingerprint.Symmetric)
	// The DP contradiction needs ξ < exp(−ε′)((1 − ξ)/n_k − δ′); at ε′ = 1, δ′ = 0: ξ < 1/(1 + e·n).
	lim := 1 / (1 + math.E*float64(su.n))
	kit.Show(v.setup.xiWarn, su.xi >= lim)
	v.setup.xiWarn.SetTextContent(fmt.Sprintf("ξ = %s is too large for the attack's privacy argument: it needs "+
		"ξ < exp(−ε′)·((1 − ξ)/n − δ′), i.e. ξ < %.3g at ε′ = 1. Tracing still works, but a "+
		"soundness rate of ξ would not contradict (1, 0)-DP. Use ξ ≤ 1/(4n) = %.3g.", fmtNum(su.xi), lim, 1/(4*float64(su.n))))
	rep, err := newTraceReplica(su)
	if err != nil {
		v.setup.xiF.SetError(err)
		return
	}
	v.rep = rep
	c := rep.code
	if su.mode == fingerprint.Symmetric {
		v.setup.lengths.SetTextContent(fmt.Sprintf("ℓ = %d real columns · D = 5ℓ = %d published columns · threshold √(2ℓ·ln(n/ξ)) = %.1f",
			c.D0, c.Length, c.Threshold))
	} else {
		v.setup.lengths.SetTextContent(fmt.Sprintf("d₀ = %d real columns · D = 5d₀ = %d published columns · Z = %.1f · Z/2 = %.1f",
			c.D0, c.Length, c.Z, c.Threshold))
	}
	v.setup.lengths.SetAttribute("data-d", strconv.Itoa(c.Length))
	v.setup.counts.SetTextContent(fmt.Sprintf("This draw: %d real columns (%d of them unanimous), %d dummy columns (%d all-0, %d all-1), "+
		"so %d of the %d columns are unanimous. The data set has %d rows: %d people × %d cop%s. ln(n/ξ) = %.3f, t = 1/(300n) = %.2g.",
		c.D0, rep.realUnan, 4*c.D0, 2*c.D0, 2*c.D0, rep.realUnan+4*c.D0, c.Length, su.n*su.copies, su.n, su.copies,
		map[bool]string{true: "y", false: "ies"}[su.copies == 1], c.K, c.T))
	if su.copies > 1 {
		v.setup.counts.AppendChild(kit.TextNode(fmt.Sprintf(" Group privacy: the code is built for the n_k = %d distinct people "+
			"and each row appears k = %d times, so a mechanism's per-row promise covers a person — all k of their rows — only through group privacy; stage 6 prints the per-person (ε, δ) the core computes for the chosen mechanism. Trace still names one of the %d people.",
			su.n, su.copies, su.n)))
	}
	v.drawCodebook()
	v.fillRemove()
	v.syncMechControls()
	v.runWalk()
}

// ---- stage 2: the codebook ----
