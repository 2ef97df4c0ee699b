//go:build js && wasm

package estimate

import (
	"fmt"
	"strings"
	"syscall/js"

	"github.com/dpsample/dpsample/core/checks"
	"github.com/dpsample/dpsample/core/dataset"
	"github.com/dpsample/dpsample/core/domain"
	"github.com/dpsample/dpsample/core/privacy"
	"github.com/dpsample/dpsample/wasm/internal/jsio"
	"github.com/dpsample/dpsample/wasm/ui/estimate/internal/categories"
	"github.com/dpsample/dpsample/wasm/ui/estimate/internal/ledger"
	"github.com/dpsample/dpsample/wasm/ui/estimate/internal/pieces"
	"github.com/dpsample/dpsample/wasm/ui/estimate/internal/report"
	"github.com/dpsample/dpsample/wasm/ui/internal/kit"
)

// Ranges nobody has to type (issue 28). For a CSV whose range inputs are
// blank, Run (or "Find ranges privately") first releases each blank column's
// range, median and quartiles with dpsample.describe (core/domain: two
// Gaussian histograms, exactly s-GDP), charged once to the table's budget,
// fills the inputs marked "found privately", and runs the model on what the
// budget has left. The found ranges are remembered with the typed ones (per
// header, in this browser), so a later run does not pay for them again. Typed
// ranges always win: only columns with both ends blank are looked up.

// privateEpsilon is the ε of one "find ranges" release, at the table
// budget's δ. Chosen on the study's development half (docs/PRIVACY.md §9,
// issue 40): at ε = 1 the tables had 0–2 % of a column's values outside the
// range found at full size, 0–3 % at 250 rows and 0–4 % at 100, and the release
// (s ≈ 0.27 at δ = 10⁻⁵) costs ≈ 15 % of the default budget's GDP²
// (ε = 3, δ = 10⁻⁵: S ≈ 0.70): what a model may still spend drops from
// ε = 3 to ≈ 2.6.
const privateEpsilon = 1

// privateRange is what describe found for one column (a private release).
type privateRange struct {
	Col        domain.Column     `json:"column"`
	Epsilon    float64           `json:"epsilon"`
	Delta      float64           `json:"delta"`
	Resolution domain.Resolution `json:"resolution"`
	// Release is the id of the describe release that found it and Table the
	// key of the table whose ledger that release was charged to (kept on
	// this device with the declarations, never exported): it counts as found
	// privately only while the shown table's ledger holds that release
	// (private_held.go).
	Release string `json:"release,omitempty"`
	Table   string `json:"table,omitempty"`
}

// blankColumns are the shown columns whose range has both ends blank.
func (v *estimateView) blankColumns() []string {
	var out []string
	for _, c := range v.shownColumns() {
		d := v.declared[c]
		if strings.TrimSpace(d[0]) == "" && strings.TrimSpace(d[1]) == "" {
			out = append(out, c)
		}
	}
	return out
}

// privateCostLine is what finding the blank ranges (and categories) will
// cost, said before anything is spent (categories.CostLine).
func (v *estimateView) privateCostLine(cols, cats []string) string {
	n := 0
	if v.profile != nil {
		n = len(v.profile.Columns)
	}
	return categories.CostLine(v.ledger, privateEpsilon, cols, cats, n)
}

// findRanges releases the blank columns' ranges under the table's ledger and
// fills them in. It returns the columns whose range is only a wide guess
// (Resolution "none"), which are filled in too. Call it from a goroutine.
func (v *estimateView) findRanges() (missing []string, err error) {
	cols := v.blankColumns()
	txt, b := v.text()
	if b != nil {
		return nil, nil // the built-ins declare every range
	}
	if len(v.blankCats()) > 0 {
		return v.findCells(txt, cols)
	}
	if len(cols) == 0 {
		return nil, nil
	}
	opt := dataset.Options{Features: cols, Header: v.headerSel.Value()}
	if v.dropMissing.Checked() {
		opt.Drop = "missing"
	}
	t, err := v.parseTable(txt, opt)
	if err != nil {
		return nil, v.dataError(err, nil)
	}
	_, delta, err := v.ledger.Budget()
	if err != nil {
		return nil, kit.Shown(err)
	}
	// A table below the release's floor (no column's mode could clear the
	// noise) is told so before anything is spent (n, d and the plan are
	// public).
	pl, err := domain.NewPlan(len(t.X), len(cols), privateEpsilon, delta)
	if err != nil {
		return nil, err
	}
	if len(t.X) < pl.MinRows() {
		return nil, sentence(fmt.Sprintf("Too few rows to find ranges privately: n = %d, but at ε = %g a column needs about %d of its values "+
			"within one factor of 4 to clear the noise. Type the ranges of %s — bounds known without looking at the data. "+
			"Nothing was spent.", len(t.X), float64(privateEpsilon), pl.MinRows(), strings.Join(cols, ", ")))
	}
	key, err := v.ledger.Prepare(txt)
	if err != nil {
		return nil, err
	}
	req := map[string]any{"epsilon": float64(privateEpsilon), "delta": delta}
	opts, release := v.run.Start(fmt.Sprintf("Finding the ranges of %s privately (ε = %g of this table's budget)…", kit.Count(len(cols), "column"), float64(privateEpsilon)))
	opts.Delete("onProgress") // describe is one short call: no progress, no cancel
	opts.Delete("signal")
	// Under the table's lock, like a model run: the stored budget (other
	// tabs' releases included) is in the worker before the charge, and the
	// charge is stored before the lock is released (internal/ledger/store.go).
	releaseLedger, err := v.ledger.RunOptions(opts, key)
	var res js.Value
	if err == nil {
		res, err = kit.CallRemote("describe", pieces.FlatRequest(req, t.X), opts)
		releaseLedger()
	}
	release()
	var out struct {
		Columns []domain.Column `json:"columns"`
	}
	if err == nil {
		err = jsio.Decode(res.Get("columns"), &out.Columns)
	}
	if st := res; err == nil && st.Get("privacy").Get("ledger").Truthy() {
		if s, e := ledger.DecodeState(st.Get("privacy").Get("ledger")); e == nil {
			v.ledger.SetState(s)
		}
	} else {
		v.ledger.AfterRun(key)
	}
	v.run.Done(err, "Ranges found privately.")
	if err != nil {
		return nil, err
	}
	// Every column keeps what the release gave, so that the next Run finds
	// no blank range and charges nothing for ranges again (issue 40 item 4);
	// a column whose mode did not clear the noise (Resolution "none") is
	// filled too, and named so that its owner may type a range instead.
	for j, c := range cols {
		col := out.Columns[j]
		if col.Resolution == domain.ResolutionNone {
			missing = append(missing, c)
		}
		lo, hi := report.NiceRange(col.Lo, col.Hi, col.Step)
		v.declared[c] = [2]string{lo, hi}
		v.private[c] = privateRange{Col: col, Epsilon: privateEpsilon, Delta: delta, Resolution: col.Resolution}
	}
	v.stampRelease(key, res)
	v.remember()
	v.rangesChanged()
	return missing, nil
}

// preflight checks, before anything is charged for ranges, every field a run
// would reject whatever the ranges found: ε, δ and the radius, and each
// typed range (issue 40 item 5: validate first, charge second). The error is
// shown by the field.
func (v *estimateView) preflight() error {
	rules := []func(string, float64) error{checks.Epsilon, checks.Delta, checks.Positive}
	for i, f := range []kit.NumberField{v.eps, v.delta, v.c} {
		name := []string{"epsilon", "delta", "radius"}[i]
		x, err := f.Value(name)
		if err == nil {
			err = rules[i](name, x)
		}
		f.SetError(err)
		if err != nil {
			return kit.Shown(err)
		}
	}
	if _, _, _, err := v.cats.Lists(v.textFeatures(), v.tableLedger()); err != nil {
		return kit.ShowAt(v.rangesErr, err) // an empty typed list
	}
	for _, c := range v.shownColumns() {
		d := v.declared[c]
		if strings.TrimSpace(d[0]) == "" && strings.TrimSpace(d[1]) == "" {
			continue
		}
		if _, err := declaredRange("ranges."+c, d); err != nil {
			return kit.ShowAt(v.rangesErr, err)
		}
	}
	return nil
}

// privateNote marks a range input found privately (shown under its label).
func (v *estimateView) privateNote(col string) string {
	p, ok := v.private[col]
	if !ok || heldRelease(v.tableLedger(), p) == nil {
		return "" // not (or no longer) on this table's ledger
	}
	d := v.declared[col]
	lo, hi := report.NiceRange(p.Col.Lo, p.Col.Hi, p.Col.Step)
	if d[0] != lo || d[1] != hi {
		return "" // edited since: it is the owner's declaration now
	}
	if p.Resolution == domain.ResolutionNone {
		// Issue 40 item 4: kept and not paid for again, but said to be wide.
		return fmt.Sprintf("found privately (ε = %g) — a wide guess: too few values shared one order of magnitude; type a bound if you know one", p.Epsilon)
	}
	return fmt.Sprintf("found privately (ε = %g)", p.Epsilon)
}

// privatePanel is "the table, privately" (report.PrivatePanel): the median
// and quartiles of every shown column whose range was found privately.
func (v *estimateView) privatePanel() {
	var names []string
	var cols []domain.Column
	eps, delta := 0.0, 0.0
	for _, c := range v.shownColumns() {
		if p := v.private[c]; v.privateNote(c) != "" {
			names, cols, eps, delta = append(names, c), append(cols, p.Col), p.Epsilon, p.Delta
		}
	}
	if len(cols) > 0 {
		v.rangesBox.AppendChild(report.PrivatePanel(v.id, names, cols, eps, delta))
	}
}

// privateStatement is the result statement's sentence about private ranges:
// those the run used whose release is in st, the table's ledger after the
// run (what it says they cost is read there).
func (v *estimateView) privateStatement(in *report.Input, st *privacy.LedgerState) string {
	cols := append([]string(nil), in.Table.Columns...)
	if in.Target != nil {
		cols = append(cols, in.TargetCol)
	}
	var found []string
	eps, delta := 0.0, 0.0
	releases := map[string]bool{}
	for _, c := range cols {
		if rel := heldRelease(st, v.private[c]); rel != nil && v.privateNote(c) != "" {
			found = append(found, c)
			eps, delta = rel.Epsilon, rel.Delta
			releases[rel.ID] = true
		}
	}
	if len(found) == 0 {
		return ""
	}
	if len(releases) > 1 {
		return fmt.Sprintf(" The ranges of %s were found privately by %d separate (ε = %g, δ = %g) releases, each charged once to this "+
			"table's budget; the others were declared.", strings.Join(found, ", "), len(releases), eps, delta)
	}
	return fmt.Sprintf(" The ranges of %s were found privately by a separate (ε = %g, δ = %g) release charged once to this table's "+
		"budget; the others were declared.", strings.Join(found, ", "), eps, delta)
}

// showFindResult says what finding the ranges did: an error where the eye
// is, or which columns had too few rows to be found at this budget.
func (v *estimateView) showFindResult(missing []string, err error) {
	switch {
	case err != nil:
		if _, shown := err.(kit.ShownError); !shown {
			v.rangesErr.SetTextContent(err.Error())
		}
	case len(missing) > 0:
		// Not an error: the ranges are filled and paid for, and the run goes
		// on. Each such input says so under its label (privateNote).
	}
}

// privateExport lists, for the export, the declared ranges that were found
// privately and the release that found them: only those whose release is in
// st, the table's ledger after the run (its ε and δ are read there).
func (v *estimateView) privateExport(in *report.Input, st *privacy.LedgerState) map[string]any {
	cols := append([]string(nil), in.Table.Columns...)
	if in.Target != nil {
		cols = append(cols, in.TargetCol)
	}
	out := map[string]any{}
	for _, c := range cols {
		p := v.private[c]
		if rel := heldRelease(st, p); rel != nil && v.privateNote(c) != "" {
			out[c] = map[string]any{"lo": p.Col.Lo, "hi": p.Col.Hi, "median": p.Col.Median, "q1": p.Col.Q1, "q3": p.Col.Q3,
				"resolution": p.Resolution, "epsilon": rel.Epsilon, "delta": rel.Delta, "release": rel.ID}
		}
	}
	return out
}

// sentence is a message for the page written as a sentence (capitalised, with
// its full stop), unlike a Go error string.
type sentence string

func (s sentence) Error() string { return string(s) }

// textFeatures are the checked features that are text columns.
func (v *estimateView) textFeatures() (out []string) {
	for _, c := range v.features() {
		if v.isText(c) {
			out = append(out, c)
		}
	}
	return out
}

// blankCats are the text features with neither a typed list nor one found
// on this table's ledger.
func (v *estimateView) blankCats() []string {
	_, _, blank, _ := v.cats.Lists(v.textFeatures(), v.tableLedger())
	return blank
}

// catsEdited follows a typed category list: the result is stale.
func (v *estimateView) catsEdited() {
	kit.MarkStale(v.out, v.id, "a category list changed")
	v.remember()
	v.rangesErr.SetTextContent("")
	v.formErr.SetTextContent("")
	v.costChanged()
}

// costChanged says again what is left to find privately (a range or a list
// was typed).
func (v *estimateView) costChanged() {
	if line := kit.ByID(v.id + "-private-cost"); line != nil {
		if blank, cats := v.blankColumns(), v.blankCats(); len(blank)+len(cats) > 0 {
			line.SetTextContent(v.privateCostLine(blank, cats))
		} else {
			line.SetTextContent("Nothing is left to find: every range and category is declared.")
		}
	}
}

// findCells is findRanges when a text feature's categories are blank: one
// describe({csv}) release of every column of the file, whose blank ranges
// and text columns' categories are all kept. Call it from a goroutine.
func (v *estimateView) findCells(txt string, cols []string) (missing []string, err error) {
	_, delta, err := v.ledger.Budget()
	if err != nil {
		return nil, kit.Shown(err)
	}
	if v.profile == nil {
		return nil, checks.Errorf("the CSV text", "a table whose columns could be read")
	}
	if err := categories.Floor(v.profile.Rows, len(v.profile.Columns), privateEpsilon, delta); err != nil {
		return nil, err
	}
	key, err := v.ledger.Prepare(txt)
	if err != nil {
		return nil, err
	}
	found, id, err := categories.Describe(v.run, v.ledger, key, v.textJS(), v.headerSel.Value(), privateEpsilon, delta,
		fmt.Sprintf("Finding the ranges and categories of %s privately (ε = %g of this table's budget)…", kit.Count(len(v.profile.Columns), "column"), float64(privateEpsilon)))
	if err != nil {
		return nil, err
	}
	for _, col := range found {
		ci, ok := v.profile.Column(col.Name)
		d := v.declared[col.Name]
		switch {
		case ok && ci.Kind == dataset.KindText:
			v.cats.Found[col.Name] = categories.Found{Labels: col.Categories, Other: col.Other, Epsilon: privateEpsilon, Delta: delta, Release: id, Table: key}
		case ok && usable(ci) && strings.TrimSpace(d[0]) == "" && strings.TrimSpace(d[1]) == "":
			if col.Resolution == domain.ResolutionNone && contains(cols, col.Name) {
				missing = append(missing, col.Name)
			}
			lo, hi := report.NiceRange(col.Lo, col.Hi, col.Step)
			v.declared[col.Name] = [2]string{lo, hi}
			v.private[col.Name] = privateRange{Col: col.Column, Epsilon: privateEpsilon, Delta: delta, Resolution: col.Resolution, Release: id, Table: key}
			delete(v.carried, col.Name)
		}
	}
	v.remember()
	v.rangesChanged()
	return missing, nil
}
