//go:build js && wasm

// Package ui is the page's UI, built from Go with honnef.co/go/js/dom/v2:
// forms, runs in the Web Worker (through globalThis.dpsampleRemote, see
// internal/kit/remote.go) and plots from core/plot. It holds no mathematics
// and never imports the JS API (wasm/jsapi); both share wasm/internal/jsio.
// This package keeps the table of views; each view is a package named after
// it (estimate, trace, median, membership, bounds, dimfree, privacy), which imports
// internal/kit and never another view.
package ui

import (
	"sync"
	"syscall/js"

	"github.com/dpsample/dpsample/wasm/ui/bounds"
	"github.com/dpsample/dpsample/wasm/ui/dimfree"
	"github.com/dpsample/dpsample/wasm/ui/estimate"
	"github.com/dpsample/dpsample/wasm/ui/internal/kit"
	"github.com/dpsample/dpsample/wasm/ui/median"
	"github.com/dpsample/dpsample/wasm/ui/membership"
	"github.com/dpsample/dpsample/wasm/ui/privacy"
	"github.com/dpsample/dpsample/wasm/ui/trace"
)

// The UI is built from Go with honnef.co/go/js/dom/v2. index.html holds one
// empty <section data-view="…"> per view, each inside the custom element of
// its view (as site/elements.js creates them on other pages); Start fills
// each that is present,
// so the same binary serves the full page and pages embedding single views.
//
// Sections are built lazily (issue 15 item 6): at start-up only the views in
// the viewport, and the eager ones, are built,
// so the first section is interactive without waiting for the others. The
// rest are built when they scroll near the viewport (IntersectionObserver)
// or, one per idle period, after the page is ready (requestIdleCallback), so
// that find-in-page, headings navigation and anchors reach every section
// soon. A section waiting to be built carries data-lazy and a placeholder
// height; a built one carries data-built="1". Each build is recorded as a
// User Timing measure "dpsample:build:<view>".

// view is one section of the page.
type view struct {
	name  string
	build func(root kit.Elem)
	// eager views are built at start-up wherever they are: the estimate view
	// fetches its selected built-in dataset when built, and that fetch
	// belongs to the page's initial load. The other built-in is fetched only
	// when the user first selects it; nothing else is requested after
	// dpsampleUIReady.
	eager bool
}

var views = []view{
	{"privacy", privacy.Build, false},
	{"estimate", estimate.Build, true},
	{"dimfree", dimfree.Build, false},
	{"trace", trace.Build, false},
	{"bounds", bounds.Build, false},
	{"median", median.Build, false},
	{"membership", membership.Build, false},
}

// Start builds the views present in the document that are visible (and the
// eager ones), schedules the others, and announces when the built views'
// initial loads are done (globalThis.dpsampleUIReady, "dpsample:ui-ready").
func Start() {
	buildViews()
	// Custom elements (site/elements.js) added after start-up call this.
	js.Global().Set("dpsampleBuildViews", js.FuncOf(func(js.Value, []js.Value) any { buildViews(); return nil }))
	go func() {
		kit.PendingLoads.Wait()
		js.Global().Set("dpsampleUIReady", true)
		if perf := js.Global().Get("performance"); perf.Truthy() {
			perf.Call("mark", "dpsample:ui-ready") // beside the dpsample:build:<view> measures
		}
		if ev := js.Global().Get("CustomEvent"); ev.Truthy() {
			js.Global().Call("dispatchEvent", ev.New("dpsample:ui-ready"))
		}
		uiReady = true
		idleBuild()
	}()
}

// lookupView returns the view named name.
func lookupView(name string) (view, bool) {
	for _, v := range views {
		if v.name == name {
			return v, true
		}
	}
	return view{}, false
}

// viewRoots selects the sections the UI builds: a <section data-view> that is
// a child of one of dpsample's custom elements (site/elements.js creates it;
// index.html writes it inside the element). A host page's own elements are
// never built into, whatever attributes they carry.
const viewRoots = ":is(dp-estimate, dp-dimension-free, dp-trace-attack, dp-bounds, dp-privacy-curve, dp-median, dp-membership) > section[data-view]"

// buildViews builds, in document order, every view root not yet built that
// is eager or in the viewport, and schedules the others. Whether a root is in
// the viewport is read only until the first view is built: after that, each
// read would lay out the page with the views built so far (≈ 45 ms at
// start-up in Chromium, before the page is ready), and the rest of the
// roots are left to lazyObserver, which sees them after the browser's own
// layout of the frame.
func buildViews() {
	defer func() {
		if uiReady {
			idleBuild() // elements added after start-up
		}
	}()
	built := false
	for _, root := range kit.Qsa(nil, viewRoots) {
		if hasAttr(root, "data-built") || hasAttr(root, "data-lazy") {
			continue
		}
		v, ok := lookupView(root.GetAttribute("data-view"))
		if !ok {
			continue
		}
		if v.eager || !built && inViewport(root) {
			buildView(root, v)
			built = true
			continue
		}
		root.SetAttribute("data-lazy", "1")
		// A placeholder height keeps unbuilt sections from all being "in view"
		// at once (an empty section is 0 px tall); set through the CSSOM, which
		// the page's CSP (style-src 'self') allows.
		kit.Style(root).Call("setProperty", "min-height", "60vh")
		lazyObserver().Call("observe", root.Underlying())
	}
}

// buildView builds root as v once, and records the time it took.
func buildView(root kit.Elem, v view) {
	if hasAttr(root, "data-built") {
		return
	}
	perf := js.Global().Get("performance")
	t0 := perf.Call("now")
	root.SetAttribute("data-built", "1")
	if hasAttr(root, "data-lazy") {
		root.RemoveAttribute("data-lazy")
		kit.Style(root).Call("removeProperty", "min-height")
		lazyObserver().Call("unobserve", root.Underlying())
	}
	v.build(root)
	opts := js.Global().Get("Object").New()
	opts.Set("start", t0)
	perf.Call("measure", "dpsample:build:"+v.name, opts)
}

// buildLazy builds a scheduled section (from the observer or when idle).
func buildLazy(root kit.Elem) {
	if v, ok := lookupView(root.GetAttribute("data-view")); ok {
		buildView(root, v)
	}
}

// inViewport reports whether e's box meets the viewport. Sections merely
// near it are left to lazyObserver, whose first callback comes after the
// first frame, while the page still waits for its initial fetches.
func inViewport(e kit.Elem) bool {
	r := e.Underlying().Call("getBoundingClientRect")
	return r.Get("top").Float() < js.Global().Get("innerHeight").Float() && r.Get("bottom").Float() > 0
}

// hasAttr reports whether e carries the attribute name.
func hasAttr(e kit.Elem, name string) bool {
	return e.HasAttribute(name)
}

var (
	uiReady     bool // dpsampleUIReady has been set
	idleRunning bool // idleBuild's chain of idle callbacks is scheduled
)

var (
	observer     js.Value
	observerOnce sync.Once
)

// lazyObserver is the IntersectionObserver that builds a scheduled section
// when it comes within half a screen of the viewport.
func lazyObserver() js.Value {
	observerOnce.Do(func() {
		cb := js.FuncOf(func(_ js.Value, a []js.Value) any {
			entries := a[0]
			for i := 0; i < entries.Length(); i++ {
				if e := entries.Index(i); e.Get("isIntersecting").Bool() {
					buildLazy(kit.WrapEl(e.Get("target")))
				}
			}
			return nil
		})
		opts := js.Global().Get("Object").New()
		opts.Set("rootMargin", "50% 0px 50% 0px")
		observer = js.Global().Get("IntersectionObserver").New(cb, opts)
	})
	return observer
}

// idleBuild builds the scheduled sections one per idle period, in document
// order, after the page is ready (setTimeout where requestIdleCallback is
// missing).
func idleBuild() {
	if idleRunning {
		return
	}
	idleRunning = true
	var next js.Func
	schedule := func() {
		if ric := js.Global().Get("requestIdleCallback"); ric.Truthy() {
			js.Global().Call("requestIdleCallback", next)
		} else {
			js.Global().Call("setTimeout", next, 50)
		}
	}
	next = js.FuncOf(func(js.Value, []js.Value) any {
		root := kit.Qs(nil, viewRoots+"[data-lazy]")
		if root == nil {
			idleRunning = false
			next.Release()
			return nil
		}
		buildLazy(root)
		schedule()
		return nil
	})
	schedule()
}
