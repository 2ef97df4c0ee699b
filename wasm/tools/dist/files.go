//go:build !js

package main

import (
	"path/filepath"
	"sort"
)

// entry is one file of the release (its compressed siblings apart).
type entry struct {
	Path string // in the release, slash-separated
	// Src is the file's source, relative to the repository root; empty for a
	// file main writes (README.md, package.json, …) or is given (the module,
	// wasm_exec.js).
	Src string
	// Compress: the page fetches it, so it gets .gz and .br siblings for
	// servers that serve precompressed files.
	Compress bool
	Type     string // the Content-Type a server must send ("" for files no page fetches)
	// Relink: a page of the repository's top level, whose site/… paths
	// point, in the release, to the files beside it.
	Relink bool
	Note   string // what it is, for docs/ELEMENTS.md's table
}

// Generated files: written by this command after the others.
const (
	readmeFile    = "README.md"
	packageFile   = "package.json"
	integrityFile = "integrity.json"
	sumsFile      = "SHA256SUMS"
)

// apiModule is the JS API's own module (./build.sh's -tags dpsample_apionly):
// a page with the elements never fetches it.
const apiModule = "dpsample-api.wasm"

// releaseFiles lists what a host needs, in the order of docs/ELEMENTS.md's
// table: the one script a page loads and what it loads, the modules, the
// styles, the built-in data with their sources, the documentation the
// widgets link to, the types of the JS API, and the release's own files.
// index.html, page.css and favicon.svg are dpsample's own page, not the
// release; lesson.html is (a page a course can link). dataCSVs are the built-in datasets' files (site/data/*.csv).
func releaseFiles(dataCSVs []string) []entry {
	js := "text/javascript"
	files := []entry{
		{Path: "elements.js", Src: "site/elements.js", Compress: true, Type: js, Note: "the one script a page loads (`<script type=\"module\">`); it loads the others"},
		{Path: "app.js", Src: "site/app.js", Compress: true, Type: js, Note: "starts the worker and the widgets"},
		{Path: "dpsample.js", Src: "site/dpsample.js", Compress: true, Type: js, Note: "the JS API (`import { load }`) and the module's loader"},
		{Path: "worker.js", Src: "site/worker.js", Compress: true, Type: js, Note: "the Web Worker every computation runs in"},
		{Path: "shard.js", Src: "site/shard.js", Compress: true, Type: js, Note: "a data-pass worker of a multi-core run (`workers` > 1), started by the sampling worker"},
		{Path: "wasm_exec.js", Compress: true, Type: js, Note: "Go's WebAssembly support, from the toolchain that built the module"},
		{Path: "dpsample.wasm", Compress: true, Type: "application/wasm", Note: "the module of the elements (the JS API and the widgets' UI); **required** type: `WebAssembly.compileStreaming` rejects any other"},
		{Path: apiModule, Compress: true, Type: "application/wasm", Note: "the JS API's own module, without the widgets' UI: what `load()` starts on a page without the elements"},
		{Path: "style.css", Src: "site/style.css", Compress: true, Type: "text/css", Note: "the widgets' styles, scoped to the elements; `elements.js` adds it to the page's `<head>`"},
		{Path: "lesson.css", Src: "site/lesson.css", Compress: true, Type: "text/css", Note: "`lesson.html`'s own layout"},
		{Path: "lesson.html", Src: "lesson.html", Compress: true, Type: "text/html", Relink: true, Note: "a lesson page: the private median, the privacy curve, dimension-free, the trace attack and the bounds in one narrative (open it, link it or copy it)"},
	}
	sort.Strings(dataCSVs)
	for _, csv := range dataCSVs {
		files = append(files, entry{Path: "data/" + filepath.Base(csv), Src: filepath.ToSlash(csv), Compress: true, Type: "text/csv",
			Note: "built-in data of `<dp-estimate>` (fetched when selected)"})
	}
	md := "text/markdown"
	files = append(files,
		entry{Path: "data/SOURCES.md", Src: "site/data/SOURCES.md", Type: md, Note: "the data's sources and licences (CC0, CC BY 4.0), linked from `<dp-estimate>`"},
		entry{Path: "docs/ELEMENTS.md", Src: "docs/ELEMENTS.md", Type: md, Note: "this page: the elements, their attributes, hosting"},
		entry{Path: "docs/DEFAULTS.md", Src: "docs/DEFAULTS.md", Type: md, Note: "why each default is what it is (linked from `<dp-estimate>`)"},
		entry{Path: "docs/PRIVACY.md", Src: "docs/PRIVACY.md", Type: md, Note: "what the guarantee covers and what it does not"},
		entry{Path: "docs/API.md", Src: "docs/API.md", Type: md, Note: "the JS API"},
		entry{Path: "dpsample.d.ts", Src: "site/dpsample.d.ts", Note: "TypeScript types of the JS API"},
		entry{Path: readmeFile, Note: "for hosts: the two lines, what to serve, how to check the files"},
		entry{Path: "CHANGELOG.md", Src: "CHANGELOG.md", Note: "what changed, by version"},
		entry{Path: "LICENSE", Src: "LICENSE", Note: "MIT"},
		entry{Path: packageFile, Note: "for `npm pack` / `npm install`"},
		entry{Path: integrityFile, Note: "SHA-256 and the SRI string (sha384) of every other file"},
		entry{Path: sumsFile, Note: "the same SHA-256 sums, for `sha256sum -c SHA256SUMS`"},
	)
	return files
}
