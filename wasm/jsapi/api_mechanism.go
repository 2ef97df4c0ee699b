//go:build js && wasm

package jsapi

import (
	"syscall/js"

	"github.com/dpsample/dpsample/core/checks"
	"github.com/dpsample/dpsample/core/interval"
	"github.com/dpsample/dpsample/core/loss"
	"github.com/dpsample/dpsample/core/mechanism"
	"github.com/dpsample/dpsample/core/rng"
	"github.com/dpsample/dpsample/wasm/internal/jsio"
	"github.com/dpsample/dpsample/wasm/internal/pool"
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
	// Declared boxes of the records (docs/PRIVACY.md §3): [lo, hi]; the finiteness and
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
	smp, err := o.Str("sampler", true, "", string(mechanism.SamplerAuto), string(mechanism.SamplerProximal), string(mechanism.SamplerSmooth), string(mechanism.SamplerExact))
	if err != nil {
		return req, err
	}
	req.Sampler = mechanism.Sampler(smp)
	etaRule, err := o.Str("etaRule", true, "", string(mechanism.EtaOptimal), string(mechanism.EtaPaper))
	if err != nil {
		return req, err
	}
	req.EtaRule = mechanism.EtaRule(etaRule)
	if req.Mode, err = o.Str("mode", true, "", "auto", "full", "stochastic"); err != nil {
		return req, err
	}
	method, err := o.Str("method", true, "", string(mechanism.EstimatorExponential), string(mechanism.EstimatorDPGD), string(mechanism.EstimatorDPGDProjected))
	if err != nil {
		return req, err
	}
	req.Method = mechanism.Estimator(method)
	// interval: a level in (0, 1); that the rest of the request allows
	// intervals (method "dp-gd", a smooth loss, one sample) is
	// mechanism.NewPlan's rule, with errors naming "interval" too.
	if req.Interval, err = o.OptNum("interval", 0, interval.CheckLevel); err != nil {
		return req, err
	}
	if req.Seed, err = o.Seed(); err != nil {
		return req, err
	}
	// fixedWork: absent means the core default (on, docs/PRIVACY.md §5).
	if req.FixedWork, err = o.OptBool("fixedWork"); err != nil {
		return req, err
	}
	if req.Workers, err = o.Int("workers", 0, loss.MaxWorkers, true, 0); err != nil {
		return req, err
	}
	return req, nil
}

// startPool runs the shards of a first-order run with workers > 1 on Web
// Workers (wasm/internal/pool); where none can start (node, no module) the
// error makes the run use one worker, with a note in its diagnostics.
func startPool(set *loss.Set, bounds []int) (loss.Executor, error) {
	p, err := pool.Start(set, bounds)
	if err != nil {
		return nil, err
	}
	return p, nil
}

// mechanismAPI is dpsample.mechanism: Algorithm 1, or DP-GD on request
// (plan and sample).
//
// With {ledger: key} (docs/API.md, "One budget per table") plan says whether
// the release fits the ledger (plan.ledger) and sample charges it before the
// sampler starts — a release that does not fit is a rejection naming
// "ledger", with no progress event and no result — and returns the ledger
// after the charge in result.privacy.ledger. opts.onLedger, if given, is
// called with that state right after the charge, before sampling (the loader
// keeps its copy from it, in case the worker is replaced mid-run). Without
// {ledger} both behave as they always did: budgeting a library call is then
// the caller's business.
func mechanismAPI() map[string]any {
	return map[string]any{
		"plan": jsio.Export(func(a []js.Value) (any, error) {
			req, err := readRequest(jsio.Arg(a, 0))
			if err != nil {
				return nil, err
			}
			opts := jsio.Arg(a, 1)
			if _, err := jsio.ReadObject(opts, "opts", true, "ledger"); err != nil {
				return nil, err
			}
			key, l, err := readLedgerOpt(opts)
			if err != nil {
				return nil, err
			}
			if l == nil {
				pl, err := mechanism.NewPlan(req)
				if err != nil {
					return nil, err
				}
				return jsio.Encode(pl), nil
			}
			pl, err := mechanism.PlanCharged(req, l)
			if err != nil {
				return nil, err
			}
			pl.Ledger.Before.Key = key
			if pl.Ledger.After != nil {
				pl.Ledger.After.Key = key
			}
			return jsio.Encode(pl), nil
		}),
		"membership": jsio.Export(membership),
		"sample": jsio.Export(func(a []js.Value) (any, error) {
			req, err := readRequest(jsio.Arg(a, 0))
			if err != nil {
				return nil, err
			}
			opts := jsio.Arg(a, 1)
			rc, err := jsio.NewRunControl(opts, "opts", "ledger", "onLedger")
			if err != nil {
				return nil, err
			}
			key, l, err := readLedgerOpt(opts)
			if err != nil {
				return nil, rc.Finish(err)
			}
			if l == nil {
				res, err := mechanism.SampleWith(rc.Ctx, req, rc.Progress, mechanism.Options{Shards: startPool, KeepWorkers: keepWorkers})
				if err = rc.Finish(err); err != nil {
					return nil, err
				}
				return jsio.Encode(res), nil
			}
			onLedger := js.Undefined()
			if opts.Type() == js.TypeObject {
				if f := opts.Get("onLedger"); f.Type() != js.TypeUndefined {
					if f.Type() != js.TypeFunction {
						return nil, rc.Finish(&checks.Error{Field: "opts.onLedger", Rule: "a function", Got: jsio.Describe(f)})
					}
					onLedger = f
				}
			}
			c, err := mechanism.Charge(req, l)
			if err != nil {
				return nil, rc.Finish(err)
			}
			if onLedger.Type() == js.TypeFunction {
				st := c.State()
				st.Key = key
				notify(onLedger, jsio.Encode(st))
			}
			res, err := c.SampleWith(rc.Ctx, rc.Progress, mechanism.Options{Shards: startPool, KeepWorkers: keepWorkers})
			if err = rc.Finish(err); err != nil {
				return nil, err
			}
			res.Privacy.Ledger.Key = key
			return jsio.Encode(res), nil
		}),
	}
}

// notify calls a caller's callback; an exception it throws is ignored (the
// charge is made and the run goes on: a callback cannot undo either).
func notify(f js.Value, v js.Value) {
	defer func() { _ = recover() }()
	f.Invoke(v)
}

// membership is mechanism.membership(config, {onProgress, signal}): the
// likelihood-ratio membership attack on the mechanism as shipped, on two
// public neighbouring tables (mechanism.Membership, issue 44 item 3).
// config's fields: epsilon, delta (required), n, draws, alpha, noise, seed.
func membership(a []js.Value) (any, error) {
	o, err := jsio.ReadObject(jsio.Arg(a, 0), "config", false, "epsilon", "delta", "n", "draws", "alpha", "noise", "seed")
	if err != nil {
		return nil, err
	}
	rc, err := jsio.NewRunControl(jsio.Arg(a, 1), "opts")
	if err != nil {
		return nil, err
	}
	var c mechanism.MembershipConfig
	if c.Epsilon, err = o.Num("epsilon", checks.Epsilon); err != nil {
		return nil, rc.Finish(err)
	}
	if c.Delta, err = o.Num("delta", checks.Delta); err != nil {
		return nil, rc.Finish(err)
	}
	if c.N, err = o.Int("n", mechanism.MembershipMinN, mechanism.MembershipMaxN, true, 0); err != nil {
		return nil, rc.Finish(err)
	}
	if c.Draws, err = o.Int("draws", mechanism.MembershipMinDraws, mechanism.MembershipMaxDraws, true, 0); err != nil {
		return nil, rc.Finish(err)
	}
	if c.Alpha, err = o.OptNum("alpha", 0, func(f string, x float64) error {
		return checks.InRange(f, x, mechanism.MembershipMinAlpha, mechanism.MembershipMaxAlpha)
	}); err != nil {
		return nil, rc.Finish(err)
	}
	if c.Noise, err = o.OptNum("noise", 0, func(f string, x float64) error {
		return checks.InRange(f, x, mechanism.MembershipMinNoise, mechanism.MembershipMaxNoise)
	}); err != nil {
		return nil, rc.Finish(err)
	}
	seed, err := o.Seed()
	if err != nil {
		return nil, rc.Finish(err)
	}
	if seed != nil {
		c.Seed = *seed
	} else { // fresh draws each press (the tables are public: nothing to protect)
		r, _ := rng.New(nil)
		c.Seed = r.Uint64()
	}
	res, err := mechanism.Membership(rc.Ctx, c, rc.Progress)
	if err = rc.Finish(err); err != nil {
		return nil, err
	}
	return jsio.Encode(res), nil
}
