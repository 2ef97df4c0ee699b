//go:build js && wasm

package main

import (
	"fmt"
	"syscall/js"

	"github.com/dpsample/dpsample/core/baseline"
	"github.com/dpsample/dpsample/core/checks"
)

// demoAPI is dpsample.demo: computations behind the site's demonstrations
// that are not part of the core contract but run in the worker like it.
func demoAPI() map[string]any {
	return map[string]any{
		// dimensionFree(opts, {onProgress, signal}) → excess risk vs d for
		// Algorithm 1 and projected noisy gradient descent (same accountant).
		"dimensionFree": export(func(a []js.Value) (any, error) {
			o, err := object(arg(a, 0), "opts", true, "n", "rank", "dims", "epsilon", "delta", "radius", "trials", "steps", "dataSeed", "seed")
			if err != nil {
				return nil, err
			}
			var opt baseline.DimFreeOptions
			if opt.N, err = o.integer("n", 2, 100000, true, 0); err != nil {
				return nil, err
			}
			if opt.Rank, err = o.integer("rank", 1, 1000, true, 0); err != nil {
				return nil, err
			}
			if o.has("dims") {
				dv := o.get("dims")
				if !isArray(dv) || dv.Length() == 0 || dv.Length() > 64 {
					return nil, &checks.Error{Field: "opts.dims", Rule: "a non-empty array of at most 64 integers", Got: describe(dv)}
				}
				for i := 0; i < dv.Length(); i++ {
					v := dv.Index(i)
					if v.Type() != js.TypeNumber || v.Float() != float64(int(v.Float())) || v.Float() < 1 || v.Float() > 100000 {
						return nil, &checks.Error{Field: fmt.Sprintf("opts.dims[%d]", i), Rule: "an integer in [1, 100000]", Got: describe(v)}
					}
					opt.Dims = append(opt.Dims, v.Int())
				}
			}
			if opt.Epsilon, err = o.optNum("epsilon", 0, checks.Epsilon); err != nil {
				return nil, err
			}
			if opt.Delta, err = o.optNum("delta", 0, checks.Delta); err != nil {
				return nil, err
			}
			if opt.Radius, err = o.optNum("radius", 0, checks.Positive); err != nil {
				return nil, err
			}
			if opt.Trials, err = o.integer("trials", 1, 1000, true, 0); err != nil {
				return nil, err
			}
			if opt.Steps, err = o.integer("steps", 1, 1000000, true, 0); err != nil {
				return nil, err
			}
			ds, err := o.integer("dataSeed", 0, 1<<53, true, 0)
			if err != nil {
				return nil, err
			}
			opt.DataSeed = uint64(ds)
			if opt.Seed, err = o.seed(); err != nil {
				return nil, err
			}
			rc, err := newRunControl(arg(a, 1), "opts")
			if err != nil {
				return nil, err
			}
			res, err := baseline.DimensionFree(rc.ctx, opt, rc.progress)
			if err = rc.finish(err); err != nil {
				return nil, err
			}
			return toJS(res)
		}),
	}
}
