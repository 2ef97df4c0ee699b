//go:build !js

package e2e

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// setRange sets an <input type="range"> and fires its input event, as a drag does.
func setRange(p *page, id string, v float64) {
	eval[bool](p, fmt.Sprintf(`(() => { const e = document.getElementById(%q); e.value = %q; e.dispatchEvent(new Event("input", { bubbles: true })); return true })()`, id, fmt.Sprint(v)))
}

// TestMedianElement (issue 32): <dp-median> on lesson.html at 375 and
// 1280 px draws the two curves and the ratio, Draw adds a histogram of 200
// private draws over them, the ε and n sliders and a dragged number redraw
// the curves (and drop the former draws), and the summary bounds the ratio
// by e^ε or gives the pair's excess below δ. No overflow, ticks ≥ 10 px, no
// console error.
func TestMedianElement(t *testing.T) {
	for _, w := range []int64{375, 1280} {
		t.Run(fmt.Sprint(w), func(t *testing.T) {
			p := openPage(t, "/lesson.html", w, 900)
			p.waitJS(`window.dpsampleUIReady === true && document.querySelector("#median-plot svg") !== null`, 60*time.Second)
			st := eval[map[string]any](p, `(() => ({
			  sliders: document.querySelectorAll("#median-drag input[type=range]").length,
			  n: document.getElementById("median-n").value,
			  rows: document.getElementById("median-moved").options.length,
			  ratio: document.querySelector("#median-ratio svg") !== null,
			  summary: document.getElementById("median-summary").textContent,
			  paper: [...document.querySelectorAll("#median-notes a")].some(a => a.href.startsWith("https://arxiv.org/abs/2105.13637")),
			}))()`)
			if st["sliders"].(float64) != 7 || st["n"].(string) != "7" || st["rows"].(float64) != 7 || !st["ratio"].(bool) || !st["paper"].(bool) {
				t.Errorf("start: %v; want 7 number sliders, n = 7, 7 rows to move, the ratio plot and a note linking the paper", st)
			}
			// At n = 7, ε = 1 over ±10, number 7 moved to −10: the log ratio
			// stays below ε (|ln ratio| ≤ 4a·10 = 2√2·s ≈ 0.76), and the summary says so.
			if s := st["summary"].(string); !strings.Contains(s, "n = 7 rows and ε = 1") || !strings.Contains(s, "within e^ε") {
				t.Errorf("summary %q", s)
			}
			bars := `document.querySelectorAll("#median-plot svg rect[fill-opacity='0.8']").length`
			if n := eval[int](p, bars); n != 0 {
				t.Errorf("%d histogram bars before any draw", n)
			}
			p.do(chromedp.Click(chromedp.ID("median-draw")))
			p.waitJS(`document.getElementById("median-count").textContent.startsWith("200 draws")`, 5*time.Second)
			if n := eval[int](p, bars); n < 5 {
				t.Errorf("after Draw: %d histogram bars, want the 200 draws spread over ≥ 5 of 40 bins", n)
			}
			if !strings.Contains(p.text("#median-plot svg"), "200 private draws (histogram)") {
				t.Error("the legend does not name the histogram of 200 private draws")
			}
			p.shot("dp-median", fmt.Sprintf("median-draws-%d", w))
			before := eval[string](p, `document.querySelector("#median-plot svg polyline").getAttribute("points")`)
			// A smaller ε: the curves change and the former draws go.
			setRange(p, "median-epsilon", 0.3)
			if eval[string](p, `document.querySelector("#median-plot svg polyline").getAttribute("points")`) == before {
				t.Error("ε = 0.3 left the curve unchanged")
			}
			if c := p.text("#median-count"); c != "no draws yet" {
				t.Errorf("after changing ε the count says %q; the draws of the former law must go", c)
			}
			if s := p.text("#median-summary"); !strings.Contains(s, "ε = 0.3") {
				t.Errorf("summary at ε = 0.3: %q", s)
			}
			// More rows.
			setRange(p, "median-epsilon", 1)
			setRange(p, "median-n", 300)
			if s := p.text("#median-summary"); !strings.Contains(s, "n = 300 rows") {
				t.Errorf("summary at n = 300: %q", s)
			}
			// Dragging number 1 rewrites the typed list.
			setRange(p, "median-x1", -4.5)
			if v := eval[string](p, `document.getElementById("median-numbers").value`); !strings.HasPrefix(v, "-4.5, 2, 3") {
				t.Errorf("after dragging number 1 to −4.5 the list reads %q", v)
			}
			// Typing four numbers: four sliders, n follows.
			p.typeInto("median-numbers", "1, 2, 9, 9.5")
			p.waitJS(`document.querySelectorAll("#median-drag input[type=range]").length === 4 && document.getElementById("median-n").value === "4"`, 5*time.Second)
			p.typeInto("median-numbers", "1, x")
			p.waitJS(`document.getElementById("median-numbers").getAttribute("aria-invalid") === "true" && document.querySelector("#median-plot svg") === null`, 5*time.Second)
			p.typeInto("median-numbers", "1, 2, 3, 3.5, 5, 7, 8")
			p.waitJS(`document.querySelector("#median-plot svg") !== null`, 5*time.Second)
			o := eval[overflow](p, overflowJS)
			if o.Page > 0 || len(o.Items) > 0 {
				t.Errorf("at %d px: page overflow %v px, items %v", w, o.Page, o.Items)
			}
			for fig, px := range eval[map[string]float64](p, tickSizesJS) {
				if strings.HasPrefix(fig, "median") && px < 10 {
					t.Errorf("at %d px the ticks of %s render at %.1f px", w, fig, px)
				}
			}
			p.noConsoleErrors()
		})
	}
}

// TestBoundsConditions (issue 32): <dp-bounds> at its lesson defaults
// (n = 2000, d = 500, k = 3) names every line's setting in the figure's
// legend, draws the full-rank bounds at k = d beside Theorem 2.2 at full rank,
// says in the table which rows apply (Theorem 3.7 does not at k = 3 < d:
// its instance has full rank), and no applying lower bound of Theorem 2.2's
// setting exceeds it. At 375 and 1280 px.
func TestBoundsConditions(t *testing.T) {
	for _, w := range []int64{375, 1280} {
		t.Run(fmt.Sprint(w), func(t *testing.T) {
			p := openPage(t, "/lesson.html", w, 900)
			p.waitJS(`window.dpsampleUIReady === true`, 60*time.Second)
			p.buildAll(30 * time.Second)
			p.waitJS(`document.querySelector("#bounds-plot svg") !== null`, 10*time.Second)
			legend := p.text("#bounds-plot svg")
			for _, want := range []string{"constrained, any rank", "full rank (drawn at k = d)", "unconstrained, rank k = 3", "Thm 2.2 at full rank (k = d): unconstrained"} {
				if !strings.Contains(legend, want) {
					t.Errorf("the figure does not say %q: %q", want, legend)
				}
			}
			// The lesson's parameters lie inside Theorem 2.2's conditions (ε, δ < 1/2),
			// so its row applies (issue 45), and no pure-DP (δ = 0) row does.
			if eps := eval[string](p, `document.getElementById("bounds-epsilon").value`); eps != "0.25" {
				t.Errorf("the lesson's ε = %q, want 0.25 (inside ε < 1/2)", eps)
			}
			rows := boundsRows(t, p)
			var upper float64
			for _, r := range rows {
				if strings.HasPrefix(r["source"], "Lee–Liu–Lu (Theorem 2.2)") {
					fmt.Sscan(r["value"], &upper)
					if !strings.HasPrefix(r["applies here?"], "yes") {
						t.Errorf("Theorem 2.2 at the lesson's parameters: applies %q, want yes", r["applies here?"])
					}
				}
			}
			for _, r := range rows {
				a := r["applies here?"]
				if a == "" || r["rank"] == "" {
					t.Errorf("row %q: rank %q, applies %q", r["source"], r["rank"], a)
				}
				if strings.HasPrefix(r["source"], "Lee–Liu–Lu (Theorem 3.7)") && (!strings.HasPrefix(a, "no:") || !strings.Contains(a, "full rank")) {
					t.Errorf("Theorem 3.7 at k = 3 < d = 500: applies %q, want no (full rank)", a)
				}
			}
			noneAbove(t, rows, upper)
			// The lesson's question: at k = d, Theorem 3.7 applies and meets
			// Theorem 2.2 (both √(d·ln(1/δ))/(nε) with constants 1), and the pure
			// row's d/(nε), larger, is marked as not applying.
			p.typeInto("bounds-rank", "500")
			p.waitJS(`[...document.querySelectorAll("#bounds-table tr")].some(tr => tr.cells[0].textContent.includes("Theorem 3.7") && tr.querySelector("[data-label='applies here?']").textContent.startsWith("yes"))`, 5*time.Second)
			rows = boundsRows(t, p)
			var t37 float64
			for _, r := range rows {
				switch {
				case strings.HasPrefix(r["source"], "Lee–Liu–Lu (Theorem 2.2)"):
					fmt.Sscan(r["value"], &upper)
				case strings.HasPrefix(r["source"], "Lee–Liu–Lu (Theorem 3.7)"):
					fmt.Sscan(r["value"], &t37)
				}
			}
			if upper <= 0 || t37 != upper {
				t.Errorf("at k = d = 500: Theorem 3.7 = %g, Theorem 2.2 = %g; want them to meet", t37, upper)
			}
			noneAbove(t, rows, upper)
			// Scroll first and let the page settle: the element's box is taken before the shot scrolls.
			eval[bool](p, `(() => { document.getElementById("bounds-plot").scrollIntoView({ block: "start" }); return true })()`)
			time.Sleep(500 * time.Millisecond)
			p.shot("#bounds-plot", fmt.Sprintf("bounds-defaults-plot-%d", w))
			p.shot("#bounds-table", fmt.Sprintf("bounds-defaults-table-%d", w))
			o := eval[overflow](p, overflowJS)
			if o.Page > 0 || len(o.Items) > 0 {
				t.Errorf("at %d px: page overflow %v px, items %v", w, o.Page, o.Items)
			}
			p.noConsoleErrors()
		})
	}
}

// TestLessonPage (issue 32): lesson.html builds its five elements in
// order at 375 and 1280 px, links the paper, and fits the screen.
func TestLessonPage(t *testing.T) {
	for _, w := range []int64{375, 1280} {
		t.Run(fmt.Sprint(w), func(t *testing.T) {
			p := openPage(t, "/lesson.html", w, 900)
			p.waitJS(`window.dpsampleUIReady === true`, 60*time.Second)
			p.buildAll(40 * time.Second)
			order := eval[string](p, `[...document.querySelectorAll("main > :is(dp-median, dp-privacy-curve, dp-dimension-free, dp-trace-attack, dp-bounds)")].map(e => e.localName + (e.querySelector(":scope > section[data-built]") ? "" : "(unbuilt)")).join(" ")`)
			if order != "dp-median dp-privacy-curve dp-dimension-free dp-trace-attack dp-bounds" {
				t.Errorf("lesson elements: %q", order)
			}
			if n := eval[int](p, `document.querySelectorAll("main h2").length`); n < 6 {
				t.Errorf("%d headings: want five steps and the questions", n)
			}
			o := eval[overflow](p, overflowJS)
			if o.Page > 0 || len(o.Items) > 0 {
				t.Errorf("at %d px: page overflow %v px, items %v", w, o.Page, o.Items)
			}
			// Plain words in the teaching elements' main text: lemma and
			// definition numbers and the paper's corrections are in notes
			// (<details>), which hold them.
			mainText := eval[string](p, `[...document.querySelectorAll("dp-median section, dp-privacy-curve section, dp-trace-attack section, dp-bounds section")]
			  .map(s => { const c = s.cloneNode(true); c.querySelectorAll("details, svg, table, ol.notes").forEach(d => d.remove()); return c.textContent; }).join(" ")`)
			for _, bad := range []string{"Lemma", "Definition G", "Proposition C", "Appendix G", "ours)", "typo"} {
				if i := strings.Index(mainText, bad); i >= 0 {
					t.Errorf("main text names %q: …%s…", bad, mainText[max(0, i-80):min(len(mainText), i+80)])
				}
			}
			notes := eval[string](p, `[...document.querySelectorAll("dp-median details, dp-privacy-curve details, dp-trace-attack details")].map(d => d.textContent).join(" ")`)
			for _, want := range []string{"Lemma G.2", "Definition G.1", "Lemma E.1", "arXiv 2105.13637", "Lemma 3.6"} {
				if !strings.Contains(notes, want) {
					t.Errorf("the notes lack %q", want)
				}
			}
			if s := p.text("#bounds-table table"); strings.Contains(s, "ours") {
				t.Error("the bounds table still says \"ours\"")
			}
			p.screenshot(fmt.Sprintf("lesson-%d", w))
			p.shot("header", fmt.Sprintf("lesson-header-%d", w))
			p.noConsoleErrors()
		})
	}
}

// boundsRows reads #bounds-table's rows as column name → cell text.
func boundsRows(t *testing.T, p *page) []map[string]string {
	t.Helper()
	rows := eval[[]map[string]string](p, `[...document.querySelectorAll("#bounds-table table tr")].slice(1).map(tr =>
	  Object.fromEntries([...tr.cells].map(td => [td.dataset.label, td.textContent])))`)
	if len(rows) != 9 {
		t.Fatalf("%d rows, want 9", len(rows))
	}
	return rows
}

// noneAbove: no lower bound marked as applying in Theorem 2.2's setting
// (not constrained-only, not ℓ1) lies above its upper bound, pure or
// approximate; and every pure-DP row (δ = 0) says it does not apply at δ > 0.
func noneAbove(t *testing.T, rows []map[string]string, upper float64) {
	t.Helper()
	for _, r := range rows {
		a := r["applies here?"]
		if r["privacy"] == "pure" && (!strings.HasPrefix(a, "no:") || !strings.Contains(a, "δ > 0")) {
			t.Errorf("pure-DP row %s: applies %q, want no (δ > 0)", r["source"], a)
		}
		var v float64
		fmt.Sscan(r["value"], &v)
		if r["kind"] == "lower" && strings.HasPrefix(a, "yes") && !strings.HasPrefix(r["setting"], "constrained") &&
			!strings.Contains(r["setting"], "p=1") && v > upper {
			t.Errorf("%s (%s) = %g sits above Theorem 2.2's %g in its setting", r["source"], a, v, upper)
		}
	}
}
