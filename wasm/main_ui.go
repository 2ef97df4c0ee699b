//go:build js && wasm && !dpsample_apionly

package main

import "github.com/dpsample/dpsample/wasm/ui"

// startUI builds the page's UI (dpsample.wasm).
func startUI() { ui.Start() }
