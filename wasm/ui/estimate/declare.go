//go:build js && wasm

package estimate

import (
	"fmt"
	"strconv"
	"strings"
	"syscall/js"

	"github.com/dpsample/dpsample/core/dataset"
	"github.com/dpsample/dpsample/wasm/internal/jsio"
	"github.com/dpsample/dpsample/wasm/ui/estimate/internal/categories"
	"github.com/dpsample/dpsample/wasm/ui/estimate/internal/report"
	"github.com/dpsample/dpsample/wasm/ui/internal/kit"
)

// The owner's declarations for a CSV (issue 23): the ranges and positive
// labels they typed are remembered in this browser (localStorage) for files
// with the same column names — keyed by dataset.Profile.HeaderHash, a hash
// of the header line, never of the data — and can be copied or pasted as one
// line ("col: lo..hi, col2: lo..hi"). Nothing here is computed from the
// data's values, and nothing is sent anywhere.

const declaredKeyPrefix = "dpsample:declared:"

// localStore returns window.localStorage, or false where the browser refuses
// it (a sandboxed frame, storage disabled): then nothing is remembered.
func localStore() (s js.Value, ok bool) {
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	s = js.Global().Get("localStorage")
	return s, s.Truthy()
}

// declaredKey is the storage key for the current file's column names ("" for
// a file without a header: its names c1, c2, … say nothing about it).
func (v *estimateView) declaredKey() string {
	if v.profile == nil || v.profile.HeaderHash == "" {
		return ""
	}
	return declaredKeyPrefix + v.profile.HeaderHash
}

// recall fills the declarations from what this browser remembers for the
// current file's column names (what the user typed for such a file before).
func (v *estimateView) recall() {
	v.cats = categories.NewBook() // a new kind of file
	key := v.declaredKey()
	s, ok := localStore()
	if key == "" || !ok {
		return
	}
	defer func() { _ = recover() }() // a stored value that is not ours: ignore it
	raw := s.Call("getItem", key)
	if raw.IsNull() || raw.IsUndefined() {
		return
	}
	obj := js.Global().Get("JSON").Call("parse", raw)
	keys := func(o js.Value) []string {
		if !o.Truthy() {
			return nil
		}
		ks := js.Global().Get("Object").Call("keys", o)
		out := make([]string, ks.Length())
		for i := range out {
			out[i] = ks.Index(i).String()
		}
		return out
	}
	ranges, pos := obj.Get("ranges"), obj.Get("positive")
	for _, c := range keys(ranges) {
		if r := ranges.Get(c); r.Length() == 2 {
			v.declared[c] = [2]string{r.Index(0).String(), r.Index(1).String()}
		}
	}
	for _, c := range keys(pos) {
		v.positive[c] = pos.Get(c).String()
	}
	if c := obj.Get("categories"); c.Truthy() { // typed lists, and found ones (they count while the table's ledger holds their release)
		_ = jsio.Decode(c, v.cats)
	}
	if t := obj.Get("task"); t.Type() == js.TypeString {
		v.taskOK = t.String()
	}
	if p := obj.Get("private"); p.Truthy() {
		found := map[string]privateRange{}
		if jsio.Decode(p, &found) == nil {
			for c, r := range found {
				// Kept aside, and out of the inputs, until this table's
				// ledger is known to hold the release that found it
				// (reconcilePrivate; remembered before issue 41, without
				// a release, it never is).
				v.carried[c] = r
				lo, hi := report.NiceRange(r.Col.Lo, r.Col.Hi, r.Col.Step)
				if d := v.declared[c]; d[0] == lo && d[1] == hi {
					delete(v.declared, c)
				}
			}
		}
	}
	v.recalled = true
}

// remember stores the declarations for the current file's columns.
func (v *estimateView) remember() {
	key := v.declaredKey()
	s, ok := localStore()
	if key == "" || !ok {
		return
	}
	defer func() { _ = recover() }() // storage full or refused: nothing is remembered
	ranges, pos := js.Global().Get("Object").New(), js.Global().Get("Object").New()
	found := map[string]privateRange{} // ranges found privately (a private release: fine to keep), this table's or kept aside
	for _, c := range v.profile.Columns {
		if v.privateNote(c.Name) != "" {
			found[c.Name] = v.private[c.Name]
		} else if p, ok := v.carried[c.Name]; ok {
			found[c.Name] = p
		}
	}
	n := len(found)
	for _, c := range v.profile.Columns {
		if d, ok := v.declared[c.Name]; ok && (strings.TrimSpace(d[0]) != "" || strings.TrimSpace(d[1]) != "") {
			a := js.Global().Get("Array").New(2)
			a.SetIndex(0, d[0])
			a.SetIndex(1, d[1])
			ranges.Set(c.Name, a)
			n++
		}
		if p := strings.TrimSpace(v.positive[c.Name]); p != "" {
			pos.Set(c.Name, p)
			n++
		}
	}
	cats := len(v.cats.Typed) + len(v.cats.Found)
	if n+cats == 0 && v.taskOK == "" {
		s.Call("removeItem", key)
		return
	}
	obj := js.Global().Get("Object").New()
	if cats > 0 {
		obj.Set("categories", jsio.Encode(v.cats))
	}
	obj.Set("ranges", ranges)
	obj.Set("positive", pos)
	if len(found) > 0 {
		obj.Set("private", jsio.Encode(found))
	}
	if v.taskOK != "" {
		obj.Set("task", v.taskOK) // the task the owner confirmed (not computed from the data by itself)
	}
	s.Call("setItem", key, js.Global().Get("JSON").Call("stringify", obj))
}

// forget drops what this browser remembers for the current file's column
// names, and the declarations typed for them.
func (v *estimateView) forget() {
	if s, ok := localStore(); ok && v.declaredKey() != "" {
		func() {
			defer func() { _ = recover() }()
			s.Call("removeItem", v.declaredKey())
		}()
	}
	if v.profile != nil {
		for _, c := range v.profile.Columns {
			delete(v.declared, c.Name)
			delete(v.positive, c.Name)
			delete(v.private, c.Name)
			delete(v.carried, c.Name)
		}
	}
	v.recalled = false
	v.taskOK = ""
	v.cats = categories.NewBook()
	kit.MarkStale(v.out, v.id, "the declarations were cleared")
	v.rangesChanged()
}

// shownColumns are the columns whose ranges the form shows: the checked
// features and a regression's target.
func (v *estimateView) shownColumns() []string {
	var cols []string
	for _, c := range v.features() {
		if !v.isText(c) { // a text feature has categories, not a range
			cols = append(cols, c)
		}
	}
	if l := v.lossKind(); l.Supervised() && !l.Classification() {
		if t := v.targetSel.Sel.Value(); t != "" {
			cols = append(cols, t)
		}
	}
	return cols
}

// declaredLine is the shown columns' valid declarations as one line.
func (v *estimateView) declaredLine() string {
	cols := v.shownColumns()
	ranges := map[string]dataset.Range{}
	for _, c := range cols {
		if r, err := declaredRange(c, v.declared[c]); err == nil {
			ranges[c] = r
		}
	}
	return dataset.FormatRanges(cols, ranges)
}

// buildRangesLine adds the one-line form of the declarations to the ranges
// box, with the note on what this browser remembers.
func (v *estimateView) buildRangesLine() {
	wrap := kit.El("div", "class", "field ranges-line")
	v.lineIn = kit.AsInput(kit.El("input", "id", v.id+"-ranges-line", "type", "text", "autocomplete", "off", "spellcheck", "false",
		"data-line", "1", "placeholder", "name: lo..hi, name2: lo..hi", "aria-describedby", v.id+"-ranges-line-msg"))
	apply := kit.Text("button", "Apply", "type", "button", "id", v.id+"-ranges-apply", "class", "secondary")
	v.lineMsg = kit.El("div", "id", v.id+"-ranges-line-msg", "class", "help", "role", "status")
	row := kit.El("div", "class", "line-row")
	kit.AppendAll(row, v.lineIn, apply)
	kit.AppendAll(wrap, kit.Text("label", "All ranges on one line: copy it to keep them with your file, or paste such a line and apply it", "for", v.id+"-ranges-line"),
		row, v.lineMsg)
	if v.declaredKey() != "" {
		kept := kit.El("small", "class", "help", "id", v.id+"-remembered")
		kept.AppendChild(kit.TextNode("What you declare here is kept in this browser for files with these column names " +
			"(stored on this device only, never sent), so it is filled in next time. "))
		forget := kit.Text("button", "Forget them", "type", "button", "id", v.id+"-forget", "class", "secondary small")
		kit.On(forget, "click", false, func(kit.Event) { v.forget() })
		kept.AppendChild(forget)
		kit.AppendAll(wrap, kept)
	}
	v.rangesBox.AppendChild(wrap)
	v.syncRangesLine()
	kit.On(apply, "click", false, func(kit.Event) { v.applyRangesLine() })
	kit.On(v.lineIn, "keydown", false, func(e kit.Event) {
		if e.Underlying().Get("key").String() == "Enter" {
			e.PreventDefault()
			v.applyRangesLine()
		}
	})
}

// syncRangesLine shows the current declarations in the one-line field
// (unless the user is editing it).
func (v *estimateView) syncRangesLine() {
	if v.lineIn == nil || js.Global().Get("document").Get("activeElement").Equal(v.lineIn.Underlying()) {
		return
	}
	v.lineIn.SetValue(v.declaredLine())
}

// applyRangesLine reads the one-line field (dataset.ParseRanges) into the
// declarations of this file's columns.
func (v *estimateView) applyRangesLine() {
	names, ranges, err := dataset.ParseRanges(v.lineIn.Value())
	if err != nil {
		v.lineMsg.SetTextContent(err.Error())
		v.lineMsg.Class().Add("error")
		return
	}
	var cols []string
	if v.profile != nil {
		cols = v.profileNames()
	}
	var used, unknown []string
	for _, n := range names {
		if !contains(cols, n) {
			unknown = append(unknown, strconv.Quote(n))
			continue
		}
		r := ranges[n]
		v.declared[n] = [2]string{strconv.FormatFloat(r.Lo, 'g', -1, 64), strconv.FormatFloat(r.Hi, 'g', -1, 64)}
		used = append(used, n)
	}
	kit.MarkStale(v.out, v.id, "a declared range changed")
	v.formErr.SetTextContent("")
	v.remember()
	v.rangesChanged() // redraws the inputs (and this field)
	msg := fmt.Sprintf("Applied %s.", kit.Count(len(used), "range"))
	if len(unknown) > 0 {
		msg += " Not columns of this file (ignored): " + strings.Join(unknown, ", ") + "."
	}
	v.lineMsg.SetTextContent(msg)
}

// checkPositive says, under the positive label, how it codes the target
// column of the user's file (report.PositiveNote), for them alone; it is
// recomputed whenever the label or the target changes.
func (v *estimateView) checkPositive() {
	if v.positiveNote == nil {
		return
	}
	_, b := v.text()
	target := v.targetSel.Sel.Value()
	label := strings.TrimSpace(v.positive[target])
	var pc *dataset.Positive
	if b == nil && v.profile != nil && label != "" {
		p := v.profile.Positive(target, label)
		pc = &p
	}
	report.PositiveNote(v.positiveNote, v.id, target, label, pc, func(pick string) {
		v.positive[target] = pick
		if in := kit.ByID(v.id + "-positive"); in != nil {
			kit.AsInput(in).SetValue(pick)
		}
		kit.MarkStale(v.out, v.id, "a declared label changed")
		v.remember()
		v.checkPositive()
	})
}
