//go:build js && wasm

package estimate

import (
	"fmt"
	"strings"
	"syscall/js"

	"github.com/dpsample/dpsample/core/checks"
	"github.com/dpsample/dpsample/core/dataset"
	"github.com/dpsample/dpsample/core/loss"
	"github.com/dpsample/dpsample/wasm/ui/estimate/internal/ledger"
	"github.com/dpsample/dpsample/wasm/ui/estimate/internal/report"
	"github.com/dpsample/dpsample/wasm/ui/internal/kit"
)

// The form's first choices for a CSV (issue 23), from the kinds of its
// columns (dataset.ProfileText), which the owner sees before anything runs:
// text columns are offered as features but not ticked (one-hot when ticked); the target is the last column;
// a text (or two-valued) target makes the task a classification, a numeric
// one a regression; a centre only when the file has no second column to
// predict from. The user's own choice of the task is kept until a file with
// other column names is loaded.
const (
	csvClassifier = loss.Logistic       // fast (exact first-order sampler), and its score is a log-odds
	csvRegression = loss.SmoothQuantile // fast, and robust like the median regression it smooths
)

// taskFor is the task a CSV's target column suggests.
func taskFor(c dataset.ColumnInfo) loss.Kind {
	if c.Kind == dataset.KindText || (c.Kind == dataset.KindNumeric && len(c.Labels) == 2) {
		return csvClassifier
	}
	return csvRegression
}

// usable reports whether a CSV column is a feature with a range (numbers; a
// mixed column is offered so that its bad cell is reported, not hidden).
func usable(c dataset.ColumnInfo) bool {
	return c.Kind == dataset.KindNumeric || c.Kind == dataset.KindMixed
}

// columnsChanged refreshes the target list and the feature checkboxes from
// the columns (Parse's header rule and dialect), and the form's first
// choices for a CSV.
func (v *estimateView) columnsChanged() {
	v.formErr.SetTextContent("") // a message about the former form
	if v.colTimer.Truthy() {     // called directly (a run): the pending debounce would clear what this call shows
		js.Global().Call("clearTimeout", v.colTimer)
		v.colTimer = js.Undefined()
	}
	// The boxes' states as the user left them (before a new kind of file
	// starts afresh, in readProfile).
	for _, in := range kit.Qsa(v.featBox, "input[type=checkbox]") {
		if !kit.AsInput(in).Disabled() {
			v.featState[kit.AsInput(in).Value()] = kit.AsInput(in).Checked()
		}
	}
	txt, b := v.text()
	var cols []string
	if b == nil {
		if len(txt) > maxPasteBytes {
			v.loadErr, txt = tooLarge(len(txt)).Error(), ""
		}
		v.lastText = txt
		cols = v.readProfile(txt)
		v.csvErr.SetTextContent(v.loadErr)
	} else if strings.TrimSpace(txt) != "" {
		cols, _ = dataset.ColumnsWith(txt, b.Options().Header)
	}
	if b == nil && v.profile != nil {
		v.followRows(v.profile.Rows)
	}
	v.ledger.TableChanged(txt)
	want := v.targetSel.Sel.Value()
	if b == nil && v.profile != nil {
		if !contains(cols, want) {
			want = ""
			for _, c := range v.profile.Columns {
				if c.Kind != dataset.KindEmpty {
					want = c.Name // the last column with values
				}
			}
		}
		if v.lossAuto {
			if task := v.autoTask(want).String(); task != v.lossSel.Sel.Value() {
				v.lossSel.Sel.SetValue(task)
				v.taskAsked = false // a new suggestion: the owner is asked again
			}
		}
	}
	l := v.lossKind()
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
	case v.profile != nil:
		// Every column with values may be the target, whatever the task
		// (issue 45 item 1): choosing one suggests the task (the change
		// handler, autoTask).
		for _, c := range v.profile.Columns {
			if c.Kind != dataset.KindEmpty {
				targets = append(targets, c.Name)
			}
		}
		if !contains(targets, want) && len(targets) > 0 {
			want = targets[len(targets)-1]
		}
	default:
		targets = cols
	}
	var topts [][2]string
	for _, c := range targets {
		topts = append(topts, [2]string{c, c})
	}
	if !l.Supervised() {
		topts = [][2]string{{"", "— none (a centre needs no target)"}}
		want = ""
	}
	kit.SetOptions(v.targetSel.Sel, topts, want)
	v.targetSel.Sel.SetDisabled(!l.Supervised())
	// Features: the built-in's numeric columns, or a CSV's columns (text
	// ones offered, unticked at first; empty ones shown but not offered). A column whose box the user has seen
	// keeps its state (the user's choice, remembered while it is the
	// target); others get the default.
	v.featBox.SetInnerHTML("")
	v.featBox.AppendChild(kit.Text("legend", "Features"))
	choices, checked, kinds := cols, map[string]bool{}, map[string]string{}
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
	} else if v.profile != nil {
		for _, c := range v.profile.Columns {
			checked[c.Name] = c.Name != want && usable(c)
			kinds[c.Name] = c.Kind
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
		in := kit.El("input", "type", "checkbox", "id", cid, "value", c)
		lab := kit.El("label", "for", cid, "class", "check")
		kit.AppendAll(lab, in, kit.TextNode(" "+c))
		switch kinds[c] {
		case dataset.KindEmpty: // nothing to learn from (a label column can be the target)
			in.SetAttribute("disabled", "")
			lab.AppendChild(kit.Text("span", " (empty)", "class", "help"))
			lab.SetAttribute("title", c+" holds no values: it cannot be a feature")
		case dataset.KindText: // one-hot coded when ticked (internal/categories); never the target's column
			lab.AppendChild(kit.Text("span", " (text)", "class", "help"))
			lab.SetAttribute("title", c+" holds text: ticked, it is one-hot coded, one column per category")
		}
		if checked[c] && kinds[c] != dataset.KindEmpty {
			in.SetAttribute("checked", "")
		}
		v.featBox.AppendChild(lab)
	}
	v.rangesChanged()
}

// autoTask is the task the target column suggests (a centre when the file
// has no second column with values to predict from).
func (v *estimateView) autoTask(target string) loss.Kind {
	n := 0
	for _, c := range v.profile.Columns {
		if c.Kind != dataset.KindEmpty {
			n++
		}
	}
	c, ok := v.profile.Column(target)
	if !ok || n < 2 {
		return loss.L1
	}
	return taskFor(c)
}

// dataInputsChanged clears the messages a former run left about the data
// (a bad cell of a column no longer used, missing cells now dropped), and
// the form's error line: they were about inputs that just changed.
func (v *estimateView) dataInputsChanged(why string) {
	v.csvErr.SetTextContent(v.loadErr)
	v.formErr.SetTextContent("")
	v.k.SetError(nil)
	v.workChanged()
	kit.MarkStale(v.out, v.id, why)
}

// rangesChanged redraws the declarations: a range [lo, hi] for each checked
// feature and, for a regression loss, the target; the positive label for a
// classifier. A built-in shows its declared ranges (read-only); for a CSV the
// inputs start empty (or with what the user typed before, or declared for a
// file with the same column names on this device): nothing here is computed
// from the data.
func (v *estimateView) rangesChanged() {
	v.reconcilePrivate() // ranges found privately on another table (or before a reset) are not this table's
	v.updateRadius()
	v.syncEstimator()
	_, b := v.text()
	l := v.lossKind()
	target := v.targetSel.Sel.Value()
	v.rangesBox.SetInnerHTML("")
	v.rangesErr.SetTextContent("")
	v.rangesBox.AppendChild(kit.Text("legend", "Declared public ranges"))
	if b != nil {
		v.rangesBox.AppendChild(kit.Text("p", "Declared once for this dataset by dpsample, not computed from the file: "+
			"each feature is scaled from its range to [−1, 1], values outside are clamped.", "class", "help"))
	} else {
		v.rangesBox.AppendChild(kit.Text("p", "Declare each range from what you knew before looking at this file — an instrument's limits, "+
			"a questionnaire's scale, a physical bound. The inputs start empty on purpose: a range computed from the data (its minimum "+
			"and maximum) is set by the most extreme rows and would reveal them, so it cannot be treated as public. Each feature is "+
			"scaled from its range to [−1, 1]; a value outside is clamped, and how many were is shown to you only.", "class", "help", "id", v.id+"-ranges-note"))
	}
	row := func(label, key string, idx string, r *dataset.Range) {
		// Layout set through the CSSOM (the page's CSP, style-src 'self',
		// blocks style attributes, not element.style): label above, "lo to
		// hi" on one line. The class "range" is free for the style sheet.
		wrap := kit.El("div", "class", "field range", "data-col", key)
		kit.SetStyle(wrap, "display", "inline-block", "margin", "0 1.5em 0.5em 0")
		lo := kit.El("input", "id", v.id+"-lo-"+idx, "type", "text", "inputmode", "decimal", "autocomplete", "off", "size", "8",
			"data-col", key, "data-end", "lo", "aria-label", label+": lowest possible value")
		hi := kit.El("input", "id", v.id+"-hi-"+idx, "type", "text", "inputmode", "decimal", "autocomplete", "off", "size", "8",
			"data-col", key, "data-end", "hi", "aria-label", label+": highest possible value")
		kit.SetStyle(lo, "width", "7em", "display", "inline-block")
		kit.SetStyle(hi, "width", "7em", "display", "inline-block")
		if r != nil {
			lo.SetAttribute("value", report.G6(r.Lo))
			hi.SetAttribute("value", report.G6(r.Hi))
			lo.SetAttribute("readonly", "")
			hi.SetAttribute("readonly", "")
		} else if d, ok := v.declared[key]; ok {
			lo.SetAttribute("value", d[0])
			hi.SetAttribute("value", d[1])
		}
		lab := kit.Text("label", label, "for", v.id+"-lo-"+idx)
		kit.SetStyle(lab, "display", "block")
		if note := v.privateNote(key); note != "" && r == nil {
			lab.AppendChild(kit.Text("span", " — "+note, "class", "found-private", "data-private", key))
		}
		kit.AppendAll(wrap, lab, lo, kit.TextNode(" to "), hi)
		v.rangesBox.AppendChild(wrap)
	}
	for i, c := range v.features() {
		if v.isText(c) {
			v.rangesBox.AppendChild(v.cats.Field(fmt.Sprintf("%s-cat-%d", v.id, i), c, v.tableLedger(), v.catsEdited))
			continue
		}
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
		wrap := kit.El("div", "class", "field")
		in := kit.El("input", "id", v.id+"-positive", "type", "text", "autocomplete", "off", "data-positive", target,
			"aria-describedby", v.id+"-positive-check")
		if b != nil && target == b.Target {
			in.SetAttribute("value", b.Positive)
			in.SetAttribute("readonly", "")
		} else {
			in.SetAttribute("value", v.positive[target])
		}
		v.positiveNote = kit.El("div", "id", v.id+"-positive-check", "class", "owner-note", "role", "status")
		kit.AppendAll(wrap, kit.Text("label", "positive label of "+target+" (coded +1; every other label −1)", "for", v.id+"-positive"), in)
		if b == nil && v.profile != nil {
			// The column's labels to pick from: read from the owner's file on
			// this device, shown only to them; the choice is theirs (a
			// declaration), never made by the page.
			if ci, ok := v.profile.Column(target); ok && len(ci.Labels) > 0 {
				list := kit.El("datalist", "id", v.id+"-positive-labels")
				for _, lc := range ci.Labels {
					list.AppendChild(kit.El("option", "value", lc.Label))
				}
				in.SetAttribute("list", v.id+"-positive-labels")
				wrap.AppendChild(list)
				wrap.AppendChild(kit.Text("div", "Pick the label that means “yes” from this column's labels (listed from your file on this device, shown only to you) or type it.", "class", "help"))
			}
		}
		wrap.AppendChild(v.positiveNote)
		v.rangesBox.AppendChild(wrap)
		v.checkPositive()
	}
	if b == nil {
		if blank, cats := v.blankColumns(), v.blankCats(); len(blank)+len(cats) > 0 {
			wrap := kit.El("div", "class", "field find-private")
			find := kit.Text("button", "Find ranges privately", "type", "button", "id", v.id+"-find-ranges", "class", "secondary")
			if len(cats) > 0 {
				find.SetTextContent("Find ranges and categories privately")
			}
			kit.On(find, "click", false, func(kit.Event) {
				go func() {
					v.rangesErr.SetTextContent("")
					if err := v.preflight(); err != nil {
						v.showFindResult(nil, err)
						return
					}
					missing, err := v.findRanges()
					v.showFindResult(missing, err)
				}()
			})
			kit.AppendAll(wrap, kit.Text("p", v.privateCostLine(blank, cats), "class", "help", "id", v.id+"-private-cost"), find)
			v.rangesBox.AppendChild(wrap)
		}
		v.privatePanel()
		v.buildRangesLine()
	}
}

// rangeEdited records a typed range end (or positive label), checks it by
// the core rule (dataset.Range.Valid, as Table.Scale does), and remembers
// it on this device for files with the same column names.
func (v *estimateView) rangeEdited(t kit.Elem) {
	if t.GetAttribute("data-line") != "" {
		return // the one-line form has its own handler
	}
	v.formErr.SetTextContent("")
	kit.MarkStale(v.out, v.id, "a declared range changed")
	if col := t.GetAttribute("data-positive"); col != "" {
		v.positive[col] = kit.AsInput(t).Value()
		v.rangesErr.SetTextContent("")
		v.checkPositive()
		v.remember()
		return
	}
	col := t.GetAttribute("data-col")
	if col == "" {
		return
	}
	d := v.declared[col]
	val := kit.AsInput(t).Value()
	if t.GetAttribute("data-end") == "lo" {
		d[0] = val
	} else {
		d[1] = val
	}
	v.declared[col] = d
	v.costChanged()
	v.rangesErr.SetTextContent("")
	if strings.TrimSpace(d[0]) != "" && strings.TrimSpace(d[1]) != "" {
		if _, err := declaredRange("ranges."+col, d); err != nil {
			v.rangesErr.SetTextContent(err.Error())
		}
	}
	v.syncRangesLine()
	v.remember()
}

// declaredRange parses a typed [lo, hi] and checks it by dataset.Range.Valid.
func declaredRange(field string, d [2]string) (dataset.Range, error) {
	if strings.TrimSpace(d[0]) == "" || strings.TrimSpace(d[1]) == "" {
		return dataset.Range{}, checks.Errorf(field, "a declared public range [lo, hi] (type both ends: the page does not compute them from the data)")
	}
	lo, err := kit.ParseNumber(field+".lo", d[0])
	if err != nil {
		return dataset.Range{}, err
	}
	hi, err := kit.ParseNumber(field+".hi", d[1])
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

// isText reports whether c is a text column of the CSV shown (one-hot
// coded when ticked as a feature).
func (v *estimateView) isText(c string) bool {
	if v.profile == nil || v.builtin() != nil {
		return false
	}
	ci, ok := v.profile.Column(c)
	return ok && ci.Kind == dataset.KindText
}

func (v *estimateView) features() []string {
	var out []string
	for _, in := range kit.Qsa(v.featBox, "input[type=checkbox]") {
		if kit.AsInput(in).Checked() && !kit.AsInput(in).Disabled() {
			out = append(out, kit.AsInput(in).Value())
		}
	}
	return out
}

// followRows sets the run's δ and the table budget's δ for a file of n rows
// (ledger.RowsDelta), each only while the user has not typed one (the
// budget's also only while the table has no release); a changed field says
// why under it.
func (v *estimateView) followRows(n int) {
	d := ledger.RowsDeltaText(n)
	note := "" // the page's own δ needs no word
	if d != ledger.RowsDeltaText(0) {
		note = fmt.Sprintf("set to %s for %s: δ must stay well below 1/n", d, kit.Count(n, "row"))
	}
	if v.deltaAuto && v.delta.Input.Value() != d {
		v.delta.Input.SetValue(d)
		v.delta.SetNote(note)
		v.epsWords.SetTextContent(report.RunWords(v.eps.Input.Value(), d))
	}
	v.ledger.OfferDelta(d, note)
}
