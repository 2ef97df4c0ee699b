//go:build js && wasm

package loss

import (
	"syscall/js"
	"time"
)

// cpuTime returns node's process CPU time (user + system; process.cpuUsage),
// 0 outside node. After warm-up the timed passes allocate nothing, so the
// runtime's and V8's background threads add little to it.
func cpuTime() time.Duration {
	p := js.Global().Get("process")
	if !p.Truthy() || p.Get("cpuUsage").Type() != js.TypeFunction {
		return 0
	}
	u := p.Call("cpuUsage")
	return time.Duration(u.Get("user").Float()+u.Get("system").Float()) * time.Microsecond
}
