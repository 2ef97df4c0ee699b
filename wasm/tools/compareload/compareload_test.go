//go:build !js

package main

import (
	"os"
	"path/filepath"
	"testing"
)

// TestMirrorRoot: the mirror links every entry of the root and of site/
// except the module and its siblings, which it leaves to compareLoad.
func TestMirrorRoot(t *testing.T) {
	root, dst := t.TempDir(), t.TempDir()
	for _, f := range []string{"index.html", "site/app.js", "site/dpsample.wasm", "site/dpsample.wasm.br", "site/dpsample-api.wasm"} {
		p := filepath.Join(root, filepath.FromSlash(f))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(f), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := mirrorRoot(root, dst); err != nil {
		t.Fatal(err)
	}
	for f, want := range map[string]bool{"index.html": true, "site/app.js": true, "site/dpsample-api.wasm": true, "site/dpsample.wasm": false, "site/dpsample.wasm.br": false} {
		b, err := os.ReadFile(filepath.Join(dst, filepath.FromSlash(f)))
		if (err == nil) != want || (want && string(b) != f) {
			t.Errorf("%s in the mirror: %q, %v; want present %v", f, b, err, want)
		}
	}
	if fi, err := os.Lstat(filepath.Join(dst, "site")); err != nil || !fi.IsDir() {
		t.Errorf("site/ in the mirror is not its own directory: %v", err)
	}
}
