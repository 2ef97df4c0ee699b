//go:build js && wasm

// Package estimate is the page's "estimate" view (<dp-estimate>): a table
// in, a private estimate out. It renders and wires; it decides nothing.
// Every choice the form makes — what a press of Run asks, refuses, spends
// and runs — is internal/form's (issue 55: a pure state machine, tested
// natively): the view reads the DOM into form events, carries out the
// action form.Update returns (act.go) and renders the state (show.go). Its
// other rooms below internal/: ledger (the table's privacy budget), timing
// (how long a run will take), report (a run's prepared input and the
// result's sentences, tables and figures), categories (a text feature's
// field and describe({csv})) and pieces (a large table's work a piece at a
// time).
package estimate

import (
	"fmt"
	"strconv"
	"sync"
	"syscall/js"

	"github.com/dpsample/dpsample/core/dataset"
	"github.com/dpsample/dpsample/core/loss"
	"github.com/dpsample/dpsample/core/mechanism"
	"github.com/dpsample/dpsample/wasm/ui/estimate/internal/form"
	"github.com/dpsample/dpsample/wasm/ui/estimate/internal/ledger"
	"github.com/dpsample/dpsample/wasm/ui/estimate/internal/names"
	"github.com/dpsample/dpsample/wasm/ui/estimate/internal/report"
	"github.com/dpsample/dpsample/wasm/ui/estimate/internal/timing"
	"github.com/dpsample/dpsample/wasm/ui/internal/kit"
	"honnef.co/go/js/dom/v2"
)

// builtin is a shipped dataset (core/dataset.Builtins) with the page's
// defaults for it and its text, fetched when first needed: the selected one
// at start-up, another when the user first selects it (or runs on it).
type builtin struct {
	form.Builtin
	mu      sync.Mutex // held during the fetch: one fetch per dataset however many views wait
	pending js.Value   // the fetch's promise, when begun by prefetch and not yet awaited
	text    string     // filled by load
}

// pageDefaults are the page's first choices for each built-in dataset. A
// regression loss needs a numeric target with a declared range (the label
// column, e.g. penguins' sex, is for classification only).
var pageDefaults = map[string]struct {
	features  []string
	loss      loss.Kind
	regTarget string
}{
	"penguins":      {[]string{"beak_length_mm", "flipper_length_mm"}, loss.L1, "body_mass_g"},
	"breast-cancer": {[]string{"mean_radius", "mean_texture", "mean_smoothness"}, loss.Logistic, "mean_area"},
}

var builtins = func() []*builtin {
	var out []*builtin
	for _, b := range dataset.Builtins {
		d := pageDefaults[b.Key]
		out = append(out, &builtin{Builtin: form.Builtin{Builtin: b, Ticked: d.features, Loss: d.loss, RegTarget: d.regTarget}})
	}
	return out
}()

// maxPasteBytes caps the CSV text the page accepts (pasted, typed or
// dropped): a bound on what the page parses on its main thread (a 16 MB
// table is ≈ 100,000 rows of 10 columns). The limit a run meets first is
// its time (form.MaxRunSeconds): how long the plan's passes take here.
const maxPasteBytes = 16 << 20

// lossOptions are the losses the form offers, with their labels (one name
// for a task wherever a person reads it: internal/names).
var lossOptions = func() [][2]string {
	var out [][2]string
	for _, k := range []loss.Kind{loss.L1, loss.L2Dist, loss.Logistic, loss.Hinge, loss.SmoothHinge, loss.LAD, loss.Quantile, loss.SmoothQuantile, loss.Huber} {
		out = append(out, [2]string{k.String(), names.LossLabel(k)})
	}
	return out
}()

// estimatorOptions are the estimators the form offers (Request.Method):
// Algorithm 1, and unprojected DP-GD, the study's rule for the smooth
// supervised losses (docs/DEFAULTS.md, "Which estimator").
var estimatorOptions = [][2]string{
	{string(mechanism.EstimatorExponential), "Algorithm 1 (sampling)"},
	{string(mechanism.EstimatorDPGD), "DP-GD (noisy gradients)"},
}

// estimateView is the element: its state (form.State, the one place a
// choice lives), its DOM, and what carrying out the form's actions needs.
type estimateView struct {
	id         string
	root       kit.Elem
	st         form.State
	el         elems
	run        *kit.Runner
	ledger     *ledger.View // the table's privacy budget, next to Run (internal/ledger)
	csv        csvSource    // the CSV's text (the box's or a held file's) and its profile (data.go, profile.go)
	prep       *preparedTable
	res        *report.Input     // the input of the result shown (redrawn at a resize)
	out        *mechanism.Result // the result shown
	redraw     func()
	exportURLs []string // the downloads' object URLs (revoked when replaced)
	memo       string   // what this browser keeps for the file, as last stored (memory.go)
	drawn      drawn    // what the form's regions were drawn from (show.go)
	est        timing.WorkEstimate
}

// elems are the form's elements.
type elems struct {
	data, lossSel, estSel, targetSel, workers kit.SelectField
	csvBox, csvErr, csvProg, checkBox         kit.Elem
	heldLine                                  kit.Elem
	csvText                                   *dom.HTMLTextAreaElement
	fixedWork, interval                       *dom.HTMLInputElement
	intervalLine                              kit.Elem
	headerSel                                 *dom.HTMLSelectElement
	featBox, rangesBox, rangesErr             kit.Elem
	eps, delta, c, k, m                       kit.NumberField
	epsWords, formErr, workLine               kit.Elem
	out, summary, fig, excess, statement      kit.Elem
	export                                    kit.Elem
	lineIn                                    *dom.HTMLInputElement
	lineMsg, positiveNote                     kit.Elem
}

// csvPlaceholder is the CSV box's placeholder when it holds the table.
const csvPlaceholder = "x1,x2,label\n0.1,0.5,yes\n…"

// Build fills root, a <section data-view="estimate">, with the view (ui.go's
// table of views).
func Build(root kit.Elem) {
	v := &estimateView{id: kit.IdPrefix(root, "est"), root: root}
	id := v.id
	how := kit.El("details", "class", "lede-more", "id", id+"-how")
	kit.AppendAll(how, kit.Text("summary", "How the estimate is drawn"),
		kit.Text("p", "DP-GD takes a public number of gradient steps over your rows, each with Gaussian noise, and averages the last half; "+
			"Algorithm 1 (the paper's regularized exponential mechanism) samples θ from the density ∝ exp(−η·(L(θ) + μ‖θ‖²/2)), with η and μ "+
			"set from ε, δ and the public bounds only. Both are charged to the table's budget by the same accountant.", "class", "detail"))
	kit.AppendAll(root,
		kit.Text("h2", "Private estimate"),
		kit.Text("p", "Fit a centre, a classifier or a regression line to a table, privately, on this device. dpsample draws a "+
			"model at random so that what it shows about any one row is bounded by ε and δ — by noisy gradient descent (DP-GD) for "+
			"the smooth classifiers and regressions, by sampling (the paper's Algorithm 1) otherwise. Your file is read by this page "+
			"and never sent anywhere.", "class", "lede"), how)
	ds := kit.Attr(root, "dataset", "penguins")
	if ds == "cancer" { // the key before the datasets were registered in core/dataset
		ds = "breast-cancer"
	}
	var dsOpts [][2]string
	for _, b := range builtins {
		if b.Key == ds {
			b.prefetch(root) // the request runs while the section is built
		}
		dsOpts = append(dsOpts, [2]string{b.Key, b.Label})
	}
	dsOpts = append(dsOpts, [2]string{"csv", "your own CSV (paste or drop a file)"})
	e := &v.el
	e.data = kit.NewSelectField(id+"-data", "Dataset", "built-in data are public: ", dsOpts, ds)
	kit.AppendToHelp(e.data.Wrap, kit.DataLink(root, "SOURCES.md", "their sources and licences"))
	e.lossSel = kit.NewSelectField(id+"-loss", "Task / loss", "what θ estimates. The smooth losses (logistic, Huber, smooth hinge, "+
		"smooth median) are sampled fastest, exactly, by the first-order sampler; the smooth hinge and median round the kink "+
		"off over a width h = 1 and give nearly the same fit as their sharp versions.", lossOptions, kit.Attr(root, "loss", ""))
	e.estSel = kit.NewSelectField(id+"-estimator", "Estimator", "how θ is drawn; both are charged to the table's budget by the same "+
		"accountant. It starts at DP-GD for the smooth supervised losses (logistic, Huber, smooth hinge, smooth median), which was "+
		"as good or better on every dataset of the study, and at Algorithm 1 — the paper's mechanism — for the others; a centre is "+
		"always drawn by Algorithm 1 (", estimatorOptions, string(mechanism.EstimatorExponential))
	kit.AppendToHelp(e.estSel.Wrap, kit.DocLink(root, "DEFAULTS.md", "the study's rule"), kit.TextNode(")"))
	e.targetSel = kit.NewSelectField(id+"-target", "Target column", "labels (classification) or values (regression) to predict", nil, "")
	top := kit.El("div", "class", "controls task")
	kit.AppendAll(top, e.data.Wrap, e.lossSel.Wrap, e.estSel.Wrap, e.targetSel.Wrap)

	// CSV input.
	e.csvBox = kit.El("div", "class", "csvbox", "id", id+"-csvbox", "hidden", "")
	e.csvText = kit.AsTextArea(kit.El("textarea", "id", id+"-csv", "rows", "6", "spellcheck", "false",
		"placeholder", csvPlaceholder, "aria-describedby", id+"-csv-help "+id+"-csv-err"))
	file := kit.El("input", "type", "file", "id", id+"-file", "accept", ".csv,.tsv,text/csv,text/tab-separated-values,text/plain")
	e.headerSel = kit.AsSelect(kit.El("select", "id", id+"-header"))
	kit.SetOptions(e.headerSel, [][2]string{{dataset.HeaderAuto, "auto (a row of names only)"}, {dataset.HeaderPresent, "yes"}, {dataset.HeaderAbsent, "no"}}, dataset.HeaderAuto)
	headerRow := kit.El("div", "class", "filerow")
	kit.AppendAll(headerRow, kit.Text("label", "first row is a header: ", "for", id+"-header"), e.headerSel)
	e.csvErr = kit.El("div", "id", id+"-csv-err", "class", "error", "role", "alert")
	e.csvProg = kit.El("div", "id", id+"-csv-progress", "class", "help", "role", "status")
	e.heldLine = kit.El("div", "id", id+"-csv-held", "class", "help", "hidden", "")
	e.checkBox = kit.El("div", "id", id+"-csv-check", "class", "owner-note", "role", "status", "hidden", "")
	kit.AppendAll(e.csvBox,
		kit.Text("label", "CSV text (paste here, or drop a file on this box)", "for", id+"-csv"), e.heldLine, e.csvText,
		kit.Text("small", fmt.Sprintf("Comma, semicolon or tab separated (detected from the first line; a semicolon file may use decimal commas, 1,5); "+
			"a header line names the columns; at most %d MB. You declare each used column's range below, and the features are scaled "+
			"by those ranges to [−1, 1]; results are shown in your columns' units.", maxPasteBytes>>20), "id", id+"-csv-help", "class", "help"),
		kit.AppendAll(kit.El("div", "class", "filerow"), kit.Text("label", fmt.Sprintf("or choose a file (at most %d MB): ", maxPasteBytes>>20), "for", id+"-file"), file),
		headerRow, e.csvErr, e.csvProg, e.checkBox)

	e.featBox = kit.El("fieldset", "class", "features", "id", id+"-features")
	e.rangesBox = kit.El("fieldset", "class", "features", "id", id+"-ranges")
	e.rangesErr = kit.El("div", "id", id+"-ranges-err", "class", "error", "role", "alert")
	e.eps = kit.NewNumberField(id+"-epsilon", "ε (epsilon)", kit.Attr(root, "epsilon", "1"), "any", "privacy loss; smaller is more private")
	e.delta = kit.NewNumberField(id+"-delta", "δ (delta)", kit.Attr(root, "delta", form.RowsDeltaText(0)), "any", "in (0, 1); should be ≪ 1/n")
	e.c = kit.NewNumberField(id+"-radius", "C (radius)", kit.Attr(root, "radius", "1.5"), "any",
		fmt.Sprintf("public bound on ‖θ*‖ in scaled units; by default from the public rule C·clip = %v (classification), %v (regression), "+
			"or %v for a centre, chosen on development data (", mechanism.RadiusClassification, mechanism.RadiusRegression, mechanism.RadiusLocation))
	kit.AppendToHelp(e.c.Wrap, kit.DocLink(root, "DEFAULTS.md", "why"), kit.TextNode(")"))
	e.k = kit.NewNumberField(id+"-rank", "k (rank)", kit.Attr(root, "rank", ""), "1", "public rank bound; empty = d")
	e.m = kit.NewNumberField(id+"-samples", "samples", kit.Attr(root, "samples", "1"), "1",
		"1 = the estimate you would publish. More samples show a spread, but each costs privacy: "+
			"m samples are composed, so each is drawn at s/√m (m = 4: half the Gaussian-DP parameter s of one)")
	e.workers = kit.NewSelectField(id+"-workers", "workers", "threads of this device that share the passes over the rows "+
		"(the smooth losses' sampler); θ is the same whatever the number", timing.WorkerOptions(), strconv.Itoa(timing.OfferedWorkers(kit.Attr(root, "workers", ""))))
	e.fixedWork = kit.AsInput(kit.El("input", "type", "checkbox", "id", id+"-fixed-work", "aria-describedby", id+"-fixed-work-help"))
	e.fixedWork.SetChecked(kit.Attr(root, "fixed-work", "on") != "off")
	fixedLab := kit.El("label", "for", id+"-fixed-work", "class", "check")
	kit.AppendAll(fixedLab, e.fixedWork, kit.TextNode(" hide the run time (fixed work)"))
	fixedWrap := kit.El("div", "class", "field")
	kit.AppendAll(fixedWrap, fixedLab, kit.Text("small", "the sampler does the same passes whatever the rows hold, so the time a run takes says "+
		"nothing about them — useful when others can see it; about 3–4× the passes of a run that stops when it can", "id", id+"-fixed-work-help", "class", "help"))
	e.interval = kit.AsInput(kit.El("input", "type", "checkbox", "id", id+"-interval", "aria-describedby", id+"-interval-line"))
	e.interval.SetChecked(kit.Attr(root, "interval", "on") != "off")
	ivLab := kit.El("label", "for", id+"-interval", "class", "check")
	kit.AppendAll(ivLab, e.interval, kit.TextNode(" 95 % intervals"))
	e.intervalLine = kit.Text("small", "", "id", id+"-interval-line", "class", "help")
	ivWrap := kit.El("div", "class", "field")
	kit.AppendAll(ivWrap, ivLab, e.intervalLine)
	params := kit.El("div", "class", "controls")
	kit.AppendAll(params, e.eps.Wrap, e.delta.Wrap, e.c.Wrap, e.k.Wrap, e.m.Wrap, e.workers.Wrap, fixedWrap, ivWrap)
	e.epsWords = kit.Text("p", "", "id", id+"-eps-words", "class", "detail")
	e.formErr = kit.El("div", "id", id+"-err", "class", "error", "role", "alert")
	e.workLine = kit.El("p", "id", id+"-work", "class", "detail", "role", "status")
	v.run = kit.NewRunner(id, "Run privately")
	v.run.ShowLeft = true
	v.ledger = ledger.New(root, id)
	v.ledger.OnRender = func() { v.dispatch(form.LedgerSeen{Ledger: v.ledgerSeen()}) }
	v.ledger.Source = func() (js.Value, string) {
		s, b := v.text()
		if b != nil {
			return js.Undefined(), "" // a built-in: hashed here
		}
		return v.textJS(), s
	}
	e.out = kit.El("div", "class", "results", "id", id+"-results", "aria-live", "polite")
	e.summary = kit.El("div", "id", id+"-summary")
	e.fig = kit.El("figure", "id", id+"-plot", "class", "plot")
	e.excess = kit.El("div", "id", id+"-excess", "class", "excess")
	e.statement = kit.El("div", "id", id+"-statement", "class", "statement")
	e.export = kit.El("p", "id", id+"-export")
	kit.AppendAll(e.out, e.fig, e.summary, e.excess, e.statement, e.export)
	kit.AppendAll(root, top, e.csvBox, e.featBox, e.rangesBox, e.rangesErr, params, e.epsWords, e.formErr, e.workLine, v.run.Wrap, v.ledger.Wrap, e.out)

	v.st = v.initial()
	v.wire(file)
	kit.OnResize(func() {
		if v.redraw != nil {
			v.redraw()
		}
	})
	kit.PendingLoads.Add(1)
	go func() {
		defer kit.PendingLoads.Done()
		b := v.builtin()
		if b != nil { // only the selected built-in belongs to the initial load
			b.load(root)
		}
		v.chooseDataset(b, false)
	}()
}

// initial is the form's first state, from the element's attributes.
func (v *estimateView) initial() form.State {
	e := &v.el
	var s form.State
	c := &s.Choice
	c.Loss, _ = loss.ParseKind(e.lossSel.Sel.Value())
	c.LossAuto = kit.Attr(v.root, "loss", "") == ""
	c.Estimator = kit.Attr(v.root, "estimator", "") // "": the study's rule for the loss (mechanism.RecommendedEstimator)
	c.Header = dataset.HeaderAuto
	c.Epsilon, c.Delta, c.Radius, c.Rank, c.Samples = e.eps.Input.Value(), e.delta.Input.Value(), e.c.Input.Value(), e.k.Input.Value(), e.m.Input.Value()
	// δ follows a file's row count (form.RowsDelta) and C the public rule of
	// mechanism.DefaultRadius until the user (or the element's attribute)
	// sets them.
	c.DeltaAuto = kit.Attr(v.root, "delta", "") == ""
	c.RadiusAuto = kit.Attr(v.root, "radius", "") == ""
	c.Workers, _ = strconv.Atoi(e.workers.Sel.Value())
	c.FixedWork = e.fixedWork.Checked()
	c.Interval = e.interval.Checked()
	s.Ledger = v.ledgerSeen()
	s, _ = form.Update(s, form.Forgot{}) // settles the maps
	return s
}

// ledgerSeen is the table's ledger as the ledger view holds it.
func (v *estimateView) ledgerSeen() form.Ledger {
	lv := v.ledger
	l := form.Ledger{Key: lv.Key, Blocked: lv.Blocked}
	if lv.State != nil && lv.Key != "" && lv.State.Key == lv.Key {
		l.State = lv.State
	}
	eps, delta, err := lv.Budget()
	l.Epsilon, l.Delta = eps, delta
	if err != nil {
		l.BudgetErr = err.Error()
	}
	return l
}

// dispatch applies an event: the form decides, the view renders the state
// and carries out the action.
func (v *estimateView) dispatch(ev form.Event) {
	st, act := form.Update(v.st, ev)
	v.st = st
	v.show()
	v.carry(act)
}

// wire turns the DOM's events into the form's.
func (v *estimateView) wire(file kit.Elem) {
	e := &v.el
	stale := func(why string) { kit.MarkStale(e.out, v.id, why) }
	kit.On(e.data.Sel, "change", false, func(kit.Event) {
		stale("the dataset changed")
		b := v.builtin()
		v.chooseDataset(b, true)
		if b != nil && !b.loaded() {
			// First selection of a built-in that was not needed at start:
			// the form shows it loading (its task chosen), and gets its
			// columns once fetched (if it is still chosen).
			go func() {
				b.load(v.root)
				if v.builtin() == b {
					cols, _ := dataset.ColumnsWith(b.text, b.Options().Header)
					v.dispatch(form.BuiltinLoaded{Columns: cols})
					v.ledger.TableChanged(b.text)
				}
			}()
		}
	})
	kit.On(e.lossSel.Sel, "change", false, func(kit.Event) {
		k, _ := loss.ParseKind(e.lossSel.Sel.Value())
		stale("the task changed")
		v.dispatch(form.LossChosen{Loss: k})
	})
	kit.On(e.estSel.Sel, "change", false, func(kit.Event) {
		stale("the estimator changed")
		v.dispatch(form.EstimatorChosen{Method: e.estSel.Sel.Value()})
	})
	kit.On(e.targetSel.Sel, "change", false, func(kit.Event) {
		stale("the target changed")
		v.dispatch(form.TargetChosen{Col: e.targetSel.Sel.Value()})
	})
	kit.On(e.featBox, "change", false, func(kit.Event) {
		on := map[string]bool{}
		for _, in := range kit.Qsa(e.featBox, "input[type=checkbox]:not([disabled])") {
			on[kit.AsInput(in).Value()] = kit.AsInput(in).Checked()
		}
		stale("the features changed")
		v.dispatch(form.FeaturesTicked{On: on})
	})
	kit.On(e.headerSel, "change", false, func(kit.Event) {
		stale("the header choice changed")
		v.dispatch(form.HeaderChosen{Mode: e.headerSel.Value()})
		v.columnsChanged() // the columns' names and the file's checks follow the declaration
	})
	kit.On(e.rangesBox, "input", false, func(ev kit.Event) { v.declarationTyped(kit.Target(ev)) })
	v.wireText(file)
	for name, f := range map[string]kit.NumberField{"epsilon": e.eps, "delta": e.delta, "radius": e.c, "rank": e.k, "samples": e.m} {
		kit.On(f.Input, "input", false, func(kit.Event) { v.dispatch(form.NumberTyped{Field: name, Text: f.Input.Value()}) })
	}
	kit.On(e.workers.Sel, "change", false, func(kit.Event) {
		n, _ := strconv.Atoi(e.workers.Sel.Value())
		v.dispatch(form.WorkersChosen{N: n})
	})
	kit.On(e.fixedWork, "change", false, func(kit.Event) { v.dispatch(form.FixedWorkTicked{On: e.fixedWork.Checked()}) })
	kit.On(e.interval, "change", false, func(kit.Event) {
		stale("the intervals were asked for or not")
		v.dispatch(form.IntervalTicked{On: e.interval.Checked()})
	})
	kit.On(v.run.Run, "click", false, func(kit.Event) { go v.press(form.Pressed{}) })
}

// declarationTyped reads a typed range end, positive label or category
// list into the form (the one-line field has its own handler).
func (v *estimateView) declarationTyped(t kit.Elem) {
	if t.GetAttribute("data-line") != "" {
		return
	}
	kit.MarkStale(v.el.out, v.id, "a declared range changed")
	val := kit.AsInput(t).Value()
	switch {
	case t.GetAttribute("data-indicator") != "":
		v.dispatch(form.IndicatorTicked{Col: t.GetAttribute("data-indicator"), On: kit.AsInput(t).Checked()})
	case t.GetAttribute("data-level") != "":
		v.dispatch(form.LevelDeclared{Col: t.GetAttribute("data-level"), Token: val, On: kit.AsInput(t).Checked()})
	case t.GetAttribute("data-positive") != "":
		v.dispatch(form.PositiveTyped{Col: t.GetAttribute("data-positive"), Label: val})
	case t.GetAttribute("data-cat") != "":
		v.dispatch(form.CatsTyped{Col: t.GetAttribute("data-cat"), Text: val})
	case t.GetAttribute("data-col") != "":
		v.dispatch(form.RangeTyped{Col: t.GetAttribute("data-col"), Hi: t.GetAttribute("data-end") == "hi", Text: val})
	}
}

// chooseDataset shows the built-in b (nil: the CSV box) as the table.
func (v *estimateView) chooseDataset(b *builtin, user bool) {
	if b == nil {
		v.el.csvBox.RemoveAttribute("hidden")
		v.dispatch(form.DatasetChosen{User: user})
		v.columnsChanged()
		return
	}
	v.el.csvBox.SetAttribute("hidden", "")
	fb := b.Builtin
	if b.loaded() {
		fb.Columns, _ = dataset.ColumnsWith(b.text, b.Options().Header)
	}
	v.dispatch(form.DatasetChosen{Builtin: &fb, User: user})
	v.ledger.TableChanged(b.text)
}
