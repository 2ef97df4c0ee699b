//go:build !js

package e2e

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// repoPath matches what names a file or folder of dpsample's repository
// ("site/data/SOURCES.md", "core/dataset/builtin.go", "docs/DEFAULTS.md",
// "build.sh"): a reader of a course page has none of them. A file name alone
// ("SOURCES.md", "dpsample.js") is fine: a release ships it.
var repoPath = regexp.MustCompile(`\b(?:site|docs|core|wasm|cmd|internal)/[\w.-]+|\b[\w-]+\.go\b|\bbuild\.sh\b`)

// readerTextJS returns what a reader can see or hear on the page: the title,
// every text of the body (hidden ones too: they show on an error), and the
// titles, labels, placeholders and alternative texts of every element.
const readerTextJS = `(() => {
  const out = [document.title, document.body.textContent];
  for (const a of ["title", "aria-label", "placeholder", "alt"])
    for (const el of document.querySelectorAll("[" + a + "]")) out.push(el.getAttribute(a));
  return out.join("\n");
})()`

// checkReaderText fails the test for every repository path in what the
// reader sees of page p (what names where the text was read).
func checkReaderText(t *testing.T, p *page, what string) {
	t.Helper()
	checkNoRepoPath(t, what, eval[string](p, readerTextJS))
}

func checkNoRepoPath(t *testing.T, what, text string) {
	t.Helper()
	for _, loc := range repoPath.FindAllStringIndex(text, -1) {
		from, to := max(0, loc[0]-60), min(len(text), loc[1]+60)
		t.Errorf("%s: a reader sees the repository path %q in …%s…", what, text[loc[0]:loc[1]], strings.ToValidUTF8(text[from:to], ""))
	}
}

// sameOriginLinksJS returns the status of a HEAD request for every link of
// dpsample's elements that points to this origin (documentation, the data's
// sources): each must exist where the page is served.
const sameOriginLinksJS = `(async () => {
  const out = {};
  for (const a of document.querySelectorAll("dp-estimate a[href], dp-dimension-free a[href], dp-trace-attack a[href], dp-bounds a[href], dp-privacy-curve a[href], dp-median a[href], dp-membership a[href]")) {
    const u = new URL(a.href);
    if (u.protocol === "blob:" || u.origin !== location.origin || u.pathname === location.pathname) continue; // the export; other sites; in-page notes
    try { out[u.pathname] = (await fetch(u, { method: "HEAD" })).status; } catch (e) { out[u.pathname + " (" + e.message + ")"] = -1; }
  }
  return out;
})()`

// TestNoRepositoryPaths: no text a reader sees names a path of the
// repository, on index.html (every section built, a private estimate run,
// the CSV form, the breast-cancer ranges; the export's text, a blob the page's
// CSP keeps from being fetched back, is among TestUITextNoRepositoryPaths'
// literals) and on the embedding
// page (with an element whose attributes are wrong, which shows a message),
// and the widgets' links to the documentation and the data's licences
// resolve.
func TestNoRepositoryPaths(t *testing.T) {
	p := newPage(t, "/")
	p.waitJS(`window.dpsampleUIReady === true`, 60*time.Second)
	p.buildAll(60 * time.Second)
	p.runEstimate()
	checkReaderText(t, p, "index.html after a run")
	links := eval[map[string]int](p, sameOriginLinksJS)
	for _, want := range []string{"/site/data/SOURCES.md", "/docs/DEFAULTS.md"} {
		if _, ok := links[want]; !ok {
			t.Errorf("index.html: no link to %s among the widgets' links %v", want, links)
		}
	}
	for path, status := range links {
		if status != 200 {
			t.Errorf("index.html: the link to %s answers %d", path, status)
		}
	}
	p.setValue("est-data", "breast-cancer")
	p.waitJS(`document.querySelectorAll("#est-features input").length > 0`, 20*time.Second)
	p.setValue("est-data", "csv")
	checkReaderText(t, p, "index.html, breast cancer then CSV")
	p.noConsoleErrors()

	e := newPage(t, "/embed.html")
	e.waitJS(`window.dpsampleUIReady === true`, 60*time.Second)
	e.buildAll(30 * time.Second)
	eval[bool](e, `(() => { const h = document.createElement("div"); h.innerHTML = '<dp-estimate id="bad" dataset="iris"></dp-estimate>'; document.querySelector("main").append(h); return true })()`)
	e.waitJS(`document.querySelector("#bad .dp-message a") !== null`, 5*time.Second)
	checkReaderText(t, e, "embed.html with an attribute message")
	links = eval[map[string]int](e, sameOriginLinksJS)
	if links["/site/docs/ELEMENTS.md"] != 200 {
		t.Errorf("embed.html: the attribute message's link to the elements' documentation: %v", links)
	}
}

// TestUITextNoRepositoryPaths reads every string literal of the Go UI
// (wasm/ui and its packages), including the texts of states a browser test
// does not reach, and fails on a repository path. The defaults of kit.Attr()
// (URLs such as "site/data/", never shown) are not text.
func TestUITextNoRepositoryPaths(t *testing.T) {
	var files []string
	err := filepath.WalkDir(filepath.Join(root, "wasm", "ui"), func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(path, ".go") {
			files = append(files, path)
		}
		return err
	})
	if err != nil || len(files) < 5 {
		t.Fatalf("wasm/ui: %d files (%v)", len(files), err)
	}
	fset := token.NewFileSet()
	literals := 0
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		af, err := parser.ParseFile(fset, f, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(af, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.ImportSpec:
				return false
			case *ast.CallExpr:
				if id, ok := n.Fun.(*ast.Ident); ok && id.Name == "Attr" { // in package kit
					return false
				}
				if se, ok := n.Fun.(*ast.SelectorExpr); ok && se.Sel.Name == "Attr" {
					if x, ok := se.X.(*ast.Ident); ok && x.Name == "kit" {
						return false
					}
				}
			case *ast.BasicLit:
				if n.Kind == token.STRING {
					literals++
					s, _ := strconv.Unquote(n.Value)
					checkNoRepoPath(t, fset.Position(n.Pos()).String(), s)
				}
			}
			return true
		})
	}
	if literals < 500 {
		t.Errorf("only %d string literals read in wasm/ui", literals)
	}
}
