package form

import (
	"fmt"
	"math"
	"strings"

	"github.com/dpsample/dpsample/core/domain"
	"github.com/dpsample/dpsample/core/privacy"
	"github.com/dpsample/dpsample/wasm/ui/internal/words"
)

// The sentences the form's state decides: what finding the blank ranges
// costs, what a refusal for the budget says, and what a result says (and
// exports) about ranges and categories found privately.

// CostLine is what finding the blank ranges and categories will cost (one
// release at PrivateEpsilon and the table budget's δ), said before anything
// is spent ("" when nothing is blank).
func (s State) CostLine() string {
	cols, cats := s.BlankColumns(), s.BlankCats()
	if len(cols)+len(cats) == 0 {
		return ""
	}
	delta := s.budgetDelta()
	what := "Blank ranges (" + strings.Join(cols, ", ") + ")"
	switch {
	case len(cols) == 0:
		what = "The categories of " + strings.Join(cats, ", ")
	case len(cats) > 0:
		what += " and the categories of " + strings.Join(cats, ", ")
	}
	line := fmt.Sprintf("%s will be found privately when you press Run — or now, with the button: it costs ε = %g "+
		"(δ = %g) of this table's budget, once; what is found is kept for this file's columns and is not paid for again. "+
		"Typed ranges and categories always win.", what, float64(PrivateEpsilon), delta)
	if p := s.Table.Profile; len(cats) > 0 && p != nil && len(p.Columns) > 0 {
		line += fmt.Sprintf(" With a text feature one release describes all %d columns of the file (the ranges of every number column, "+
			"the categories of every text one), so ticking another column later costs nothing; a category is kept only if its noisy "+
			"count clears a threshold, and part of δ pays for that.", len(p.Columns))
	}
	// What a model may still spend afterwards (GDP composes in squares).
	left := 0.0
	if b, err := privacy.NewLedgerBudget(s.Ledger.Epsilon, s.Ledger.Delta); err == nil {
		left = b.GDP
	}
	if st := s.Ledger.State; st != nil && st.Key == s.Ledger.Key && st.Key != "" {
		left = st.Remaining.GDP
	}
	if sg, err := privacy.Calibrate(PrivateEpsilon, delta); err == nil && left > sg {
		if after, err := privacy.Epsilon(math.Sqrt(left*left-sg*sg), delta); err == nil {
			line += fmt.Sprintf(" Afterwards a model may still spend up to ε = %s at δ = %g (privacy losses add up more gently than their ε's, "+
				"so this takes less than ε = %g off what is left).", privacy.FormatDown(after, 3), delta, float64(PrivateEpsilon))
		}
	}
	return line
}

// BlockedText is the refusal of a run on a table whose stored budget
// cannot be read back (why: the reason): never replaced by a fresh budget,
// only by a confirmed reset.
func BlockedText(why string) string {
	return "Not run: this table's stored privacy budget could not be read back (" + why + "). Starting a fresh budget " +
		"would forget the releases it records, so runs on this table are refused until you reset its budget (the button " +
		"below says what that forgets)."
}

// RefusalText is the plain words of a run the table's budget cannot pay
// for (c, the ledger's check): what was spent, what this run would cost,
// the largest ε that still fits (rounded down: privacy.FormatDown, the one
// rule for what is left). after names a release of the same press that
// would be charged first ("" for none): nothing is spent then either.
func RefusalText(c *privacy.Check, after string) string {
	b, sp, rem := c.Before.Budget, c.Before.Spent, c.Before.Remaining
	var s string
	if after != "" {
		// c.Before holds the release of after, not yet charged.
		s = fmt.Sprintf("Not run, and nothing spent: %s and then this run do not fit this table's privacy budget (ε = %s, δ = %s). ",
			after, words.G3(b.Epsilon), words.G3(b.Delta))
	} else {
		s = fmt.Sprintf("Not run: this table's privacy budget cannot pay for it. So far %s spent ε = %s of this table's ε = %s (δ = %s). ",
			words.Count(sp.Releases, "release"), words.G3(sp.Epsilon), words.G3(b.Epsilon), words.G3(b.Delta))
	}
	if c.Cost.Epsilon > 0 {
		s += fmt.Sprintf("This run asks for ε = %s. ", words.G3(c.Cost.Epsilon))
	}
	switch {
	case rem.Epsilon > 0 && after != "":
		s += fmt.Sprintf("After it, the largest ε that still fits is %s (rounded down): lower ε to that or less, or type the blank ranges, "+
			"or reset the table's budget (see below).", privacy.FormatDown(rem.Epsilon, 3))
	case rem.Epsilon > 0:
		s += fmt.Sprintf("The largest ε that still fits is %s (rounded down): lower ε to that or less (the cost does not depend on the number of samples), "+
			"or reset the table's budget (see below).", privacy.FormatDown(rem.Epsilon, 3))
	default:
		s += "Nothing is left for another run; resetting the table's budget (see below) is the only way on, and it forgets what was spent."
	}
	return s
}

// foundIn are the run's columns (features and a regression's target) found
// privately on this table whose release st, the table's ledger after the
// run, holds — with that release.
func (s State) foundIn(spec *RunSpec, st *privacy.LedgerState) (cols []string, rel []*privacy.Release) {
	names := append([]string(nil), spec.Parse.Features...)
	if spec.Target != nil {
		names = append(names, spec.TargetCol)
	}
	for _, c := range names {
		d, ok := s.Range(c)
		if !ok || d.From == nil {
			continue
		}
		if r := d.From.HeldIn(st); r != nil {
			cols, rel = append(cols, c), append(rel, r)
		}
	}
	return cols, rel
}

// PrivateStatement is the result statement's sentence about the ranges
// found privately that the run used, st being the table's ledger after the
// run (what they cost is read there).
func (s State) PrivateStatement(spec *RunSpec, st *privacy.LedgerState) string {
	cols, rels := s.foundIn(spec, st)
	if len(cols) == 0 {
		return ""
	}
	ids := map[string]bool{}
	for _, r := range rels {
		ids[r.ID] = true
	}
	eps, delta := rels[0].Epsilon, rels[0].Delta
	edited := ""
	var ed []string
	for _, c := range cols {
		if d, _ := s.Range(c); !d.unedited() {
			ed = append(ed, c)
		}
	}
	if len(ed) > 0 {
		edited = fmt.Sprintf(" (%s then edited by you)", strings.Join(ed, ", "))
	}
	if len(ids) > 1 {
		return fmt.Sprintf(" The ranges of %s were found privately%s by %d separate (ε = %g, δ = %g) releases, each charged once to this "+
			"table's budget; the others were declared.", strings.Join(cols, ", "), edited, len(ids), eps, delta)
	}
	return fmt.Sprintf(" The ranges of %s were found privately%s by a separate (ε = %g, δ = %g) release charged once to this table's "+
		"budget; the others were declared.", strings.Join(cols, ", "), edited, eps, delta)
}

// PrivateExport lists, for the export, the ranges of the run found
// privately and the release that found them (held in st, the table's
// ledger after the run; its ε and δ read there).
func (s State) PrivateExport(spec *RunSpec, st *privacy.LedgerState) map[string]any {
	out := map[string]any{}
	cols, rels := s.foundIn(spec, st)
	for i, c := range cols {
		d, _ := s.Range(c)
		p := d.From
		e := map[string]any{"lo": p.Col.Lo, "hi": p.Col.Hi, "quartiles": p.Col.Quartiles,
			"resolution": p.Resolution, "epsilon": rels[i].Epsilon, "delta": rels[i].Delta, "release": rels[i].ID, "edited": !d.unedited()}
		if p.Col.Quartiles != domain.ResolutionMagnitude { // a mode bin's edges are no quartiles (issue 52): the page shows dashes
			e["q1"], e["median"], e["q3"] = p.Col.Q1, p.Col.Median, p.Col.Q3
		}
		out[c] = e
	}
	return out
}

// CatsStatement is the result statement's sentence about the run's text
// features, st being the table's ledger after the run (a found list's ε
// and δ are read there), each one's reference named.
func CatsStatement(used []Used, st *privacy.LedgerState) string {
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

// CatsExport lists the run's text features for the export: each one's
// labels and where they came from ("typed", or "private" with the
// release's ε, δ and id in privacy.ledger), and its reference label when it
// has one.
func CatsExport(used []Used, st *privacy.LedgerState) map[string]any {
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
