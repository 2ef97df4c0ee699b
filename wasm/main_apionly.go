//go:build js && wasm && dpsample_apionly

package main

// startUI does nothing in the API's own module (dpsample-api.wasm, build tag
// dpsample_apionly), which links neither wasm/ui nor its DOM bindings.
func startUI() {}
