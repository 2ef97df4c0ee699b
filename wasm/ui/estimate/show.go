//go:build js && wasm

package estimate

import (
	"fmt"
	"slices"
	"strings"
	"syscall/js"
	"unicode"

	"github.com/dpsample/dpsample/core/dataset"
	"github.com/dpsample/dpsample/core/domain"
	"github.com/dpsample/dpsample/wasm/ui/estimate/internal/categories"
	"github.com/dpsample/dpsample/wasm/ui/estimate/internal/form"
	"github.com/dpsample/dpsample/wasm/ui/estimate/internal/report"
	"github.com/dpsample/dpsample/wasm/ui/internal/kit"
	"github.com/dpsample/dpsample/wasm/ui/internal/words"
)

// show renders the form's state. A region is rebuilt only when what it
// shows changed shape (drawn); otherwise its inputs take the state's values,
// except the one the person is typing in.
func (v *estimateView) show() {
	s, e := v.st, &v.el
	// Run stays disabled for the whole press, not only while a worker call
	// is under way (issue 55: the ranges' release re-enabled it, and a second
	// press started a second model beside the first: the third release).
	if s.Press != nil {
		v.run.Run.SetDisabled(true)
	}
	e.lossSel.Sel.SetValue(s.Choice.Loss.String())
	m, on := s.EstimatorShown()
	e.estSel.Sel.SetValue(m)
	e.estSel.Sel.SetDisabled(!on)
	v.showTargets()
	v.showFeatures()
	v.showRanges()
	for name, f := range map[string]kit.NumberField{"epsilon": e.eps, "delta": e.delta, "radius": e.c, "rank": e.k, "samples": e.m} {
		val := map[string]string{"epsilon": s.Choice.Epsilon, "rank": s.Choice.Rank, "samples": s.Choice.Samples, "radius": s.Radius()}[name]
		if name == "delta" {
			d, note := s.DeltaField()
			val = d
			if s.Choice.DeltaAuto {
				f.SetNote(note)
			}
		}
		if !focused(f.Input) && f.Input.Value() != val {
			f.Input.SetValue(val)
		}
		msg := s.FieldError(name)
		if s.Msg != nil && s.Msg.Field == name {
			msg = s.Msg.Text
		}
		f.SetError(errText(msg))
	}
	d, _ := s.DeltaField()
	e.epsWords.SetTextContent(report.RunWords(s.Choice.Epsilon, d))
	csvMsg := s.Table.LoadErr
	formMsg, rangesMsg := "", ""
	if mm := s.Msg; mm != nil {
		switch slotOf(mm.Field, mm.Question) {
		case slotCSV:
			csvMsg = mm.Text
		case slotRanges:
			rangesMsg = mm.Text
		case slotForm:
			formMsg = mm.Text
		}
	}
	e.csvErr.SetTextContent(csvMsg)
	e.rangesErr.SetTextContent(rangesMsg)
	if mm := s.Msg; mm != nil && mm.Check != nil {
		showRefusal(e.formErr, mm.Text, mm.Check.Reason)
	} else {
		e.formErr.SetTextContent(formMsg)
	}
	e.workLine.SetTextContent(s.Work)
	e.interval.SetChecked(s.Choice.Interval)
	e.intervalLine.SetTextContent(s.IntervalLine())
	if s.Table.Builtin != nil {
		e.csvBox.SetAttribute("hidden", "")
	} else {
		e.csvBox.RemoveAttribute("hidden")
	}
	v.remember()
	if s.Table.Builtin == nil && s.Table.Profile != nil && s.Choice.DeltaAuto {
		d, note := s.DeltaField()
		if v.ledger.OfferDelta(d, note) {
			go v.dispatch(form.LedgerSeen{Ledger: v.ledgerSeen()})
		}
	}
}

// showRefusal writes a refusal for the budget into slot: the plain words,
// then the exact accounting under a disclosure.
func showRefusal(slot kit.Elem, plain, reason string) {
	slot.SetInnerHTML("")
	det := kit.El("details", "class", "refusal-detail")
	kit.AppendAll(det, kit.Text("summary", "The exact accounting (Gaussian DP)"), kit.Text("p", reason+"."))
	kit.AppendAll(slot, kit.TextNode(plain+" "), det)
}

// errText is a message as an error (nil for none), for kit's fields.
func errText(s string) error {
	if s == "" {
		return nil
	}
	return plain(s)
}

type plain string

func (p plain) Error() string { return string(p) }

// focused reports whether the element has the focus (the person is typing
// in it: the state does not overwrite it).
func focused(e interface{ Underlying() js.Value }) bool {
	return js.Global().Get("document").Get("activeElement").Equal(e.Underlying())
}

// drawn are what the form's rebuilt regions were drawn from.
type drawn struct {
	targets, feats, ranges string
}

func (v *estimateView) showTargets() {
	s, sel := v.st, v.el.targetSel.Sel
	targets := s.Targets()
	// While a CSV waits for its target (form.AwaitsTarget: the task follows
	// the target, none chosen yet) the list asks for one and is enabled,
	// whatever task is shown: Run's question sends the focus to it.
	awaits := s.AwaitsTarget()
	var opts [][2]string
	switch {
	case awaits || (s.Choice.Loss.Supervised() && s.Target() == ""):
		opts = append(opts, [2]string{"", "— choose the column to predict —"})
	case !s.Choice.Loss.Supervised():
		opts = [][2]string{{"", "— none (a centre needs no target)"}}
	}
	for _, c := range targets {
		opts = append(opts, [2]string{c, c})
	}
	key := fmt.Sprint(opts, s.Target())
	if key != v.drawn.targets {
		v.drawn.targets = key
		kit.SetOptions(sel, opts, s.Target())
		if s.Target() == "" {
			sel.SetValue("")
		}
	}
	sel.SetDisabled(!s.Choice.Loss.Supervised() && !awaits)
}

func (v *estimateView) showFeatures() {
	s, box := v.st, v.el.featBox
	boxes := s.FeatureBoxes()
	var shape []string
	for _, f := range boxes {
		shape = append(shape, fmt.Sprintf("%d:%s:%s:%v", f.Index, f.Col, f.Kind, f.Disabled))
	}
	key := strings.Join(shape, "|")
	b := s.Table.Builtin
	switch {
	case b == nil && s.Table.Profile == nil:
		key = "none"
	case b != nil && len(b.Columns) == 0:
		key = "loading " + b.Key
		boxes = nil
	}
	if key != v.drawn.feats {
		v.drawn.feats = key
		box.SetInnerHTML("")
		box.AppendChild(kit.Text("legend", "Features"))
		if b != nil && len(b.Columns) == 0 {
			box.AppendChild(kit.Text("p", "Loading "+b.Label+"…", "class", "help"))
		}
		for _, f := range boxes {
			cid := fmt.Sprintf("%s-f%d", v.id, f.Index)
			in := kit.El("input", "type", "checkbox", "id", cid, "value", f.Col)
			lab := kit.El("label", "for", cid, "class", "check")
			kit.AppendAll(lab, in, kit.TextNode(" "+f.Col))
			switch f.Kind {
			case dataset.KindEmpty: // nothing to learn from (a label column can be the target)
				in.SetAttribute("disabled", "")
				lab.AppendChild(kit.Text("span", " (empty)", "class", "help"))
				lab.SetAttribute("title", f.Col+" holds no values: it cannot be a feature")
			case dataset.KindText: // one-hot coded when ticked (form.CatLists); never the target's column
				lab.AppendChild(kit.Text("span", " (text)", "class", "help"))
				lab.SetAttribute("title", f.Col+" holds text: ticked, it is one-hot coded, one column per category")
			}
			box.AppendChild(lab)
		}
	}
	for _, f := range boxes {
		if in := kit.ByID(fmt.Sprintf("%s-f%d", v.id, f.Index)); in != nil && kit.AsInput(in).Checked() != f.Checked {
			kit.AsInput(in).SetChecked(f.Checked)
		}
	}
}

// showRanges draws the declarations: a range [lo, hi] for each ticked
// feature and, for a regression loss, the target; the positive label for a
// classifier; a text feature's categories; what finding the blank ones
// costs; the private panel; the one-line form. A built-in shows its declared
// ranges (read-only); a CSV's inputs start empty (or with what was typed
// before, or declared for a file with the same column names on this
// device): nothing here is computed from the data.
func (v *estimateView) showRanges() {
	s := v.st
	b := s.Table.Builtin
	target := s.Target()
	l := s.Choice.Loss
	feats := s.Features()
	var shape []string
	shape = append(shape, fmt.Sprint(b != nil, l, target, feats))
	for _, c := range feats {
		shape = append(shape, c+":"+s.PrivateNote(c)+":"+s.CatNote(c))
	}
	if t := target; l.Supervised() && !l.Classification() && t != "" {
		shape = append(shape, "t:"+s.PrivateNote(t))
	}
	if p := s.Table.Profile; p != nil && b == nil {
		shape = append(shape, p.HeaderHash, fmt.Sprint(len(p.Columns)))
	}
	names, _ := s.Found()
	shape = append(shape, fmt.Sprint(names))
	if b := s.Table.Builtin; (b == nil && s.Table.Profile == nil) || (b != nil && len(b.Columns) == 0) {
		shape = []string{"none"}
	}
	key := strings.Join(shape, "\n")
	if key != v.drawn.ranges {
		v.drawn.ranges = key
		v.buildRanges()
	}
	v.syncRanges()
}

// buildRanges rebuilds the ranges box for the state, restoring the focus
// (and the caret) of the input being typed in.
func (v *estimateView) buildRanges() {
	s, e := v.st, &v.el
	active := js.Global().Get("document").Get("activeElement")
	activeID, activeVal, selStart := "", js.Undefined(), js.Undefined()
	if active.Truthy() && e.rangesBox.Underlying().Call("contains", active).Bool() {
		activeID, activeVal, selStart = active.Get("id").String(), active.Get("value"), active.Get("selectionStart")
	}
	b := s.Table.Builtin
	target := s.Target()
	l := s.Choice.Loss
	box := e.rangesBox
	box.SetInnerHTML("")
	if b != nil && len(b.Columns) == 0 {
		return // a built-in still loading
	}
	box.AppendChild(kit.Text("legend", "Declared public ranges"))
	if b != nil {
		box.AppendChild(kit.Text("p", "Declared once for this dataset by dpsample, not computed from the file: "+
			"each feature is scaled from its range to [−1, 1], values outside are clamped.", "class", "help"))
	} else if s.Table.Profile != nil {
		box.AppendChild(kit.Text("p", "Declare each range from what you knew before looking at this file — an instrument's limits, "+
			"a questionnaire's scale, a physical bound. The inputs start empty on purpose: a range computed from the data (its minimum "+
			"and maximum) is set by the most extreme rows and would reveal them, so it cannot be treated as public. Each feature is "+
			"scaled from its range to [−1, 1]; a value outside is clamped, and how many were is shown to you only.", "class", "help", "id", v.id+"-ranges-note"))
	} else {
		return
	}
	row := func(label, key, idx string, r *dataset.Range) {
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
			lo.SetAttribute("value", words.G6(r.Lo))
			hi.SetAttribute("value", words.G6(r.Hi))
			lo.SetAttribute("readonly", "")
			hi.SetAttribute("readonly", "")
		}
		lab := kit.Text("label", label, "for", v.id+"-lo-"+idx)
		kit.SetStyle(lab, "display", "block")
		if note := s.PrivateNote(key); note != "" && r == nil {
			lab.AppendChild(kit.Text("span", " — "+note, "class", "found-private", "data-private", key))
		}
		kit.AppendAll(wrap, lab, lo, kit.TextNode(" to "), hi)
		// A feature with empty cells: they take the range's middle; a 0/1
		// column saying which were empty is the person's choice (issue 51).
		if ci, ok := s.ProfileColumn(key); r == nil && ok && ci.Missing > 0 && key != target {
			in := kit.El("input", "type", "checkbox", "id", v.id+"-ind-"+idx, "data-indicator", key)
			ind := kit.El("label", "for", v.id+"-ind-"+idx, "class", "check help")
			kit.AppendAll(ind, in, kit.TextNode(fmt.Sprintf(" add a 0/1 column “%s%s” (%s of %s empty, filled with the range's middle — counted on this device, shown only to you)",
				key, dataset.IndicatorSuffix, kit.Count(ci.Missing, "cell"), key)))
			kit.SetStyle(ind, "display", "block")
			wrap.AppendChild(ind)
		}
		box.AppendChild(wrap)
	}
	builtinRange := func(c string) *dataset.Range {
		if b == nil {
			return nil
		}
		if rr, ok := b.Ranges[c]; ok {
			return &rr
		}
		return nil
	}
	for i, c := range s.Features() {
		if s.IsText(c) {
			box.AppendChild(categories.Field(fmt.Sprintf("%s-cat-%d", v.id, i), c, s.Choice.Cats[c], s.CatNote(c)))
			continue
		}
		row(c, c, fmt.Sprint(i), builtinRange(c))
	}
	switch {
	case l.Supervised() && !l.Classification() && target != "":
		row("target "+target, target, "t", builtinRange(target))
	case l.Classification() && target != "":
		wrap := kit.El("div", "class", "field")
		in := kit.El("input", "id", v.id+"-positive", "type", "text", "autocomplete", "off", "data-positive", target,
			"aria-describedby", v.id+"-positive-check")
		if b != nil && target == b.Target {
			in.SetAttribute("value", b.Positive)
			in.SetAttribute("readonly", "")
		}
		e.positiveNote = kit.El("div", "id", v.id+"-positive-check", "class", "owner-note", "role", "status")
		kit.AppendAll(wrap, kit.Text("label", "positive label of "+target+" (coded +1; every other label −1)", "for", v.id+"-positive"), in)
		if p := s.Table.Profile; b == nil && p != nil {
			// The column's labels to pick from: read from the owner's file on
			// this device, shown only to them; the choice is theirs (a
			// declaration), never made by the page.
			if ci, ok := p.Column(target); ok && len(ci.Labels) > 0 {
				list := kit.El("datalist", "id", v.id+"-positive-labels")
				for _, lc := range ci.Labels {
					list.AppendChild(kit.El("option", "value", lc.Label))
				}
				in.SetAttribute("list", v.id+"-positive-labels")
				wrap.AppendChild(list)
				wrap.AppendChild(kit.Text("div", "Pick the label that means “yes” from this column's labels (listed from your file on this device, shown only to you) or type it.", "class", "help"))
			}
			// A word read as a missing cell ("None") may be one of the
			// target's labels: the person says so (a declaration; issue 51
			// item 3); else its rows weigh nothing.
			if ci, ok := p.Column(target); ok {
				for i, tk := range ci.MissingTokens {
					if strings.IndexFunc(tk.Label, unicode.IsLetter) < 0 {
						continue
					}
					id := fmt.Sprintf("%s-level-%d", v.id, i)
					in := kit.El("input", "type", "checkbox", "id", id, "data-level", target, "value", tk.Label)
					lab := kit.El("label", "for", id, "class", "check help")
					kit.AppendAll(lab, in, kit.TextNode(fmt.Sprintf(" “%s” is a label of %s, not an empty cell (%s on this device; unticked, those rows have no target and weigh nothing)",
						tk.Label, target, kit.Count(tk.Rows, "row"))))
					kit.SetStyle(lab, "display", "block")
					wrap.AppendChild(lab)
				}
			}
		}
		wrap.AppendChild(e.positiveNote)
		box.AppendChild(wrap)
	default:
		e.positiveNote = nil
	}
	if b == nil {
		if line := s.CostLine(); line != "" {
			wrap := kit.El("div", "class", "field find-private")
			find := kit.Text("button", "Find ranges privately", "type", "button", "id", v.id+"-find-ranges", "class", "secondary")
			if len(s.BlankCats()) > 0 {
				find.SetTextContent("Find ranges and categories privately")
			}
			kit.On(find, "click", false, func(kit.Event) { go v.press(form.FindPressed{}) })
			kit.AppendAll(wrap, kit.Text("p", line, "class", "help", "id", v.id+"-private-cost"), find)
			box.AppendChild(wrap)
		}
		if names, cols := s.Found(); len(cols) > 0 {
			dc := make([]domain.Column, len(cols))
			for i, c := range cols {
				dc[i] = c.Col
			}
			box.AppendChild(report.PrivatePanel(v.id, names, dc, cols[0].Epsilon, cols[0].Delta))
		}
		v.buildRangesLine()
	}
	if activeID != "" {
		if el := kit.ByID(activeID); el != nil {
			// The rebuilt input takes what was being typed in it (syncRanges
			// leaves the focused input alone): a range's first keystroke
			// rebuilds the box when its note changes ("found privately" →
			// "then edited by you"), and was lost.
			if activeVal.Type() == js.TypeString && el.Underlying().Get("type").String() != "checkbox" {
				el.Underlying().Set("value", activeVal)
			}
			el.Underlying().Call("focus")
			if selStart.Type() == js.TypeNumber {
				el.Underlying().Call("setSelectionRange", selStart, selStart)
			}
		}
	}
}

// syncRanges gives the ranges box's inputs the state's values (not the one
// being typed in), and its notes their words.
func (v *estimateView) syncRanges() {
	s, e := v.st, &v.el
	for _, in := range kit.Qsa(e.rangesBox, "input") {
		x := kit.AsInput(in)
		switch col := in.GetAttribute("data-indicator"); {
		case col != "":
			x.SetChecked(s.Choice.Indicators[col])
			continue
		case in.GetAttribute("data-level") != "":
			x.SetChecked(slices.Contains(s.Choice.Levels[in.GetAttribute("data-level")], x.Value()))
			continue
		}
		if x.HasAttribute("readonly") || focused(x) || in.GetAttribute("data-line") != "" {
			continue
		}
		val := ""
		switch {
		case in.GetAttribute("data-positive") != "":
			val = s.Choice.Positive[in.GetAttribute("data-positive")]
		case in.GetAttribute("data-cat") != "":
			val = s.Choice.Cats[in.GetAttribute("data-cat")]
		case in.GetAttribute("data-col") != "":
			d, _ := s.Range(in.GetAttribute("data-col"))
			val = d.Lo
			if in.GetAttribute("data-end") == "hi" {
				val = d.Hi
			}
		default:
			continue
		}
		if x.Value() != val {
			x.SetValue(val)
		}
	}
	if line := kit.ByID(v.id + "-private-cost"); line != nil {
		if c := s.CostLine(); c != "" {
			line.SetTextContent(c)
		} else {
			line.SetTextContent("Nothing is left to find: every range and category is declared.")
		}
	}
	if e.lineIn != nil && !focused(e.lineIn) {
		e.lineIn.SetValue(v.declaredLine())
	}
	v.checkPositive()
}

// declaredLine is the shown columns' valid declarations as one line.
func (v *estimateView) declaredLine() string {
	cols := v.st.ShownColumns()
	ranges := map[string]dataset.Range{}
	for _, c := range cols {
		if r, err := v.st.DeclaredRange(c); err == nil {
			ranges[c] = r
		}
	}
	return dataset.FormatRanges(cols, ranges)
}

// buildRangesLine adds the one-line form of the declarations to the ranges
// box, with the note on what this browser remembers.
func (v *estimateView) buildRangesLine() {
	e := &v.el
	wrap := kit.El("div", "class", "field ranges-line")
	e.lineIn = kit.AsInput(kit.El("input", "id", v.id+"-ranges-line", "type", "text", "autocomplete", "off", "spellcheck", "false",
		"data-line", "1", "placeholder", "name: lo..hi, name2: lo..hi", "aria-describedby", v.id+"-ranges-line-msg"))
	apply := kit.Text("button", "Apply", "type", "button", "id", v.id+"-ranges-apply", "class", "secondary")
	e.lineMsg = kit.El("div", "id", v.id+"-ranges-line-msg", "class", "help", "role", "status")
	row := kit.El("div", "class", "line-row")
	kit.AppendAll(row, e.lineIn, apply)
	kit.AppendAll(wrap, kit.Text("label", "All ranges on one line: copy it to keep them with your file, or paste such a line and apply it", "for", v.id+"-ranges-line"),
		row, e.lineMsg)
	if p := v.st.Table.Profile; p != nil && p.HeaderHash != "" {
		kept := kit.El("small", "class", "help", "id", v.id+"-remembered")
		kept.AppendChild(kit.TextNode("What you declare here is kept in this browser for files with these column names " +
			"(stored on this device only, never sent), so it is filled in next time. "))
		forget := kit.Text("button", "Forget them", "type", "button", "id", v.id+"-forget", "class", "secondary small")
		kit.On(forget, "click", false, func(kit.Event) {
			kit.MarkStale(e.out, v.id, "the declarations were cleared")
			v.forget()
		})
		kept.AppendChild(forget)
		kit.AppendAll(wrap, kept)
	}
	e.rangesBox.AppendChild(wrap)
	applyLine := func() {
		kit.MarkStale(e.out, v.id, "a declared range changed")
		v.dispatch(form.LineApplied{Text: e.lineIn.Value()})
	}
	kit.On(apply, "click", false, func(kit.Event) { applyLine() })
	kit.On(e.lineIn, "keydown", false, func(ev kit.Event) {
		if ev.Underlying().Get("key").String() == "Enter" {
			ev.PreventDefault()
			applyLine()
		}
	})
}

// checkPositive says, under the positive label, how it codes the target
// column of the user's file (report.PositiveNote), for them alone.
func (v *estimateView) checkPositive() {
	s := v.st
	if v.el.positiveNote == nil {
		return
	}
	target := s.Target()
	label := strings.TrimSpace(s.Choice.Positive[target])
	var pc *dataset.Positive
	if p := s.Table.Profile; s.Table.Builtin == nil && p != nil && label != "" {
		x := p.Positive(target, label)
		pc = &x
	}
	report.PositiveNote(v.el.positiveNote, v.id, target, label, pc, func(pick string) {
		kit.MarkStale(v.el.out, v.id, "a declared label changed")
		v.dispatch(form.PositiveTyped{Col: target, Label: pick})
	})
}

// slot is where a message about a field is shown.
type slot int

const (
	slotForm   slot = iota // the line above Run
	slotCSV                // under the CSV box
	slotRanges             // under the declarations
	slotField              // the number field's own
	slotWork               // the work line beside Run
	slotLine               // under the one-line ranges
)

// slotOf is the slot of a message about field (form.Action.Field): a
// question (answered by pressing Run again) beside Run, a refusal by its
// field.
func slotOf(field string, question bool) slot {
	switch {
	case field == "run" && question:
		return slotWork // a long run: press Run again
	case question || field == "run":
		return slotForm
	case field == "csv" || field == "header":
		return slotCSV
	case field == "positive" || field == "targetRange" || strings.HasPrefix(field, "ranges.") || field == "ranges" ||
		strings.HasPrefix(field, "categories"):
		return slotRanges
	case field == "epsilon" || field == "delta" || field == "radius" || field == "rank" || field == "samples":
		return slotField
	case field == "rangesLine":
		return slotLine
	}
	return slotForm
}

// focusOf is the element a message about field focuses, and where the
// status line next to Run says it is.
func (v *estimateView) focusOf(field string) (kit.Elem, string) {
	e := &v.el
	byID := func(id string) kit.Elem { return kit.ByID(v.id + "-" + id) }
	switch slotOf(field, false) {
	case slotCSV:
		return e.csvText.BasicHTMLElement, "the CSV box has a problem (the message is under it; the box has the focus)"
	case slotField:
		f := map[string]kit.NumberField{"epsilon": e.eps, "delta": e.delta, "radius": e.c, "rank": e.k, "samples": e.m}[field]
		return f.Input.BasicHTMLElement, "a field is marked (it has the focus)"
	case slotWork:
		return v.run.Run.BasicHTMLElement, "the message just above Run"
	case slotRanges:
		where := "a declared range or label (the message is under the ranges; the field has the focus)"
		switch col := strings.TrimPrefix(field, "ranges."); {
		case field == "positive":
			return byID("positive"), where
		case strings.HasPrefix(field, "categories."):
			return kit.Qs(e.rangesBox, fmt.Sprintf(`input[data-cat=%q]`, strings.TrimPrefix(field, "categories."))), where
		case field == "targetRange":
			col = v.st.Target()
			fallthrough
		default:
			for _, end := range []string{"lo", "hi"} {
				in := kit.Qs(e.rangesBox, fmt.Sprintf(`input[data-col=%q][data-end=%q]`, col, end))
				if in != nil && strings.TrimSpace(kit.AsInput(in).Value()) == "" {
					return in, where
				}
			}
			return kit.Qs(e.rangesBox, fmt.Sprintf(`input[data-col=%q]`, col)), where
		}
	}
	switch field {
	case "budget":
		// A typo in the table budget's own fields ("budget.epsilon must be
		// a number") is about that field, not about what the budget can pay.
		for _, f := range []string{"epsilon", "delta"} {
			if m := v.st.Msg; m != nil && strings.HasPrefix(m.Text, "budget."+f+" ") {
				if in := byID("budget-" + f); in != nil {
					return in, "the table's budget has a field to fix (the message is just above Run; the field has the focus)"
				}
			}
		}
		return e.eps.Input.BasicHTMLElement, "the table's budget cannot pay for this run (the message is just above Run; ε has the focus)"
	case "target":
		return e.targetSel.Sel.BasicHTMLElement, "choose the column to predict (the list has the focus)"
	case "loss":
		return e.lossSel.Sel.BasicHTMLElement, "the task is to be confirmed (the message is just above Run; the task has the focus)"
	case "dataset":
		return e.data.Sel.BasicHTMLElement, "the message just above Run"
	case "features":
		return kit.Qs(e.featBox, "input:not([disabled])"), "the message just above Run (the features have the focus)"
	}
	return v.run.Run.BasicHTMLElement, "the message just above Run"
}
