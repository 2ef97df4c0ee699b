//go:build !js

// Package chrome is the headless Chromium the bench and compareload time
// the page in: Debian's chromium (wasm/tools/headless) and the dev server
// (wasm/tools/devserver) serving the repository, with the encoded bytes of
// each load (Wire) and the module compressed as ./build.sh build ships it.
package chrome

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"net/http/httptest"
	"os/exec"
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

// Browser is a headless Chromium (Debian's chromium, as in wasm/tools/e2e) and
// the dev server's handler serving the repository.
type Browser struct {
	Ctx     context.Context
	cancel  []context.CancelFunc
	Srv     *httptest.Server
	Version string
	Pid     int // the browser process (rows.go reads its CPU time)
}

// Start starts a headless Chromium and a dev server (wasm/tools/devserver)
// serving root.
func Start(root string) (*Browser, error) {
	bctx, cancel, err := headless.Start()
	if err != nil {
		return nil, err
	}
	b := &Browser{Srv: httptest.NewServer(devserver.Handler(root)), Ctx: bctx, cancel: []context.CancelFunc{cancel}}
	v, err := chromedp.Call(bctx, cdpbrowser.GetVersion, cdp.Empty{})
	if err != nil {
		b.Close()
		return nil, fmt.Errorf("cannot start chromium: %w", err)
	}
	b.Version = v.Product
	if c := chromedp.FromContext(bctx); c != nil && c.Browser != nil && c.Browser.Process() != nil {
		b.Pid = c.Browser.Process().Pid
	}
	return b, nil
}

// Close stops the browser and the server (a nil b is a no-op).
func (b *Browser) Close() {
	if b == nil {
		return
	}
	for _, c := range b.cancel {
		c()
	}
	b.Srv.Close()
}

// readyProbe records performance.now() (milliseconds since navigation start)
// the moment the Go UI sets window.dpsampleUIReady.
const readyProbe = `Object.defineProperty(window, "dpsampleUIReady", {
  configurable: true,
  get() { return this.__dpsampleUIReady; },
  set(v) { if (v && this.__readyAt === undefined) this.__readyAt = performance.now(); this.__dpsampleUIReady = v; },
});`

// Wire records the encoded bytes of every response of a page load.
type Wire struct {
	mu       sync.Mutex
	url      map[network.RequestID]string
	encoding map[network.RequestID]string
	Total    float64 // all responses
	Wasm     float64 // responses whose URL ends in .wasm
	WasmEnc  string  // their Content-Encoding
}

func (w *Wire) listen(ev any) {
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
		w.Total += e.EncodedDataLength
		if strings.HasSuffix(w.url[e.RequestID], ".wasm") {
			w.Wasm += e.EncodedDataLength
			w.WasmEnc = w.encoding[e.RequestID]
		}
	}
}

// Tab opens a new tab with the HTTP cache disabled and the ready probe
// installed, and navigates to index.html; the tab lives at most limit.
func (b *Browser) Tab(limit time.Duration) (context.Context, context.CancelFunc, *Wire, error) {
	tctx, cancel := chromedp.NewContext(b.Ctx)
	ctx, cancelT := context.WithTimeout(tctx, limit)
	done := func() { cancelT(); cancel() }
	w := &Wire{url: map[network.RequestID]string{}, encoding: map[network.RequestID]string{}}
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
	if err := chromedp.Do(ctx, chromedp.Navigate(b.Srv.URL+"/index.html")); err != nil {
		done()
		return nil, nil, nil, err
	}
	if err := chromedp.Do(ctx, chromedp.Poll[chromedp.Void]("window.__readyAt !== undefined", chromedp.WithPollingTimeout(2*time.Minute))); err != nil {
		done()
		return nil, nil, nil, fmt.Errorf("waiting for window.dpsampleUIReady: %w", err)
	}
	return ctx, done, w, nil
}

// LoadTimes opens index.html in n fresh tabs (cache disabled) and returns the
// milliseconds from navigation start to window.dpsampleUIReady, and the
// bytes on the wire of the last load at that moment.
func (b *Browser) LoadTimes(n int) (ms []float64, last *Wire, err error) {
	for range n {
		ctx, done, w, err := b.Tab(10 * time.Minute)
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

// Compressed returns raw as gzip at compress/gzip's BestCompression and as
// brotli at quality 11 (node's zlib, as ./build.sh build writes the .br
// siblings).
func Compressed(raw []byte) (gz, br []byte, err error) {
	var b bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&b, gzip.BestCompression)
	zw.Write(raw)
	if err := zw.Close(); err != nil {
		return nil, nil, err
	}
	cmd := exec.Command("node", "-e", `const z = require("zlib"), fs = require("fs");
const b = fs.readFileSync(0);
process.stdout.write(z.brotliCompressSync(b, { params: { [z.constants.BROTLI_PARAM_QUALITY]: 11, [z.constants.BROTLI_PARAM_SIZE_HINT]: b.length } }));`)
	cmd.Stdin = bytes.NewReader(raw)
	if br, err = cmd.Output(); err != nil {
		return nil, nil, fmt.Errorf("brotli (node): %w", err)
	}
	return b.Bytes(), br, nil
}

// Bytes returns the encoded bytes of the .wasm responses and of all
// responses so far, and the .wasm's Content-Encoding.
func (w *Wire) Bytes() (wasm, total float64, wasmEncoding string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.Wasm, w.Total, w.WasmEnc
}
