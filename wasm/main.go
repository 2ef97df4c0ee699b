//go:build js && wasm

// Command wasm is dpsample's WebAssembly program: it registers the JS API
// (package wasm/jsapi) on globalThis.dpsample in whatever realm it runs
// (page, worker, node) and, when a document is present, builds the page's UI
// (package wasm/ui). It only wires the two: every computation lives in core/.
//
// It is built in two configurations (./build.sh build):
//
//   - dpsample.wasm, the page's module: the API and the UI. The page's main
//     thread runs it (the UI), and so does the page's worker (the API), one
//     download and one compile for both.
//   - dpsample-api.wasm, with the build tag dpsample_apionly: the API alone
//     (startUI does nothing, wasm/ui and honnef.co/go/js/dom are not linked),
//     which site/dpsample.js's load() starts in its worker when no page UI
//     has already loaded dpsample.wasm: ≈ 35 % fewer bytes to download.
package main

import (
	"syscall/js"

	"github.com/dpsample/dpsample/wasm/jsapi"
)

func main() {
	jsapi.Register()
	if js.Global().Get("document").Truthy() {
		startUI()
	}
	select {} // keep the runtime alive: returning would make every later call throw
}
