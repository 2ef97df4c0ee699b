//go:build js && wasm

// Package ui is the page's UI, built from Go with honnef.co/go/js/dom/v2:
// forms, runs in the Web Worker (through globalThis.dpsampleRemote, see
// remote.go) and plots from core/plot. It holds no mathematics and never
// imports the JS API (wasm/jsapi); both share wasm/internal/jsio.
package ui

import (
	"sync"
	"syscall/js"

	"honnef.co/go/js/dom/v2"
)

// The UI is built from Go with honnef.co/go/js/dom/v2. index.html holds one
// empty <section data-view="…"> per view; Start fills each that is present,
// so the same binary serves the full page and pages embedding single views.

var doc = func() dom.Document { return dom.GetWindow().Document() }

// view is one section of the page.
type view struct {
	name  string
	build func(root dom.Element)
}

var views = []view{
	{"privacy", buildPrivacyView},
	{"estimate", buildEstimateView},
	{"dimfree", buildDimFreeView},
	{"trace", buildTraceView},
	{"bounds", buildBoundsView},
}

// pendingLoads counts the views' initial fetches (the built-in datasets);
// dpsampleUIReady is set only when they are done, so that "the page has
// loaded" includes them and nothing is fetched afterwards.
var pendingLoads sync.WaitGroup

// Start builds every view present in the document and announces when their
// initial loads are done (globalThis.dpsampleUIReady, "dpsample:ui-ready").
func Start() {
	buildViews()
	// Custom elements (site/elements.js) added after start-up call this.
	js.Global().Set("dpsampleBuildViews", js.FuncOf(func(js.Value, []js.Value) any { buildViews(); return nil }))
	go func() {
		pendingLoads.Wait()
		js.Global().Set("dpsampleUIReady", true)
		if ev := js.Global().Get("CustomEvent"); ev.Truthy() {
			js.Global().Call("dispatchEvent", ev.New("dpsample:ui-ready"))
		}
	}()
}

// buildViews fills every [data-view] element not yet built.
func buildViews() {
	for _, v := range views {
		for _, root := range doc().QuerySelectorAll(`[data-view="` + v.name + `"]`) {
			if root.GetAttribute("data-built") == "1" {
				continue
			}
			root.SetAttribute("data-built", "1")
			v.build(root)
		}
	}
}

// el creates an element with attributes given as key, value pairs.
func el(tag string, kv ...string) dom.Element {
	e := doc().CreateElement(tag)
	for i := 0; i+1 < len(kv); i += 2 {
		e.SetAttribute(kv[i], kv[i+1])
	}
	return e
}

// text creates an element holding plain text.
func text(tag, s string, kv ...string) dom.Element {
	e := el(tag, kv...)
	e.SetTextContent(s)
	return e
}

// append adds children to parent and returns parent.
func appendAll(parent dom.Element, children ...dom.Node) dom.Element {
	for _, c := range children {
		parent.AppendChild(c)
	}
	return parent
}

// numberField is a labelled <input type="number"> with an inline error slot.
type numberField struct {
	input *dom.HTMLInputElement
	err   dom.Element
	wrap  dom.Element
}

func newNumberField(id, label, value, step, help string) numberField {
	wrap := el("div", "class", "field")
	lab := text("label", label, "for", id)
	in := el("input", "id", id, "type", "text", "inputmode", "decimal", "value", value, "autocomplete", "off",
		"aria-describedby", id+"-help "+id+"-err").(*dom.HTMLInputElement)
	_ = step
	h := text("small", help, "id", id+"-help", "class", "help")
	e := el("div", "id", id+"-err", "class", "error", "role", "alert")
	appendAll(wrap, lab, in, h, e)
	return numberField{input: in, err: e, wrap: wrap}
}

// value parses the field; a parse error is shown inline and returned.
func (f numberField) value(name string) (float64, error) {
	return parseNumber(name, f.input.Value()) // strict: "1,5" is an error (ui_widgets.go)
}

func (f numberField) setError(err error) {
	if err == nil {
		f.err.SetTextContent("")
		f.input.RemoveAttribute("aria-invalid")
		return
	}
	f.err.SetTextContent(err.Error())
	f.input.SetAttribute("aria-invalid", "true")
}
