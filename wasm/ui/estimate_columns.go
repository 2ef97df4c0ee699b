//go:build js && wasm

package ui

import (
	"fmt"
	"math"
	"strings"
	"syscall/js"

	"github.com/dpsample/dpsample/core/checks"
	"github.com/dpsample/dpsample/core/dataset"
	"github.com/dpsample/dpsample/core/loss"
)

// The form's first choices for a CSV (issue 23), from the kinds of its
// columns (dataset.ProfileText), which the owner sees before anything runs:
// text columns are not offered as features; the target is the last column;
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

// usable reports whether a CSV column can be a feature (numbers; a mixed
// column is offered so that its bad cell is reported, not hidden).
func usable(c dataset.ColumnInfo) bool {
	return c.Kind == dataset.KindNumeric || c.Kind == dataset.KindMixed
}

// ownerNote fills box with findings about the user's own file: labelled as
// computed on this device for the owner alone, and never exported.
func ownerNote(box elem, title string, problems []dataset.Problem) {
	box.SetInnerHTML("")
	head := el("p", "class", "owner-label")
	appendAll(head, text("strong", title), textNode(" — checked on this device and shown only to you; not part of any result or export."))
	ul := el("ul")
	for _, pr := range problems {
		li := text("li", pr.Text)
		if pr.Blocking {
			li.Class().Add("blocking")
		}
		ul.AppendChild(li)
	}
	appendAll(box, head, ul)
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
	for _, in := range qsa(v.featBox, "input[type=checkbox]") {
		if !asInput(in).Disabled() {
			v.featState[asInput(in).Value()] = asInput(in).Checked()
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
	v.ledger.tableChanged(txt)
	want := v.targetSel.sel.Value()
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
			if task := v.autoTask(want).String(); task != v.lossSel.sel.Value() {
				v.lossSel.sel.SetValue(task)
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
		// A classifier may predict any column; a regression a numeric one.
		for _, c := range v.profile.Columns {
			if l.Classification() || usable(c) {
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
	setOptions(v.targetSel.sel, topts, want)
	v.targetSel.sel.SetDisabled(!l.Supervised())
	// Features: the built-in's numeric columns, or a CSV's columns (text
	// ones shown but not offered). A column whose box the user has seen
	// keeps its state (the user's choice, remembered while it is the
	// target); others get the default.
	v.featBox.SetInnerHTML("")
	v.featBox.AppendChild(text("legend", "Features"))
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
		in := el("input", "type", "checkbox", "id", cid, "value", c)
		lab := el("label", "for", cid, "class", "check")
		appendAll(lab, in, textNode(" "+c))
		switch k := kinds[c]; k {
		case dataset.KindText, dataset.KindEmpty:
			// Not a number: it cannot be a feature (a label column can be the target).
			in.SetAttribute("disabled", "")
			what := map[string]string{dataset.KindText: "text", dataset.KindEmpty: "empty"}[k]
			lab.AppendChild(text("span", " ("+what+")", "class", "help"))
			lab.SetAttribute("title", c+" holds "+what+", not numbers: it cannot be a feature")
		default:
			if checked[c] {
				in.SetAttribute("checked", "")
			}
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
	v.k.setError(nil)
	v.workChanged()
	markStale(v.out, v.id, why)
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
	target := v.targetSel.sel.Value()
	v.rangesBox.SetInnerHTML("")
	v.rangesErr.SetTextContent("")
	v.rangesBox.AppendChild(text("legend", "Declared public ranges"))
	if b != nil {
		v.rangesBox.AppendChild(text("p", "Declared once for this dataset by dpsample, not computed from the file: "+
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
		if note := v.privateNote(key); note != "" && r == nil {
			lab.AppendChild(text("span", " — "+note, "class", "found-private", "data-private", key))
		}
		appendAll(wrap, lab, lo, textNode(" to "), hi)
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
		in := el("input", "id", v.id+"-positive", "type", "text", "autocomplete", "off", "data-positive", target,
			"aria-describedby", v.id+"-positive-check")
		if b != nil && target == b.Target {
			in.SetAttribute("value", b.Positive)
			in.SetAttribute("readonly", "")
		} else {
			in.SetAttribute("value", v.positive[target])
		}
		v.positiveNote = el("div", "id", v.id+"-positive-check", "class", "owner-note", "role", "status")
		appendAll(wrap, text("label", "positive label of "+target+" (coded +1; every other label −1)", "for", v.id+"-positive"), in)
		if b == nil && v.profile != nil {
			// The column's labels to pick from: read from the owner's file on
			// this device, shown only to them; the choice is theirs (a
			// declaration), never made by the page.
			if ci, ok := v.profile.Column(target); ok && len(ci.Labels) > 0 {
				list := el("datalist", "id", v.id+"-positive-labels")
				for _, lc := range ci.Labels {
					list.AppendChild(el("option", "value", lc.Label))
				}
				in.SetAttribute("list", v.id+"-positive-labels")
				wrap.AppendChild(list)
				wrap.AppendChild(text("div", "Pick the label that means “yes” from this column's labels (listed from your file on this device, shown only to you) or type it.", "class", "help"))
			}
		}
		wrap.AppendChild(v.positiveNote)
		v.rangesBox.AppendChild(wrap)
		v.checkPositive()
	}
	if b == nil {
		if blank := v.blankColumns(); len(blank) > 0 {
			wrap := el("div", "class", "field find-private")
			find := text("button", "Find ranges privately", "type", "button", "id", v.id+"-find-ranges", "class", "secondary")
			on(find, "click", false, func(event) {
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
			appendAll(wrap, text("p", v.privateCostLine(blank), "class", "help", "id", v.id+"-private-cost"), find)
			v.rangesBox.AppendChild(wrap)
		}
		v.privatePanel()
		v.buildRangesLine()
	}
}

// rangeEdited records a typed range end (or positive label), checks it by
// the core rule (dataset.Range.Valid, as Table.Scale does), and remembers
// it on this device for files with the same column names.
func (v *estimateView) rangeEdited(t elem) {
	if t.GetAttribute("data-line") != "" {
		return // the one-line form has its own handler
	}
	v.formErr.SetTextContent("")
	markStale(v.out, v.id, "a declared range changed")
	if col := t.GetAttribute("data-positive"); col != "" {
		v.positive[col] = asInput(t).Value()
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
	val := asInput(t).Value()
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
	v.syncRangesLine()
	v.remember()
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
	for _, in := range qsa(v.featBox, "input[type=checkbox]") {
		if asInput(in).Checked() && !asInput(in).Disabled() {
			out = append(out, asInput(in).Value())
		}
	}
	return out
}

// defaultDelta is the page's δ (a run's and a table budget's) for tables of
// up to 10⁴ rows (docs/DEFAULTS.md).
const defaultDelta = 1e-5

// rowsDelta is the δ the page offers for a table of n rows: defaultDelta
// while it is at most 1/(10n), else the power of ten at or below 1/(10n) —
// δ ≪ 1/n, as DP asks (checks.DeltaForN refuses δ ≥ 1/n: at 10⁵ rows the
// default 10⁻⁵ was refused and a newcomer had two fields to change before a
// first run, issue 43 item 5). The row count is public (replace-one
// neighbours: docs/PRIVACY.md), so the choice spends nothing.
func rowsDelta(n int) float64 {
	if n <= 0 || defaultDelta <= 1/(10*float64(n)) {
		return defaultDelta
	}
	return math.Pow(10, math.Floor(math.Log10(1/(10*float64(n)))))
}

// followRows sets the run's δ and the table budget's δ for a file of n rows
// (rowsDelta), each only while the user has not typed one and the budget
// only while the table has no release (its δ is then fixed); a changed
// field says why under it.
func (v *estimateView) followRows(n int) {
	d := trimFloat(rowsDelta(n))
	note := fmt.Sprintf("set to %s for %s: δ must stay well below 1/n", d, count(n, "row"))
	if n <= 10_000 {
		note = ""
	}
	if v.deltaAuto && v.delta.input.Value() != d {
		v.delta.input.SetValue(d)
		v.delta.setNote(note)
	}
	lv := v.ledger
	if lv.deltaAuto && (lv.state == nil || lv.state.Spent.Releases == 0) && lv.delta.input.Value() != d {
		lv.delta.input.SetValue(d)
		lv.delta.setNote(note)
	}
}
