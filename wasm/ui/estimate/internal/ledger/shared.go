//go:build js && wasm

package ledger

import (
	"sync"
	"syscall/js"
	"time"

	"github.com/dpsample/dpsample/core/privacy"
	"github.com/dpsample/dpsample/wasm/internal/jsio"
)

// The copy of a table's budget that tabs read under the table's lock
// (store.go). localStorage is what the tabs share and how they hear each
// other (the storage event), but Chromium hands a write to the other
// renderers asynchronously: the next holder of the lock could read the
// budget as it was before the previous holder's charge, and both charges
// would pass against one stale copy (TestLedgerTwoTabs failed so, once, under
// load). IndexedDB is consistent across tabs: a transaction that has
// completed is seen by every transaction that starts after it. So under the
// lock a tab folds the IndexedDB copy into localStorage before it reads the
// budget (foldShared), and after its charge (or open, or reset) is stored it
// writes the result back and waits for the transaction to complete before
// it lets the lock go (shareStored). Both copies only ever grow by merges
// (the union of the releases), except a confirmed reset, which replaces
// both. Where IndexedDB is missing or refused, localStorage alone remains,
// as before.

// sharedDB is the database and its one object store of budgets, by table key.
const (
	sharedDB    = "dpsample-ledger"
	sharedStore = "budgets"
	// sharedWait bounds every IndexedDB request: a browser that never
	// answers leaves localStorage alone in charge.
	sharedWait = 5 * time.Second
)

var (
	sharedOnce sync.Once
	sharedConn js.Value // the open database, or undefined
)

// await waits for the request (or transaction) r to fire one of its done
// events (ok) or fail events and returns what done's handler saw; at most
// sharedWait. Call it from a goroutine.
func await(r js.Value, done, fail []string, result func() js.Value) (js.Value, bool) {
	ch := make(chan js.Value, 1)
	var fs []js.Func
	for _, ev := range done {
		f := js.FuncOf(func(js.Value, []js.Value) any {
			select {
			case ch <- result():
			default:
			}
			return nil
		})
		fs = append(fs, f)
		r.Set("on"+ev, f)
	}
	for _, ev := range fail {
		f := js.FuncOf(func(js.Value, []js.Value) any {
			select {
			case ch <- js.Null():
			default:
			}
			return nil
		})
		fs = append(fs, f)
		r.Set("on"+ev, f)
	}
	defer func() {
		for _, f := range fs {
			f.Release()
		}
	}()
	select {
	case v := <-ch:
		return v, !v.IsNull()
	case <-time.After(sharedWait):
		return js.Undefined(), false
	}
}

// sharedConnOpen opens the database once (creating its store on first use).
func sharedConnOpen() js.Value {
	sharedOnce.Do(func() {
		sharedConn = js.Undefined()
		defer func() { recover() }() // a browser that refuses IndexedDB here
		idb := js.Global().Get("indexedDB")
		if !idb.Truthy() {
			return
		}
		req := idb.Call("open", sharedDB, 1)
		up := js.FuncOf(func(js.Value, []js.Value) any {
			func() {
				defer func() { recover() }()
				db := req.Get("result")
				if !db.Get("objectStoreNames").Call("contains", sharedStore).Bool() {
					db.Call("createObjectStore", sharedStore)
				}
			}()
			return nil
		})
		defer up.Release()
		req.Set("onupgradeneeded", up)
		if db, ok := await(req, []string{"success"}, []string{"error", "blocked"}, func() js.Value { return req.Get("result") }); ok {
			sharedConn = db
		}
	})
	return sharedConn
}

// sharedGet returns the IndexedDB copy of key's budget ("" when there is
// none or it cannot be read). Call it from a goroutine.
func sharedGet(key string) (s string) {
	defer func() {
		if recover() != nil {
			s = ""
		}
	}()
	db := sharedConnOpen()
	if !db.Truthy() {
		return ""
	}
	req := db.Call("transaction", sharedStore, "readonly").Call("objectStore", sharedStore).Call("get", key)
	v, ok := await(req, []string{"success"}, []string{"error"}, func() js.Value { return req.Get("result") })
	if ok && v.Type() == js.TypeString {
		return v.String()
	}
	return ""
}

// sharedPut stores text as the IndexedDB copy of key's budget and reports
// whether its transaction completed. Call it from a goroutine.
func sharedPut(key, text string) (ok bool) {
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	db := sharedConnOpen()
	if !db.Truthy() || text == "" {
		return false
	}
	tx := db.Call("transaction", sharedStore, "readwrite")
	tx.Call("objectStore", sharedStore).Call("put", text, key)
	_, ok = await(tx, []string{"complete"}, []string{"error", "abort"}, func() js.Value { return js.ValueOf(true) })
	return ok
}

// foldShared merges the IndexedDB copy of key's budget into localStorage
// (write: the union of the releases), so that what the lock's holder reads
// next holds every charge stored before it took the lock. Call it from a
// goroutine, under the table's lock. Only a state this version wrote is
// folded, into one it wrote: a stored budget another version wrote (a field
// this one does not know) stays as it is, for sync to refuse runs on it until
// a confirmed reset (TestLedgerUnreadable) — a merge would drop the field.
func foldShared(key string) {
	ours := func(s string) (privacy.LedgerState, bool) {
		_, st, err := parseStored(key, s)
		return st, err == nil && jsio.JSON(st, "") == s
	}
	st, ok := ours(sharedGet(key))
	if !ok {
		return
	}
	if cur := stored(key); cur != "" {
		if _, mine := ours(cur); !mine {
			return
		}
	}
	write(st, false)
}

// shareStored writes what localStorage now holds for key to IndexedDB and
// waits for it to complete. Call it from a goroutine, before the table's
// lock is let go.
func shareStored(key string) {
	if s := stored(key); s != "" {
		sharedPut(key, s)
	}
}
