//go:build js && wasm

// Command wasm is dpsample's WebAssembly program: it registers the JS API
// (package wasm/jsapi) on globalThis.dpsample in whatever realm it runs
// (page, worker, node) and, when a document is present, builds the page's UI
// (package wasm/ui). It only wires the two: every computation lives in core/.
package main

import (
	"syscall/js"

	"github.com/dpsample/dpsample/wasm/jsapi"
	"github.com/dpsample/dpsample/wasm/ui"
)

func main() {
	jsapi.Register()
	if js.Global().Get("document").Truthy() {
		ui.Start()
	}
	select {} // keep the runtime alive: returning would make every later call throw
}
