//go:build js && wasm

// Package jsapi is the JS API of dpsample, globalThis.dpsample, documented
// in docs/API.md and typed in site/dpsample.d.ts: every call returns a
// Promise, bad input rejects with an Error naming the field, and the
// computations are core/'s. It never imports the page's UI (wasm/ui); both
// share wasm/internal/jsio.
package jsapi

import (
	"syscall/js"

	"github.com/dpsample/dpsample/wasm/internal/jsio"
	"github.com/dpsample/dpsample/wasm/internal/pool"
	"github.com/dpsample/dpsample/wasm/internal/version"
)

// Register installs globalThis.dpsample and announces it (the event
// "dpsample:ready" and globalThis.dpsampleReady). Tests call it from init
// because a test binary never runs main.
func Register() {
	api := map[string]any{
		"version":     version.Version, // the release version (wasm/internal/version)
		"privacy":     privacyAPI(),
		"mechanism":   mechanismAPI(),
		"ledger":      ledgerAPI(),
		"fingerprint": fingerprintAPI(),
		"lowerbound":  lowerboundAPI(),
		"bounds":      boundsAPI(),
		"data":        dataAPI(),
		"demo":        demoAPI(),
		"describe":    jsio.Export(describe),
	}
	addHooks(api)
	js.Global().Set("dpsample", js.ValueOf(api))
	pool.RegisterShard() // what site/shard.js calls when this instance holds a shard
	if ev := js.Global().Get("CustomEvent"); ev.Truthy() && js.Global().Get("dispatchEvent").Truthy() {
		js.Global().Call("dispatchEvent", ev.New("dpsample:ready"))
	}
	js.Global().Set("dpsampleReady", true)
}
