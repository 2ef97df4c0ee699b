//go:build !js

package e2e

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/dpsample/dpsample/wasm/internal/version"
)

// coursePage is a host page that uses the installed package as an
// instructor would: the policy docs/ELEMENTS.md asks for, one module script
// (from the folder of the first %s; the second holds its other attributes,
// e.g. integrity), three elements.
const coursePage = `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'self' 'wasm-unsafe-eval'; worker-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'">
<link rel="icon" href="data:,">
<title>Week 7 — private learning by sampling</title>
<script type="module" src="%s/elements.js"%s></script>
</head><body>
<h1>Week 7</h1>
<p>Three figures from an installed dpsample.</p>
<dp-estimate epsilon="1"></dp-estimate>
<dp-trace-attack n="4"></dp-trace-attack>
<dp-privacy-curve epsilon="2" delta="1e-6"></dp-privacy-curve>
</body></html>`

// plainServer serves dir as a bare static server does: files as they are,
// no precompressed copies, no security headers. Paths in notFound answer
// 404; gzipEncoded paths are sent with Content-Encoding: gzip (a server that
// labels .gz files so, as Apache's AddEncoding does).
func plainServer(t testing.TB, dir string, notFound []string, gzipEncoded []string) *httptest.Server {
	srv := httptest.NewServer(plainHandler(dir, notFound, gzipEncoded))
	t.Cleanup(srv.Close)
	return srv
}

// plainHandler is plainServer's handler.
func plainHandler(dir string, notFound []string, gzipEncoded []string) http.Handler {
	fs := http.FileServer(http.Dir(dir))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		for _, p := range notFound {
			if strings.HasSuffix(r.URL.Path, p) {
				http.NotFound(w, r)
				return
			}
		}
		for _, p := range gzipEncoded {
			if strings.HasSuffix(r.URL.Path, p) {
				w.Header().Set("Content-Encoding", "gzip")
				w.Header().Set("Content-Type", "application/wasm")
			}
		}
		fs.ServeHTTP(w, r)
	})
}

// TestDistNpmInstall builds the release (./build.sh dist, with
// docs/ELEMENTS.md's hosting table checked against it), packs it with npm,
// installs the tarball offline into an empty folder, checks the installed
// files against the release's integrity.json, serves that folder with a
// plain static server and loads a course page with three elements from it:
// they render, a private estimate and the privacy curve compute,
// dpsample.version is the package's version, the module comes as its .gz
// (decompressed by the loader), the widgets' links to the docs and the data's
// licences resolve, and nothing the reader sees names a repository path.
// Then the loader's fallbacks: no .gz (the raw module), and a server that
// sends the .gz with Content-Encoding (the browser decompresses it).
func TestDistNpmInstall(t *testing.T) {
	if _, err := exec.LookPath("npm"); err != nil {
		t.Fatal("npm is needed for the release test (Debian: apt-get install npm)")
	}
	dist := exec.Command(filepath.Join(root, "build.sh"), "dist")
	dist.Dir, dist.Stdout, dist.Stderr = root, os.Stdout, os.Stderr
	dist.Env = append(os.Environ(), "DIST_DOCS=check")
	if err := dist.Run(); err != nil {
		t.Fatalf("./build.sh dist (DIST_DOCS=check): %v", err)
	}
	release := filepath.Join(root, "dist", "dpsample-"+version.Version)
	tmp := t.TempDir()
	npm := func(dir string, args ...string) string {
		t.Helper()
		cmd := exec.Command("npm", append(args, "--cache", filepath.Join(tmp, "npm-cache"), "--no-audit", "--no-fund", "--no-update-notifier")...)
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("npm %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return string(out)
	}
	npm(tmp, "pack", release, "--pack-destination", tmp)
	tgz := filepath.Join(tmp, "dpsample-"+version.Version+".tgz")
	if st, err := os.Stat(tgz); err != nil {
		t.Fatalf("npm pack made no %s: %v", filepath.Base(tgz), err)
	} else {
		t.Logf("%s: %d bytes", filepath.Base(tgz), st.Size())
	}
	site := filepath.Join(tmp, "course")
	if err := os.MkdirAll(site, 0o755); err != nil {
		t.Fatal(err)
	}
	npm(site, "install", "--offline", "--ignore-scripts", tgz)
	pkg := filepath.Join(site, "node_modules", "dpsample")

	// The installed files are the release's, byte for byte, and all of them.
	var m struct {
		Version string
		Files   []struct{ Path, SHA256, Integrity string }
	}
	b, err := os.ReadFile(filepath.Join(pkg, "integrity.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	if m.Version != version.Version || len(m.Files) < 30 {
		t.Fatalf("integrity.json: version %q, %d files", m.Version, len(m.Files))
	}
	for _, f := range m.Files {
		data, err := os.ReadFile(filepath.Join(pkg, filepath.FromSlash(f.Path)))
		if err != nil {
			t.Errorf("installed package lacks %s: %v", f.Path, err)
			continue
		}
		if h := sha256.Sum256(data); hex.EncodeToString(h[:]) != f.SHA256 {
			t.Errorf("installed %s differs from the release (sha256)", f.Path)
		}
	}

	// The script tag pins elements.js with its SRI string from integrity.json.
	var sri string
	for _, f := range m.Files {
		if f.Path == "elements.js" {
			sri = f.Integrity
		}
	}
	if !strings.HasPrefix(sri, "sha384-") {
		t.Fatalf("integrity.json: elements.js's integrity %q", sri)
	}
	if err := os.WriteFile(filepath.Join(site, "course.html"), []byte(fmt.Sprintf(coursePage, "node_modules/dpsample", ` integrity="`+sri+`"`)), 0o644); err != nil {
		t.Fatal(err)
	}
	srv := plainServer(t, site, nil, nil)
	p := openURL(t, srv.URL+"/course.html")
	p.waitJS(`window.dpsampleUIReady === true`, 90*time.Second)
	p.buildAll(60 * time.Second)
	p.waitJS(`document.querySelector("dp-privacy-curve section[data-built] svg") !== null && document.querySelector("dp-trace-attack section[data-built]") !== null`, 20*time.Second)
	if v := eval[string](p, `dpsample.version`); v != version.Version {
		t.Errorf("dpsample.version = %q, want the package's %q", v, version.Version)
	}
	if v := eval[string](p, `import("./node_modules/dpsample/dpsample.js").then(m => m.load()).then(dp => { const v = dp.version; dp.terminate(); return v; })`); v != version.Version {
		t.Errorf("load().version = %q, want %q", v, version.Version)
	}
	want := eval[float64](p, `dpsample.privacy.calibrate(2, 1e-6)`)
	if got := eval[float64](p, `parseFloat(document.getElementById("privacy-s").textContent)`); want <= 0 || (got-want)/want > 1e-5 || (want-got)/want > 1e-5 {
		t.Errorf("the privacy curve's s* = %g, want %g", got, want)
	}
	p.runEstimate()
	if s := p.text("#est-statement"); !strings.Contains(s, "differentially private") {
		t.Errorf("estimate statement: %q", s)
	}
	p.mu.Lock()
	reqs, transferred := strings.Join(p.requests, " "), p.transferred
	p.mu.Unlock()
	if !strings.Contains(reqs, "/node_modules/dpsample/dpsample.wasm.gz") {
		t.Errorf("the loader did not fetch the module's .gz from the plain server: %s", reqs)
	}
	if transferred > 2.5e6 {
		t.Errorf("%.2f MB on the wire from a plain server; the module's .gz is %d KB", transferred/1e6, fileSize(t, filepath.Join(pkg, "dpsample.wasm.gz"))/1000)
	}
	t.Logf("plain server: %.0f bytes on the wire", transferred)
	checkReaderText(t, p, "the course page")
	links := eval[map[string]int](p, sameOriginLinksJS)
	for _, l := range []string{"/node_modules/dpsample/data/SOURCES.md", "/node_modules/dpsample/docs/DEFAULTS.md"} {
		if links[l] != 200 {
			t.Errorf("link %s: %d (links: %v)", l, links[l], links)
		}
	}
	p.screenshot("dist-course")
	p.noConsoleErrors()

	// The release's lesson page (issue 32) opens from the installed package:
	// its links point beside it, and its five elements start.
	t.Run("lesson", func(t *testing.T) {
		p := openURL(t, srv.URL+"/node_modules/dpsample/lesson.html")
		p.waitJS(`window.dpsampleUIReady === true && document.querySelector("dp-median section[data-built] svg") !== null`, 90*time.Second)
		p.buildAll(60 * time.Second)
		if n := eval[int](p, `document.querySelectorAll("main > :is(dp-median, dp-privacy-curve, dp-dimension-free, dp-trace-attack, dp-bounds) > section[data-built]").length`); n != 5 {
			t.Errorf("%d of the lesson's 5 elements built", n)
		}
		checkReaderText(t, p, "the release's lesson page")
		p.noConsoleErrors()
	})

	// A page of an npm user of the JS API alone: load() fetches the API's own
	// module (its .gz, from the plain server), never the elements' module,
	// and the page's bytes on the wire are fewer than the course page's.
	t.Run("api-only", func(t *testing.T) {
		const apiPage = `<!doctype html><html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>API</title></head><body></body></html>`
		if err := os.WriteFile(filepath.Join(site, "api.html"), []byte(apiPage), 0o644); err != nil {
			t.Fatal(err)
		}
		p := openURL(t, srv.URL+"/api.html")
		p.waitJS(`document.readyState === "complete"`, 30*time.Second)
		if v := eval[string](p, `import("./node_modules/dpsample/dpsample.js").then(m => m.load()).then(async dp => { const s = await dp.privacy.calibrate(2, 1e-6); if (!(s > 0)) throw new Error("s " + s); return dp.version; })`); v != version.Version {
			t.Errorf("load().version = %q, want %q", v, version.Version)
		}
		time.Sleep(300 * time.Millisecond) // the last LoadingFinished events
		p.mu.Lock()
		apiReqs, apiBytes := strings.Join(p.requests, " "), p.transferred
		p.mu.Unlock()
		if !strings.Contains(apiReqs, "/node_modules/dpsample/dpsample-api.wasm.gz") || strings.Contains(apiReqs, "dpsample.wasm") {
			t.Errorf("load() on a page without the elements: want dpsample-api.wasm.gz and not dpsample.wasm; requests %s", apiReqs)
		}
		if apiBytes >= transferred {
			t.Errorf("the API-only page transferred %.0f B, the course page %.0f B", apiBytes, transferred)
		}
		t.Logf("plain server, a page that only calls load(): %.0f bytes on the wire (the course page: %.0f)", apiBytes, transferred)
		p.noConsoleErrors()
	})

	t.Run("no-gz", func(t *testing.T) {
		srv := plainServer(t, site, []string{".wasm.gz"}, nil)
		p := openURL(t, srv.URL+"/course.html")
		p.waitJS(`window.dpsampleUIReady === true && document.querySelector("dp-privacy-curve section[data-built] svg") !== null`, 90*time.Second)
		p.mu.Lock()
		n := 0
		for _, r := range p.requests {
			if strings.HasSuffix(r, "/dpsample.wasm") {
				n++
			}
		}
		p.mu.Unlock()
		if n != 2 {
			t.Errorf("the raw module was requested %d times, want 2 (the cancelled request, then the fallback after the .gz's 404)", n)
		}
		p.noConsoleErrors()
	})
	t.Run("gz-with-content-encoding", func(t *testing.T) {
		srv := plainServer(t, site, nil, []string{".wasm.gz"})
		p := openURL(t, srv.URL+"/course.html")
		p.waitJS(`window.dpsampleUIReady === true && document.querySelector("dp-privacy-curve section[data-built] svg") !== null`, 90*time.Second)
		p.noConsoleErrors()
	})
}

func fileSize(t *testing.T, path string) int64 {
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return st.Size()
}
