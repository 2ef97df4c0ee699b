//go:build !js

package e2e

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// TestDocsExamples runs every ```js block of docs/API.md (after the first,
// which shows the import) in the page as the body of an async function with
// dp = the loaded worker API. A block signals failure by throwing.
func TestDocsExamples(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(root, "docs", "API.md"))
	if err != nil {
		t.Fatal(err)
	}
	blocks := regexp.MustCompile("(?s)```js\n(.*?)```").FindAllStringSubmatch(string(b), -1)
	if len(blocks) < 10 {
		t.Fatalf("docs/API.md has %d js examples", len(blocks))
	}
	p := newPage(t, "/")
	p.waitJS(`document.getElementById("status").dataset.state === "ready"`, 60*time.Second)
	for i, blk := range blocks[1:] {
		body := blk[1]
		js := "(async () => { const dp = await dpsampleRemote;\n" + body + "\nreturn 'ok'; })().catch(e => 'FAILED: ' + (e && e.stack || e))"
		if got := eval[string](p, js); got != "ok" {
			t.Errorf("docs example %d failed: %s\n%s", i+1, got, strings.TrimSpace(body))
		}
	}
	p.noConsoleErrors()
}
