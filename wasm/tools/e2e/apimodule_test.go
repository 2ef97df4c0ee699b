//go:build !js

package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestAPIModule: a page without the elements that calls load() (as an npm
// user of the JS API does) gets dpsample-api.wasm, the API's own module
// built with -tags dpsample_apionly, and never the elements' dpsample.wasm;
// its worker answers, and a first-order run on 2 shard workers (new
// instances of the same module, site/shard.js) returns θ bit for bit equal
// to the one-worker run. The main thread runs no module (globalThis.dpsample
// stays undefined): everything goes through the worker.
func TestAPIModule(t *testing.T) {
	p := newPage(t, "/e2e-testdata/api.html")
	p.waitJS(`document.readyState === "complete"`, 30*time.Second)
	if !eval[bool](p, `import("/site/dpsample.js").then(m => { globalThis.dpsampleRemote = m.load(); return dpsampleRemote; }).then(() => true)`) {
		t.Fatal("load() did not resolve")
	}
	if s := eval[float64](p, `dpsampleRemote.then(d => d.privacy.calibrate(1, 1e-5))`); s < 0.26805 || s > 0.26806 {
		t.Fatalf("worker calibrate(1, 1e-5) = %g", s)
	}
	if eval[bool](p, `globalThis.dpsample !== undefined || globalThis.dpsampleUIReady !== undefined`) {
		t.Error("the page's main thread runs a module (globalThis.dpsample or dpsampleUIReady set)")
	}
	eval[bool](p, poolSetup+` true`)
	one := eval[poolResult](p, `poolRun(1)`)
	two := eval[poolResult](p, `poolRun(2)`)
	if !one.OK || one.Workers != 1 || len(one.Theta) != 8 || !two.OK || two.Workers != 2 {
		t.Fatalf("one worker %+v; two workers %+v", one, two)
	}
	for j := range one.Theta {
		if two.Theta[j] != one.Theta[j] {
			t.Fatalf("θ on 2 shard workers %v, on one %v", two.Theta, one.Theta)
		}
	}
	p.mu.Lock()
	reqs := append([]string(nil), p.requests...)
	p.mu.Unlock()
	api := 0
	for _, r := range reqs {
		switch {
		case strings.HasSuffix(r, "/site/dpsample-api.wasm"):
			api++
		case strings.Contains(r, "dpsample.wasm"):
			t.Errorf("a page that only calls load() fetched %s, the elements' module", r)
		}
	}
	if api != 1 {
		t.Errorf("dpsample-api.wasm was requested %d times, want 1 (requests: %v)", api, reqs)
	}
	st := func(name string) int64 {
		fi, err := os.Stat(filepath.Join(root, "site", name))
		if err != nil {
			t.Fatal(err)
		}
		return fi.Size()
	}
	t.Logf("dpsample-api.wasm: %d B raw, %d B brotli; dpsample.wasm: %d B raw, %d B brotli (both with the test hooks)",
		st("dpsample-api.wasm"), st("dpsample-api.wasm.br"), st("dpsample.wasm"), st("dpsample.wasm.br"))
	p.noConsoleErrors()
}
