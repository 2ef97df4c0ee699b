//go:build !js

package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"strings"
	"sync"
	"time"

	cdpbrowser "github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"github.com/dpsample/dpsample/wasm/tools/devserver"
	"github.com/dpsample/dpsample/wasm/tools/headless"
)

// browser is a headless Chromium (Debian's chromium, as in wasm/tools/e2e) and
// the dev server's handler serving the repository.
type browser struct {
	ctx     context.Context
	cancel  []context.CancelFunc
	srv     *httptest.Server
	version string
	pid     int // the browser process (rows.go reads its CPU time)
}

func startBrowser(root string) (*browser, error) {
	bctx, cancel, err := headless.Start()
	if err != nil {
		return nil, err
	}
	b := &browser{srv: httptest.NewServer(devserver.Handler(root)), ctx: bctx, cancel: []context.CancelFunc{cancel}}
	v, err := chromedp.Call(bctx, cdpbrowser.GetVersion, cdp.Empty{})
	if err != nil {
		b.close()
		return nil, fmt.Errorf("cannot start chromium: %w", err)
	}
	b.version = v.Product
	if c := chromedp.FromContext(bctx); c != nil && c.Browser != nil && c.Browser.Process() != nil {
		b.pid = c.Browser.Process().Pid
	}
	return b, nil
}

func (b *browser) close() {
	if b == nil {
		return
	}
	for _, c := range b.cancel {
		c()
	}
	b.srv.Close()
}

// readyProbe records performance.now() (milliseconds since navigation start)
// the moment the Go UI sets window.dpsampleUIReady.
const readyProbe = `Object.defineProperty(window, "dpsampleUIReady", {
  configurable: true,
  get() { return this.__dpsampleUIReady; },
  set(v) { if (v && this.__readyAt === undefined) this.__readyAt = performance.now(); this.__dpsampleUIReady = v; },
});`

// wire records the encoded bytes of every response of a page load.
type wire struct {
	mu       sync.Mutex
	url      map[network.RequestID]string
	encoding map[network.RequestID]string
	total    float64 // all responses
	wasm     float64 // responses whose URL ends in .wasm
	wasmEnc  string  // their Content-Encoding
}

func (w *wire) listen(ev any) {
	w.mu.Lock()
	defer w.mu.Unlock()
	switch e := ev.(type) {
	case *network.EventResponseReceived:
		w.url[e.RequestID] = e.Response.URL
		for k, v := range e.Response.Headers {
			if strings.EqualFold(k, "content-encoding") {
				w.encoding[e.RequestID] = fmt.Sprint(v)
			}
		}
	case *network.EventLoadingFinished:
		w.total += e.EncodedDataLength
		if strings.HasSuffix(w.url[e.RequestID], ".wasm") {
			w.wasm += e.EncodedDataLength
			w.wasmEnc = w.encoding[e.RequestID]
		}
	}
}

// tab opens a new tab with the HTTP cache disabled and the ready probe
// installed, and navigates to index.html; the tab lives at most limit.
func (b *browser) tab(limit time.Duration) (context.Context, context.CancelFunc, *wire, error) {
	tctx, cancel := chromedp.NewContext(b.ctx)
	ctx, cancelT := context.WithTimeout(tctx, limit)
	done := func() { cancelT(); cancel() }
	w := &wire{url: map[network.RequestID]string{}, encoding: map[network.RequestID]string{}}
	if err := chromedp.Listen(ctx, w.listen); err != nil {
		done()
		return nil, nil, nil, err
	}
	if _, err := chromedp.Call(ctx, network.Enable, network.EnableParams{}); err != nil {
		done()
		return nil, nil, nil, err
	}
	if _, err := chromedp.Call(ctx, network.SetCacheDisabled, network.SetCacheDisabledParams{CacheDisabled: true}); err != nil {
		done()
		return nil, nil, nil, err
	}
	if _, err := chromedp.Call(ctx, page.Enable, page.EnableParams{}); err != nil {
		done()
		return nil, nil, nil, err
	}
	if _, err := chromedp.Call(ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: readyProbe}); err != nil {
		done()
		return nil, nil, nil, err
	}
	if err := chromedp.Do(ctx, chromedp.Navigate(b.srv.URL+"/index.html")); err != nil {
		done()
		return nil, nil, nil, err
	}
	if err := chromedp.Do(ctx, chromedp.Poll[chromedp.Void]("window.__readyAt !== undefined", chromedp.WithPollingTimeout(2*time.Minute))); err != nil {
		done()
		return nil, nil, nil, fmt.Errorf("waiting for window.dpsampleUIReady: %w", err)
	}
	return ctx, done, w, nil
}

// loadTimes opens index.html in n fresh tabs (cache disabled) and returns the
// milliseconds from navigation start to window.dpsampleUIReady, and the
// bytes on the wire of the last load at that moment.
func (b *browser) loadTimes(n int) (ms []float64, last *wire, err error) {
	for range n {
		ctx, done, w, err := b.tab(10 * time.Minute)
		if err != nil {
			return nil, nil, err
		}
		v, err := chromedp.Run(ctx, chromedp.Evaluate[float64]("window.__readyAt"))
		done()
		if err != nil {
			return nil, nil, err
		}
		ms, last = append(ms, v), w
	}
	return ms, last, nil
}

// chromPlace is a tab on index.html whose main thread runs job lists
// through dpsample._bench (benchJS).
type chromPlace struct {
	ctx  context.Context
	done context.CancelFunc
}

func (b *browser) benchPlace() (*chromPlace, error) {
	ctx, done, _, err := b.tab(10 * time.Minute)
	if err != nil {
		return nil, err
	}
	// Let the page's start-up work (first renders, the worker) settle.
	time.Sleep(2 * time.Second)
	return &chromPlace{ctx, done}, nil
}

func (c *chromPlace) run(js []job) (map[string][]float64, error) {
	arg, _ := json.Marshal(js)
	expr := "(" + strings.TrimSpace(benchJS) + ")(" + string(arg) + ")"
	return chromedp.Run(c.ctx, chromedp.Evaluate[map[string][]float64](expr, chromedp.EvalAwaitPromise))
}

func (c *chromPlace) close() { c.done() }
