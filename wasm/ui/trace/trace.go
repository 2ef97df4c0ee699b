//go:build js && wasm

// Package trace is the page's "trace" view (<dp-trace-attack>): the
// lower-bound attack of Lemma G.2 and Theorem 3.7 walked through.
package trace

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"syscall/js"

	"github.com/dpsample/dpsample/core/fingerprint"
	"github.com/dpsample/dpsample/core/lowerbound"
	"github.com/dpsample/dpsample/wasm/internal/jsio"
	"github.com/dpsample/dpsample/wasm/ui/internal/kit"
	"honnef.co/go/js/dom/v2"
)

// The "trace" view walks through the lower-bound attack of Lemma G.2 and
// Theorem 3.7 of the paper: a fingerprinting code becomes the
// dataset, a mechanism answers the ℓ1 ERM problem, the adversary rounds the
// answer at ½ and Trace names a member — or fails, when the answer is
// private and therefore inaccurate. Every number the page states about
// soundness, the privacy claim and the implied ε comes from the core
// (lowerbound.Experiment, lowerbound.Pool); the page only formats it.
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

func (m traceMech) s() float64 { return math.Pow(10, m.logS) }

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
	v, err := kit.CallRemote("lowerbound.run", jsio.Encode(opts), po)
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
func css(e kit.Elem, kv ...string) kit.Elem {
	st := kit.Style(e)
	for i := 0; i+1 < len(kv); i += 2 {
		st.Call("setProperty", kv[i], kv[i+1])
	}
	return e
}

func stage(id, title string) kit.Elem {
	s := kit.El("div", "id", id, "class", "trace-stage")
	css(s, "border-top", "1px solid #e3e3e3", "margin-top", "18px", "padding-top", "4px")
	s.AppendChild(kit.Text("h3", title))
	return s
}

func banner(id, kind string) kit.Elem {
	b := kit.El("p", "id", id, "role", "note", "hidden", "")
	bg, border := "#fff6e0", "#E69F00"
	if kind == "warn" {
		bg, border = "#fdecea", "#b00020"
	}
	return css(b, "background", bg, "border-left", "4px solid "+border, "padding", "6px 10px", "margin", "8px 0", "font-size", "14px")
}

func narration(s string) kit.Elem {
	return css(kit.Text("p", s, "class", "detail"), "max-width", "760px")
}

// traceView is the trace section: its shared state (the setup shown, the
// code rebuilt on this thread) and one value per stage, each holding that
// stage's elements and state.
type traceView struct {
	root kit.Elem
	pre  string // id prefix of this instance: "trace", "trace2", … or the root's data-prefix
	su   traceSetup
	rep  *traceReplica

	setup     traceSetupStage
	book      traceCodebookStage
	mechStage traceMechStage
	walk      traceWalkStage
	dich      traceDichotomyStage
	sound     traceSoundStage
}

// traceInstances counts the views built, so that every instance gets its own ids.
var traceInstances int

// Build fills root, a <section data-view="trace">, with the view (ui.go's
// table of views).
func Build(root kit.Elem) {
	traceInstances++
	pre := "trace"
	if p := root.GetAttribute("data-prefix"); p != "" {
		pre = p
	} else if traceInstances > 1 {
		pre += strconv.Itoa(traceInstances)
	}
	v := &traceView{root: root, pre: pre, su: traceSetup{n: 4, xi: 1.0 / 16, mode: fingerprint.Tardos, copies: 1, seed: rand.Uint64() >> 11}}
	kit.AppendAll(root,
		kit.Text("h2", "Trace vs rounding: the lower-bound attack", "id", v.pre+"-h"),
		kit.Text("p", "Why must a private method be inaccurate on some problems? The paper proves it with an attack, and this figure "+
			"runs the attack. The data are a special code: each person's row is a long random string of bits. If a method answers "+
			"accurately, rounding its answer at ½ gives a string that points back to someone in the data (it traces them), except "+
			"with a small probability ξ. A private method must not give anyone away, so on these data it cannot be accurate. "+
			"Every step below runs for real, in a background worker on this device; where each step is in the paper, and where "+
			"the page departs from the paper's text, is in the notes at the end.", "class", "lede"),
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
	kit.OnResize(v.redraw)
}

// redraw re-renders every figure from the view's state at the current width.
func (v *traceView) redraw() {
	v.drawCodebook()
	if v.walk.last != nil {
		v.drawOutput(v.walk.lastRep, v.walk.last, v.walk.lastMech)
		v.drawScores(v.walk.last, v.walk.lastMech)
	}
	v.drawDichotomy()
	if len(v.dich.sweep) > 0 {
		v.drawSweep(v.dich.sweepMech)
	}
	v.drawSound()
}

// windowCols is how many published columns the strips show: as many as fit
// the figure at about 1:1 (so their 12 px text stays readable), at most traceWindow.
func (v *traceView) windowCols() int {
	w := v.book.codebook.Underlying().Get("clientWidth").Float()
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
		v.setup.nF.Input.SetValue(s)
		if n, err := strconv.Atoi(s); err == nil && n >= 2 {
			v.setup.xiF.Input.SetValue(strconv.FormatFloat(1/(4*float64(n)), 'g', 4, 64))
		}
	}
	if s := get("xi"); s != "" {
		v.setup.xiF.Input.SetValue(s)
		v.setup.xiTouched = true
	}
	if s := get("k"); s != "" {
		v.setup.kF.Input.SetValue(s)
	}
	if s := get("mode"); s == "tardos" || s == "symmetric" {
		v.setup.mode.SetValue(s)
	}
	switch s := lowerbound.Mechanism(get("mechanism")); s {
	case lowerbound.Median, lowerbound.Exponential, lowerbound.BoxExponential, lowerbound.Gaussian:
		v.mechStage.mech.SetValue(string(s))
	}
	logOf := func(name string, r *dom.HTMLInputElement) {
		if x, err := strconv.ParseFloat(get(name), 64); err == nil && x > 0 {
			r.SetValue(strconv.FormatFloat(math.Log10(x), 'g', 6, 64)) // the browser clamps and snaps to the range
		}
	}
	logOf("epsilon", v.mechStage.epsR)
	logOf("s", v.mechStage.sR)
	if s := get("delta"); s != "" {
		v.mechStage.deltaF.Input.SetValue(s)
	}
	v.syncMechControls()
}

// ---- stage 1: setup ----

const (
	stripLeft = 92.0
	stripCell = 11.0
)

// ---- stage 4: the trace ----

func maxAbs(x []float64) float64 {
	m := 0.0
	for _, v := range x {
		m = math.Max(m, math.Abs(v))
	}
	return m
}

// ---- notes on the paper ----

// paperNotes are the places where this demo departs from the paper's text,
// gathered in one box; the stages refer to them by number (noteRef).
var paperNotes = []string{
	"Lemma G.2's proof charges a wrongly rounded unanimous column \"≥ 1\" of excess; rounding at ½ only guarantees ½, which is why the argument ends with βd/2 (α = 1/150 ↔ β = 1/75).",
	"The d of Definition G.1 and of \"excess ≤ d/150\" is the padded, published length D = 5d₀, not the Tardos length d₀.",
	"d = 100n²log(n/ξ) is not an integer and \"log\" is the natural log: we use d₀ = ⌈100n²ln(n/ξ)⌉.",
	"Trace′ leaves the choice among several accused people open; Algorithm 2's \"Return: i randomly from Trace′\" is read as a uniformly random member of A, and the page shows all of A.",
	"The score runs only over the real columns after undoing π: dummy columns have p ∈ {0, 1}, where Uᵢⱼ would be infinite.",
	"Theorem 3.7 applies the code to the n_k distinct people of the group construction (k copies each), so d₀, t and Z use n_k.",
	"Definition G.1's soundness is per person and for every output. With threshold Z/2 and d₀ = 100n²k, the worst output (all ones) gets an " +
		"innocent accused with probability ≈ Φ̄(√k), k = ln(n/ξ). That exceeds ξ at small ξ (n = 4: 2.0×10⁻³ at ξ = 10⁻³, 5.7×10⁻⁴ at ξ = 10⁻⁴; " +
		"stage 6 computes it for the code drawn above). The paper does not check Algorithm 2's constants against the definition.",
}

// paperSources say where each stage's argument is in the paper, so that the
// stages can say it in plain words.
var paperSources = []string{
	"The lower bound the attack proves: Theorem 3.7 (and Theorem 3.1 for unconstrained problems), proof in Appendix G.5.",
	"The code: Algorithm 2 (Tardos' code with the Bun–Ullman–Vadhan padding), a robust fingerprinting code in the sense of " +
		"Definition G.1 — soundness: an innocent is accused with probability ≤ ξ whatever the output; completeness: an output " +
		"with excess ≤ D/150 (α = 1/150) that traces nobody has probability ≤ ξ.",
	"Accurate answers round to few violations: Lemma G.2 (excess ≤ D/150 leaves at most D/75 violated columns, β = 1/75; see note 1).",
	"k copies of each row: the group construction of Lemma 3.6; group privacy in (ε, δ) form: Proposition C.2.",
	"The privacy contradiction that closes the proof needs ξ < exp(−ε′)·((1 − ξ)/n − δ′) (Appendix G.5).",
}

// noteRef links to note n (from 1) on the paper, opening the notes' box.
func (v *traceView) noteRef(n int) kit.Elem {
	a := kit.Text("a", fmt.Sprintf("note %d on the paper", n), "href", fmt.Sprintf("#%s-note-%d", v.pre, n), "class", "noteref")
	kit.On(a, "click", false, func(kit.Event) {
		if d := kit.ByID(v.pre + "-paper-notes"); d != nil {
			d.SetAttribute("open", "")
		}
	})
	return a
}

// narrationWithNote is a narration paragraph with a reference to note n on
// the paper between before and after.
func (v *traceView) narrationWithNote(before string, n int, after string) kit.Elem {
	p := narration(before)
	kit.AppendAll(p, v.noteRef(n), kit.TextNode(after))
	return p
}

func (v *traceView) buildSlips() {
	s := stage(v.pre+"-stage-slips", "Notes on the paper")
	det := kit.El("details", "id", v.pre+"-paper-notes", "class", "paper-notes")
	det.AppendChild(kit.Text("summary", fmt.Sprintf("Where this demo departs from the paper's text (%d notes)", len(paperNotes))))
	ol := kit.El("ol", "class", "detail")
	for i, item := range paperNotes {
		ol.AppendChild(kit.Text("li", item, "id", fmt.Sprintf("%s-note-%d", v.pre, i+1)))
	}
	kit.AppendAll(det, ol)
	src := kit.El("details", "id", v.pre+"-paper-sources", "class", "paper-sources")
	src.AppendChild(kit.Text("summary", "Where each step is in the paper"))
	srcList := kit.El("ul", "class", "detail")
	for _, item := range paperSources {
		srcList.AppendChild(kit.Text("li", item))
	}
	kit.AppendAll(src, srcList)
	kit.AppendAll(s, narration("The paper is followed step by step above; where its text has a slip or leaves a choice open, the page says "+
		"what it does here, in one place:"), det, src)
	v.root.AppendChild(s)
}
