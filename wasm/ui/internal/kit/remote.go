//go:build js && wasm

package kit

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

// Remote returns the worker API once it has loaded.
func Remote() (js.Value, error) {
	rp := js.Global().Get("dpsampleRemote")
	if !rp.Truthy() {
		return js.Undefined(), errors.New("the worker is not available (dpsample.js did not load)")
	}
	return jsio.Await(rp)
}

// CallRemote calls dpsampleRemote.<path>(args...) in the worker and waits for
// the result. path is dotted, e.g. "mechanism.sample". Call it from a
// goroutine, never directly inside an event handler.
func CallRemote(path string, args ...any) (js.Value, error) {
	obj, err := Remote()
	if err != nil {
		return js.Undefined(), err
	}
	parts := strings.Split(path, ".")
	for _, p := range parts[:len(parts)-1] {
		obj = obj.Get(p)
	}
	return jsio.Await(obj.Call(parts[len(parts)-1], args...))
}

// RemoteHas reports whether the worker API has the dotted name (after it loaded).
func RemoteHas(path string) bool {
	obj, err := Remote()
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

// InWorker is forWorker once the worker has loaded (a worker that could not
// load leaves the work to this thread). Call it from a goroutine.
func InWorker(txt string) bool {
	if !ForWorker(txt) {
		return false
	}
	_, err := Remote()
	return err == nil
}

// AsyncProfileBytes: CSV text this long or longer is profiled in the worker
// (data.profileCSV), off the main thread, with its progress under the box
// (issue 29: a 10 MB paste blocked the page for 1.2–20 s); shorter text is
// profiled here at once, in well under the 50 ms of a long task.
const AsyncProfileBytes = 1 << 17

// ForWorker reports whether txt is read in the worker: AsyncProfileBytes or
// more, on a page that has one (dpsampleRemote).
func ForWorker(txt string) bool {
	return len(txt) >= AsyncProfileBytes && js.Global().Get("dpsampleRemote").Truthy()
}
