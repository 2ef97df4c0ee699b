//go:build js && wasm && !dpsample_hooks

package jsapi

// Hooks reports whether the hidden _bench and _test namespaces are compiled
// in (build tag dpsample_hooks; see hooks.go). The shipped module has none.
const Hooks = false

// keepWorkers is the fallback switch of the hooks build: never set here.
const keepWorkers = false

func addHooks(map[string]any) {}
