//go:build !js

package e2e

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"

	"github.com/dpsample/dpsample/wasm/tools/devserver"
)

// TestModuleOneDownload (issue 45 item 8): index.html downloads the module
// once whatever the server. A plain static server (no compression): the
// loader cancels the raw response at its headers — none of its body arrives
// — and downloads dpsample.wasm.gz; index.html used to preload the raw
// module, whose download the cancel did not stop (4.4 of 7.4 MB on loopback,
// then the .gz: two downloads). The dev server (it compresses): one request,
// the brotli copy. Counted from Chromium's network log: every request,
// cancelled ones included, and the body bytes each received
// (Network.dataReceived; Resource Timing reports 0 for a cancelled one). The
// UI and the worker must start.
func TestModuleOneDownload(t *testing.T) {
	size := func(name string) int64 {
		st, err := os.Stat(filepath.Join(root, "site", name))
		if err != nil {
			t.Fatal(err)
		}
		return st.Size()
	}
	raw, gz, br := size("dpsample.wasm"), size("dpsample.wasm.gz"), size("dpsample.wasm.br")
	// A host page that preloads the module anyway (index.html before issue
	// 45), from the plain server: the loader uses the preloaded response, raw,
	// rather than download the .gz too.
	index, err := os.ReadFile(filepath.Join(root, "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	const anchor = `<link rel="modulepreload" href="site/dpsample.js">`
	preloading := strings.Replace(string(index), anchor, `<link rel="preload" href="site/dpsample.wasm" as="fetch" crossorigin>`+anchor, 1)
	if preloading == string(index) {
		t.Fatal("index.html has no modulepreload link to put a preload before")
	}
	plain := plainHandler(root, nil, nil)
	preloadHandler := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/" {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			w.Write([]byte(preloading))
			return
		}
		plain.ServeHTTP(w, r)
	})
	for _, c := range []struct {
		name    string
		handler http.Handler
		want    map[string]int64 // module path → body bytes received (decoded)
		enc     string           // Content-Encoding of /site/dpsample.wasm
		wire    int64            // at most this many bytes of the module on the wire (+ 64 KiB)
	}{
		{"plain", plain, map[string]int64{"/site/dpsample.wasm": 0, "/site/dpsample.wasm.gz": gz}, "", gz},
		{"compressing", devserver.Handler(root), map[string]int64{"/site/dpsample.wasm": raw}, "br", br},
		{"plain, a page that preloads it", preloadHandler, map[string]int64{"/site/dpsample.wasm": raw}, "", raw},
	} {
		t.Run(c.name, func(t *testing.T) {
			srv := httptest.NewServer(c.handler)
			t.Cleanup(srv.Close)
			p := openURL(t, srv.URL+"/site/favicon.svg") // record from the start of the next navigation
			var mu sync.Mutex
			path := map[network.RequestID]string{}
			var reqs []string
			body := map[string]int64{}
			wire := map[string]float64{} // bytes on the wire of a finished response
			if err := chromedp.Listen(p.ctx, func(ev any) {
				mu.Lock()
				defer mu.Unlock()
				switch e := ev.(type) {
				case *network.EventRequestWillBeSent:
					u := strings.TrimPrefix(e.Request.URL, srv.URL)
					path[e.RequestID] = u
					if strings.Contains(u, ".wasm") {
						reqs = append(reqs, u)
					}
				case *network.EventDataReceived:
					if u := path[e.RequestID]; strings.Contains(u, ".wasm") {
						body[u] += e.DataLength
					}
				case *network.EventLoadingFinished:
					if u := path[e.RequestID]; strings.Contains(u, ".wasm") {
						wire[u] = e.EncodedDataLength
					}
				}
			}); err != nil {
				t.Fatal(err)
			}
			p.mu.Lock()
			p.encodings = nil
			p.mu.Unlock()
			p.do(chromedp.Navigate(srv.URL + "/"))
			p.waitJS(`window.dpsampleUIReady === true && document.getElementById("status").dataset.state === "ready"`, 90*time.Second)
			time.Sleep(500 * time.Millisecond) // let the last network events arrive
			p.mu.Lock()
			enc := p.encodings[srv.URL+"/site/dpsample.wasm"]
			p.mu.Unlock()
			mu.Lock()
			defer mu.Unlock()
			t.Logf("%s server: module requests %q, body bytes received %v, on the wire %v (raw %d B, .gz %d B, .br %d B); Content-Encoding %q", c.name, reqs, body, wire, raw, gz, br, enc)
			if len(reqs) != len(c.want) {
				t.Errorf("%d module requests %q, want %d", len(reqs), reqs, len(c.want))
			}
			downloads := 0
			for _, u := range reqs {
				want, ok := c.want[u]
				if !ok {
					t.Errorf("request for %s", u)
					continue
				}
				if body[u] > 0 {
					downloads++
				}
				if body[u] != want {
					t.Errorf("%s: %d body bytes received, want %d", u, body[u], want)
				}
			}
			if total := func() (s float64) {
				for _, v := range wire {
					s += v
				}
				return
			}(); total > float64(c.wire)+64<<10 {
				t.Errorf("%.0f bytes of the module on the wire, more than one copy (%d B)", total, c.wire)
			}
			if downloads != 1 {
				t.Errorf("%d module responses sent a body, want 1", downloads)
			}
			if enc != c.enc {
				t.Errorf("/site/dpsample.wasm came with Content-Encoding %q, want %q", enc, c.enc)
			}
			p.noConsoleErrors()
		})
	}
}
