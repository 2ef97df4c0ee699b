//go:build js && wasm

package ui

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"syscall/js"
	"time"

	"honnef.co/go/js/dom/v2"

	"github.com/dpsample/dpsample/core/checks"
	"github.com/dpsample/dpsample/core/fingerprint"
	"github.com/dpsample/dpsample/core/lowerbound"
	"github.com/dpsample/dpsample/core/plot"
	"github.com/dpsample/dpsample/core/privacy"
	"github.com/dpsample/dpsample/wasm/internal/jsio"
)

// The "trace" view walks through the lower-bound attack of Lemma G.2 and
// Theorem 3.7 of the paper: a fingerprinting code becomes the
// dataset, a mechanism answers the ℓ1 ERM problem, the adversary rounds the
// answer at ½ and Trace names a member — or fails, when the answer is
// private and therefore inaccurate.
//
// Every trial runs in the Web Worker (lowerbound.run). The walk-through trial
// is seeded so that the page can rebuild the same code — and its secret key —
// on the main thread for the codebook strip: with the seed, Run's streams are
// root = rng.New(seed), then split(root) for the code, the mechanism and the
// ghosts, and fingerprint.New draws the biases, rows, permutation and trace
// coins from four streams of the code's generator. traceReplica mirrors
// those derivations for the first traceWindow columns; the view checks the
// permutation against the public column counts on every draw and, on
// request (data-verify="1"), the θ draws against the worker's excess.

const (
	traceWindow     = 60 // published columns shown in the strips
	traceGhosts     = 20 // ghost users in the walk-through trial
	traceMaxN       = 16 // larger codes are too slow to rebuild on the main thread
	soundChunk      = 20 // trials per worker call in the soundness run
	sweepTrials     = 6  // trials per parameter value in the dichotomy sweep
	accurateCut     = 1.0 / 150
	traceDefaultEps = 0 // log10 ε of the ε slider
)

// traceSetup is the code and dataset the page is showing.
type traceSetup struct {
	n      int
	xi     float64
	mode   fingerprint.Mode
	copies int
	seed   uint64
}

// traceMech is the mechanism chosen in stage 3.
type traceMech struct {
	mech   lowerbound.Mechanism
	logEps float64 // exponential, gaussian
	logS   float64 // box-exponential
	delta  float64
}

func (m traceMech) eps() float64 { return math.Pow(10, m.logEps) }
func (m traceMech) s() float64   { return math.Pow(10, m.logS) }

// label is how the mechanism and its parameter are named on the page.
func (m traceMech) label() string {
	switch m.mech {
	case lowerbound.Exponential:
		return fmt.Sprintf("Algorithm 1, ε = %s", fmtNum(m.eps()))
	case lowerbound.BoxExponential:
		return fmt.Sprintf("box exponential, s = %s", fmtNum(m.s()))
	case lowerbound.Gaussian:
		return fmt.Sprintf("Gaussian, ε = %s", fmtNum(m.eps()))
	}
	return "median (non-private)"
}

// traceReplica is the walk-through trial's code rebuilt on the main thread
// (lowerbound.Specimen replays the worker's seeded first trial exactly).
type traceReplica struct {
	su       traceSetup
	sp       *lowerbound.Specimen
	code     *fingerprint.Code
	permOK   bool // the key agrees with the public column counts everywhere
	realUnan int
}

// lbOptions are the options of lowerbound.run for m, seeded as the
// walk-through trial (the sweep and the soundness run clear Seed).
func (m traceMech) lbOptions(su traceSetup) lowerbound.Options {
	seed := su.seed
	o := lowerbound.Options{N: su.n, Xi: su.xi, Mode: su.mode, Mechanism: m.mech, Copies: su.copies, Seed: &seed}
	switch m.mech {
	case lowerbound.Exponential, lowerbound.Gaussian:
		o.Epsilon, o.Delta = m.eps(), m.delta
	case lowerbound.BoxExponential:
		s := m.s()
		o.S = &s
	}
	return o
}

// newTraceReplica rebuilds the code of lowerbound.Run's first trial for the
// seed, and checks its secret permutation against the public column counts.
func newTraceReplica(su traceSetup) (*traceReplica, error) {
	sp, err := lowerbound.NewSpecimen(traceMech{mech: lowerbound.Median}.lbOptions(su))
	if err != nil {
		return nil, err
	}
	code := sp.Code
	ok := true
	for k := range code.Length {
		o, s := code.Ones(k), code.Source(k)
		switch {
		case s >= 3*code.D0:
			ok = ok && o == su.n
		case s >= code.D0:
			ok = ok && o == 0
		}
	}
	return &traceReplica{su: su, sp: sp, code: code, permOK: ok, realUnan: code.RealUnanimous()}, nil
}

// columnKind is what the secret key says about published column k.
func (r *traceReplica) columnKind(k int) string {
	s, d0 := r.code.Source(k), r.code.D0
	switch {
	case s < d0:
		return "real"
	case s < 3*d0:
		return "dummy 0"
	}
	return "dummy 1"
}

// window returns θ on the first `cols` published columns exactly as the
// worker drew it in the seeded trial of mechanism m.
func (r *traceReplica) window(m traceMech, cols int) ([]float64, error) {
	return r.sp.Theta(m.lbOptions(r.su), cols)
}

// verify recomputes the whole seeded pass and reports whether its excess is
// the worker's, bit for bit (so the window shows the worker's θ).
func (r *traceReplica) verify(ex *lowerbound.Experiment, m traceMech) bool {
	if len(ex.ExcessOverD) == 0 {
		return false
	}
	got, err := r.sp.ExcessOverD(m.lbOptions(r.su))
	return err == nil && got == ex.ExcessOverD[0]
}

// remoteRun is one cancellable lowerbound.run in the worker.
type remoteRun struct{ ctl js.Value }

func (r *remoteRun) abort() {
	if r != nil && r.ctl.Truthy() {
		r.ctl.Call("abort")
	}
}

// runLowerbound calls lowerbound.run in the worker; progress gets the
// fraction done. It blocks: call it from a goroutine.
func runLowerbound(opts lowerbound.Options, run *remoteRun, progress func(float64)) (*lowerbound.Experiment, error) {
	run.ctl = js.Global().Get("AbortController").New()
	onProg := js.FuncOf(func(_ js.Value, a []js.Value) any {
		if progress != nil && len(a) > 0 && a[0].Type() == js.TypeObject {
			progress(a[0].Get("fraction").Float())
		}
		return nil
	})
	defer onProg.Release()
	po := js.Global().Get("Object").New()
	po.Set("onProgress", onProg)
	po.Set("signal", run.ctl.Get("signal"))
	v, err := callRemote("lowerbound.run", jsio.Encode(opts), po)
	if err != nil {
		return nil, err
	}
	var ex lowerbound.Experiment
	if err := jsio.Decode(v, &ex); err != nil {
		return nil, err
	}
	return &ex, nil
}

// fmtNum prints a number compactly for prose: 3 significant digits.
func fmtNum(x float64) string {
	switch {
	case math.IsInf(x, 1):
		return "∞"
	case x != 0 && (math.Abs(x) >= 1e5 || math.Abs(x) < 1e-3):
		m := strconv.FormatFloat(x, 'e', 2, 64)
		mant, exp, _ := strings.Cut(m, "e")
		mant = strings.TrimRight(strings.TrimRight(mant, "0"), ".")
		e, _ := strconv.Atoi(exp)
		return mant + "×10" + superscript(e)
	}
	r, _ := strconv.ParseFloat(strconv.FormatFloat(x, 'g', 3, 64), 64) // 3 significant digits, never in e-notation
	return strconv.FormatFloat(r, 'f', -1, 64)
}

func superscript(e int) string {
	const digits = "⁰¹²³⁴⁵⁶⁷⁸⁹"
	s := strconv.Itoa(e)
	var b strings.Builder
	for _, c := range s {
		if c == '-' {
			b.WriteString("⁻")
			continue
		}
		b.WriteString(string([]rune(digits)[c-'0']))
	}
	return b.String()
}

// css sets inline CSS through the CSSOM (allowed by the page's CSP, unlike
// style attributes).
func css(e dom.Element, kv ...string) dom.Element {
	st := e.(dom.HTMLElement).Style()
	for i := 0; i+1 < len(kv); i += 2 {
		st.SetProperty(kv[i], kv[i+1], "")
	}
	return e
}

func stage(id, title string) dom.Element {
	s := el("div", "id", id, "class", "trace-stage")
	css(s, "border-top", "1px solid #e3e3e3", "margin-top", "18px", "padding-top", "4px")
	s.AppendChild(text("h3", title))
	return s
}

func banner(id, kind string) dom.Element {
	b := el("p", "id", id, "role", "note", "hidden", "")
	bg, border := "#fff6e0", "#E69F00"
	if kind == "warn" {
		bg, border = "#fdecea", "#b00020"
	}
	return css(b, "background", bg, "border-left", "4px solid "+border, "padding", "6px 10px", "margin", "8px 0", "font-size", "14px")
}

func narration(s string) dom.Element {
	return css(text("p", s, "class", "detail"), "max-width", "760px")
}

// show toggles e's hidden attribute and, because the site's CSS gives
// .field a display that would override [hidden], its display too.
func show(e dom.Element, on bool) {
	st := e.(dom.HTMLElement).Style()
	if on {
		e.RemoveAttribute("hidden")
		st.RemoveProperty("display")
	} else {
		e.SetAttribute("hidden", "")
		st.SetProperty("display", "none", "")
	}
}

// traceView holds the view's elements and state.
type traceView struct {
	root                                    dom.Element
	pre                                     string // id prefix of this instance: "trace", "trace2", … or the root's data-prefix
	nF, xiF, kF, deltaF                     numberField
	mode, mech, remove                      *dom.HTMLSelectElement
	epsR, sR                                *dom.HTMLInputElement
	epsOut, sOut                            dom.Element
	epsWrap, sWrap, deltaWrap               dom.Element
	practical, xiWarn, lengths, counts      dom.Element
	reveal                                  *dom.HTMLInputElement
	codebook, codebookNote                  dom.Element
	output, outputNote, excessOut, violOut  dom.Element
	scores, accusedOut, scoreNote           dom.Element
	walkStatus                              dom.Element
	dichotomy, sweepPlot, corner, sweepBtn  dom.Element
	sweepNote                               dom.Element
	sweepProg                               dom.Element
	soundBtn, soundStop, soundProg          dom.Element
	soundRates, soundPlot, implied, claimed dom.Element
	trialsF                                 numberField

	lastMech  traceMech     // mechanism of v.last
	lastRep   *traceReplica // code of v.last
	sweepMech traceMech     // mechanism of v.sweep
	xiTouched bool
	setupGen  int
	su        traceSetup
	rep       *traceReplica
	last      *lowerbound.Experiment
	walkGen   int
	walkRun   *remoteRun
	points    []tracePoint
	sweep     []sweepPoint
	sweepRun  *remoteRun
	soundRun  *remoteRun
	snd       soundTally
}

// tracePoint is one trial in the (excess/D, traced) plane.
type tracePoint struct {
	excess float64
	traced bool
}

// sweepPoint is the mean excess/D of the trials at one parameter value.
type sweepPoint struct {
	param, excess, traced float64
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

// traceInstances counts the views built, so that every instance gets its own ids.
var traceInstances int

func buildTraceView(root dom.Element) {
	traceInstances++
	pre := "trace"
	if p := root.GetAttribute("data-prefix"); p != "" {
		pre = p
	} else if traceInstances > 1 {
		pre += strconv.Itoa(traceInstances)
	}
	v := &traceView{root: root, pre: pre, su: traceSetup{n: 4, xi: 1.0 / 16, mode: fingerprint.Tardos, copies: 1, seed: rand.Uint64() >> 11}}
	appendAll(root,
		text("h2", "Trace vs rounding: the lower-bound attack", "id", v.pre+"-h"),
		text("p", "Why can no private algorithm be accurate on some problems? Theorem 3.7 of the paper answers with "+
			"an attack. The data set is a fingerprinting code: each person's row is a long random bit string. "+
			"If an algorithm solves the ℓ1 problem over these rows accurately, rounding its answer at ½ gives a word "+
			"that the code's Trace traces back to someone in the data (Lemma G.2: accurate ⇒ traceable). "+
			"A private algorithm cannot let that happen, so it must be inaccurate. Below, every step runs for real, "+
			"in a background worker on this device.", "class", "lede"),
	)
	if root.GetAttribute("aria-labelledby") == "" {
		root.SetAttribute("aria-labelledby", v.pre+"-h")
	}
	v.buildSetup()
	v.buildCodebook()
	v.buildMechanism()
	v.buildScores()
	v.buildDichotomy()
	v.buildSoundness()
	v.buildSlips()
	v.applyDefaults()
	v.setupChanged()
	onResize(v.redraw)
}

// redraw re-renders every figure from the view's state at the current width.
func (v *traceView) redraw() {
	v.drawCodebook()
	if v.last != nil {
		v.drawOutput(v.lastRep, v.last, v.lastMech)
		v.drawScores(v.last, v.lastMech)
	}
	v.drawDichotomy()
	if len(v.sweep) > 0 {
		v.drawSweep(v.sweepMech)
	}
	v.drawSound()
}

// windowCols is how many published columns the strips show: as many as fit
// the figure at about 1:1 (so their 12 px text stays readable), at most traceWindow.
func (v *traceView) windowCols() int {
	w := v.codebook.Underlying().Get("clientWidth").Float()
	if w <= 0 {
		return traceWindow
	}
	return max(16, min(traceWindow, int((math.Min(w, 760)-stripLeft-12)/stripCell)))
}

// applyDefaults takes the root's data-* attributes (set by the custom element
// <dp-trace-attack n="8" xi="0.03" k="1" mode="symmetric" mechanism="box-exponential" s="10" epsilon="1" delta="1e-5">)
// as the controls' initial values; invalid values show the field's usual error.
func (v *traceView) applyDefaults() {
	get := func(name string) string { return strings.TrimSpace(v.root.GetAttribute("data-" + name)) }
	if s := get("n"); s != "" {
		v.nF.input.SetValue(s)
		if n, err := strconv.Atoi(s); err == nil && n >= 2 {
			v.xiF.input.SetValue(strconv.FormatFloat(1/(4*float64(n)), 'g', 4, 64))
		}
	}
	if s := get("xi"); s != "" {
		v.xiF.input.SetValue(s)
		v.xiTouched = true
	}
	if s := get("k"); s != "" {
		v.kF.input.SetValue(s)
	}
	if s := get("mode"); s == "tardos" || s == "symmetric" {
		v.mode.SetValue(s)
	}
	switch s := lowerbound.Mechanism(get("mechanism")); s {
	case lowerbound.Median, lowerbound.Exponential, lowerbound.BoxExponential, lowerbound.Gaussian:
		v.mech.SetValue(string(s))
	}
	logOf := func(name string, r *dom.HTMLInputElement) {
		if x, err := strconv.ParseFloat(get(name), 64); err == nil && x > 0 {
			r.SetValue(strconv.FormatFloat(math.Log10(x), 'g', 6, 64)) // the browser clamps and snaps to the range
		}
	}
	logOf("epsilon", v.epsR)
	logOf("s", v.sR)
	if s := get("delta"); s != "" {
		v.deltaF.input.SetValue(s)
	}
	v.syncMechControls()
}

// ---- stage 1: setup ----

func (v *traceView) buildSetup() {
	s := stage(v.pre+"-stage-setup", "1. The code: who is in the data")
	form := el("form", "class", "controls", "novalidate", "")
	v.nF = newNumberField(v.pre+"-n", "n (people)", "4", "1", "distinct users, 2–16")
	v.xiF = newNumberField(v.pre+"-xi", "ξ (code security)", "0.0625", "any", "default 1/(4n)")
	v.kF = newNumberField(v.pre+"-k", "k (copies of each row)", "1", "1", "group privacy, Lemma 3.6")
	modeWrap := el("div", "class", "field")
	v.mode = el("select", "id", v.pre+"-mode").(*dom.HTMLSelectElement)
	appendAll(v.mode,
		text("option", "proven length (Algorithm 2)", "value", "tardos"),
		text("option", "practical length (heuristic)", "value", "symmetric"))
	appendAll(modeWrap, text("label", "code length", "for", v.pre+"-mode"), v.mode, text("small", "d₀ = ⌈100n²ln(n/ξ)⌉ or ℓ = ⌈10n²ln(n/ξ)⌉", "class", "help"))
	appendAll(form, v.nF.wrap, v.xiF.wrap, v.kF.wrap, modeWrap)
	v.practical = banner(v.pre+"-practical-banner", "note")
	v.practical.SetTextContent("Practical length: a shorter heuristic code (ℓ = ⌈10n²ln(n/ξ)⌉, Škorić's symmetric score, " +
		"threshold √(2ℓ·ln(n/ξ))). It is NOT the proven construction of the paper's Algorithm 2; its guarantees here are measured, not proven.")
	v.xiWarn = banner(v.pre+"-xi-warning", "warn")
	v.lengths = el("p", "id", v.pre+"-lengths", "class", "result")
	css(v.lengths, "font-size", "16px")
	v.counts = text("p", "", "id", v.pre+"-counts", "class", "detail")
	appendAll(s, form, v.practical, v.xiWarn, v.lengths, v.counts,
		narration("Algorithm 2 (Tardos' code with the Bun–Ullman–Vadhan padding): each real column j gets a secret bias p_j, "+
			"and person i's bit is 1 with probability p_j. Then 2d₀ all-0 and 2d₀ all-1 dummy columns are added and all D = 5d₀ "+
			"columns are shuffled by a secret permutation. A real column where everybody happens to agree looks exactly like a dummy, "+
			"which is what makes the code robust: an algorithm that gets some unanimous columns wrong cannot tell whether it hit a real one."))
	v.root.AppendChild(s)
	form.AddEventListener("submit", false, func(e dom.Event) { e.PreventDefault() })
	v.nF.input.AddEventListener("input", false, func(dom.Event) {
		if n, err := v.nF.value("n"); err == nil && !v.xiTouched && n >= 2 && n == math.Trunc(n) {
			v.xiF.input.SetValue(strconv.FormatFloat(1/(4*n), 'g', 4, 64))
		}
		v.scheduleSetup()
	})
	v.xiF.input.AddEventListener("input", false, func(dom.Event) { v.xiTouched = true; v.scheduleSetup() })
	v.kF.input.AddEventListener("input", false, func(dom.Event) { v.scheduleSetup() })
	v.mode.AddEventListener("change", false, func(dom.Event) { v.scheduleSetup() })
}

// readSetup validates the setup fields, showing errors inline.
func (v *traceView) readSetup() (traceSetup, bool) {
	su := v.su
	ok := true
	n, err := v.nF.value("n")
	if err == nil {
		err = checks.IntRange("n", int(n), 2, traceMaxN)
		if err == nil && n != math.Trunc(n) {
			err = checks.Errorf("n", "an integer in [2, %d], got %s", traceMaxN, checks.Fmt(n))
		}
	}
	v.nF.setError(err)
	ok = ok && err == nil
	su.n = int(n)
	xi, err := v.xiF.value("xi")
	if err == nil {
		err = checks.InRange("xi", xi, 0, 1)
		if err == nil && (xi <= 0 || xi >= 1) {
			err = checks.Errorf("xi", "a number in (0, 1), got %s", checks.Fmt(xi))
		}
	}
	v.xiF.setError(err)
	ok = ok && err == nil
	su.xi = xi
	k, err := v.kF.value("k")
	if err == nil {
		err = checks.IntRange("k", int(k), 1, 8)
		if err == nil && k != math.Trunc(k) {
			err = checks.Errorf("k", "an integer in [1, 8], got %s", checks.Fmt(k))
		}
	}
	v.kF.setError(err)
	ok = ok && err == nil
	su.copies = int(k)
	su.mode = fingerprint.Mode(v.mode.Value())
	if ok {
		if _, err := fingerprint.Compute(fingerprint.Params{N: su.n, Xi: su.xi, Mode: su.mode}); err != nil {
			v.xiF.setError(err)
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
	v.setupGen++
	gen := v.setupGen
	if _, ok := v.readSetup(); ok {
		v.counts.SetTextContent("Drawing the code…")
	}
	go func() {
		time.Sleep(200 * time.Millisecond) // a setTimeout: the page repaints meanwhile
		if gen == v.setupGen {
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
	v.su = su
	show(v.practical, su.mode == fingerprint.Symmetric)
	// The DP contradiction needs ξ < exp(−ε′)((1 − ξ)/n_k − δ′); at ε′ = 1, δ′ = 0: ξ < 1/(1 + e·n).
	lim := 1 / (1 + math.E*float64(su.n))
	show(v.xiWarn, su.xi >= lim)
	v.xiWarn.SetTextContent(fmt.Sprintf("ξ = %s is too large for the privacy contradiction of Theorem 3.7: it needs "+
		"ξ < exp(−ε′)·((1 − ξ)/n − δ′), i.e. ξ < %.3g at ε′ = 1 (fingerprinting.md §5). Tracing still works, but a "+
		"soundness rate of ξ would not contradict (1, 0)-DP. Use ξ ≤ 1/(4n) = %.3g.", fmtNum(su.xi), lim, 1/(4*float64(su.n))))
	rep, err := newTraceReplica(su)
	if err != nil {
		v.xiF.setError(err)
		return
	}
	v.rep = rep
	c := rep.code
	if su.mode == fingerprint.Symmetric {
		v.lengths.SetTextContent(fmt.Sprintf("ℓ = %d real columns · D = 5ℓ = %d published columns · threshold √(2ℓ·ln(n/ξ)) = %.1f",
			c.D0, c.Length, c.Threshold))
	} else {
		v.lengths.SetTextContent(fmt.Sprintf("d₀ = %d real columns · D = 5d₀ = %d published columns · Z = %.1f · Z/2 = %.1f",
			c.D0, c.Length, c.Z, c.Threshold))
	}
	v.lengths.SetAttribute("data-d", strconv.Itoa(c.Length))
	v.counts.SetTextContent(fmt.Sprintf("This draw: %d real columns (%d of them unanimous), %d dummy columns (%d all-0, %d all-1), "+
		"so %d of the %d columns are unanimous. The data set has %d rows: %d people × %d cop%s. ln(n/ξ) = %.3f, t = 1/(300n) = %.2g.",
		c.D0, rep.realUnan, 4*c.D0, 2*c.D0, 2*c.D0, rep.realUnan+4*c.D0, c.Length, su.n*su.copies, su.n, su.copies,
		map[bool]string{true: "y", false: "ies"}[su.copies == 1], c.K, c.T))
	if su.copies > 1 {
		v.counts.AppendChild(doc().CreateTextNode(fmt.Sprintf(" Group privacy (Lemma 3.6, Theorem 3.7): the code is built for the n_k = %d distinct people "+
			"and each row appears k = %d times, so an (ε, δ)-DP mechanism only protects a person — all k of their rows — at (kε, k·e^{(k−1)ε}·δ); "+
			"Trace still names one of the %d people.", su.n, su.copies, su.n)))
	}
	v.drawCodebook()
	v.fillRemove()
	v.syncMechControls()
	v.runWalk()
}

// ---- stage 2: the codebook ----

func (v *traceView) buildCodebook() {
	s := stage(v.pre+"-stage-data", "2. The data: the published codebook")
	lab := el("label", "for", v.pre+"-reveal")
	v.reveal = el("input", "type", "checkbox", "id", v.pre+"-reveal").(*dom.HTMLInputElement)
	appendAll(lab, v.reveal, doc().CreateTextNode(" reveal the secret permutation (which columns are real, which are dummies)"))
	v.codebook = el("figure", "id", v.pre+"-codebook", "class", "plot")
	v.codebookNote = text("p", "", "class", "detail", "id", v.pre+"-codebook-note")
	newCode := text("button", "Draw a new code", "type", "button", "class", "secondary", "id", v.pre+"-new-code")
	appendAll(s, narration("The first few dozen of the D published columns, one row per person (black = 1). "+
		"Anyone can see which columns are unanimous (marked ▪ above the grid); only the key holder knows which of them are real."),
		lab, v.codebook, v.codebookNote, newCode)
	v.root.AppendChild(s)
	v.reveal.AddEventListener("change", false, func(dom.Event) { v.drawCodebook() })
	newCode.AddEventListener("click", false, func(dom.Event) {
		v.su.seed = rand.Uint64() >> 11 // seeds must fit in a JS number
		v.setupChanged()
	})
}

const (
	stripLeft = 92.0
	stripCell = 11.0
)

func stripWidth(cols int) float64 { return stripLeft + stripCell*float64(cols) + 12 }

func (v *traceView) drawCodebook() {
	r := v.rep
	if r == nil {
		return
	}
	c := r.code
	cols := min(v.windowCols(), c.Length)
	reveal := v.reveal.Checked()
	rowH := 16.0
	top := 24.0
	if reveal {
		top += 18
	}
	h := top + rowH*float64(c.N) + 6
	w := stripWidth(cols)
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 %g %g" role="img" aria-label="codebook strip" font-family="system-ui, sans-serif" font-size="12">`, w, h)
	fmt.Fprintf(&b, `<desc>Bits of the %d people on published columns 1 to %d.</desc>`, c.N, cols)
	fmt.Fprintf(&b, `<text x="4" y="14">unanimous</text>`)
	if reveal {
		fmt.Fprintf(&b, `<text x="4" y="32">secret key</text>`)
	}
	real, unan := 0, 0
	for k := range cols {
		x := stripLeft + stripCell*float64(k)
		o := c.Ones(k)
		if o == 0 || o == c.N {
			unan++
			fmt.Fprintf(&b, `<rect x="%g" y="6" width="%g" height="9" fill="#888"/>`, x+2, stripCell-4)
		}
		if reveal {
			kind := r.columnKind(k)
			col := "#0072B2"
			if kind != "real" {
				col = "#E69F00"
			} else {
				real++
			}
			fmt.Fprintf(&b, `<rect x="%g" y="22" width="%g" height="12" fill="%s"><title>column %d: %s</title></rect>`, x+0.5, stripCell-1, col, k+1, kind)
		}
		for i := range c.N {
			y := top + rowH*float64(i)
			fill := "#fff"
			if c.Bit(i, k) {
				fill = "#1d1d1f"
			}
			fmt.Fprintf(&b, `<rect x="%g" y="%g" width="%g" height="%g" fill="%s" stroke="#bbb" stroke-width="0.5"/>`, x, y, stripCell, rowH, fill)
		}
	}
	for i := range c.N {
		fmt.Fprintf(&b, `<text x="4" y="%g">person %d</text>`, top+rowH*float64(i)+12, i+1)
	}
	b.WriteString(`</svg>`)
	fmt.Fprintf(&b, `<figcaption class="detail">The codebook (the data set): published columns 1–%d of %d.</figcaption>`, cols, c.Length)
	v.codebook.SetInnerHTML(b.String())
	v.codebook.SetAttribute("data-revealed", strconv.FormatBool(reveal))
	v.codebook.SetAttribute("data-perm-ok", strconv.FormatBool(r.permOK))
	if reveal {
		note := fmt.Sprintf("Blue = real Tardos column (%d here), orange = dummy (%d here). Of the %d unanimous columns in this window, "+
			"the real ones are indistinguishable from dummies without the key.", real, cols-real, unan)
		if !r.permOK {
			note = "The page could not rebuild the secret permutation for this draw, so the colours may be wrong."
		}
		v.codebookNote.SetTextContent(note)
	} else {
		v.codebookNote.SetTextContent(fmt.Sprintf("%d of these %d columns are unanimous. Real or dummy? Tick the box to ask the key.", unan, cols))
	}
}

// ---- stage 3: the mechanism ----

func (v *traceView) buildMechanism() {
	s := stage(v.pre+"-stage-mechanism", "3. The mechanism answers; the adversary rounds at ½")
	form := el("form", "class", "controls", "novalidate", "")
	mw := el("div", "class", "field")
	v.mech = el("select", "id", v.pre+"-mech").(*dom.HTMLSelectElement)
	appendAll(v.mech,
		text("option", "non-private median", "value", string(lowerbound.Median)),
		text("option", "dpsample's Algorithm 1 (ε)", "value", string(lowerbound.Exponential)),
		text("option", "box exponential mechanism (s)", "value", string(lowerbound.BoxExponential)),
		text("option", "Gaussian baseline (ε)", "value", string(lowerbound.Gaussian)))
	appendAll(mw, text("label", "mechanism", "for", v.pre+"-mech"), v.mech)
	v.epsWrap = el("div", "class", "field")
	v.epsR = el("input", "type", "range", "id", v.pre+"-eps", "min", "-1", "max", "9", "step", "0.25",
		"value", strconv.Itoa(traceDefaultEps), "aria-describedby", v.pre+"-eps-out").(*dom.HTMLInputElement)
	v.epsOut = text("output", "", "id", v.pre+"-eps-out", "for", v.pre+"-eps")
	appendAll(v.epsWrap, text("label", "ε (log scale, 0.1 … 10⁹)", "for", v.pre+"-eps"), v.epsR, v.epsOut)
	v.sWrap = el("div", "class", "field")
	v.sR = el("input", "type", "range", "id", v.pre+"-s", "min", "-2", "max", "3", "step", "0.25", "value", "0",
		"aria-describedby", v.pre+"-s-out").(*dom.HTMLInputElement)
	v.sOut = text("output", "", "id", v.pre+"-s-out", "for", v.pre+"-s")
	appendAll(v.sWrap, text("label", "s = εn/(2D) (log scale, 0.01 … 1000)", "for", v.pre+"-s"), v.sR, v.sOut)
	v.deltaF = newNumberField(v.pre+"-delta", "δ", "1e-5", "any", "for Algorithm 1 and Gaussian")
	v.deltaWrap = v.deltaF.wrap
	appendAll(form, mw, v.epsWrap, v.sWrap, v.deltaWrap)
	v.output = el("figure", "id", v.pre+"-output", "class", "plot")
	res := el("p", "class", "result")
	css(res, "font-size", "16px")
	v.excessOut = text("output", "—", "id", v.pre+"-excess")
	v.violOut = text("output", "—", "id", v.pre+"-viol")
	appendAll(res, text("span", "excess/D = "), v.excessOut, text("span", " · violations/D = "), v.violOut)
	v.outputNote = text("p", "", "class", "detail", "id", v.pre+"-output-note")
	v.walkStatus = text("p", "", "class", "detail", "id", v.pre+"-walk-status", "aria-live", "polite")
	appendAll(s, form, narration("The ℓ1 loss L(θ) = (1/N)Σᵢ‖θ − zᵢ‖₁ splits into columns; its minimiser is the column "+
		"majority, and the excess of θ is Σ_k |1 − 2m_k|·|θ_k − θ*_k| (m_k = share of 1s). The adversary rounds each θ_k at ½. "+
		"On a unanimous column a wrong rounding costs at least ½, so violations ≤ 2·excess: excess ≤ D/150 leaves at most D/75 "+
		"violations (Lemma G.2 with β = 1/75; the paper's proof says each costs \"≥ 1\", but rounding at ½ only guarantees ½ — "+
		"which is why it ends with βd/2, d being the padded length D)."),
		res, v.output, v.outputNote, v.walkStatus)
	v.root.AppendChild(s)
	form.AddEventListener("submit", false, func(e dom.Event) { e.PreventDefault() })
	v.mech.AddEventListener("change", false, func(dom.Event) { v.mechChanged() })
	v.epsR.AddEventListener("input", false, func(dom.Event) { v.mechChanged() })
	v.sR.AddEventListener("input", false, func(dom.Event) { v.mechChanged() })
	v.deltaF.input.AddEventListener("input", false, func(dom.Event) { v.mechChanged() })
	v.syncMechControls()
}

// readMech reads stage 3's controls.
func (v *traceView) readMech() (traceMech, bool) {
	m := traceMech{mech: lowerbound.Mechanism(v.mech.Value())}
	m.logEps, _ = strconv.ParseFloat(v.epsR.Value(), 64)
	m.logS, _ = strconv.ParseFloat(v.sR.Value(), 64)
	d, err := v.deltaF.value("delta")
	if err == nil {
		err = checks.Delta("delta", d)
	}
	v.deltaF.setError(err)
	m.delta = d
	return m, err == nil || (m.mech != lowerbound.Exponential && m.mech != lowerbound.Gaussian)
}

func (v *traceView) syncMechControls() {
	m, _ := v.readMech()
	show(v.epsWrap, m.mech == lowerbound.Exponential || m.mech == lowerbound.Gaussian)
	show(v.deltaWrap, m.mech == lowerbound.Exponential || m.mech == lowerbound.Gaussian)
	show(v.sWrap, m.mech == lowerbound.BoxExponential)
	v.epsOut.SetTextContent("ε = " + fmtNum(m.eps()))
	D := 0
	if v.rep != nil {
		D = v.rep.code.Length
	}
	rows := v.su.n * v.su.copies
	v.sOut.SetTextContent(fmt.Sprintf("s = %s (ε_pure = 2Ds/N = %s)", fmtNum(m.s()), fmtNum(2*float64(D)*m.s()/float64(rows))))
}

func (v *traceView) mechChanged() {
	v.syncMechControls()
	v.runWalk()
}

// runWalk reruns the seeded walk-through trial in the worker (cancelling a
// running one) and redraws stages 3 and 4.
func (v *traceView) runWalk() {
	m, ok := v.readMech()
	if !ok || v.rep == nil {
		return
	}
	v.walkGen++
	gen := v.walkGen
	v.walkRun.abort()
	run := &remoteRun{}
	v.walkRun = run
	su := v.su
	rep := v.rep
	opts := m.lbOptions(su) // seeded: the replica replays this trial
	opts.Trials, opts.Ghosts = 1, traceGhosts
	v.root.SetAttribute("data-walk", "running")
	v.walkStatus.SetTextContent("Running one trial in the worker…")
	go func() {
		ex, err := runLowerbound(opts, run, func(f float64) {
			if gen == v.walkGen {
				v.walkStatus.SetTextContent(fmt.Sprintf("Running one trial in the worker… %.0f%%", 100*f))
			}
		})
		if gen != v.walkGen {
			return // superseded
		}
		if err != nil {
			if jsio.IsAbort(err) {
				return
			}
			v.walkStatus.SetTextContent("The trial failed: " + err.Error())
			v.root.SetAttribute("data-walk", "error")
			return
		}
		v.last = ex
		v.lastMech, v.lastRep = m, rep
		v.drawOutput(rep, ex, m)
		v.drawScores(ex, m)
		if len(ex.ExcessOverD) > 0 {
			v.points = append(v.points, tracePoint{ex.ExcessOverD[0], ex.Traced[0]})
			v.drawDichotomy()
		}
		v.walkStatus.SetTextContent(fmt.Sprintf("One trial of %s on the code above (seeded so the page can show the key; "+
			"a seeded run is marked not private — the data here are synthetic).", m.label()))
		if v.root.GetAttribute("data-verify") == "1" {
			v.output.SetAttribute("data-verified", strconv.FormatBool(rep.verify(ex, m)))
		}
		v.root.SetAttribute("data-walk-n", strconv.Itoa(gen))
		v.root.SetAttribute("data-walk", "done")
	}()
}

func (v *traceView) drawOutput(r *traceReplica, ex *lowerbound.Experiment, m traceMech) {
	c := r.code
	theta, err := r.window(m, v.windowCols())
	if err != nil {
		v.outputNote.SetTextContent(err.Error())
		return
	}
	cols := len(theta)
	exD, viD := ex.ExcessOverD[0], ex.ViolationsOverD[0]
	v.excessOut.SetTextContent(fmtNum(exD))
	v.excessOut.SetAttribute("data-value", strconv.FormatFloat(exD, 'g', -1, 64))
	v.violOut.SetTextContent(fmtNum(viD))
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
		"(a unanimous column rounded the wrong way) — %d in this window.</figcaption>", esc(m.label()), cols, viol)
	v.output.SetInnerHTML(b.String())
	v.output.SetAttribute("data-violations", strconv.Itoa(viol))
	var note string
	switch {
	case exD <= accurateCut:
		note = fmt.Sprintf("Accurate: excess/D = %s ≤ 1/150, so at most D/75 columns violate the marking condition — the regime where Lemma G.2 promises a trace.", fmtNum(exD))
	case viD > 0.2:
		note = fmt.Sprintf("Inaccurate: excess/D = %s, %s× the 1/150 line, and %s of all columns violate the marking condition. "+
			"The rounded word carries almost nothing of anyone's row.", fmtNum(exD), fmtNum(exD*150), fmtNum(viD))
	default:
		note = fmt.Sprintf("Between the regimes: excess/D = %s is above 1/150, so the lemma promises nothing — but Trace may still succeed (the lemma is only an implication).", fmtNum(exD))
	}
	if m.mech == lowerbound.Exponential && ex.Mechanism.A > 0 {
		note += fmt.Sprintf(" Per column Algorithm 1's target is exp(−a·Σᵢ|t − zᵢ| − b·t²) with "+
			"a = η/N = %s and b = ημ/2 = %s (b/(aN) = %s). The ridge term μ/2‖θ‖² pulls θ towards 0 until the data term wins, "+
			"a·N ≫ b: with the default η rule that needs s* ≳ √(2D)/N, i.e. ε of order D/N² or more, because this instance has "+
			"D ≫ N² coordinates. Move the slider to 10⁸–10⁹ to reach the accurate side.",
			fmtNum(ex.Mechanism.A), fmtNum(ex.Mechanism.B), fmtNum(ex.Mechanism.B/(ex.Mechanism.A*float64(ex.Rows))))
	}
	v.outputNote.SetTextContent(note)
}

// esc escapes text for SVG markup.
func esc(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;").Replace(s)
}

// ---- stage 4: the trace ----

func (v *traceView) buildScores() {
	s := stage(v.pre+"-stage-trace", "4. Trace: who does the rounded answer point to?")
	v.scores = el("figure", "id", v.pre+"-scores", "class", "plot")
	v.accusedOut = el("p", "id", v.pre+"-accused", "class", "result", "aria-live", "polite")
	css(v.accusedOut, "font-size", "16px")
	v.scoreNote = text("p", "", "class", "detail")
	appendAll(s, narration("Trace undoes the permutation, drops the dummy columns and scores every person on the real ones: "+
		"Sᵢ = Σⱼ cⱼ·Uᵢⱼ with Uᵢⱼ = √((1−pⱼ)/pⱼ) when person i has a 1 and −√(pⱼ/(1−pⱼ)) when not (Tardos' asymmetric score). "+
		"Everyone with Sᵢ ≥ Z/2 is in the accused set A, and Trace returns one of them at random (Algorithm 2: \"Return: i randomly from Trace′\"), or ⊥. "+
		fmt.Sprintf("The grey bars are %d ghosts: fresh rows from the same biases that no mechanism ever saw — innocents, to show where an outsider's score lands.", traceGhosts)),
		v.accusedOut, v.scores, v.scoreNote)
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
	if w := v.scores.Underlying().Get("clientWidth").Float(); w > 0 && w < 500 {
		hi *= 1.8 // on a phone the legend spans the plot: keep the bars below it
	}
	p := &plot.Plot{
		Title: "Trace scores Sᵢ", XLabel: fmt.Sprintf("ghosts 1–%d | people 1–%d", G, n), YLabel: "score Sᵢ",
		Height: 340, XMin: 0.3, XMax: float64(total) + 0.7, YMin: lo, YMax: hi,
		Desc:   "Bars: the ghosts' scores (grey), then the people's scores (orange when accused, red for the one Trace returns, blue otherwise); the horizontal line is the accusation threshold.",
		Series: []plot.Series{gh, mem, acc, ret},
		Rules:  []plot.Rule{{Label: fmt.Sprintf("threshold %s", fmtNum(d.Threshold)), At: d.Threshold, Horizontal: true, Color: "#000000"}},
	}
	v.scores.SetInnerHTML(fitWidth(v.scores, p).SVG())
	var who string
	if d.Returned != nil {
		names := make([]string, len(d.Accused))
		for i, a := range d.Accused {
			names[i] = strconv.Itoa(a + 1)
		}
		who = fmt.Sprintf("Accused set A = {%s}; Trace returns person %d.", strings.Join(names, ", "), *d.Returned+1)
	} else {
		who = "A = ∅: Trace returns ⊥ — nobody is identified."
	}
	v.accusedOut.SetTextContent(who)
	v.accusedOut.SetAttribute("data-accused", strconv.Itoa(len(d.Accused)))
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
		why = "Every score is about 0: the rounded word has (almost) no 1s on the real columns, and Tardos' asymmetric score only counts columns with cⱼ = 1."
	default:
		why = "The answer carries too little of anyone's bits: nobody clears the threshold, and the members are hard to tell from the ghosts."
	}
	if ex.Options.Mode == fingerprint.Symmetric {
		why += " (Practical mode: Škorić's symmetric score Sᵢ = Σⱼ (2cⱼ − 1)·Uᵢⱼ, which also counts the 0s, against the threshold √(2ℓ·ln(n/ξ)).)"
	}
	v.scoreNote.SetTextContent(fmt.Sprintf("Highest member score = %s × the threshold; %d of %d ghosts are over it. %s",
		fmtNum(maxS/d.Threshold), gAcc, len(d.GhostScores), why))
}

func maxAbs(x []float64) float64 {
	m := 0.0
	for _, v := range x {
		m = math.Max(m, math.Abs(v))
	}
	return m
}

// ---- stage 5: the dichotomy ----

func (v *traceView) buildDichotomy() {
	s := stage(v.pre+"-stage-dichotomy", "5. The dichotomy: accurate ⇒ traced")
	v.sweepBtn = text("button", "Sweep the slider (runs in the worker)", "type", "button", "id", v.pre+"-sweep")
	v.sweepProg = el("progress", "id", v.pre+"-sweep-progress", "max", "1", "value", "0", "hidden", "")
	v.sweepPlot = el("figure", "id", v.pre+"-sweep-plot", "class", "plot")
	v.sweepNote = text("p", "", "id", v.pre+"-sweep-note", "class", "detail")
	v.dichotomy = el("figure", "id", v.pre+"-dichotomy", "class", "plot")
	v.corner = text("p", "", "id", v.pre+"-corner", "class", "result", "aria-live", "polite")
	css(v.corner, "font-size", "16px")
	appendAll(s, narration("Lemma G.2 (Definition G.1 with α = 1/150): if excess ≤ D/150 then Trace fails with probability at most ξ. "+
		"Every trial the page runs lands in this plane. The corner left of the 1/150 line and at the bottom — accurate but untraced — stays empty; "+
		"traced-but-inaccurate trials are allowed, since the lemma is an implication, not an equivalence. "+
		"Sweeping runs the chosen mechanism at 9 values of its slider, "+strconv.Itoa(sweepTrials)+" fresh trials each."),
		v.sweepBtn, v.sweepProg, v.corner, v.dichotomy, v.sweepPlot, v.sweepNote)
	v.root.AppendChild(s)
	v.sweepBtn.AddEventListener("click", false, func(dom.Event) { v.runSweep() })
	v.drawDichotomy()
}

func (v *traceView) drawDichotomy() {
	var tx, ty, ux, uy []float64
	acc, accUntraced := 0, 0
	for i, p := range v.points {
		j := 0.12 * (float64((i*7919)%21)/10 - 1) // deterministic jitter in ±0.12
		x := math.Max(p.excess, 1.15e-4)          // the median's excess 0 is drawn at the left edge
		if p.traced {
			tx, ty = append(tx, x), append(ty, 1+j)
		} else {
			ux, uy = append(ux, x), append(uy, j)
		}
		if p.excess <= accurateCut {
			acc++
			if !p.traced {
				accUntraced++
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
	v.dichotomy.SetInnerHTML(fitWidth(v.dichotomy, p).SVG())
	v.corner.SetTextContent(fmt.Sprintf("%d trials so far; %d accurate (excess ≤ D/150); accurate but untraced: %d. "+
		"(Trials with excess 0, the median's, sit on the left edge.)", len(v.points), acc, accUntraced))
	v.corner.SetAttribute("data-trials", strconv.Itoa(len(v.points)))
	v.corner.SetAttribute("data-accurate", strconv.Itoa(acc))
	v.corner.SetAttribute("data-accurate-untraced", strconv.Itoa(accUntraced))
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
			mm.logEps = -1 + float64(i)
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
	if v.sweepRun != nil {
		v.sweepRun.abort()
		return
	}
	m, ok := v.readMech()
	if !ok {
		return
	}
	su := v.su
	grid := sweepGrid(m)
	run := &remoteRun{}
	v.sweepRun = run
	v.sweep = nil
	v.sweepBtn.SetTextContent("Stop the sweep")
	show(v.sweepProg, true)
	v.root.SetAttribute("data-sweep", "running")
	go func() {
		defer func() {
			v.sweepRun = nil
			v.sweepBtn.SetTextContent("Sweep the slider (runs in the worker)")
			show(v.sweepProg, false)
			v.root.SetAttribute("data-sweep", "done")
		}()
		for gi, g := range grid {
			opts := g.lbOptions(su)
			opts.Seed, opts.Trials = nil, sweepTrials
			ex, err := runLowerbound(opts, run, func(f float64) {
				v.sweepProg.SetAttribute("value", strconv.FormatFloat((float64(gi)+f)/float64(len(grid)), 'f', 3, 64))
			})
			if err != nil {
				if !jsio.IsAbort(err) {
					v.corner.SetTextContent("The sweep failed: " + err.Error())
				}
				return
			}
			mean, tr := 0.0, 0.0
			for i, e := range ex.ExcessOverD {
				v.points = append(v.points, tracePoint{e, ex.Traced[i]})
				mean += e
				if ex.Traced[i] {
					tr++
				}
			}
			param := g.eps()
			if g.mech == lowerbound.BoxExponential {
				param = g.s()
			}
			v.sweep = append(v.sweep, sweepPoint{param, mean / float64(len(ex.ExcessOverD)), tr / float64(len(ex.ExcessOverD))})
			v.sweepMech = g
			v.drawDichotomy()
			v.drawSweep(g)
		}
	}()
}

func (v *traceView) drawSweep(m traceMech) {
	var x, y []float64
	var parts []string
	for _, p := range v.sweep {
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
	v.sweepPlot.SetInnerHTML(fitWidth(v.sweepPlot, p).SVG())
	v.sweepNote.SetTextContent("Trials traced at each " + xl[:strings.Index(xl, " (")] + ": " + strings.Join(parts, " · "))
}

// ---- stage 6: soundness ----

func (v *traceView) buildSoundness() {
	s := stage(v.pre+"-stage-soundness", "6. Soundness: remove a person and try again")
	form := el("form", "class", "controls", "novalidate", "")
	rw := el("div", "class", "field")
	v.remove = el("select", "id", v.pre+"-remove").(*dom.HTMLSelectElement)
	appendAll(rw, text("label", "remove person", "for", v.pre+"-remove"), v.remove)
	v.trialsF = newNumberField(v.pre+"-trials", "trials", "100", "1", "fresh code each trial")
	bw := el("div", "class", "field")
	css(bw, "justify-content", "flex-end", "flex-direction", "row", "gap", "8px", "align-self", "center")
	v.soundBtn = text("button", "Run", "type", "submit", "id", v.pre+"-sound-run")
	v.soundStop = text("button", "Stop", "type", "button", "id", v.pre+"-sound-stop", "class", "secondary", "disabled", "")
	appendAll(bw, v.soundBtn, v.soundStop)
	appendAll(form, rw, v.trialsF.wrap, bw)
	v.soundProg = el("progress", "id", v.pre+"-sound-progress", "max", "1", "value", "0", "hidden", "")
	v.soundRates = el("div", "id", v.pre+"-sound-rates", "aria-live", "polite")
	v.implied = el("p", "id", v.pre+"-implied", "class", "result")
	css(v.implied, "font-size", "16px")
	v.claimed = text("p", "", "id", v.pre+"-claimed", "class", "detail")
	v.soundPlot = el("figure", "id", v.pre+"-sound-plot", "class", "plot")
	appendAll(s, narration("The other half of the argument. Each trial draws a fresh code, runs the mechanism on the full data set "+
		"and again on the data without the chosen person (all k copies), and traces both answers. Without their row the person is an "+
		"innocent, and the code's soundness says they are accused with probability at most ξ (Definition G.1, per person). "+
		"If the mechanism is (ε, δ)-DP, then P[accused | in data] ≤ e^ε·P[accused | removed] + δ; the rates below therefore imply a "+
		"lower bound on ε, with 95% Clopper–Pearson intervals on both rates."),
		form, v.soundProg, v.soundRates, v.implied, v.claimed, v.soundPlot)
	v.root.AppendChild(s)
	form.AddEventListener("submit", false, func(e dom.Event) { e.PreventDefault(); v.runSound() })
	v.soundStop.AddEventListener("click", false, func(dom.Event) { v.soundRun.abort() })
}

func (v *traceView) fillRemove() {
	cur := v.remove.Value()
	v.remove.SetInnerHTML("")
	for i := range v.su.n {
		o := text("option", fmt.Sprintf("person %d", i+1), "value", strconv.Itoa(i))
		if strconv.Itoa(i) == cur {
			o.SetAttribute("selected", "")
		}
		v.remove.AppendChild(o)
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
	if v.soundRun != nil {
		return
	}
	m, ok := v.readMech()
	if !ok {
		return
	}
	tf, err := v.trialsF.value("trials")
	if err == nil {
		err = checks.IntRange("trials", int(tf), 1, 5000)
	}
	v.trialsF.setError(err)
	if err != nil {
		return
	}
	total := int(tf)
	user, _ := strconv.Atoi(v.remove.Value())
	su := v.su
	v.snd = soundTally{mech: m, su: su, user: user}
	run := &remoteRun{}
	v.soundRun = run
	v.soundBtn.SetAttribute("disabled", "")
	v.soundStop.RemoveAttribute("disabled")
	show(v.soundProg, true)
	v.root.SetAttribute("data-sound", "running")
	v.soundRates.SetTextContent("Running in the worker…")
	go func() {
		defer func() {
			v.soundRun = nil
			v.soundBtn.RemoveAttribute("disabled")
			v.soundStop.SetAttribute("disabled", "")
			show(v.soundProg, false)
			v.root.SetAttribute("data-sound", "done")
		}()
		for v.snd.trials < total {
			n := min(soundChunk, total-v.snd.trials)
			opts := m.lbOptions(su)
			opts.Seed, opts.Trials, opts.Remove, opts.Ghosts = nil, n, &user, 10
			done := v.snd.trials
			ex, err := runLowerbound(opts, run, func(f float64) {
				v.soundProg.SetAttribute("value", strconv.FormatFloat((float64(done)+f*float64(n))/float64(total), 'f', 3, 64))
			})
			if err != nil {
				if !jsio.IsAbort(err) {
					v.soundRates.SetTextContent("The run failed: " + err.Error())
				}
				return
			}
			v.snd.add(ex)
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
	t := &v.snd
	if t.trials == 0 {
		return
	}
	u := t.user + 1
	v.soundRates.SetInnerHTML("")
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
	v.soundRates.AppendChild(ul)
	v.soundRates.SetAttribute("data-trials", strconv.Itoa(t.trials))
	v.soundRates.SetAttribute("data-traced", strconv.Itoa(t.traced))
	v.soundRates.SetAttribute("data-member", strconv.Itoa(t.member))
	v.soundRates.SetAttribute("data-removed", strconv.Itoa(t.remove))
	v.soundRates.SetAttribute("data-xi", strconv.FormatFloat(t.su.xi, 'g', -1, 64))

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
	v.implied.SetTextContent(fmt.Sprintf("ε implied by the attack: %s, 95%% interval [%s, %s] · claimed ε = %s",
		est, fmtNum(imp.Lower), up, fmtNum(t.epsClaim)))
	v.implied.SetAttribute("data-lower", strconv.FormatFloat(imp.Lower, 'g', -1, 64))
	claimed := strconv.FormatFloat(t.epsClaim, 'g', -1, 64)
	if math.IsInf(t.epsClaim, 1) {
		claimed = "Infinity" // as JS reads it
	}
	v.implied.SetAttribute("data-claimed", claimed)
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
	v.claimed.SetTextContent(say)
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
	v.soundPlot.SetInnerHTML(fitWidth(v.soundPlot, p).SVG())
}

// ---- stage 7: what the paper's text gets wrong ----

func (v *traceView) buildSlips() {
	s := stage(v.pre+"-stage-slips", "7. Where this demo departs from the paper's text")
	ul := el("ul", "class", "detail")
	for _, item := range []string{
		"Lemma G.2's proof charges a wrongly rounded unanimous column \"≥ 1\" of excess; rounding at ½ only guarantees ½, which is why the argument ends with βd/2 (α = 1/150 ↔ β = 1/75).",
		"The d of Definition G.1 and of \"excess ≤ d/150\" is the padded, published length D = 5d₀, not the Tardos length d₀.",
		"d = 100n²log(n/ξ) is not an integer and \"log\" is the natural log: we use d₀ = ⌈100n²ln(n/ξ)⌉.",
		"Trace′ leaves the choice among several accused people open; Algorithm 2's \"Return: i randomly from Trace′\" is read as a uniformly random member of A, and the page shows all of A.",
		"The score runs only over the real columns after undoing π: dummy columns have p ∈ {0, 1}, where Uᵢⱼ would be infinite.",
		"Theorem 3.7 applies the code to the n_k distinct people of the group construction (k copies each), so d₀, t and Z use n_k.",
		"Soundness at Z/2 with d₀ = 100n²k is per person (≈ Φ̄(√k) in the worst case), not a union bound over all innocents; the measured rates are shown above.",
	} {
		ul.AppendChild(text("li", item))
	}
	appendAll(s, ul)
	v.root.AppendChild(s)
}
