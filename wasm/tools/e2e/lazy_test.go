//go:build !js

package e2e

import (
	"slices"
	"strings"
	"testing"
	"time"

	cdppage "github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// builtAtReady records which sections are built when the UI announces it is
// ready (the "dpsample:ui-ready" event).
const builtAtReady = `addEventListener("dpsample:ui-ready", () => {
  window.__builtAtReady = [...document.querySelectorAll("[data-view][data-built]")].map(s => s.dataset.view);
  window.__lazyAtReady = [...document.querySelectorAll("[data-view][data-lazy]")].map(s => s.dataset.view);
});`

// TestLazySections: at 1280×900 the page is ready with the first section
// (estimate) built and the last (privacy, 4 sections further down) waiting;
// scrolling builds the rest, each recorded as a dpsample:build:<view>
// measure, without a request.
func TestLazySections(t *testing.T) {
	p := newPage(t, "/site/favicon.svg")
	p.do(chromedp.EmulateViewport(1280, 900))
	if _, err := chromedp.Call(p.ctx, cdppage.AddScriptToEvaluateOnNewDocument, cdppage.AddScriptToEvaluateOnNewDocumentParams{Source: builtAtReady}); err != nil {
		t.Fatal(err)
	}
	p.do(chromedp.Navigate(baseURL + "/"))
	p.waitJS(`window.dpsampleUIReady === true && window.__builtAtReady !== undefined`, 60*time.Second)
	built := eval[[]string](p, `window.__builtAtReady`)
	lazy := eval[[]string](p, `window.__lazyAtReady`)
	t.Logf("built at ready: %v; waiting: %v", built, lazy)
	if !slices.Contains(built, "estimate") {
		t.Errorf("estimate (first, eager) not built at ready: %v", built)
	}
	if slices.Contains(built, "privacy") || !slices.Contains(lazy, "privacy") {
		t.Errorf("privacy (last section) built before ready: built %v, waiting %v", built, lazy)
	}
	loaded := p.requestCount()
	p.buildAll(30 * time.Second)
	if n := p.requestCount(); n != loaded {
		t.Errorf("building the other sections made %d requests: %v", n-loaded, p.requests[loaded:])
	}
	for _, v := range []string{"estimate", "dimfree", "trace", "bounds", "privacy"} {
		if ms := eval[float64](p, `(performance.getEntriesByName("dpsample:build:`+v+`")[0] || {duration: -1}).duration`); ms < 0 {
			t.Errorf("no dpsample:build:%s measure", v)
		} else {
			t.Logf("build %s: %.0f ms", v, ms)
		}
	}
	if n := eval[int](p, `document.querySelectorAll("[data-view][data-lazy], [data-view]:not([data-built])").length`); n != 0 {
		t.Errorf("%d sections still marked lazy or unbuilt", n)
	}
	if s := eval[string](p, `document.getElementById("privacy").style.minHeight`); s != "" {
		t.Errorf("privacy keeps its placeholder height %q after it is built", s)
	}
	p.noConsoleErrors()
}

// TestBoundsNotes: every value with conditions links to a visible numbered
// note below the table (keyboard-reachable, not a hover title), every cell
// carries its column's name, and the help text points at the notes.
func TestBoundsNotes(t *testing.T) {
	p := newPage(t, "/")
	p.waitJS(`window.dpsampleUIReady === true`, 30*time.Second)
	p.buildAll(30 * time.Second)
	r := eval[map[string]any](p, `(() => {
	  const t = document.querySelector("#bounds-table table");
	  const refs = [...t.querySelectorAll("a.noteref")];
	  const bad = refs.filter(a => { const li = document.getElementById(a.hash.slice(1)); return !li || li.getBoundingClientRect().height === 0 || a.tabIndex < 0; });
	  const cols = [...t.querySelectorAll("th")].map(th => th.textContent);
	  const unlabelled = [...t.querySelectorAll("tr")].slice(1).flatMap(tr => [...tr.cells].filter((td, i) => td.dataset.label !== cols[i]));
	  return { refs: refs.length, bad: bad.length, notes: document.querySelectorAll("#bounds-notes li").length,
	    titles: t.querySelectorAll("[title]").length, unlabelled: unlabelled.length,
	    help: document.querySelector("#bounds-table p.help").textContent };
	})()`)
	t.Logf("bounds notes: %v", r)
	if r["refs"].(float64) == 0 || r["notes"].(float64) == 0 {
		t.Errorf("no value notes shown: %v", r)
	}
	if r["bad"].(float64) != 0 || r["titles"].(float64) != 0 || r["unlabelled"].(float64) != 0 {
		t.Errorf("notes: %v links without a visible target, %v hover titles, %v cells without their column's data-label", r["bad"], r["titles"], r["unlabelled"])
	}
	if h := r["help"].(string); strings.Contains(h, "hover") || !strings.Contains(h, "below the table") {
		t.Errorf("help text %q", h)
	}
	// Reachable from the keyboard: focus the first note link and press Enter.
	p.do(chromedp.Focus(chromedp.CSS(`#bounds-table a.noteref`)), chromedp.KeyEvent("\r"))
	p.waitJS(`location.hash.startsWith("#bounds-note-")`, 5*time.Second)
	p.noConsoleErrors()
}

// TestPrivacyCurveElement: <dp-privacy-curve epsilon delta prefix> starts
// at its attributes and uses its prefix for the ids.
func TestPrivacyCurveElement(t *testing.T) {
	p := openPage(t, "/embed.html", 375, 800)
	p.waitJS(`window.dpsampleUIReady === true`, 60*time.Second)
	eval[bool](p, `(() => { const h = document.createElement("div"); h.innerHTML = '<dp-privacy-curve epsilon="2" delta="1e-6" prefix="pc"></dp-privacy-curve>'; document.querySelector("main").append(h); return true })()`)
	p.buildAll(30 * time.Second)
	p.waitJS(`document.getElementById("pc-s") !== null && document.getElementById("pc-s").textContent !== ""`, 10*time.Second)
	if v := eval[string](p, `document.getElementById("pc-epsilon").value + "/" + document.getElementById("pc-delta").value`); v != "2/1e-6" {
		t.Errorf("epsilon/delta = %q, want 2/1e-6", v)
	}
	want := eval[float64](p, `dpsample.privacy.calibrate(2, 1e-6)`)
	if got := eval[float64](p, `parseFloat(document.getElementById("pc-s").textContent)`); got <= 0 || (got-want)/want > 1e-5 || (want-got)/want > 1e-5 {
		t.Errorf("s* = %g, want %g (dpsample.privacy.calibrate(2, 1e-6))", got, want)
	}
	if tag := eval[string](p, `document.querySelector("#pc-plot svg")?.closest("dp-privacy-curve")?.getAttribute("prefix") ?? ""`); tag != "pc" {
		t.Errorf("no plot #pc-plot inside the element (prefix %q)", tag)
	}
	sizes := eval[map[string]float64](p, tickSizesJS)
	if px, ok := sizes["pc-plot"]; !ok || px < 10 {
		t.Errorf("at 375 px the ticks of pc-plot render at %v px (found: %v), want ≥ 10", px, ok)
	}
	p.noConsoleErrors()
}
