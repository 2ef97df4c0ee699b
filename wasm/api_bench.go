//go:build js && wasm

package main

import (
	"syscall/js"

	"github.com/dpsample/dpsample/core/benchkit"
	"github.com/dpsample/dpsample/core/checks"
)

// benchAPI is the hidden dpsample._bench namespace used by `./build.sh
// bench` (wasm/tools/bench): the same Go kernels (package benchkit) the runner
// times natively, timed here inside the wasm module so that native, node and
// Chromium numbers come from the same code.
//
//	dpsample._bench.kernels()        → [{name, group, unit, perIter, iters}]
//	dpsample._bench.run(name, iters) → elapsed milliseconds
func benchAPI() map[string]any {
	return map[string]any{
		"kernels": export(func([]js.Value) (any, error) { return toJS(benchkit.Kernels()) }),
		"run": export(func(a []js.Value) (any, error) {
			name := arg(a, 0)
			if name.Type() != js.TypeString {
				return nil, &checks.Error{Field: "name", Rule: "a kernel name (a string)", Got: describe(name)}
			}
			iters, err := number(arg(a, 1), "iters")
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
}
