package domain

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
	"strings"

	"github.com/dpsample/dpsample/core/checks"
	"github.com/dpsample/dpsample/core/privacy"
	"github.com/dpsample/dpsample/core/rng"
)

// Cells is one column of a table as its cells read: the numbers and the text
// labels of its non-missing cells (a cell is one or the other), in any order.
type Cells struct {
	Name   string
	Nums   []float64
	Labels []string
}

// ColumnKind is the kind of a described column (CellsColumn.Kind), decided
// from the release: one of the constants below (JSON: the string itself).
type ColumnKind string

// The kinds of a described column.
const (
	KindNumeric ColumnKind = "numeric"
	KindText    ColumnKind = "text"
)

// CellsColumn is one column's private description by DescribeCells: its
// numbers' range and quartiles (Column, as Describe gives them), and its
// categories — the labels whose noisy count cleared Plan.LabelThreshold, most
// frequent first — with Other saying whether rows are left outside them.
type CellsColumn struct {
	Name string     `json:"name"`
	Kind ColumnKind `json:"kind"` // "text" when the categories hold at least half the rows, else "numeric"
	Column
	Categories []string `json:"categories"`
	Other      bool     `json:"other"`
}

// CellsResult is DescribeCells' release.
type CellsResult struct {
	Columns []CellsColumn `json:"columns"`
	Plan    Plan          `json:"plan"`
	Private bool          `json:"private"`
}

// NewCellsPlan is the plan of a DescribeCells release of n rows and d
// columns: NewPlanWith(…, Options{Labels: true}).
func NewCellsPlan(n, d int, eps, delta float64) (Plan, error) {
	return NewPlanWith(n, d, eps, delta, Options{Labels: true})
}

// PlanCellsFor is NewCellsPlan under a ledger: the label part's total
// variation is capped at the ledger's proportional share for the release's
// s (privacy.Ledger.TVAllowance), so that a table's TV side never runs out
// before its GDP side.
func PlanCellsFor(n, d int, eps, delta float64, l *privacy.Ledger) (Plan, error) {
	p, err := NewCellsPlan(n, d, eps, delta)
	if err != nil || l == nil {
		return p, err
	}
	allow := l.TVAllowance(p.GDP)
	if allow <= 0 || allow >= p.TV {
		return p, nil // an exhausted TV side is refused by the charge, naming it
	}
	return NewPlanWith(n, d, eps, delta, Options{Labels: true, MaxTV: allow})
}

// DescribeCells releases each column's range and categories in one release
// (issue 42; docs/PRIVACY.md §9): stage 1 counts, per column, the magnitude
// bins of its numbers and every label that occurs; stage 2 (when the plan has
// it) the numbers' linear bins. Every count gets round(σ₁·Z), Z by
// rng.Normal53, like the numbers' bins.
//
// Privacy. A column's cells fall in one bin of the union of its magnitude
// bins and its labels (a missing cell in none), so replacing a row moves at
// most one unit out of one bin and one into another: ℓ2 ≤ √2 a column, √(2d)
// for the table, and the noisy counts over any fixed set of labels are the
// Gaussian mechanism, s-GDP with s = Calibrate(ε, δ/2). Only labels that
// occur are counted, and only those reaching τ_L are released. Fix two
// neighbours D, D′ and let U be the union of their labels, column by column;
// the mechanism that adds noise to every label of U (a zero count for a label
// absent from D) and releases those reaching τ_L is exactly s-GDP on the pair.
// On D it differs from DescribeCells only when a label of U absent from D —
// at most one a column: the replaced row's label in D′ — reaches τ_L, which a
// zero count does with probability Φ̄((τ_L − ½)/σ₁). So the release is within
// TV = d·Φ̄((τ_L − ½)/σ₁) of an s-GDP mechanism on each side, and is (ε, δ)-DP
// with δ = δ_s(ε) + (1 + e^ε)·TV (as a proximal sampler's, privacy.Split).
// τ_L = ⌈σ₁·Φ̄⁻¹(Plan.TV/d) + 1.5⌉ makes both a zero count's and a one-row
// label's survival (Φ̄((τ_L − 1.5)/σ₁)) at most TV/d; Plan.Charge charges
// TV with s. The sort, the threshold, the kind and "other" are
// post-processing of released counts and the public n. The number of
// distinct labels changes how many noise draws are made, which can show in
// the run time (docs/PRIVACY.md §5).
//
// seed == nil keys the noise from crypto/rand; a seed makes the result
// reproducible and not private. Errors name the column.
func DescribeCells(cols []Cells, p Plan, seed *uint64) (CellsResult, error) {
	return describeCells(cols, p, seed, rules{})
}

func describeCells(cols []Cells, p Plan, seed *uint64, ru rules) (CellsResult, error) {
	if err := checkCells(cols, p); err != nil {
		return CellsResult{}, err
	}
	return drawCells(cols, p, seed, ru), nil
}

// checkCells validates cols against p and p itself (DescribeCells' errors).
func checkCells(cols []Cells, p Plan) error {
	if !p.valid() || !p.Labels {
		return &checks.Error{Field: "plan", Rule: "a plan made by domain.NewCellsPlan or PlanCellsFor, unchanged", Got: "another plan"}
	}
	if len(cols) != p.D {
		return &checks.Error{Field: "columns", Rule: fmt.Sprintf("%d columns like the plan's", p.D), Got: fmt.Sprintf("%d", len(cols))}
	}
	for j, c := range cols {
		field := fmt.Sprintf("columns[%d]", j)
		if c.Name != "" {
			field = fmt.Sprintf("column %q", c.Name)
		}
		if len(c.Nums)+len(c.Labels) > p.N {
			return &checks.Error{Field: field, Rule: fmt.Sprintf("at most n = %d cells", p.N), Got: fmt.Sprintf("%d", len(c.Nums)+len(c.Labels))}
		}
		for _, v := range c.Nums {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return &checks.Error{Field: field, Rule: "finite numbers", Got: checks.Fmt(v)}
			}
		}
	}
	return nil
}

// drawCells draws the release of cols, checked by checkCells, with noise
// keyed from seed (crypto/rand when nil).
func drawCells(cols []Cells, p Plan, seed *uint64, ru rules) CellsResult {
	r, private := rng.New(seed)
	out := CellsResult{Columns: make([]CellsColumn, len(cols)), Plan: p, Private: private}
	for j, c := range cols {
		out.Columns[j] = describeCellColumn(c, p, r, ru)
	}
	return out
}

// labelCount is one label's noisy count.
type labelCount struct {
	label string
	noisy float64
}

func describeCellColumn(c Cells, p Plan, r *rand.Rand, ru rules) CellsColumn {
	out := CellsColumn{Name: c.Name, Kind: KindNumeric, Categories: []string{}}
	out.Column = describeColumn(c.Nums, p, r, ru) // a text column's numeric part is all noise, labelled "none"
	// The labels that occur, in a fixed order (the noise is i.i.d., so the
	// order changes nothing but reproducibility under a seed).
	counts := map[string]int{}
	for _, l := range c.Labels {
		counts[strings.TrimSpace(l)]++
	}
	labels := make([]string, 0, len(counts))
	for l := range counts {
		labels = append(labels, l)
	}
	sort.Strings(labels)
	tau := p.LabelThreshold + float64(ru.labelShift)
	var kept []labelCount
	sum := 0.0
	for _, l := range labels {
		v := float64(counts[l]) + math.Round(p.Sigma1*rng.Normal53(r))
		if v >= tau {
			kept = append(kept, labelCount{l, v})
			sum += v
		}
	}
	sort.SliceStable(kept, func(a, b int) bool { return kept[a].noisy > kept[b].noisy })
	for _, k := range kept {
		out.Categories = append(out.Categories, k.label)
	}
	// Rows outside the categories (other labels, numbers, missing cells):
	// n − the released noisy counts (noise σ₁·√k for k categories), against
	// 3σ₁·√k — when no row is outside, "other" is said with probability
	// ≤ Φ̄(3) ≈ 0.13 %.
	out.Other = float64(p.N)-sum >= 3*p.Sigma1*math.Sqrt(float64(max(len(kept), 1)))
	if 2*sum >= float64(p.N) {
		out.Kind = KindText
	}
	return out
}
