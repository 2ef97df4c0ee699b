//go:build !js

package e2e

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	cdplog "github.com/chromedp/cdproto/log"
	"github.com/chromedp/chromedp"

	"github.com/dpsample/dpsample/wasm/tools/devserver"
)

// Tests of issue 15's page-level fixes: no console error of any kind on load
// (including the browser's own: CSP warnings, a missing favicon), no
// horizontal page overflow at phone and desktop widths, readable plot text,
// the custom elements' attribute checks, and clear messages when a script,
// the worker or the module cannot start.

// openPage opens a tab that also records the browser's own log (Log domain:
// CSP violations, failed loads such as a /favicon.ico 404, which
// Runtime.consoleAPICalled never sees), sets the viewport, and only then
// navigates to path. Paths listed in missing are answered 403 by a server of
// this test's own (a host or an extension blocking them; DevTools' URL
// blocking does not reach a dedicated worker's script, which the worker
// fetches itself).
func openPage(t *testing.T, path string, width, height int64, missing ...string) *page {
	t.Helper()
	base := baseURL
	if len(missing) > 0 {
		site := devserver.Handler(root)
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			for _, m := range missing {
				if r.URL.Path == m {
					http.Error(w, "blocked by the test", http.StatusForbidden)
					return
				}
			}
			site.ServeHTTP(w, r)
		}))
		t.Cleanup(srv.Close)
		base = srv.URL
	}
	p := newPage(t, "/site/favicon.svg") // a cheap first document, before recording starts
	// Leave it for a blank page and let its own requests (Chromium asks a
	// bare SVG document for /favicon.ico) settle before the log is cleared.
	p.do(chromedp.Navigate("about:blank"))
	time.Sleep(500 * time.Millisecond)
	if err := chromedp.Listen(p.ctx, func(ev any) {
		if e, ok := ev.(*cdplog.EventEntryAdded); ok && e.Entry.Level == cdplog.EntryLevelError {
			p.mu.Lock()
			p.console = append(p.console, fmt.Sprintf("log (%s): %s %s", e.Entry.Source, e.Entry.Text, e.Entry.URL))
			p.mu.Unlock()
		}
	}); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Call(p.ctx, cdplog.Enable, cdp.Empty{}); err != nil {
		t.Fatal(err)
	}
	p.do(chromedp.EmulateViewport(width, height))
	p.mu.Lock()
	p.console, p.requests = nil, nil
	p.mu.Unlock()
	p.do(chromedp.Navigate(base + path))
	return p
}

// overflowJS measures, for the document and for each section, how far
// content sticks out to the right of the viewport (page overflow) and of the
// section's own box (content cut off or pushing the page). Scroll containers
// inside a section (tables, wide figures) are fine: they scroll in their box.
const overflowJS = `(() => {
  const vw = document.documentElement.clientWidth;
  const out = { page: document.documentElement.scrollWidth - vw, items: [] };
  for (const s of document.querySelectorAll("section[data-view]")) {
    const r = s.getBoundingClientRect();
    for (const e of s.querySelectorAll("*")) {
      const b = e.getBoundingClientRect();
      if (b.width === 0 || b.height === 0) continue;
      // skip descendants of a scroll container: they are clipped by it
      let p = e.parentElement, clipped = false;
      while (p && p !== s) {
        const o = getComputedStyle(p).overflowX;
        if (o === "auto" || o === "scroll" || o === "hidden" || o === "clip") { clipped = true; break; }
        p = p.parentElement;
      }
      if (clipped) continue;
      if (b.right > r.right + 1 || b.right > vw + 1) out.items.push(s.dataset.view + ": <" + e.localName + (e.id ? "#" + e.id : "") + (e.className && typeof e.className === "string" ? "." + e.className.split(" ")[0] : "") + "> “" + e.textContent.trim().slice(0, 40) + "” right " + Math.round(b.right) + " > section " + Math.round(r.right));
    }
  }
  out.items = out.items.slice(0, 12);
  return out;
})()`

type overflow struct {
	Page  float64  `json:"page"`
	Items []string `json:"items"`
}

// tickSizesJS returns, per plot, the smallest rendered height in CSS pixels
// of its tick labels' font (font size × the SVG's scale on screen).
const tickSizesJS = `(() => {
  const out = {};
  for (const svg of document.querySelectorAll("section[data-view] figure.plot svg")) {
    const vb = svg.viewBox.baseVal, w = svg.getBoundingClientRect().width;
    if (!vb || !vb.width || !w) continue;
    let min = Infinity;
    for (const t of svg.querySelectorAll("text.tick")) min = Math.min(min, parseFloat(getComputedStyle(t).fontSize) * w / vb.width);
    if (min < Infinity) out[svg.closest("figure").id || svg.closest("section").dataset.view] = min;
  }
  return out;
})()`

// TestLayoutEverySection loads the page at 375 and 1280 px, runs a small
// private estimate (so its results table exists), and for every section
// checks: no horizontal page overflow, nothing wider than its section except
// inside a scroll box (again with a pasted CSV, its features, ranges and
// missing-cell error shown), tick labels ≥ 10 px on screen, and no console or
// browser-log error (the favicon and the CSP meta tag included). Writes a
// screenshot of every section at both widths.
func TestLayoutEverySection(t *testing.T) {
	for _, w := range []int64{375, 1280} {
		t.Run(fmt.Sprint(w), func(t *testing.T) {
			p := openPage(t, "/", w, 900)
			p.waitJS(`window.dpsampleUIReady === true && document.getElementById("status").dataset.state === "ready"`, 60*time.Second)
			p.buildAll(30 * time.Second)
			// style.css's reset (all: revert) keeps what the hidden attribute hides
			// hidden (in Chromium a presentation attribute, which the reset would revert).
			if shown := eval[[]string](p, `[...document.querySelectorAll("section[data-view] [hidden]")].filter((e) => getComputedStyle(e).display !== "none").map((e) => e.localName + "#" + e.id)`); len(shown) > 0 {
				t.Errorf("elements with the hidden attribute are shown: %v", shown)
			}
			if n := eval[int](p, `document.querySelectorAll("section[data-view] [hidden]").length`); n == 0 {
				t.Error("no element with the hidden attribute in the sections: the check above tests nothing")
			}
			p.setValue("est-samples", "5")
			p.click("est-run")
			p.waitJS(`document.getElementById("est-status").textContent === "Done." || document.getElementById("est-err").textContent !== ""`, 90*time.Second)
			if s := p.text("#est-err"); s != "" {
				t.Fatalf("estimate failed: %s", s)
			}
			p.waitJS(`document.querySelector("#est-summary table") !== null`, 5*time.Second)
			o := eval[overflow](p, overflowJS)
			if o.Page > 0 {
				t.Errorf("at %d px the page scrolls sideways by %g px", w, o.Page)
			}
			for _, it := range o.Items {
				t.Errorf("at %d px %s", w, it)
			}
			// The coefficient and bounds tables show every column without sideways
			// scrolling, inside their section (the issue saw columns cut off at 375 px).
			for _, sel := range []string{"#est-summary table", "#bounds-table table"} {
				m := eval[map[string]float64](p, `(() => { const t = document.querySelector(`+fmt.Sprintf("%q", sel)+`);
					const s = t.closest("section").getBoundingClientRect(), b = t.getBoundingClientRect();
					let hidden = 0;
					for (const c of t.querySelectorAll("td, th")) {
						const r = c.getBoundingClientRect();
						if (r.width > 0 && r.right > Math.min(b.right, s.right) + 1) hidden++;
					}
					return { hidden, right: b.right - s.right, scroll: t.scrollWidth - t.clientWidth }; })()`)
				if m["hidden"] > 0 || m["right"] > 1 || m["scroll"] > 1 {
					t.Errorf("at %d px %s: %g cells beyond the visible box, %g px past the section, %g px of sideways scroll",
						w, sel, m["hidden"], m["right"], m["scroll"])
				}
			}
			sizes := eval[map[string]float64](p, tickSizesJS)
			if len(sizes) < 3 {
				t.Errorf("found tick labels in %d plots, want ≥ 3: %v", len(sizes), sizes)
			}
			for id, px := range sizes {
				if px < 10 {
					t.Errorf("at %d px the ticks of %s render at %.1f px, want ≥ 10", w, id, px)
				}
			}
			for _, v := range []string{"estimate", "dimfree", "trace", "bounds", "privacy"} {
				p.shot("#"+v, fmt.Sprintf("layout-%s-%d", v, w))
			}
			// The estimate's CSV mode (issue 29 saw "drop rows with missing cells…"
			// unwrapped at 375 px, the page 410 px wide): a pasted table with long
			// column names and a missing cell, its features and ranges, and the
			// missing-cell error after Run.
			p.setValue("est-data", "csv")
			p.setValue("est-csv", "patient_age_in_years,systolic_blood_pressure_mm_hg,outcome_after_thirty_days\n"+
				"41,120,yes\n57,NaN,no\n63,141,no\n38,118,yes\n")
			p.waitJS(`document.querySelectorAll("#est-features input").length >= 2`, 10*time.Second)
			p.checkFeatures("patient_age_in_years", "systolic_blood_pressure_mm_hg")
			p.click("est-run")
			p.waitJS(`document.getElementById("est-csv-err").textContent !== "" || document.getElementById("est-err").textContent !== ""`, 10*time.Second)
			o = eval[overflow](p, overflowJS)
			if o.Page > 0 {
				t.Errorf("at %d px, with a CSV, the page scrolls sideways by %g px", w, o.Page)
			}
			for _, it := range o.Items {
				t.Errorf("at %d px, with a CSV, %s", w, it)
			}
			p.shot("#estimate", fmt.Sprintf("layout-estimate-csv-%d", w))
			if favicon := eval[string](p, `document.querySelector('link[rel="icon"]')?.href ?? ""`); !strings.HasSuffix(favicon, "/site/favicon.svg") {
				t.Errorf("no favicon link: %q", favicon)
			}
			p.noConsoleErrors()
		})
	}
}

// TestElementAttributeErrors adds elements with bad attributes to the
// embedding page and checks each shows an inline message naming the
// attribute and what it must be, and mounts no section; then a valid element
// added after start-up does mount. Every problem is a console warning, once
// per text, and so is a dp-* tag that is not dpsample's (a misspelling).
// Every attribute elements.js accepts is documented in docs/ELEMENTS.md.
func TestElementAttributeErrors(t *testing.T) {
	p := openPage(t, "/embed.html", 1280, 900)
	p.waitJS(`window.dpsampleUIReady === true && document.querySelector("dp-privacy-curve section[data-built] svg") !== null`, 60*time.Second)
	p.buildAll(30 * time.Second)
	cases := []struct {
		tag, attrs string
		want       []string
	}{
		{"dp-estimate", `dataset="iris"`, []string{`dataset="iris"`, `"penguins", "breast-cancer", "cancer", "csv"`}},
		{"dp-estimate", `loss="ridge"`, []string{`loss="ridge"`, `"l1", "l2dist", "logistic", "hinge", "lad", "quantile", "huber"`}},
		{"dp-estimate", `epsilon="1,5"`, []string{`epsilon="1,5"`, "a finite number > 0"}},
		{"dp-estimate", `samples="0"`, []string{`samples="0"`, "an integer from 1 to 10000"}},
		{"dp-dimension-free", `n="1.5"`, []string{`n="1.5"`, "an integer from 2 to 20000"}},
		{"dp-dimension-free", `rank="4" max-d="2"`, []string{`max-d="2" must be ≥ rank="4"`}},
		{"dp-bounds", `delta="0.5e1"`, []string{`delta="0.5e1"`, "strictly between 0 and 1"}},
		{"dp-bounds", `d="10" rank="50"`, []string{`rank="50" must be ≤ d="10"`}},
		{"dp-trace-attack", `mechanism="laplace"`, []string{`mechanism="laplace"`, `"median", "exponential", "box-exponential", "gaussian"`}},
		{"dp-trace-attack", `n="40"`, []string{`n="40"`, "an integer from 2 to 16"}},
		{"dp-privacy-curve", `epsilon="-2"`, []string{`epsilon="-2"`, "a finite number > 0"}},
		{"dp-privacy-curve", `sigma="2"`, []string{`unknown attribute sigma="2"`, "epsilon, delta, prefix"}},
		{"dp-median", `numbers="1, two, 3"`, []string{`numbers="1, two, 3"`, "2 to 12 numbers separated by commas"}},
		{"dp-median", `numbers="5"`, []string{`numbers="5"`, "2 to 12 numbers"}},
		{"dp-median", `epsilon="9"`, []string{`epsilon="9"`, "a number from 0.1 to 5"}},
		{"dp-median", `delta="0.01"`, []string{`delta="0.01" must be below 1/500`}},
		{"dp-bounds", `epsilonn="2"`, []string{`unknown attribute epsilonn="2"`, "n, d, rank, epsilon, delta, g, radius, prefix"}},
		{"dp-membership", `draws="50"`, []string{`draws="50"`, "an integer from 1000 to 1e6"}},
		{"dp-membership", `broken="yes"`, []string{`broken="yes"`, `one of "0", "1"`}},
	}
	for i, c := range cases {
		id := fmt.Sprintf("bad%d", i)
		js := fmt.Sprintf(`(() => { const h = document.createElement("div"); h.innerHTML = '<%s id="%s" %s></%s>'; document.querySelector("main").append(h); return true })()`, c.tag, id, c.attrs, c.tag)
		eval[bool](p, js)
		p.waitJS(`document.querySelector("#`+id+` .dp-message") !== null`, 5*time.Second)
		msg := p.text("#" + id + " .dp-message")
		for _, w := range c.want {
			if !strings.Contains(msg, w) {
				t.Errorf("<%s %s>: message %q lacks %q", c.tag, c.attrs, msg, w)
			}
		}
		if n := eval[int](p, `document.querySelectorAll("#`+id+` section, #`+id+` select").length`); n != 0 {
			t.Errorf("<%s %s>: %d sections/selects mounted despite the bad attribute", c.tag, c.attrs, n)
		}
	}
	// Each problem is also a console warning, once: the same bad attribute on a
	// second element and a misspelled tag added twice warn once each.
	for _, c := range cases {
		if w := p.warningsWith(c.want[0]); len(w) != 1 {
			t.Errorf("<%s %s>: %d console warnings contain %q, want 1: %q", c.tag, c.attrs, len(w), c.want[0], w)
		}
	}
	eval[bool](p, `(() => { const h = document.createElement("div");
		h.innerHTML = '<dp-bounds id="again" epsilonn="2"></dp-bounds><dp-privacy-curv></dp-privacy-curv><p><dp-privacy-curv epsilon="2"></dp-privacy-curv></p>';
		document.querySelector("main").append(h); return true })()`)
	p.waitJS(`document.querySelector("#again .dp-message") !== null`, 5*time.Second)
	time.Sleep(200 * time.Millisecond) // the mutation observer's callback
	if w := p.warningsWith(`epsilonn="2"`); len(w) != 1 {
		t.Errorf("a second <dp-bounds epsilonn=\"2\">: %d warnings, want still 1: %q", len(w), w)
	}
	if w := p.warningsWith("<dp-privacy-curv>"); len(w) != 1 || !strings.Contains(w[0], "did you mean <dp-privacy-curve>?") {
		t.Errorf("console warnings about <dp-privacy-curv> added twice: %q, want one that suggests <dp-privacy-curve>", w)
	}
	p.shot("#bad0", "element-bad-dataset")
	p.shot("#bad1", "element-bad-loss")
	// A valid element added after start-up mounts and gets its attributes.
	eval[bool](p, `(() => { const h = document.createElement("div"); h.innerHTML = '<dp-estimate id="good" dataset="cancer" epsilon="0.5" prefix="late"></dp-estimate>'; document.querySelector("main").append(h); return true })()`)
	p.waitJS(`document.querySelector("#good section[data-built]") !== null && document.getElementById("late-epsilon") !== null`, 10*time.Second)
	if v := eval[string](p, `document.getElementById("late-epsilon").value + "/" + document.getElementById("late-data").value`); v != "0.5/breast-cancer" { // "cancer" is the old key, still accepted
		t.Errorf("valid late element: epsilon/dataset = %q", v)
	}
	p.noConsoleErrors()

	// Every attribute in elements.js's SCHEMA has a row in docs/ELEMENTS.md.
	doc, err := os.ReadFile(filepath.Join(root, "docs", "ELEMENTS.md"))
	if err != nil {
		t.Fatal(err)
	}
	schema := eval[map[string][]string](p, `import(new URL("site/elements.js", document.baseURI).href).then(m => Object.fromEntries(Object.entries(m.SCHEMA).map(([k, v]) => [k, Object.keys(v.attrs)])))`)
	if len(schema) != 7 {
		t.Errorf("SCHEMA has %d elements, want 7: %v", len(schema), schema)
	}
	for tag, attrs := range schema {
		i := strings.Index(string(doc), "### `<"+tag+">`")
		if i < 0 {
			t.Errorf("docs/ELEMENTS.md has no section for <%s>", tag)
			continue
		}
		sec := string(doc[i+4:])
		if j := strings.Index(sec, "\n### "); j >= 0 {
			sec = sec[:j]
		}
		for _, a := range attrs {
			if a == "prefix" || a == "docs" {
				continue // documented once for all elements
			}
			if !regexp.MustCompile("(?m)^\\| `" + regexp.QuoteMeta(a) + "` \\|").MatchString(sec) {
				t.Errorf("docs/ELEMENTS.md: <%s> lacks a row for %s", tag, a)
			}
		}
	}
}

// TestStartupFailures refuses, in turn, app.js, worker.js and the .wasm and
// checks that the page says what failed instead of waiting forever; on the
// embedding page, each element says so in place.
func TestStartupFailures(t *testing.T) {
	t.Run("worker", func(t *testing.T) {
		p := openPage(t, "/", 1280, 900, "/site/worker.js")
		p.waitJS(`document.getElementById("status").dataset.state === "error"`, 30*time.Second)
		if s := p.text("#status"); !strings.Contains(s, "Could not start dpsample") || !strings.Contains(s, "worker.js") {
			t.Errorf("status with the worker blocked: %q", s)
		}
		p.shot("header", "startup-worker-blocked")
	})
	t.Run("wasm", func(t *testing.T) {
		p := openPage(t, "/", 1280, 900, "/site/dpsample.wasm")
		p.waitJS(`document.getElementById("status").dataset.state === "error"`, 30*time.Second)
		if s := p.text("#status"); !strings.Contains(s, "dpsample.wasm") {
			t.Errorf("status with the module blocked: %q", s)
		}
	})
	t.Run("app", func(t *testing.T) {
		p := openPage(t, "/", 1280, 900, "/site/app.js")
		visible := `getComputedStyle(document.getElementById("status-stuck")).visibility === "visible"`
		time.Sleep(2 * time.Second)
		if eval[bool](p, visible) {
			t.Fatal("the stuck notice shows before its 20 s delay")
		}
		p.waitJS(visible, 30*time.Second)
		if s := p.text("#status-stuck"); !strings.Contains(s, "app.js") {
			t.Errorf("stuck notice: %q", s)
		}
		p.shot("header", "startup-app-blocked")
	})
	t.Run("app-ok", func(t *testing.T) {
		// With app.js running, the notice never shows (the failing half of the check above).
		p := openPage(t, "/", 1280, 900)
		p.waitJS(`document.getElementById("status").dataset.state === "ready"`, 60*time.Second)
		if eval[bool](p, `getComputedStyle(document.getElementById("status-stuck")).visibility === "visible"`) {
			t.Error("stuck notice visible on a working page")
		}
	})
	t.Run("embed-worker", func(t *testing.T) {
		p := openPage(t, "/embed.html", 1280, 900, "/site/worker.js")
		p.waitJS(`document.querySelectorAll(".dp-message[data-kind=boot]").length === 3`, 30*time.Second)
		if s := p.text("dp-bounds .dp-message"); !strings.Contains(s, "worker.js") {
			t.Errorf("element message with the worker blocked: %q", s)
		}
		p.shot("dp-bounds", "startup-embed-worker-blocked")
	})
}

// TestCrossOriginElements loads elements.js from another origin that sends
// CORS headers (the best case for a host that tries it) and checks the
// documented outcome: the worker cannot start (Worker URLs must be
// same-origin), and each element says dpsample could not start.
func TestCrossOriginElements(t *testing.T) {
	site := devserver.Handler(root)
	cdn := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Access-Control-Allow-Origin", "*")
		site.ServeHTTP(w, r)
	}))
	defer cdn.Close()
	host := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, `<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,">
<script type="module" src="%s/site/elements.js"></script></head><body><dp-bounds n="2000"></dp-bounds></body></html>`, cdn.URL)
	}))
	defer host.Close()
	p := newPage(t, "/site/favicon.svg")
	p.do(chromedp.Navigate(host.URL + "/"))
	p.waitJS(`document.querySelector("dp-bounds .dp-message[data-kind=boot]") !== null`, 60*time.Second)
	s := p.text("dp-bounds .dp-message")
	if !strings.Contains(s, "Could not start dpsample") || !strings.Contains(strings.ToLower(s), "worker") {
		t.Errorf("cross-origin element message: %q", s)
	}
	t.Logf("cross-origin message: %s", s)
	p.screenshot("cross-origin-elements")
}

// textClashJS lists, for every figure in the sections, the text labels that
// leave their figure's SVG or overlap another label (rendered bounding
// boxes, 1 px of slack), and the rule labels that cross a drawn line.
const textClashJS = `(() => {
  const out = [];
  const meet = (a, b) => a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 && b.top < a.bottom - 1;
  for (const svg of document.querySelectorAll("section[data-view] figure svg")) {
    const fig = svg.closest("figure"), name = fig.id || svg.closest("section").dataset.view, r = svg.getBoundingClientRect();
    if (r.width === 0) continue;
    const ts = [...svg.querySelectorAll("text")].map(t => ({ t, s: t.textContent.trim(), b: t.getBoundingClientRect() })).filter(x => x.s !== "" && x.b.width > 0);
    for (let i = 0; i < ts.length; i++) {
      const a = ts[i];
      if (a.b.left < r.left - 1 || a.b.right > r.right + 1 || a.b.top < r.top - 1 || a.b.bottom > r.bottom + 1)
        out.push(name + ": " + JSON.stringify(a.s) + " leaves the figure");
      for (let j = i + 1; j < ts.length; j++) if (meet(a.b, ts[j].b)) out.push(name + ": " + JSON.stringify(a.s) + " overlaps " + JSON.stringify(ts[j].s));
      if (!a.t.classList.contains("rulelabel")) continue;
      const m = svg.getScreenCTM();
      for (const pl of svg.querySelectorAll("polyline")) {
        const pts = [...pl.points].map(p => new DOMPoint(p.x, p.y).matrixTransform(m));
        for (let k = 1; k < pts.length; k++) {
          const p0 = pts[k - 1], p1 = pts[k];
          let hit = false;
          for (let u = 0; u <= 1 && !hit; u += 0.05) {
            const x = p0.x + u * (p1.x - p0.x), y = p0.y + u * (p1.y - p0.y);
            hit = x > a.b.left + 1 && x < a.b.right - 1 && y > a.b.top + 1 && y < a.b.bottom - 1;
          }
          if (hit) { out.push(name + ": rule label " + JSON.stringify(a.s) + " crosses a line"); break; }
        }
      }
    }
  }
  return out.slice(0, 20);
})()`

// cutSelectsJS lists the estimate's menus whose chosen option does not fit
// (its text measured in the select's font, plus room for the arrow).
const cutSelectsJS = `(() => {
  const c = document.createElement("canvas").getContext("2d"), out = [];
  for (const s of document.querySelectorAll("#estimate select")) {
    const st = getComputedStyle(s);
    c.font = st.font;
    const need = c.measureText(s.options[s.selectedIndex]?.text ?? "").width + 28;
    if (s.clientWidth > 0 && need > s.clientWidth) out.push(s.id + ": " + Math.round(need) + " px of text in " + s.clientWidth);
  }
  return out;
})()`

// TestEstimateFiguresLayout (issue 23) draws the estimate's figures at 375
// and 1280 px — the centre over the rows, a one-feature regression, breast
// cancer's 30 coefficients — and checks that every text label stays inside
// its figure and overlaps no other, that no rule label crosses a line (the
// privacy curve's "target δ" sat on the dashed curve), that the menus show
// their choice whole, that the private centre is drawn large and outlined,
// and that nothing overflows the page.
func TestEstimateFiguresLayout(t *testing.T) {
	for _, w := range []int64{375, 1280} {
		t.Run(fmt.Sprint(w), func(t *testing.T) {
			p := openPage(t, "/", w, 900)
			p.waitJS(`window.dpsampleUIReady === true`, 60*time.Second)
			p.buildAll(30 * time.Second)
			if s := p.text("#est-excess") + p.text("#est-statement"); s != "" {
				t.Errorf("result boxes filled before any run: %q", s)
			}
			if n := eval[int](p, `[...document.querySelectorAll("#estimate .excess, #estimate .statement")].filter(e => e.getBoundingClientRect().height > 0).length`); n != 0 {
				t.Errorf("%d empty coloured boxes under Run before any result", n)
			}
			for _, s := range eval[[]string](p, cutSelectsJS) {
				t.Errorf("at %d px a menu is cut: %s", w, s)
			}
			check := func(what string) {
				t.Helper()
				for _, s := range eval[[]string](p, textClashJS) {
					t.Errorf("at %d px, %s: %s", w, what, s)
				}
				o := eval[overflow](p, overflowJS)
				if o.Page > 0 {
					t.Errorf("at %d px, %s: the page scrolls sideways by %g px", w, what, o.Page)
				}
				for _, it := range o.Items {
					t.Errorf("at %d px, %s: %s", w, what, it)
				}
			}
			// The centre over the rows: one sample, large and outlined.
			p.runEstimate()
			if r := eval[string](p, `(() => { const c = [...document.querySelectorAll("#est-plot svg g[clip-path] circle")].pop(); return c.getAttribute("r") + " " + c.getAttribute("stroke"); })()`); r != "7 #000" {
				t.Errorf("the private centre is drawn as %q, want r = 7 outlined", r)
			}
			if s := p.text("#est-plot figcaption"); !strings.Contains(s, "Not private — for your eyes only") {
				t.Errorf("centre figure caption %q", s)
			}
			check("the centre")
			p.shot("#estimate", fmt.Sprintf("estimate-centre-%d", w))
			// A regression on one feature: the rows and both lines.
			p.setValue("est-loss", "huber")
			p.checkFeatures("flipper_length_mm")
			p.runEstimate()
			if n := eval[int](p, `document.querySelectorAll("#est-plot svg polyline").length`); n < 2 {
				t.Errorf("regression plot has %d lines, want the private and the non-private", n)
			}
			if n := eval[int](p, `document.querySelectorAll("#est-plot svg g[clip-path] circle").length`); n < 300 {
				t.Errorf("regression plot shows %d rows", n)
			}
			check("the regression")
			p.shot("#est-plot", fmt.Sprintf("estimate-regression-%d", w))
			// Breast cancer, all 30 features: the names as tick labels.
			p.setValue("est-data", "breast-cancer")
			p.waitJS(`document.querySelectorAll("#est-features input").length === 30`, 20*time.Second)
			eval[bool](p, `(() => { document.querySelectorAll("#est-features input").forEach(c => c.checked = true);
				document.getElementById("est-features").dispatchEvent(new Event("change", {bubbles: true})); return true })()`)
			p.runEstimate()
			names := eval[[]string](p, `[...document.querySelectorAll("#est-plot svg text.category")].map(t => t.textContent)`)
			cols := eval[[]string](p, `[...document.querySelectorAll("#est-summary > table.coef tr")].slice(1, -1).map(r => r.cells[0].textContent)`)
			if len(names) != 30 || strings.Join(names, ",") != strings.Join(cols, ",") {
				t.Errorf("tick labels %q, want the 30 column names %q", names, cols)
			}
			check("breast cancer's coefficients")
			p.shot("#est-plot", fmt.Sprintf("estimate-coefficients-%d", w))
			// The privacy curve's labels.
			p.waitJS(`document.querySelector("#privacy-plot svg") !== null`, 5*time.Second)
			for _, s := range eval[[]string](p, textClashJS) {
				if strings.HasPrefix(s, "privacy-plot") || strings.HasPrefix(s, "trace-dichotomy") {
					t.Errorf("at %d px: %s", w, s)
				}
			}
			p.noConsoleErrors()
		})
	}
}
