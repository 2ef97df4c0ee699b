//go:build js && wasm

package ui

import (
	"errors"
	"strings"
	"syscall/js"

	"github.com/dpsample/dpsample/wasm/internal/jsio"
)

// The page's UI runs on the main thread; anything that can take longer than
// ~50 ms runs in a Web Worker through the ES module site/dpsample.js. app.js
// sets globalThis.dpsampleRemote to the Promise returned by load(), an object
// with the same names as globalThis.dpsample whose calls run in the worker.
// Requests go out with jsio.EncodeTyped and results come back with
// jsio.Decode: the one wire codec, whose field table is the core types' json
// tags. A cancelled call comes back as an error matching jsio.ErrAborted.

// remote returns the worker API once it has loaded.
func remote() (js.Value, error) {
	rp := js.Global().Get("dpsampleRemote")
	if !rp.Truthy() {
		return js.Undefined(), errors.New("the worker is not available (dpsample.js did not load)")
	}
	return jsio.Await(rp)
}

// callRemote calls dpsampleRemote.<path>(args...) in the worker and waits for
// the result. path is dotted, e.g. "mechanism.sample". Call it from a
// goroutine, never directly inside an event handler.
func callRemote(path string, args ...any) (js.Value, error) {
	obj, err := remote()
	if err != nil {
		return js.Undefined(), err
	}
	parts := strings.Split(path, ".")
	for _, p := range parts[:len(parts)-1] {
		obj = obj.Get(p)
	}
	return jsio.Await(obj.Call(parts[len(parts)-1], args...))
}

// remoteHas reports whether the worker API has the dotted name (after it loaded).
func remoteHas(path string) bool {
	obj, err := remote()
	if err != nil {
		return false
	}
	for _, p := range strings.Split(path, ".") {
		if obj.Type() != js.TypeObject && obj.Type() != js.TypeFunction {
			return false
		}
		obj = obj.Get(p)
	}
	return obj.Type() == js.TypeFunction
}
