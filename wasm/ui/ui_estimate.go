//go:build js && wasm

package ui

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"sync"
	"syscall/js"

	"honnef.co/go/js/dom/v2"

	"github.com/dpsample/dpsample/core/checks"
	"github.com/dpsample/dpsample/core/dataset"
	"github.com/dpsample/dpsample/core/loss"
	"github.com/dpsample/dpsample/core/mechanism"
	"github.com/dpsample/dpsample/core/plot"
	"github.com/dpsample/dpsample/wasm/internal/jsio"
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
// dropped): a larger table is better sampled down first, and the cap keeps a
// 10 MB paste from freezing the page.
const maxPasteBytes = 2 << 20

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

// lossKind is the loss chosen in the form (every option is a loss.Kind name).
func (v *estimateView) lossKind() loss.Kind {
	k, _ := loss.ParseKind(v.lossSel.sel.Value())
	return k
}

type estimateView struct {
	id                  string
	root                dom.Element
	data, lossSel       selectField
	targetSel           selectField
	csvBox              dom.Element
	csvText             *dom.HTMLTextAreaElement
	csvErr              dom.Element
	dropMissing         *dom.HTMLInputElement
	featBox             dom.Element
	rangesBox           dom.Element // the declared public ranges (and positive label)
	rangesErr           dom.Element
	declared            map[string][2]string // column → the lo, hi the user typed (kept across redraws)
	positive            map[string]string    // target column → the declared positive label
	featState           map[string]bool      // feature column → checked (the user's last choice)
	eps, delta, c, k, m numberField
	cAuto               bool // C still follows defaultRadius (not set by the user or an attribute)
	formErr             dom.Element
	run                 *runner
	out, summary        dom.Element
	fig                 dom.Element
	excess, statement   dom.Element
	export              dom.Element
	exportURL           string
	redraw              func()
	colTimer            js.Value // debounce of the column detection
	lastText            string   // the text the columns were detected from
}

func buildEstimateView(root dom.Element) {
	v := &estimateView{id: idPrefix(root, "est"), root: root, declared: map[string][2]string{}, positive: map[string]string{},
		featState: map[string]bool{}}
	id := v.id
	appendAll(root,
		text("h2", "Private estimate"),
		text("p", "Fit a centre, a classifier or a regression line to a table, privately, on this device. "+
			"dpsample draws the estimate from Algorithm 1's distribution ∝ exp(−η·(L(θ) + μ‖θ‖²/2)), "+
			"with η and μ set from ε, δ and the public bounds only. Your file is read by this page and never sent anywhere.", "class", "lede"))
	ds := attr(root, "dataset", "penguins")
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
	v.data = newSelectField(id+"-data", "Dataset", "built-in data are public; see site/data/SOURCES.md", dsOpts, ds)
	v.lossSel = newSelectField(id+"-loss", "Task / loss", "what θ estimates. The smooth losses (logistic, Huber, smooth hinge, "+
		"smooth median) are sampled fastest, exactly, by the first-order sampler; the smooth hinge and median round the kink "+
		"off over a width h = 1 and give nearly the same fit as their sharp versions.", lossOptions, attr(root, "loss", ""))
	v.targetSel = newSelectField(id+"-target", "Target column", "labels (classification) or values (regression) to predict", nil, "")
	top := el("div", "class", "controls")
	appendAll(top, v.data.wrap, v.lossSel.wrap, v.targetSel.wrap)

	// CSV input.
	v.csvBox = el("div", "class", "csvbox", "id", id+"-csvbox", "hidden", "")
	v.csvText = el("textarea", "id", id+"-csv", "rows", "6", "spellcheck", "false",
		"placeholder", "x1,x2,label\n0.1,0.5,yes\n…", "aria-describedby", id+"-csv-help "+id+"-csv-err").(*dom.HTMLTextAreaElement)
	file := el("input", "type", "file", "id", id+"-file", "accept", ".csv,.tsv,text/csv,text/tab-separated-values,text/plain")
	v.dropMissing = el("input", "type", "checkbox", "id", id+"-drop").(*dom.HTMLInputElement)
	dropLab := el("label", "for", id+"-drop", "class", "check")
	appendAll(dropLab, v.dropMissing, doc().CreateTextNode(" drop rows with missing cells (and say how many)"))
	v.csvErr = el("div", "id", id+"-csv-err", "class", "error", "role", "alert")
	appendAll(v.csvBox,
		text("label", "CSV text (paste here, or drop a file on this box)", "for", id+"-csv"), v.csvText,
		text("small", fmt.Sprintf("Comma, semicolon or tab separated (detected from the first line; a semicolon file may use decimal commas, 1,5); "+
			"a header line names the columns; at most %d MB. You declare each used column's range below, and the features are scaled "+
			"by those ranges to [−1, 1]; results are shown in your columns' units.", maxPasteBytes>>20), "id", id+"-csv-help", "class", "help"),
		appendAll(el("div", "class", "filerow"), text("label", "or choose a file: ", "for", id+"-file"), file), dropLab, v.csvErr)

	v.featBox = el("fieldset", "class", "features", "id", id+"-features")
	v.rangesBox = el("fieldset", "class", "features", "id", id+"-ranges")
	v.rangesErr = el("div", "id", id+"-ranges-err", "class", "error", "role", "alert")
	v.eps = newNumberField(id+"-epsilon", "ε (epsilon)", attr(root, "epsilon", "1"), "any", "privacy loss; smaller is more private")
	v.delta = newNumberField(id+"-delta", "δ (delta)", attr(root, "delta", "1e-5"), "any", "in (0, 1); should be ≪ 1/n")
	// C follows the public rule of defaultRadius until the user (or the
	// element's radius attribute) sets it.
	v.cAuto = attr(root, "radius", "") == ""
	v.c = newNumberField(id+"-radius", "C (radius)", attr(root, "radius", "1.5"), "any",
		"public bound on ‖θ*‖ in scaled units; by default from the public rule C·clip = 4 (classification), 2 (regression), "+
			"or 1.5 for a centre (docs/DEFAULTS.md)")
	v.k = newNumberField(id+"-rank", "k (rank)", attr(root, "rank", ""), "1", "public rank bound; empty = d")
	v.m = newNumberField(id+"-samples", "samples", attr(root, "samples", "1"), "1",
		"1 = the estimate you would publish. More samples show a spread, but each costs privacy: "+
			"m samples are composed, so each is drawn at s/√m (m = 4: half the Gaussian-DP parameter s of one)")
	params := el("div", "class", "controls")
	appendAll(params, v.eps.wrap, v.delta.wrap, v.c.wrap, v.k.wrap, v.m.wrap)
	v.formErr = el("div", "id", id+"-err", "class", "error", "role", "alert")
	v.run = newRunner(id, "Run privately")
	v.out = el("div", "class", "results", "id", id+"-results", "aria-live", "polite")
	v.summary = el("div", "id", id+"-summary")
	v.fig = el("figure", "id", id+"-plot", "class", "plot")
	v.excess = el("div", "id", id+"-excess", "class", "excess")
	v.statement = el("p", "id", id+"-statement", "class", "statement")
	v.export = el("p", "id", id+"-export")
	appendAll(v.out, v.fig, v.summary, v.excess, v.statement, v.export)
	appendAll(root, top, v.csvBox, v.featBox, v.rangesBox, v.rangesErr, params, v.formErr, v.run.wrap, v.out)

	v.data.sel.AddEventListener("change", false, func(dom.Event) {
		markStale(v.out, v.id, "the dataset changed")
		if b := v.builtin(); b != nil && !b.loaded() {
			// First selection of a built-in that was not needed at start:
			// fetch it now, then reset the form (if it is still chosen).
			v.featBox.SetInnerHTML("")
			appendAll(v.featBox, text("legend", "Features"), text("p", "Loading "+b.Label+"…", "class", "help"))
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
	v.lossSel.sel.AddEventListener("change", false, func(dom.Event) {
		v.columnsChanged()
		markStale(v.out, v.id, "the task changed")
	})
	v.csvText.AddEventListener("input", false, func(dom.Event) { v.textEdited() })
	v.csvText.AddEventListener("paste", false, func(e dom.Event) {
		// Refuse a paste over the cap before it lands in the textarea.
		cd := e.Underlying().Get("clipboardData")
		if !cd.Truthy() {
			return
		}
		if n := js.Global().Get("Object").New(cd.Call("getData", "text")).Get("length").Int(); n > maxPasteBytes {
			e.PreventDefault()
			v.csvErr.SetTextContent(tooLarge(n).Error())
		}
	})
	v.targetSel.sel.AddEventListener("change", false, func(dom.Event) {
		v.columnsChanged()
		markStale(v.out, v.id, "the target changed")
	})
	v.featBox.AddEventListener("change", false, func(dom.Event) { v.rangesChanged() })
	v.rangesBox.AddEventListener("input", false, func(e dom.Event) { v.rangeEdited(e.Target()) })
	file.AddEventListener("change", false, func(dom.Event) {
		files := file.Underlying().Get("files")
		if files.Length() > 0 {
			v.readFile(files.Index(0))
		}
	})
	v.csvBox.AddEventListener("dragover", false, func(e dom.Event) { e.PreventDefault(); v.csvBox.Class().Add("dragging") })
	v.csvBox.AddEventListener("dragleave", false, func(dom.Event) { v.csvBox.Class().Remove("dragging") })
	v.csvBox.AddEventListener("drop", false, func(e dom.Event) {
		e.PreventDefault()
		v.csvBox.Class().Remove("dragging")
		files := e.Underlying().Get("dataTransfer").Get("files")
		if files.Length() > 0 {
			v.readFile(files.Index(0))
		}
	})
	// Live validation: each parameter by the core rule the JS API applies.
	live := []struct {
		f    numberField
		rule func(string) error
	}{
		{v.eps, func(s string) error {
			x, err := parseNumber("epsilon", s)
			return checks.First(err, checks.Epsilon("epsilon", x))
		}},
		{v.delta, func(s string) error {
			x, err := parseNumber("delta", s)
			return checks.First(err, checks.Delta("delta", x))
		}},
		{v.c, func(s string) error {
			x, err := parseNumber("radius", s)
			return checks.First(err, checks.Positive("radius", x))
		}},
		{v.k, func(s string) error {
			if strings.TrimSpace(s) == "" {
				return nil
			}
			_, err := parseInt("rank", s, 1, 1_000_000)
			return err
		}},
		{v.m, func(s string) error { _, err := parseInt("samples", s, 1, maxSamples); return err }},
	}
	v.c.input.AddEventListener("input", false, func(dom.Event) { v.cAuto = false })
	for _, l := range live {
		l := l
		l.f.input.AddEventListener("input", false, func(dom.Event) {
			l.f.setError(l.rule(l.f.input.Value()))
			v.formErr.SetTextContent("")
		})
	}
	v.run.run.AddEventListener("click", false, func(dom.Event) { go v.runEstimate() })
	onResize(func() {
		if v.redraw != nil {
			v.redraw()
		}
	})
	pendingLoads.Add(1)
	go func() {
		defer pendingLoads.Done()
		if b := v.builtin(); b != nil { // only the selected built-in belongs to the initial load
			b.load(root)
		}
		v.datasetChanged(false)
	}()
}

// defaultRadius is the page's public rule for C, the bound on ‖θ*‖ in
// scaled units (docs/DEFAULTS.md), for a model of dim coordinates (the
// checked features, and the intercept of a supervised loss) whose rows are
// clipped to clip = √dim. A θ of norm C has scores |⟨θ, x⟩| ≤ C·clip:
//   - classification: C·clip = 4 logits (probabilities 0.018 / 0.982; a hinge
//     loss is flat beyond a margin of 1), so C = 4/√dim;
//   - regression: the target is scaled to [−1, 1], so C·clip = 2, the width
//     of the declared target range, and C = 2/√dim;
//   - a centre lies in the box [−1, 1]^d: C = 1.5, as before (the median of
//     rows in the box is in it, and a centre does not grow with the clip).
//
// It reads only the loss and d, never the data.
func defaultRadius(k loss.Kind, dim int) float64 {
	clip := math.Sqrt(float64(max(dim, 1)))
	switch {
	case k.Classification():
		return 4 / clip
	case k.Supervised():
		return 2 / clip
	default:
		return 1.5
	}
}

// updateRadius sets C by defaultRadius for the loss and the checked
// features, unless the user (or the radius attribute) chose C.
func (v *estimateView) updateRadius() {
	if !v.cAuto {
		return
	}
	l := v.lossKind()
	dim := len(v.features())
	if l.Supervised() {
		dim++ // the intercept
	}
	v.c.input.SetValue(strconv.FormatFloat(defaultRadius(l, dim), 'g', 3, 64))
	v.c.setError(nil)
}

// maxSamples is the page's cap on m (the API's is larger; each sample costs privacy).
const maxSamples = 1000

func tooLarge(n int) error {
	return &checks.Error{Field: "the CSV text", Rule: fmt.Sprintf("at most %d MB (paste or drop a smaller file, e.g. a sample of the rows)", maxPasteBytes>>20),
		Got: fmt.Sprintf("%.1f MB", float64(n)/(1<<20))}
}

// textEdited debounces the column detection of a typed or pasted CSV: the
// columns are read 250 ms after the last edit, and never from text over the
// cap (whose length is read without copying the text into Go).
func (v *estimateView) textEdited() {
	markStale(v.out, v.id, "the CSV text changed")
	if v.colTimer.Truthy() {
		js.Global().Call("clearTimeout", v.colTimer)
	}
	if n := v.csvText.Underlying().Get("textLength").Int(); n > maxPasteBytes {
		v.csvErr.SetTextContent(tooLarge(n).Error())
		return
	}
	var f js.Func
	f = js.FuncOf(func(js.Value, []js.Value) any {
		f.Release()
		v.colTimer = js.Undefined()
		v.columnsChanged()
		return nil
	})
	v.colTimer = js.Global().Call("setTimeout", f, 250)
}

// fetch starts the request for the built-in's CSV (from root's base
// attribute) and returns its promise.
func (b *builtin) fetch(root dom.Element) js.Value {
	base := attr(root, "base", "site/data/")
	url := js.Global().Get("URL").New(base+b.File, js.Global().Get("document").Get("baseURI"))
	return js.Global().Call("fetch", url.Call("toString"))
}

// prefetch starts the fetch without waiting (from the start-up path, so that
// the request overlaps building the sections); load awaits it.
func (b *builtin) prefetch(root dom.Element) {
	if b.text == "" && !b.pending.Truthy() {
		b.pending = b.fetch(root)
	}
}

// load fetches the built-in's CSV unless it is loaded (or awaits the fetch
// prefetch began), and returns whether it is loaded. It blocks: call it from
// a goroutine. A failed fetch is tried again by the next call (a run retries).
func (b *builtin) load(root dom.Element) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.text != "" {
		return true
	}
	p := b.pending
	b.pending = js.Undefined()
	if !p.Truthy() {
		p = b.fetch(root)
	}
	resp, err := jsio.Await(p)
	if err != nil {
		return false
	}
	t, err := jsio.Await(resp.Call("text"))
	if err == nil && resp.Get("ok").Bool() {
		b.text = t.String()
	}
	return b.text != ""
}

// loaded reports whether the built-in's text is here (without waiting).
func (b *builtin) loaded() bool {
	if !b.mu.TryLock() {
		return false // a fetch is under way
	}
	defer b.mu.Unlock()
	return b.text != ""
}

func (v *estimateView) readFile(f js.Value) {
	if n := f.Get("size").Int(); n > maxPasteBytes {
		v.csvErr.SetTextContent(tooLarge(n).Error())
		return
	}
	go func() {
		t, err := jsio.Await(f.Call("text"))
		if err != nil {
			v.csvErr.SetTextContent("Could not read the file: " + err.Error())
			return
		}
		v.csvText.SetValue(t.String())
		markStale(v.out, v.id, "a new file was loaded")
		v.columnsChanged()
	}()
}

func (v *estimateView) builtin() *builtin {
	for _, b := range builtins {
		if b.Key == v.data.sel.Value() {
			return b
		}
	}
	return nil
}

// datasetChanged resets loss, target and features for a newly chosen dataset.
func (v *estimateView) datasetChanged(user bool) {
	b := v.builtin()
	if b == nil {
		v.csvBox.RemoveAttribute("hidden")
	} else {
		v.csvBox.SetAttribute("hidden", "")
		if user || v.lossSel.sel.Value() == "" || attr(v.root, "loss", "") == "" {
			v.lossSel.sel.SetValue(b.loss.String())
		}
	}
	v.columnsChanged()
}

// text is the current table: a built-in's or the CSV box's.
func (v *estimateView) text() (string, *builtin) {
	if b := v.builtin(); b != nil {
		return b.text, b
	}
	return v.csvText.Value(), nil
}

// columnsChanged refreshes the target list and the feature checkboxes from
// the columns dataset.Columns names (the header rule and dialect of Parse).
func (v *estimateView) columnsChanged() {
	v.formErr.SetTextContent("") // a message about the former form
	txt, b := v.text()
	var cols []string
	if b == nil {
		v.csvErr.SetTextContent("")
		if len(txt) > maxPasteBytes {
			v.csvErr.SetTextContent(tooLarge(len(txt)).Error())
			txt = ""
		}
		v.lastText = txt
	}
	if strings.TrimSpace(txt) != "" {
		var err error
		if cols, err = dataset.Columns(txt); err != nil && b == nil {
			v.csvErr.SetTextContent(err.Error())
		}
	}
	l := v.lossKind()
	want := v.targetSel.sel.Value()
	var targets []string
	switch {
	case b != nil && l.Classification():
		targets, want = []string{b.Target}, b.Target
	case b != nil: // regression: the numeric columns with a declared range
		for _, c := range cols {
			if _, ok := b.Ranges[c]; ok {
				targets = append(targets, c)
			}
		}
		if !contains(targets, want) {
			want = b.regTarget
		}
	default:
		targets = cols
		if !contains(cols, want) {
			want = ""
			if len(cols) > 0 {
				want = cols[len(cols)-1]
			}
		}
	}
	var topts [][2]string
	for _, c := range targets {
		topts = append(topts, [2]string{c, c})
	}
	if !l.Supervised() {
		topts = [][2]string{{"", "— none (a centre needs no target)"}}
		want = ""
	}
	setOptions(v.targetSel.sel, topts, want)
	v.targetSel.sel.SetDisabled(!l.Supervised())
	// Features: the built-in's numeric columns, or every column of a CSV.
	// A column whose box the user has seen keeps its state (the user's
	// choice, remembered while it is the target); others get the default.
	for _, in := range v.featBox.QuerySelectorAll("input[type=checkbox]") {
		v.featState[in.(*dom.HTMLInputElement).Value()] = in.(*dom.HTMLInputElement).Checked()
	}
	v.featBox.SetInnerHTML("")
	v.featBox.AppendChild(text("legend", "Features"))
	choices, checked := cols, map[string]bool{}
	if b != nil {
		choices = b.Features
		if choices == nil {
			for _, c := range cols {
				if c != b.Target {
					choices = append(choices, c)
				}
			}
		}
		for _, f := range b.features {
			checked[f] = true
		}
	} else {
		for _, c := range cols {
			checked[c] = c != want
		}
	}
	for _, c := range choices {
		if was, ok := v.featState[c]; ok {
			checked[c] = was
		}
	}
	for i, c := range choices {
		if c == want && l.Supervised() {
			continue
		}
		cid := fmt.Sprintf("%s-f%d", v.id, i)
		in := el("input", "type", "checkbox", "id", cid, "value", c)
		if checked[c] {
			in.SetAttribute("checked", "")
		}
		lab := el("label", "for", cid, "class", "check")
		appendAll(lab, in, doc().CreateTextNode(" "+c))
		v.featBox.AppendChild(lab)
	}
	v.rangesChanged()
}

// rangesChanged redraws the declarations: a range [lo, hi] for each checked
// feature and, for a regression loss, the target; the positive label for a
// classifier. A built-in shows its declared ranges (read-only); for a CSV the
// inputs start empty (or with what the user typed before): nothing here is
// computed from the data.
func (v *estimateView) rangesChanged() {
	v.updateRadius()
	_, b := v.text()
	l := v.lossKind()
	target := v.targetSel.sel.Value()
	v.rangesBox.SetInnerHTML("")
	v.rangesErr.SetTextContent("")
	v.rangesBox.AppendChild(text("legend", "Declared public ranges"))
	if b != nil {
		v.rangesBox.AppendChild(text("p", "Declared once for this dataset (core/dataset/builtin.go), not computed from the file: "+
			"each feature is scaled from its range to [−1, 1], values outside are clamped.", "class", "help"))
	} else {
		v.rangesBox.AppendChild(text("p", "Declare each range from what you knew before looking at this file — an instrument's limits, "+
			"a questionnaire's scale, a physical bound. The inputs start empty on purpose: a range computed from the data (its minimum "+
			"and maximum) is set by the most extreme rows and would reveal them, so it cannot be treated as public. Each feature is "+
			"scaled from its range to [−1, 1]; a value outside is clamped, and how many were is shown to you only.", "class", "help", "id", v.id+"-ranges-note"))
	}
	row := func(label, key string, idx string, r *dataset.Range) {
		// Layout set through the CSSOM (the page's CSP, style-src 'self',
		// blocks style attributes, not element.style): label above, "lo to
		// hi" on one line. The class "range" is free for the style sheet.
		wrap := el("div", "class", "field range", "data-col", key)
		setStyle(wrap, "display", "inline-block", "margin", "0 1.5em 0.5em 0")
		lo := el("input", "id", v.id+"-lo-"+idx, "type", "text", "inputmode", "decimal", "autocomplete", "off", "size", "8",
			"data-col", key, "data-end", "lo", "aria-label", label+": lowest possible value")
		hi := el("input", "id", v.id+"-hi-"+idx, "type", "text", "inputmode", "decimal", "autocomplete", "off", "size", "8",
			"data-col", key, "data-end", "hi", "aria-label", label+": highest possible value")
		setStyle(lo, "width", "7em", "display", "inline-block")
		setStyle(hi, "width", "7em", "display", "inline-block")
		if r != nil {
			lo.SetAttribute("value", g6(r.Lo))
			hi.SetAttribute("value", g6(r.Hi))
			lo.SetAttribute("readonly", "")
			hi.SetAttribute("readonly", "")
		} else if d, ok := v.declared[key]; ok {
			lo.SetAttribute("value", d[0])
			hi.SetAttribute("value", d[1])
		}
		lab := text("label", label, "for", v.id+"-lo-"+idx)
		setStyle(lab, "display", "block")
		appendAll(wrap, lab, lo, doc().CreateTextNode(" to "), hi)
		v.rangesBox.AppendChild(wrap)
	}
	for i, c := range v.features() {
		var r *dataset.Range
		if b != nil {
			if rr, ok := b.Ranges[c]; ok {
				r = &rr
			}
		}
		row(c, c, fmt.Sprint(i), r)
	}
	switch {
	case l.Supervised() && !l.Classification() && target != "":
		var r *dataset.Range
		if b != nil {
			if rr, ok := b.Ranges[target]; ok {
				r = &rr
			}
		}
		row("target "+target, target, "t", r)
	case l.Classification() && target != "":
		wrap := el("div", "class", "field")
		in := el("input", "id", v.id+"-positive", "type", "text", "autocomplete", "off", "data-positive", target)
		if b != nil && target == b.Target {
			in.SetAttribute("value", b.Positive)
			in.SetAttribute("readonly", "")
		} else {
			in.SetAttribute("value", v.positive[target])
		}
		appendAll(wrap, text("label", "positive label of "+target+" (coded +1; every other label −1)", "for", v.id+"-positive"), in)
		v.rangesBox.AppendChild(wrap)
	}
}

// rangeEdited records a typed range end (or positive label) and checks it
// by the core rule (dataset.Range.Valid, as Table.Scale does).
func (v *estimateView) rangeEdited(t dom.Element) {
	v.formErr.SetTextContent("")
	markStale(v.out, v.id, "a declared range changed")
	if col := t.GetAttribute("data-positive"); col != "" {
		v.positive[col] = t.(*dom.HTMLInputElement).Value()
		v.rangesErr.SetTextContent("")
		return
	}
	col := t.GetAttribute("data-col")
	if col == "" {
		return
	}
	d := v.declared[col]
	val := t.(*dom.HTMLInputElement).Value()
	if t.GetAttribute("data-end") == "lo" {
		d[0] = val
	} else {
		d[1] = val
	}
	v.declared[col] = d
	v.rangesErr.SetTextContent("")
	if strings.TrimSpace(d[0]) != "" && strings.TrimSpace(d[1]) != "" {
		if _, err := declaredRange("ranges."+col, d); err != nil {
			v.rangesErr.SetTextContent(err.Error())
		}
	}
}

// declaredRange parses a typed [lo, hi] and checks it by dataset.Range.Valid.
func declaredRange(field string, d [2]string) (dataset.Range, error) {
	if strings.TrimSpace(d[0]) == "" || strings.TrimSpace(d[1]) == "" {
		return dataset.Range{}, checks.Errorf(field, "a declared public range [lo, hi] (type both ends: the page does not compute them from the data)")
	}
	lo, err := parseNumber(field+".lo", d[0])
	if err != nil {
		return dataset.Range{}, err
	}
	hi, err := parseNumber(field+".hi", d[1])
	if err != nil {
		return dataset.Range{}, err
	}
	r := dataset.Range{Lo: lo, Hi: hi}
	return r, r.Valid(field)
}

func contains(s []string, x string) bool {
	for _, v := range s {
		if v == x {
			return true
		}
	}
	return false
}

func (v *estimateView) features() []string {
	var out []string
	for _, in := range v.featBox.QuerySelectorAll("input[type=checkbox]") {
		if in.(*dom.HTMLInputElement).Checked() {
			out = append(out, in.(*dom.HTMLInputElement).Value())
		}
	}
	return out
}

// prepared input of one run.
type estimateInput struct {
	req       mechanism.Request
	table     *dataset.Table
	raw       [][]float64     // the features in the columns' units (for the plot)
	ranges    []dataset.Range // declared, one per feature (public)
	target    *dataset.Range  // declared target range (regression), public
	kind      loss.Kind
	columns   []string // names of θ's coordinates
	source    string
	targetCol string
	positive  string
}

// build reads the form, parses and scales the data, and returns the request.
// Each problem is shown once: next to its field or box (a shownError) or, if
// it has no place there, by the caller on the form's error line.
func (v *estimateView) build() (*estimateInput, error) {
	txt, b := v.text()
	if b == nil {
		if len(txt) > maxPasteBytes {
			return nil, showAt(v.csvErr, tooLarge(len(txt)))
		}
		if txt != v.lastText { // an edit still inside the debounce
			v.columnsChanged()
		}
	}
	if strings.TrimSpace(txt) == "" {
		if b != nil {
			return nil, errors.New("the built-in dataset did not load; check the connection and run again")
		}
		return nil, showAt(v.csvErr, checks.Errorf("the CSV text", "a table: paste one or drop a file on the box (it is empty)"))
	}
	l := v.lossKind()
	in := &estimateInput{kind: l, source: "your CSV"}
	opt := dataset.Options{Features: v.features()}
	if l.Supervised() {
		opt.Target = v.targetSel.sel.Value()
		in.targetCol = opt.Target
	}
	if b != nil || v.dropMissing.Checked() {
		opt.Drop = "missing"
	}
	// The declared target schema (docs/PRIVACY.md): a classifier's positive
	// label, or a numeric target.
	switch {
	case l.Classification() && b != nil && opt.Target == b.Target:
		opt.Positive, opt.TargetType = b.Positive, dataset.TargetLabel
	case l.Classification():
		opt.Positive, opt.TargetType = strings.TrimSpace(v.positive[opt.Target]), dataset.TargetLabel
	case l.Supervised():
		opt.TargetType = dataset.TargetNumeric
	}
	in.positive = opt.Positive
	if len(opt.Features) == 0 {
		// No columns to offer usually means the file itself is malformed: say how.
		if _, err := dataset.Parse(txt, dataset.Options{Target: opt.Target, Drop: opt.Drop}); err != nil {
			return nil, v.dataError(err, b)
		}
		return nil, checks.Errorf("features", "at least one checked feature column")
	}
	if l.Classification() && opt.Positive == "" {
		return nil, showAt(v.rangesErr, checks.Errorf("positive",
			"the label of %s coded +1 (every other label is −1): type it above; the page does not choose it from the data", opt.Target))
	}
	t, err := dataset.Parse(txt, opt)
	if err != nil {
		return nil, v.dataError(err, b)
	}
	in.table = t
	in.columns = append([]string(nil), t.Columns...)
	if b != nil {
		in.source = b.Label
	}
	// Declared ranges: the built-in's, or the ones typed for a CSV.
	ranges := map[string]dataset.Range{}
	for _, c := range t.Columns {
		if b != nil {
			if r, ok := b.Ranges[c]; ok {
				ranges[c] = r
			}
			continue
		}
		r, err := declaredRange("ranges."+c, v.declared[c])
		if err != nil {
			return nil, showAt(v.rangesErr, err)
		}
		ranges[c] = r
	}
	for _, row := range t.X {
		in.raw = append(in.raw, append([]float64(nil), row...))
	}
	if err := t.Scale(ranges); err != nil {
		return nil, showAt(v.rangesErr, err)
	}
	for _, c := range t.Columns {
		in.ranges = append(in.ranges, ranges[c])
	}
	y := t.Y
	var targetRange []float64
	if l.Supervised() && !l.Classification() {
		var r dataset.Range
		if b != nil {
			var ok bool
			if r, ok = b.Ranges[opt.Target]; !ok {
				return nil, showAt(v.rangesErr, checks.Errorf("targetRange", "a declared range: column %q of this dataset has none", opt.Target))
			}
		} else if r, err = declaredRange("targetRange", v.declared[opt.Target]); err != nil {
			return nil, showAt(v.rangesErr, err)
		}
		in.target = &r
		// y in scaled units, not clamped here: the mechanism clamps it to
		// targetRange = [−1, 1] (the declared range) and counts the clamps.
		y = make([]float64, len(t.Y))
		for i, yi := range t.Y {
			y[i] = r.ToScaled(yi)
		}
		targetRange = []float64{-1, 1}
	}
	x := t.X
	if l.Supervised() { // an intercept: a constant public feature
		x = make([][]float64, len(t.X))
		for i, r := range t.X {
			x[i] = append(append(make([]float64, 0, len(r)+1), r...), 1)
		}
		in.columns = append(in.columns, "intercept")
	}
	var vals [3]float64
	for i, f := range []numberField{v.eps, v.delta, v.c} {
		name := []string{"epsilon", "delta", "radius"}[i]
		x, err := f.value(name)
		f.setError(err)
		if err != nil {
			return nil, shownError{err}
		}
		vals[i] = x
	}
	rank := 0
	if strings.TrimSpace(v.k.input.Value()) != "" {
		if rank, err = v.k.intIn("rank", 1, len(x[0])); err != nil {
			v.k.setError(err)
			return nil, shownError{err}
		}
	}
	v.k.setError(nil)
	m, err := v.m.intIn("samples", 1, maxSamples)
	v.m.setError(err)
	if err != nil {
		return nil, shownError{err}
	}
	in.req = mechanism.Request{Loss: l.String(), X: x, Y: y, Epsilon: vals[0], Delta: vals[1], Radius: vals[2], Rank: rank,
		Clip: math.Sqrt(float64(len(x[0]))), Samples: m, TargetRange: targetRange}
	if _, err := mechanism.NewPlan(in.req); err != nil { // validate here, cheaply, with inline errors
		var ce *checks.Error
		if errors.As(err, &ce) {
			slot := map[string]numberField{"epsilon": v.eps, "delta": v.delta, "radius": v.c, "rank": v.k, "samples": v.m}
			if f, ok := slot[ce.Field]; ok {
				f.setError(err)
				return nil, shownError{err}
			}
		}
		return nil, err
	}
	return in, nil
}

// dataError shows a parse error once: in the CSV box for a CSV, with the
// page's own control named for missing cells.
func (v *estimateView) dataError(err error, b *builtin) error {
	var mc *dataset.MissingCells
	if errors.As(err, &mc) {
		err = checks.Errorf("the table", "free of missing cells (empty, NA, NaN, ?, …) — they are in %s; tick “drop rows with missing cells” "+
			"to leave those rows out (n then counts complete rows only)", mc.Where())
	}
	if b != nil {
		return err
	}
	return showAt(v.csvErr, err)
}

func (v *estimateView) runEstimate() {
	v.formErr.SetTextContent("")
	v.rangesErr.SetTextContent("")
	if b := v.builtin(); b != nil {
		b.load(v.root) // a built-in chosen while its fetch was under way, or whose fetch failed
	}
	in, err := v.build()
	if err != nil {
		var shown shownError
		if !errors.As(err, &shown) {
			v.formErr.SetTextContent(err.Error())
		}
		markStale(v.out, v.id, "the last run could not start (the problem is marked above)")
		return
	}
	opts, release := v.run.start(fmt.Sprintf("Sampling from %s × %s in the worker…", count(len(in.req.X), "row"), count(len(in.req.X[0]), "column")))
	res, err := callRemote("mechanism.sample", jsio.EncodeTyped(in.req), opts)
	release()
	var out mechanism.Result
	if err == nil {
		err = jsio.Decode(res, &out)
	}
	v.run.done(err, "Done.")
	if err != nil {
		if jsio.IsAbort(err) {
			markStale(v.out, v.id, "the last run was cancelled")
		} else {
			v.formErr.SetTextContent(err.Error())
			markStale(v.out, v.id, "the last run failed")
		}
		return
	}
	v.render(in, &out)
	clearStale(v.out, v.id)
}

// toUnits maps one θ (scaled units) to the columns' units: a centre through
// dataset.Point, a linear score through dataset.Coefficients (coefficients
// per unit of each column, then the intercept).
func (in *estimateInput) toUnits(theta []float64) []float64 {
	if in.kind.Location() {
		return dataset.Point(theta, in.ranges)
	}
	out, err := dataset.Coefficients(theta, in.ranges, in.target, in.kind.Supervised())
	if err != nil {
		return theta
	}
	return out
}

// meanSD are the mean and sample standard deviation of each coordinate.
func meanSD(samples [][]float64, d int) (mean, sd []float64) {
	mean, sd = make([]float64, d), make([]float64, d)
	for _, s := range samples {
		for j := 0; j < d && j < len(s); j++ {
			mean[j] += s[j] / float64(len(samples))
		}
	}
	for _, s := range samples {
		for j := 0; j < d && j < len(s); j++ {
			sd[j] += (s[j] - mean[j]) * (s[j] - mean[j]) / math.Max(1, float64(len(samples)-1))
		}
	}
	for j := range sd {
		sd[j] = math.Sqrt(sd[j])
	}
	return mean, sd
}

// coefTable is the table of θ (first sample, spread, non-private fit).
func coefTable(names []string, theta, sd, fit []float64, spread bool, head string) dom.Element {
	tbl := el("table", "class", "coef")
	tr := el("tr")
	appendAll(tr, text("th", "coordinate"), text("th", head), text("th", "spread over samples (sd)"), text("th", "non-private θ̂"))
	tbl.AppendChild(tr)
	for j := range theta {
		row := el("tr")
		np, s := text("td", "—"), text("td", "—")
		if j < len(fit) {
			np = text("td", g3(fit[j]), "data-v", strconv.FormatFloat(fit[j], 'g', -1, 64))
		}
		if spread {
			s = text("td", g3(sd[j]))
		}
		// data-v holds the full-precision value (for copying and tests).
		appendAll(row, text("td", names[j]), text("td", g3(theta[j]), "data-v", strconv.FormatFloat(theta[j], 'g', -1, 64)), s, np)
		tbl.AppendChild(row)
	}
	return tbl
}

func (v *estimateView) render(in *estimateInput, r *mechanism.Result) {
	d := len(r.Theta)
	// θ in the columns' units: every sample, the first one and the fit.
	units := make([][]float64, len(r.Samples))
	for i, s := range r.Samples {
		units[i] = in.toUnits(s)
	}
	du := len(in.toUnits(r.Theta))
	names := append([]string(nil), in.columns...)
	if du > len(names) { // a shift with no intercept column (not used by the page's losses)
		names = append(names, "offset")
	}
	mean, sd := meanSD(units, du)
	fit := in.toUnits(r.Fit.Theta[:min(d, len(r.Fit.Theta))])
	_, ssd := meanSD(r.Samples, d)
	head := "private θ (first sample)"
	what := ""
	switch {
	case in.kind.Location():
		head = "private centre (first sample)"
		what = "The centre is in each column's own units."
	case in.target != nil:
		what = fmt.Sprintf("Coefficients are in %s per unit of each column; the intercept is in %s.", in.targetCol, in.targetCol)
	default:
		what = "Coefficients are the score's change per unit of each column (the score's sign is the predicted label)."
	}
	v.summary.SetInnerHTML("")
	rangeList := make([]string, len(in.ranges))
	for j, rg := range in.ranges {
		rangeList[j] = fmt.Sprintf("%s [%s, %s]", in.table.Columns[j], g6(rg.Lo), g6(rg.Hi))
	}
	ranges := "Declared public ranges: " + strings.Join(rangeList, ", ")
	if in.target != nil {
		ranges += fmt.Sprintf("; target %s [%s, %s]", in.targetCol, g6(in.target.Lo), g6(in.target.Hi))
	}
	appendAll(v.summary,
		text("p", fmt.Sprintf("Data: %s — %s used%s%s. Features scaled from their declared public ranges to [−1, 1]%s%s.",
			in.source, count(len(in.req.X), "row"), dropped(in.table.Dropped), delimiter(in.table.Delimiter, in.source),
			targetNote(in), labels(in)), "class", "detail", "id", v.id+"-data-note"),
		text("p", ranges+".", "class", "detail", "id", v.id+"-declared"),
		text("p", what, "class", "detail"),
		coefTable(names, units[0], sd, fit, len(r.Samples) > 1, head))
	// The scaled values, one click away.
	det := el("details", "id", v.id+"-scaled")
	appendAll(det, text("summary", "Scaled values (what the mechanism saw: every declared range mapped to [−1, 1])"),
		coefTable(in.columns, r.Theta, ssd, r.Fit.Theta, len(r.Samples) > 1, "private θ, scaled (first sample)"))
	v.summary.AppendChild(det)
	// Plot.
	v.redraw = func() {
		var p *plot.Plot
		if in.kind.Location() && d == 2 {
			p = v.cloudPlot(in, r, units, fit)
		} else {
			p = coefPlot(in, names, units, mean, sd, fit)
		}
		v.fig.SetInnerHTML(fitWidth(v.fig, p).SVG())
	}
	v.redraw()
	v.excess.SetInnerHTML("")
	dg := r.Diagnostics
	var clamps []string
	clamps = append(clamps, count(in.table.Clamped, "feature value")+" outside its declared range (clamped)")
	if in.target != nil {
		clamps = append(clamps, count(dg.ClampedTargets, "target")+" outside the target range (clamped)")
	}
	if in.kind.Location() {
		clamps = append(clamps, count(dg.ClampedPoints, "point")+" clamped to the box")
	} else {
		clamps = append(clamps, count(dg.ClippedRows, "row")+" clipped to length √d")
	}
	if in.table.Dropped > 0 {
		clamps = append(clamps, count(in.table.Dropped, "row")+" dropped for missing cells")
	}
	work := fmt.Sprintf("The run took %.2f s", dg.Seconds)
	if dg.Trials > 0 {
		work += fmt.Sprintf(", %s and %s", count(int(dg.Trials), "rejection trial"), count(int(dg.LossEvals), "loss evaluation"))
	}
	p1 := el("p")
	appendAll(p1, text("strong", "Not private — for your eyes only: "),
		doc().CreateTextNode(fmt.Sprintf("the released θ has loss %.4g against %.4g for the best θ with ‖θ‖ ≤ C (excess %.3g). ",
			r.Fit.Loss, r.Fit.NonPrivateLoss, r.Fit.Excess)))
	diag := text("p", "Your data against the declarations: "+strings.Join(clamps, ", ")+". "+work+
		". These numbers are computed from your raw data on this device and are not private; do not publish them.", "id", v.id+"-diagnostics")
	appendAll(v.excess, p1, diag)
	v.statement.SetTextContent(statement(r))
	v.exportJSON(in, r)
}

func dropped(n int) string {
	if n == 0 {
		return ""
	}
	return fmt.Sprintf(" (%s with missing cells dropped)", count(n, "row"))
}

func delimiter(name, source string) string {
	if source != "your CSV" || name == "" {
		return ""
	}
	return "; " + name + "-separated"
}

func targetNote(in *estimateInput) string {
	if in.target == nil {
		return ""
	}
	return fmt.Sprintf(", the target %s likewise (targetRange [−1, 1] in scaled units)", in.targetCol)
}

func labels(in *estimateInput) string {
	if in.positive == "" {
		return ""
	}
	return fmt.Sprintf("; labels of %s: %s → +1, every other label → −1 (declared)", in.targetCol, in.positive)
}

// statement is the plain-language guarantee of a result.
func statement(r *mechanism.Result) string {
	pl, pv := r.Plan, r.Privacy
	released := "The released sample is"
	if pv.ComposedOver != 1 {
		released = fmt.Sprintf("The %d released samples together are", pv.ComposedOver)
	}
	s := fmt.Sprintf("Privacy: %s (ε = %g, δ = %.2g)-differentially private "+
		"with respect to replacing any one row (%.3g-GDP). The unit of privacy is one complete row of the table the "+
		"mechanism received (rows with a missing cell, if dropped, are not counted); n = %d is public. Whatever anyone "+
		"learns from the release, they could have learned almost as well (within a factor e^ε, plus probability δ) had any "+
		"single row been different. Treated as public: n = %d, d = %d, the loss, ε, δ, the radius C = %g, the rank k = %d, "+
		"the clipping norm %.3g, the declared ranges and labels. Sampler: %s (%s).", released, pv.Epsilon, pv.Delta, pv.GDP,
		pl.N, pl.N, pl.D, pl.Radius, pl.Rank, pl.Clip, pl.Sampler, pl.Method)
	if pv.Delta >= 1/float64(pl.N) {
		s += fmt.Sprintf(" Note: δ = %g is not below 1/n = %.3g; a mechanism that publishes one random row in full meets such a δ.", pv.Delta, 1/float64(pl.N))
	}
	if !r.Private {
		s += " This run used a fixed seed: it is reproducible and NOT private."
	}
	return s
}

// g6 formats a declared bound compactly.
func g6(x float64) string { return strconv.FormatFloat(x, 'g', 6, 64) }

// cloudPlot: 2-D samples over the loss contours (location losses), in the
// columns' units: the contours are evaluated on the scaled loss at the
// scaled image of each grid point.
func (v *estimateView) cloudPlot(in *estimateInput, r *mechanism.Result, units [][]float64, fit []float64) *plot.Plot {
	set, err := loss.New(in.kind, in.req.X, in.req.Y, loss.Params{Clip: in.req.Clip})
	rx, ry := in.ranges[0], in.ranges[1]
	pad := func(rg dataset.Range) (float64, float64) {
		return rg.Lo - 0.05*(rg.Hi-rg.Lo), rg.Hi + 0.05*(rg.Hi-rg.Lo)
	}
	xlo, xhi := pad(rx)
	ylo, yhi := pad(ry)
	for _, s := range units {
		xlo, xhi = math.Min(xlo, s[0]), math.Max(xhi, s[0])
		ylo, yhi = math.Min(ylo, s[1]), math.Max(yhi, s[1])
	}
	const m = 36
	xs, ys := make([]float64, m), make([]float64, m)
	for i := range xs {
		xs[i] = xlo + (xhi-xlo)*float64(i)/(m-1)
		ys[i] = ylo + (yhi-ylo)*float64(i)/(m-1)
	}
	var series []plot.Series
	if err == nil {
		z := make([][]float64, m)
		zmin, zmax := math.Inf(1), math.Inf(-1)
		for i := range z {
			z[i] = make([]float64, m)
			for j := range z[i] {
				z[i][j] = set.Mean([]float64{rx.ToScaled(xs[j]), ry.ToScaled(ys[i])})
				zmin, zmax = math.Min(zmin, z[i][j]), math.Max(zmax, z[i][j])
			}
		}
		var levels []float64
		for q := 1; q <= 6; q++ {
			levels = append(levels, zmin+(zmax-zmin)*math.Pow(float64(q)/7, 2))
		}
		series = plot.Contours(xs, ys, z, levels, "#c8c8c8")
		series[0].Name = "loss contours"
	}
	dx, dy := make([]float64, 0, len(in.raw)), make([]float64, 0, len(in.raw))
	for _, row := range in.raw {
		dx, dy = append(dx, row[0]), append(dy, row[1])
	}
	sx, sy := make([]float64, len(units)), make([]float64, len(units))
	for i, s := range units {
		sx[i], sy[i] = s[0], s[1]
	}
	series = append(series,
		plot.Series{Name: "data rows", X: dx, Y: dy, Kind: plot.Points, Color: "#bbbbbb"},
		plot.Series{Name: fmt.Sprintf("%d private samples", len(units)), X: sx, Y: sy, Kind: plot.Points, Color: plot.Palette[0]},
		plot.Series{Name: "non-private minimiser", X: fit[:1], Y: fit[1:2], Kind: plot.Points, Color: plot.Palette[1]})
	return &plot.Plot{Title: "Private samples over the loss", XLabel: in.columns[0],
		YLabel: in.columns[1], Series: series, XMin: xlo, XMax: xhi, YMin: ylo, YMax: yhi, Height: 480,
		Desc: "Each blue dot is one private sample of the centre, in the columns' units; grey lines are level sets of the loss; the orange dot is the non-private minimiser."}
}

// coefPlot: coefficient bars in the columns' units (mean of the samples, ±
// sd) and the non-private fit; the intercept is left to the table (its scale
// is the target's, not a per-unit slope).
func coefPlot(in *estimateInput, names []string, units [][]float64, mean, sd, fit []float64) *plot.Plot {
	d := len(mean)
	if in.kind.Supervised() {
		d-- // the intercept
	}
	idx := make([]float64, d)
	for j := range idx {
		idx[j] = float64(j + 1)
	}
	var errs []float64
	if len(units) > 1 {
		errs = sd[:d]
	}
	np := fit
	if len(np) > d {
		np = np[:d]
	}
	ylab := "coefficient per unit of the column"
	if in.target != nil {
		ylab = in.targetCol + " per unit of the column"
	}
	if in.kind.Location() {
		ylab = "centre (column units)"
	}
	return &plot.Plot{Title: "Private vs non-private coefficients", XLabel: "coordinate j: " + strings.Join(names[:d], ", "),
		YLabel: ylab, XMin: 0.4, XMax: float64(d) + 0.6,
		Series: []plot.Series{
			{Name: fmt.Sprintf("private, mean of %d ± sd", len(units)), X: idx, Y: mean[:d], Kind: plot.Bars, Err: errs, Color: plot.Palette[0]},
			{Name: "non-private θ̂", X: idx[:len(np)], Y: np, Kind: plot.Points, Color: plot.Palette[1]},
		},
		Desc: "Bars: private coefficients in the columns' units (mean over samples, with ± one standard deviation); orange dots: the non-private fit. The intercept is in the table."}
}

// exportJSON offers the result and plan as a JSON download (a Blob URL).
func (v *estimateView) exportJSON(in *estimateInput, r *mechanism.Result) {
	// Only the private release (mechanism.Result.Release: θ, samples, plan,
	// privacy, public stats), its image in the columns' units (a function of
	// θ and the declared ranges only) and public inputs: no fit, no work
	// counters or timings, no count of dropped or clamped rows.
	rel := r.Release()
	declared := map[string][2]float64{}
	for j, c := range in.table.Columns {
		declared[c] = [2]float64{in.ranges[j].Lo, in.ranges[j].Hi}
	}
	payload := map[string]any{
		"source": in.source, "columns": in.columns, "theta": rel.Theta, "samples": rel.Samples, "private": rel.Private,
		"plan": rel.Plan, "privacy": rel.Privacy, "stats": rel.Stats,
		"thetaInUnits": in.toUnits(rel.Theta), "declaredRanges": declared,
		"note": "only the private release: the non-private fit, the work counters and timings (diagnostics) and anything else computed from the raw data are omitted (docs/PRIVACY.md); theta is in scaled units, thetaInUnits in the columns' units (from the declared ranges)",
	}
	if in.target != nil {
		payload["targetRange"] = [2]float64{in.target.Lo, in.target.Hi}
	}
	if in.positive != "" {
		payload["positive"] = in.positive
	}
	b := jsio.JSON(payload, "  ") // not encoding/json: ≈ 47 KB less to download (jsio.JSON)
	if v.exportURL != "" {
		js.Global().Get("URL").Call("revokeObjectURL", v.exportURL)
	}
	parts := js.Global().Get("Array").New(1)
	parts.SetIndex(0, b)
	opts := js.Global().Get("Object").New()
	opts.Set("type", "application/json")
	blob := js.Global().Get("Blob").New(parts, opts)
	v.exportURL = js.Global().Get("URL").Call("createObjectURL", blob).String()
	v.export.SetInnerHTML("")
	a := text("a", "Download the private result and its plan (JSON)", "href", v.exportURL, "download", "dpsample-estimate.json", "id", v.id+"-download")
	appendAll(v.export, a, doc().CreateTextNode(" — contains θ, the samples, the plan and the privacy report; not the data or the non-private fit."))
}
