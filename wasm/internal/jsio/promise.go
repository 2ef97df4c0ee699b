//go:build js && wasm

package jsio

import (
	"errors"
	"fmt"
	"runtime/debug"
	"strings"
	"syscall/js"
)

// Go ↔ Promise, both directions. Cancellation has one representation on the
// Go side, ErrAborted: Promise turns it into a rejection whose Error has name
// "AbortError" (the JS contract, docs/API.md), and Await turns such a
// rejection back into an error for which errors.Is(err, ErrAborted) holds.

// NewError builds a JS Error with the given message.
func NewError(msg string) js.Value { return js.Global().Get("Error").New(msg) }

// Promise runs work on a new goroutine and returns a JS Promise for its
// result. A returned error rejects the Promise with an Error carrying the
// message unchanged (it names the field); a panic is recovered into a
// rejection too, so no input can kill the Go runtime.
func Promise(work func() (any, error)) js.Value {
	var executor js.Func
	executor = js.FuncOf(func(_ js.Value, args []js.Value) any {
		resolve, reject := args[0], args[1]
		go func() {
			defer executor.Release()
			defer func() {
				if r := recover(); r != nil {
					reject.Invoke(NewError(fmt.Sprintf("internal error (panic: %v); the module keeps working — please report this with the input that caused it\n%s", r, stackNames(debug.Stack()))))
				}
			}()
			v, err := work()
			if err != nil {
				e := NewError(err.Error())
				if errors.Is(err, ErrAborted) {
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

// stackNames is a goroutine's stack trace (debug.Stack) without the lines
// that only say a source position is unknown ("\t?:0 +0x1f"): the shipped
// modules have no file and line tables (wasm/tools/wasmpack), so their
// traces name the functions and nothing else. Lines with a position (a
// module built with them) are kept.
func stackNames(trace []byte) string {
	var b strings.Builder
	for line := range strings.Lines(string(trace)) {
		if rest, ok := strings.CutPrefix(line, "\t?:0"); ok && (strings.TrimSpace(rest) == "" || strings.HasPrefix(rest, " +0x")) {
			continue
		}
		b.WriteString(line)
	}
	return b.String()
}

// Export wraps fn as a JS function returning a Promise. Argument conversion
// runs inside the Promise too, so a bad argument is a rejection, never a throw.
func Export(fn func(args []js.Value) (any, error)) js.Func {
	return js.FuncOf(func(_ js.Value, args []js.Value) any {
		// Copy: args is only valid during this call.
		cp := append([]js.Value(nil), args...)
		return Promise(func() (any, error) { return fn(cp) })
	})
}

// Rejection is a JS rejection seen from Go: the Error's message and name.
type Rejection struct{ Message, Name string }

func (e *Rejection) Error() string { return e.Message }

// Is makes a rejection named "AbortError" match ErrAborted.
func (e *Rejection) Is(target error) bool { return target == ErrAborted && e.Name == "AbortError" }

// IsAbort reports whether err is a cancellation (ErrAborted, or a rejection
// named "AbortError").
func IsAbort(err error) bool { return errors.Is(err, ErrAborted) }

// Await blocks the calling goroutine until p settles and returns its value,
// or its rejection as a *Rejection. A value that is not a thenable is
// returned as it is. Never call it from inside a js.Func callback (an event
// handler): start a goroutine first.
func Await(p js.Value) (js.Value, error) {
	if p.Type() != js.TypeObject || p.Get("then").Type() != js.TypeFunction {
		return p, nil
	}
	type settled struct {
		v   js.Value
		err error
	}
	ch := make(chan settled, 1)
	var ok, fail js.Func
	ok = js.FuncOf(func(_ js.Value, a []js.Value) any { ch <- settled{v: Arg(a, 0)}; return nil })
	fail = js.FuncOf(func(_ js.Value, a []js.Value) any {
		e := Arg(a, 0)
		msg := Describe(e)
		name := ""
		if e.Type() == js.TypeObject {
			if e.Get("message").Type() == js.TypeString {
				msg = e.Get("message").String()
			}
			name = e.Get("name").String()
		}
		ch <- settled{err: &Rejection{Message: msg, Name: name}}
		return nil
	})
	p.Call("then", ok, fail)
	s := <-ch
	ok.Release()
	fail.Release()
	return s.v, s.err
}
