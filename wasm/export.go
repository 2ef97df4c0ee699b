//go:build js && wasm

package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"runtime/debug"
	"syscall/js"
)

// jsError builds a JS Error with the given message.
func jsError(msg string) js.Value { return js.Global().Get("Error").New(msg) }

// promise runs work on a new goroutine and returns a JS Promise for its
// result. A returned error rejects the Promise with an Error carrying the
// message unchanged (it names the field); a panic is recovered into a
// rejection too, so no input can kill the Go runtime.
func promise(work func() (any, error)) js.Value {
	var executor js.Func
	executor = js.FuncOf(func(_ js.Value, args []js.Value) any {
		resolve, reject := args[0], args[1]
		go func() {
			defer executor.Release()
			defer func() {
				if r := recover(); r != nil {
					reject.Invoke(jsError(fmt.Sprintf("internal error (panic: %v); the module keeps working — please report this with the input that caused it\n%s", r, debug.Stack())))
				}
			}()
			v, err := work()
			if err != nil {
				e := jsError(err.Error())
				if errors.Is(err, errAborted) {
					e.Set("name", "AbortError")
				}
				reject.Invoke(e)
				return
			}
			resolve.Invoke(v)
		}()
		return nil
	})
	return js.Global().Get("Promise").New(executor)
}

// export wraps fn as a JS function returning a Promise. Argument conversion
// runs inside the Promise too, so a bad argument is a rejection, never a throw.
func export(fn func(args []js.Value) (any, error)) js.Func {
	return js.FuncOf(func(_ js.Value, args []js.Value) any {
		// Copy: args is only valid during this call.
		cp := append([]js.Value(nil), args...)
		return promise(func() (any, error) { return fn(cp) })
	})
}

// errPanicTest is returned by the hidden self-test export that forces a panic.
var errPanicTest = errors.New("unreachable")

// toJS converts a result struct to a JS value through its JSON encoding, so
// the JS field names are exactly the Go json tags (the contract's names).
// vert.ValueOf is kept for small option-like values; it panics on named
// string types and nil pointers, which results contain.
func toJS(v any) (js.Value, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return js.Undefined(), fmt.Errorf("internal error: result not representable (%v)", err)
	}
	return js.Global().Get("JSON").Call("parse", string(b)), nil
}
