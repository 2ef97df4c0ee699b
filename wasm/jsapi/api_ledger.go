//go:build js && wasm

package jsapi

import (
	"fmt"
	"syscall/js"

	"github.com/dpsample/dpsample/core/checks"
	"github.com/dpsample/dpsample/core/privacy"
	"github.com/dpsample/dpsample/wasm/internal/jsio"
)

// ledgers are this module instance's per-table ledgers (docs/API.md,
// dpsample.ledger). They live as long as the instance: the page keeps a copy
// on the device and restores it after a reload (ledger.restore), and
// site/dpsample.js restores them into a replaced worker.
var ledgers privacy.Registry

// Known fields of the objects ledger.restore reads: the json tags of the
// state it returns, so that restore(await get(key)) always reads back.
var (
	stateFields   = jsio.Fields(privacy.LedgerState{})
	budgetFields  = jsio.Fields(privacy.LedgerBudget{})
	releaseFields = jsio.Fields(privacy.Release{})
)

// readKey reads a ledger key (a string; its length is checked by the
// registry).
func readKey(v js.Value, field string) (string, error) {
	if v.Type() != js.TypeString {
		return "", &checks.Error{Field: field, Rule: fmt.Sprintf("a non-empty string of at most %d bytes (a ledger's key)", privacy.MaxKeyLength), Got: jsio.Describe(v)}
	}
	return v.String(), nil
}

// ledgerState is the JSON of key's ledger.
func ledgerState(key string, l *privacy.Ledger) js.Value { return jsio.Encode(privacy.StateOf(key, l)) }

// readState reads a ledger state object (ledger.restore) field by field;
// spent and remaining are accepted and ignored (recomputed from history).
func readState(v js.Value) (privacy.LedgerState, error) {
	var st privacy.LedgerState
	o, err := jsio.ReadObject(v, "state", false, stateFields...)
	if err != nil {
		return st, err
	}
	if st.Key, err = readKey(o.Get("key"), "state.key"); err != nil {
		return st, err
	}
	b, err := jsio.ReadObject(o.Get("budget"), "state.budget", false, budgetFields...)
	if err != nil {
		return st, err
	}
	if st.Budget.Epsilon, st.Budget.Delta, err = readBudget(b); err != nil {
		return st, err
	}
	h := o.Get("history")
	if h.Type() == js.TypeUndefined {
		return st, nil
	}
	if !jsio.IsArray(h) {
		return st, &checks.Error{Field: "state.history", Rule: "an array of releases", Got: jsio.Describe(h)}
	}
	if h.Length() > privacy.MaxHistory {
		return st, checks.Errorf("state.history", "at most %d releases (got %d)", privacy.MaxHistory, h.Length())
	}
	for i := 0; i < h.Length(); i++ {
		name := fmt.Sprintf("state.history[%d]", i)
		r, err := jsio.ReadObject(h.Index(i), name, false, releaseFields...)
		if err != nil {
			return st, err
		}
		var rel privacy.Release
		if rel.ID, err = readKey(r.Get("id"), name+".id"); err != nil {
			return st, err
		}
		if r.Has("label") {
			if r.Get("label").Type() != js.TypeString {
				return st, &checks.Error{Field: name + ".label", Rule: "a string", Got: jsio.Describe(r.Get("label"))}
			}
			rel.Label = r.Get("label").String()
		}
		if rel.GDP, err = r.Num("gdp", checks.Positive); err != nil {
			return st, err
		}
		nonNeg := func(f string, x float64) error { return checks.NonNegative(f, x) }
		if rel.TV, err = r.OptNum("tv", 0, nonNeg); err != nil {
			return st, err
		}
		if rel.Epsilon, err = r.OptNum("epsilon", 0, nonNeg); err != nil {
			return st, err
		}
		if rel.Delta, err = r.OptNum("delta", 0, nonNeg); err != nil {
			return st, err
		}
		st.History = append(st.History, rel)
	}
	return st, nil
}

// readLedgerOpt reads opts.ledger of mechanism.plan / sample: the ledger
// to check or charge, or nil when absent.
func readLedgerOpt(opts js.Value) (string, *privacy.Ledger, error) {
	// Only an absent field means "no ledger": {ledger: null} (an unset
	// variable) is an error, never a run without the budget.
	if opts.Type() != js.TypeObject || opts.Get("ledger").Type() == js.TypeUndefined {
		return "", nil, nil
	}
	key, err := readKey(opts.Get("ledger"), "opts.ledger")
	if err != nil {
		return "", nil, err
	}
	l, err := ledgers.Get("opts.ledger", key)
	if err != nil {
		return "", nil, err
	}
	return key, l, nil
}

// readBudget reads a budget's epsilon and delta from o.
func readBudget(o jsio.Object) (eps, delta float64, err error) {
	if eps, err = o.Num("epsilon", checks.Epsilon); err != nil {
		return 0, 0, err
	}
	delta, err = o.Num("delta", checks.Delta)
	return eps, delta, err
}

// argLedger reads the key in the first argument and returns its ledger.
func argLedger(a []js.Value) (string, *privacy.Ledger, error) {
	key, err := readKey(jsio.Arg(a, 0), "key")
	if err != nil {
		return "", nil, err
	}
	l, err := ledgers.Get("key", key)
	return key, l, err
}

// ledgerAPI is dpsample.ledger: one privacy budget per table.
func ledgerAPI() map[string]any {
	return map[string]any{
		// open({key, epsilon, delta}) → state; an existing key with the
		// same budget is returned unchanged, another budget is an error
		// naming epsilon or delta.
		"open": jsio.Export(func(a []js.Value) (any, error) {
			v := jsio.Arg(a, 0)
			if v.Type() != js.TypeObject || jsio.IsArray(v) {
				return nil, &checks.Error{Field: "budget", Rule: "an object {key, epsilon, delta}", Got: jsio.Describe(v)}
			}
			o, err := jsio.ReadObject(v, "", false, "key", "epsilon", "delta")
			if err != nil {
				return nil, err
			}
			key, err := readKey(o.Get("key"), "key")
			if err != nil {
				return nil, err
			}
			eps, delta, err := readBudget(o)
			if err != nil {
				return nil, err
			}
			l, err := ledgers.Open(key, eps, delta)
			if err != nil {
				return nil, err
			}
			return ledgerState(key, l), nil
		}),
		// get(key) → state
		"get": jsio.Export(func(a []js.Value) (any, error) {
			key, l, err := argLedger(a)
			if err != nil {
				return nil, err
			}
			return ledgerState(key, l), nil
		}),
		// reset(key, budget?) → state with no releases; the budget stays,
		// or becomes {epsilon, delta} when given (the only way to change it).
		"reset": jsio.Export(func(a []js.Value) (any, error) {
			key, l, err := argLedger(a)
			if err != nil {
				return nil, err
			}
			if b := jsio.Arg(a, 1); b.Type() != js.TypeUndefined {
				o, err := jsio.ReadObject(b, "budget", false, "epsilon", "delta")
				if err != nil {
					return nil, err
				}
				eps, delta, err := readBudget(o)
				if err != nil {
					return nil, err
				}
				if err := l.ResetTo(eps, delta); err != nil {
					return nil, err
				}
				return ledgerState(key, l), nil
			}
			l.Reset()
			return ledgerState(key, l), nil
		}),
		// restore(state) → state: a stored state back into this instance,
		// merged by release id (it can add releases, never remove one).
		"restore": jsio.Export(func(a []js.Value) (any, error) {
			st, err := readState(jsio.Arg(a, 0))
			if err != nil {
				return nil, err
			}
			l, err := ledgers.Restore(st)
			if err != nil {
				return nil, err
			}
			return ledgerState(st.Key, l), nil
		}),
	}
}
