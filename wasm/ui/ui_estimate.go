//go:build js && wasm

package ui

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"
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
// defaults for it and its text, fetched once at start-up.
type builtin struct {
	dataset.Builtin
	features []string  // checked at first
	loss     loss.Kind // chosen at first
	text     string    // filled by the initial load
}

// pageDefaults are the page's first choices for each built-in dataset.
var pageDefaults = map[string]struct {
	features []string
	loss     loss.Kind
}{
	"penguins":      {[]string{"beak_length_mm", "flipper_length_mm"}, loss.L1},
	"breast-cancer": {[]string{"mean_radius", "mean_texture", "mean_smoothness"}, loss.Logistic},
}

var builtins = func() []*builtin {
	var out []*builtin
	for _, b := range dataset.Builtins {
		d := pageDefaults[b.Key]
		out = append(out, &builtin{Builtin: b, features: d.features, loss: d.loss})
	}
	return out
}()

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
		{loss.LAD, "regression: least absolute deviation"},
		{loss.Quantile, "regression: median (quantile τ = ½)"},
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
	eps, delta, c, k, m numberField
	formErr             dom.Element
	run                 *runner
	out, summary        dom.Element
	fig                 dom.Element
	excess, statement   dom.Element
	export              dom.Element
	exportURL           string
	redraw              func()
}

func buildEstimateView(root dom.Element) {
	v := &estimateView{id: idPrefix(root, "est"), root: root}
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
		dsOpts = append(dsOpts, [2]string{b.Key, b.Label})
	}
	dsOpts = append(dsOpts, [2]string{"csv", "your own CSV (paste or drop a file)"})
	v.data = newSelectField(id+"-data", "Dataset", "built-in data are public; see site/data/SOURCES.md", dsOpts, ds)
	v.lossSel = newSelectField(id+"-loss", "Task / loss", "what θ estimates", lossOptions, attr(root, "loss", ""))
	v.targetSel = newSelectField(id+"-target", "Target column", "labels (±1) or values to predict", nil, "")
	top := el("div", "class", "controls")
	appendAll(top, v.data.wrap, v.lossSel.wrap, v.targetSel.wrap)

	// CSV input.
	v.csvBox = el("div", "class", "csvbox", "id", id+"-csvbox", "hidden", "")
	v.csvText = el("textarea", "id", id+"-csv", "rows", "6", "spellcheck", "false",
		"placeholder", "x1,x2,label\n0.1,0.5,yes\n…", "aria-describedby", id+"-csv-help "+id+"-csv-err").(*dom.HTMLTextAreaElement)
	file := el("input", "type", "file", "id", id+"-file", "accept", ".csv,text/csv,text/plain")
	v.dropMissing = el("input", "type", "checkbox", "id", id+"-drop").(*dom.HTMLInputElement)
	dropLab := el("label", "for", id+"-drop", "class", "check")
	appendAll(dropLab, v.dropMissing, doc().CreateTextNode(" drop rows with missing cells (and say how many)"))
	v.csvErr = el("div", "id", id+"-csv-err", "class", "error", "role", "alert")
	appendAll(v.csvBox,
		text("label", "CSV text (paste here, or drop a file on this box)", "for", id+"-csv"), v.csvText,
		text("small", "Comma, semicolon or tab separated; a header line names the columns. "+
			"Features are used as they are, clipped to length √(number of features): scale them in advance "+
			"with bounds you knew before seeing the data.", "id", id+"-csv-help", "class", "help"),
		appendAll(el("div", "class", "filerow"), text("label", "or choose a file: ", "for", id+"-file"), file), dropLab, v.csvErr)

	v.featBox = el("fieldset", "class", "features", "id", id+"-features")
	v.eps = newNumberField(id+"-epsilon", "ε (epsilon)", attr(root, "epsilon", "1"), "any", "privacy loss; smaller is more private")
	v.delta = newNumberField(id+"-delta", "δ (delta)", attr(root, "delta", "1e-5"), "any", "should be ≪ 1/n")
	v.c = newNumberField(id+"-radius", "C (radius)", attr(root, "radius", "1.5"), "any", "public bound on ‖θ*‖")
	v.k = newNumberField(id+"-rank", "k (rank)", attr(root, "rank", ""), "1", "public rank bound; empty = d")
	v.m = newNumberField(id+"-samples", "samples", attr(root, "samples", "20"), "1", "each costs privacy; all are composed")
	params := el("div", "class", "controls")
	appendAll(params, v.eps.wrap, v.delta.wrap, v.c.wrap, v.k.wrap, v.m.wrap)
	v.formErr = el("div", "id", id+"-err", "class", "error", "role", "alert")
	v.run = newRunner(id, "Run privately")
	v.out = el("div", "class", "results", "id", id+"-results", "aria-live", "polite")
	v.summary = el("div", "id", id+"-summary")
	v.fig = el("figure", "id", id+"-plot", "class", "plot")
	v.excess = el("p", "id", id+"-excess", "class", "excess")
	v.statement = el("p", "id", id+"-statement", "class", "statement")
	v.export = el("p", "id", id+"-export")
	appendAll(v.out, v.fig, v.summary, v.excess, v.statement, v.export)
	appendAll(root, top, v.csvBox, v.featBox, params, v.formErr, v.run.wrap, v.out)

	v.data.sel.AddEventListener("change", false, func(dom.Event) { v.datasetChanged(true) })
	v.lossSel.sel.AddEventListener("change", false, func(dom.Event) { v.columnsChanged() })
	v.csvText.AddEventListener("input", false, func(dom.Event) { v.columnsChanged() })
	v.targetSel.sel.AddEventListener("change", false, func(dom.Event) { v.columnsChanged() })
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
	v.run.run.AddEventListener("click", false, func(dom.Event) { go v.runEstimate() })
	onResize(func() {
		if v.redraw != nil {
			v.redraw()
		}
	})
	pendingLoads.Add(1)
	go func() {
		defer pendingLoads.Done()
		loadBuiltins(root)
		v.datasetChanged(false)
	}()
}

// loadBuiltins fetches the built-in CSVs once (part of the page's initial load).
func loadBuiltins(root dom.Element) {
	for _, b := range builtins {
		if b.text != "" {
			continue
		}
		base := attr(root, "base", "site/data/")
		url := js.Global().Get("URL").New(base+b.File, js.Global().Get("document").Get("baseURI"))
		resp, err := jsio.Await(js.Global().Call("fetch", url.Call("toString")))
		if err != nil {
			continue
		}
		t, err := jsio.Await(resp.Call("text"))
		if err == nil && resp.Get("ok").Bool() {
			b.text = t.String()
		}
	}
}

func (v *estimateView) readFile(f js.Value) {
	go func() {
		t, err := jsio.Await(f.Call("text"))
		if err != nil {
			v.csvErr.SetTextContent("Could not read the file: " + err.Error())
			return
		}
		v.csvText.SetValue(t.String())
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

// header parses just enough of the current CSV to list its columns.
func (v *estimateView) text() (string, *builtin) {
	if b := v.builtin(); b != nil {
		return b.text, b
	}
	return v.csvText.Value(), nil
}

// columnsChanged refreshes the target list and the feature checkboxes.
func (v *estimateView) columnsChanged() {
	txt, b := v.text()
	v.csvErr.SetTextContent("")
	var cols []string
	if strings.TrimSpace(txt) != "" {
		var err error
		if cols, err = dataset.Columns(txt); err != nil && b == nil {
			v.csvErr.SetTextContent(err.Error())
		}
	}
	l := v.lossKind()
	var topts [][2]string
	want := v.targetSel.sel.Value()
	if b != nil && (want == "" || !contains(cols, want)) {
		want = b.Target
	}
	for _, c := range cols {
		topts = append(topts, [2]string{c, c})
	}
	if !l.Supervised() {
		topts = [][2]string{{"", "— none (a centre needs no target)"}}
		want = ""
	} else if want == "" && len(cols) > 0 {
		want = cols[len(cols)-1]
	}
	setOptions(v.targetSel.sel, topts, want)
	v.targetSel.sel.SetDisabled(!l.Supervised())
	// Features: the built-in's numeric columns, or every column of a CSV.
	v.featBox.SetInnerHTML("")
	v.featBox.AppendChild(text("legend", "Features"))
	choices, checked := cols, map[string]bool{}
	if b != nil {
		choices = b.Features
		if choices == nil {
			choices = nil
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
	req     mechanism.Request
	table   *dataset.Table
	columns []string // names of θ's coordinates
	source  string
}

// build reads the form, parses and scales the data, and returns the request.
func (v *estimateView) build() (*estimateInput, error) {
	txt, b := v.text()
	if strings.TrimSpace(txt) == "" {
		if b != nil {
			return nil, errors.New("the built-in dataset did not load; reload the page")
		}
		return nil, checks.Errorf("the CSV text", "a table: paste one or drop a file on the box (it is empty)")
	}
	l := v.lossKind()
	opt := dataset.Options{Features: v.features()}
	if l.Supervised() {
		opt.Target = v.targetSel.sel.Value()
	}
	if b != nil || v.dropMissing.Checked() {
		opt.Drop = "missing"
	}
	if b != nil && opt.Target == b.Target {
		opt.Positive, opt.TargetType = b.Positive, dataset.TargetLabel // the declared schema
	}
	if len(opt.Features) == 0 {
		// No columns to offer usually means the file itself is malformed: say how.
		if _, err := dataset.Parse(txt, dataset.Options{Target: opt.Target, Drop: opt.Drop}); err != nil {
			v.csvErr.SetTextContent(err.Error())
			return nil, err
		}
		return nil, checks.Errorf("features", "at least one checked feature column")
	}
	t, err := dataset.Parse(txt, opt)
	if err != nil {
		if b == nil {
			v.csvErr.SetTextContent(err.Error())
		}
		return nil, err
	}
	in := &estimateInput{table: t, columns: append([]string(nil), t.Columns...)}
	in.source = "your CSV"
	if b != nil {
		in.source = b.Label
		if err := t.Scale(b.Ranges); err != nil {
			return nil, err
		}
	}
	if l.Classification() {
		for _, y := range t.Y {
			if y != 1 && y != -1 {
				return nil, &checks.Error{Field: "target", Rule: fmt.Sprintf("a label column for %s, with its positive label declared", l), Got: "the value " + checks.Fmt(y)}
			}
		}
	}
	x := t.X
	if l.Supervised() { // an intercept: a constant public feature
		x = make([][]float64, len(t.X))
		for i, r := range t.X {
			x[i] = append(append(make([]float64, 0, len(r)+1), r...), 1)
		}
		in.columns = append(in.columns, "intercept")
	}
	var vals [5]float64
	for i, f := range []numberField{v.eps, v.delta, v.c} {
		x, err := f.value([]string{"epsilon", "delta", "radius"}[i])
		f.setError(err)
		if err != nil {
			return nil, err
		}
		vals[i] = x
	}
	rank := 0
	if strings.TrimSpace(v.k.input.Value()) != "" {
		if rank, err = v.k.intValue("rank"); err != nil {
			v.k.setError(err)
			return nil, err
		}
	}
	v.k.setError(nil)
	m, err := v.m.intValue("samples")
	if err == nil {
		err = checks.IntRange("samples", m, 1, 1000)
	}
	v.m.setError(err)
	if err != nil {
		return nil, err
	}
	in.req = mechanism.Request{Loss: l.String(), X: x, Y: t.Y, Epsilon: vals[0], Delta: vals[1], Radius: vals[2], Rank: rank,
		Clip: math.Sqrt(float64(len(x[0]))), Samples: m}
	if _, err := mechanism.NewPlan(in.req); err != nil { // validate here, cheaply, with inline errors
		var ce *checks.Error
		if errors.As(err, &ce) {
			switch ce.Field {
			case "epsilon":
				v.eps.setError(err)
			case "delta":
				v.delta.setError(err)
			case "radius":
				v.c.setError(err)
			case "rank":
				v.k.setError(err)
			case "samples":
				v.m.setError(err)
			}
		}
		return nil, err
	}
	return in, nil
}

func (v *estimateView) runEstimate() {
	v.formErr.SetTextContent("")
	in, err := v.build()
	if err != nil {
		v.formErr.SetTextContent(err.Error())
		return
	}
	opts, release := v.run.start(fmt.Sprintf("Sampling from %d rows × %d columns in the worker…", len(in.req.X), len(in.req.X[0])))
	res, err := callRemote("mechanism.sample", jsio.EncodeTyped(in.req), opts)
	release()
	var out mechanism.Result
	if err == nil {
		err = jsio.Decode(res, &out)
	}
	v.run.done(err, "Done.")
	if err != nil {
		if !jsio.IsAbort(err) {
			v.formErr.SetTextContent(err.Error())
		}
		return
	}
	v.render(in, &out)
}

func (v *estimateView) render(in *estimateInput, r *mechanism.Result) {
	d := len(r.Theta)
	// Table of coefficients.
	tbl := el("table", "class", "coef")
	head := el("tr")
	appendAll(head, text("th", "coordinate"), text("th", "private θ (first sample)"), text("th", "spread over samples (sd)"), text("th", "non-private θ̂"))
	appendAll(tbl, head)
	mean, sd := make([]float64, d), make([]float64, d)
	for _, s := range r.Samples {
		for j, x := range s {
			mean[j] += x / float64(len(r.Samples))
		}
	}
	for _, s := range r.Samples {
		for j, x := range s {
			sd[j] += (x - mean[j]) * (x - mean[j]) / math.Max(1, float64(len(r.Samples)-1))
		}
	}
	for j := 0; j < d; j++ {
		row := el("tr")
		np := math.NaN()
		if j < len(r.Fit.Theta) {
			np = r.Fit.Theta[j]
		}
		spread := "—"
		if len(r.Samples) > 1 {
			spread = g3(math.Sqrt(sd[j]))
		}
		appendAll(row, text("td", in.columns[j]), text("td", g3(r.Theta[j])), text("td", spread), text("td", g3(np)))
		tbl.AppendChild(row)
	}
	v.summary.SetInnerHTML("")
	appendAll(v.summary, text("p", fmt.Sprintf("Data: %s — %d rows used%s; features scaled to [−1, 1] by declared public ranges%s.",
		in.source, len(in.req.X), dropped(in.table.Dropped), mapping(in.table.Mapping)), "class", "detail"), tbl)
	// Plot.
	v.redraw = func() {
		var p *plot.Plot
		if kind, _ := loss.ParseKind(in.req.Loss); kind.Location() && d == 2 {
			p = v.cloudPlot(in, r)
		} else {
			p = coefPlot(in, r, mean, sd)
		}
		v.fig.SetInnerHTML(fitWidth(v.fig, p).SVG())
	}
	v.redraw()
	v.excess.SetInnerHTML("")
	appendAll(v.excess, text("strong", "Not private — for your eyes only: "),
		doc().CreateTextNode(fmt.Sprintf("the released θ has loss %.4g against %.4g for the best θ with ‖θ‖ ≤ C (excess %.3g). "+
			"These numbers are computed from your raw data on this device; do not publish them.", r.Fit.Loss, r.Fit.NonPrivateLoss, r.Fit.Excess)))
	v.statement.SetTextContent(statement(r))
	v.exportJSON(in, r)
}

func dropped(n int) string {
	if n == 0 {
		return ""
	}
	return fmt.Sprintf(" (%d rows with missing cells dropped)", n)
}

func mapping(m map[string]float64) string {
	if len(m) == 0 {
		return ""
	}
	var parts []string
	for k, v := range m {
		parts = append(parts, fmt.Sprintf("%s → %+g", k, v))
	}
	if len(parts) == 2 && parts[0] > parts[1] {
		parts[0], parts[1] = parts[1], parts[0]
	}
	return "; labels " + strings.Join(parts, ", ")
}

// statement is the plain-language guarantee of a result.
func statement(r *mechanism.Result) string {
	pl, pv := r.Plan, r.Privacy
	s := fmt.Sprintf("Privacy: the %d released sample%s together are (ε = %g, δ = %.2g)-differentially private "+
		"with respect to replacing any one row (%.3g-GDP). Whatever anyone learns from them, they could have learned almost as "+
		"well (within a factor e^ε, plus probability δ) had any single row been different. Treated as public: n = %d, d = %d, "+
		"the loss, ε, δ, the radius C = %g, the rank k = %d, the clipping norm %.3g and the feature ranges. "+
		"Sampler: %s (%s).", pv.ComposedOver, plural(pv.ComposedOver), pv.Epsilon, pv.Delta, pv.GDP, pl.N, pl.D,
		pl.Radius, pl.Rank, pl.Clip, pl.Sampler, pl.Method)
	if !r.Private {
		s += " This run used a fixed seed: it is reproducible and NOT private."
	}
	return s
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// cloudPlot: 2-D samples over the loss contours (location losses).
func (v *estimateView) cloudPlot(in *estimateInput, r *mechanism.Result) *plot.Plot {
	kind, _ := loss.ParseKind(in.req.Loss)
	set, err := loss.New(kind, in.req.X, in.req.Y, loss.Params{Clip: in.req.Clip})
	lo, hi := -1.1, 1.1
	for _, s := range r.Samples {
		for _, x := range s {
			lo, hi = math.Min(lo, x-0.05), math.Max(hi, x+0.05)
		}
	}
	const m = 36
	xs := make([]float64, m)
	for i := range xs {
		xs[i] = lo + (hi-lo)*float64(i)/(m-1)
	}
	var series []plot.Series
	if err == nil {
		z := make([][]float64, m)
		zmin, zmax := math.Inf(1), math.Inf(-1)
		for i := range z {
			z[i] = make([]float64, m)
			for j := range z[i] {
				z[i][j] = set.Mean([]float64{xs[j], xs[i]})
				zmin, zmax = math.Min(zmin, z[i][j]), math.Max(zmax, z[i][j])
			}
		}
		var levels []float64
		for q := 1; q <= 6; q++ {
			levels = append(levels, zmin+(zmax-zmin)*math.Pow(float64(q)/7, 2))
		}
		series = plot.Contours(xs, xs, z, levels, "#c8c8c8")
		series[0].Name = "loss contours"
	}
	dx, dy := make([]float64, 0, len(in.req.X)), make([]float64, 0, len(in.req.X))
	for _, row := range in.req.X {
		dx, dy = append(dx, row[0]), append(dy, row[1])
	}
	sx, sy := make([]float64, len(r.Samples)), make([]float64, len(r.Samples))
	for i, s := range r.Samples {
		sx[i], sy[i] = s[0], s[1]
	}
	series = append(series,
		plot.Series{Name: "data rows", X: dx, Y: dy, Kind: plot.Points, Color: "#bbbbbb"},
		plot.Series{Name: fmt.Sprintf("%d private samples", len(r.Samples)), X: sx, Y: sy, Kind: plot.Points, Color: plot.Palette[0]},
		plot.Series{Name: "non-private minimiser", X: r.Fit.Theta[:1], Y: r.Fit.Theta[1:2], Kind: plot.Points, Color: plot.Palette[1]})
	return &plot.Plot{Title: "Private samples over the loss", XLabel: in.columns[0] + " (scaled)",
		YLabel: in.columns[1] + " (scaled)", Series: series, XMin: lo, XMax: hi, YMin: lo, YMax: hi, Height: 480,
		Desc: "Each blue dot is one private sample of θ; grey lines are level sets of the loss; the orange dot is the non-private minimiser."}
}

// coefPlot: coefficient bars (mean of the samples, ± sd) and the non-private fit.
func coefPlot(in *estimateInput, r *mechanism.Result, mean, sd []float64) *plot.Plot {
	d := len(mean)
	idx := make([]float64, d)
	for j := range idx {
		idx[j] = float64(j + 1)
	}
	var errs []float64
	if len(r.Samples) > 1 {
		errs = make([]float64, d)
		for j := range errs {
			errs[j] = math.Sqrt(sd[j])
		}
	}
	np := r.Fit.Theta
	if len(np) > d {
		np = np[:d]
	}
	return &plot.Plot{Title: "Private vs non-private coefficients", XLabel: "coordinate j (order of the table)",
		YLabel: "θ_j (scaled units)", XMin: 0.4, XMax: float64(d) + 0.6,
		Series: []plot.Series{
			{Name: fmt.Sprintf("private, mean of %d ± sd", len(r.Samples)), X: idx, Y: mean, Kind: plot.Bars, Err: errs, Color: plot.Palette[0]},
			{Name: "non-private θ̂", X: idx[:len(np)], Y: np, Kind: plot.Points, Color: plot.Palette[1]},
		},
		Desc: "Bars: private coefficients (mean over samples, with ± one standard deviation); orange dots: the non-private fit."}
}

// exportJSON offers the result and plan as a JSON download (a Blob URL).
func (v *estimateView) exportJSON(in *estimateInput, r *mechanism.Result) {
	// Only the private release (mechanism.Result.Release: θ, samples, plan,
	// privacy, public stats) and public inputs: no fit, no work counters or
	// timings, no count of dropped rows, no label coding read from the data.
	rel := r.Release()
	payload := map[string]any{
		"source": in.source, "columns": in.columns, "theta": rel.Theta, "samples": rel.Samples, "private": rel.Private,
		"plan": rel.Plan, "privacy": rel.Privacy, "stats": rel.Stats,
		"note": "only the private release: the non-private fit, the work counters and timings (diagnostics) and anything else computed from the raw data are omitted (docs/PRIVACY.md)",
	}
	b, err := json.MarshalIndent(payload, "", "  ")
	if err != nil {
		return
	}
	if v.exportURL != "" {
		js.Global().Get("URL").Call("revokeObjectURL", v.exportURL)
	}
	parts := js.Global().Get("Array").New(1)
	parts.SetIndex(0, string(b))
	opts := js.Global().Get("Object").New()
	opts.Set("type", "application/json")
	blob := js.Global().Get("Blob").New(parts, opts)
	v.exportURL = js.Global().Get("URL").Call("createObjectURL", blob).String()
	v.export.SetInnerHTML("")
	a := text("a", "Download the private result and its plan (JSON)", "href", v.exportURL, "download", "dpsample-estimate.json", "id", v.id+"-download")
	appendAll(v.export, a, doc().CreateTextNode(" — contains θ, the samples, the plan and the privacy report; not the data or the non-private fit."))
}
