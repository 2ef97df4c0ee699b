//go:build js && wasm

package main

import (
	"errors"
	"syscall/js"
)

// The page's UI runs on the main thread; anything that can take longer than
// ~50 ms runs in a Web Worker through the ES module site/dpsample.js. app.js
// sets globalThis.dpsampleRemote to the Promise returned by load(), an object
// with the same names as globalThis.dpsample whose calls run in the worker.

// awaitPromise blocks the calling goroutine until p settles and returns its
// value or its rejection as an error. Never call it from inside a js.Func
// callback (event handler): start a goroutine first.
func awaitPromise(p js.Value) (js.Value, error) {
	if p.Type() != js.TypeObject || p.Get("then").Type() != js.TypeFunction {
		return p, nil // not a thenable: already a value
	}
	type settled struct {
		v   js.Value
		err error
	}
	ch := make(chan settled, 1)
	var ok, fail js.Func
	ok = js.FuncOf(func(_ js.Value, a []js.Value) any { ch <- settled{v: arg(a, 0)}; return nil })
	fail = js.FuncOf(func(_ js.Value, a []js.Value) any {
		e := arg(a, 0)
		msg := describe(e)
		if e.Type() == js.TypeObject && e.Get("message").Type() == js.TypeString {
			msg = e.Get("message").String()
		}
		ch <- settled{err: &jsErr{msg: msg, name: e.Get("name").String()}}
		return nil
	})
	p.Call("then", ok, fail)
	s := <-ch
	ok.Release()
	fail.Release()
	return s.v, s.err
}

// jsErr is a JS rejection seen from Go.
type jsErr struct{ msg, name string }

func (e *jsErr) Error() string { return e.msg }

// IsAbort reports whether err is the rejection of a cancelled call.
func IsAbort(err error) bool {
	var je *jsErr
	return errors.As(err, &je) && je.name == "AbortError"
}

// callRemote calls dpsampleRemote.<path>(args...) in the worker and waits for
// the result. path is dotted, e.g. "mechanism.sample". Call it from a
// goroutine, never directly inside an event handler.
func callRemote(path string, args ...any) (js.Value, error) {
	rp := js.Global().Get("dpsampleRemote")
	if !rp.Truthy() {
		return js.Undefined(), errors.New("the worker is not available (site/dpsample.js did not load)")
	}
	remote, err := awaitPromise(rp)
	if err != nil {
		return js.Undefined(), err
	}
	obj := remote
	parts := splitDots(path)
	for _, p := range parts[:len(parts)-1] {
		obj = obj.Get(p)
	}
	return awaitPromise(obj.Call(parts[len(parts)-1], args...))
}

func splitDots(s string) []string {
	var out []string
	start := 0
	for i := 0; i < len(s); i++ {
		if s[i] == '.' {
			out = append(out, s[start:i])
			start = i + 1
		}
	}
	return append(out, s[start:])
}

// float64Array copies v into a new JS Float64Array (one bulk copy, not one
// js.Value per element).
func float64Array(v []float64) js.Value {
	arr := js.Global().Get("Float64Array").New(len(v))
	if len(v) > 0 {
		bytes := js.Global().Get("Uint8Array").New(arr.Get("buffer"))
		js.CopyBytesToJS(bytes, float64Bytes(v))
	}
	return arr
}

// jsMatrix converts rows to a JS array of Float64Array rows, the bulk format
// the API accepts for x.
func jsMatrix(rows [][]float64) js.Value {
	out := js.Global().Get("Array").New(len(rows))
	for i, r := range rows {
		out.SetIndex(i, float64Array(r))
	}
	return out
}
