//go:build js && wasm

package ui

import (
	"syscall/js"

	"honnef.co/go/js/dom/v2"
)

// The page's elements are dom/v2's concrete types, their methods called
// directly, never through dom/v2's Element, Node or Event interfaces.
//
// Why: dom/v2 returns elements as the Element interface, built by a switch
// over ≈ 75 concrete types (wrapElement), and an event as the Event
// interface over ≈ 45 types (wrapEvent). Once those types are stored in an
// interface, the linker keeps, for each of them, every method whose name is
// called through any interface in the program: 20 methods called through
// dom.Element and dom.Event (SetAttribute, AppendChild, Class, Focus, …) were
// ≈ 3,200 functions and 1.07 MB of the module's 5.3 MB of code
// (wasm/tools/wasmsize), compiled by the browser at every cold load. The
// helpers below wrap a js.Value in the concrete type without that switch.

// elem is an element of the page.
type elem = *dom.BasicHTMLElement

// wrapEl wraps the DOM element v (nil for null or undefined).
func wrapEl(v js.Value) elem {
	if v.IsNull() || v.IsUndefined() {
		return nil
	}
	return &dom.BasicHTMLElement{BasicElement: &dom.BasicElement{BasicNode: &dom.BasicNode{Value: v}}}
}

// newEl creates a <tag> element.
func newEl(tag string) elem { return wrapEl(jsDoc().Call("createElement", tag)) }

// textNode creates a text node holding s.
func textNode(s string) *dom.Text {
	return &dom.Text{BasicNode: &dom.BasicNode{Value: jsDoc().Call("createTextNode", s)}}
}

// jsDoc is the document.
func jsDoc() js.Value { return js.Global().Get("document") }

// byID is the element with the id, or nil.
func byID(id string) elem { return wrapEl(jsDoc().Call("getElementById", id)) }

// qs is the first element under e (the document when e is nil) that matches
// sel, or nil.
func qs(e elem, sel string) elem { return wrapEl(scope(e).Call("querySelector", sel)) }

// qsa is every element under e (the document when e is nil) that matches
// sel, in document order.
func qsa(e elem, sel string) []elem {
	l := scope(e).Call("querySelectorAll", sel)
	out := make([]elem, l.Length())
	for i := range out {
		out[i] = wrapEl(l.Index(i))
	}
	return out
}

func scope(e elem) js.Value {
	if e == nil {
		return jsDoc()
	}
	return e.Underlying()
}

// parentEl is e's parent element, or nil.
func parentEl(e elem) elem { return wrapEl(e.Underlying().Get("parentElement")) }

// firstChild is e's first child node (nil when it has none).
func firstChild(e elem) dom.Node {
	if c := e.Underlying().Get("firstChild"); !c.IsNull() && !c.IsUndefined() {
		return &dom.BasicNode{Value: c}
	}
	return nil
}

// asInput, asSelect, asButton, asTextArea and asProgress view e as the
// element it is (the caller knows its tag).
func asInput(e elem) *dom.HTMLInputElement {
	return &dom.HTMLInputElement{BasicHTMLElement: e}
}
func asSelect(e elem) *dom.HTMLSelectElement {
	return &dom.HTMLSelectElement{BasicHTMLElement: e}
}
func asButton(e elem) *dom.HTMLButtonElement {
	return &dom.HTMLButtonElement{BasicHTMLElement: e}
}
func asTextArea(e elem) *dom.HTMLTextAreaElement {
	return &dom.HTMLTextAreaElement{BasicHTMLElement: e}
}
func asProgress(e elem) *dom.HTMLProgressElement {
	return &dom.HTMLProgressElement{BasicHTMLElement: e}
}

// event is a DOM event.
type event = *dom.BasicEvent

// on adds the listener f for events typ on t (capture when capture is
// true), wrapping each event in dom/v2's BasicEvent.
func on(t interface{ Underlying() js.Value }, typ string, capture bool, f func(event)) {
	t.Underlying().Call("addEventListener", typ, js.FuncOf(func(_ js.Value, a []js.Value) any {
		f(&dom.BasicEvent{Value: a[0]})
		return nil
	}), capture)
}

// target is the element an event was dispatched to.
func target(ev event) elem { return wrapEl(ev.Underlying().Get("target")) }

// jsWindow is the window, as a target of on.
type jsWindow struct{}

func (jsWindow) Underlying() js.Value { return js.Global() }
