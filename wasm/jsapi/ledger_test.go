//go:build js && wasm

package jsapi

import (
	"math"
	"strings"
	"syscall/js"
	"testing"

	"github.com/dpsample/dpsample/core/privacy"
)

// ledgerReq is an ℓ1 median request without a seed (a ledger refuses seeded
// runs): 1-D, exact sampler, with progress callbacks.
func ledgerReq(eps float64) js.Value {
	return goodReq("x", arr(arr(0.1), arr(0.4), arr(-0.2), arr(0.3)), "epsilon", eps, "seed", nil)
}

// mustOK calls path and fails the test on a rejection.
func mustOK(t *testing.T, path string, args ...any) js.Value {
	t.Helper()
	v, err := await(t, call(path, args...))
	if err != "" {
		t.Fatalf("%s: %s", path, err)
	}
	return v
}

// TestLedgerAPI: open, get, plan and sample with {ledger}, the refusal of a
// release over budget before the worker touches data (no progress, no
// result, ledger unchanged), reset; every call a Promise; the module keeps
// working after each error.
func TestLedgerAPI(t *testing.T) {
	st := mustOK(t, "ledger.open", obj("key", "api-t1", "epsilon", 3, "delta", 1e-5))
	S, _ := privacy.NewLedgerBudget(3, 1e-5)
	if st.Get("key").String() != "api-t1" || st.Get("budget").Get("epsilon").Float() != 3 || st.Get("budget").Get("delta").Float() != 1e-5 ||
		st.Get("spent").Get("releases").Int() != 0 || st.Get("spent").Get("gdp").Float() != 0 || st.Get("spent").Get("epsilon").Float() != 0 ||
		st.Get("remaining").Get("gdp").Float() != S.GDP {
		t.Fatalf("open: %s", js.Global().Get("JSON").Call("stringify", st).String())
	}
	// Opening again returns it unchanged; another budget names the field.
	mustOK(t, "ledger.open", obj("key", "api-t1", "epsilon", 3, "delta", 1e-5))
	if _, err := await(t, call("ledger.open", obj("key", "api-t1", "epsilon", 2, "delta", 1e-5))); !strings.HasPrefix(err, `epsilon must be 3, the budget ledger "api-t1" was opened with`) {
		t.Errorf("other budget: %q", err)
	}
	// Three releases at ε = 1.5 fit in (3, 1e-5); each result carries the
	// ledger after its charge; onLedger comes before any progress.
	for i := 1; i <= 3; i++ {
		pl := mustOK(t, "mechanism.plan", ledgerReq(1.5), obj("ledger", "api-t1"))
		if c := pl.Get("ledger"); !c.Get("fits").Bool() || c.Get("after").Get("spent").Get("releases").Int() != i || c.Get("before").Get("key").String() != "api-t1" {
			t.Fatalf("plan %d: %s", i, js.Global().Get("JSON").Call("stringify", c).String())
		}
		var events []string
		onLedger := js.FuncOf(func(_ js.Value, a []js.Value) any {
			events = append(events, "ledger")
			if a[0].Get("spent").Get("releases").Int() != i {
				events = append(events, "wrong state")
			}
			return nil
		})
		onProgress := js.FuncOf(func(js.Value, []js.Value) any { events = append(events, "progress"); return nil })
		res := mustOK(t, "mechanism.sample", ledgerReq(1.5), obj("ledger", "api-t1", "onLedger", onLedger, "onProgress", onProgress))
		onLedger.Release()
		onProgress.Release()
		led := res.Get("privacy").Get("ledger")
		if led.Get("key").String() != "api-t1" || led.Get("spent").Get("releases").Int() != i || !res.Get("private").Bool() {
			t.Fatalf("sample %d: privacy.ledger = %s", i, js.Global().Get("JSON").Call("stringify", led).String())
		}
		if len(events) < 2 || events[0] != "ledger" || strings.Count(strings.Join(events, ","), "ledger") != 1 || strings.Contains(strings.Join(events, ","), "wrong") {
			t.Fatalf("sample %d: events %v, want one ledger event before progress", i, events)
		}
	}
	spent := mustOK(t, "ledger.get", "api-t1").Get("spent")
	if spent.Get("releases").Int() != 3 || !(spent.Get("epsilon").Float() > 2 && spent.Get("epsilon").Float() <= 3) || spent.Get("delta").Float() != 1e-5 {
		t.Fatalf("spent %s", js.Global().Get("JSON").Call("stringify", spent).String())
	}
	// The fourth: plan says no, sample rejects naming the ledger, before
	// the sampler runs.
	pl := mustOK(t, "mechanism.plan", ledgerReq(1.5), obj("ledger", "api-t1"))
	if c := pl.Get("ledger"); c.Get("fits").Bool() || !c.Get("after").IsUndefined() || !strings.HasPrefix(c.Get("reason").String(), "ledger must be") {
		t.Fatalf("plan of the 4th: %s", js.Global().Get("JSON").Call("stringify", c).String())
	}
	progress := 0
	onProgress := js.FuncOf(func(js.Value, []js.Value) any { progress++; return nil })
	defer onProgress.Release()
	v, err := await(t, call("mechanism.sample", ledgerReq(1.5), obj("ledger", "api-t1", "onProgress", onProgress)))
	if !strings.HasPrefix(err, "ledger must be large enough for this release: it costs gdp ") || !strings.Contains(err, "is left") ||
		!strings.Contains(err, "3 release(s) so far") || !v.IsUndefined() {
		t.Fatalf("4th release: %q", err)
	}
	if progress != 0 {
		t.Fatalf("a refused release reported progress %d times", progress)
	}
	if n := mustOK(t, "ledger.get", "api-t1").Get("spent").Get("releases").Int(); n != 3 {
		t.Fatalf("refusal changed the ledger: %d releases", n)
	}
	// Without {ledger}: as before, nothing charged.
	if res := mustOK(t, "mechanism.sample", ledgerReq(1.5)); !res.Get("privacy").Get("ledger").IsUndefined() {
		t.Fatal("a sample without {ledger} reports a ledger")
	}
	// Restore: a copy under another key (a reloaded page) has the same
	// spent; restoring a stale copy never removes releases.
	full := mustOK(t, "ledger.get", "api-t1")
	full.Set("key", "api-t1-copy")
	cp := mustOK(t, "ledger.restore", full)
	if cp.Get("spent").Get("gdp").Float() != spent.Get("gdp").Float() || cp.Get("spent").Get("releases").Int() != 3 {
		t.Fatalf("restored copy: %s", js.Global().Get("JSON").Call("stringify", cp.Get("spent")).String())
	}
	stale := mustOK(t, "ledger.get", "api-t1")
	stale.Get("history").Call("pop")
	if n := mustOK(t, "ledger.restore", stale).Get("spent").Get("releases").Int(); n != 3 {
		t.Fatalf("a stale restore left %d releases", n)
	}
	// Reset: nothing spent, the budget stays, releases fit again.
	r := mustOK(t, "ledger.reset", "api-t1")
	if r.Get("spent").Get("releases").Int() != 0 || r.Get("budget").Get("epsilon").Float() != 3 || math.Abs(r.Get("remaining").Get("gdp").Float()-S.GDP) > 0 {
		t.Fatalf("reset: %s", js.Global().Get("JSON").Call("stringify", r).String())
	}
	mustOK(t, "mechanism.sample", ledgerReq(1.5), obj("ledger", "api-t1"))
	// Reset with a budget: the only way to change it.
	r = mustOK(t, "ledger.reset", "api-t1", obj("epsilon", 1, "delta", 1e-6))
	if r.Get("spent").Get("releases").Int() != 0 || r.Get("budget").Get("epsilon").Float() != 1 || r.Get("budget").Get("delta").Float() != 1e-6 {
		t.Fatalf("reset with a budget: %s", js.Global().Get("JSON").Call("stringify", r).String())
	}
	mustOK(t, "ledger.open", obj("key", "api-t1", "epsilon", 1, "delta", 1e-6))
}

// TestLedgerBadInput: every bad argument is a rejection naming the field;
// a valid call works after each.
func TestLedgerBadInput(t *testing.T) {
	mustOK(t, "ledger.open", obj("key", "api-bad", "epsilon", 1, "delta", 1e-5))
	good := func() js.Value {
		st := mustOK(t, "ledger.get", "api-bad")
		return st
	}
	withHistory := func(h js.Value) js.Value {
		st := good()
		st.Set("history", h)
		return st
	}
	budget := func(b js.Value) js.Value {
		st := good()
		st.Set("budget", b)
		return st
	}
	cases := []struct {
		fn   string
		args []any
		want string
	}{
		{"ledger.open", []any{}, "budget must be an object {key, epsilon, delta}, got undefined"},
		{"ledger.open", []any{"k"}, "budget must be an object"},
		{"ledger.open", []any{obj("key", 3, "epsilon", 1, "delta", 1e-5)}, "key must be a non-empty string"},
		{"ledger.open", []any{obj("key", "", "epsilon", 1, "delta", 1e-5)}, "key must be a non-empty string"},
		{"ledger.open", []any{obj("key", "k", "epsilon", 0, "delta", 1e-5)}, "epsilon must be a finite number > 0, got 0"},
		{"ledger.open", []any{obj("key", "k", "epsilon", 1, "delta", 1)}, "delta must be a number in (0, 1), got 1"},
		{"ledger.open", []any{obj("key", "k", "epsilon", "1", "delta", 1e-5)}, `epsilon must be a finite number > 0, got string "1"`},
		{"ledger.open", []any{obj("key", "k", "epsilon", 1, "delta", 1e-5, "epsion", 1)}, "epsion must be a known field"},
		{"ledger.open", []any{obj("key", "api-bad", "epsilon", 1, "delta", 1e-6)}, `delta must be 1e-05, the budget ledger "api-bad" was opened with`},
		{"ledger.get", []any{}, "key must be a non-empty string"},
		{"ledger.get", []any{"nope"}, `key must be the key of an open ledger (dpsample.ledger.open({key, epsilon, delta}) first), got "nope"`},
		{"ledger.reset", []any{"nope"}, "key must be the key of an open ledger"},
		{"ledger.reset", []any{"api-bad", obj("epsilon", 0, "delta", 1e-5)}, "budget.epsilon must be a finite number > 0, got 0"},
		{"ledger.reset", []any{"api-bad", obj("epsilon", 1)}, "budget.delta must be a number in (0, 1), got undefined"},
		{"ledger.reset", []any{"api-bad", 3}, "budget must be an object, got 3"},
		{"mechanism.sample", []any{ledgerReq(1), obj("ledger", "nope")}, "opts.ledger must be the key of an open ledger"},
		{"mechanism.sample", []any{ledgerReq(1), obj("ledger", nil)}, "opts.ledger must be a non-empty string"},
		{"mechanism.sample", []any{ledgerReq(1), obj("ledgr", "api-bad")}, "opts.ledgr must be a known field"},
		{"mechanism.sample", []any{ledgerReq(1), obj("ledger", "api-bad", "onLedger", 3)}, "opts.onLedger must be a function, got 3"},
		{"mechanism.sample", []any{goodReq(), obj("ledger", "api-bad")}, "seed must be absent under a ledger"},
		{"mechanism.plan", []any{ledgerReq(1), obj("ledger", 7)}, "opts.ledger must be a non-empty string"},
		{"mechanism.plan", []any{ledgerReq(1), obj("budget", 7)}, "opts.budget must be a known field"},
		{"mechanism.plan", []any{ledgerReq(1), "api-bad"}, `opts must be an object, got string "api-bad"`},
		{"ledger.restore", []any{}, "state must be an object, got undefined"},
		{"ledger.restore", []any{budget(js.Null())}, "state.budget must be an object, got null"},
		{"ledger.restore", []any{budget(obj("epsilon", 2, "delta", 1e-5))}, `state.budget.epsilon must be 1, the budget ledger "api-bad" was opened with`},
		{"ledger.restore", []any{withHistory(obj())}, "state.history must be an array of releases"},
		{"ledger.restore", []any{withHistory(arr(obj("id", "a", "gdp", -1)))}, "state.history[0].gdp must be a finite number > 0, got -1"},
		{"ledger.restore", []any{withHistory(arr(obj("id", "a", "gdp", 0.1), obj("gdp", 0.1)))}, "state.history[1].id must be"},
		{"ledger.restore", []any{withHistory(arr(obj("id", "a", "gdp", 0.1), obj("id", "a", "gdp", 0.1)))}, `state.history[1].id must be unique within the history, got "a" again`},
		{"ledger.restore", []any{withHistory(arr(obj("id", "a", "gdp", 0.1, "tv", 2)))}, "state.history[0].tv must be a finite number in [0, 1], got 2"},
		{"ledger.restore", []any{withHistory(arr(obj("id", "a", "gdp", 0.1, "sneaky", 1)))}, "state.history[0].sneaky must be a known field"},
	}
	for _, c := range cases {
		_, err := await(t, call(c.fn, c.args...))
		if !strings.HasPrefix(err, c.want) {
			t.Errorf("%s(%d args): rejection %q, want prefix %q", c.fn, len(c.args), err, c.want)
		}
		if _, err := await(t, call("privacy.calibrate", 1, 1e-5)); err != "" {
			t.Fatalf("valid call after %s failed: %s", c.fn, err)
		}
	}
	if n := good().Get("spent").Get("releases").Int(); n != 0 {
		t.Fatalf("bad calls charged the ledger %d times", n)
	}
}
