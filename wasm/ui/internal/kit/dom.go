//go:build js && wasm

// Package kit holds the DOM helpers every view of the page shares: elements
// and events (dom.go), fields, runners and number formats (widgets.go, el.go)
// and calls to the Web Worker (remote.go). The views' packages import it and
// nothing of each other's.
package kit

import (
	"strings"
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

// Elem is an element of the page.
type Elem = *dom.BasicHTMLElement

// WrapEl wraps the DOM element v (nil for null or undefined).
func WrapEl(v js.Value) Elem {
	if v.IsNull() || v.IsUndefined() {
		return nil
	}
	return &dom.BasicHTMLElement{BasicElement: &dom.BasicElement{BasicNode: &dom.BasicNode{Value: v}}}
}

// newEl creates a <tag> element.
func newEl(tag string) Elem { return WrapEl(jsDoc().Call("createElement", tag)) }

// TextNode creates a text node holding s.
func TextNode(s string) *dom.Text {
	return &dom.Text{BasicNode: &dom.BasicNode{Value: jsDoc().Call("createTextNode", s)}}
}

// jsDoc is the document.
func jsDoc() js.Value { return js.Global().Get("document") }

// ByID is the element with the id, or nil.
func ByID(id string) Elem { return WrapEl(jsDoc().Call("getElementById", id)) }

// Qs is the first element under e (the document when e is nil) that matches
// sel, or nil.
func Qs(e Elem, sel string) Elem { return WrapEl(scope(e).Call("querySelector", sel)) }

// Qsa is every element under e (the document when e is nil) that matches
// sel, in document order.
func Qsa(e Elem, sel string) []Elem {
	l := scope(e).Call("querySelectorAll", sel)
	out := make([]Elem, l.Length())
	for i := range out {
		out[i] = WrapEl(l.Index(i))
	}
	return out
}

func scope(e Elem) js.Value {
	if e == nil {
		return jsDoc()
	}
	return e.Underlying()
}

// ParentEl is e's parent element, or nil.
func ParentEl(e Elem) Elem { return WrapEl(e.Underlying().Get("parentElement")) }

// firstChild is e's first child node (nil when it has none).
func firstChild(e Elem) dom.Node {
	if c := e.Underlying().Get("firstChild"); !c.IsNull() && !c.IsUndefined() {
		return &dom.BasicNode{Value: c}
	}
	return nil
}

// AsInput, asSelect, asButton, asTextArea and asProgress view e as the
// element it is (the caller knows its tag).
func AsInput(e Elem) *dom.HTMLInputElement {
	return &dom.HTMLInputElement{BasicHTMLElement: e}
}
func AsSelect(e Elem) *dom.HTMLSelectElement {
	return &dom.HTMLSelectElement{BasicHTMLElement: e}
}
func AsButton(e Elem) *dom.HTMLButtonElement {
	return &dom.HTMLButtonElement{BasicHTMLElement: e}
}
func AsTextArea(e Elem) *dom.HTMLTextAreaElement {
	return &dom.HTMLTextAreaElement{BasicHTMLElement: e}
}
func asProgress(e Elem) *dom.HTMLProgressElement {
	return &dom.HTMLProgressElement{BasicHTMLElement: e}
}

// Event is a DOM event.
type Event = *dom.BasicEvent

// On adds the listener f for events typ on t (capture when capture is
// true), wrapping each event in dom/v2's BasicEvent.
func On(t interface{ Underlying() js.Value }, typ string, capture bool, f func(Event)) {
	t.Underlying().Call("addEventListener", typ, js.FuncOf(func(_ js.Value, a []js.Value) any {
		f(&dom.BasicEvent{Value: a[0]})
		return nil
	}), capture)
}

// Target is the element an event was dispatched to.
func Target(ev Event) Elem { return WrapEl(ev.Underlying().Get("target")) }

// jsWindow is the window, as a target of on.
type jsWindow struct{}

func (jsWindow) Underlying() js.Value { return js.Global() }

// Style is e's CSSStyleDeclaration, as a js.Value (setProperty).
func Style(e Elem) js.Value { return e.Underlying().Get("style") }

// Show toggles e's hidden attribute and, because the site's CSS gives
// .field a display that would override [hidden], its display too.
func Show(e Elem, on bool) {
	st := Style(e)
	if on {
		e.RemoveAttribute("hidden")
		st.Call("removeProperty", "display")
	} else {
		e.SetAttribute("hidden", "")
		st.Call("setProperty", "display", "none")
	}
}

// Esc escapes text for SVG markup.
func Esc(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;").Replace(s)
}
