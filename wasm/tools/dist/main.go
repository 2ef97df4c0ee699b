//go:build !js

// Command dist writes dpsample's release, dist/dpsample-<version>/: exactly
// the files a host needs (the list and why each is there: files.go), the
// precompressed .gz and .br siblings of those a page fetches, an integrity
// manifest (integrity.json: SHA-256 and the SRI string of every file;
// SHA256SUMS), a README for hosts and a package.json, so that `npm pack` on
// the folder makes an installable tarball. The version is
// wasm/internal/version.Version, the module's dpsample.version; CHANGELOG.md
// must start with it. The table of files and sizes in docs/ELEMENTS.md
// ("Hosting") is generated from the release: -docs write rewrites it, -docs
// check fails when the committed one no longer matches (docs.go).
//
// ./build.sh dist builds the two modules (without the test hooks) and runs
//
//	go run ./wasm/tools/dist -root . -wasm /tmp/…/dpsample.wasm -wasm-api /tmp/…/dpsample-api.wasm -wasm-exec "$(go env GOROOT)/lib/wasm/wasm_exec.js" [-docs check]
//
// It needs zopfli (the modules' .gz, ≈ 5 % smaller than gzip -9) and node
// (brotli at quality 11), as ./build.sh build uses them.
package main

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"

	"github.com/dpsample/dpsample/wasm/internal/version"
)

func main() {
	root := flag.String("root", ".", "repository root")
	out := flag.String("out", "dist", "folder the release folder dpsample-<version>/ is written in (relative to -root)")
	wasm := flag.String("wasm", "", "the built module of the elements, dpsample.wasm (required; built without the test hooks)")
	wasmAPI := flag.String("wasm-api", "", "the built module of the JS API alone, dpsample-api.wasm (required; -tags dpsample_apionly, without the test hooks)")
	wasmExec := flag.String("wasm-exec", "", "wasm_exec.js of the Go toolchain that built the module (required)")
	docs := flag.String("docs", "warn", "docs/ELEMENTS.md's generated hosting table: warn when it no longer matches the release (the default: no tracked file changes), write it, or check it (fail when stale)")
	printVersion := flag.Bool("version", false, "print the version and exit")
	flag.Parse()
	if *printVersion {
		fmt.Println(version.Version)
		return
	}
	if *wasm == "" || *wasmAPI == "" || *wasmExec == "" || (*docs != "write" && *docs != "check" && *docs != "warn") {
		fmt.Fprintln(os.Stderr, "usage: dist -root . -wasm dpsample.wasm -wasm-api dpsample-api.wasm -wasm-exec wasm_exec.js [-out dist] [-docs warn|write|check]")
		os.Exit(2)
	}
	dir, err := build(*root, filepath.Join(*root, *out), *wasm, *wasmAPI, *wasmExec, *docs)
	if err != nil {
		fmt.Fprintln(os.Stderr, "dist:", err)
		os.Exit(1)
	}
	fmt.Println("wrote", dir)
}

// manifestFile is one file of integrity.json.
type manifestFile struct {
	Path      string `json:"path"`
	Bytes     int64  `json:"bytes"`
	SHA256    string `json:"sha256"`    // hex
	Integrity string `json:"integrity"` // Subresource Integrity, sha384
}

// manifest is integrity.json.
type manifest struct {
	Name    string         `json:"name"`
	Version string         `json:"version"`
	Files   []manifestFile `json:"files"`
}

// build writes the release and returns its folder.
func build(root, out, wasm, wasmAPI, wasmExec string, docsMode string) (string, error) {
	v := version.Version
	if err := checkChangelog(filepath.Join(root, "CHANGELOG.md"), v, false); err != nil {
		return "", err
	}
	for _, tool := range []string{"zopfli", "node"} {
		if _, err := exec.LookPath(tool); err != nil {
			return "", fmt.Errorf("%s is needed for the compressed copies (Debian: apt-get install %s)", tool, map[string]string{"zopfli": "zopfli", "node": "nodejs"}[tool])
		}
	}
	csvs, err := filepath.Glob(filepath.Join(root, "site", "data", "*.csv"))
	if err != nil || len(csvs) == 0 {
		return "", fmt.Errorf("no built-in data in site/data (%v)", err)
	}
	for i, c := range csvs {
		csvs[i], _ = filepath.Rel(root, c)
	}
	files := releaseFiles(csvs)
	dir := filepath.Join(out, "dpsample-"+v)
	if err := os.RemoveAll(dir); err != nil {
		return "", err
	}
	given := map[string]string{"dpsample.wasm": wasm, apiModule: wasmAPI, "wasm_exec.js": wasmExec}
	copyFile := func(e entry) error {
		src := given[e.Path]
		if e.Src != "" {
			src = filepath.Join(root, filepath.FromSlash(e.Src))
		}
		dst := filepath.Join(dir, filepath.FromSlash(e.Path))
		if e.Relink {
			return relinkTo(src, dst)
		}
		return copyTo(src, dst)
	}
	// 1. What a page fetches, and its compressed copies.
	var fetched []string
	for _, e := range files {
		if !e.Compress {
			continue
		}
		if err := copyFile(e); err != nil {
			return "", err
		}
		fetched = append(fetched, filepath.Join(dir, filepath.FromSlash(e.Path)))
	}
	if err := compress(fetched); err != nil {
		return "", err
	}
	// 2. docs/ELEMENTS.md's table, from those sizes.
	sizes, err := fetchedSizes(dir, files)
	if err != nil {
		return "", err
	}
	block := hostingBlock(v, files, sizes)
	elements := filepath.Join(root, "docs", "ELEMENTS.md")
	doc, err := os.ReadFile(elements)
	if err != nil {
		return "", err
	}
	switch docsMode {
	case "check":
		if err := checkBlock(string(doc), block); err != nil {
			return "", fmt.Errorf("docs/ELEMENTS.md is stale: %w; run DIST_DOCS=write ./build.sh dist and commit docs/ELEMENTS.md", err)
		}
	case "warn":
		if err := checkBlock(string(doc), block); err != nil {
			fmt.Fprintf(os.Stderr, "dist: warning: docs/ELEMENTS.md's hosting table no longer matches this release (%v); DIST_DOCS=write ./build.sh dist rewrites it\n", err)
		}
	default:
		updated, err := replaceBlock(string(doc), block)
		if err != nil {
			return "", err
		}
		if updated != string(doc) {
			if err := os.WriteFile(elements, []byte(updated), 0o644); err != nil {
				return "", err
			}
			fmt.Println("updated docs/ELEMENTS.md's hosting table")
		}
	}
	// 3. The rest, then what is written from it.
	for _, e := range files {
		if e.Compress || (e.Src == "" && given[e.Path] == "") {
			continue
		}
		if err := copyFile(e); err != nil {
			return "", err
		}
	}
	elementsSRI, err := sri(filepath.Join(dir, "elements.js"))
	if err != nil {
		return "", err
	}
	if err := os.WriteFile(filepath.Join(dir, readmeFile), []byte(hostReadme(v, elementsSRI, sizes)), 0o644); err != nil {
		return "", err
	}
	all, err := listFiles(dir)
	if err != nil {
		return "", err
	}
	pkg, err := packageJSON(v, append(all, packageFile, integrityFile, sumsFile))
	if err != nil {
		return "", err
	}
	if err := os.WriteFile(filepath.Join(dir, packageFile), pkg, 0o644); err != nil {
		return "", err
	}
	if all, err = listFiles(dir); err != nil {
		return "", err
	}
	m := manifest{Name: "dpsample", Version: v}
	for _, p := range all {
		f, err := describe(dir, p)
		if err != nil {
			return "", err
		}
		m.Files = append(m.Files, f)
	}
	mj, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return "", err
	}
	if err := os.WriteFile(filepath.Join(dir, integrityFile), append(mj, '\n'), 0o644); err != nil {
		return "", err
	}
	var sums strings.Builder
	for _, p := range append(all, integrityFile) {
		f, err := describe(dir, p)
		if err != nil {
			return "", err
		}
		fmt.Fprintf(&sums, "%s  %s\n", f.SHA256, f.Path)
	}
	if err := os.WriteFile(filepath.Join(dir, sumsFile), []byte(sums.String()), 0o644); err != nil {
		return "", err
	}
	// 4. Exactly the listed files and their siblings, nothing else.
	want := map[string]bool{}
	for _, e := range files {
		want[e.Path] = true
		if e.Compress {
			want[e.Path+".gz"], want[e.Path+".br"] = true, true
		}
	}
	if all, err = listFiles(dir); err != nil {
		return "", err
	}
	if len(all) != len(want) {
		return "", fmt.Errorf("the release holds %d files, want %d: %v", len(all), len(want), all)
	}
	for _, p := range all {
		if !want[p] {
			return "", fmt.Errorf("the release holds %s, which is not in its list", p)
		}
	}
	return dir, nil
}

// checkChangelog: CHANGELOG.md's first entry ("## <version> …") is version.
// With unreleased, a first entry "## Unreleased" (changes merged since the
// last release) is skipped and the next must be version; a release (dist)
// passes false, so the release commit renames it first.
func checkChangelog(path, version string, unreleased bool) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	first := true
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, "## "); ok {
			if unreleased && first && strings.TrimSpace(rest) == "Unreleased" {
				first = false
				continue
			}
			if f := strings.Fields(rest); len(f) == 0 || f[0] != version {
				return fmt.Errorf("CHANGELOG.md's first entry is %q; it must be the version %s (wasm/internal/version)", line, version)
			}
			return nil
		}
	}
	return errors.New("CHANGELOG.md has no entry (## <version> — <date>)")
}

func copyTo(src, dst string) error {
	b, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	return os.WriteFile(dst, b, 0o644)
}

// relinkTo copies a top-level page of the repository into the release's
// root, where elements.js sits beside it instead of in site/.
func relinkTo(src, dst string) error {
	b, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	out := strings.NewReplacer(`src="site/`, `src="`, `href="site/`, `href="`).Replace(string(b))
	if strings.Contains(out, `"site/`) {
		return fmt.Errorf("%s: a path into site/ is left after relinking", src)
	}
	return os.WriteFile(dst, []byte(out), 0o644)
}

// compress writes name.gz and name.br beside every file: the module's gzip
// with zopfli, the others' with compress/gzip at its best level (as gzip -9
// -n: no name, no time), brotli with node's zlib at quality 11, the same
// settings as ./build.sh build.
func compress(paths []string) error {
	for _, p := range paths {
		if strings.HasSuffix(p, ".wasm") {
			gz, err := exec.Command("zopfli", "--i1", "-c", p).Output()
			if err != nil {
				return fmt.Errorf("zopfli %s: %w", p, err)
			}
			if err := os.WriteFile(p+".gz", gz, 0o644); err != nil {
				return err
			}
			continue
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		var buf bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
		zw.Write(b)
		if err := zw.Close(); err != nil {
			return err
		}
		if err := os.WriteFile(p+".gz", buf.Bytes(), 0o644); err != nil {
			return err
		}
	}
	cmd := exec.Command("node", append([]string{"-e", `const z = require("zlib"), fs = require("fs");
for (const p of process.argv.slice(1)) {
  const b = fs.readFileSync(p);
  fs.writeFileSync(p + ".br", z.brotliCompressSync(b, { params: { [z.constants.BROTLI_PARAM_QUALITY]: 11, [z.constants.BROTLI_PARAM_SIZE_HINT]: b.length } }));
}`}, paths...)...)
	cmd.Stderr = os.Stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("brotli (node): %w", err)
	}
	// A compressed copy must give back the file (a truncated write would not).
	for _, p := range paths {
		orig, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		f, err := os.Open(p + ".gz")
		if err != nil {
			return err
		}
		zr, err := gzip.NewReader(f)
		if err != nil {
			f.Close()
			return fmt.Errorf("%s.gz: %w", p, err)
		}
		back, err := io.ReadAll(zr)
		f.Close()
		if err != nil || !bytes.Equal(back, orig) {
			return fmt.Errorf("%s.gz does not decompress to %s (%v)", p, filepath.Base(p), err)
		}
	}
	return nil
}

// size is a file's bytes raw and compressed (0: no compressed copy).
type size struct{ Raw, Gzip, Brotli int64 }

func fetchedSizes(dir string, files []entry) (map[string]size, error) {
	out := map[string]size{}
	for _, e := range files {
		if !e.Compress {
			continue
		}
		var s size
		for _, x := range []struct {
			suffix string
			n      *int64
		}{{"", &s.Raw}, {".gz", &s.Gzip}, {".br", &s.Brotli}} {
			st, err := os.Stat(filepath.Join(dir, filepath.FromSlash(e.Path)+x.suffix))
			if err != nil {
				return nil, err
			}
			*x.n = st.Size()
		}
		out[e.Path] = s
	}
	return out, nil
}

// listFiles returns every file under dir, slash-separated and sorted.
func listFiles(dir string) ([]string, error) {
	var out []string
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		out = append(out, filepath.ToSlash(rel))
		return err
	})
	sort.Strings(out)
	return out, err
}

func describe(dir, p string) (manifestFile, error) {
	b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(p)))
	if err != nil {
		return manifestFile{}, err
	}
	h := sha256.Sum256(b)
	h384 := sha512.Sum384(b)
	return manifestFile{Path: p, Bytes: int64(len(b)), SHA256: hex.EncodeToString(h[:]),
		Integrity: "sha384-" + base64.StdEncoding.EncodeToString(h384[:])}, nil
}

func sri(path string) (string, error) {
	f, err := describe(filepath.Dir(path), filepath.Base(path))
	return f.Integrity, err
}

// packageJSON is the release's package.json: no dependencies and no install
// scripts, so `npm install ./dpsample-<version>.tgz` works offline.
// The exports' conditions are in the order npm and TypeScript read them
// ("types" first), hence a struct and a literal rather than a map.
func packageJSON(v string, files []string) ([]byte, error) {
	sort.Strings(files)
	pkg := struct {
		Name        string          `json:"name"`
		Version     string          `json:"version"`
		Description string          `json:"description"`
		License     string          `json:"license"`
		Type        string          `json:"type"`
		Main        string          `json:"main"`
		Types       string          `json:"types"`
		Exports     json.RawMessage `json:"exports"`
		SideEffects []string        `json:"sideEffects"`
		Files       []string        `json:"files"`
		Keywords    []string        `json:"keywords"`
	}{
		Name:        "dpsample",
		Version:     v,
		Description: "Differentially private models drawn by sampling, in the reader's browser (WebAssembly): custom elements for course pages and a JS API",
		License:     "MIT",
		Type:        "module",
		Main:        "./dpsample.js",
		Types:       "./dpsample.d.ts",
		Exports: json.RawMessage(`{".": {"types": "./dpsample.d.ts", "default": "./dpsample.js"},
			"./elements.js": "./elements.js", "./package.json": "./package.json", "./*": "./*"}`),
		SideEffects: []string{"./elements.js", "./app.js", "./worker.js", "./shard.js", "./wasm_exec.js"},
		Files:       files,
		Keywords:    []string{"differential-privacy", "webassembly", "custom-elements", "sampling", "teaching"},
	}
	b, err := json.MarshalIndent(pkg, "", "  ")
	return append(b, '\n'), err
}
