//go:build js && wasm

// Command wasm is dpsample's WebAssembly program: it registers the JS API on
// globalThis.dpsample in whatever realm it runs (page, worker, node) and, when
// a document is present, builds the page's UI with honnef.co/go/js/dom/v2.
// It holds no mathematics: every computation lives in core/.
package main

import "syscall/js"

func main() {
	register()
	if js.Global().Get("document").Truthy() {
		startUI()
	}
	select {} // keep the runtime alive: returning would make every later call throw
}
