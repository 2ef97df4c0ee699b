//go:build js && wasm

// Package estimate is the page's "estimate" view (<dp-estimate>): a table
// in, a private estimate out. Its rooms below internal/: ledger (the table's
// privacy budget), timing (how long a run will take), report (a run's
// prepared input and the result's sentences, tables and figures) and
// categories (text features' one-hot lists, typed or found privately).
package estimate

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"sync"
	"syscall/js"

	"github.com/dpsample/dpsample/core/checks"
	"github.com/dpsample/dpsample/core/dataset"
	"github.com/dpsample/dpsample/core/loss"
	"github.com/dpsample/dpsample/core/mechanism"
	"github.com/dpsample/dpsample/wasm/ui/estimate/internal/categories"
	"github.com/dpsample/dpsample/wasm/ui/estimate/internal/ledger"
	"github.com/dpsample/dpsample/wasm/ui/estimate/internal/pieces"
	"github.com/dpsample/dpsample/wasm/ui/estimate/internal/report"
	"github.com/dpsample/dpsample/wasm/ui/estimate/internal/timing"
	"github.com/dpsample/dpsample/wasm/ui/internal/kit"
	"honnef.co/go/js/dom/v2"
)

// builtin is a shipped dataset (core/dataset.Builtins) with the page's
// defaults for it and its text, fetched when first needed: the selected one
// at start-up, another when the user first selects it (or runs on it).
type builtin struct {
	dataset.Builtin
	features  []string   // checked at first
	loss      loss.Kind  // chosen at first
	regTarget string     // the numeric target offered first to a regression loss
	mu        sync.Mutex // held during the fetch: one fetch per dataset however many views wait
	pending   js.Value   // the fetch's promise, when begun by prefetch and not yet awaited
	text      string     // filled by load
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
		out = append(out, &builtin{Builtin: b, features: d.features, loss: d.loss, regTarget: d.regTarget})
	}
	return out
}()

// maxPasteBytes caps the CSV text the page accepts (pasted, typed or
// dropped): a bound on what the page parses on its main thread (a 16 MB
// table is ≈ 100,000 rows of 10 columns). The limit a run meets first is
// its time (work.go, internal/timing): how long the plan's passes take here.
const maxPasteBytes = 16 << 20

// lossOptions are the losses the form offers, with their labels.
var lossOptions = func() [][2]string {
	var out [][2]string
	for _, o := range []struct {
		k     loss.Kind
		label string
	}{
		{loss.L1, "centre: coordinate median (ℓ1)"},
		{loss.L2Dist, "centre: geometric median (ℓ2)"},
		{loss.Logistic, "classification: logistic regression"},
		{loss.Hinge, "classification: SVM (hinge)"},
		{loss.SmoothHinge, "classification: smooth hinge (fast)"},
		{loss.LAD, "regression: least absolute deviation"},
		{loss.Quantile, "regression: median (quantile τ = ½)"},
		{loss.SmoothQuantile, "regression: smooth median (fast)"},
		{loss.Huber, "regression: Huber"},
	} {
		out = append(out, [2]string{o.k.String(), o.label})
	}
	return out
}()

// estimatorOptions are the estimators the form offers (Request.Method):
// Algorithm 1, the default, and unprojected DP-GD, the study's rule for the
// smooth supervised losses (docs/DEFAULTS.md, "Which estimator").
var estimatorOptions = [][2]string{
	{string(mechanism.EstimatorExponential), "Algorithm 1 (sampling)"},
	{string(mechanism.EstimatorDPGD), "DP-GD (noisy gradients)"},
}

// lossKind is the loss chosen in the form (every option is a loss.Kind name).
func (v *estimateView) lossKind() loss.Kind {
	k, _ := loss.ParseKind(v.lossSel.Sel.Value())
	return k
}

type estimateView struct {
	id            string
	root          kit.Elem
	data, lossSel kit.SelectField
	estSel        kit.SelectField // the estimator (Request.Method); Algorithm 1 only for a location loss
	estWant       string          // the estimator the user (or the attribute) chose, restored for a supervised loss
	targetSel     kit.SelectField
	csvBox        kit.Elem
	csvText       *dom.HTMLTextAreaElement
	csvErr        kit.Elem
	dropMissing   *dom.HTMLInputElement
	headerSel     *dom.HTMLSelectElement // whether a CSV's first row is a header (dataset.Options.Header)
	featBox       kit.Elem
	rangesBox     kit.Elem // the declared public ranges (and positive label)
	rangesErr     kit.Elem
	declared      map[string][2]string    // column → the lo, hi the user typed (kept across redraws)
	positive      map[string]string       // target column → the declared positive label
	private       map[string]privateRange // column → the range found privately for it (private.go)
	carried       map[string]privateRange // column → a range found privately whose release this table's ledger does not hold (private_held.go): not in the inputs
	featState     map[string]bool         // feature column → checked (the user's last choice)
	cats          *categories.Book        // the text features' categories, typed or found privately (internal/categories)
	// A CSV's profile (dataset.ProfileText, for the owner's eyes and the
	// form's first choices) and what was found at load time.
	profile             *dataset.Profile
	profText            string      // the text profiled
	profMode            string      // with this header declaration
	profDone            bool        // profile (or loadErr) is profText's: it is not profiled again
	profJob             *profileJob // a large text's profile under way in the worker (profile.go)
	csvProg             kit.Elem    // its progress
	held                js.Value    // a large table held out of the box (data.go), as a JS string
	heldText            string      // the same, in Go
	heldLine            kit.Elem    // says what is held, with a button to remove it
	holdGen             int         // counts holds and unholds (a copy under way is dropped when another starts)
	fileKey             string      // the profiled file's column names (hash), to tell a new kind of file
	loadErr             string      // the text's own error (too large, not CSV), kept in csvErr until the text changes
	checkBox            kit.Elem    // findings about the file, for the owner only
	positiveNote        kit.Elem    // how the positive label codes the target, for the owner only
	lineIn              *dom.HTMLInputElement
	lineMsg             kit.Elem
	recalled            bool     // declarations were filled in from this browser's memory
	lossAuto            bool     // the task follows the CSV's target column (until the user chooses one)
	deltaAuto           bool     // δ follows the CSV's row count (rowsDelta) until the user types one
	epsWords            kit.Elem // the attacker's sentence for the run about to happen (under ε and δ)
	taskAsked           bool     // the owner was asked to confirm a task suggested from the file's contents (a second Run confirms)
	taskOK              string   // "loss|target" the owner confirmed for files with this header (remembered with the declarations)
	pointlessOK         string   // the run the page warned was pointless (one label for every row) and the owner chose to run anyway
	eps, delta, c, k, m kit.NumberField
	workers             kit.SelectField       // the cores offered to the sampler's passes (Request.Workers)
	fixedWork           *dom.HTMLInputElement // Request.FixedWork: hide the run time (on by default)
	workLine            kit.Elem              // how long the run will take (work.go, internal/timing)
	confirmed           string                // the run a long-run warning was shown for (a second Run starts it)
	cAuto               bool                  // C still follows mechanism.DefaultRadius (not set by the user or an attribute)
	formErr             kit.Elem
	run                 *kit.Runner
	ledger              *ledger.View // the table's privacy budget, next to Run (internal/ledger)
	out, summary        kit.Elem
	fig                 kit.Elem
	excess, statement   kit.Elem
	export              kit.Elem
	exportURL           string
	redraw              func()
	colTimer            js.Value // debounce of the column detection
	colFunc             js.Func  // its callback
	lastText            string   // the text the columns were detected from
}

// csvPlaceholder is the CSV box's placeholder when it holds the table.
const csvPlaceholder = "x1,x2,label\n0.1,0.5,yes\n…"

// Build fills root, a <section data-view="estimate">, with the view (ui.go's
// table of views).
func Build(root kit.Elem) {
	v := &estimateView{id: kit.IdPrefix(root, "est"), root: root, declared: map[string][2]string{}, positive: map[string]string{}, private: map[string]privateRange{},
		carried: map[string]privateRange{}, featState: map[string]bool{}, cats: categories.NewBook()}
	id := v.id
	kit.AppendAll(root,
		kit.Text("h2", "Private estimate"),
		kit.Text("p", "Fit a centre, a classifier or a regression line to a table, privately, on this device. "+
			"dpsample draws the estimate from Algorithm 1's distribution ∝ exp(−η·(L(θ) + μ‖θ‖²/2)), "+
			"with η and μ set from ε, δ and the public bounds only. Your file is read by this page and never sent anywhere.", "class", "lede"))
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
	v.data = kit.NewSelectField(id+"-data", "Dataset", "built-in data are public: ", dsOpts, ds)
	kit.AppendToHelp(v.data.Wrap, kit.DataLink(root, "SOURCES.md", "their sources and licences"))
	v.lossSel = kit.NewSelectField(id+"-loss", "Task / loss", "what θ estimates. The smooth losses (logistic, Huber, smooth hinge, "+
		"smooth median) are sampled fastest, exactly, by the first-order sampler; the smooth hinge and median round the kink "+
		"off over a width h = 1 and give nearly the same fit as their sharp versions.", lossOptions, kit.Attr(root, "loss", ""))
	v.estWant = kit.Attr(root, "estimator", "") // "": the study's rule for the loss (mechanism.RecommendedEstimator)
	v.estSel = kit.NewSelectField(id+"-estimator", "Estimator", "how θ is drawn; both are charged to the table's budget by the same "+
		"accountant. It starts at DP-GD for the smooth supervised losses (logistic, Huber, smooth hinge, smooth median), which was "+
		"as good or better on every dataset of the study, and at Algorithm 1 — the paper's mechanism — for the others; a centre is "+
		"always drawn by Algorithm 1 (", estimatorOptions, string(mechanism.EstimatorExponential))
	kit.AppendToHelp(v.estSel.Wrap, kit.DocLink(root, "DEFAULTS.md", "the study's rule"), kit.TextNode(")"))
	v.targetSel = kit.NewSelectField(id+"-target", "Target column", "labels (classification) or values (regression) to predict", nil, "")
	top := kit.El("div", "class", "controls task")
	kit.AppendAll(top, v.data.Wrap, v.lossSel.Wrap, v.estSel.Wrap, v.targetSel.Wrap)
	v.lossAuto = kit.Attr(root, "loss", "") == ""

	// CSV input.
	v.csvBox = kit.El("div", "class", "csvbox", "id", id+"-csvbox", "hidden", "")
	v.csvText = kit.AsTextArea(kit.El("textarea", "id", id+"-csv", "rows", "6", "spellcheck", "false",
		"placeholder", csvPlaceholder, "aria-describedby", id+"-csv-help "+id+"-csv-err"))
	file := kit.El("input", "type", "file", "id", id+"-file", "accept", ".csv,.tsv,text/csv,text/tab-separated-values,text/plain")
	v.dropMissing = kit.AsInput(kit.El("input", "type", "checkbox", "id", id+"-drop"))
	dropLab := kit.El("label", "for", id+"-drop", "class", "check")
	kit.AppendAll(dropLab, v.dropMissing, kit.TextNode(" drop rows with missing cells (and say how many)"))
	v.headerSel = kit.AsSelect(kit.El("select", "id", id+"-header"))
	kit.SetOptions(v.headerSel, [][2]string{{dataset.HeaderAuto, "auto (a row of names only)"}, {dataset.HeaderPresent, "yes"}, {dataset.HeaderAbsent, "no"}}, dataset.HeaderAuto)
	headerRow := kit.El("div", "class", "filerow")
	kit.AppendAll(headerRow, kit.Text("label", "first row is a header: ", "for", id+"-header"), v.headerSel)
	v.csvErr = kit.El("div", "id", id+"-csv-err", "class", "error", "role", "alert")
	v.csvProg = kit.El("div", "id", id+"-csv-progress", "class", "help", "role", "status")
	v.heldLine = kit.El("div", "id", id+"-csv-held", "class", "help", "hidden", "")
	v.checkBox = kit.El("div", "id", id+"-csv-check", "class", "owner-note", "role", "status", "hidden", "")
	kit.AppendAll(v.csvBox,
		kit.Text("label", "CSV text (paste here, or drop a file on this box)", "for", id+"-csv"), v.heldLine, v.csvText,
		kit.Text("small", fmt.Sprintf("Comma, semicolon or tab separated (detected from the first line; a semicolon file may use decimal commas, 1,5); "+
			"a header line names the columns; at most %d MB. You declare each used column's range below, and the features are scaled "+
			"by those ranges to [−1, 1]; results are shown in your columns' units.", maxPasteBytes>>20), "id", id+"-csv-help", "class", "help"),
		kit.AppendAll(kit.El("div", "class", "filerow"), kit.Text("label", fmt.Sprintf("or choose a file (at most %d MB): ", maxPasteBytes>>20), "for", id+"-file"), file),
		headerRow, dropLab, v.csvErr, v.csvProg, v.checkBox)

	v.featBox = kit.El("fieldset", "class", "features", "id", id+"-features")
	v.rangesBox = kit.El("fieldset", "class", "features", "id", id+"-ranges")
	v.rangesErr = kit.El("div", "id", id+"-ranges-err", "class", "error", "role", "alert")
	v.eps = kit.NewNumberField(id+"-epsilon", "ε (epsilon)", kit.Attr(root, "epsilon", "1"), "any", "privacy loss; smaller is more private")
	v.delta = kit.NewNumberField(id+"-delta", "δ (delta)", kit.Attr(root, "delta", ledger.RowsDeltaText(0)), "any", "in (0, 1); should be ≪ 1/n")
	// δ follows a file's row count (rowsDelta) until the user (or the
	// element's delta attribute) sets it.
	v.deltaAuto = kit.Attr(root, "delta", "") == ""
	kit.On(v.delta.Input, "input", false, func(kit.Event) { v.deltaAuto = false })
	// C follows the public rule of defaultRadius until the user (or the
	// element's radius attribute) sets it.
	v.cAuto = kit.Attr(root, "radius", "") == ""
	v.c = kit.NewNumberField(id+"-radius", "C (radius)", kit.Attr(root, "radius", "1.5"), "any",
		fmt.Sprintf("public bound on ‖θ*‖ in scaled units; by default from the public rule C·clip = %v (classification), %v (regression), "+
			"or %v for a centre, chosen on development data (", mechanism.RadiusClassification, mechanism.RadiusRegression, mechanism.RadiusLocation))
	kit.AppendToHelp(v.c.Wrap, kit.DocLink(root, "DEFAULTS.md", "why"), kit.TextNode(")"))
	v.k = kit.NewNumberField(id+"-rank", "k (rank)", kit.Attr(root, "rank", ""), "1", "public rank bound; empty = d")
	v.m = kit.NewNumberField(id+"-samples", "samples", kit.Attr(root, "samples", "1"), "1",
		"1 = the estimate you would publish. More samples show a spread, but each costs privacy: "+
			"m samples are composed, so each is drawn at s/√m (m = 4: half the Gaussian-DP parameter s of one)")
	v.workers = kit.NewSelectField(id+"-workers", "workers", "threads of this device that share the passes over the rows "+
		"(the smooth losses' sampler); θ is the same whatever the number", timing.WorkerOptions(), strconv.Itoa(timing.OfferedWorkers(kit.Attr(root, "workers", ""))))
	v.fixedWork = kit.AsInput(kit.El("input", "type", "checkbox", "id", id+"-fixed-work", "aria-describedby", id+"-fixed-work-help"))
	v.fixedWork.SetChecked(kit.Attr(root, "fixed-work", "on") != "off")
	fixedLab := kit.El("label", "for", id+"-fixed-work", "class", "check")
	kit.AppendAll(fixedLab, v.fixedWork, kit.TextNode(" hide the run time (fixed work)"))
	fixedWrap := kit.El("div", "class", "field")
	kit.AppendAll(fixedWrap, fixedLab, kit.Text("small", "the sampler does the same passes whatever the rows hold, so the time a run takes says "+
		"nothing about them — useful when others can see it; about 3–4× the passes of a run that stops when it can", "id", id+"-fixed-work-help", "class", "help"))
	params := kit.El("div", "class", "controls")
	kit.AppendAll(params, v.eps.Wrap, v.delta.Wrap, v.c.Wrap, v.k.Wrap, v.m.Wrap, v.workers.Wrap, fixedWrap)
	v.epsWords = kit.Text("p", report.RunWords(v.eps.Input.Value(), v.delta.Input.Value()), "id", id+"-eps-words", "class", "detail")
	v.formErr = kit.El("div", "id", id+"-err", "class", "error", "role", "alert")
	v.workLine = kit.El("p", "id", id+"-work", "class", "detail", "role", "status")
	v.run = kit.NewRunner(id, "Run privately")
	v.run.ShowLeft = true
	v.ledger = ledger.New(root, id)
	v.ledger.OnRender = func() { // the table's ledger, now known, may hold a remembered range's (or list's) release, or no longer hold one
		if v.reconcilePrivate() || v.cats.Changed(v.tableLedger()) {
			v.rangesChanged()
		}
	}
	v.ledger.Source = func() (js.Value, string) {
		s, b := v.text()
		if b != nil {
			return js.Undefined(), "" // a built-in: hashed here
		}
		return v.textJS(), s
	}
	v.out = kit.El("div", "class", "results", "id", id+"-results", "aria-live", "polite")
	v.summary = kit.El("div", "id", id+"-summary")
	v.fig = kit.El("figure", "id", id+"-plot", "class", "plot")
	v.excess = kit.El("div", "id", id+"-excess", "class", "excess")
	v.statement = kit.El("div", "id", id+"-statement", "class", "statement")
	v.export = kit.El("p", "id", id+"-export")
	kit.AppendAll(v.out, v.fig, v.summary, v.excess, v.statement, v.export)
	kit.AppendAll(root, top, v.csvBox, v.featBox, v.rangesBox, v.rangesErr, params, v.epsWords, v.formErr, v.workLine, v.run.Wrap, v.ledger.Wrap, v.out)

	kit.On(v.data.Sel, "change", false, func(kit.Event) {
		kit.MarkStale(v.out, v.id, "the dataset changed")
		if b := v.builtin(); b != nil && !b.loaded() {
			// First selection of a built-in that was not needed at start:
			// fetch it now, then reset the form (if it is still chosen).
			v.featBox.SetInnerHTML("")
			kit.AppendAll(v.featBox, kit.Text("legend", "Features"), kit.Text("p", "Loading "+b.Label+"…", "class", "help"))
			v.rangesBox.SetInnerHTML("")
			go func() {
				b.load(v.root)
				if v.builtin() == b {
					v.datasetChanged(true)
				}
			}()
			return
		}
		v.datasetChanged(true)
	})
	kit.On(v.lossSel.Sel, "change", false, func(kit.Event) {
		v.lossAuto = false // the user's choice, kept until a file with other columns is loaded
		v.columnsChanged()
		v.dataInputsChanged("the task changed")
	})
	kit.On(v.estSel.Sel, "change", false, func(kit.Event) {
		v.estWant = v.estSel.Sel.Value()
		kit.MarkStale(v.out, v.id, "the estimator changed")
	})
	kit.On(v.csvText, "input", false, func(kit.Event) { v.textEdited() })
	kit.On(v.csvText, "paste", false, func(e kit.Event) {
		// Refuse a paste over the cap before it lands in the textarea.
		cd := e.Underlying().Get("clipboardData")
		if !cd.Truthy() {
			return
		}
		t := cd.Call("getData", "text")
		switch n := pieces.StrLen(t); {
		case n > maxPasteBytes:
			e.PreventDefault()
			v.stopProfile()
			v.loadErr = tooLarge(n).Error() // the text's own error: it stays until the text changes
			v.csvErr.SetTextContent(v.loadErr)
		case n >= kit.AsyncProfileBytes:
			// Held by the page, never laid out in the box (data.go).
			e.PreventDefault()
			v.cancelColumnsTimer()
			go v.hold(t, "pasted")
		}
	})
	kit.On(v.targetSel.Sel, "change", false, func(kit.Event) {
		if _, b := v.text(); b == nil && v.profile != nil && !v.lossKind().Classification() {
			if c, ok := v.profile.Column(v.targetSel.Sel.Value()); ok && !usable(c) {
				v.lossAuto = true // a text target cannot be regressed on: the task follows it (confirmed at Run)
			}
		}
		v.columnsChanged()
		v.dataInputsChanged("the target changed")
	})
	kit.On(v.featBox, "change", false, func(kit.Event) {
		v.rangesChanged()
		v.dataInputsChanged("the features changed")
	})
	kit.On(v.dropMissing, "change", false, func(kit.Event) { v.dataInputsChanged("the missing-cell choice changed") })
	kit.On(v.headerSel, "change", false, func(kit.Event) {
		v.columnsChanged() // the columns' names and the file's checks follow the declaration
		v.dataInputsChanged("the header choice changed")
	})
	kit.On(v.rangesBox, "input", false, func(e kit.Event) { v.rangeEdited(kit.Target(e)) })
	kit.On(file, "change", false, func(kit.Event) {
		files := file.Underlying().Get("files")
		if files.Length() > 0 {
			v.readFile(files.Index(0))
		}
	})
	kit.On(v.csvBox, "dragover", false, func(e kit.Event) { e.PreventDefault(); v.csvBox.Class().Add("dragging") })
	kit.On(v.csvBox, "dragleave", false, func(kit.Event) { v.csvBox.Class().Remove("dragging") })
	kit.On(v.csvBox, "drop", false, func(e kit.Event) {
		e.PreventDefault()
		v.csvBox.Class().Remove("dragging")
		files := e.Underlying().Get("dataTransfer").Get("files")
		if files.Length() > 0 {
			v.readFile(files.Index(0))
		}
	})
	// Live validation: each parameter by the core rule the JS API applies.
	live := []struct {
		f    kit.NumberField
		rule func(string) error
	}{
		{v.eps, func(s string) error {
			x, err := kit.ParseNumber("epsilon", s)
			return checks.First(err, checks.Epsilon("epsilon", x))
		}},
		{v.delta, func(s string) error {
			x, err := kit.ParseNumber("delta", s)
			return checks.First(err, checks.Delta("delta", x))
		}},
		{v.c, func(s string) error {
			x, err := kit.ParseNumber("radius", s)
			return checks.First(err, checks.Positive("radius", x))
		}},
		{v.k, func(s string) error {
			if strings.TrimSpace(s) == "" {
				return nil
			}
			_, err := kit.ParseInt("rank", s, 1, 1_000_000)
			return err
		}},
		{v.m, func(s string) error { _, err := kit.ParseInt("samples", s, 1, maxSamples); return err }},
	}
	kit.On(v.c.Input, "input", false, func(kit.Event) { v.cAuto = false })
	for _, l := range live {
		l := l
		kit.On(l.f.Input, "input", false, func(kit.Event) {
			l.f.SetError(l.rule(l.f.Input.Value()))
			v.epsWords.SetTextContent(report.RunWords(v.eps.Input.Value(), v.delta.Input.Value()))
			v.formErr.SetTextContent("")
			v.workChanged()
		})
	}
	kit.On(v.workers.Sel, "change", false, func(kit.Event) { v.workChanged() })
	kit.On(v.fixedWork, "change", false, func(kit.Event) { v.workChanged() })
	kit.On(v.run.Run, "click", false, func(kit.Event) { go v.runEstimate() })
	kit.OnResize(func() {
		if v.redraw != nil {
			v.redraw()
		}
	})
	kit.PendingLoads.Add(1)
	go func() {
		defer kit.PendingLoads.Done()
		if b := v.builtin(); b != nil { // only the selected built-in belongs to the initial load
			b.load(root)
		}
		v.datasetChanged(false)
	}()
}

// updateRadius sets C by mechanism.DefaultRadius (docs/DEFAULTS.md) for the
// loss and the checked features — rows are clipped to √dim and targets scaled
// to [−1, 1] — unless the user (or the radius attribute) chose C.
func (v *estimateView) updateRadius() {
	if !v.cAuto {
		return
	}
	l := v.lossKind()
	dim := len(v.features())
	if l.Supervised() {
		dim++ // the intercept
	}
	v.c.Input.SetValue(strconv.FormatFloat(mechanism.DefaultRadius(l, math.Sqrt(float64(max(dim, 1))), nil), 'g', 3, 64))
	v.c.SetError(nil)
}

// estimatorFor is the estimator of a run on n rows (released by every
// result): the user's choice, or for a supervised loss the study's rule for
// that loss, n and whether a range was found privately
// (mechanism.RecommendedEstimatorFor, issue 40), shown in the select.
func (v *estimateView) estimatorFor(l loss.Kind, n int) string {
	found := false
	for _, c := range v.shownColumns() {
		found = found || v.privateNote(c) != ""
	}
	if l.Supervised() && v.estWant == "" {
		v.estSel.Sel.SetValue(string(mechanism.RecommendedEstimatorFor(l, n, found)))
	}
	return v.estSel.Sel.Value()
}

// syncEstimator offers DP-GD for a supervised loss only (a location loss
// shows Algorithm 1, disabled), at docs/DEFAULTS.md's rule until the user
// (or the estimator attribute) chooses, a choice every supervised loss keeps.
func (v *estimateView) syncEstimator() {
	if l := v.lossKind(); l.Supervised() {
		v.estSel.Sel.RemoveAttribute("disabled")
		if v.estWant != "" {
			v.estSel.Sel.SetValue(v.estWant)
		} else {
			v.estSel.Sel.SetValue(string(mechanism.RecommendedEstimator(l)))
		}
		return
	}
	v.estSel.Sel.SetValue(string(mechanism.EstimatorExponential))
	v.estSel.Sel.SetAttribute("disabled", "")
}
