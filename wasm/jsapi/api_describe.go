//go:build js && wasm

package jsapi

import (
	"syscall/js"

	"github.com/dpsample/dpsample/core/checks"
	"github.com/dpsample/dpsample/core/domain"
	"github.com/dpsample/dpsample/core/privacy"
	"github.com/dpsample/dpsample/wasm/internal/jsio"
)

// describeResult is what dpsample.describe resolves to.
type describeResult struct {
	Columns []domain.Column `json:"columns"`
	Privacy describePrivacy `json:"privacy"`
	Plan    domain.Plan     `json:"plan"`
}

// describePrivacy states the release's guarantee (and, under a ledger, the
// ledger after the charge).
type describePrivacy struct {
	Epsilon float64              `json:"epsilon"`
	Delta   float64              `json:"delta"`
	GDP     float64              `json:"gdp"`     // the release is gdp-GDP (Gaussian mechanism, exact)
	Private bool                 `json:"private"` // false with a seed: reproducible, not private
	Note    string               `json:"note,omitempty"`
	Ledger  *privacy.LedgerState `json:"ledger,omitempty"`
}

// describe is dpsample.describe({x, epsilon, delta, seed?}, {ledger?}): each
// column's bounds, median and quartiles found privately (core/domain). x is
// raw rows at any scale. Under {ledger: key} the release is charged to that
// table's budget before anything is drawn, and refused (naming "ledger")
// when it does not fit; opts.onLedger, if given, gets the state right after
// the charge (the loader keeps its copy from it).
func describe(a []js.Value) (any, error) {
	o, err := jsio.ReadObject(jsio.Arg(a, 0), "req", false, "x", "epsilon", "delta", "seed")
	if err != nil {
		return nil, err
	}
	x, err := jsio.Matrix(o.Get("x"), "req.x")
	if err != nil {
		return nil, err
	}
	eps, err := o.Num("epsilon", checks.Epsilon)
	if err != nil {
		return nil, err
	}
	delta, err := o.Num("delta", checks.Delta)
	if err != nil {
		return nil, err
	}
	seed, err := o.Seed()
	if err != nil {
		return nil, err
	}
	opts, err := jsio.ReadObject(jsio.Arg(a, 1), "opts", true, "ledger", "onLedger")
	if err != nil {
		return nil, err
	}
	key, l, err := readLedgerOpt(jsio.Arg(a, 1))
	if err != nil {
		return nil, err
	}
	p, err := domain.NewPlan(len(x), len(x[0]), eps, delta)
	if err != nil {
		return nil, err
	}
	out := describeResult{Plan: p, Privacy: describePrivacy{Epsilon: eps, Delta: delta, GDP: p.GDP}}
	if l != nil {
		if seed != nil {
			return nil, &checks.Error{Field: "req.seed", Rule: "absent under a ledger (a seeded release is reproducible, not private, so no budget can account for it)", Got: "a seed"}
		}
		onLedger := opts.Get("onLedger")
		if t := onLedger.Type(); t != js.TypeUndefined && t != js.TypeFunction {
			return nil, &checks.Error{Field: "opts.onLedger", Rule: "a function", Got: jsio.Describe(onLedger)}
		}
		st, err := p.ChargeTo(l)
		if err != nil {
			return nil, err
		}
		st.Key = key
		out.Privacy.Ledger = &st
		if onLedger.Type() == js.TypeFunction {
			notify(onLedger, jsio.Encode(st))
		}
	}
	res, err := domain.Describe(x, p, seed)
	if err != nil {
		return nil, err
	}
	out.Columns, out.Privacy.Private = res.Columns, res.Private
	if !res.Private {
		out.Privacy.Note = "seeded: reproducible, NOT private"
	}
	return jsio.Encode(out), nil
}
