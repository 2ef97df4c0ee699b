//go:build js && wasm

// Package ledger is the estimate section's privacy budget per table: the
// meter, the budget inputs, the charge before each run and the store shared
// by the page's tabs.
package ledger

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"sync"
	"syscall/js"

	"github.com/dpsample/dpsample/core/checks"
	"github.com/dpsample/dpsample/core/mechanism"
	"github.com/dpsample/dpsample/core/privacy"
	"github.com/dpsample/dpsample/wasm/internal/jsio"
	"github.com/dpsample/dpsample/wasm/ui/estimate/internal/form"
	"github.com/dpsample/dpsample/wasm/ui/internal/kit"
	"honnef.co/go/js/dom/v2"
)

// The estimate view's per-table privacy budget (docs/PRIVACY.md §8): every
// table — a built-in or a person's CSV — has a ledger in the worker
// (dpsample.ledger), keyed by dataset.TableKey (the SHA-256 of the parsed
// table in a canonical form: row order, line ends, blank lines and number
// spelling do not change it), computed here and never sent or exported. The
// ledger is kept in this browser's localStorage and restored into the worker
// when the table is shown again (after a reload too), shared with the other
// tabs of the page (store.go). Every run is checked against it
// before it starts and charged by the worker before the sampler runs; the
// meter next to Run shows what all releases on the table have spent. A
// stored budget that cannot be read back is never replaced silently: runs on
// the table are refused until its budget is reset.

// ledgerStorePrefix prefixes the localStorage key of a table's ledger.
const ledgerStorePrefix = "dpsample.ledger."

// View is the meter, the table's budget inputs and the reset control.
type View struct {
	id         string
	Wrap       kit.Elem
	eps, delta kit.NumberField // the table's total budget (set once: locked after the first release)
	deltaAuto  bool            // delta follows the CSV's row count (OfferDelta) until the user types one
	meter      kit.Elem        // <meter>: spent ε / total ε
	summary    kit.Elem
	fig        kit.Elem
	resetBtn   *dom.HTMLButtonElement
	confirm    kit.Elem
	confirmMsg kit.Elem
	msg        kit.Elem // refusals and storage problems
	Key        string   // dataset.TableKey of the current table; "" while unknown
	State      *privacy.LedgerState
	Blocked    string // why the table's stored budget cannot be read back ("" when it can): runs are refused
	gen        int    // generation of tableChanged, so a late hash never overwrites a newer table's
	text       string // the table tableChanged last saw
	// source returns the form's table as a JS string and as the Go string
	// it was read into (estimateView.textJS/text): a large table is hashed
	// in the worker from the former (estimate/parse.go).
	Source                 func() (js.Value, string)
	keyText, keyMemo       string // the last table hashed and its key
	legacyText, legacyMemo string // the same for legacyKey
	OnRender               func() // called after each redraw: the state shown may have changed
}

// New builds the table's ledger view (Wrap, for the caller to place), its
// budget's defaults read from root's attributes and its ids prefixed by id.
func New(root kit.Elem, id string) *View {
	lv := &View{id: id}
	lv.Wrap = kit.El("div", "class", "ledger", "id", id+"-ledger")
	lv.eps = kit.NewNumberField(id+"-budget-epsilon", "table budget ε (all runs)", kit.Attr(root, "budget", "3"), "any",
		"the total for every release on this table, set once (")
	kit.AppendToHelp(lv.eps.Wrap, kit.DocLink(root, "DEFAULTS.md", "why 3"), kit.TextNode(")"))
	lv.delta = kit.NewNumberField(id+"-budget-delta", "table budget δ (all runs)", kit.Attr(root, "budget-delta", form.RowsDeltaText(0)), "any",
		"shared by all releases on this table")
	lv.deltaAuto = kit.Attr(root, "budget-delta", "") == ""
	kit.On(lv.delta.Input, "input", false, func(kit.Event) { lv.deltaAuto = false })
	budget := kit.El("div", "class", "controls")
	kit.AppendAll(budget, lv.eps.Wrap, lv.delta.Wrap)
	lv.meter = kit.El("meter", "id", id+"-ledger-meter", "min", "0", "max", "1", "value", "0", "low", "0.6", "high", "0.9", "optimum", "0",
		"aria-label", "privacy budget spent on this table")
	lv.summary = kit.El("span", "id", id+"-ledger-summary", "class", "detail", "role", "status", "aria-live", "polite")
	bar := kit.El("div", "class", "runbar")
	kit.AppendAll(bar, lv.meter, lv.summary)
	lv.fig = kit.El("figure", "id", id+"-ledger-plot", "class", "plot ledger-plot")
	kit.SetStyle(lv.fig, "max-width", "420px")
	lv.resetBtn = kit.AsButton(kit.Text("button", "Reset this table's budget…", "id", id+"-ledger-reset", "type", "button", "class", "secondary"))
	lv.confirm = kit.El("div", "id", id+"-ledger-confirm", "class", "confirm", "role", "alertdialog", "hidden", "")
	lv.confirmMsg = kit.El("p", "id", id+"-ledger-confirm-text")
	yes := kit.AsButton(kit.Text("button", "Yes, forget these releases", "id", id+"-ledger-reset-yes", "type", "button"))
	no := kit.AsButton(kit.Text("button", "Keep them", "id", id+"-ledger-reset-no", "type", "button", "class", "secondary"))
	kit.AppendAll(lv.confirm, lv.confirmMsg, yes, no)
	lv.msg = kit.El("div", "id", id+"-ledger-err", "class", "error", "role", "alert")
	details := kit.El("details", "id", id+"-ledger-details")
	kit.AppendAll(details, kit.Text("summary", "What the table's budget means"), kit.Text("p",
		"Every run is a release, and releases on the same table add up: three runs at ε = 1 are not an ε = 1 guarantee, and "+
			"keeping the run you like best would make it false. So each table gets one total budget, and every run is charged "+
			"to it before it starts; a run that would go past the total is refused. Runs compose exactly (Gaussian "+
			"differential privacy), so six runs at ε = 1 fit in ε = 3, not three. The table is recognised by a fingerprint "+
			"(SHA-256) of its rows, computed on this device: the same rows in another order, with other line ends or numbers "+
			"written otherwise (1.0 or 1) are the same table. The budget is kept in this browser only, shared by its tabs. It is "+
			"a safety rail for you, not a lock: clearing the browser's storage, another browser, or a changed cell, row or "+
			"column name starts a fresh budget.", "class", "detail"))
	kit.AppendAll(lv.Wrap, budget, bar, lv.fig, lv.resetBtn, lv.confirm, lv.msg, details)

	for _, f := range []kit.NumberField{lv.eps, lv.delta} {
		kit.On(f.Input, "input", false, func(kit.Event) { lv.render() })
	}
	kit.On(lv.resetBtn, "click", false, func(kit.Event) { lv.askReset() })
	kit.On(no, "click", false, func(kit.Event) { lv.confirm.SetAttribute("hidden", "") })
	kit.On(yes, "click", false, func(kit.Event) {
		lv.confirm.SetAttribute("hidden", "")
		go lv.reset()
	})
	lv.watchStorage()
	lv.render()
	return lv
}

// Budget reads the budget inputs, showing errors inline (fields
// budget.epsilon, budget.delta).
func (lv *View) Budget() (eps, delta float64, err error) {
	eps, err = kit.ParseNumber("budget.epsilon", lv.eps.Input.Value())
	if err == nil {
		err = checks.Epsilon("budget.epsilon", eps)
	}
	lv.eps.SetError(err)
	if err != nil {
		return 0, 0, err
	}
	delta, err = kit.ParseNumber("budget.delta", lv.delta.Input.Value())
	if err == nil {
		err = checks.Delta("budget.delta", delta)
	}
	lv.delta.SetError(err)
	return eps, delta, err
}

// storage returns localStorage, or undefined where the browser refuses it
// (disabled storage, some sandboxed frames: the getter itself throws).
func storage() (s js.Value) {
	defer func() {
		if recover() != nil {
			s = js.Undefined()
		}
	}()
	return js.Global().Get("localStorage")
}

// stored returns the stored state of key ("" if none).
func stored(key string) (s string) {
	defer func() {
		if recover() != nil {
			s = ""
		}
	}()
	ls := storage()
	if !ls.Truthy() {
		return ""
	}
	if v := ls.Call("getItem", ledgerStorePrefix+key); v.Type() == js.TypeString {
		return v.String()
	}
	return ""
}

// persist stores st (merged with what the other tabs stored: write); it
// reports a failure (storage disabled or full) on the meter. Nothing is
// written while the table's stored budget cannot be read back.
func (lv *View) persist(st privacy.LedgerState) {
	if lv.Blocked != "" {
		return
	}
	if !write(st, false) {
		lv.msg.SetTextContent("This browser does not let the page keep the table's budget (storage is disabled or full): it is kept only until the page is closed or reloaded.")
	}
}

// DecodeState reads a ledger state returned by the worker.
func DecodeState(v js.Value) (privacy.LedgerState, error) {
	var st privacy.LedgerState
	err := jsio.Decode(v, &st)
	return st, err
}

// SetState makes st the current table's ledger, stores it and redraws.
func (lv *View) SetState(st privacy.LedgerState) {
	if st.Key != lv.Key {
		return // a late answer about another table
	}
	lv.State = &st
	lv.persist(st)
	lv.render()
}

// show makes st the current table's ledger and redraws, without storing it.
func (lv *View) show(st privacy.LedgerState) {
	if st.Key != lv.Key {
		return
	}
	lv.State = &st
	lv.render()
}

// errBlocked is the refusal of a run while the table's stored budget
// cannot be read back.
func (lv *View) errBlocked() error { return errors.New(form.BlockedText(lv.Blocked)) }

// sync brings the table's stored ledger into the worker (merging with what
// the worker holds) and returns the result; nil when neither has one. A
// budget stored under the table's legacy key (the bytes' SHA-256) is merged
// into it by release id and then removed (withLegacy), whether or not the
// table has a budget under its key already. A stored state that cannot be
// read back (edited by hand, written by another version, a history the worker
// refuses) blocks the table (lv.blocked; the error is errBlocked): it is
// never replaced by a fresh budget, only by a confirmed reset.
func (lv *View) sync(key, legacy string) (*privacy.LedgerState, error) {
	lv.Blocked = ""
	s, from := stored(key), ""
	if legacy != "" && legacy != key {
		if old := stored(legacy); old != "" {
			m, err := withLegacy(key, s, legacy, old)
			if err != nil {
				lv.Blocked = err.Error()
				lv.render()
				return nil, lv.errBlocked()
			}
			s, from = m, legacy
		}
	}
	if s != "" {
		st, err := lv.restoreStored(key, s)
		if err != nil {
			lv.Blocked = err.Error()
			lv.render()
			return nil, lv.errBlocked()
		}
		if from != "" && write(*st, false) {
			func() {
				defer func() { recover() }()
				storage().Call("removeItem", ledgerStorePrefix+from)
			}()
		}
		return st, nil
	}
	v, err := kit.CallRemote("ledger.get", key)
	if err != nil {
		return nil, nil // no ledger yet
	}
	st, err := DecodeState(v)
	return &st, err
}

// restoreStored restores the stored text s of key's budget into the worker.
// A readable state with another budget than the worker's ledger replaces the
// worker's when that one has no release (another tab declared it), and is
// kept out when it has none itself (this tab's releases stand).
func (lv *View) restoreStored(key, s string) (*privacy.LedgerState, error) {
	v, st, err := parseStored(key, s)
	if err != nil {
		return nil, err
	}
	r, err := kit.CallRemote("ledger.restore", v)
	if err != nil {
		g, gerr := kit.CallRemote("ledger.get", key)
		have, derr := DecodeState(g)
		if gerr != nil || derr != nil || sameBudget(have.Budget, st.Budget) {
			return nil, err
		}
		switch {
		case len(st.History) == 0:
			return &have, nil
		case have.Spent.Releases > 0:
			return nil, fmt.Errorf("it was declared with ε = %s, δ = %s, and this page holds releases under ε = %s, δ = %s", kit.G3(st.Budget.Epsilon), kit.G3(st.Budget.Delta), kit.G3(have.Budget.Epsilon), kit.G3(have.Budget.Delta))
		}
		if _, err := kit.CallRemote("ledger.reset", key, jsio.Encode(map[string]float64{"epsilon": st.Budget.Epsilon, "delta": st.Budget.Delta})); err != nil {
			return nil, err
		}
		if r, err = kit.CallRemote("ledger.restore", v); err != nil {
			return nil, err
		}
	}
	out, err := DecodeState(r)
	return &out, err
}

// TableChanged shows the ledger of the table whose text is txt (after a
// dataset change, a file, an edit): nothing is opened, only what exists is
// restored and shown.
func (lv *View) TableChanged(txt string) {
	if txt == lv.text && lv.Key != "" {
		return // the same table (a loss or target changed)
	}
	lv.text = txt
	lv.gen++
	gen := lv.gen
	lv.msg.SetTextContent("")
	lv.Key, lv.State, lv.Blocked = "", nil, ""
	if strings.TrimSpace(txt) == "" {
		lv.render()
		return
	}
	go func() {
		if len(txt) >= kit.AsyncProfileBytes {
			jsio.Yield() // a large table's hand-off to the worker in a task of its own (the profile's is in this one)
		}
		key, err := lv.keyFor(txt)
		if gen != lv.gen {
			return
		}
		if err != nil {
			lv.render() // not CSV: no table, no budget (the form says why)
			return
		}
		lv.Key = key
		st, err := lv.sync(key, lv.legacyFor(txt))
		if gen != lv.gen {
			return
		}
		if err != nil && lv.Blocked == "" {
			lv.msg.SetTextContent(err.Error())
		}
		if st != nil {
			lv.show(*st)
			return
		}
		lv.render()
	}()
}

// Prepare makes sure the worker holds the ledger of the table txt with the
// budget from the inputs (opened now if it is the table's first run; a
// budget changed before any release replaces the old one) and returns its
// key. Call it from a goroutine.
func (lv *View) Prepare(txt string) (string, error) {
	eps, delta, err := lv.Budget()
	if err != nil {
		return "", kit.Shown(err)
	}
	lv.gen++ // a tableChanged still hashing is superseded
	key, err := lv.keyFor(txt)
	if err != nil {
		return "", fmt.Errorf("could not fingerprint the table for its privacy budget: %w", err)
	}
	lv.Key = key
	unlock, err := lockTable(key)
	if err != nil {
		return "", err
	}
	defer func() { shareStored(key); unlock() }()
	foldShared(key)
	st, err := lv.sync(key, lv.legacyFor(txt))
	if err != nil {
		return "", err
	}
	budget := jsio.Encode(map[string]float64{"epsilon": eps, "delta": delta})
	var v js.Value
	switch {
	case st == nil:
		o := js.Global().Get("Object").New()
		o.Set("key", key)
		o.Set("epsilon", eps)
		o.Set("delta", delta)
		v, err = kit.CallRemote("ledger.open", o)
	case st.Spent.Releases == 0 && (st.Budget.Epsilon != eps || st.Budget.Delta != delta):
		v, err = kit.CallRemote("ledger.reset", key, budget) // nothing spent: the new budget replaces the old
	default:
		lv.SetState(*st) // the table's budget stands (the inputs show it)
		return key, nil
	}
	if err != nil {
		return "", err
	}
	s, err := DecodeState(v)
	if err != nil {
		return "", err
	}
	lv.SetState(s)
	return key, nil
}

// Check is the ledger's answer for req before the run: the same check the
// worker makes when it charges (mechanism.PlanCharged), made here on the
// state the worker just returned, so that a release over budget is refused
// with its numbers before anything starts.
func (lv *View) Check(req mechanism.Request) (*privacy.Check, error) {
	if lv.State == nil {
		return nil, errors.New("the table's privacy budget is not open")
	}
	var reg privacy.Registry
	l, err := reg.Restore(*lv.State)
	if err != nil {
		return nil, err
	}
	pl, err := mechanism.PlanCharged(req, l)
	if err != nil {
		return nil, err
	}
	return pl.Ledger, nil
}

// RunOptions adds {ledger, onLedger} to a run's options: the worker charges
// the table's ledger before sampling and reports it (stored at once, so that
// a reload during the run keeps the charge). It takes the table's lock and
// brings the stored budget — other tabs' releases included — into the worker
// first, and holds the lock until the charge is stored (or the run ends
// without one): two tabs never charge against the same stale budget
// (store.go). release frees the callback and the lock. Call it
// from a goroutine.
func (lv *View) RunOptions(opts js.Value, key string) (release func(), err error) {
	unlock, err := lockTable(key)
	if err != nil {
		return nil, err
	}
	foldShared(key)
	st, err := lv.sync(key, "")
	if err != nil {
		unlock()
		return nil, err
	}
	if st != nil {
		lv.show(*st)
	}
	var shared sync.WaitGroup // the charge's copy to IndexedDB, before the lock goes (shared.go)
	on := js.FuncOf(func(_ js.Value, a []js.Value) any {
		if st, err := DecodeState(jsio.Arg(a, 0)); err == nil && st.Key == lv.Key {
			lv.SetState(st)
		} else if err == nil {
			write(st, false) // the page shows another table now; the charge is stored all the same
		}
		shared.Add(1)
		go func() {
			defer shared.Done()
			shareStored(key)
			unlock()
		}()
		return nil
	})
	opts.Set("ledger", key)
	opts.Set("onLedger", on)
	return func() { on.Release(); shared.Wait(); unlock() }, nil
}

// Sample runs mechanism.sample(req, opts) in the worker charged to the
// table key (runOptions: under the table's lock until the charge is stored).
func (lv *View) Sample(opts js.Value, key string, req js.Value) (js.Value, error) {
	release, err := lv.RunOptions(opts, key)
	if err != nil {
		return js.Undefined(), err
	}
	defer release()
	return kit.CallRemote("mechanism.sample", req, opts)
}

// AfterRun refreshes the meter from the worker after a run that did not
// return a ledger (cancelled, failed or refused).
func (lv *View) AfterRun(key string) {
	if v, err := kit.CallRemote("ledger.get", key); err == nil {
		if st, err := DecodeState(v); err == nil {
			lv.SetState(st)
		}
	}
}

// askReset shows the confirmation, saying plainly what resetting means.
func (lv *View) askReset() {
	if lv.Blocked != "" {
		eps, delta, err := lv.Budget()
		if err != nil {
			return
		}
		lv.confirmMsg.SetTextContent(fmt.Sprintf("The stored budget of this table could not be read back (%s). Resetting "+
			"replaces it with a fresh budget ε = %s, δ = %s: it forgets every release recorded there — how many, and what they "+
			"spent, cannot be told, since the record cannot be read — and the next runs are counted from zero. It does not take "+
			"those releases back: anything you then publish together with earlier results on this table is no longer covered "+
			"by the table's guarantee. Reset only if none of the earlier results will be used or shared.", lv.Blocked, kit.G3(eps), kit.G3(delta)))
		lv.confirm.RemoveAttribute("hidden")
		return
	}
	n := 0
	if lv.State != nil {
		n = lv.State.Spent.Releases
	}
	if n == 0 {
		lv.confirmMsg.SetTextContent("Nothing has been released on this table yet: there is nothing to reset. The budget above applies to its first run.")
		lv.confirm.RemoveAttribute("hidden")
		return
	}
	b := lv.State.Budget
	lv.confirmMsg.SetTextContent(fmt.Sprintf("Resetting forgets the %s made on this table (they spent ε = %s of the total ε = %s). "+
		"It does not take them back: whatever you saw or shared from them stays out there, and the next runs will be counted "+
		"from zero as if they had not happened. Anything you then publish together with the earlier results is no longer "+
		"covered by the table's guarantee (ε = %s, δ = %s). Reset only if none of the earlier results will be used or shared.",
		kit.Count(n, "release"), kit.G3(lv.State.Spent.Epsilon), kit.G3(b.Epsilon), kit.G3(b.Epsilon), kit.G3(b.Delta)))
	lv.confirm.RemoveAttribute("hidden")
}

// reset forgets the table's releases (confirmed) — or its stored budget
// that could not be read back — and takes the budget from the inputs. The
// stored copy is replaced, not merged: the other tabs follow (otherTab).
func (lv *View) reset() {
	key := lv.Key
	if key == "" || (lv.State == nil && lv.Blocked == "") {
		return
	}
	eps, delta, err := lv.Budget()
	if err != nil {
		return
	}
	unlock, err := lockTable(key)
	if err != nil {
		lv.msg.SetTextContent(err.Error())
		return
	}
	defer unlock()
	v, err := kit.CallRemote("ledger.reset", key, jsio.Encode(map[string]float64{"epsilon": eps, "delta": delta}))
	if err != nil && lv.Blocked != "" { // the worker holds no ledger of the table yet
		o := js.Global().Get("Object").New()
		o.Set("key", key)
		o.Set("epsilon", eps)
		o.Set("delta", delta)
		v, err = kit.CallRemote("ledger.open", o)
	}
	if err != nil {
		lv.msg.SetTextContent(err.Error())
		return
	}
	st, err := DecodeState(v)
	if err != nil || st.Key != lv.Key {
		return
	}
	lv.Blocked = ""
	if !write(st, true) {
		lv.msg.SetTextContent("This browser does not let the page keep the table's budget (storage is disabled or full): it is kept only until the page is closed or reloaded.")
	} else {
		shareStored(key)   // replaced in IndexedDB too, or the next holder of the lock would merge the releases back
		lv.dropLegacy(key) // what the table's former key still holds is forgotten too (sync would merge it back)
		lv.msg.SetTextContent("The table's releases were forgotten; its budget starts again from zero.")
	}
	lv.show(st)
}

// render draws the meter from the current state (or the inputs' budget
// when the table has no ledger yet) and calls OnRender.
func (lv *View) render() {
	if lv.OnRender != nil {
		defer lv.OnRender()
	}
	lv.draw()
}

// draw is render without OnRender.
func (lv *View) draw() {
	st := lv.State
	locked := st != nil && st.Spent.Releases > 0
	if lv.Blocked != "" {
		st, locked = nil, false
	}
	for _, f := range []kit.NumberField{lv.eps, lv.delta} {
		f.Input.SetDisabled(locked)
		if locked {
			f.Input.SetAttribute("title", "set once per table: reset the table's budget to change it")
		} else {
			f.Input.RemoveAttribute("title")
		}
	}
	lv.resetBtn.SetDisabled(!locked && lv.Blocked == "")
	if lv.Blocked != "" {
		lv.meter.SetAttribute("value", "0")
		lv.summary.SetTextContent("This table's stored budget could not be read back: runs on it are refused until you reset its budget (below).")
		lv.fig.SetInnerHTML("")
		return
	}
	if locked {
		lv.eps.Input.SetValue(form.TrimFloat(st.Budget.Epsilon))
		lv.delta.Input.SetValue(form.TrimFloat(st.Budget.Delta))
	}
	if st == nil || st.Spent.Releases == 0 {
		lv.meter.SetAttribute("value", "0")
		eps, delta, err := lv.Budget()
		if err != nil {
			lv.summary.SetTextContent("This table: no release yet.")
			lv.fig.SetInnerHTML("")
			return
		}
		lv.summary.SetTextContent(fmt.Sprintf("This table: no release yet — every run on it will be charged to its total "+
			"budget ε = %s, δ = %s.", kit.G3(eps), kit.G3(delta)))
		if b, err := privacy.NewLedgerBudget(eps, delta); err == nil {
			lv.fig.SetInnerHTML(kit.FitWidth(lv.fig, ledgerPlot(privacy.LedgerState{Budget: b})).SVG())
		}
		return
	}
	sp, b := st.Spent, st.Budget
	lv.meter.SetAttribute("value", fmt.Sprint(math.Min(1, sp.Epsilon/b.Epsilon)))
	lv.summary.SetTextContent(ledgerSummary(st))
	lv.fig.SetInnerHTML(kit.FitWidth(lv.fig, ledgerPlot(*st)).SVG())
}
