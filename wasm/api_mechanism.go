//go:build js && wasm

package main

import (
	"syscall/js"

	"github.com/dpsample/dpsample/core/checks"
	"github.com/dpsample/dpsample/core/mechanism"
)

// requestFields are the fields of a mechanism Request (product.md §4).
var requestFields = []string{"loss", "x", "y", "epsilon", "delta", "radius", "rank", "clip", "tau", "huber", "ball",
	"samples", "sampler", "etaRule", "mode", "seed"}

// readRequest validates a JS Request field by field and builds the Go one.
// Semantic rules (ranges depending on n and d, label ranges, …) are checked
// once more, in one place, by mechanism.NewPlan.
func readRequest(v js.Value) (mechanism.Request, error) {
	var req mechanism.Request
	o, err := object(v, "req", false, requestFields...)
	if err != nil {
		return req, err
	}
	if lv := o.get("loss"); lv.Type() != js.TypeString {
		return req, &checks.Error{Field: "req.loss", Rule: `a loss name ("l1", "l2dist", "lad", "quantile", "hinge", "logistic", "huber", …)`, Got: describe(lv)}
	}
	req.Loss = o.get("loss").String()
	if req.X, err = matrix(o.get("x"), "req.x"); err != nil {
		return req, err
	}
	if o.has("y") {
		if req.Y, err = vector(o.get("y"), "req.y", len(req.X)); err != nil {
			return req, err
		}
	}
	if req.Epsilon, err = o.num("epsilon", checks.Epsilon); err != nil {
		return req, err
	}
	if req.Delta, err = o.num("delta", checks.Delta); err != nil {
		return req, err
	}
	if req.Radius, err = o.num("radius", checks.Positive); err != nil {
		return req, err
	}
	d := len(req.X[0])
	if req.Rank, err = o.integer("rank", 1, d, true, 0); err != nil {
		return req, err
	}
	if req.Clip, err = o.optNum("clip", 0, checks.Positive); err != nil {
		return req, err
	}
	if req.Tau, err = o.optNum("tau", 0, func(f string, x float64) error { return checks.Probability(f, x) }); err != nil {
		return req, err
	}
	if req.Huber, err = o.optNum("huber", 0, checks.Positive); err != nil {
		return req, err
	}
	if req.Ball, err = o.optNum("ball", 0, checks.Positive); err != nil {
		return req, err
	}
	if req.Samples, err = o.integer("samples", 1, 10000, true, 0); err != nil {
		return req, err
	}
	if req.Sampler, err = o.str("sampler", true, "", "auto", "proximal", "smooth", "exact"); err != nil {
		return req, err
	}
	if req.EtaRule, err = o.str("etaRule", true, "", "optimal", "paper"); err != nil {
		return req, err
	}
	if req.Mode, err = o.str("mode", true, "", "auto", "full", "stochastic"); err != nil {
		return req, err
	}
	if req.Seed, err = o.seed(); err != nil {
		return req, err
	}
	return req, nil
}

// mechanismAPI is dpsample.mechanism: Algorithm 1 (plan and sample).
func mechanismAPI() map[string]any {
	return map[string]any{
		"plan": export(func(a []js.Value) (any, error) {
			req, err := readRequest(arg(a, 0))
			if err != nil {
				return nil, err
			}
			pl, err := mechanism.NewPlan(req)
			if err != nil {
				return nil, err
			}
			return toJS(pl)
		}),
		"sample": export(func(a []js.Value) (any, error) {
			req, err := readRequest(arg(a, 0))
			if err != nil {
				return nil, err
			}
			rc, err := newRunControl(arg(a, 1), "opts")
			if err != nil {
				return nil, err
			}
			res, err := mechanism.Sample(rc.ctx, req, rc.progress)
			if err = rc.finish(err); err != nil {
				return nil, err
			}
			return toJS(res)
		}),
	}
}
