//go:build js && wasm

package main

import (
	"syscall/js"
	"time"
)

// Version is the module's version string, dpsample.version.
const Version = "0.1.0"

// register installs globalThis.dpsample. Tests call it from init because a
// test binary never runs main.
func register() {
	api := map[string]any{
		"version":     Version,
		"privacy":     privacyAPI(),
		"mechanism":   mechanismAPI(),
		"fingerprint": fingerprintAPI(),
		"lowerbound":  lowerboundAPI(),
		"bounds":      boundsAPI(),
		"data":        dataAPI(),
		"demo":        demoAPI(),
		"_bench":      benchAPI(), // wasm/api_bench.go: ./build.sh bench's kernels
		"_test": map[string]any{
			// panic forces a Go panic inside an export, to prove it becomes a
			// rejection and the runtime survives.
			"panic": export(func([]js.Value) (any, error) {
				var m map[string]int
				//lint:ignore SA5000 the nil-map write is the point: it must panic.
				m["boom"]++
				return nil, errPanicTest
			}),
			// spin busy-waits ms milliseconds without yielding, to exercise
			// the loader's hard cancellation (terminate + respawn).
			"spin": export(func(a []js.Value) (any, error) {
				ms, err := number(arg(a, 0), "ms")
				if err != nil {
					return nil, err
				}
				end := time.Now().Add(time.Duration(ms) * time.Millisecond)
				n := 0
				for time.Now().Before(end) {
					n++
				}
				return n, nil
			}),
		},
	}
	js.Global().Set("dpsample", js.ValueOf(api))
	if ev := js.Global().Get("CustomEvent"); ev.Truthy() && js.Global().Get("dispatchEvent").Truthy() {
		js.Global().Call("dispatchEvent", ev.New("dpsample:ready"))
	}
	js.Global().Set("dpsampleReady", true)
}
