//go:build !js

// Package devserver serves the repository root for development and for the
// browser tests: correct MIME types (application/wasm, text/javascript) and
// the security headers of the product design §3, sent as HTTP headers in
// addition to the pages' own CSP meta tags.
package devserver

import (
	"mime"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"strings"
)

// MetaCSP is the policy in the pages' <meta http-equiv> tags: nothing but the
// page's own origin, wasm compilation allowed, no inline script.
const MetaCSP = "default-src 'none'; script-src 'self' 'wasm-unsafe-eval'; worker-src 'self'; style-src 'self'; " +
	"img-src 'self' data:; connect-src 'self'; font-src 'self'; base-uri 'none'; form-action 'none'"

// CSP is the Content-Security-Policy header of every response: MetaCSP plus
// frame-ancestors, which browsers ignore (with a console error) in a <meta>
// tag and honour only as a header (docs/ELEMENTS.md, Hosting).
const CSP = MetaCSP + "; frame-ancestors 'self'"

func init() {
	// Never depend on the host's /etc/mime.types for these.
	mime.AddExtensionType(".wasm", "application/wasm")
	mime.AddExtensionType(".js", "text/javascript; charset=utf-8")
	mime.AddExtensionType(".mjs", "text/javascript; charset=utf-8")
	mime.AddExtensionType(".css", "text/css; charset=utf-8")
	mime.AddExtensionType(".svg", "image/svg+xml")
	mime.AddExtensionType(".csv", "text/csv; charset=utf-8")
	mime.AddExtensionType(".ts", "text/plain; charset=utf-8")
}

// Handler serves the files under root with the security headers. Paths to Go
// sources and dot-files are refused: only the site is published. The
// documentation, docs/ in the repository, is also served at /site/docs/,
// where a release has it (beside elements.js, whose links point there).
func Handler(root string) http.Handler {
	fs := http.FileServer(http.Dir(root))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if rest, ok := strings.CutPrefix(r.URL.Path, "/site/docs/"); ok {
			u := *r.URL
			u.Path, u.RawPath = "/docs/"+rest, ""
			r = r.Clone(r.Context())
			r.URL = &u
		}
		p := r.URL.Path
		if strings.Contains(p, "/.") || strings.HasSuffix(p, ".go") || strings.HasPrefix(p, "/core/") || strings.HasPrefix(p, "/wasm/") {
			http.NotFound(w, r)
			return
		}
		h := w.Header()
		h.Set("Content-Security-Policy", CSP)
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "no-referrer")
		// COOP + COEP make the page cross-origin isolated: SharedArrayBuffer
		// and Atomics exist, and a run's shard workers share memory with the
		// sampling worker instead of exchanging messages (wasm/internal/pool).
		h.Set("Cross-Origin-Opener-Policy", "same-origin")
		h.Set("Cross-Origin-Embedder-Policy", "require-corp")
		h.Set("Cross-Origin-Resource-Policy", "same-origin")
		h.Set("Permissions-Policy", "camera=(), microphone=(), geolocation=(), interest-cohort=()")
		h.Set("Cache-Control", "no-cache")
		if served := servePrecompressed(w, r, root); served {
			return
		}
		fs.ServeHTTP(w, r)
	})
}

// servePrecompressed answers a request for a file that has a precompressed
// sibling (name.br or name.gz, written by ./build.sh build) with that sibling
// when the client accepts its encoding, as static hosts do. It reports
// whether it answered.
//
// A sibling older than its original is stale (the original was edited after
// the last build) and is not served. A directory's index.html is served
// compressed too.
func servePrecompressed(w http.ResponseWriter, r *http.Request, root string) bool {
	p := r.URL.Path
	if strings.HasSuffix(p, "/") {
		p += "index.html"
	}
	p = path.Clean(p)
	if strings.HasSuffix(p, ".br") || strings.HasSuffix(p, ".gz") {
		return false
	}
	name := filepath.Join(root, filepath.FromSlash(p))
	orig, err := os.Stat(name)
	if err != nil || orig.IsDir() {
		return false
	}
	accept := r.Header.Get("Accept-Encoding")
	for _, enc := range []struct{ token, ext string }{{"br", ".br"}, {"gzip", ".gz"}} {
		if !acceptsEncoding(accept, enc.token) {
			continue
		}
		f, err := os.Open(name + enc.ext)
		if err != nil {
			continue
		}
		defer f.Close()
		st, err := f.Stat()
		if err != nil || st.IsDir() || st.ModTime().Before(orig.ModTime()) {
			continue
		}
		if ct := mime.TypeByExtension(path.Ext(p)); ct != "" {
			w.Header().Set("Content-Type", ct)
		}
		w.Header().Set("Content-Encoding", enc.token)
		w.Header().Add("Vary", "Accept-Encoding")
		http.ServeContent(w, r, "", st.ModTime(), f)
		return true
	}
	return false
}

// acceptsEncoding reports whether an Accept-Encoding header allows token
// (ignoring q-values other than an explicit q=0).
func acceptsEncoding(header, token string) bool {
	for _, part := range strings.Split(header, ",") {
		name, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		if strings.EqualFold(strings.TrimSpace(name), token) {
			return !strings.Contains(strings.ReplaceAll(params, " ", ""), "q=0") || strings.Contains(params, "q=0.")
		}
	}
	return false
}
