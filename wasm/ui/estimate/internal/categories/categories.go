//go:build js && wasm

// Package categories holds the estimate view's text features' DOM and
// release (issue 42 items 4 and 6): each ticked text column is one-hot coded
// (data.parseCSV's categories option, columns named name=label) from a list
// of labels that is either typed by the owner (public, free, and it wins) or
// found privately by describe({csv}) in the same single release as the blank
// ranges (core/domain.DescribeCells, docs/PRIVACY.md §9). Which list a run
// uses, and when one is found, is the form's decision (internal/form:
// CatLists, FoundCats — a found list counts only while the table shown holds
// its release in its ledger); this package draws a feature's field and
// carries out the describe({csv}) release.
//
// describe({csv}) is called once, when a text feature's categories are
// blank: the whole file in the same single charge (the API describes a CSV
// whole), its text read in the worker from the JS string (never copied
// through Go), and every blank range and every text column's categories are
// kept from that release, so that ticking another column later is not a
// second charge.
package categories

import (
	"syscall/js"

	"github.com/dpsample/dpsample/core/domain"
	"github.com/dpsample/dpsample/wasm/internal/jsio"
	"github.com/dpsample/dpsample/wasm/ui/estimate/internal/ledger"
	"github.com/dpsample/dpsample/wasm/ui/internal/kit"
)

// Field is a text feature's input (id, data-cat col) with its label and,
// when its list was found privately on this table, that note. What is typed
// in it reaches the form through the ranges box's input handler
// (form.CatsTyped).
func Field(id, col, typed, note string) kit.Elem {
	wrap := kit.El("div", "class", "field categories", "data-cat", col)
	in := kit.El("input", "id", id, "type", "text", "autocomplete", "off", "spellcheck", "false", "size", "40", "data-cat", col,
		"placeholder", "blank: found privately with the ranges", "aria-label", "categories of "+col)
	in.SetAttribute("value", typed)
	lab := kit.Text("label", "categories of "+col+" (one-hot: one column per label; type them, comma-separated, or leave blank)", "for", id)
	kit.SetStyle(lab, "display", "block")
	if note != "" {
		lab.AppendChild(kit.Text("span", " — "+note, "class", "found-private", "data-private-cat", col))
	}
	kit.AppendAll(wrap, lab, in)
	return wrap
}

// Describe releases every column of the CSV csv (a JS string, never copied
// through Go) by describe({csv}) in the worker, charged to the table key's
// ledger under its lock, like a model run; lv gets the ledger after the
// charge. It returns the columns and the id of the release (the last of the
// ledger). Call it from a goroutine.
func Describe(run *kit.Runner, lv *ledger.View, key string, csv js.Value, header string, eps, delta float64, msg string) ([]domain.CellsColumn, string, error) {
	return DescribeColumns(run, lv, key, csv, header, nil, eps, delta, msg)
}

// DescribeColumns is Describe restricted to the columns names, in that order
// (describe's req.columns; nil: every column): the release's d is their
// count and its n the file's data-row count, a missing cell in no bin (issue
// 51 item 1) — how the page finds the blank ranges of a table with empty
// cells without dropping a row, read in the worker (nothing parsed here).
func DescribeColumns(run *kit.Runner, lv *ledger.View, key string, csv js.Value, header string, names []string, eps, delta float64, msg string) ([]domain.CellsColumn, string, error) {
	req := js.Global().Get("Object").New()
	req.Set("csv", csv)
	if names != nil {
		req.Set("columns", jsio.Encode(names))
	}
	req.Set("epsilon", eps)
	req.Set("delta", delta)
	switch header {
	case "present":
		req.Set("header", true)
	case "absent":
		req.Set("header", false)
	default:
		req.Set("header", "auto")
	}
	opts, release := run.Start(msg)
	opts.Delete("onProgress") // one short call: no progress, no cancel
	opts.Delete("signal")
	releaseLedger, err := lv.RunOptions(opts, key)
	var res js.Value
	if err == nil {
		res, err = kit.CallRemote("describe", req, opts)
		releaseLedger()
	}
	release()
	var cols []domain.CellsColumn
	if err == nil {
		err = jsio.Decode(res.Get("columns"), &cols)
	}
	id := ""
	if err == nil && res.Get("privacy").Get("ledger").Truthy() {
		if st, e := ledger.DecodeState(res.Get("privacy").Get("ledger")); e == nil {
			lv.SetState(st)
			if st.Key == key && len(st.History) > 0 {
				id = st.History[len(st.History)-1].ID
			}
		}
	} else {
		lv.AfterRun(key)
	}
	done := "Ranges and categories found privately."
	if names != nil {
		done = "Ranges found privately."
	}
	run.Done(err, done)
	return cols, id, err
}
