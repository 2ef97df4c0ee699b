//go:build !js

package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"
)

// rows100kTextCSV is JavaScript that builds a 100,000-row table of 8 numeric
// columns (3 decimals), 2 text columns (region: 4 labels; plan: 3 labels, 50
// / 30 / 20 %) and a 0/1 label drawn from a logistic model on three numbers
// and the region: about 6 MB, the table of issue 55's report. A fixed LCG
// makes it the same table every time.
const rows100kTextCSV = `(() => {
	let s = 55055; const u = () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 4294967296;
	const regions = ["north", "south", "east", "west"], effect = [0.8, -0.4, 0, 0.3];
	const head = ["x1","x2","x3","x4","x5","x6","x7","x8","region","plan","label"], out = [head.join(",")];
	for (let i = 0; i < 100000; i++) {
		const x = []; for (let j = 0; j < 8; j++) x.push((20*u() - 10).toFixed(3));
		const r = Math.floor(4*u()), q = u(), plan = q < 0.5 ? "basic" : q < 0.8 ? "plus" : "pro";
		const z = 0.3*x[0] - 0.2*x[1] + 0.1*x[2] + effect[r];
		out.push(x.join(",") + "," + regions[r] + "," + plan + "," + (u() < 1/(1 + Math.exp(-z)) ? 1 : 0));
	}
	window.rowsCSV = out.join("\n") + "\n"; window.rowsCSV.charCodeAt(1e6); return true })()`

// probeJS wraps every function of the page's worker API (dpsampleRemote) to
// log its calls (path, what a describe or a sample was asked, start and end
// on the page's clock, and for a sample its plan and diagnostics), and
// watches the estimate section: window.probe.last is the time of the last
// change of the section or of a call, window.probe.inflight the calls under
// way. Read-only: the calls go through unchanged.
const probeJS = `(async () => {
	const api = await dpsampleRemote;
	const P = window.probe = {calls: [], inflight: 0, last: performance.now(), shown: []};
	const wrap = (obj, name, path) => {
		const f = obj[name];
		obj[name] = (...args) => {
			const c = {path, start: performance.now()};
			if (path === "describe") c.what = args[0] && args[0].csv !== undefined ? "describe({csv})" : "describe({x}) " + JSON.stringify(args[0]?.x?.shape);
			if (path === "mechanism.sample") {
				const r = args[0]; P.lastReq = r;
				c.what = JSON.stringify({shape: r.x?.shape, epsilon: r.epsilon, delta: r.delta, radius: r.radius, clip: r.clip, method: r.method,
					workers: r.workers, fixedWork: r.fixedWork, samples: r.samples, rank: r.rank});
			}
			if (path === "data.parseCSV") c.what = JSON.stringify({features: args[1]?.features, categories: args[1]?.categories && Object.keys(args[1].categories)});
			P.calls.push(c); P.inflight++; P.last = c.start;
			const done = (ok, v) => { c.end = performance.now(); c.ok = ok; P.inflight--; P.last = c.end;
				if (path === "mechanism.sample" && ok) c.result = JSON.stringify({plan: {n: v.plan.n, d: v.plan.d, steps: v.plan.steps, method: v.plan.method,
					workers: v.plan.workers, fixedWork: v.plan.fixedWork, clip: v.plan.clip, radius: v.plan.radius, epsilon: v.plan.epsilon, work: v.plan.work},
					diagnostics: {seconds: v.diagnostics.seconds, workers: v.diagnostics.workers, note: v.diagnostics.note}});
				if (!ok) c.error = String(v && v.message || v); };
			return f(...args).then(v => (done(true, v), v), e => { done(false, e); throw e; });
		};
	};
	wrap(api, "describe", "describe");
	for (const ns of ["mechanism", "ledger", "data"]) for (const fn of Object.keys(api[ns])) wrap(api[ns], fn, ns + "." + fn);
	const sec = document.getElementById("est-run").closest("section");
	const ids = ["est-err", "est-work", "est-ranges-err", "est-csv-err", "est-status", "est-csv-progress", "est-ledger-summary"];
	const seen = {};
	new MutationObserver(() => {
		P.last = performance.now();
		for (const id of ids) {
			const t = (document.getElementById(id)?.textContent ?? "").trim();
			if (t !== seen[id]) { seen[id] = t; P.shown.push([Math.round(performance.now()), id, t]); }
		}
	}).observe(sec, {childList: true, subtree: true, characterData: true, attributes: true});
	return true })()`

// pressState is what one press of Run left on the page.
type pressState struct {
	Releases  []string // the table's ledger history (labels), from this browser's store
	Summary   string   // the meter's line
	FormErr   string
	WorkLine  string
	RangesErr string
	CSVErr    string
	Status    string
	Focus     string // the focused element: id, or tag
	Calls     []probeCall
}

type probeCall struct {
	Path, What, Result, Error string
	Start, End                float64
	OK                        bool
}

// readPress waits for a press to end — Run enabled, no worker call under
// way and the section unchanged for quiet — and reads its state; calls are
// those logged since from (an index into probe.calls).
func (p *page) readPress(clicked float64, from int, quiet time.Duration) pressState {
	p.t.Helper()
	p.waitJS(fmt.Sprintf(`!document.getElementById("est-run").disabled && window.probe.inflight === 0 &&
		performance.now() - window.probe.last > %d && performance.now() - %f > %d`, quiet.Milliseconds(), clicked, quiet.Milliseconds()), 5*time.Minute)
	var st pressState
	raw := eval[string](p, `JSON.stringify({
		releases: Object.keys(localStorage).filter(k => k.startsWith("dpsample.ledger.")).flatMap(k => JSON.parse(localStorage.getItem(k)).history.map(h => h.label + " ε=" + (+h.epsilon).toPrecision(3))),
		summary: document.getElementById("est-ledger-summary").textContent,
		formErr: document.getElementById("est-err").textContent, workLine: document.getElementById("est-work").textContent,
		rangesErr: document.getElementById("est-ranges-err").textContent, csvErr: document.getElementById("est-csv-err").textContent,
		status: document.getElementById("est-status").textContent,
		focus: document.activeElement ? (document.activeElement.id || document.activeElement.tagName) : "",
		calls: window.probe.calls.slice(`+fmt.Sprint(from)+`)})`)
	if err := json.Unmarshal([]byte(raw), &st); err != nil {
		p.t.Fatalf("press state: %v: %s", err, raw)
	}
	return st
}

// issue55Page opens the page on rows100kTextCSV as issue 55's report has
// it: every feature ticked (the text ones too), every range and category
// blank, the positive label typed and, with chosen, the task chosen by the
// owner (else the page's suggestion stands, and a first Run asks to
// confirm it); the worker API is watched (probeJS).
func issue55Page(t testing.TB, chosen bool) *page {
	t.Helper()
	p := newPage(t, "/")
	p.waitJS(`window.dpsampleUIReady === true`, 30*time.Second)
	eval[bool](p, `(localStorage.clear(), true)`)
	p.setValue("est-data", "csv")
	eval[bool](p, rows100kTextCSV)
	p.paste("est-csv", "rowsCSV")
	p.waitJS(`[...document.querySelectorAll("#est-features input")].map(c => c.value).join().startsWith("x1,x2,x3,x4,x5,x6,x7,x8,region,plan")`, 3*time.Minute)
	if got := p.value("est-target"); got != "label" {
		p.setValue("est-target", "label") // since issue 55 the page chooses no target
	}
	if chosen {
		p.confirmTask()
	}
	p.checkFeatures("x1", "x2", "x3", "x4", "x5", "x6", "x7", "x8", "region", "plan")
	p.waitJS(`document.getElementById("est-positive") !== null`, 10*time.Second)
	p.setValue("est-positive", "1")
	eval[bool](p, probeJS)
	return p
}

// press clicks Run (twice in a row with double; a second time as soon as
// the status starts with again, if again is not ""), waits for the press to
// end (readPress) and logs what it left.
func (p *page) press(n int, double bool, again string) pressState {
	p.t.Helper()
	eval[bool](p, `(() => { document.getElementById("est-status").textContent = ""; return true })()`)
	clicked := eval[float64](p, `performance.now()`)
	from := eval[int](p, `window.probe.calls.length`)
	p.click("est-run")
	if double {
		p.click("est-run")
		p.t.Logf("press %d: Run clicked twice in a row (a double click); Run disabled after the second click: %v", n, eval[bool](p, `document.getElementById("est-run").disabled`))
	}
	if again != "" {
		p.waitJS(`document.getElementById("est-status").textContent.startsWith(`+"`"+again+"`"+`)`, 2*time.Minute)
		p.t.Logf("press %d: the status says %q, Run disabled: %v; Run pressed again", n, p.text("#est-status"), eval[bool](p, `document.getElementById("est-run").disabled`))
		p.click("est-run")
	}
	st := p.readPress(clicked, from, 4*time.Second)
	p.t.Logf("press %d: %d release(s) %q; meter %.60q", n, len(st.Releases), st.Releases, st.Summary)
	p.t.Logf("  form error %q | work line %q | ranges error %q | csv error %q | status %q | focus %q", st.FormErr, st.WorkLine, st.RangesErr, st.CSVErr, st.Status, st.Focus)
	for _, c := range st.Calls {
		p.t.Logf("  call %-18s at +%6.2f s, took %6.2f s, ok %v %s %s %s", c.Path, (c.Start-clicked)/1000, (c.End-c.Start)/1000, c.OK, c.What, c.Result, c.Error)
	}
	return st
}

// TestIssue55Rows100kText reproduces issue 55's report: a 100,000-row CSV
// of 8 numeric and 2 text features and a 0/1 label, every range and
// category blank, every feature ticked, the positive label typed and the
// task chosen by the owner (issue55Page). What is asserted is the expected
// behaviour: every press that does not end in a model ends in a visible
// message, and whatever Run is pressed, the table is charged once for the
// ranges and categories (one describe({csv})) and once for the model — 2
// releases. Each press's ledger, messages, focus and worker calls are
// logged.
//
//   - one press: the model on the first press, 2 releases; the next press
//     charges the model alone (passes on main).
//   - Run again after the ranges: Run pressed a second time when the status
//     says "Ranges and categories found privately." — the Run button is
//     enabled again then, while the same press still parses the table for
//     its model. On main the second press starts a second run beside the
//     first and nothing new shows; both runs charge a model: 3 releases,
//     ε = 1.79 of 3, the report's numbers.
//   - double click: Run clicked twice in a row. On main two runs start, each
//     finds the ranges and runs a model: 4 releases.
//
// The last two failed on main before the estimate state machine (4ec6468)
// and pass after it. Skipped unless E2E_ISSUE55=1 (a few minutes of two
// cores). See the report of branch probe55.
func TestIssue55Rows100kText(t *testing.T) {
	if os.Getenv("E2E_ISSUE55") == "" {
		t.Skip("issue 55's 100,000-row reproduction (minutes of both cores; passes since the estimate state machine); set E2E_ISSUE55=1 to run it")
	}
	for _, c := range []struct {
		name   string
		double bool
		again  string
	}{
		{"one press", false, ""},
		{"Run again after the ranges", false, "Ranges and categories found privately."},
		{"double click", true, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := issue55Page(t, true)
			model := false
			var last pressState
			for n := 1; n <= 4 && !model; n++ {
				last = p.press(n, c.double && n == 1, map[bool]string{true: c.again}[n == 1])
				model = last.Status == "Done."
				if !model && last.FormErr == "" && last.WorkLine == "" && last.RangesErr == "" && last.CSVErr == "" && last.Status == "" {
					t.Errorf("press %d ended with nothing visible: no message, no status (focus %q)", n, last.Focus)
				}
			}
			if !model {
				t.Fatalf("no model after 4 presses")
			}
			if len(last.Releases) != 2 {
				t.Errorf("%d releases (%q, spent: %.40q), want 2: the ranges and categories (one describe({csv})) and the model", len(last.Releases), last.Releases, last.Summary)
			}
			calls := map[string]int{}
			for _, c := range eval[[]probeCall](p, `window.probe.calls`) {
				calls[c.Path]++
			}
			if calls["describe"] != 1 || calls["mechanism.sample"] != 1 {
				t.Errorf("worker calls: %d describe, %d mechanism.sample; want one of each", calls["describe"], calls["mechanism.sample"])
			}
			if c.double || c.again != "" {
				p.noConsoleErrors()
				return
			}
			// A second model on the same held 6 MB table: the ranges and
			// categories are held by its ledger (the same key), so only the
			// model is charged.
			if last = p.press(2, false, ""); last.Status != "Done." || len(last.Releases) != 3 {
				t.Errorf("the next press: status %q, %d releases (%q); want a model and 3 releases", last.Status, len(last.Releases), last.Releases)
			}
			for _, c := range last.Calls {
				if c.Path == "describe" {
					t.Errorf("the next press called %s again", c.What)
				}
			}
			p.noConsoleErrors()
		})
	}
}

// catsPage is setupCats for a page that chooses no target by itself
// (since issue 55): catsCSV as a logistic regression of bought (positive
// "yes", the task chosen) with the named features ticked.
func catsPage(t *testing.T, features ...string) *page {
	t.Helper()
	p := newPage(t, "/")
	p.waitJS(`window.dpsampleUIReady === true`, 30*time.Second)
	eval[bool](p, `(localStorage.clear(), true)`)
	p.setValue("est-data", "csv")
	p.setValue("est-csv", catsCSV())
	p.waitJS(`document.querySelectorAll("#est-features input").length >= 4`, 10*time.Second)
	p.setValue("est-loss", "logistic")
	p.setValue("est-target", "bought")
	p.waitJS(`document.querySelectorAll("#est-features input").length === 4`, 10*time.Second)
	p.checkFeatures(features...)
	p.waitJS(`document.getElementById("est-positive") !== null`, 10*time.Second)
	p.setValue("est-positive", "yes")
	return p
}

// TestIssue55ClickTwice is the cheap reproduction (catsCSV, 600 rows: a
// text feature and a range blank) of a press that starts while another is
// under way — wiring, which the form's native tests cannot see. Clicked
// twice in a row (two click events before the first press has done
// anything),
//
//   - "Find ranges privately" must charge one describe({csv}), not two;
//   - Run must charge the ranges and categories once and the model once (2
//     releases).
//
// Before the estimate state machine (4ec6468) each click started its own
// find or runEstimate (the click handlers were `go v.runEstimate()` and
// `go func() { … v.findRanges() … }()`, and Run was disabled only while a
// worker call was under way): 2 describe, and 2 describe + 2 models.
func TestIssue55ClickTwice(t *testing.T) {
	for _, c := range []struct {
		button         string
		describe, runs int // describe and mechanism.sample calls expected
	}{
		{"est-find-ranges", 1, 0},
		{"est-run", 1, 1},
	} {
		t.Run(c.button, func(t *testing.T) {
			p := catsPage(t, "region", "id", "age")
			eval[bool](p, probeJS)
			p.ledgerReleases(0)
			clicked := eval[float64](p, `performance.now()`)
			eval[bool](p, `(() => { const b = document.getElementById("`+c.button+`"); b.click(); b.click(); return true })()`) // a double click
			st := p.readPress(clicked, 0, 3*time.Second)
			calls := map[string]int{}
			for _, c := range st.Calls {
				calls[c.Path]++
			}
			t.Logf("releases %q; status %q; focus %q", st.Releases, st.Status, st.Focus)
			if calls["describe"] != c.describe || calls["mechanism.sample"] != c.runs || len(st.Releases) != c.describe+c.runs {
				t.Errorf("two clicks of %s: %d describe and %d mechanism.sample calls, releases %q; want %d and %d", c.button,
					calls["describe"], calls["mechanism.sample"], st.Releases, c.describe, c.runs)
			}
			p.noConsoleErrors()
		})
	}
}

// TestIssue55RefusedAfterCharge: on catsCSV (600 rows, a text feature and a
// range blank), a press whose run the page will refuse for a reason it can
// check before anything is spent must refuse before the describe({csv})
// release, naming the field and focusing it. Before the estimate state
// machine (4ec6468), preflight (private.go) checked ε, δ ∈ (0, 1), the
// radius and the typed ranges only: samples, rank, δ < 1/n (PlanShape) and
// the table's budget (ledger.Check) were checked after the find, so the
// ranges were charged and the model refused; a blank positive label was
// refused before the find, but by build()'s first error, the blank
// categories ("press Run to find it privately" — a loop), with the focus on
// the categories field. Since 4ec6468 every case refuses before the charge;
// the budget's refusal focuses Run, not ε (the last check that fails).
// These are decisions, tested natively by form's TestProperties: skipped
// unless E2E_ISSUE55=1.
func TestIssue55RefusedAfterCharge(t *testing.T) {
	if os.Getenv("E2E_ISSUE55") == "" {
		t.Skip("issue 55's reproduction of refusals after a charge (decisions: form's native TestProperties covers them); set E2E_ISSUE55=1 to run it")
	}
	for _, c := range []struct {
		name, id, value string
		field           string // what the refusal must name
		focus           string // the element that must have the focus
	}{
		{"samples", "est-samples", "0", "samples", "est-samples"},
		{"rank", "est-rank", "50", "rank", "est-rank"},
		{"delta at least 1/n", "est-delta", "0.005", "delta", "est-delta"},
		{"epsilon beyond what the budget leaves after the ranges", "est-epsilon", "3", "budget", "est-epsilon"},
		{"positive label blank", "est-positive", "", "positive", "est-positive"},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := catsPage(t, "region", "age")
			p.setValue(c.id, c.value)
			p.ledgerReleases(0)
			eval[bool](p, probeJS)
			clicked := eval[float64](p, `performance.now()`)
			p.click("est-run")
			st := p.readPress(clicked, 0, 2*time.Second)
			msg := p.errorsShown() + " | " + eval[string](p, `[...document.querySelectorAll(".error")].map(e => e.textContent.trim()).filter(s => s).join(" | ")`)
			t.Logf("releases %q; messages %q; status %q; focus %q", st.Releases, msg, st.Status, st.Focus)
			if len(st.Releases) != 0 {
				t.Errorf("%s = %q: %d release(s) charged (%q) and the run refused: %q", c.id, c.value, len(st.Releases), st.Releases, msg)
			}
			if !strings.Contains(msg, c.field) {
				t.Errorf("%s = %q: the refusal does not name %s: %q", c.id, c.value, c.field, msg)
			}
			if st.Focus != c.focus {
				t.Errorf("%s = %q: the focus is on %q, want %s", c.id, c.value, st.Focus, c.focus)
			}
		})
	}
}

// sampleTimeJS times one mechanism.sample call of the request the JS
// expression req evaluates to (seeded, no ledger: not private), k at once
// (k > 1: side by side, as two runs of the page would), and returns each
// call's seconds with its plan's work and its diagnostics' workers and note.
const sampleTimeJS = `(async (req, k) => { const d = await dpsampleRemote;
	return Promise.all(Array.from({length: k}, async () => { const t0 = performance.now(); const res = await d.mechanism.sample(req);
		return {seconds: (performance.now() - t0) / 1000, d: res.plan.d, steps: res.plan.steps, clip: res.plan.clip, radius: res.plan.radius,
			passes: res.plan.work.passes + res.plan.work.referencePasses, rowsTimesD: res.plan.work.rowsTimesD,
			workers: res.diagnostics.workers, note: res.diagnostics.note || ""} })) })`

// benchReqJS is docs/BENCHMARKS.md's Chromium DP-GD request at n = 10⁵
// (wasm/tools/bench/dpgdrows.go, dpgdBrowserJS) with D columns (the
// benchmark's D = 30): rows on the unit sphere, clip 1, C = 16, ε = 1,
// δ = 10⁻⁶, every core, seeded.
const benchReqJS = `((D) => { const n = 100000;
	let st = 0x9E3779B9 ^ n; const u = () => { st ^= st << 13; st >>>= 0; st ^= st >>> 17; st ^= st << 5; st >>>= 0; return st / 4294967296; };
	const data = new Float64Array(n * D), y = new Array(n);
	for (let i = 0; i < n; i++) { let s = 0; for (let j = 0; j < D; j++) { const v = 2 * u() - 1; data[i * D + j] = v; s += v * v; }
		s = Math.sqrt(s); for (let j = 0; j < D; j++) data[i * D + j] /= s;
		y[i] = u() < 1 / (1 + Math.exp(-8 * (data[i * D] - data[i * D + 1] + data[i * D + 2]))) ? 1 : -1; }
	return {loss: "logistic", x: {data, shape: [n, D]}, y, epsilon: 1, delta: 1e-6, radius: 16, clip: 1, method: "dp-gd", workers: navigator.hardwareConcurrency, seed: 43} })`

type sampleTime struct {
	Seconds      float64
	D, Steps     int
	Clip, Radius float64
	Passes       float64
	RowsTimesD   float64
	Workers      int
	Note         string
}

// BenchmarkIssue55Request compares, side by side in one tab, the model of
// issue 55's table as the page runs it (one press of Run: the find, the
// parse and the sample) with the same request replayed through the worker
// API (seeded, no ledger), with docs/BENCHMARKS.md's 10⁵ × 30 DP-GD request,
// and with two replays at once (what a second press during a run starts).
// and with the benchmark's law at the page's d (the same work). Reported:
// ratios of wall-clock times in this run (medians over b.N rounds), and of
// the requests' work (passes × n·d, from their plans). Run:
//
//	E2E_REQUIRE=1 go test -run '^$' -bench Issue55Request -benchtime 2x ./wasm/tools/e2e/
func BenchmarkIssue55Request(b *testing.B) {
	tabTimeout = 30 * time.Minute
	defer func() { tabTimeout = 6 * time.Minute }()
	p := issue55Page(b, true)
	clicked := eval[float64](p, `performance.now()`)
	p.click("est-run")
	st := p.readPress(clicked, 0, 4*time.Second)
	if st.Status != "Done." {
		b.Fatalf("the press did not end in a model: %+v", st)
	}
	var pageCall, describe probeCall
	for _, c := range st.Calls {
		switch c.Path {
		case "mechanism.sample":
			pageCall = c
		case "describe":
			describe = c
		}
	}
	done := eval[float64](p, `window.probe.shown.filter(s => s[1] === "est-status" && s[2] === "Done.").pop()[0]`)
	b.Logf("the press: %.2f s from the click to Done.; describe({csv}) %.2f s; the sample call %.2f s %s", (done-clicked)/1000, (describe.End-describe.Start)/1000, (pageCall.End-pageCall.Start)/1000, pageCall.Result)
	run := func(req string, k int) []sampleTime {
		return eval[[]sampleTime](p, sampleTimeJS+"("+req+", "+strconv.Itoa(k)+")")
	}
	eval[bool](p, `(window.pageReq = {...window.probe.lastReq, seed: 55}, true)`) // the probe sees the calls below too
	d := eval[int](p, `window.pageReq.x.shape[1]`)
	var rep, same, bench, pair []float64
	var rp, sp, bp sampleTime
	for round := range max(1, b.N) {
		// Each round in the other order: a call after a heavy one may wait
		// for the shard workers of the last (or for the machine).
		if round%2 == 0 {
			rp = run(`window.pageReq`, 1)[0]
			sp = run(benchReqJS+"("+strconv.Itoa(d)+")", 1)[0]
		} else {
			sp = run(benchReqJS+"("+strconv.Itoa(d)+")", 1)[0]
			rp = run(`window.pageReq`, 1)[0]
		}
		bp = run(benchReqJS+"(30)", 1)[0]
		b.Logf("round %d: the page's request replayed %.2f s (workers %d %q); the benchmark's law at d = %d %.2f s (workers %d %q); at d = 30 %.2f s (workers %d %q)",
			round+1, rp.Seconds, rp.Workers, rp.Note, d, sp.Seconds, sp.Workers, sp.Note, bp.Seconds, bp.Workers, bp.Note)
		rep, same, bench = append(rep, rp.Seconds), append(same, sp.Seconds), append(bench, bp.Seconds)
		if round == 0 {
			two := run(`window.pageReq`, 2)
			b.Logf("two replays of the page's request at once: %.2f s and %.2f s (workers %d %q, %d %q)", two[0].Seconds, two[1].Seconds, two[0].Workers, two[0].Note, two[1].Workers, two[1].Note)
			pair = append(pair, two[0].Seconds, two[1].Seconds)
		}
	}
	work := rp.Passes * rp.RowsTimesD / (bp.Passes * bp.RowsTimesD)
	b.Logf("the page's request: d = %d, T = %d, clip %.4g, C %.3g, %g passes × n·d %g; the benchmark's law at d = %d: T = %d, %g passes × %g; the benchmark's: d = %d, T = %d, clip %.3g, C %.3g, %g passes × %g; work ratio page/benchmark %.3f",
		rp.D, rp.Steps, rp.Clip, rp.Radius, rp.Passes, rp.RowsTimesD, sp.D, sp.Steps, sp.Passes, sp.RowsTimesD, bp.D, bp.Steps, bp.Clip, bp.Radius, bp.Passes, bp.RowsTimesD, work)
	pc := (pageCall.End - pageCall.Start) / 1000
	b.ReportMetric(work, "work-page/bench30")
	b.ReportMetric(median(rep)/median(bench), "time-replay/bench30")
	b.ReportMetric(median(rep)/median(same), "time-replay/bench-same-d")
	b.ReportMetric(pc/median(rep), "time-pagecall/replay")
	b.ReportMetric(median(pair)/rep[0], "time-two-at-once/one")
	b.ReportMetric((done-clicked)/1000/pc, "time-press/pagecall")
	b.ReportMetric(0, "ns/op")
}
