//go:build !js

package devserver

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestHeadersAndMIME(t *testing.T) {
	dir := t.TempDir()
	for name, body := range map[string]string{"index.html": "<!doctype html>", "site/a.wasm": "\x00asm", "site/a.js": "1", "core/x.go": "package x", "docs/A.md": "# A"} {
		p := filepath.Join(dir, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte(body), 0o644)
	}
	srv := httptest.NewServer(Handler(dir))
	defer srv.Close()
	for _, c := range []struct{ path, ctype string }{{"/", "text/html"}, {"/site/a.wasm", "application/wasm"}, {"/site/a.js", "text/javascript"}} {
		res, err := http.Get(srv.URL + c.path)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != 200 || !strings.HasPrefix(res.Header.Get("Content-Type"), c.ctype) {
			t.Errorf("%s: %d %q", c.path, res.StatusCode, res.Header.Get("Content-Type"))
		}
		if res.Header.Get("Content-Security-Policy") != CSP || res.Header.Get("X-Content-Type-Options") != "nosniff" {
			t.Errorf("%s: missing security headers", c.path)
		}
		if res.Header.Get("Cross-Origin-Opener-Policy") != "same-origin" || res.Header.Get("Cross-Origin-Embedder-Policy") != "require-corp" {
			t.Errorf("%s: not cross-origin isolated (COOP %q, COEP %q)", c.path, res.Header.Get("Cross-Origin-Opener-Policy"), res.Header.Get("Cross-Origin-Embedder-Policy"))
		}
	}
	if res, _ := http.Get(srv.URL + "/core/x.go"); res.StatusCode != 404 {
		t.Errorf("Go sources are served: %d", res.StatusCode)
	}
	// docs/ is also where a release has it, beside elements.js.
	for _, path := range []string{"/docs/A.md", "/site/docs/A.md"} {
		res, err := http.Get(srv.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		b := make([]byte, 3)
		n, _ := res.Body.Read(b)
		res.Body.Close()
		if res.StatusCode != 200 || string(b[:n]) != "# A" {
			t.Errorf("%s: %d %q", path, res.StatusCode, b[:n])
		}
	}
}

// TestCSPMatchesPages: every page's meta tag carries the header's policy
// except frame-ancestors, which only a header may carry.
func TestCSPMatchesPages(t *testing.T) {
	root := filepath.Join("..", "..", "..")
	pages, _ := filepath.Glob(filepath.Join(root, "*.html"))
	if len(pages) == 0 {
		t.Fatal("no pages found")
	}
	for _, p := range pages {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(b), `http-equiv="Content-Security-Policy" content="`+MetaCSP+`"`) {
			t.Errorf("%s: its CSP meta tag differs from devserver.MetaCSP", p)
		}
		if strings.Contains(string(b), "frame-ancestors") {
			t.Errorf("%s: frame-ancestors in a page (ignored in a <meta> tag, with a console error)", p)
		}
	}
}

// TestPrecompressed: a .br or .gz sibling is served with Content-Encoding
// when accepted, with the original's Content-Type; otherwise the plain file.
func TestPrecompressed(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "site"), 0o755)
	os.WriteFile(filepath.Join(dir, "site", "m.wasm"), []byte("plain"), 0o644)
	os.WriteFile(filepath.Join(dir, "site", "m.wasm.br"), []byte("brotli"), 0o644)
	os.WriteFile(filepath.Join(dir, "site", "m.wasm.gz"), []byte("gzip"), 0o644)
	srv := httptest.NewServer(Handler(dir))
	defer srv.Close()
	for _, c := range []struct{ accept, enc, body string }{
		{"gzip, deflate, br", "br", "brotli"}, {"gzip", "gzip", "gzip"}, {"", "", "plain"}, {"br;q=0, gzip", "gzip", "gzip"},
	} {
		req, _ := http.NewRequest("GET", srv.URL+"/site/m.wasm", nil)
		req.Header.Set("Accept-Encoding", c.accept)
		res, err := http.DefaultTransport.RoundTrip(req) // no transparent decompression
		if err != nil {
			t.Fatal(err)
		}
		b := make([]byte, 64)
		n, _ := res.Body.Read(b)
		res.Body.Close()
		if res.Header.Get("Content-Encoding") != c.enc || string(b[:n]) != c.body || res.Header.Get("Content-Type") != "application/wasm" {
			t.Errorf("Accept-Encoding %q: encoding %q body %q type %q", c.accept, res.Header.Get("Content-Encoding"), b[:n], res.Header.Get("Content-Type"))
		}
	}
}

// TestPrecompressedStaleAndIndex: a sibling older than its original (edited
// after the build) is not served; "/" is served from index.html's sibling.
func TestPrecompressedStaleAndIndex(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "site"), 0o755)
	write := func(name, body string, age time.Duration) {
		p := filepath.Join(dir, name)
		os.WriteFile(p, []byte(body), 0o644)
		when := time.Now().Add(-age)
		os.Chtimes(p, when, when)
	}
	write("site/app.js", "edited", 0)
	write("site/app.js.gz", "old gzip", time.Hour) // built before the edit
	write("index.html", "<!doctype html>", time.Hour)
	write("index.html.gz", "index gzip", 0)
	srv := httptest.NewServer(Handler(dir))
	defer srv.Close()
	for _, c := range []struct{ path, enc, body, ctype string }{
		{"/site/app.js", "", "edited", "text/javascript"},
		{"/", "gzip", "index gzip", "text/html"},
	} {
		req, _ := http.NewRequest("GET", srv.URL+c.path, nil)
		req.Header.Set("Accept-Encoding", "gzip")
		res, err := http.DefaultTransport.RoundTrip(req)
		if err != nil {
			t.Fatal(err)
		}
		b := make([]byte, 64)
		n, _ := res.Body.Read(b)
		res.Body.Close()
		if res.Header.Get("Content-Encoding") != c.enc || string(b[:n]) != c.body || !strings.HasPrefix(res.Header.Get("Content-Type"), c.ctype) {
			t.Errorf("%s: encoding %q body %q type %q, want %q %q %q", c.path, res.Header.Get("Content-Encoding"), b[:n], res.Header.Get("Content-Type"), c.enc, c.body, c.ctype)
		}
	}
}
