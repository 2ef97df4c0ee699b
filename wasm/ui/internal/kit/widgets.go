//go:build js && wasm

package kit

import (
	"math"
	"strconv"
	"strings"
	"sync"
	"syscall/js"
	"time"

	"github.com/dpsample/dpsample/core/plot"
	"github.com/dpsample/dpsample/wasm/internal/jsio"
	"github.com/dpsample/dpsample/wasm/ui/internal/words"
	"honnef.co/go/js/dom/v2"
)

// Widgets shared by the estimate, dimension-free and bounds views.

// viewIDs gives each instance of a view a distinct id prefix, so that a page
// (or a course page with custom elements) may hold a view more than once.
var viewIDs = map[string]int{}

func IdPrefix(root Elem, base string) string {
	if p := root.GetAttribute("data-prefix"); p != "" {
		return p
	}
	viewIDs[base]++
	if n := viewIDs[base]; n > 1 {
		return base + strconv.Itoa(n)
	}
	return base
}

// Attr returns root's data-<name> attribute, or def.
func Attr(root Elem, name, def string) string {
	if v := root.GetAttribute("data-" + name); v != "" {
		return v
	}
	return def
}

// DocLink is a link to file in dpsample's documentation: the folder of root's
// docs attribute (site/elements.js sets it to the docs/ folder beside
// elements.js, which a release ships; index.html's sections default to docs/
// beside the page). It opens a new tab, so the figure keeps its state.
func DocLink(root Elem, file, label string) Elem {
	return Text("a", label, "href", Attr(root, "docs", "docs/")+file, "target", "_blank", "rel", "noopener")
}

// DataLink is the same for a file in the built-in data's folder (root's base
// attribute), e.g. the data's sources and licences.
func DataLink(root Elem, file, label string) Elem {
	return Text("a", label, "href", Attr(root, "base", "site/data/")+file, "target", "_blank", "rel", "noopener")
}

// AppendToHelp appends nodes to the help line (.help) of a field.
func AppendToHelp(wrap Elem, nodes ...dom.Node) { AppendAll(Qs(wrap, ".help"), nodes...) }

// SelectField is a labelled <select>.
type SelectField struct {
	Sel  *dom.HTMLSelectElement
	Wrap Elem
}

func NewSelectField(id, label, help string, options [][2]string, value string) SelectField {
	wrap := El("div", "class", "field")
	sel := AsSelect(El("select", "id", id, "aria-describedby", id+"-help"))
	SetOptions(sel, options, value)
	AppendAll(wrap, Text("label", label, "for", id), sel, Text("small", help, "id", id+"-help", "class", "help"))
	return SelectField{Sel: sel, Wrap: wrap}
}

// SetOptions replaces the options of sel; options are (value, label) pairs.
func SetOptions(sel *dom.HTMLSelectElement, options [][2]string, value string) {
	sel.SetInnerHTML("")
	for _, o := range options {
		opt := Text("option", o[1], "value", o[0])
		if o[0] == value {
			opt.SetAttribute("selected", "")
		}
		sel.AppendChild(opt)
	}
	if value != "" {
		sel.SetValue(value)
	}
}

// IntIn parses a NumberField as an integer in [lo, hi], with the message of
// the JS API's integer fields ("n must be an integer in [1, 2147483647], got 1.5").
func (f NumberField) IntIn(name string, lo, hi int) (int, error) {
	return ParseInt(name, f.Input.Value(), lo, hi)
}

// ParseNumber is words.ParseNumber (strict: "1,5" is an error, never 1).
func ParseNumber(field, s string) (float64, error) { return words.ParseNumber(field, s) }

// ParseInt is words.ParseInt.
func ParseInt(field, s string, lo, hi int) (int, error) { return words.ParseInt(field, s, lo, hi) }

// Count is words.Count ("1 row", "3 rows").
func Count(n int, noun string) string { return words.Count(n, noun) }

// ShownError is an error already displayed next to its field or box; the
// run's error line does not repeat it (one message per problem).
type ShownError struct{ error }

func (e ShownError) Unwrap() error { return e.error }

// Shown marks err as shown (a ShownError), for the views' packages, which
// cannot name its unexported field.
func Shown(err error) ShownError { return ShownError{err} }

// ShowAt writes err into slot and returns it marked as shown.
func ShowAt(slot Elem, err error) error {
	slot.SetTextContent(err.Error())
	return ShownError{err}
}

// SetStyle sets CSS properties through the CSSOM (element.style): the page's
// Content-Security-Policy (style-src 'self') blocks style attributes, not this.
func SetStyle(e Elem, kv ...string) {
	st := e.Underlying().Get("style")
	for i := 0; i+1 < len(kv); i += 2 {
		st.Call("setProperty", kv[i], kv[i+1])
	}
}

// MarkStale greys out a result area and labels it "From the previous run"
// (why says what changed). The label is the element id+"-stale"; the class
// "stale" is set for the style sheet, the opacity through the CSSOM so it
// works alone.
func MarkStale(out Elem, id, why string) {
	if out.GetAttribute("data-has-result") != "1" {
		return
	}
	out.Class().Add("stale")
	SetStyle(out, "opacity", "0.55")
	lab := ByID(id + "-stale")
	if lab == nil {
		lab = El("p", "id", id+"-stale", "class", "stale-note", "role", "status")
		SetStyle(lab, "font-weight", "600")
		out.InsertBefore(lab, firstChild(out))
	}
	lab.SetTextContent("From the previous run — " + why + ". Run again for results of the current settings.")
}

// ClearStale marks a result area fresh (a new result was just drawn).
func ClearStale(out Elem, id string) {
	out.Class().Remove("stale")
	out.Underlying().Get("style").Call("removeProperty", "opacity")
	out.SetAttribute("data-has-result", "1")
	if lab := ByID(id + "-stale"); lab != nil {
		lab.Remove()
	}
}

// Runner is a Run button, a Cancel button, a progress bar and a status line.
type Runner struct {
	Run, cancel *dom.HTMLButtonElement
	Bar         *dom.HTMLProgressElement
	Status      Elem
	Wrap        Elem
	ctl         js.Value // AbortController of the current run
	// showLeft: the status says "about N s left" from the run's progress
	// (the estimate view); now is the clock (a test's own).
	ShowLeft bool
	now      func() time.Time
}

func NewRunner(id, label string) *Runner {
	r := &Runner{}
	r.Wrap = El("div", "class", "runbar")
	r.Run = AsButton(Text("button", label, "id", id+"-run", "type", "button"))
	r.cancel = AsButton(Text("button", "Cancel", "id", id+"-cancel", "type", "button", "class", "secondary", "disabled", ""))
	r.Bar = asProgress(El("progress", "id", id+"-progress", "max", "1", "value", "0", "aria-label", "progress"))
	r.Status = El("span", "id", id+"-status", "class", "detail", "role", "status", "aria-live", "polite")
	AppendAll(r.Wrap, r.Run, r.cancel, r.Bar, r.Status)
	On(r.cancel, "click", false, func(Event) {
		if r.ctl.Truthy() {
			r.ctl.Call("abort")
		}
	})
	return r
}

// Start marks a run as begun and returns the options object {onProgress,
// signal} for a remote call, and a release function.
func (r *Runner) Start(msg string) (opts js.Value, release func()) {
	r.Run.SetDisabled(true)
	r.cancel.SetDisabled(false)
	r.Bar.SetValue(0)
	r.Status.SetTextContent(msg)
	r.ctl = js.Global().Get("AbortController").New()
	if r.now == nil {
		r.now = time.Now
	}
	t0 := r.now()
	onProg := js.FuncOf(func(_ js.Value, a []js.Value) any {
		if len(a) > 0 && a[0].Type() == js.TypeObject {
			d, t := a[0].Get("done").Float(), a[0].Get("total").Float()
			if t > 0 {
				r.Bar.SetValue(d / t)
				if left, ok := timeLeft(r.now().Sub(t0).Seconds(), d/t); ok && r.ShowLeft {
					r.Status.SetTextContent(strings.TrimSuffix(msg, "…") + ": " + About(left) + " left.")
				}
			}
		}
		return nil
	})
	opts = js.Global().Get("Object").New()
	opts.Set("onProgress", onProg)
	opts.Set("signal", r.ctl.Get("signal"))
	return opts, func() { onProg.Release() }
}

// timeLeft is the time a run has left, from its progress f (done/total) after
// elapsed seconds: elapsed·(1 − f)/f, the rate so far applied to the work
// left — measured on this run, with its workers, under the load of the
// moment. ok is false before 2 % of the work and 1 s (the start-up, not the
// rate, dominates then).
func timeLeft(elapsed, f float64) (left float64, ok bool) {
	if !(f >= 0.02) || elapsed < 1 {
		return 0, false
	}
	return elapsed * math.Max(0, 1-f) / f, true
}

// Done ends a run; err (if any) is shown, a cancellation as such.
func (r *Runner) Done(err error, okMsg string) {
	r.Run.SetDisabled(false)
	r.cancel.SetDisabled(true)
	r.ctl = js.Undefined()
	switch {
	case err == nil:
		r.Bar.SetValue(1)
		r.Status.SetTextContent(okMsg)
	case jsio.IsAbort(err):
		r.Bar.SetValue(0)
		r.Status.SetTextContent("Cancelled.")
	default:
		r.Bar.SetValue(0)
		r.Status.SetTextContent("")
	}
}

// G3 formats a number with 3 significant digits.
func G3(x float64) string { return words.G3(x) }

// FitWidth sizes p to its figure's current width (between 320 and 720 CSS
// pixels), so the SVG is drawn at about 1:1 and its 13–16 px text stays
// readable on a 360 px phone instead of being scaled down.
func FitWidth(fig Elem, p *plot.Plot) *plot.Plot {
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

func OnResize(f func()) {
	redraws = append(redraws, f)
	resizeHook.Do(func() {
		var timer js.Value
		fire := js.FuncOf(func(js.Value, []js.Value) any {
			for _, r := range redraws {
				r()
			}
			return nil
		})
		On(jsWindow{}, "resize", false, func(Event) {
			if timer.Truthy() {
				js.Global().Call("clearTimeout", timer)
			}
			timer = js.Global().Call("setTimeout", fire, 150)
		})
	})
}

// FailedStart says, next to Run, that the run did not start and where the
// problem is shown, resets the progress line (no "Done." and full bar left
// from an earlier run), and moves the focus to the field in error.
func (r *Runner) FailedStart(where string, focus Elem) {
	r.Bar.SetValue(0)
	r.Status.SetTextContent("Could not start: " + where + ".")
	if f := focus; f != nil {
		f.Focus()
		if s := f.Underlying().Get("scrollIntoView"); s.Type() == js.TypeFunction {
			o := js.Global().Get("Object").New()
			o.Set("block", "center")
			f.Underlying().Call("scrollIntoView", o)
		}
	}
}

// About is words.About ("about 40 s").
func About(s float64) string { return words.About(s) }
