//go:build !js

package main

import (
	"errors"
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
)

// docs/ELEMENTS.md's list of the release's files and their sizes lies
// between these markers; ./build.sh dist writes it, and the release test
// (./build.sh test) fails when the committed one no longer matches.
const (
	blockBegin = "<!-- dist:begin: written by ./build.sh dist from the release; ./build.sh test checks it -->"
	blockEnd   = "<!-- dist:end -->"
)

// sizeTolerance is how far a size written in the docs may drift from the
// release before the check fails: 5 % of the size plus 1 KB (rounding, small
// edits of a script). The stale sizes of issue 22 (7.7 MB written, 8.35 MB
// measured: 8 %) fail it.
func sizeTolerance(actual float64) float64 { return 0.05*actual + 1000 }

// fmtSize writes n bytes with three significant digits in SI units (1 KB =
// 1000 B), as the docs give sizes.
func fmtSize(n int64) string {
	x := float64(n)
	unit := "B"
	switch {
	case x >= 1e6:
		x, unit = x/1e6, "MB"
	case x >= 1e3:
		x, unit = x/1e3, "KB"
	default:
		return fmt.Sprintf("%d B", n)
	}
	digits := 2
	if x >= 100 {
		digits = 0
	} else if x >= 10 {
		digits = 1
	}
	return strconv.FormatFloat(x, 'f', digits, 64) + " " + unit
}

var sizeToken = regexp.MustCompile(`\b(\d+(?:\.\d+)?) (B|KB|MB)\b`)

// hostingBlock is the generated part of docs/ELEMENTS.md's "Files to copy".
func hostingBlock(v string, files []entry, sizes map[string]size) string {
	var page size // what a page with the elements downloads: everything fetched but the data and the API's own module
	for _, e := range files {
		if s, ok := sizes[e.Path]; ok && !strings.HasPrefix(e.Path, "data/") && e.Path != apiModule {
			page.Raw, page.Gzip, page.Brotli = page.Raw+s.Raw, page.Gzip+s.Gzip, page.Brotli+s.Brotli
		}
	}
	var b strings.Builder
	fmt.Fprintln(&b, blockBegin)
	fmt.Fprintf(&b, "`dpsample-%s/` holds exactly these files, and a `.gz` and a `.br` copy beside each one a page fetches.\n", v)
	fmt.Fprintf(&b, "A page with the elements downloads the module, its scripts and `style.css`: **%s** raw, **%s** as\n", fmtSize(page.Raw), fmtSize(page.Gzip))
	fmt.Fprintf(&b, "gzip, **%s** as brotli (and a data file when `<dp-estimate>` selects it). The module alone: %s raw, %s gzip, %s brotli.\n",
		fmtSize(page.Brotli), fmtSize(sizes["dpsample.wasm"].Raw), fmtSize(sizes["dpsample.wasm"].Gzip), fmtSize(sizes["dpsample.wasm"].Brotli))
	var api size // what a page that only calls load() downloads: dpsample.js, worker.js, wasm_exec.js and the API's module
	for _, p := range []string{"dpsample.js", "worker.js", "wasm_exec.js", apiModule} {
		s := sizes[p]
		api.Raw, api.Gzip, api.Brotli = api.Raw+s.Raw, api.Gzip+s.Gzip, api.Brotli+s.Brotli
	}
	fmt.Fprintf(&b, "A page that only uses the JS API (`load()`) downloads `dpsample.js`, `worker.js`, `wasm_exec.js` and `%s`:\n", apiModule)
	fmt.Fprintf(&b, "**%s** raw, **%s** as gzip, **%s** as brotli.\n", fmtSize(api.Raw), fmtSize(api.Gzip), fmtSize(api.Brotli))
	fmt.Fprintln(&b)
	fmt.Fprintln(&b, "| file | bytes | `.gz` | `.br` | Content-Type | what it is |")
	fmt.Fprintln(&b, "|---|--:|--:|--:|---|---|")
	for _, e := range files {
		ct := "—"
		if e.Type != "" {
			ct = "`" + e.Type + "`"
		}
		raw, gz, br := "—", "—", "—"
		if s, ok := sizes[e.Path]; ok {
			raw, gz, br = fmtSize(s.Raw), fmtSize(s.Gzip), fmtSize(s.Brotli)
		}
		fmt.Fprintf(&b, "| `%s` | %s | %s | %s | %s | %s |\n", e.Path, raw, gz, br, ct, e.Note)
	}
	fmt.Fprint(&b, blockEnd)
	return b.String()
}

// findBlock returns the start and end offsets of the generated block in doc.
func findBlock(doc string) (int, int, error) {
	i := strings.Index(doc, blockBegin)
	j := strings.Index(doc, blockEnd)
	if i < 0 || j < i {
		return 0, 0, errors.New("docs/ELEMENTS.md has no generated block (" + blockBegin + " … " + blockEnd + ")")
	}
	return i, j + len(blockEnd), nil
}

// replaceBlock puts block in place of doc's generated block.
func replaceBlock(doc, block string) (string, error) {
	i, j, err := findBlock(doc)
	if err != nil {
		return "", err
	}
	return doc[:i] + block + doc[j:], nil
}

// checkBlock compares doc's generated block with block: the same text once
// every size is blanked (the same files, in the same order, with the same
// types and notes, and the same version), and each size within
// sizeTolerance of the release's.
func checkBlock(doc, block string) error {
	i, j, err := findBlock(doc)
	if err != nil {
		return err
	}
	have := doc[i:j]
	blank := func(s string) []string { return strings.Split(sizeToken.ReplaceAllString(s, "#"), "\n") }
	hl, wl := blank(have), blank(block)
	for k := 0; k < max(len(hl), len(wl)); k++ {
		var h, w string
		if k < len(hl) {
			h = hl[k]
		}
		if k < len(wl) {
			w = wl[k]
		}
		if h != w {
			return fmt.Errorf("line %d of the hosting table differs (sizes aside):\n  docs:    %s\n  release: %s", k+1, h, w)
		}
	}
	hs, ws := sizeToken.FindAllStringSubmatch(have, -1), sizeToken.FindAllStringSubmatch(block, -1)
	if len(hs) != len(ws) {
		return fmt.Errorf("%d sizes in the docs, %d in the release", len(hs), len(ws))
	}
	for k := range hs {
		h, w := parseSize(hs[k]), parseSize(ws[k])
		if math.Abs(h-w) > sizeTolerance(w) {
			return fmt.Errorf("size %d of the hosting table: the docs say %s, the release has %s", k+1, hs[k][0], ws[k][0])
		}
	}
	return nil
}

func parseSize(m []string) float64 {
	x, _ := strconv.ParseFloat(m[1], 64)
	return x * map[string]float64{"B": 1, "KB": 1e3, "MB": 1e6}[m[2]]
}

// hostReadme is the release's README.md, for whoever puts it on a server.
func hostReadme(v, elementsSRI string, sizes map[string]size) string {
	w, a := sizes["dpsample.wasm"], sizes[apiModule]
	return `# dpsample ` + v + ` — the release for web pages

dpsample draws differentially private models *by sampling* (Lee, Liu & Lu, *The Power of Sampling*), entirely in
the reader's browser: six custom elements for course pages, a lesson page that strings five of them together
(` + "`lesson.html`" + `), and a JS API. Nothing a reader loads or types leaves
their browser.

## Two lines

Copy this folder next to your page, e.g. as ` + "`dpsample/`" + ` (any name works: every path inside is relative to
` + "`elements.js`" + `), then:

` + "```html" + `
<script type="module" src="dpsample/elements.js"></script>
<dp-privacy-curve epsilon="1" delta="1e-5"></dp-privacy-curve>
` + "```" + `

The elements: ` + "`<dp-estimate>`, `<dp-dimension-free>`, `<dp-trace-attack>`, `<dp-bounds>`, `<dp-privacy-curve>`, `<dp-median>`, `<dp-membership>`" + `;
every attribute, the styles and the hosting rules: [docs/ELEMENTS.md](docs/ELEMENTS.md). The widgets style only
themselves: your page keeps its own look, and its element and class rules do not restyle them (an id rule does,
e.g. on a control's ` + "`prefix`" + ` id). The JS API (` + "`import { load } from \"./dpsample/dpsample.js\"`" + `):
[docs/API.md](docs/API.md), types in ` + "`dpsample.d.ts`" + `.

With npm: ` + "`npm pack`" + ` on this folder makes ` + "`dpsample-" + v + ".tgz`" + `; ` + "`npm install ./dpsample-" + v + ".tgz`" + `
(offline: no dependencies, no scripts) puts the same files in ` + "`node_modules/dpsample/`" + `, which you serve or copy
like this folder.

## Serving

- From the page's own origin: the computations run in a Web Worker, which browsers start only from the page's
  origin.
- Content types: ` + "`.js` `text/javascript`, `.wasm` `application/wasm` (required), `.css` `text/css`, `.csv` `text/csv`" + `.
- The module of the elements is ` + fmtSize(w.Raw) + `; its ` + "`.gz` (" + fmtSize(w.Gzip) + ") and `.br` (" + fmtSize(w.Brotli) + `) copies, and those of
  the JS API's own module (` + "`" + apiModule + "`" + `, ` + fmtSize(a.Gzip) + ` as gzip, what ` + "`load()`" + ` starts on a page without the
  elements), the scripts and data, are for servers that send a precompressed copy with ` + "`Content-Encoding`" + ` (nginx
  ` + "`gzip_static on; brotli_static on;`, Caddy `file_server { precompressed br gzip }`" + `; most hosting
  services compress on their own). A plain static server (` + "`python3 -m http.server`" + `) sends the module raw:
  then ` + "`dpsample.js`" + ` cancels that download and fetches the module's ` + "`.gz`" + ` itself, decompressing it in the
  browser. Keep the ` + "`.gz`" + ` files beside the originals. Python's server then prints a traceback ending in
  ` + "`ConnectionResetError: [Errno 104] Connection reset by peer`" + ` (or ` + "`BrokenPipeError`" + `) for ` + "`dpsample.wasm`" + `: that is
  the cancelled download, and it is harmless — the next request, for ` + "`dpsample.wasm.gz`" + `, brings the module.
- Content-Security-Policy: dpsample needs ` + "`script-src 'self' 'wasm-unsafe-eval'; worker-src 'self'; style-src 'self'; connect-src 'self'`" + `.

## Checking the files

` + "`sha256sum -c SHA256SUMS`" + ` checks every file. ` + "`integrity.json`" + ` has each file's SHA-256 and its Subresource
Integrity string; the script tag with it:

` + "```html" + `
<script type="module" src="dpsample/elements.js" integrity="` + elementsSRI + `"></script>
` + "```" + `

(it pins ` + "`elements.js`" + `, which loads the other scripts and the module from its own folder).

## Licences

dpsample: MIT (` + "`LICENSE`" + `). The built-in data: Palmer penguins (CC0) and the Wisconsin Diagnostic Breast Cancer
data (CC BY 4.0), sources and citations in [data/SOURCES.md](data/SOURCES.md). Changes: [CHANGELOG.md](CHANGELOG.md).
`
}
