//go:build js && wasm

package jsio

import "testing"

// TestStackNames: the "?:0" lines of a trace from a module without line
// tables go, every other line stays as it was.
func TestStackNames(t *testing.T) {
	stripped := "goroutine 7 [running]:\nruntime/debug.Stack()\n\t?:0 +0x3\ngithub.com/dpsample/dpsample/wasm/jsapi.init.func1()\n\t?:0\ncreated by github.com/dpsample/dpsample/wasm/internal/jsio.Promise.func1 in goroutine 1\n\t?:0 +0x1c\n"
	want := "goroutine 7 [running]:\nruntime/debug.Stack()\ngithub.com/dpsample/dpsample/wasm/jsapi.init.func1()\ncreated by github.com/dpsample/dpsample/wasm/internal/jsio.Promise.func1 in goroutine 1\n"
	if got := stackNames([]byte(stripped)); got != want {
		t.Errorf("stackNames:\n%s\nwant\n%s", got, want)
	}
	full := "goroutine 7 [running]:\nruntime/debug.Stack()\n\truntime/debug/stack.go:26 +0x5e\nmain.f(?:0)\n"
	if got := stackNames([]byte(full)); got != full {
		t.Errorf("a trace with positions changed:\n%s", got)
	}
}
