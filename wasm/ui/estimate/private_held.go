//go:build js && wasm

package estimate

import (
	"strings"
	"syscall/js"

	"github.com/dpsample/dpsample/core/privacy"
	"github.com/dpsample/dpsample/wasm/ui/estimate/internal/ledger"
	"github.com/dpsample/dpsample/wasm/ui/estimate/internal/report"
)

// Ranges found privately belong to the table they were found on (issue 41
// item 1). They are remembered per header (declare.go), so a
// near-copy of the table — one cell changed, so another key and a fresh
// budget — has the same column names and would find them too. Each range
// keeps the id of the describe release that found it and the key of the
// table whose ledger it was charged to, and it counts as found privately for
// the table shown only while that table's ledger holds that release. Until
// then it is not in the inputs at all (v.carried): the inputs stay blank, so
// Run finds the ranges again on this table, charged to its own budget, and
// the statement and the export (which read the run's ledger) never claim a
// charge the table's ledger does not hold. Blank rather than a copy charged
// to this table: the simplest rule that is right, and the release is paid
// for where it is used. Ranges carried from another table would otherwise be
// a declaration read off data about the same people that no budget of this
// table accounts for. The same holds after a reset of the table's budget,
// which forgets the release: the ranges it found go blank.

// heldRelease is the release of the ledger st that found p: nil unless st
// is the ledger of the table p was found on and holds its release.
func heldRelease(st *privacy.LedgerState, p privateRange) *privacy.Release {
	if st == nil || p.Release == "" || p.Table == "" || st.Key != p.Table {
		return nil
	}
	for i := range st.History {
		if st.History[i].ID == p.Release {
			return &st.History[i]
		}
	}
	return nil
}

// tableLedger is the ledger of the table shown, once the page knows it (nil
// before, and while its stored budget cannot be read back).
func (v *estimateView) tableLedger() *privacy.LedgerState {
	lv := v.ledger
	if lv == nil || lv.Blocked != "" || lv.Key == "" || lv.State == nil || lv.State.Key != lv.Key {
		return nil
	}
	return lv.State
}

// reconcilePrivate takes out of the inputs every range found privately
// whose release the table's ledger does not hold (kept aside in v.carried,
// unless the owner edited it: then it is their declaration), and puts back
// a range kept aside whose release it does hold (unless the owner has typed
// a range for that column since: typed ranges win). It reports whether a
// declaration changed.
func (v *estimateView) reconcilePrivate() (changed bool) {
	st := v.tableLedger()
	for c, p := range v.private {
		if heldRelease(st, p) != nil {
			continue
		}
		delete(v.private, c)
		lo, hi := report.NiceRange(p.Col.Lo, p.Col.Hi, p.Col.Step)
		if d := v.declared[c]; d[0] == lo && d[1] == hi {
			delete(v.declared, c)
			v.carried[c] = p
			changed = true
		}
	}
	for c, p := range v.carried {
		if heldRelease(st, p) == nil {
			continue
		}
		delete(v.carried, c)
		if d := v.declared[c]; strings.TrimSpace(d[0]) != "" || strings.TrimSpace(d[1]) != "" {
			continue
		}
		lo, hi := report.NiceRange(p.Col.Lo, p.Col.Hi, p.Col.Step)
		v.declared[c] = [2]string{lo, hi}
		v.private[c] = p
		changed = true
	}
	return changed
}

// stampRelease records on the ranges findRanges has just found (those
// without a release yet) the release that found them — the last in the
// ledger describe answered res with, charged under the table's lock — and
// the table key it was charged to.
func (v *estimateView) stampRelease(key string, res js.Value) {
	id := ""
	if st, err := ledger.DecodeState(res.Get("privacy").Get("ledger")); err == nil && st.Key == key && len(st.History) > 0 {
		id = st.History[len(st.History)-1].ID
	}
	for c, p := range v.private {
		if p.Release == "" {
			p.Release, p.Table = id, key
			v.private[c] = p
			delete(v.carried, c)
		}
	}
}

// settleCarried makes the table's ledger known before Run decides which
// ranges (and categories) are blank, when a remembered one waits for it (a Run pressed
// before the table was hashed after a reload): a range whose release the
// ledger holds is then filled in, not found and paid for again. Errors are
// left for the run itself to meet and show. Call it from a goroutine.
func (v *estimateView) settleCarried() {
	txt, b := v.text()
	if b != nil || len(v.carried)+len(v.cats.Found) == 0 || v.tableLedger() != nil || strings.TrimSpace(txt) == "" || len(txt) > maxPasteBytes {
		return
	}
	v.ledger.Prepare(txt) // the ledger's redraw puts back what it holds (reconcilePrivate)
}
