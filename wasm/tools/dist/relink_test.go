//go:build !js

package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRelinkLesson: the repository's lesson.html, relinked for the release,
// loads elements.js from beside it and keeps no path into site/; a page with
// a site/ path relinking does not cover is refused.
func TestRelinkLesson(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "lesson.html")
	if err := relinkTo(filepath.Join("..", "..", "..", "lesson.html"), out); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `<script type="module" src="elements.js"></script>`) || !strings.Contains(string(b), `<link rel="stylesheet" href="lesson.css">`) ||
		strings.Contains(string(b), "site/") {
		t.Errorf("relinked lesson.html: %s", b)
	}
	bad := filepath.Join(dir, "bad.html")
	if err := os.WriteFile(bad, []byte(`<img srcset="site/x.png">`), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := relinkTo(bad, filepath.Join(dir, "bad-out.html")); err == nil {
		t.Error("a site/ path left after relinking was accepted")
	}
}
