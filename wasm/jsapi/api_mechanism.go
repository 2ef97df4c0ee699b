//go:build js && wasm

package jsapi

import (
	"syscall/js"

	"github.com/dpsample/dpsample/core/checks"
	"github.com/dpsample/dpsample/core/mechanism"
	"github.com/dpsample/dpsample/wasm/internal/jsio"
)

// requestFields are the fields of a mechanism Request (docs/API.md): its
// json tags, the same table the wire codec (jsio.Encode) writes from.
var requestFields = jsio.Fields(mechanism.Request{})

// readRequest validates a JS Request field by field and builds the Go one.
// Semantic rules (ranges depending on n and d, label ranges, …) are checked
// once more, in one place, by mechanism.NewPlan.
func readRequest(v js.Value) (mechanism.Request, error) {
	var req mechanism.Request
	o, err := jsio.ReadObject(v, "req", false, requestFields...)
	if err != nil {
		return req, err
	}
	if lv := o.Get("loss"); lv.Type() != js.TypeString {
		return req, &checks.Error{Field: "req.loss", Rule: `a loss name ("l1", "l2dist", "lad", "quantile", "hinge", "logistic", "huber", …)`, Got: jsio.Describe(lv)}
	}
	req.Loss = o.Get("loss").String()
	if req.X, err = jsio.Matrix(o.Get("x"), "req.x"); err != nil {
		return req, err
	}
	if o.Has("y") {
		if req.Y, err = jsio.Vector(o.Get("y"), "req.y", len(req.X)); err != nil {
			return req, err
		}
	}
	if req.Epsilon, err = o.Num("epsilon", checks.Epsilon); err != nil {
		return req, err
	}
	if req.Delta, err = o.Num("delta", checks.Delta); err != nil {
		return req, err
	}
	// Absent: mechanism.DefaultRadius, from public inputs (plan.why says so).
	if req.Radius, err = o.OptNum("radius", 0, checks.Positive); err != nil {
		return req, err
	}
	d := len(req.X[0])
	if req.Rank, err = o.Int("rank", 1, d, true, 0); err != nil {
		return req, err
	}
	if req.Clip, err = o.OptNum("clip", 0, checks.Positive); err != nil {
		return req, err
	}
	if req.Tau, err = o.OptNum("tau", 0, func(f string, x float64) error { return checks.Probability(f, x) }); err != nil {
		return req, err
	}
	if req.Huber, err = o.OptNum("huber", 0, checks.Positive); err != nil {
		return req, err
	}
	if req.Ball, err = o.OptNum("ball", 0, checks.Positive); err != nil {
		return req, err
	}
	// Public record domains (docs/PRIVACY.md): [lo, hi]; the finiteness and
	// order rules and the loss they belong to are checked by mechanism.NewPlan.
	for _, f := range []struct {
		name string
		dst  *[]float64
	}{{"targetRange", &req.TargetRange}, {"pointBox", &req.PointBox}} {
		if o.Has(f.name) {
			if *f.dst, err = jsio.Vector(o.Get(f.name), "req."+f.name, 2); err != nil {
				return req, err
			}
		}
	}
	if req.Samples, err = o.Int("samples", 1, 10000, true, 0); err != nil {
		return req, err
	}
	if req.Sampler, err = o.Str("sampler", true, "", "auto", "proximal", "smooth", "exact"); err != nil {
		return req, err
	}
	if req.EtaRule, err = o.Str("etaRule", true, "", "optimal", "paper"); err != nil {
		return req, err
	}
	if req.Mode, err = o.Str("mode", true, "", "auto", "full", "stochastic"); err != nil {
		return req, err
	}
	if req.Method, err = o.Str("method", true, "", mechanism.EstimatorExponential, mechanism.EstimatorDPGD, mechanism.EstimatorDPGDProjected); err != nil {
		return req, err
	}
	if req.Seed, err = o.Seed(); err != nil {
		return req, err
	}
	return req, nil
}

// mechanismAPI is dpsample.mechanism: Algorithm 1, or DP-GD on request
// (plan and sample).
func mechanismAPI() map[string]any {
	return map[string]any{
		"plan": jsio.Export(func(a []js.Value) (any, error) {
			req, err := readRequest(jsio.Arg(a, 0))
			if err != nil {
				return nil, err
			}
			pl, err := mechanism.NewPlan(req)
			if err != nil {
				return nil, err
			}
			return jsio.Encode(pl), nil
		}),
		"sample": jsio.Export(func(a []js.Value) (any, error) {
			req, err := readRequest(jsio.Arg(a, 0))
			if err != nil {
				return nil, err
			}
			rc, err := jsio.NewRunControl(jsio.Arg(a, 1), "opts")
			if err != nil {
				return nil, err
			}
			res, err := mechanism.Sample(rc.Ctx, req, rc.Progress)
			if err = rc.Finish(err); err != nil {
				return nil, err
			}
			return jsio.Encode(res), nil
		}),
	}
}
