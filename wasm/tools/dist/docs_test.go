//go:build !js

package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dpsample/dpsample/wasm/internal/version"
)

func testFiles() ([]entry, map[string]size) {
	files := releaseFiles([]string{"site/data/b.csv", "site/data/a.csv"})
	sizes := map[string]size{}
	for i, e := range files {
		if e.Compress {
			sizes[e.Path] = size{Raw: int64(10000 * (i + 1)), Gzip: int64(3000 * (i + 1)), Brotli: int64(2500 * (i + 1))}
		}
	}
	sizes["dpsample.wasm"] = size{Raw: 8_350_000, Gzip: 1_500_000, Brotli: 1_080_000}
	sizes[apiModule] = size{Raw: 4_950_000, Gzip: 1_160_000, Brotli: 880_000}
	return files, sizes
}

// TestHostingTotals: the block's two download totals — a page with the
// elements (every fetched file but the data and dpsample-api.wasm) and a page
// that only calls load() (dpsample.js, worker.js, wasm_exec.js and
// dpsample-api.wasm) — are the sums of those files' sizes, recomputed here
// from the release's list.
func TestHostingTotals(t *testing.T) {
	files, sizes := testFiles()
	var page, api size
	for _, e := range files {
		s, ok := sizes[e.Path]
		if !ok || strings.HasPrefix(e.Path, "data/") {
			continue
		}
		switch e.Path {
		case apiModule:
			api.Raw, api.Gzip, api.Brotli = api.Raw+s.Raw, api.Gzip+s.Gzip, api.Brotli+s.Brotli
			continue
		case "dpsample.js", "worker.js", "wasm_exec.js":
			api.Raw, api.Gzip, api.Brotli = api.Raw+s.Raw, api.Gzip+s.Gzip, api.Brotli+s.Brotli
		}
		page.Raw, page.Gzip, page.Brotli = page.Raw+s.Raw, page.Gzip+s.Gzip, page.Brotli+s.Brotli
	}
	if _, ok := sizes[apiModule]; !ok || page.Raw == 0 || api.Raw == 0 {
		t.Fatalf("the release's list lacks %s or the scripts (page %v, api %v)", apiModule, page, api)
	}
	block := hostingBlock("0.1.0", files, sizes)
	for _, want := range []string{
		"**" + fmtSize(page.Raw) + "** raw, **" + fmtSize(page.Gzip) + "** as\ngzip, **" + fmtSize(page.Brotli) + "** as brotli",
		"**" + fmtSize(api.Raw) + "** raw, **" + fmtSize(api.Gzip) + "** as gzip, **" + fmtSize(api.Brotli) + "** as brotli",
	} {
		if !strings.Contains(block, want) {
			t.Errorf("the block lacks %q:\n%s", want, block)
		}
	}
}

func TestFmtSize(t *testing.T) {
	for _, c := range []struct {
		n    int64
		want string
	}{{956, "956 B"}, {1000, "1.00 KB"}, {14230, "14.2 KB"}, {120954, "121 KB"}, {8_350_000, "8.35 MB"}, {12_345_678, "12.3 MB"}} {
		if got := fmtSize(c.n); got != c.want {
			t.Errorf("fmtSize(%d) = %q, want %q", c.n, got, c.want)
		}
	}
}

// TestCheckBlock: the generated table passes against itself and against
// sizes that drifted a little, and fails for the stale sizes of issue 22, a
// file missing or added, another version and a changed note.
func TestCheckBlock(t *testing.T) {
	files, sizes := testFiles()
	block := hostingBlock("0.1.0", files, sizes)
	doc := "# Elements\n\n## Hosting\n\n" + block + "\n\nmore text\n"
	if err := checkBlock(doc, block); err != nil {
		t.Fatalf("the block against itself: %v", err)
	}
	drift := map[string]size{}
	for k, v := range sizes {
		drift[k] = size{v.Raw * 103 / 100, v.Gzip * 98 / 100, v.Brotli}
	}
	if err := checkBlock(doc, hostingBlock("0.1.0", files, drift)); err != nil {
		t.Errorf("sizes 3 %% larger and 2 %% smaller: %v", err)
	}
	stale := map[string]size{}
	for k, v := range sizes {
		stale[k] = v
	}
	stale["dpsample.wasm"] = size{Raw: 7_700_000, Gzip: 1_500_000, Brotli: 1_080_000} // issue 22: docs 7.7 MB, release 8.35 MB
	staleDoc := "# x\n" + hostingBlock("0.1.0", files, stale)
	if err := checkBlock(staleDoc, block); err == nil || !strings.Contains(err.Error(), "the docs say") {
		t.Errorf("stale module size: %v", err)
	}
	fewer, _ := testFiles()
	fewer = append(fewer[:2], fewer[3:]...)
	if err := checkBlock("# x\n"+hostingBlock("0.1.0", fewer, sizes), block); err == nil {
		t.Error("a file missing from the docs passes")
	}
	if err := checkBlock("# x\n"+hostingBlock("0.1.0", files, sizes), hostingBlock("0.1.0", releaseFiles([]string{"site/data/a.csv", "site/data/b.csv", "site/data/c.csv"}), sizes)); err == nil {
		t.Error("a file added to the release passes")
	}
	if err := checkBlock(doc, hostingBlock("0.2.0", files, sizes)); err == nil {
		t.Error("another version passes")
	}
	renamed, _ := testFiles()
	renamed[0].Note += " (edited)"
	if err := checkBlock(doc, hostingBlock("0.1.0", renamed, sizes)); err == nil {
		t.Error("a changed note passes")
	}
	if err := checkBlock("no block here", block); err == nil {
		t.Error("a doc without the block passes")
	}
	back, err := replaceBlock(doc, hostingBlock("0.1.0", files, drift))
	if err != nil || !strings.HasSuffix(back, "\n\nmore text\n") || !strings.HasPrefix(back, "# Elements\n\n## Hosting\n\n") {
		t.Errorf("replaceBlock: %v\n%s", err, back)
	}
}

// TestChangelog: the first entry must be the version; between releases an
// "Unreleased" entry may come first (not for dist).
func TestChangelog(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "CHANGELOG.md")
	for _, c := range []struct {
		text             string
		ok, okUnreleased bool
	}{
		{"# Changelog\n\n## 0.1.0 — 2026-12-02\n\nfirst\n", true, true},
		{"# Changelog\n\n## 0.2.0 — 2027-01-01\n\n## 0.1.0\n", false, false},
		{"# Changelog\n\nnothing yet\n", false, false},
		{"# Changelog\n\n## 0.1.0-rc1\n", false, false},
		{"# Changelog\n\n## Unreleased\n\n- a fix\n\n## 0.1.0 — 2026-12-02\n", false, true},
		{"# Changelog\n\n## Unreleased\n\n## Unreleased\n\n## 0.1.0\n", false, false},
		{"# Changelog\n\n## Unreleased\n\n## 0.0.9\n", false, false},
	} {
		os.WriteFile(p, []byte(c.text), 0o644)
		if err := checkChangelog(p, "0.1.0", false); (err == nil) != c.ok {
			t.Errorf("%q (a release): %v", c.text, err)
		}
		if err := checkChangelog(p, "0.1.0", true); (err == nil) != c.okUnreleased {
			t.Errorf("%q (between releases): %v", c.text, err)
		}
	}
}

// TestRepositoryChangelog: the repository's CHANGELOG.md starts with this
// version, or with an "Unreleased" entry and then this version (./build.sh
// dist refuses the latter until the release renames it).
func TestRepositoryChangelog(t *testing.T) {
	if err := checkChangelog(filepath.Join("..", "..", "..", "CHANGELOG.md"), version.Version, true); err != nil {
		t.Error(err)
	}
}
