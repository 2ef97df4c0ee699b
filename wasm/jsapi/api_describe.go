//go:build js && wasm

package jsapi

import (
	"slices"
	"strconv"
	"strings"
	"syscall/js"

	"github.com/dpsample/dpsample/core/checks"
	"github.com/dpsample/dpsample/core/dataset"
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
	GDP     float64              `json:"gdp"`          // the release is gdp-GDP (Gaussian mechanism, exact)
	TV      float64              `json:"tv,omitempty"` // with csv: the labels' total-variation slack, charged with gdp
	Private bool                 `json:"private"`      // false with a seed: reproducible, not private
	Note    string               `json:"note,omitempty"`
	Ledger  *privacy.LedgerState `json:"ledger,omitempty"`
}

// describeCellsResult is what dpsample.describe({csv, …}) resolves to.
type describeCellsResult struct {
	Columns []domain.CellsColumn `json:"columns"`
	Privacy describePrivacy      `json:"privacy"`
	Plan    domain.Plan          `json:"plan"`
}

// describe is dpsample.describe({x | csv, epsilon, delta, header?, columns?,
// seed?}, {ledger?}): each column's bounds, median and quartiles found
// privately (core/domain) — and with csv, every column of the file named (or
// those of columns, in its order), its text labels' categories found in the
// same release (domain.DescribeCells, issue 42), n the file's data-row count
// with a missing cell in no bin (issue 51). x is raw rows at any scale. Everything is validated before anything
// is charged. Under {ledger: key} the release is charged to that table's
// budget before anything is drawn (domain.Charge) and drawn once from that
// charge, and refused (naming "ledger") when it does
// not fit; opts.onLedger, if given, gets the state right after the charge
// (the loader keeps its copy from it).
func describe(a []js.Value) (any, error) {
	o, err := jsio.ReadObject(jsio.Arg(a, 0), "req", false, "x", "csv", "header", "columns", "epsilon", "delta", "seed")
	if err != nil {
		return nil, err
	}
	var x [][]float64
	var cells []dataset.Cells
	var n int
	switch csv := o.Get("csv"); {
	case csv.Type() != js.TypeUndefined && o.Has("x"):
		return nil, &checks.Error{Field: "req.csv", Rule: "left out beside req.x (one table: rows or a CSV text, not both)", Got: "both"}
	case csv.Type() != js.TypeUndefined:
		if csv.Type() != js.TypeString {
			return nil, &checks.Error{Field: "req.csv", Rule: "a string of CSV", Got: jsio.Describe(csv)}
		}
		header, err := readHeader(o)
		if err != nil {
			return nil, err
		}
		if cells, n, err = dataset.ReadCells(csv.String(), header); err != nil {
			return nil, err
		}
		if o.Has("columns") {
			names, err := readNames(o, "columns", "req.columns")
			if err != nil {
				return nil, err
			}
			if cells, err = pickColumns(cells, names); err != nil {
				return nil, err
			}
		}
	default:
		for _, f := range []string{"header", "columns"} {
			if o.Has(f) {
				return nil, &checks.Error{Field: "req." + f, Rule: "given only with req.csv", Got: jsio.Describe(o.Get(f))}
			}
		}
		if x, err = jsio.Matrix(o.Get("x"), "req.x"); err != nil {
			return nil, err
		}
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
	var p domain.Plan
	if cells != nil {
		p, err = domain.PlanCellsFor(n, len(cells), eps, delta, l)
	} else {
		p, err = domain.NewPlan(len(x), len(x[0]), eps, delta)
	}
	if err != nil {
		return nil, err
	}
	priv := describePrivacy{Epsilon: eps, Delta: delta, GDP: p.GDP, TV: p.TV}
	// Under a ledger the release is drawn once from its charge (domain.Charge);
	// without one, from the plan.
	var charged *domain.Charged
	if l != nil {
		if seed != nil {
			return nil, &checks.Error{Field: "req.seed", Rule: "absent under a ledger (a seeded release is reproducible, not private, so no budget can account for it)", Got: "a seed"}
		}
		onLedger := opts.Get("onLedger")
		if t := onLedger.Type(); t != js.TypeUndefined && t != js.TypeFunction {
			return nil, &checks.Error{Field: "opts.onLedger", Rule: "a function", Got: jsio.Describe(onLedger)}
		}
		if charged, err = domain.Charge(p, l); err != nil {
			return nil, err
		}
		st := charged.State()
		st.Key = key
		priv.Ledger = &st
		if onLedger.Type() == js.TypeFunction {
			notify(onLedger, jsio.Encode(st))
		}
	}
	if cells != nil {
		dc := make([]domain.Cells, len(cells))
		for j, c := range cells {
			dc[j] = domain.Cells{Name: c.Name, Nums: c.Nums, Labels: c.Labels}
		}
		var res domain.CellsResult
		if charged != nil {
			res, err = charged.DescribeCells(dc)
		} else {
			res, err = domain.DescribeCells(dc, p, seed)
		}
		if err != nil {
			return nil, err
		}
		priv.Private = res.Private
		if !res.Private {
			priv.Note = "seeded: reproducible, NOT private"
		}
		return jsio.Encode(describeCellsResult{Columns: res.Columns, Privacy: priv, Plan: p}), nil
	}
	var res domain.Result
	if charged != nil {
		res, err = charged.Describe(x)
	} else {
		res, err = domain.Describe(x, p, seed)
	}
	if err != nil {
		return nil, err
	}
	out := describeResult{Plan: p, Privacy: priv, Columns: res.Columns}
	out.Privacy.Private = res.Private
	if !res.Private {
		out.Privacy.Note = "seeded: reproducible, NOT private"
	}
	return jsio.Encode(out), nil
}

// pickColumns restricts a CSV's cells to the named columns, in the order
// given (describe's req.columns, issue 51 item 1): the release then
// describes d = len(names) columns, its noise set for d, and n stays the
// file's data-row count, a missing cell in no bin. Errors name req.columns.
func pickColumns(cells []dataset.Cells, names []string) ([]dataset.Cells, error) {
	if len(names) == 0 {
		return nil, checks.Errorf("req.columns", "a non-empty array of column names (leave it out to describe every column)")
	}
	all := make([]string, len(cells))
	for j, c := range cells {
		all[j] = c.Name
	}
	out := make([]dataset.Cells, 0, len(names))
	seen := map[string]bool{}
	for _, name := range names {
		j := slices.Index(all, name)
		switch {
		case j < 0:
			return nil, &checks.Error{Field: "req.columns", Rule: "columns of the file (" + strings.Join(all, ", ") + ")", Got: strconv.Quote(name)}
		case seen[name]:
			return nil, &checks.Error{Field: "req.columns", Rule: "columns named once", Got: strconv.Quote(name) + " twice"}
		}
		seen[name] = true
		out = append(out, cells[j])
	}
	return out, nil
}
