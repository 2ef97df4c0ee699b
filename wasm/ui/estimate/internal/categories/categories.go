//go:build js && wasm

// Package categories holds the estimate view's text features (issue 42
// items 4 and 6): each ticked text column is one-hot coded (data.parseCSV's
// categories option, columns named name=label) from a list of labels that is
// either typed by the owner (public, free, and it wins) or found privately
// by describe({csv}) in the same single release as the blank ranges
// (core/domain.DescribeCells, docs/PRIVACY.md §9). Found lists are held like
// found ranges (estimate/private_held.go): they count only while the table
// shown holds the release that found them in its ledger, so they are never
// paid for twice on the same table and never claimed on another.
//
// The page keeps describe({x}) on the blank columns when no text feature
// needs its categories: fewer columns, less noise (σ grows with √d) and no
// label slack. When one does, it calls describe({csv}) instead, once: the
// whole file in the same single charge (the API describes a CSV whole), its
// text read in the worker from the JS string (never copied through Go), and
// every blank range and every text column's categories are kept from that
// release, so that ticking another column later is not a second charge.
package categories

import (
	"fmt"
	"math"
	"strings"
	"syscall/js"

	"github.com/dpsample/dpsample/core/checks"
	"github.com/dpsample/dpsample/core/domain"
	"github.com/dpsample/dpsample/core/privacy"
	"github.com/dpsample/dpsample/wasm/internal/jsio"
	"github.com/dpsample/dpsample/wasm/ui/estimate/internal/ledger"
	"github.com/dpsample/dpsample/wasm/ui/internal/kit"
)

// Found is one text column's categories as a describe({csv}) release gave
// them: the labels whose noisy count cleared the threshold, most frequent
// first (none for an ID-like column), and the release that found them.
type Found struct {
	Labels  []string `json:"labels"`
	Other   bool     `json:"other"`
	Epsilon float64  `json:"epsilon"`
	Delta   float64  `json:"delta"`
	Release string   `json:"release"` // the release's id in the table's ledger
	Table   string   `json:"table"`   // the key of the table it was charged to
}

// HeldIn is the release of the ledger st that found f: nil unless st is the
// ledger of f's table and holds its release.
func (f Found) HeldIn(st *privacy.LedgerState) *privacy.Release {
	if st == nil || f.Release == "" || f.Table == "" || st.Key != f.Table {
		return nil
	}
	for i := range st.History {
		if st.History[i].ID == f.Release {
			return &st.History[i]
		}
	}
	return nil
}

// Book is what the view knows about its text features: the lists typed (raw
// text, per column) and those found privately (per column).
// It is remembered with the declarations (per header, in this browser).
type Book struct {
	Typed map[string]string `json:"typed"`
	Found map[string]Found  `json:"found"`
	shown map[string]bool   // column → whether its field was drawn with a found list (Field)
}

// NewBook is an empty Book.
func NewBook() *Book {
	return &Book{Typed: map[string]string{}, Found: map[string]Found{}, shown: map[string]bool{}}
}

// Changed reports whether a field drawn since the last call would now be
// drawn otherwise: st, the table's ledger, holds a found list it did not
// (the ledger became known after a reload) or no longer holds one.
func (b *Book) Changed(st *privacy.LedgerState) bool {
	for c, was := range b.shown {
		if (b.Note(c, st) != "") != was {
			return true
		}
	}
	return false
}

// ParseList reads a typed list of labels: comma-separated, each trimmed.
// typed is false for a blank field (the list is then found privately); a
// field holding only separators is an empty list, an error naming
// categories.<col>. A label that never occurs in the file is fine: the list
// is public.
func ParseList(col, raw string) (labels []string, typed bool, err error) {
	if strings.TrimSpace(raw) == "" {
		return nil, false, nil
	}
	for _, l := range strings.Split(raw, ",") {
		if l = strings.TrimSpace(l); l != "" {
			labels = append(labels, l)
		}
	}
	if len(labels) == 0 {
		return nil, true, checks.Errorf("categories."+col, "a non-empty list of labels, comma-separated (an empty list codes nothing; leave the field blank to find them privately)")
	}
	return labels, true, nil
}

// Used is one text feature of a run: its labels and where they came from.
type Used struct {
	Col    string
	Labels []string // empty: found privately, no category had enough rows (the column is left out)
	Typed  bool
	Found  Found // when not typed
	// Reference is the label coded as all zeros, its column left out
	// (data.parseCSV's reference, issue 53 item 2): set by SetReferences;
	// empty, every label has its column.
	Reference string
}

// SetReferences picks each text feature's reference label for treatment
// coding (issue 53 item 2) — the first of its list: a found list is ordered
// most frequent first by its released noisy counts, so that is the most
// frequent released label (post-processing of the release); a typed list's
// first label is the owner's choice — and returns them as data.parseCSV's
// reference option. A feature with fewer than two labels gets none (one
// label as the reference would code nothing). The statement and the export
// then name each reference.
func SetReferences(used []Used) map[string]string {
	out := map[string]string{}
	for i := range used {
		used[i].Reference = ""
		if len(used[i].Labels) >= 2 {
			used[i].Reference = used[i].Labels[0]
			out[used[i].Col] = used[i].Labels[0]
		}
	}
	return out
}

// Lists resolves the text features cols against st, the table's ledger: a
// typed list wins (checked by ParseList); else a found list whose release st
// holds; else the column is blank (to be found privately). It returns the
// features' lists as data.parseCSV's categories (without the columns whose
// found list is empty) and the first typed list in error.
func (b *Book) Lists(cols []string, st *privacy.LedgerState) (cats map[string][]string, used []Used, blank []string, err error) {
	cats = map[string][]string{}
	for _, c := range cols {
		labels, typed, e := ParseList(c, b.Typed[c])
		switch f, ok := b.Found[c]; {
		case e != nil:
			if err == nil {
				err = e
			}
		case typed:
			cats[c] = labels
			used = append(used, Used{Col: c, Labels: labels, Typed: true})
		case ok && f.HeldIn(st) != nil:
			if len(f.Labels) > 0 {
				cats[c] = f.Labels
			}
			used = append(used, Used{Col: c, Labels: f.Labels, Found: f})
		default:
			blank = append(blank, c)
		}
	}
	return cats, used, blank, err
}

// OneHotDims is what the one-hot blocks of cats add to a row beyond one
// column each: docs/DEFAULTS.md counts a block (norm 1 or 0) as one column of
// the clip √(numeric columns + blocks + 1). Without reference coding;
// BlockDims is the same count with it.
func OneHotDims(cats map[string][]string) int { return BlockDims(cats, nil) }

// BlockDims is OneHotDims when the features of reference are coded against
// a reference label (issue 53 item 2): such a block has one column fewer,
// len(labels) − 1, and its norm is still 1 or 0 (the reference, an unlisted
// label and a missing cell code as zeros), so it too counts as one column of
// the clip and adds len(labels) − 2 beyond it. The clip is then
// √(len(row) − BlockDims(cats, reference)), the intercept and each "was
// missing" column (0/1) counted among the row's columns.
func BlockDims(cats map[string][]string, reference map[string]string) int {
	n := 0
	for c, l := range cats {
		n += len(l) - 1
		if _, ok := reference[c]; ok {
			n--
		}
	}
	return n
}

// OneHot are the coded columns' names (name=label, as data.parseCSV names them).
func OneHot(cats map[string][]string) map[string]bool {
	out := map[string]bool{}
	for c, ls := range cats {
		for _, l := range ls {
			out[c+"="+l] = true
		}
	}
	return out
}

// Note is what a found list says under its field: nothing when st does not
// hold its release.
func (b *Book) Note(col string, st *privacy.LedgerState) string {
	f, ok := b.Found[col]
	if !ok || f.HeldIn(st) == nil {
		return ""
	}
	if len(f.Labels) == 0 {
		return fmt.Sprintf("no category has enough rows (found privately, ε = %g): the column is left out of the model — type its labels to use it", f.Epsilon)
	}
	other := ""
	if f.Other {
		other = "; other rows code as all zeros"
	}
	return fmt.Sprintf("found privately (ε = %g): %s%s", f.Epsilon, strings.Join(f.Labels, ", "), other)
}

// Field is a text feature's input (id, data-cat col) with its label and,
// when found privately, its note; typing in it sets b.Typed[col] and calls
// changed.
func (b *Book) Field(id, col string, st *privacy.LedgerState, changed func()) kit.Elem {
	wrap := kit.El("div", "class", "field categories", "data-cat", col)
	in := kit.El("input", "id", id, "type", "text", "autocomplete", "off", "spellcheck", "false", "size", "40", "data-cat", col,
		"placeholder", "blank: found privately with the ranges", "aria-label", "categories of "+col)
	in.SetAttribute("value", b.Typed[col])
	lab := kit.Text("label", "categories of "+col+" (one-hot: one column per label; type them, comma-separated, or leave blank)", "for", id)
	kit.SetStyle(lab, "display", "block")
	if b.shown == nil { // a Book decoded from what this browser remembers
		b.shown = map[string]bool{}
	}
	note := b.Note(col, st)
	b.shown[col] = note != ""
	if note != "" && strings.TrimSpace(b.Typed[col]) == "" {
		lab.AppendChild(kit.Text("span", " — "+note, "class", "found-private", "data-private-cat", col))
	}
	kit.On(in, "input", false, func(kit.Event) {
		b.Typed[col] = kit.AsInput(in).Value()
		changed()
	})
	kit.AppendAll(wrap, lab, in)
	return wrap
}

// Statement is the result statement's sentence about the run's text
// features, st being the table's ledger after the run (a found list's ε and
// δ are read there).
func Statement(used []Used, st *privacy.LedgerState) string {
	var typed, found, none []string
	eps, delta := 0.0, 0.0
	refs := false
	for _, u := range used {
		switch rel := u.Found.HeldIn(st); {
		case u.Typed:
			typed = append(typed, fmt.Sprintf("%s (%s)", u.Col, u.listed()))
		case rel != nil && len(u.Labels) == 0:
			none = append(none, u.Col)
			eps, delta = rel.Epsilon, rel.Delta
		case rel != nil:
			found = append(found, fmt.Sprintf("%s (%s)", u.Col, u.listed()))
			eps, delta = rel.Epsilon, rel.Delta
		}
		refs = refs || u.Reference != ""
	}
	s := ""
	if len(typed) > 0 {
		s += " Text features one-hot coded from categories typed (public, no budget): " + strings.Join(typed, "; ") + "."
	}
	if len(found) > 0 {
		s += fmt.Sprintf(" Text features one-hot coded from categories found privately by a separate (ε = %g, δ = %g) release "+
			"of the table's ranges and categories, charged once to this table's budget: %s.", eps, delta, strings.Join(found, "; "))
	}
	if len(none) > 0 {
		s += fmt.Sprintf(" Left out: %s — no category has enough rows (found privately by the (ε = %g, δ = %g) release).", strings.Join(none, ", "), eps, delta)
	}
	switch {
	case s != "" && refs:
		s += " Each is coded against its reference label (treatment coding: its coefficients compare a label with the reference); " +
			"a label outside a list, or a missing cell, codes like the reference (all zeros)."
	case s != "":
		s += " A label outside a list, or a missing cell, codes as all zeros."
	}
	return s
}

// listed is the feature's labels for the statement, the reference named.
func (u Used) listed() string {
	var ls []string
	for _, l := range u.Labels {
		if l == u.Reference {
			l += " = reference"
		}
		ls = append(ls, l)
	}
	return strings.Join(ls, ", ")
}

// Export lists the run's text features for the export: each one's labels and
// where they came from ("typed", or "private" with the release's ε, δ and id
// in privacy.ledger), and its reference label when it has one.
func Export(used []Used, st *privacy.LedgerState) map[string]any {
	out := map[string]any{}
	for _, u := range used {
		labels := append([]string{}, u.Labels...)
		var e map[string]any
		if u.Typed {
			e = map[string]any{"labels": labels, "source": "typed"}
		} else if rel := u.Found.HeldIn(st); rel != nil {
			e = map[string]any{"labels": labels, "source": "private", "other": u.Found.Other,
				"epsilon": rel.Epsilon, "delta": rel.Delta, "release": rel.ID}
		}
		if e != nil && u.Reference != "" {
			e["reference"] = u.Reference
		}
		if e != nil {
			out[u.Col] = e
		}
	}
	return out
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
// cells without dropping a row. Its floor is Floor(n, len(names), …).
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
	run.Done(err, "Ranges and categories found privately.")
	return cols, id, err
}

// CostLine is what finding the blank ranges cols and the categories of the
// text features cats will cost (one release at ε = privateEpsilon and the
// table budget's δ), said before anything is spent; ncols is the file's
// number of columns.
func CostLine(lv *ledger.View, privateEpsilon float64, cols, cats []string, ncols int) string {
	eps, delta, err := lv.Budget()
	if err != nil {
		eps, delta = 3, 1e-5
	}
	what := "Blank ranges (" + strings.Join(cols, ", ") + ")"
	switch {
	case len(cols) == 0:
		what = "The categories of " + strings.Join(cats, ", ")
	case len(cats) > 0:
		what += " and the categories of " + strings.Join(cats, ", ")
	}
	line := fmt.Sprintf("%s will be found privately when you press Run — or now, with the button: it costs ε = %g "+
		"(δ = %g) of this table's budget, once; what is found is kept for this file's columns and is not paid for again. "+
		"Typed ranges and categories always win.", what, privateEpsilon, delta)
	if len(cats) > 0 && ncols > 0 {
		line += fmt.Sprintf(" With a text feature one release describes all %d columns of the file (the ranges of every number column, "+
			"the categories of every text one), so ticking another column later costs nothing; a category is kept only if its noisy "+
			"count clears a threshold, and part of δ pays for that.", ncols)
	}
	// What a model may still spend afterwards (GDP composes in squares).
	left := 0.0
	if b, err := privacy.NewLedgerBudget(eps, delta); err == nil {
		left = b.GDP
	}
	if st := lv.State; st != nil && st.Key == lv.Key && st.Key != "" {
		left = st.Remaining.GDP
	}
	if s, err := privacy.Calibrate(privateEpsilon, delta); err == nil && left > s {
		if after, err := privacy.Epsilon(math.Sqrt(left*left-s*s), delta); err == nil {
			line += fmt.Sprintf(" Afterwards a model may still spend up to ε = %s at δ = %g (privacy losses add up more gently than their ε's, "+
				"so this takes less than ε = %g off what is left).", privacy.FormatDown(after, 3), delta, privateEpsilon)
		}
	}
	return line
}

// Floor refuses, before anything is spent, a describe({csv}) of n rows and
// d columns that no column could clear (n, d and the plan are public).
func Floor(n, d int, eps, delta float64) error {
	pl, err := domain.NewCellsPlan(n, d, eps, delta)
	if err != nil {
		return err
	}
	if n < pl.MinRows() {
		return sentence(fmt.Sprintf("Too few rows to find ranges and categories privately: n = %d, but at ε = %g describing the "+
			"file's %d columns needs about %d rows. Type the ranges and the categories. Nothing was spent.", n, eps, d, pl.MinRows()))
	}
	return nil
}

// sentence is a message for the page written as a sentence (capitalised, with
// its full stop), unlike a Go error string.
type sentence string

func (s sentence) Error() string { return string(s) }
