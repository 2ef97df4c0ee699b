//go:build js && wasm

package kit

import (
	"sync"

	"honnef.co/go/js/dom/v2"
)

// PendingLoads counts the views' initial fetches (the selected built-in datasets);
// dpsampleUIReady is set only when they are done, so that "the page has
// loaded" includes them and nothing is fetched afterwards.
var PendingLoads sync.WaitGroup

// El creates an element with attributes given as key, value pairs.
func El(tag string, kv ...string) Elem {
	e := newEl(tag)
	for i := 0; i+1 < len(kv); i += 2 {
		e.SetAttribute(kv[i], kv[i+1])
	}
	return e
}

// Text creates an element holding plain text.
func Text(tag, s string, kv ...string) Elem {
	e := El(tag, kv...)
	e.SetTextContent(s)
	return e
}

// AppendAll adds children to parent and returns parent.
func AppendAll(parent Elem, children ...dom.Node) Elem {
	for _, c := range children {
		parent.AppendChild(c)
	}
	return parent
}

// NumberField is a labelled <input type="number"> with an inline error slot.
type NumberField struct {
	Input *dom.HTMLInputElement
	err   Elem
	Wrap  Elem
}

func NewNumberField(id, label, value, step, help string) NumberField {
	wrap := El("div", "class", "field")
	lab := Text("label", label, "for", id)
	in := AsInput(El("input", "id", id, "type", "text", "inputmode", "decimal", "value", value, "autocomplete", "off",
		"aria-describedby", id+"-help "+id+"-err"))
	_ = step
	h := Text("small", help, "id", id+"-help", "class", "help")
	e := El("div", "id", id+"-err", "class", "error", "role", "alert")
	AppendAll(wrap, lab, in, h, e)
	return NumberField{Input: in, err: e, Wrap: wrap}
}

// Value parses the field; a parse error is shown inline and returned.
func (f NumberField) Value(name string) (float64, error) {
	return ParseNumber(name, f.Input.Value()) // strict: "1,5" is an error (widgets.go)
}

// SetNote shows (or with "" removes) a line under the field saying why the
// page changed its value.
func (f NumberField) SetNote(s string) {
	id := f.Input.Underlying().Get("id").String() + "-note"
	n := Qs(f.Wrap, "#"+id) // dom.go's helpers: not dom/v2's element switch (≈ 0.8 MB of module)
	switch {
	case s == "" && n != nil:
		n.Remove()
	case s == "":
	case n == nil:
		f.Wrap.Underlying().Call("insertBefore", Text("small", s, "id", id, "class", "help note").Underlying(), f.err.Underlying())
	default:
		n.SetTextContent(s)
	}
}

func (f NumberField) SetError(err error) {
	if err == nil {
		f.err.SetTextContent("")
		f.Input.RemoveAttribute("aria-invalid")
		return
	}
	f.err.SetTextContent(err.Error())
	f.Input.SetAttribute("aria-invalid", "true")
}
