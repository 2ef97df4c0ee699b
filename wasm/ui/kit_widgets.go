//go:build js && wasm

package ui

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"sync"
	"syscall/js"
	"time"

	"honnef.co/go/js/dom/v2"

	"github.com/dpsample/dpsample/core/checks"
	"github.com/dpsample/dpsample/core/plot"
	"github.com/dpsample/dpsample/wasm/internal/jsio"
)

// Widgets shared by the estimate, dimension-free and bounds views.

// viewIDs gives each instance of a view a distinct id prefix, so that a page
// (or a course page with custom elements) may hold a view more than once.
var viewIDs = map[string]int{}

func idPrefix(root elem, base string) string {
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
func attr(root elem, name, def string) string {
	if v := root.GetAttribute("data-" + name); v != "" {
		return v
	}
	return def
}

// docLink is a link to file in dpsample's documentation: the folder of root's
// docs attribute (site/elements.js sets it to the docs/ folder beside
// elements.js, which a release ships; index.html's sections default to docs/
// beside the page). It opens a new tab, so the figure keeps its state.
func docLink(root elem, file, label string) elem {
	return text("a", label, "href", attr(root, "docs", "docs/")+file, "target", "_blank", "rel", "noopener")
}

// dataLink is the same for a file in the built-in data's folder (root's base
// attribute), e.g. the data's sources and licences.
func dataLink(root elem, file, label string) elem {
	return text("a", label, "href", attr(root, "base", "site/data/")+file, "target", "_blank", "rel", "noopener")
}

// appendToHelp appends nodes to the help line (.help) of a field.
func appendToHelp(wrap elem, nodes ...dom.Node) { appendAll(qs(wrap, ".help"), nodes...) }

// selectField is a labelled <select>.
type selectField struct {
	sel  *dom.HTMLSelectElement
	wrap elem
}

func newSelectField(id, label, help string, options [][2]string, value string) selectField {
	wrap := el("div", "class", "field")
	sel := asSelect(el("select", "id", id, "aria-describedby", id+"-help"))
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

// intIn parses a numberField as an integer in [lo, hi], with the message of
// the JS API's integer fields ("n must be an integer in [1, 2147483647], got 1.5").
func (f numberField) intIn(name string, lo, hi int) (int, error) {
	return parseInt(name, f.input.Value(), lo, hi)
}

// parseNumber reads a form field strictly: the whole trimmed text must be a
// number (strconv.ParseFloat), so "1,5" is an error, never 1 (fmt.Sscanf
// stopped at the comma). NaN and ±Inf parse and are left to the field's
// core rule (checks.Epsilon, checks.Delta, …), as in the JS API.
func parseNumber(field, s string) (float64, error) {
	t := strings.TrimSpace(s)
	v, err := strconv.ParseFloat(t, 64)
	if err != nil || t == "" {
		rule := "a number"
		if strings.Count(t, ",") == 1 {
			if _, e := strconv.ParseFloat(strings.Replace(t, ",", ".", 1), 64); e == nil {
				rule = "a number written with a decimal point (1.5, not 1,5)"
			}
		}
		return 0, &checks.Error{Field: field, Rule: rule, Got: strconv.Quote(s)}
	}
	return v, nil
}

// parseInt reads an integer field in [lo, hi] with the JS API's rule.
func parseInt(field, s string, lo, hi int) (int, error) {
	v, err := parseNumber(field, s)
	if err != nil {
		return 0, err
	}
	if v != math.Trunc(v) || v < float64(lo) || v > float64(hi) {
		return 0, &checks.Error{Field: field, Rule: fmt.Sprintf("an integer in [%d, %d]", lo, hi), Got: checks.Fmt(v)}
	}
	return int(v), nil
}

// count writes n with its noun in the right number: count(1, "row") is
// "1 row", count(3, "row") "3 rows"; nouns with an irregular plural pass it
// after a slash ("entry/entries").
func count(n int, noun string) string {
	one, many := noun, noun+"s"
	if i := strings.IndexByte(noun, '/'); i >= 0 {
		one, many = noun[:i], noun[i+1:]
	}
	if n == 1 || n == -1 {
		return fmt.Sprintf("%d %s", n, one)
	}
	return fmt.Sprintf("%s %s", groupDigits(n), many)
}

// groupDigits writes n with thin-space thousands separators ("12 345").
func groupDigits(n int) string {
	s := strconv.Itoa(n)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteString("\u202f")
		}
		b.WriteRune(c)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}

// shownError is an error already displayed next to its field or box; the
// run's error line does not repeat it (one message per problem).
type shownError struct{ error }

func (e shownError) Unwrap() error { return e.error }

// showAt writes err into slot and returns it marked as shown.
func showAt(slot elem, err error) error {
	slot.SetTextContent(err.Error())
	return shownError{err}
}

// setStyle sets CSS properties through the CSSOM (element.style): the page's
// Content-Security-Policy (style-src 'self') blocks style attributes, not this.
func setStyle(e elem, kv ...string) {
	st := e.Underlying().Get("style")
	for i := 0; i+1 < len(kv); i += 2 {
		st.Call("setProperty", kv[i], kv[i+1])
	}
}

// markStale greys out a result area and labels it "From the previous run"
// (why says what changed). The label is the element id+"-stale"; the class
// "stale" is set for the style sheet, the opacity through the CSSOM so it
// works alone.
func markStale(out elem, id, why string) {
	if out.GetAttribute("data-has-result") != "1" {
		return
	}
	out.Class().Add("stale")
	setStyle(out, "opacity", "0.55")
	lab := byID(id + "-stale")
	if lab == nil {
		lab = el("p", "id", id+"-stale", "class", "stale-note", "role", "status")
		setStyle(lab, "font-weight", "600")
		out.InsertBefore(lab, firstChild(out))
	}
	lab.SetTextContent("From the previous run — " + why + ". Run again for results of the current settings.")
}

// clearStale marks a result area fresh (a new result was just drawn).
func clearStale(out elem, id string) {
	out.Class().Remove("stale")
	out.Underlying().Get("style").Call("removeProperty", "opacity")
	out.SetAttribute("data-has-result", "1")
	if lab := byID(id + "-stale"); lab != nil {
		lab.Remove()
	}
}

// runner is a Run button, a Cancel button, a progress bar and a status line.
type runner struct {
	run, cancel *dom.HTMLButtonElement
	bar         *dom.HTMLProgressElement
	status      elem
	wrap        elem
	ctl         js.Value // AbortController of the current run
	// showLeft: the status says "about N s left" from the run's progress
	// (the estimate view); now is the clock (a test's own).
	showLeft bool
	now      func() time.Time
}

func newRunner(id, label string) *runner {
	r := &runner{}
	r.wrap = el("div", "class", "runbar")
	r.run = asButton(text("button", label, "id", id+"-run", "type", "button"))
	r.cancel = asButton(text("button", "Cancel", "id", id+"-cancel", "type", "button", "class", "secondary", "disabled", ""))
	r.bar = asProgress(el("progress", "id", id+"-progress", "max", "1", "value", "0", "aria-label", "progress"))
	r.status = el("span", "id", id+"-status", "class", "detail", "role", "status", "aria-live", "polite")
	appendAll(r.wrap, r.run, r.cancel, r.bar, r.status)
	on(r.cancel, "click", false, func(event) {
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
	if r.now == nil {
		r.now = time.Now
	}
	t0 := r.now()
	onProg := js.FuncOf(func(_ js.Value, a []js.Value) any {
		if len(a) > 0 && a[0].Type() == js.TypeObject {
			d, t := a[0].Get("done").Float(), a[0].Get("total").Float()
			if t > 0 {
				r.bar.SetValue(d / t)
				if left, ok := timeLeft(r.now().Sub(t0).Seconds(), d/t); ok && r.showLeft {
					r.status.SetTextContent(strings.TrimSuffix(msg, "…") + ": " + about(left) + " left.")
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
func fitWidth(fig elem, p *plot.Plot) *plot.Plot {
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
		on(jsWindow{}, "resize", false, func(event) {
			if timer.Truthy() {
				js.Global().Call("clearTimeout", timer)
			}
			timer = js.Global().Call("setTimeout", fire, 150)
		})
	})
}

// failedStart says, next to Run, that the run did not start and where the
// problem is shown, resets the progress line (no "Done." and full bar left
// from an earlier run), and moves the focus to the field in error.
func (r *runner) failedStart(where string, focus elem) {
	r.bar.SetValue(0)
	r.status.SetTextContent("Could not start: " + where + ".")
	if f := focus; f != nil {
		f.Focus()
		if s := f.Underlying().Get("scrollIntoView"); s.Type() == js.TypeFunction {
			o := js.Global().Get("Object").New()
			o.Set("block", "center")
			f.Underlying().Call("scrollIntoView", o)
		}
	}
}
