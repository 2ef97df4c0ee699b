//go:build !js

package e2e

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/dpsample/dpsample/core/fingerprint"
)

// shot writes a PNG of one element to wasm/tools/e2e/screenshots/name.png.
func (p *page) shot(sel, name string) {
	p.t.Helper()
	png, err := chromedp.Run(p.ctx, chromedp.Screenshot(chromedp.CSS(sel)))
	if err != nil {
		p.t.Fatalf("screenshot of %s: %v", sel, err)
	}
	dir := filepath.Join(root, "wasm", "tools", "e2e", "screenshots")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		p.t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, name+".png"), png, 0o644); err != nil {
		p.t.Fatal(err)
	}
}

// setRange moves a range input to value and fires its input event, as a drag would.
func (p *page) setRange(id string, value float64) {
	p.t.Helper()
	eval[bool](p, `(() => { const e = document.getElementById(`+strconv.Quote(id)+`); e.value = "`+
		strconv.FormatFloat(value, 'g', -1, 64)+`"; e.dispatchEvent(new Event("input", {bubbles: true})); return true })()`)
}

// selectValue chooses an option of a <select> and fires change.
func (p *page) selectValue(id, value string) {
	p.t.Helper()
	eval[bool](p, `(() => { const e = document.getElementById(`+strconv.Quote(id)+`); e.value = `+strconv.Quote(value)+
		`; e.dispatchEvent(new Event("change", {bubbles: true})); return true })()`)
}

func attrInt(p *page, sel, name string) int {
	p.t.Helper()
	return eval[int](p, `+document.querySelector(`+strconv.Quote(sel)+`).getAttribute(`+strconv.Quote(name)+`)`)
}

func attrFloat(p *page, sel, name string) float64 {
	p.t.Helper()
	return eval[float64](p, `+document.querySelector(`+strconv.Quote(sel)+`).getAttribute(`+strconv.Quote(name)+`)`)
}

// impliedWithinClaim reports whether the shown lower confidence bound of the
// attack-implied ε is at most the claimed ε (which may be Infinity).
func impliedWithinClaim(p *page) bool {
	p.t.Helper()
	return eval[bool](p, `(() => { const e = document.getElementById("trace-implied"); return +e.dataset.lower <= +e.dataset.claimed })()`)
}

// walk waits for the walk-through trial started after walk-through number `after`.
func (p *page) walk(after int) int {
	p.t.Helper()
	p.waitJS(`(() => { const r = document.getElementById("trace"); return r.dataset.walk === "done" && +r.dataset.walkN > `+
		strconv.Itoa(after)+` })()`, 60*time.Second)
	return attrInt(p, "#trace", "data-walk-n")
}

// soundness runs the soundness stage for `trials` trials and returns
// (trials, traced, member accused, removed accused).
func (p *page) soundness(trials int) (n, traced, member, removed int) {
	p.t.Helper()
	p.typeInto("trace-trials", strconv.Itoa(trials))
	p.do(chromedp.Click(chromedp.ID("trace-sound-run")))
	p.waitJS(`document.getElementById("trace").dataset.sound === "done"`, 90*time.Second)
	r := "#trace-sound-rates"
	return attrInt(p, r, "data-trials"), attrInt(p, r, "data-traced"), attrInt(p, r, "data-member"), attrInt(p, r, "data-removed")
}

// TestTraceAttack drives the lower-bound view through its stages with the
// defaults (n = 4, ξ = 1/16, proven length): the median is traced in every
// trial, the removed person is accused at a rate ≤ ξ, the ε and s sliders
// move excess/D monotonically, the implied ε stays below the claimed ε, and
// the page never logs an error.
func TestTraceAttack(t *testing.T) {
	p := newPage(t, "/")
	p.waitJS(`window.dpsampleUIReady === true`, 30*time.Second)
	p.buildAll(30 * time.Second)
	eval[bool](p, `(document.getElementById("trace").dataset.verify = "1", true)`)
	last := p.walk(0)

	// Stage 1: the defaults and the lengths of §5 for n = 4, ξ = 1/16.
	want, err := fingerprint.Compute(fingerprint.Params{N: 4, Xi: 1.0 / 16})
	if err != nil {
		t.Fatal(err)
	}
	if got := attrInt(p, "#trace-lengths", "data-d"); got != want.Length {
		t.Errorf("D = %d, want %d", got, want.Length)
	}
	if eval[bool](p, `document.getElementById("trace-practical-banner").hidden`) == false {
		t.Error("practical-length banner shown in proven mode")
	}
	if !eval[bool](p, `document.getElementById("trace-xi-warning").hidden`) {
		t.Error("ξ warning shown at the default ξ = 1/(4n)")
	}
	p.shot("#trace-stage-setup", "trace-1-setup")

	// Stage 2: the permutation the page rebuilt agrees with the public column counts.
	p.do(chromedp.Click(chromedp.ID("trace-reveal")))
	p.waitJS(`document.getElementById("trace-codebook").dataset.revealed === "true"`, 5*time.Second)
	if !eval[bool](p, `document.getElementById("trace-codebook").dataset.permOk === "true"`) {
		t.Error("the rebuilt permutation disagrees with the codebook")
	}
	p.shot("#trace-stage-data", "trace-2-codebook")

	// Stage 3–4 with the median: zero excess, traced, and the window shows the worker's θ.
	if ex := attrFloat(p, "#trace-excess", "data-value"); ex != 0 {
		t.Errorf("median excess/D = %g, want 0", ex)
	}
	if !eval[bool](p, `document.getElementById("trace-output").dataset.verified === "true"`) {
		t.Error("median: the θ window does not reproduce the worker's trial")
	}
	if a := attrInt(p, "#trace-accused", "data-accused"); a < 1 {
		t.Errorf("median: accused set has %d members, want ≥ 1", a)
	}
	p.shot("#trace-stage-mechanism", "trace-3-median-output")
	p.shot("#trace-stage-trace", "trace-4-median-scores")

	// Stage 6 with the median: traced every time, the removed person ≤ ξ.
	n, traced, member, removed := p.soundness(100)
	xi := attrFloat(p, "#trace-sound-rates", "data-xi")
	t.Logf("median, %d trials: traced %d, person 1 accused in %d, after removal %d (ξ = %g)", n, traced, member, removed, xi)
	if n != 100 || traced != n {
		t.Errorf("median: traced in %d of %d trials, want all", traced, n)
	}
	if float64(removed)/float64(n) > xi {
		t.Errorf("median: removed person accused in %d of %d trials, above ξ = %g", removed, n, xi)
	}
	if !impliedWithinClaim(p) {
		t.Errorf("median: implied ε lower bound %g above the claimed ε", attrFloat(p, "#trace-implied", "data-lower"))
	}
	p.shot("#trace-stage-soundness", "trace-6-median-soundness")

	// Stage 3 with the box exponential mechanism: the s slider moves excess/D monotonically.
	p.selectValue("trace-mech", "box-exponential")
	var prev float64 = 2
	for _, s := range []float64{-2, -0.5, 0.5, 1.5, 2.5} {
		p.setRange("trace-s", s)
		last = p.walk(last)
		ex := attrFloat(p, "#trace-excess", "data-value")
		t.Logf("box-exponential s = 10^%g: excess/D = %.4g", s, ex)
		if !(ex < prev) {
			t.Errorf("s = 10^%g: excess/D = %g, not below %g at the previous s", s, ex, prev)
		}
		if !eval[bool](p, `document.getElementById("trace-output").dataset.verified === "true"`) {
			t.Errorf("box-exponential s = 10^%g: the θ window does not reproduce the worker's trial", s)
		}
		prev = ex
	}
	p.shot("#trace-stage-mechanism", "trace-3-box-accurate-output")

	// The Gaussian baseline and Algorithm 1 along the ε slider.
	// Algorithm 1 (default η rule) leaves the ridge-dominated regime once ε is of order D/N², and at
	// ε = 10⁹ it is accurate (excess/D < 1/150) and therefore traced (Lemma G.2).
	for _, mech := range []string{"gaussian", "exponential"} {
		p.selectValue("trace-mech", mech)
		prev = 2
		steps := map[string][]float64{"gaussian": {0, 2, 4, 6}, "exponential": {-1, 3, 6, 9}}[mech]
		for _, e := range steps {
			p.setRange("trace-eps", e)
			last = p.walk(last)
			ex := attrFloat(p, "#trace-excess", "data-value")
			t.Logf("%s ε = 10^%g: excess/D = %.4g", mech, e, ex)
			if !(ex < prev) {
				t.Errorf("%s ε = 10^%g: excess/D = %g, not below %g", mech, e, ex, prev)
			}
			if !eval[bool](p, `document.getElementById("trace-output").dataset.verified === "true"`) {
				t.Errorf("%s ε = 10^%g: the θ window does not reproduce the worker's trial", mech, e)
			}
			prev = ex
			if mech == "exponential" && e == 9 {
				if ex > 1.0/150 {
					t.Errorf("Algorithm 1 at ε = 10⁹: excess/D = %g, not accurate", ex)
				}
				// The walk-through trial is seeded, so this is deterministic; Lemma G.2 bounds its failure by ξ.
				if a := attrInt(p, "#trace-accused", "data-accused"); a < 1 {
					t.Errorf("Algorithm 1 at ε = 10⁹ is accurate but nobody was accused")
				}
				p.shot("#trace-stage-mechanism", "trace-3-alg1-accurate-output")
				p.shot("#trace-stage-trace", "trace-4-alg1-accurate-scores")
			}
			if mech == "gaussian" && e == 2 {
				p.shot("#trace-stage-trace", "trace-4-gaussian-eps100-scores")
			}
		}
	}
	p.setRange("trace-eps", 0)
	last = p.walk(last)
	p.shot("#trace-stage-mechanism", "trace-3-alg1-output")
	p.shot("#trace-stage-trace", "trace-4-alg1-scores")

	// Stage 6 with Algorithm 1 at ε = 1: the implied ε never exceeds the claim.
	n, traced, member, removed = p.soundness(40)
	lo := attrFloat(p, "#trace-implied", "data-lower")
	t.Logf("Algorithm 1 ε = 1, %d trials: traced %d, member %d, removed %d; implied ε ≥ %g; %s", n, traced, member, removed, lo, p.text("#trace-implied"))
	if !impliedWithinClaim(p) {
		t.Errorf("Algorithm 1: implied ε lower bound %g exceeds the claimed ε", lo)
	}

	// Stage 5: a sweep of the box mechanism fills the dichotomy plane; the accurate-but-untraced corner stays empty.
	p.selectValue("trace-mech", "box-exponential")
	last = p.walk(last)
	p.do(chromedp.Click(chromedp.ID("trace-sweep")))
	p.waitJS(`document.getElementById("trace").dataset.sweep === "done"`, 90*time.Second)
	acc, corner := attrInt(p, "#trace-corner", "data-accurate"), attrInt(p, "#trace-corner", "data-accurate-untraced")
	t.Logf("dichotomy: %d trials, %d accurate, %d accurate but untraced", attrInt(p, "#trace-corner", "data-trials"), acc, corner)
	if acc == 0 || corner != 0 {
		t.Errorf("dichotomy: %d accurate trials, %d of them untraced; want some accurate and none untraced", acc, corner)
	}
	p.shot("#trace-stage-dichotomy", "trace-5-dichotomy")

	// Group privacy: k = 2 copies of each row; the page still rebuilds the worker's trial.
	p.typeInto("trace-k", "2")
	last = p.walk(last)
	if !eval[bool](p, `document.getElementById("trace-output").dataset.verified === "true"`) {
		t.Error("k = 2: the θ window does not reproduce the worker's trial")
	}
	p.typeInto("trace-k", "1")
	last = p.walk(last)

	// Practical mode shows its banner; a too-large ξ shows the warning.
	p.selectValue("trace-mode", "symmetric")
	p.waitJS(`!document.getElementById("trace-practical-banner").hidden`, 5*time.Second)
	p.typeInto("trace-xi", "0.2")
	p.waitJS(`!document.getElementById("trace-xi-warning").hidden`, 5*time.Second)
	p.walk(last)
	if !eval[bool](p, `document.getElementById("trace-output").dataset.verified === "true" && document.getElementById("trace-codebook").dataset.permOk === "true"`) {
		t.Error("practical mode: the page does not reproduce the worker's trial")
	}
	p.shot("#trace-stage-setup", "trace-1-practical-warning")
	p.shot("#trace-stage-slips", "trace-7-slips")

	// On a 360 px phone the strips show fewer columns and the plots are redrawn at 1:1.
	p.do(chromedp.EmulateViewport(360, 800))
	p.waitJS(`document.querySelector("#trace-scores svg").viewBox.baseVal.width < 400 && document.querySelector("#trace-output svg").viewBox.baseVal.width <= 360`, 5*time.Second)
	p.shot("#trace-stage-mechanism", "trace-3-360")
	p.shot("#trace-stage-trace", "trace-4-360")
	p.do(chromedp.EmulateViewport(1100, 900))
	p.noConsoleErrors()
}

// TestTraceElement embeds the view as <dp-trace-attack> with attributes on
// the embedding example page: the attributes become the controls' initial
// values and the walk-through trial runs with them.
func TestTraceElement(t *testing.T) {
	p := newPage(t, "/embed.html")
	p.waitJS(`window.dpsampleUIReady === true`, 30*time.Second)
	p.buildAll(30 * time.Second)
	eval[bool](p, `(() => { const e = document.createElement("dp-trace-attack");
		e.setAttribute("n", "3"); e.setAttribute("mechanism", "box-exponential"); e.setAttribute("s", "100");
		document.querySelector("main").append(e); return true })()`)
	p.waitJS(`(() => { const s = document.querySelector("dp-trace-attack section"); return s && s.dataset.walk === "done" })()`, 30*time.Second)
	if got := eval[string](p, `document.getElementById("trace-n").value + " " + document.getElementById("trace-xi").value + " " + document.getElementById("trace-mech").value + " " + document.getElementById("trace-s").value`); got != "3 0.08333 box-exponential 2" {
		t.Errorf("controls after the element's attributes = %q, want n = 3, ξ = 1/(4n), box-exponential, log10 s = 2", got)
	}
	if !strings.HasPrefix(p.text("#trace-s-out"), "s = 100 ") {
		t.Errorf("s output = %q", p.text("#trace-s-out"))
	}
	if a := attrInt(p, "#trace-accused", "data-accused"); a < 1 {
		t.Errorf("box exponential at s = 100: accused set has %d members, want ≥ 1", a)
	}
	p.shot("dp-trace-attack", "trace-element")
	p.noConsoleErrors()
}
