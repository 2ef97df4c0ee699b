//go:build js && wasm

package ui

import (
	"fmt"
	"strings"

	"honnef.co/go/js/dom/v2"

	"github.com/dpsample/dpsample/core/checks"
	"github.com/dpsample/dpsample/core/dataset"
)

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
