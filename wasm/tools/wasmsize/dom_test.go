//go:build !js

package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestPageModuleDOM guards wasm/ui/internal/kit/dom.go's rule in the page's module: no
// element or event of honnef.co/go/js/dom/v2 reaches an interface, so none
// of its dynamic wrappers (wrapElement's switch over ≈ 75 element types,
// wrapEvent's over ≈ 45 event types) is linked, and with them the ≈ 3,200
// per-type method copies (1.07 MB of code) one call through dom.Element
// brought back. It builds ./wasm for js/wasm (with names) and reads its
// functions; the check that the same reading finds the wrappers in a module
// that calls through the interface is TestPageModuleDOMBroken.
func TestPageModuleDOM(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the module")
	}
	m := buildModule(t, "../../..", "./wasm")
	var dom []string
	for _, f := range m.funcs {
		if strings.HasPrefix(f.name, "honnef.co_go_js_dom_v2.") {
			dom = append(dom, f.name)
		}
	}
	if len(dom) == 0 {
		t.Fatal("no function of honnef.co/go/js/dom/v2 found: the module no longer uses it, or the names are not read")
	}
	for _, f := range dom {
		for _, w := range dynamicWrappers {
			if strings.HasSuffix(f, "."+w) {
				t.Errorf("the page's module links dom/v2's %s: some code turns a DOM value into dom/v2's interface (see wasm/ui/internal/kit/dom.go)", w)
			}
		}
	}
	// 48 at the commit that introduced the rule; the per-type copies were ≈ 3,200.
	if len(dom) > 200 {
		t.Errorf("%d functions of dom/v2 linked (48 when wasm/ui/internal/kit/dom.go was written): a method is called through an interface again", len(dom))
	}
	t.Logf("%d functions of dom/v2 linked", len(dom))
}

// dynamicWrappers are dom/v2's functions that turn a js.Value into one of
// its interfaces by a switch over the concrete types.
var dynamicWrappers = []string{"wrapElement", "wrapHTMLElement", "wrapEvent", "wrapNode"}

// TestPageModuleDOMBroken: a program that calls one method through
// dom.Element links the wrappers and the copies, and the reading above sees
// them (the test above can fail).
func TestPageModuleDOMBroken(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a module")
	}
	src := `//go:build js && wasm

package main

import "honnef.co/go/js/dom/v2"

func main() {
	e := dom.GetWindow().Document().CreateElement("div") // dom.Element
	e.SetAttribute("id", "x")
}
`
	// A module of its own in a temporary directory, requiring the dom/v2
	// this repository pins (its go.sum copied: nothing is downloaded).
	dir := t.TempDir()
	ver, err := exec.Command("go", "list", "-m", "-f", "{{.Version}}", "honnef.co/go/js/dom/v2").Output()
	if err != nil {
		t.Fatal(err)
	}
	sum, err := os.ReadFile("../../../go.sum")
	if err != nil {
		t.Fatal(err)
	}
	mod := "module zz\n\ngo 1.24\n\nrequire honnef.co/go/js/dom/v2 " + strings.TrimSpace(string(ver)) + "\n"
	for name, b := range map[string][]byte{"main.go": []byte(src), "go.mod": []byte(mod), "go.sum": sum} {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	m := buildModule(t, dir, ".")
	found := map[string]bool{}
	copies := 0
	for _, f := range m.funcs {
		for _, w := range dynamicWrappers {
			if strings.HasSuffix(f.name, "."+w) {
				found[w] = true
			}
		}
		if strings.HasPrefix(f.name, "honnef.co_go_js_dom_v2.") && strings.HasSuffix(f.name, ".SetAttribute") {
			copies++
		}
	}
	if !found["wrapElement"] || copies < 50 {
		t.Errorf("a call through dom.Element: wrappers found %v, %d SetAttribute copies; the guard would not see it", found, copies)
	}
	t.Logf("one call through dom.Element: %d copies of SetAttribute", copies)
}

// buildModule builds the main package pkg in dir for js/wasm, keeping the
// function names, and parses it.
func buildModule(t *testing.T, dir, pkg string) *module {
	t.Helper()
	out := filepath.Join(t.TempDir(), "m.wasm")
	cmd := exec.Command("go", "build", "-trimpath", "-o", out, pkg)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build %s: %v\n%s", pkg, err, b)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	m, err := parse(b)
	if err != nil {
		t.Fatal(err)
	}
	return m
}
