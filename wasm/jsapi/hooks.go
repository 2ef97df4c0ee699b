//go:build js && wasm && dpsample_hooks

package jsapi

import (
	"errors"
	"syscall/js"
	"time"

	"github.com/dpsample/dpsample/core/benchkit"
	"github.com/dpsample/dpsample/core/checks"
	"github.com/dpsample/dpsample/wasm/internal/jsio"
	"github.com/dpsample/dpsample/wasm/internal/pool"
)

// Hooks are compiled in only under the build tag dpsample_hooks, which
// `./build.sh test` and `./build.sh bench` set; the module `./build.sh
// build` ships has neither namespace and does not link core/benchkit
// (build.sh checks that).
const Hooks = true

// keepWorkers turns the fallback to one worker off (_test.keepWorkers).
var keepWorkers = false

// addHooks installs the hidden namespaces:
//
//	dpsample._bench.kernels()        → [{name, group, unit, perIter, iters}]
//	dpsample._bench.run(name, iters) → elapsed milliseconds
//	dpsample._test.panic()           → rejects (a Go panic, recovered)
//	dpsample._test.spin(ms)          → busy-waits ms without yielding
//	dpsample._test.crashShard(k)     → the next worker pool's last shard throws after k passes
//	dpsample._test.poolStats()       → {passes, beginMs, localMs, waitMs}: the last pool's hand-off timings
//	dpsample._test.slowShard(ms)     → the next worker pool's last shard busy-waits ms after each pass
//	dpsample._test.keepWorkers(b)    → true: runs keep their shards on the workers even when slower (no fallback)
//	dpsample._test.poolMode(mode)    → "auto", "messages" or "shared": how the next pools talk to their shards
//
// _bench is used by `./build.sh bench` (wasm/tools/bench): the same Go
// kernels (package benchkit) the runner times natively, timed inside the
// wasm module so that native, node and Chromium numbers come from the same
// code. _test is used by the node and browser tests.
func addHooks(api map[string]any) {
	api["_bench"] = map[string]any{
		"kernels": jsio.Export(func([]js.Value) (any, error) { return jsio.Encode(benchkit.Kernels()), nil }),
		"run": jsio.Export(func(a []js.Value) (any, error) {
			name := jsio.Arg(a, 0)
			if name.Type() != js.TypeString {
				return nil, &checks.Error{Field: "name", Rule: "a kernel name (a string)", Got: jsio.Describe(name)}
			}
			iters, err := jsio.Number(jsio.Arg(a, 1), "iters")
			if err != nil {
				return nil, err
			}
			d, err := benchkit.Time(name.String(), int(iters))
			if err != nil {
				return nil, err
			}
			return float64(d.Nanoseconds()) / 1e6, nil
		}),
	}
	api["_test"] = map[string]any{
		// panic forces a Go panic inside an export, to prove it becomes a
		// rejection and the runtime survives.
		"panic": jsio.Export(func([]js.Value) (any, error) {
			var m map[string]int
			//lint:ignore SA5000 the nil-map write is the point: it must panic.
			m["boom"]++
			return nil, errPanicTest
		}),
		// crashShard makes the next pool's last shard worker throw after
		// k passes, to prove that a failed worker never changes a result.
		"crashShard": jsio.Export(func(a []js.Value) (any, error) {
			k, err := jsio.Number(jsio.Arg(a, 0), "k")
			if err != nil {
				return nil, err
			}
			pool.CrashAfter = int(k)
			return nil, nil
		}),
		// slowShard makes the next pool's last shard busy-wait ms after
		// each pass, to prove that a pool slower than one worker falls back
		// (loss.Sharded.WatchSpeed) and the result does not change.
		"slowShard": jsio.Export(func(a []js.Value) (any, error) {
			ms, err := jsio.Number(jsio.Arg(a, 0), "ms")
			if err != nil {
				return nil, err
			}
			pool.SlowMs = ms
			return nil, nil
		}),
		// keepWorkers(true) turns the fallback to one worker off for the
		// next runs (tests and benchmarks of the pool itself).
		"keepWorkers": jsio.Export(func(a []js.Value) (any, error) {
			b := jsio.Arg(a, 0)
			if b.Type() != js.TypeBoolean {
				return nil, &checks.Error{Field: "keep", Rule: "a boolean", Got: jsio.Describe(b)}
			}
			keepWorkers = b.Bool()
			return nil, nil
		}),
		// poolStats returns the last pool's hand-off timings (pool.Stats).
		"poolStats": jsio.Export(func([]js.Value) (any, error) {
			st := pool.LastStats
			return map[string]any{"passes": st.Passes, "beginMs": st.BeginMs, "localMs": st.LocalMs, "waitMs": st.WaitMs}, nil
		}),
		// poolMode forces message passing or shared memory (to measure
		// both on one page); "auto" restores the default.
		"poolMode": jsio.Export(func(a []js.Value) (any, error) {
			switch m := jsio.Arg(a, 0); {
			case m.Type() == js.TypeString && m.String() == "auto":
				pool.ForceMode = pool.Auto
			case m.Type() == js.TypeString && m.String() == "messages":
				pool.ForceMode = pool.Messages
			case m.Type() == js.TypeString && m.String() == "shared":
				pool.ForceMode = pool.Shared
			default:
				return nil, &checks.Error{Field: "mode", Rule: `"auto", "messages" or "shared"`, Got: jsio.Describe(m)}
			}
			return nil, nil
		}),
		// spin busy-waits ms milliseconds without yielding, to exercise
		// the loader's hard cancellation (terminate + respawn).
		"spin": jsio.Export(func(a []js.Value) (any, error) {
			ms, err := jsio.Number(jsio.Arg(a, 0), "ms")
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
	}
}

// errPanicTest is returned by _test.panic after the panic that cannot fail to happen.
var errPanicTest = errors.New("unreachable")
