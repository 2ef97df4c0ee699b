//go:build js && wasm

package jsapi

import (
	"syscall/js"

	"github.com/dpsample/dpsample/core/checks"
	"github.com/dpsample/dpsample/core/fingerprint"
	"github.com/dpsample/dpsample/core/lowerbound"
	"github.com/dpsample/dpsample/core/rng"
	"github.com/dpsample/dpsample/wasm/internal/jsio"
)

// Codes live in the realm that generated them: the JS Code object carries a
// handle to the Go-side secret key (biases, codebook, permutation), which
// never crosses into JS except through rows().
var codes = map[int]*fingerprint.Code{}
var nextCode = 1

// maxCodes bounds the handles kept alive; the oldest is dropped beyond it.
const maxCodes = 16

func codeValue(id int, c *fingerprint.Code, private bool) js.Value {
	v := jsio.Encode(c.Lengths)
	v.Set("n", c.N)
	v.Set("xi", c.Xi)
	v.Set("mode", string(c.Mode))
	v.Set("id", id)
	v.Set("private", private)
	return v
}

func lookupCode(v js.Value) (*fingerprint.Code, error) {
	if v.Type() != js.TypeObject || v.Get("id").Type() != js.TypeNumber {
		return nil, &checks.Error{Field: "code", Rule: "a Code returned by fingerprint.code", Got: jsio.Describe(v)}
	}
	c, ok := codes[v.Get("id").Int()]
	if !ok {
		return nil, checks.Errorf("code", "a live Code from fingerprint.code in this worker (it was released or made elsewhere)")
	}
	return c, nil
}

func fingerprintAPI() map[string]any {
	return map[string]any{
		"code": jsio.Export(func(a []js.Value) (any, error) {
			o, err := jsio.ReadObject(jsio.Arg(a, 0), "opts", false, "n", "xi", "mode", "seed")
			if err != nil {
				return nil, err
			}
			var p fingerprint.Params
			if p.N, err = o.Int("n", 2, 1<<20, false, 0); err != nil {
				return nil, err
			}
			if p.Xi, err = o.Num("xi", checks.Probability); err != nil {
				return nil, err
			}
			mode, err := o.Str("mode", true, "tardos", "tardos", "symmetric")
			if err != nil {
				return nil, err
			}
			p.Mode = fingerprint.Mode(mode)
			seed, err := o.Seed()
			if err != nil {
				return nil, err
			}
			r, private := rng.New(seed)
			c, err := fingerprint.New(p, r)
			if err != nil {
				return nil, err
			}
			id := nextCode
			nextCode++
			codes[id] = c
			delete(codes, id-maxCodes)
			return codeValue(id, c, private), nil
		}),
		"rows": jsio.Export(func(a []js.Value) (any, error) {
			c, err := lookupCode(jsio.Arg(a, 0))
			if err != nil {
				return nil, err
			}
			out := js.Global().Get("Array").New(c.N)
			for i := 0; i < c.N; i++ {
				row := c.Row(i)
				u := js.Global().Get("Uint8Array").New(len(row))
				js.CopyBytesToJS(u, row)
				out.SetIndex(i, u)
			}
			return out, nil
		}),
		"trace": jsio.Export(func(a []js.Value) (any, error) {
			c, err := lookupCode(jsio.Arg(a, 0))
			if err != nil {
				return nil, err
			}
			out, err := jsio.Vector(jsio.Arg(a, 1), "output", c.Length)
			if err != nil {
				return nil, err
			}
			tr, err := c.Trace(out)
			if err != nil {
				return nil, err
			}
			return jsio.Encode(tr), nil
		}),
	}
}

// lowerboundFields are the fields of lowerbound.Options: its json tags.
var lowerboundFields = jsio.Fields(lowerbound.Options{})

func readLowerbound(v js.Value) (lowerbound.Options, error) {
	var opt lowerbound.Options
	o, err := jsio.ReadObject(v, "opts", false, lowerboundFields...)
	if err != nil {
		return opt, err
	}
	if opt.N, err = o.Int("n", 2, 4096, false, 0); err != nil {
		return opt, err
	}
	if opt.Xi, err = o.Num("xi", checks.Probability); err != nil {
		return opt, err
	}
	mech, err := o.Str("mechanism", false, "", "median", "exponential", "box-exponential", "gaussian")
	if err != nil {
		return opt, err
	}
	opt.Mechanism = lowerbound.Mechanism(mech)
	mode, err := o.Str("mode", true, "tardos", "tardos", "symmetric")
	if err != nil {
		return opt, err
	}
	opt.Mode = fingerprint.Mode(mode)
	if opt.Epsilon, err = o.OptNum("epsilon", 0, checks.Epsilon); err != nil {
		return opt, err
	}
	if opt.Delta, err = o.OptNum("delta", 0, checks.Delta); err != nil {
		return opt, err
	}
	if o.Has("s") {
		s, err := o.Num("s", checks.NonNegative)
		if err != nil {
			return opt, err
		}
		opt.S = &s
	}
	if o.Has("remove") {
		r, err := o.Int("remove", 0, opt.N-1, false, 0)
		if err != nil {
			return opt, err
		}
		opt.Remove = &r
	}
	if opt.Ghosts, err = o.Int("ghosts", 0, 100000, true, 0); err != nil {
		return opt, err
	}
	if opt.Trials, err = o.Int("trials", 1, 100000, true, 1); err != nil {
		return opt, err
	}
	if opt.Copies, err = o.Int("copies", 1, 1000, true, 0); err != nil {
		return opt, err
	}
	if opt.Pad, err = o.Int("pad", 0, 1<<20, true, 0); err != nil {
		return opt, err
	}
	if opt.Seed, err = o.Seed(); err != nil {
		return opt, err
	}
	return opt, nil
}

func lowerboundAPI() map[string]any {
	return map[string]any{
		"run": jsio.Export(func(a []js.Value) (any, error) {
			opt, err := readLowerbound(jsio.Arg(a, 0))
			if err != nil {
				return nil, err
			}
			rc, err := jsio.NewRunControl(jsio.Arg(a, 1), "onProgress")
			if err != nil {
				return nil, err
			}
			ex, err := lowerbound.Run(rc.Ctx, opt, rc.Progress)
			if err = rc.Finish(err); err != nil {
				return nil, err
			}
			return jsio.Encode(ex), nil
		}),
	}
}

func boundsAPI() map[string]any {
	return map[string]any{
		"table": jsio.Export(func(a []js.Value) (any, error) {
			o, err := jsio.ReadObject(jsio.Arg(a, 0), "opts", false, "n", "d", "rank", "epsilon", "delta", "G", "C")
			if err != nil {
				return nil, err
			}
			var in lowerbound.BoundsInput
			if in.N, err = o.Int("n", 1, 1<<52, false, 0); err != nil {
				return nil, err
			}
			if in.D, err = o.Int("d", 1, 1<<52, false, 0); err != nil {
				return nil, err
			}
			if in.Rank, err = o.Int("rank", 1, in.D, true, in.D); err != nil {
				return nil, err
			}
			if in.Epsilon, err = o.Num("epsilon", checks.Epsilon); err != nil {
				return nil, err
			}
			if in.Delta, err = o.Num("delta", checks.Delta); err != nil {
				return nil, err
			}
			if in.G, err = o.OptNum("G", 1, checks.Positive); err != nil {
				return nil, err
			}
			if in.C, err = o.OptNum("C", 1, checks.Positive); err != nil {
				return nil, err
			}
			rows, err := lowerbound.Table(in)
			if err != nil {
				return nil, err
			}
			return jsio.Encode(rows), nil
		}),
	}
}
