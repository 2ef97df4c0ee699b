//go:build !js

// Package devserver serves the repository root for development and for the
// browser tests: correct MIME types (application/wasm, text/javascript) and
// the security headers of the product design §3, sent as HTTP headers in
// addition to the pages' own CSP meta tags.
package devserver

import (
	"mime"
	"net/http"
	"strings"
)

// CSP is the Content-Security-Policy of every page (the same text as the
// pages' <meta http-equiv> tags): nothing but the page's own origin, wasm
// compilation allowed, no inline script.
const CSP = "default-src 'none'; script-src 'self' 'wasm-unsafe-eval'; worker-src 'self'; style-src 'self'; " +
	"img-src 'self' data:; connect-src 'self'; font-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'self'"

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
// sources and dot-files are refused: only the site is published.
func Handler(root string) http.Handler {
	fs := http.FileServer(http.Dir(root))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p := r.URL.Path
		if strings.Contains(p, "/.") || strings.HasSuffix(p, ".go") || strings.HasPrefix(p, "/core/") || strings.HasPrefix(p, "/wasm/") {
			http.NotFound(w, r)
			return
		}
		h := w.Header()
		h.Set("Content-Security-Policy", CSP)
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "no-referrer")
		h.Set("Cross-Origin-Opener-Policy", "same-origin")
		h.Set("Cross-Origin-Resource-Policy", "same-origin")
		h.Set("Permissions-Policy", "camera=(), microphone=(), geolocation=(), interest-cohort=()")
		h.Set("Cache-Control", "no-cache")
		fs.ServeHTTP(w, r)
	})
}
