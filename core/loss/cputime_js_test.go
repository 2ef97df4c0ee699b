//go:build js && wasm

package loss

import "time"

// cpuTime is 0 under js/wasm: core/ never imports syscall/js (not even in
// tests), so under js the benchmarks report wall time only.
func cpuTime() time.Duration { return 0 }
