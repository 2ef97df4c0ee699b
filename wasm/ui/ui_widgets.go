//go:build js && wasm

package ui

import (
	"fmt"
	"math"
	"strconv"
	"sync"
	"syscall/js"

	"honnef.co/go/js/dom/v2"

	"github.com/dpsample/dpsample/core/plot"
	"github.com/dpsample/dpsample/wasm/internal/jsio"
)

// Widgets shared by the estimate, dimension-free and bounds views.

// viewIDs gives each instance of a view a distinct id prefix, so that a page
// (or a course page with custom elements) may hold a view more than once.
var viewIDs = map[string]int{}

func idPrefix(root dom.Element, base string) string {
	if p := root.GetAttribute("data-prefix"); p != "" {
		return p
	}
	viewIDs[base]++
	if n := viewIDs[base]; n > 1 {
		return base + strconv.Itoa(n)
	}
	return base
}

// attr returns root's data-<name> attribute, or def.
func attr(root dom.Element, name, def string) string {
	if v := root.GetAttribute("data-" + name); v != "" {
		return v
	}
	return def
}

// selectField is a labelled <select>.
type selectField struct {
	sel  *dom.HTMLSelectElement
	wrap dom.Element
}

func newSelectField(id, label, help string, options [][2]string, value string) selectField {
	wrap := el("div", "class", "field")
	sel := el("select", "id", id, "aria-describedby", id+"-help").(*dom.HTMLSelectElement)
	setOptions(sel, options, value)
	appendAll(wrap, text("label", label, "for", id), sel, text("small", help, "id", id+"-help", "class", "help"))
	return selectField{sel: sel, wrap: wrap}
}

// setOptions replaces the options of sel; options are (value, label) pairs.
func setOptions(sel *dom.HTMLSelectElement, options [][2]string, value string) {
	sel.SetInnerHTML("")
	for _, o := range options {
		opt := text("option", o[1], "value", o[0])
		if o[0] == value {
			opt.SetAttribute("selected", "")
		}
		sel.AppendChild(opt)
	}
	if value != "" {
		sel.SetValue(value)
	}
}

// intValue parses a numberField as an integer.
func (f numberField) intValue(name string) (int, error) {
	v, err := f.value(name)
	if err != nil {
		return 0, err
	}
	if v != float64(int(v)) {
		return 0, fmt.Errorf("%s must be a whole number, got %s", name, f.input.Value())
	}
	return int(v), nil
}

// runner is a Run button, a Cancel button, a progress bar and a status line.
type runner struct {
	run, cancel *dom.HTMLButtonElement
	bar         *dom.HTMLProgressElement
	status      dom.Element
	wrap        dom.Element
	ctl         js.Value // AbortController of the current run
}

func newRunner(id, label string) *runner {
	r := &runner{}
	r.wrap = el("div", "class", "runbar")
	r.run = text("button", label, "id", id+"-run", "type", "button").(*dom.HTMLButtonElement)
	r.cancel = text("button", "Cancel", "id", id+"-cancel", "type", "button", "class", "secondary", "disabled", "").(*dom.HTMLButtonElement)
	r.bar = el("progress", "id", id+"-progress", "max", "1", "value", "0", "aria-label", "progress").(*dom.HTMLProgressElement)
	r.status = el("span", "id", id+"-status", "class", "detail", "role", "status", "aria-live", "polite")
	appendAll(r.wrap, r.run, r.cancel, r.bar, r.status)
	r.cancel.AddEventListener("click", false, func(dom.Event) {
		if r.ctl.Truthy() {
			r.ctl.Call("abort")
		}
	})
	return r
}

// start marks a run as begun and returns the options object {onProgress,
// signal} for a remote call, and a release function.
func (r *runner) start(msg string) (opts js.Value, release func()) {
	r.run.SetDisabled(true)
	r.cancel.SetDisabled(false)
	r.bar.SetValue(0)
	r.status.SetTextContent(msg)
	r.ctl = js.Global().Get("AbortController").New()
	onProg := js.FuncOf(func(_ js.Value, a []js.Value) any {
		if len(a) > 0 && a[0].Type() == js.TypeObject {
			d, t := a[0].Get("done").Float(), a[0].Get("total").Float()
			if t > 0 {
				r.bar.SetValue(d / t)
			}
		}
		return nil
	})
	opts = js.Global().Get("Object").New()
	opts.Set("onProgress", onProg)
	opts.Set("signal", r.ctl.Get("signal"))
	return opts, func() { onProg.Release() }
}

// done ends a run; err (if any) is shown, a cancellation as such.
func (r *runner) done(err error, okMsg string) {
	r.run.SetDisabled(false)
	r.cancel.SetDisabled(true)
	r.ctl = js.Undefined()
	switch {
	case err == nil:
		r.bar.SetValue(1)
		r.status.SetTextContent(okMsg)
	case jsio.IsAbort(err):
		r.bar.SetValue(0)
		r.status.SetTextContent("Cancelled.")
	default:
		r.bar.SetValue(0)
		r.status.SetTextContent("")
	}
}

// g3 formats a number with 3 significant digits.
func g3(x float64) string { return strconv.FormatFloat(x, 'g', 3, 64) }

// fitWidth sizes p to its figure's current width (between 320 and 720 CSS
// pixels), so the SVG is drawn at about 1:1 and its 13–16 px text stays
// readable on a 360 px phone instead of being scaled down.
func fitWidth(fig dom.Element, p *plot.Plot) *plot.Plot {
	w := fig.Underlying().Get("clientWidth").Float()
	if w <= 0 {
		return p
	}
	w = math.Max(260, math.Min(720, w)) // a 360 px phone leaves ≈ 300 px inside a section
	if p.Width == 0 {
		p.Width = 640
	}
	if p.Height == 0 {
		p.Height = 400
	}
	aspect := p.Height / p.Width
	if w < 500 {
		aspect = math.Max(aspect, 0.9) // taller on phones: room for the legend
	}
	p.Width, p.Height = w, math.Round(w*aspect)
	return p
}

// redraws are called (debounced) when the window is resized, so plots keep
// a 1:1 scale (see fitWidth).
var redraws []func()

var resizeHook sync.Once

func onResize(f func()) {
	redraws = append(redraws, f)
	resizeHook.Do(func() {
		var timer js.Value
		fire := js.FuncOf(func(js.Value, []js.Value) any {
			for _, r := range redraws {
				r()
			}
			return nil
		})
		dom.GetWindow().AddEventListener("resize", false, func(dom.Event) {
			if timer.Truthy() {
				js.Global().Call("clearTimeout", timer)
			}
			timer = js.Global().Call("setTimeout", fire, 150)
		})
	})
}
