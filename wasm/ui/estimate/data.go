//go:build js && wasm

package estimate

import (
	"fmt"
	"syscall/js"

	"github.com/dpsample/dpsample/core/checks"
	"github.com/dpsample/dpsample/wasm/internal/jsio"
	"github.com/dpsample/dpsample/wasm/ui/estimate/internal/form"
	"github.com/dpsample/dpsample/wasm/ui/estimate/internal/pieces"
	"github.com/dpsample/dpsample/wasm/ui/internal/kit"
)

// csvSource is the CSV's text as the page holds it: the box's, or a large
// table held out of the box (hold), with its profile under way and the
// column detection's debounce.
type csvSource struct {
	held     js.Value // a large table held out of the box, as a JS string
	heldText string   // the same, in Go
	holdGen  int      // counts holds and unholds (a copy under way is dropped when another starts)
	loadErr  string   // the text's own error (too large), kept in the CSV box until the text changes
	lastText string   // the text the columns were read from
	timer    js.Value // debounce of the column detection
	timerFn  js.Func  // its callback
	prof     profiling
}

func tooLarge(n int) error {
	return &checks.Error{Field: "the CSV text", Rule: fmt.Sprintf("at most %d MB (paste or drop a smaller file, e.g. a sample of the rows)", maxPasteBytes>>20),
		Got: fmt.Sprintf("%.1f MB", float64(n)/(1<<20))}
}

// wireText wires the CSV box: typing, pasting (a paste over the cap is
// refused before it lands; a large one is held out of the box), a chosen
// file and a dropped one.
func (v *estimateView) wireText(file kit.Elem) {
	e := &v.el
	kit.On(e.csvText, "input", false, func(kit.Event) { v.textEdited() })
	kit.On(e.csvText, "paste", false, func(ev kit.Event) {
		cd := ev.Underlying().Get("clipboardData")
		if !cd.Truthy() {
			return
		}
		t := cd.Call("getData", "text")
		switch n := pieces.StrLen(t); {
		case n > maxPasteBytes:
			ev.PreventDefault()
			v.stopProfile()
			v.csv.loadErr = tooLarge(n).Error() // the text's own error: it stays until the text changes
			v.dispatch(form.TextChanged{Loaded: false, Err: v.csv.loadErr})
		case n >= kit.AsyncProfileBytes:
			// Held by the page, never laid out in the box.
			ev.PreventDefault()
			v.cancelColumnsTimer()
			go v.hold(t, "pasted")
		}
	})
	kit.On(file, "change", false, func(kit.Event) {
		if files := file.Underlying().Get("files"); files.Length() > 0 {
			v.readFile(files.Index(0))
		}
	})
	kit.On(e.csvBox, "dragover", false, func(ev kit.Event) { ev.PreventDefault(); e.csvBox.Class().Add("dragging") })
	kit.On(e.csvBox, "dragleave", false, func(kit.Event) { e.csvBox.Class().Remove("dragging") })
	kit.On(e.csvBox, "drop", false, func(ev kit.Event) {
		ev.PreventDefault()
		e.csvBox.Class().Remove("dragging")
		if files := ev.Underlying().Get("dataTransfer").Get("files"); files.Length() > 0 {
			v.readFile(files.Index(0))
		}
	})
}

// textEdited debounces the column detection of a typed or pasted CSV: the
// columns are read 250 ms after the last edit, and never from text over the
// cap (whose length is read without copying the text into Go).
func (v *estimateView) textEdited() {
	kit.MarkStale(v.el.out, v.id, "the CSV text changed")
	v.cancelColumnsTimer()
	n := v.el.csvText.Underlying().Get("textLength").Int()
	if n > maxPasteBytes {
		v.stopProfile()
		v.csv.loadErr = tooLarge(n).Error()
		v.dispatch(form.TextChanged{Loaded: false, Err: v.csv.loadErr})
		return
	}
	if n >= kit.AsyncProfileBytes { // landed in the box (not through the paste handler): taken out of it
		go v.hold(v.el.csvText.Underlying().Get("value"), "the text in the box")
		return
	}
	if n > 0 {
		v.unhold() // the box's text is the table now
	}
	v.csv.timerFn = js.FuncOf(func(js.Value, []js.Value) any {
		v.cancelColumnsTimer()
		v.columnsChanged()
		return nil
	})
	v.csv.timer = js.Global().Call("setTimeout", v.csv.timerFn, 250)
}

// cancelColumnsTimer drops a pending column detection (and its callback).
func (v *estimateView) cancelColumnsTimer() {
	if v.csv.timer.Truthy() {
		js.Global().Call("clearTimeout", v.csv.timer)
		v.csv.timer = js.Undefined()
		v.csv.timerFn.Release()
	}
}

// flushText reads an edit still inside the debounce now (a press).
func (v *estimateView) flushText() {
	if txt, b := v.text(); b == nil && txt != v.csv.lastText {
		v.cancelColumnsTimer()
		v.columnsChanged()
	}
}

// columnsChanged reads the CSV's text into the form: the text (or its own
// error), then its profile (here for a short text; in the worker for a
// large one, which dispatches it when done).
func (v *estimateView) columnsChanged() {
	v.cancelColumnsTimer()
	txt, b := v.text()
	if b != nil {
		return
	}
	if len(txt) > maxPasteBytes {
		v.csv.loadErr, txt = tooLarge(len(txt)).Error(), ""
	}
	if txt != v.csv.lastText || v.csv.prof.mode != v.el.headerSel.Value() {
		v.csv.loadErr = ""
	}
	v.csv.lastText = txt
	v.dispatch(form.TextChanged{Loaded: txt != "", Err: v.csv.loadErr})
	v.ledger.TableChanged(txt)
	v.readProfile(txt)
}

// fetch starts the request for the built-in's CSV (from root's base
// attribute) and returns its promise.
func (b *builtin) fetch(root kit.Elem) js.Value {
	base := kit.Attr(root, "base", "site/data/")
	url := js.Global().Get("URL").New(base+b.File, js.Global().Get("document").Get("baseURI"))
	return js.Global().Call("fetch", url.Call("toString"))
}

// prefetch starts the fetch without waiting (from the start-up path, so that
// the request overlaps building the sections); load awaits it.
func (b *builtin) prefetch(root kit.Elem) {
	if b.text == "" && !b.pending.Truthy() {
		b.pending = b.fetch(root)
	}
}

// load fetches the built-in's CSV unless it is loaded (or awaits the fetch
// prefetch began), and returns whether it is loaded. It blocks: call it from
// a goroutine. A failed fetch is tried again by the next call (a run retries).
func (b *builtin) load(root kit.Elem) bool {
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
		v.csv.loadErr = tooLarge(n).Error()
		v.dispatch(form.TextChanged{Loaded: false, Err: v.csv.loadErr})
		return
	}
	go func() {
		t, err := jsio.Await(f.Call("text")) // read by the browser off the main thread
		if err != nil {
			v.csv.loadErr = "Could not read the file: " + err.Error()
			v.dispatch(form.TextChanged{Loaded: false, Err: v.csv.loadErr})
			return
		}
		if pieces.StrLen(t) >= kit.AsyncProfileBytes {
			v.hold(t, "“"+f.Get("name").String()+"”")
			return
		}
		v.unhold()
		v.el.csvText.SetValue(t.String())
		kit.MarkStale(v.el.out, v.id, "a new file was loaded")
		v.columnsChanged()
	}()
}

// A large table (kit.AsyncProfileBytes or more) is held by the page, not put in
// the box: Chromium takes seconds to lay out a textarea of 10 MB, and again
// at every change of the page (issue 29). The box stays empty, its
// placeholder and the held line saying what is loaded; typing or pasting in
// it replaces the table.

// hold keeps the JS string t (a large paste or file, named by what) as the
// table, empties the box, and reads the table's columns (in the worker).
// Call it from a goroutine: the text is copied into Go (for Parse at Run and
// the ledger's fingerprint) a piece at a time.
func (v *estimateView) hold(t js.Value, what string) {
	e := &v.el
	v.csv.holdGen++
	gen := v.csv.holdGen
	e.csvText.SetValue("")
	v.stopProfile()
	size := fmt.Sprintf("%.1f MB", float64(pieces.StrLen(t))/(1<<20))
	e.csvProg.SetTextContent("Reading your file (" + size + ")…")
	s := pieces.GoString(t)
	if gen != v.csv.holdGen {
		return // replaced meanwhile (another paste, or typing in the box)
	}
	v.csv.held, v.csv.heldText = t, s
	e.heldLine.SetTextContent("")
	kit.AppendAll(e.heldLine, kit.Text("span", "Your table, "+what+" ("+size+"), is loaded; the box does not show a table this large. "))
	rm := kit.Text("button", "Remove it", "type", "button", "class", "secondary", "id", v.id+"-csv-remove")
	kit.On(rm, "click", false, func(kit.Event) {
		v.unhold()
		kit.MarkStale(e.out, v.id, "the table was removed")
		v.columnsChanged()
		e.csvText.Focus()
	})
	e.heldLine.AppendChild(rm)
	kit.Show(e.heldLine, true)
	e.csvText.SetAttribute("placeholder", "a table of "+size+" is loaded (above); paste or type here to replace it")
	v.csv.loadErr = ""
	kit.MarkStale(e.out, v.id, "a new table was loaded")
	v.columnsChanged()
}

// unhold drops a held table (the box's text, or none, is the table).
func (v *estimateView) unhold() {
	v.csv.holdGen++ // a table still being copied is dropped too
	if !v.holding() {
		return
	}
	v.csv.held, v.csv.heldText = js.Undefined(), ""
	v.el.heldLine.SetTextContent("")
	kit.Show(v.el.heldLine, false)
	v.el.csvText.SetAttribute("placeholder", csvPlaceholder)
}

// holding reports whether a large table is held. Not held.Truthy(): the
// truthiness of a JS string is read by copying the whole string into Go
// (syscall/js), a task of 150–400 ms for 10 MB (issue 29 item 4).
func (v *estimateView) holding() bool { return v.csv.held.Type() == js.TypeString }

// textJS is the CSV table as a JS string (the held one, or the box's),
// for the worker: never copied through Go.
func (v *estimateView) textJS() js.Value {
	if v.holding() {
		return v.csv.held
	}
	return v.el.csvText.Underlying().Get("value")
}

func (v *estimateView) builtin() *builtin {
	for _, b := range builtins {
		if b.Key == v.el.data.Sel.Value() {
			return b
		}
	}
	return nil
}

// text is the current table: a built-in's or the CSV box's.
func (v *estimateView) text() (string, *builtin) {
	if b := v.builtin(); b != nil {
		return b.text, b
	}
	if v.holding() {
		return v.csv.heldText, nil
	}
	return v.el.csvText.Value(), nil
}
