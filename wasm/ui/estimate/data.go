//go:build js && wasm

package estimate

import (
	"fmt"
	"syscall/js"

	"github.com/dpsample/dpsample/core/checks"
	"github.com/dpsample/dpsample/wasm/internal/jsio"
	"github.com/dpsample/dpsample/wasm/ui/estimate/internal/pieces"
	"github.com/dpsample/dpsample/wasm/ui/internal/kit"
)

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
	kit.MarkStale(v.out, v.id, "the CSV text changed")
	v.cancelColumnsTimer()
	n := v.csvText.Underlying().Get("textLength").Int()
	if n > maxPasteBytes {
		v.stopProfile()
		v.loadErr = tooLarge(n).Error() // the text's own error: it stays until the text changes
		v.csvErr.SetTextContent(v.loadErr)
		return
	}
	if n >= kit.AsyncProfileBytes { // landed in the box (not through the paste handler): taken out of it
		go v.hold(v.csvText.Underlying().Get("value"), "the text in the box")
		return
	}
	if n > 0 {
		v.unhold() // the box's text is the table now
	}
	v.colFunc = js.FuncOf(func(js.Value, []js.Value) any {
		v.cancelColumnsTimer()
		v.columnsChanged()
		return nil
	})
	v.colTimer = js.Global().Call("setTimeout", v.colFunc, 250)
}

// cancelColumnsTimer drops a pending column detection (and its callback).
func (v *estimateView) cancelColumnsTimer() {
	if v.colTimer.Truthy() {
		js.Global().Call("clearTimeout", v.colTimer)
		v.colTimer = js.Undefined()
		v.colFunc.Release()
	}
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
		v.csvErr.SetTextContent(tooLarge(n).Error())
		return
	}
	go func() {
		t, err := jsio.Await(f.Call("text")) // read by the browser off the main thread
		if err != nil {
			v.csvErr.SetTextContent("Could not read the file: " + err.Error())
			return
		}
		if pieces.StrLen(t) >= kit.AsyncProfileBytes {
			v.hold(t, "“"+f.Get("name").String()+"”")
			return
		}
		v.unhold()
		v.csvText.SetValue(t.String())
		kit.MarkStale(v.out, v.id, "a new file was loaded")
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
	v.holdGen++
	gen := v.holdGen
	v.csvText.SetValue("")
	v.stopProfile()
	size := fmt.Sprintf("%.1f MB", float64(pieces.StrLen(t))/(1<<20))
	v.csvProg.SetTextContent("Reading your file (" + size + ")…")
	s := pieces.GoString(t)
	if gen != v.holdGen {
		return // replaced meanwhile (another paste, or typing in the box)
	}
	v.held, v.heldText = t, s
	v.heldLine.SetTextContent("")
	kit.AppendAll(v.heldLine, kit.Text("span", "Your table, "+what+" ("+size+"), is loaded; the box does not show a table this large. "))
	rm := kit.Text("button", "Remove it", "type", "button", "class", "secondary", "id", v.id+"-csv-remove")
	kit.On(rm, "click", false, func(kit.Event) {
		v.unhold()
		kit.MarkStale(v.out, v.id, "the table was removed")
		v.columnsChanged()
		v.csvText.Focus()
	})
	v.heldLine.AppendChild(rm)
	kit.Show(v.heldLine, true)
	v.csvText.SetAttribute("placeholder", "a table of "+size+" is loaded (above); paste or type here to replace it")
	v.loadErr = ""
	kit.MarkStale(v.out, v.id, "a new table was loaded")
	v.columnsChanged()
}

// unhold drops a held table (the box's text, or none, is the table).
func (v *estimateView) unhold() {
	v.holdGen++ // a table still being copied is dropped too
	if !v.holding() {
		return
	}
	v.held, v.heldText = js.Undefined(), ""
	v.heldLine.SetTextContent("")
	kit.Show(v.heldLine, false)
	v.csvText.SetAttribute("placeholder", csvPlaceholder)
}

// holding reports whether a large table is held. Not v.held.Truthy(): the
// truthiness of a JS string is read by copying the whole string into Go
// (syscall/js), a task of 150–400 ms for 10 MB (issue 29 item 4).
func (v *estimateView) holding() bool { return v.held.Type() == js.TypeString }

// textJS is the CSV table as a JS string (the held one, or the box's),
// for the worker: never copied through Go.
func (v *estimateView) textJS() js.Value {
	if v.holding() {
		return v.held
	}
	return v.csvText.Underlying().Get("value")
}

func (v *estimateView) builtin() *builtin {
	for _, b := range builtins {
		if b.Key == v.data.Sel.Value() {
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
		if user {
			v.lossAuto = true // the task chosen for a built-in is not the file's
			v.taskAsked = false
		}
	} else {
		v.csvBox.SetAttribute("hidden", "")
		if user || v.lossSel.Sel.Value() == "" || kit.Attr(v.root, "loss", "") == "" {
			v.lossSel.Sel.SetValue(b.loss.String())
		}
	}
	v.columnsChanged()
}

// text is the current table: a built-in's or the CSV box's.
func (v *estimateView) text() (string, *builtin) {
	if b := v.builtin(); b != nil {
		return b.text, b
	}
	if v.holding() {
		return v.heldText, nil
	}
	return v.csvText.Value(), nil
}
