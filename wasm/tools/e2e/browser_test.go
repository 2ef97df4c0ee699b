//go:build !js

// Package e2e drives the site in a real headless Chromium (Debian's chromium)
// with chromedp: it serves the repository with the dev server's handler,
// loads pages, interacts with them, checks the console and the network log,
// and writes screenshots to wasm/tools/e2e/screenshots/.
package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	cdpruntime "github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/dpsample/dpsample/wasm/tools/devserver"
	"github.com/dpsample/dpsample/wasm/tools/headless"
)

var (
	root    string // repository root
	baseURL string
	browser context.Context // the shared browser; each test opens its own tab
)

func TestMain(m *testing.M) {
	_, file, _, _ := runtime.Caller(0)
	root = filepath.Clean(filepath.Join(filepath.Dir(file), "..", "..", ".."))
	if _, err := exec.LookPath("chromium"); err != nil {
		if os.Getenv("E2E_REQUIRE") != "" {
			fmt.Fprintln(os.Stderr, "e2e: chromium not found on PATH and E2E_REQUIRE is set")
			os.Exit(1)
		}
		fmt.Println("e2e: chromium not found; skipping browser tests (set E2E_REQUIRE=1 to fail instead)")
		os.Exit(0)
	}
	// Build the site so the test never runs a stale .wasm, with the hidden
	// _test namespace the API tests call (build tag dpsample_hooks).
	build := exec.Command(filepath.Join(root, "build.sh"), "build")
	build.Dir, build.Stdout, build.Stderr = root, os.Stdout, os.Stderr
	build.Env = append(os.Environ(), "WASM_TAGS=dpsample_hooks")
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "e2e: build failed:", err)
		os.Exit(1)
	}
	// The site as the dev server serves it, and the tests' own scripts
	// (testdata/, e.g. a worker that refuses a restore) under /e2e-testdata/
	// with the same headers.
	mux := http.NewServeMux()
	site := devserver.Handler(root)
	mux.Handle("/", site)
	testdata := http.StripPrefix("/e2e-testdata/", http.FileServer(http.Dir(filepath.Join(root, "wasm", "tools", "e2e", "testdata"))))
	mux.Handle("/e2e-testdata/", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Content-Security-Policy", devserver.CSP)
		h.Set("Cross-Origin-Opener-Policy", "same-origin")
		h.Set("Cross-Origin-Embedder-Policy", "require-corp")
		h.Set("Cross-Origin-Resource-Policy", "same-origin")
		testdata.ServeHTTP(w, r)
	}))
	srv := httptest.NewServer(mux)
	baseURL = srv.URL
	bctx, closeBrowser, err := headless.Start()
	if err != nil {
		fmt.Fprintln(os.Stderr, "e2e:", err)
		os.Exit(1)
	}
	browser = bctx
	code := m.Run()
	closeBrowser()
	srv.Close()
	os.Exit(code)
}

// tabTimeout is a page's whole test: 6 min, for the slowest (a zeroth-order
// LAD run under the table's ledger, then a 3 MB paste and its screenshot) on a
// loaded 2-core machine. A benchmark may set more.
var tabTimeout = 6 * time.Minute

// page is one browser tab with its console and network logs.
type page struct {
	t   testing.TB
	ctx context.Context
	mu  sync.Mutex
	// console holds console errors, uncaught exceptions and unhandled rejections.
	console []string
	// warnings holds the texts of console.warn calls.
	warnings []string
	// requests holds every request URL the page made, in order.
	requests []string
	// transferred is the sum of the bytes received on the wire (after
	// content encoding) over all finished requests.
	transferred float64
	encodings   map[string]string // URL → Content-Encoding of its response
}

// newPage opens a tab, starts recording, and navigates to path (on the dev
// server of TestMain).
func newPage(t testing.TB, path string) *page {
	t.Helper()
	return openURL(t, baseURL+path)
}

// openURL opens a tab, starts recording, and navigates to url.
func openURL(t testing.TB, url string) *page {
	t.Helper()
	// A browser context of its own (like a private window): its storage —
	// the tables' privacy budgets among it — starts empty and is not shared
	// with other tests; a reload keeps it.
	ctx, cancel := chromedp.NewContext(browser, chromedp.WithNewBrowserContext())
	t.Cleanup(cancel)
	return openTab(t, ctx, url)
}

// sibling opens another tab in p's browser context (the same origin's
// storage and Web Locks: a second tab of the same person) at path.
func (p *page) sibling(path string) *page {
	p.t.Helper()
	ctx, cancel := chromedp.NewContext(p.ctx)
	p.t.Cleanup(cancel)
	return openTab(p.t, ctx, baseURL+path)
}

// openTab starts recording on the new tab ctx and navigates it to url.
func openTab(t testing.TB, ctx context.Context, url string) *page {
	t.Helper()
	ctx, cancelT := context.WithTimeout(ctx, tabTimeout)
	t.Cleanup(cancelT)
	p := &page{t: t, ctx: ctx}
	if err := chromedp.Listen(ctx, func(ev any) {
		p.mu.Lock()
		defer p.mu.Unlock()
		switch e := ev.(type) {
		case *cdpruntime.EventConsoleAPICalled:
			if e.Type == cdpruntime.ConsoleAPICalledTypeError || e.Type == cdpruntime.ConsoleAPICalledTypeAssert {
				var parts []string
				for _, a := range e.Args {
					parts = append(parts, strings.Trim(string(a.Value), `"`)+a.Description)
				}
				p.console = append(p.console, "console.error: "+strings.Join(parts, " "))
			}
			if e.Type == cdpruntime.ConsoleAPICalledTypeWarning {
				var parts []string
				for _, a := range e.Args {
					var text string
					if json.Unmarshal(a.Value, &text) != nil {
						text = string(a.Value)
					}
					parts = append(parts, text+a.Description)
				}
				p.warnings = append(p.warnings, strings.Join(parts, " "))
			}
		case *cdpruntime.EventExceptionThrown:
			msg := e.ExceptionDetails.Text
			if e.ExceptionDetails.Exception != nil {
				msg += " " + e.ExceptionDetails.Exception.Description
			}
			p.console = append(p.console, "exception: "+msg)
		case *network.EventRequestWillBeSent:
			p.requests = append(p.requests, e.Request.URL)
		case *network.EventLoadingFinished:
			p.transferred += e.EncodedDataLength
		case *network.EventResponseReceived:
			if p.encodings == nil {
				p.encodings = map[string]string{}
			}
			for k, v := range e.Response.Headers {
				if strings.EqualFold(k, "content-encoding") {
					p.encodings[e.Response.URL] = fmt.Sprint(v)
				}
			}
		}
	}); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Call(ctx, network.Enable, network.EnableParams{}); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx, chromedp.Navigate(url)); err != nil {
		t.Fatal(err)
	}
	return p
}

// waitJS polls a JS expression until it is truthy.
func (p *page) waitJS(expr string, timeout time.Duration) {
	p.t.Helper()
	if err := chromedp.Do(p.ctx, chromedp.Poll[chromedp.Void](expr, chromedp.WithPollingTimeout(timeout))); err != nil {
		p.t.Fatalf("waiting for %s: %v (console: %v)", expr, err, p.consoleErrors())
	}
}

func (p *page) do(actions ...chromedp.Action[chromedp.Void]) {
	p.t.Helper()
	if err := chromedp.Do(p.ctx, actions...); err != nil {
		p.t.Fatal(err)
	}
}

// typeInto focuses the input with this id, selects its text and types s over
// it, as a user replacing a value would (each key fires an input event).
func (p *page) typeInto(id, s string) {
	p.t.Helper()
	p.do(chromedp.Focus(chromedp.ID(id)),
		chromedp.Func(func(ctx context.Context, _ *chromedp.Target) error {
			_, err := chromedp.Run(ctx, chromedp.Evaluate[chromedp.Void](`document.getElementById(`+strconv.Quote(id)+`).select()`))
			return err
		}),
		chromedp.SendKeys(chromedp.ID(id), s))
}

// eval evaluates expr (awaiting a Promise) and returns its JSON-decoded value.
func eval[T any](p *page, expr string) T {
	p.t.Helper()
	v, err := chromedp.Run(p.ctx, chromedp.Evaluate[T](expr, chromedp.EvalAwaitPromise))
	if err != nil {
		p.t.Fatalf("eval %s: %v", expr, err)
	}
	return v
}

func (p *page) text(sel string) string {
	p.t.Helper()
	s, err := chromedp.Run(p.ctx, chromedp.TextContent(chromedp.CSS(sel)))
	if err != nil {
		p.t.Fatalf("text of %s: %v", sel, err)
	}
	return strings.TrimSpace(s)
}

func (p *page) consoleErrors() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.console...)
}

// warningsWith returns the console warnings that contain s.
func (p *page) warningsWith(s string) []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	var out []string
	for _, w := range p.warnings {
		if strings.Contains(w, s) {
			out = append(out, w)
		}
	}
	return out
}

func (p *page) requestCount() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.requests)
}

// noConsoleErrors fails the test if the page logged an error or threw.
func (p *page) noConsoleErrors() {
	p.t.Helper()
	if errs := p.consoleErrors(); len(errs) > 0 {
		p.t.Errorf("console errors: %q", errs)
	}
}

// screenshot writes a full-page PNG to wasm/tools/e2e/screenshots/name.png.
func (p *page) screenshot(name string) {
	p.t.Helper()
	png, err := chromedp.Run(p.ctx, chromedp.FullScreenshot(100))
	if err != nil {
		p.t.Fatalf("screenshot: %v", err)
	}
	dir := filepath.Join(root, "wasm", "tools", "e2e", "screenshots")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		p.t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, name+".png"), png, 0o644); err != nil {
		p.t.Fatal(err)
	}
}

// scrollNextJS scrolls the first section still waiting to be built into
// view and returns how many sections are not built yet.
const scrollNextJS = `(() => {
  const s = document.querySelector(` + viewRootsJS + ` + "[data-lazy]");
  if (s) s.scrollIntoView({ block: "start" });
  return document.querySelectorAll(` + viewRootsJS + ` + ":not([data-built])").length;
})()`

// viewRootsJS is, as a JS string literal, the selector of the sections the
// UI builds (wasm/ui's viewRoots): a <section data-view> child of one of
// dpsample's elements; a host page's own [data-view] elements are not.
const viewRootsJS = `":is(dp-estimate, dp-dimension-free, dp-trace-attack, dp-bounds, dp-privacy-curve, dp-median, dp-membership) > section[data-view]"`

// buildAll waits until every section of the page is built. The UI builds
// sections lazily (wasm/ui/ui.go): the visible ones at start-up, the others
// when they scroll near the viewport or when the page is idle. Like a reader
// scrolling down, buildAll scrolls each waiting section into view, then back
// to the top of the page.
func (p *page) buildAll(timeout time.Duration) {
	p.t.Helper()
	deadline := time.Now().Add(timeout)
	for eval[int](p, scrollNextJS) > 0 {
		if time.Now().After(deadline) {
			p.t.Fatalf("sections still unbuilt after %v: %s (console: %v)", timeout,
				eval[string](p, `[...document.querySelectorAll(`+viewRootsJS+` + ":not([data-built])")].map(s => s.dataset.view).join(", ")`), p.consoleErrors())
		}
		time.Sleep(50 * time.Millisecond)
	}
	eval[chromedp.Void](p, `window.scrollTo(0, 0)`)
}
