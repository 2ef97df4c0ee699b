//go:build js && wasm

package ledger

import (
	"errors"
	"fmt"
	"sync"
	"syscall/js"
	"time"

	"github.com/dpsample/dpsample/core/privacy"
	"github.com/dpsample/dpsample/wasm/internal/jsio"
	"github.com/dpsample/dpsample/wasm/ui/internal/kit"
)

// The table's stored budget and the other tabs (docs/PRIVACY.md §8, issue
// 30). Every tab of this origin runs its own worker with its own copy of the
// table's ledger; the copy in localStorage is the one they share. So that
// two tabs on one table spend one budget:
//
//   - a run takes the table's Web Lock (navigator.locks, one lock name per
//     table) before it reads the stored budget into its worker, and holds it
//     until the worker's charge is stored (runOptions): two tabs' charges are
//     checked and written one after the other, never both against the same
//     stale copy. Opening and resetting take the lock too;
//   - every write merges with what is stored (the union of the releases, by
//     id): a write never drops another tab's release;
//   - a tab hears the other tabs' writes (the storage event) and merges them
//     into its worker and its meter at once; a write with fewer releases is
//     another tab's confirmed reset, and is followed.
//
// Where navigator.locks is missing (a page not served over https or from
// localhost) the merges remain: a release is never lost from storage, but two
// charges in the same instant can both pass.

// lockWait bounds the wait for the table's lock: another tab holds it only
// from reading the budget to storing its charge (well under a second).
const lockWait = 30 * time.Second

// lockTable takes the Web Lock of the table key and returns its release
// (idempotent). Without navigator.locks it returns a no-op. Call it from a
// goroutine.
func lockTable(key string) (unlock func(), err error) {
	nav := js.Global().Get("navigator")
	if !nav.Truthy() || !nav.Get("locks").Truthy() {
		return func() {}, nil
	}
	granted := make(chan error, 1)
	var resolve js.Value
	var cb, fail js.Func
	cb = js.FuncOf(func(js.Value, []js.Value) any {
		var exec js.Func
		exec = js.FuncOf(func(_ js.Value, a []js.Value) any {
			resolve = jsio.Arg(a, 0)
			exec.Release()
			return nil
		})
		p := js.Global().Get("Promise").New(exec)
		granted <- nil
		return p
	})
	fail = js.FuncOf(func(_ js.Value, a []js.Value) any {
		select {
		case granted <- errors.New(jsio.Describe(jsio.Arg(a, 0))):
		default:
		}
		return nil
	})
	ctl := js.Global().Get("AbortController").New()
	timer := time.AfterFunc(lockWait, func() { ctl.Call("abort") })
	opts := js.Global().Get("Object").New()
	opts.Set("signal", ctl.Get("signal"))
	if func() (thrown bool) {
		defer func() { thrown = recover() != nil }()
		nav.Get("locks").Call("request", ledgerStorePrefix+key, opts, cb).Call("catch", fail)
		return false
	}() {
		timer.Stop()
		cb.Release()
		fail.Release()
		return func() {}, nil // a browser that refuses locks here: the merges remain
	}
	err = <-granted
	timer.Stop()
	if err != nil {
		cb.Release()
		fail.Release()
		return nil, fmt.Errorf("the table's privacy budget is in use in another tab of this page (waited %v): try again", lockWait)
	}
	var once sync.Once
	return func() {
		once.Do(func() {
			resolve.Invoke()
			cb.Release()
			fail.Release()
		})
	}, nil
}

// parseStored reads a stored state's text (JSON) as the worker would see
// it: the JS value for ledger.restore and its decoded copy. Errors say why
// it cannot be read (not JSON, not a ledger state, another table's).
func parseStored(key, s string) (js.Value, privacy.LedgerState, error) {
	var st privacy.LedgerState
	v, err := func() (v js.Value, err error) {
		defer func() {
			if r := recover(); r != nil {
				err = errors.New("it is not JSON")
			}
		}()
		return js.Global().Get("JSON").Call("parse", s), nil
	}()
	if err != nil {
		return v, st, err
	}
	if v.Type() != js.TypeObject {
		return v, st, errors.New("it is not a ledger state")
	}
	if err := jsio.Decode(v, &st); err != nil {
		return v, st, err
	}
	if st.Key != key {
		return v, st, errors.New("it is stored under this table's name but belongs to another table")
	}
	return v, st, nil
}

// withLegacy is the text to restore for the table key: cur, what is stored
// under key ("" if nothing), with old, what is stored under the table's
// legacy key (the bytes' SHA-256, before issue 30), merged in by release id
// (issue 41 item 2: the legacy key was read only when nothing was stored
// under key, so a table saved two ways before the key change kept one of its
// two histories). With two budgets, the one that has releases stands (cur's
// when both have): the other's releases are counted against it, never
// dropped — the table may then be over budget, and runs on it are refused.
// An unreadable cur is returned as it is (sync blocks the table on it); an
// unreadable old is an error, which blocks the table too: the releases it
// may record are not forgotten without a confirmed reset.
func withLegacy(key, cur, legacy, old string) (string, error) {
	ov, o, err := parseStored(legacy, old)
	if err != nil {
		return "", fmt.Errorf("the budget stored under this file's former key: %v", err)
	}
	ov.Set("key", key)
	stringify := func(v js.Value) string { return js.Global().Get("JSON").Call("stringify", v).String() }
	if cur == "" {
		return stringify(ov), nil
	}
	cv, c, err := parseStored(key, cur)
	if err != nil {
		return cur, nil
	}
	// The stored values themselves are merged, not their decoded copies: a
	// field this version does not know still reaches ledger.restore, which
	// refuses it (the table is then blocked, as for any unreadable budget).
	into, from, fromHist := cv, ov, o.History
	if !sameBudget(c.Budget, o.Budget) && len(c.History) == 0 && len(o.History) > 0 {
		into, from, fromHist = ov, cv, c.History
		into.Set("key", key)
	}
	var have privacy.LedgerState
	if err := jsio.Decode(into, &have); err != nil {
		return "", err
	}
	ids := map[string]bool{}
	for _, r := range have.History {
		ids[r.ID] = true
	}
	h := into.Get("history")
	if !js.Global().Get("Array").Call("isArray", h).Bool() {
		h = js.Global().Get("Array").New()
		into.Set("history", h)
	}
	for i, r := range fromHist {
		if !ids[r.ID] {
			ids[r.ID] = true
			h.Call("push", from.Get("history").Index(i))
		}
	}
	return stringify(into), nil
}

// dropLegacy removes what is stored under the legacy key of the current
// table (after a reset of key).
func (lv *View) dropLegacy(key string) {
	if lv.legacyMemo == "" || lv.legacyMemo == key || lv.legacyText != lv.text {
		return
	}
	defer func() { recover() }()
	storage().Call("removeItem", ledgerStorePrefix+lv.legacyMemo)
}

// sameBudget reports whether a and b have the same declared total.
func sameBudget(a, b privacy.LedgerBudget) bool {
	return a.Epsilon == b.Epsilon && a.Delta == b.Delta
}

// merged is the union of a and b (same key and budget) by release id, with
// spent and remaining recomputed; ok is false when they cannot be merged.
func merged(a, b privacy.LedgerState) (privacy.LedgerState, bool) {
	if a.Key != b.Key || !sameBudget(a.Budget, b.Budget) {
		return a, false
	}
	var reg privacy.Registry
	l, err := reg.Restore(a)
	if err == nil {
		l, err = reg.Restore(b)
	}
	if err != nil {
		return a, false
	}
	return privacy.StateOf(a.Key, l), true
}

// write stores st under its key, merged with what is stored (a write never
// drops another tab's release; a stored state of another budget is kept
// only if it has releases and st has none — st then changes nothing), or
// exactly st when replace (a confirmed reset). It reports whether storage
// took it.
func write(st privacy.LedgerState, replace bool) (ok bool) {
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	ls := storage()
	if !ls.Truthy() {
		return false
	}
	if cur := stored(st.Key); cur != "" && !replace {
		_, old, err := parseStored(st.Key, cur)
		if err != nil {
			return true // unreadable: kept for the page to refuse runs on it until a reset (sync)
		}
		if m, ok := merged(st, old); ok {
			st = m
		} else if len(old.History) > 0 && len(st.History) == 0 {
			return true
		}
	}
	ls.Call("setItem", ledgerStorePrefix+st.Key, jsio.JSON(st, ""))
	return true
}

// watchStorage listens for the other tabs' writes of the current table's
// budget and brings them into this tab's worker and meter.
func (lv *View) watchStorage() {
	js.Global().Call("addEventListener", "storage", js.FuncOf(func(_ js.Value, a []js.Value) any {
		e := jsio.Arg(a, 0)
		key := lv.Key
		if key == "" || e.Get("key").Type() != js.TypeString || e.Get("key").String() != ledgerStorePrefix+key ||
			e.Get("newValue").Type() != js.TypeString {
			return nil
		}
		oldValue := ""
		if e.Get("oldValue").Type() == js.TypeString {
			oldValue = e.Get("oldValue").String()
		}
		go lv.otherTab(key, oldValue, e.Get("newValue").String())
		return nil
	}))
}

// otherTab brings the state another tab stored for the table key (over
// oldValue) into the worker and shows it. Writes merge (write), so a new
// state that lacks a release of the old one, or has another budget, is a
// reset confirmed there: the worker's ledger is reset to it; any other is
// merged into the worker's.
func (lv *View) otherTab(key, oldValue, newValue string) {
	v, st, err := parseStored(key, newValue)
	if err != nil || key != lv.Key {
		return
	}
	if _, old, err := parseStored(key, oldValue); err == nil && (!sameBudget(old.Budget, st.Budget) || !covers(st, old)) {
		// (No ledger of key in this worker yet: the restore below opens it.)
		kit.CallRemote("ledger.reset", key, jsio.Encode(map[string]float64{"epsilon": st.Budget.Epsilon, "delta": st.Budget.Delta}))
	}
	r, err := kit.CallRemote("ledger.restore", v)
	if err != nil || key != lv.Key {
		return
	}
	if st, err := DecodeState(r); err == nil {
		lv.Blocked = ""
		lv.show(st)
	}
}

// covers reports whether a holds every release of b (by id).
func covers(a, b privacy.LedgerState) bool {
	have := map[string]bool{}
	for _, r := range a.History {
		have[r.ID] = true
	}
	for _, r := range b.History {
		if !have[r.ID] {
			return false
		}
	}
	return true
}
