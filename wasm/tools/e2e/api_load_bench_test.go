//go:build !js

package e2e

import (
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/dpsample/dpsample/wasm/tools/devserver"
)

// apiPage is a page without the elements whose one script calls load() with
// the module named by ?m= and marks the moment it resolves (the worker
// answered "ready") for loadWith's probe, as both __uiAt and __workerAt.
const apiPage = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>API load</title>
<script type="module">
const { load } = await import("/site/dpsample.js");
const dp = await load({ wasmURL: new URLSearchParams(location.search).get("m") });
window.__uiAt = window.__workerAt = performance.now();
</script></head><body></body></html>`

// BenchmarkAPILoad compares, interleaved on one browser, cold loads of a
// page that only uses the JS API: load() running the API's own module
// (dpsample-api.wasm) and load() running the elements' module
// (dpsample.wasm), from the same built tree (E2E_LOAD_AFTER, default this
// repository: build it without the test hooks for numbers to quote), served
// by the dev server's handler with the precompressed copies offered as gzip
// only and as brotli. Reported: medians of navigation → load() resolved, of
// 9 loads each, their ratio, and the bytes on the wire. Run:
//
//	E2E_REQUIRE=1 go test -run '^$' -bench APILoad -benchtime 1x ./wasm/tools/e2e/
func BenchmarkAPILoad(b *testing.B) {
	dir := os.Getenv("E2E_LOAD_AFTER")
	if dir == "" {
		dir = root
	}
	site := devserver.Handler(dir)
	modules := []string{"dpsample-api.wasm", "dpsample.wasm"}
	for _, enc := range []string{"gzip", "br"} {
		b.Run(enc, func(b *testing.B) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if r.URL.Path == "/api.html" {
					w.Header().Set("Content-Type", "text/html; charset=utf-8")
					io.WriteString(w, apiPage)
					return
				}
				r.Header.Set("Accept-Encoding", enc)
				site.ServeHTTP(w, r)
			}))
			defer srv.Close()
			ready := map[string][]float64{}
			wire := map[string]float64{}
			for range b.N * 9 {
				for _, m := range modules {
					ph := loadWith(b, srv.URL+"/api.html?m="+m, 300*time.Millisecond, "", nil)
					ready[m] = append(ready[m], ph.UI)
					wire[m] = 0
					for p, n := range ph.Bytes {
						if strings.HasSuffix(p, ".wasm") {
							wire[m] += n
						}
					}
				}
			}
			for _, m := range modules {
				b.Logf("%s, load() with %s: ready %v ms (median %.0f); the module on the wire %.0f B", enc, m, rounded(ready[m]), median(ready[m]), wire[m])
				b.ReportMetric(median(ready[m]), "ms-ready-"+strings.TrimSuffix(m, ".wasm"))
				b.ReportMetric(wire[m], "wire-bytes-"+strings.TrimSuffix(m, ".wasm"))
			}
			b.ReportMetric(median(ready[modules[0]])/median(ready[modules[1]]), "ready-ratio-api/full")
			b.ReportMetric(0, "ns/op")
		})
	}
}
