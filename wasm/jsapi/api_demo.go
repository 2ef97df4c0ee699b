//go:build js && wasm

package jsapi

import (
	"fmt"
	"syscall/js"

	"github.com/dpsample/dpsample/core/baseline"
	"github.com/dpsample/dpsample/core/checks"
	"github.com/dpsample/dpsample/wasm/internal/jsio"
)

// dimFreeFields are the fields of baseline.DimFreeOptions: its json tags.
var dimFreeFields = jsio.Fields(baseline.DimFreeOptions{})

// demoAPI is dpsample.demo: computations behind the site's demonstrations
// that are not part of the core contract but run in the worker like it.
func demoAPI() map[string]any {
	return map[string]any{
		// dimensionFree(opts, {onProgress, signal}) → excess risk vs d for
		// Algorithm 1 and projected and unprojected DP-GD on core/dpgd's
		// public schedule (same accountant).
		"dimensionFree": jsio.Export(func(a []js.Value) (any, error) {
			o, err := jsio.ReadObject(jsio.Arg(a, 0), "opts", true, dimFreeFields...)
			if err != nil {
				return nil, err
			}
			var opt baseline.DimFreeOptions
			if opt.N, err = o.Int("n", 2, 100000, true, 0); err != nil {
				return nil, err
			}
			if opt.Rank, err = o.Int("rank", 1, 1000, true, 0); err != nil {
				return nil, err
			}
			if o.Has("dims") {
				dv := o.Get("dims")
				if !jsio.IsArray(dv) || dv.Length() == 0 || dv.Length() > 64 {
					return nil, &checks.Error{Field: "opts.dims", Rule: "a non-empty array of at most 64 integers", Got: jsio.Describe(dv)}
				}
				for i := 0; i < dv.Length(); i++ {
					v := dv.Index(i)
					if v.Type() != js.TypeNumber || v.Float() != float64(int(v.Float())) || v.Float() < 1 || v.Float() > 100000 {
						return nil, &checks.Error{Field: fmt.Sprintf("opts.dims[%d]", i), Rule: "an integer in [1, 100000]", Got: jsio.Describe(v)}
					}
					opt.Dims = append(opt.Dims, v.Int())
				}
			}
			if opt.Epsilon, err = o.OptNum("epsilon", 0, checks.Epsilon); err != nil {
				return nil, err
			}
			if opt.Delta, err = o.OptNum("delta", 0, checks.Delta); err != nil {
				return nil, err
			}
			if opt.Radius, err = o.OptNum("radius", 0, checks.Positive); err != nil {
				return nil, err
			}
			if opt.Trials, err = o.Int("trials", 1, 1000, true, 0); err != nil {
				return nil, err
			}
			ds, err := o.Int("dataSeed", 0, 1<<53, true, 0)
			if err != nil {
				return nil, err
			}
			opt.DataSeed = uint64(ds)
			if opt.Seed, err = o.Seed(); err != nil {
				return nil, err
			}
			rc, err := jsio.NewRunControl(jsio.Arg(a, 1), "opts")
			if err != nil {
				return nil, err
			}
			res, err := baseline.DimensionFree(rc.Ctx, opt, rc.Progress)
			if err = rc.Finish(err); err != nil {
				return nil, err
			}
			return jsio.Encode(res), nil
		}),
	}
}
