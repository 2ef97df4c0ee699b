//go:build !js

package e2e

import (
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
)

// TestPageTransfer loads the full page until it is interactive and sums the
// bytes on the wire (Chromium's encodedDataLength, i.e. after compression),
// with the dev server serving precompressed siblings as a static host would,
// and that the module is requested once (no .gz fetched by the loader).
// Budget (issue 7): 1.5 MB.
func TestPageTransfer(t *testing.T) {
	p := newPage(t, "/")
	p.waitJS(`window.dpsampleUIReady === true && document.getElementById("status").dataset.state === "ready"`, 60*time.Second)
	p.buildAll(30 * time.Second)
	// Measure a cold load: no HTTP cache (other tabs of this browser loaded the page).
	if _, err := chromedp.Call(p.ctx, network.SetCacheDisabled, network.SetCacheDisabledParams{CacheDisabled: true}); err != nil {
		t.Fatal(err)
	}
	p.mu.Lock()
	p.transferred, p.requests = 0, nil
	p.mu.Unlock()
	p.do(chromedp.Reload())
	p.waitJS(`window.dpsampleUIReady === true && document.getElementById("status").dataset.state === "ready"`, 60*time.Second)
	p.buildAll(30 * time.Second)
	time.Sleep(300 * time.Millisecond) // let the last LoadingFinished events arrive
	p.mu.Lock()
	total, n, enc := p.transferred, len(p.requests), p.encodings
	p.mu.Unlock()
	t.Logf("page transfer: %.0f bytes in %d requests; encodings %v", total, n, enc)
	// A server that sends the module compressed keeps the loader's one request
	// (the .gz is only for plain servers: dpsample.js's fetchModule).
	p.mu.Lock()
	modules := 0
	for _, r := range p.requests {
		if strings.Contains(r, "dpsample-api.wasm") {
			t.Errorf("the page fetched %s, the JS API's own module: its worker must share the page's dpsample.wasm", r)
		}
		if strings.Contains(r, "dpsample.wasm") {
			modules++
			if !strings.HasSuffix(r, "/site/dpsample.wasm") {
				t.Errorf("request for %s from the dev server, which sends the module compressed", r)
			}
		}
	}
	p.mu.Unlock()
	if modules != 1 {
		t.Errorf("the module was requested %d times, want 1", modules)
	}
	if total > 1.5e6 {
		t.Errorf("the page transferred %.2f MB, over the 1.5 MB budget", total/1e6)
	}
	p.noConsoleErrors()
}
