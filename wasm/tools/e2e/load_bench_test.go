//go:build !js

package e2e

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	cdppage "github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"github.com/dpsample/dpsample/wasm/internal/version"
	"github.com/dpsample/dpsample/wasm/tools/devserver"
)

// loadProbe records, in ms since navigation start, when the Go UI is ready
// (window.dpsampleUIReady) and when the worker is (#status gets
// data-state="ready"), like wasm/bench's readyProbe.
const loadProbe = `Object.defineProperty(window, "dpsampleUIReady", {
  configurable: true,
  get() { return this.__ui; },
  set(v) { if (v && this.__uiAt === undefined) this.__uiAt = performance.now(); this.__ui = v; },
});
new MutationObserver((_, o) => {
  const s = document.getElementById("status");
  if (s && s.dataset.state === "ready" && window.__workerAt === undefined) { window.__workerAt = performance.now(); o.disconnect(); }
}).observe(document, { subtree: true, attributes: true, attributeFilter: ["data-state"] });`

// loadPhases is read after a load: timings (ms from navigation start) and
// the bytes on the wire per resource.
const loadPhasesJS = `(() => {
  const nav = performance.getEntriesByType("navigation")[0];
  const res = performance.getEntriesByType("resource");
  const wasm = res.find(r => r.name.endsWith("/dpsample.wasm"));
  const bytes = {};
  for (const r of [nav, ...res]) bytes[new URL(r.name).pathname] = r.transferSize;
  const mark = (n) => (performance.getEntriesByName(n)[0] || { startTime: -1 }).startTime;
  const modules = res.filter(r => new URL(r.name).pathname.match(/\/dpsample\.wasm(\.gz)?$/));
  return { compiled: mark("dpsample:module-compiled"), goStart: mark("dpsample:go-start"), ui: window.__uiAt, worker: window.__workerAt, dcl: nav.domContentLoadedEventEnd,
    wasmStart: wasm ? wasm.startTime : -1, wasmEnd: wasm ? wasm.responseEnd : -1, moduleEnd: Math.max(-1, ...modules.map(r => r.responseEnd)), bytes };
})()`

type loadPhases struct {
	Compiled, GoStart                   float64
	UI, Worker, DCL, WasmStart, WasmEnd float64
	ModuleEnd                           float64 // the last byte of the module's last response (.wasm or .wasm.gz)
	Bytes                               map[string]float64
}

// BenchmarkPageLoad measures cold loads of index.html (HTTP cache disabled,
// loopback, the dev server's handler) with the precompressed module served
// as brotli, as gzip only, and uncompressed: navigation → UI ready and →
// worker ready (medians of 5), the module's download window, and the bytes on
// the wire per resource (what dominates). Run:
//
//	E2E_REQUIRE=1 go test -run '^$' -bench PageLoad -benchtime 1x ./wasm/tools/e2e/
func BenchmarkPageLoad(b *testing.B) {
	site := devserver.Handler(root)
	for _, enc := range []string{"br", "gzip", "identity"} {
		b.Run(enc, func(b *testing.B) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				r.Header.Set("Accept-Encoding", enc) // what a client (or a host) that only offers enc gets
				site.ServeHTTP(w, r)
			}))
			defer srv.Close()
			var ui, worker, wasmDL, compile, goInit []float64
			var last loadPhases
			for range b.N * 5 {
				ph := coldLoad(b, srv.URL+"/", 200*time.Millisecond)
				ui, worker, wasmDL = append(ui, ph.UI), append(worker, ph.Worker), append(wasmDL, ph.WasmEnd-ph.WasmStart)
				compile, goInit = append(compile, ph.Compiled-ph.WasmEnd), append(goInit, ph.UI-ph.GoStart)
				last = ph
			}
			var total float64
			var names []string
			for n, v := range last.Bytes {
				total += v
				names = append(names, n)
			}
			sort.Slice(names, func(i, j int) bool { return last.Bytes[names[i]] > last.Bytes[names[j]] })
			var top []string
			for _, n := range names[:min(5, len(names))] {
				top = append(top, fmt.Sprintf("%s %.0f B (%.0f%%)", n, last.Bytes[n], 100*last.Bytes[n]/total))
			}
			b.Logf("%s: UI ready %v ms, worker ready %v ms; phases: .wasm request→last byte %v ms, last byte→compiled %v ms, "+
				"Go start→UI ready %v ms, HTML+scripts before the .wasm request %v ms; wire total %.0f B; largest: %s",
				enc, rounded(ui), rounded(worker), rounded(wasmDL), rounded(compile), rounded(goInit), int(last.WasmStart+0.5), total, strings.Join(top, ", "))
			b.ReportMetric(median(ui), "ms-ui-ready")
			b.ReportMetric(median(worker), "ms-worker-ready")
			b.ReportMetric(median(wasmDL), "ms-wasm-download")
			b.ReportMetric(median(compile), "ms-compile-after-download")
			b.ReportMetric(median(goInit), "ms-go-start-to-ui")
			b.ReportMetric(total, "wire-bytes")
			b.ReportMetric(0, "ns/op")
		})
	}
}

func median(xs []float64) float64 {
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	if len(s) == 0 {
		return 0
	}
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

func rounded(xs []float64) []int {
	out := make([]int, len(xs))
	for i, x := range xs {
		out[i] = int(x + 0.5)
	}
	return out
}

// BenchmarkPreloadWasm compares, interleaved on one browser, cold loads of
// index.html with the .wasm preloaded from the <head> (its download starts
// while the module scripts load; index.html shipped so until issue 45 item
// 8) and as shipped, without it, from the dev server (which compresses): the
// ratio of medians of navigation → UI ready, and the bytes on the wire of
// each (equal: the preload is used, not fetched twice).
func BenchmarkPreloadWasm(b *testing.B) {
	site := devserver.Handler(root)
	index, err := os.ReadFile(filepath.Join(root, "index.html"))
	if err != nil {
		b.Fatal(err)
	}
	const anchor = `<link rel="modulepreload" href="site/dpsample.js">`
	const preload = `<link rel="preload" href="site/dpsample.wasm" as="fetch" type="application/wasm" crossorigin>` + "\n"
	without := string(index)
	with := strings.Replace(without, anchor, preload+anchor, 1)
	if with == without || strings.Contains(without, `rel="preload" href="site/dpsample.wasm"`) {
		b.Fatal("index.html has no modulepreload link to put the module's preload before, or already preloads the module")
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// Both variants through the same code path (the dev server's own
		// "/" differs in timing from a handler-written page by more than the
		// preload's effect).
		if page, ok := map[string]string{"/with.html": with, "/without.html": without}[r.URL.Path]; ok {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			w.Header().Set("Content-Security-Policy", devserver.CSP)
			io.WriteString(w, page)
			return
		}
		site.ServeHTTP(w, r)
	}))
	defer srv.Close()
	load := func(path string) (float64, float64) {
		ph := coldLoad(b, srv.URL+path, 200*time.Millisecond)
		var total float64
		for _, v := range ph.Bytes {
			total += v
		}
		return ph.UI, total
	}
	var plain, preloaded []float64
	var bytesPlain, bytesPre float64
	for range b.N * 9 {
		t, n := load("/without.html")
		plain, bytesPlain = append(plain, t), n
		t, n = load("/with.html")
		preloaded, bytesPre = append(preloaded, t), n
	}
	b.Logf("UI ready, as shipped (no preload) %v ms; with the module preloaded %v ms; wire %.0f vs %.0f B", rounded(plain), rounded(preloaded), bytesPlain, bytesPre)
	b.ReportMetric(median(plain), "ms-without-preload")
	b.ReportMetric(median(preloaded), "ms-preload")
	b.ReportMetric(median(preloaded)/median(plain), "ratio")
	b.ReportMetric(0, "ns/op")
}

// BenchmarkPageLoadBeforeAfter compares, interleaved on one browser, cold
// loads of two built trees (each a repository root whose site/ was built by
// its own ./build.sh build): E2E_LOAD_BEFORE (required) and E2E_LOAD_AFTER
// (default: this repository), both served by this dev server's handler, with
// the precompressed siblings offered as gzip only and as brotli. Reported per
// tree and encoding: medians of navigation → UI ready, → worker ready and Go
// start → UI ready, the bytes on the wire, and the largest resources. Run:
//
//	git archive <before> | tar -x -C /tmp/before && (cd /tmp/before && ./build.sh build)
//	E2E_LOAD_BEFORE=/tmp/before E2E_REQUIRE=1 go test -run '^$' -bench PageLoadBeforeAfter -benchtime 1x ./wasm/tools/e2e/
func BenchmarkPageLoadBeforeAfter(b *testing.B) {
	before, after := os.Getenv("E2E_LOAD_BEFORE"), os.Getenv("E2E_LOAD_AFTER")
	if before == "" {
		b.Skip("set E2E_LOAD_BEFORE to a built repository tree")
	}
	if after == "" {
		after = root
	}
	trees := []struct{ name, dir string }{{"before", before}, {"after", after}}
	for _, enc := range []string{"gzip", "br"} {
		b.Run(enc, func(b *testing.B) {
			type acc struct {
				ui, worker, goInit []float64
				last               loadPhases
			}
			res := map[string]*acc{}
			var urls []string
			for _, tr := range trees {
				site := devserver.Handler(tr.dir)
				srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
					r.Header.Set("Accept-Encoding", enc)
					site.ServeHTTP(w, r)
				}))
				defer srv.Close()
				urls = append(urls, srv.URL)
				res[tr.name] = &acc{}
			}
			for range b.N * 7 {
				for i, tr := range trees {
					ph := coldLoad(b, urls[i]+"/", 300*time.Millisecond)
					a := res[tr.name]
					a.ui, a.worker, a.goInit = append(a.ui, ph.UI), append(a.worker, ph.Worker), append(a.goInit, ph.UI-ph.GoStart)
					a.last = ph
				}
			}
			for _, tr := range trees {
				a := res[tr.name]
				var total float64
				var names []string
				for n, v := range a.last.Bytes {
					total += v
					names = append(names, n)
				}
				sort.Slice(names, func(i, j int) bool { return a.last.Bytes[names[i]] > a.last.Bytes[names[j]] })
				var top []string
				for _, n := range names[:min(4, len(names))] {
					top = append(top, fmt.Sprintf("%s %.0f B", n, a.last.Bytes[n]))
				}
				b.Logf("%s %s: UI ready %v ms (median %.0f), worker ready median %.0f ms, Go start→UI ready median %.0f ms; wire %.0f B in %d responses; largest: %s",
					enc, tr.name, rounded(a.ui), median(a.ui), median(a.worker), median(a.goInit), total, len(names), strings.Join(top, ", "))
				b.ReportMetric(median(a.ui), "ms-ui-ready-"+tr.name)
				b.ReportMetric(median(a.goInit), "ms-go-to-ui-"+tr.name)
				b.ReportMetric(total, "wire-bytes-"+tr.name)
			}
			b.ReportMetric(median(res["after"].ui)/median(res["before"].ui), "ui-ready-ratio")
			b.ReportMetric(0, "ns/op")
		})
	}
}

// coldLoad loads url in a new tab with the HTTP cache disabled and returns
// its phases once both the UI and the worker are ready and settle has passed
// (for the last resource-timing entries).
func coldLoad(b *testing.B, url string, settle time.Duration) loadPhases {
	b.Helper()
	return loadWith(b, url, settle, loadProbe, nil)
}

// loadWith is coldLoad with another probe (one that sets window.__uiAt and
// window.__workerAt) and, unless nil, emulated network conditions.
func loadWith(b *testing.B, url string, settle time.Duration, probe string, cond *network.Conditions) loadPhases {
	b.Helper()
	ctx, cancel := chromedp.NewContext(browser)
	defer cancel()
	if _, err := chromedp.Call(ctx, network.Enable, network.EnableParams{}); err != nil {
		b.Fatal(err)
	}
	if _, err := chromedp.Call(ctx, network.SetCacheDisabled, network.SetCacheDisabledParams{CacheDisabled: true}); err != nil {
		b.Fatal(err)
	}
	if cond != nil {
		if _, err := chromedp.Call(ctx, network.EmulateNetworkConditionsByRule, network.EmulateNetworkConditionsByRuleParams{
			MatchedNetworkConditions: []*network.Conditions{cond}}); err != nil {
			b.Fatal(err)
		}
	}
	if _, err := chromedp.Call(ctx, cdppage.AddScriptToEvaluateOnNewDocument, cdppage.AddScriptToEvaluateOnNewDocumentParams{Source: probe}); err != nil {
		b.Fatal(err)
	}
	if err := chromedp.Do(ctx, chromedp.Navigate(url),
		chromedp.Poll[chromedp.Void](`window.__uiAt !== undefined && window.__workerAt !== undefined`, chromedp.WithPollingTimeout(120*time.Second))); err != nil {
		b.Fatal(err)
	}
	time.Sleep(settle)
	ph, err := chromedp.Run(ctx, chromedp.Evaluate[loadPhases](loadPhasesJS))
	if err != nil {
		b.Fatal(err)
	}
	return ph
}

// plainProbe records, in ms since navigation start, when a page without
// #status (a course page with elements) has its UI ready and its worker
// ready (the "dpsample:boot-status" event of state "ready").
const plainProbe = `Object.defineProperty(window, "dpsampleUIReady", {
  configurable: true,
  get() { return this.__ui; },
  set(v) { if (v && this.__uiAt === undefined) this.__uiAt = performance.now(); this.__ui = v; },
});
addEventListener("dpsample:boot-status", (e) => { if (e.detail.state === "ready" && window.__workerAt === undefined) window.__workerAt = performance.now(); });`

// BenchmarkPlainServer measures what a host without precompression gets:
// cold loads of a course page with three elements (coursePage), served by a
// plain static server (http.FileServer: files as they are, no
// Content-Encoding) through Chromium's network emulation at 10 Mbit/s down
// and up with 20 ms of latency, interleaved (the module's download alone
// takes 8.4 MB ÷ 1.25 MB/s = 6.7 s raw, 1.1 s as gzip):
//
//   - before: the tree E2E_PLAIN_BEFORE (a repository whose site/ was built by
//     its ./build.sh build, e.g. the commit before the loader fetched the .gz);
//   - after: this repository's release (dist/dpsample-<version>/, from
//     ./build.sh dist), whose loader fetches dpsample.wasm.gz when the module
//     comes raw;
//   - after-no-gz: the same with the .gz missing (404): the fallback's cost;
//   - after-br: the release served by the dev server's handler, which sends
//     the brotli copies (a host that serves precompressed files).
//
// Reported: medians of navigation → ready (UI and worker) and → the module's
// last byte (the download; what follows is compiling and starting it, which
// a loaded machine stretches), and the bytes on the wire. Run:
//
//	git archive <before> | tar -x -C /tmp/before && (cd /tmp/before && ./build.sh build)
//	./build.sh dist
//	E2E_PLAIN_BEFORE=/tmp/before E2E_REQUIRE=1 go test -run '^$' -bench PlainServer -benchtime 1x ./wasm/tools/e2e/
func BenchmarkPlainServer(b *testing.B) {
	release := filepath.Join(root, "dist", "dpsample-"+version.Version)
	if _, err := os.Stat(filepath.Join(release, "elements.js")); err != nil {
		b.Skip("run ./build.sh dist first: ", err)
	}
	type variant struct {
		name, prefix string
		srv          *httptest.Server
	}
	course := func(prefix string, h http.Handler) *httptest.Server {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path == "/course.html" {
				w.Header().Set("Content-Type", "text/html; charset=utf-8")
				fmt.Fprintf(w, coursePage, prefix, "")
				return
			}
			h.ServeHTTP(w, r)
		}))
		b.Cleanup(srv.Close)
		return srv
	}
	var variants []variant
	if before := os.Getenv("E2E_PLAIN_BEFORE"); before != "" {
		variants = append(variants, variant{"before", "site", course("site", plainHandler(before, nil, nil))})
	}
	variants = append(variants,
		variant{"after", ".", course(".", plainHandler(release, nil, nil))},
		variant{"after-no-gz", ".", course(".", plainHandler(release, []string{".wasm.gz"}, nil))},
		variant{"after-br", ".", course(".", devserver.Handler(release))},
	)
	const mbit = 1e6 / 8 // bytes per second
	cond := &network.Conditions{Latency: 20, DownloadThroughput: 10 * mbit, UploadThroughput: 10 * mbit}
	ready, arrived := map[string][]float64{}, map[string][]float64{}
	wire := map[string]float64{}
	for range b.N * 5 {
		for _, v := range variants {
			ph := loadWith(b, v.srv.URL+"/course.html", 300*time.Millisecond, plainProbe, cond)
			ready[v.name] = append(ready[v.name], max(ph.UI, ph.Worker))
			arrived[v.name] = append(arrived[v.name], ph.ModuleEnd)
			wire[v.name] = 0
			for _, n := range ph.Bytes {
				wire[v.name] += n
			}
		}
	}
	for _, v := range variants {
		b.Logf("%s: ready %v ms (median %.0f); the module's last byte at %v ms (median %.0f); %.0f bytes on the wire", v.name,
			rounded(ready[v.name]), median(ready[v.name]), rounded(arrived[v.name]), median(arrived[v.name]), wire[v.name])
		b.ReportMetric(median(ready[v.name]), "ms-ready-"+v.name)
		b.ReportMetric(median(arrived[v.name]), "ms-module-arrived-"+v.name)
		b.ReportMetric(wire[v.name], "wire-bytes-"+v.name)
	}
	b.ReportMetric(0, "ns/op")
}
