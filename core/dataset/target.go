package dataset

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/dpsample/dpsample/core/checks"
)

// Target coding from a declared schema (issue 13). The coding of the target
// column must be a function of the caller's declaration and of each row's own
// cell only — never of the set of labels present — or replacing one row could
// recode every y (the former rule: exactly two distinct values → ±1, three →
// numbers) and an error could reveal that all labels are equal.
//
//   - Positive set (TargetType "label" or empty): positive vs rest. A cell
//     equal to Positive is +1, every other cell −1. Labels are compared as
//     numbers when both parse as numbers ("1" = "1.0" = "1e0"), else as
//     trimmed strings ("male" ≠ "Male"). No label ever causes an error; a
//     column holding one label only is fine.
//   - TargetType "numeric": the cells are numbers, kept as they are (the
//     regression losses clamp them to the request's public targetRange). A
//     cell that is not a number is a malformed file, reported with its row
//     like a non-numeric feature cell.
//   - Nothing declared (the former Options): numeric when every kept cell is a
//     number, which treats "1"/"1.0" and "10"/"9" as numbers. Otherwise the
//     former inference applies (exactly two labels, the first in sorted order
//     → −1) and Table.Coding is CodingInferred: that coding depends on the
//     labels present and is not private; callers should declare Positive.
const (
	TargetNumeric = "numeric"
	TargetLabel   = "label"

	CodingNumeric  = "numeric"
	CodingPositive = "positive-vs-rest"
	CodingInferred = "inferred (depends on the labels present: not private)"
)

// sameLabel reports whether two target cells are the same label: as numbers
// when both parse as finite numbers, otherwise as trimmed strings.
func (d dialect) sameLabel(a, b string) bool {
	a, b = strings.TrimSpace(a), strings.TrimSpace(b)
	va, oka := d.num(a)
	vb, okb := d.num(b)
	if oka && okb {
		return va == vb
	}
	return a == b
}

// validTarget checks the declared schema (public), before any row is read.
func (opt Options) validTarget() error {
	switch opt.TargetType {
	case "", TargetNumeric, TargetLabel:
	default:
		return &checks.Error{Field: "targetType", Rule: `"numeric", "label" or absent`, Got: strconv.Quote(opt.TargetType)}
	}
	if opt.TargetType == TargetNumeric && opt.Positive != "" {
		return checks.Errorf("positive", `absent for targetType "numeric"`)
	}
	if opt.TargetType == TargetLabel && strings.TrimSpace(opt.Positive) == "" {
		return checks.Errorf("positive", `the positive label of the target (targetType "label" codes it +1 and every other label −1)`)
	}
	if opt.Positive != "" && strings.TrimSpace(opt.Positive) == "" {
		return &checks.Error{Field: "positive", Rule: "a label that is not empty (a positive label that is a missing-cell token, such as None, is a level of the target)", Got: strconv.Quote(opt.Positive)}
	}
	return nil
}

// readTarget fills Y (and Coding, Mapping) from column j of the kept rows;
// miss reports a missing target cell (a token that is not a declared level
// of the target), which is NaN in Y (only under Missing "fill": otherwise
// such rows are not kept) and counted in MissingTargets.
func (t *Table) readTarget(dl dialect, recs [][]string, keep []bool, j int, opt Options, miss func(string) bool) error {
	rows := func(yield func(i int, cell string) bool) {
		for i, rec := range recs {
			if keep[i] && !yield(i, rec[j]) {
				return
			}
		}
	}
	for _, cell := range rows {
		if miss(cell) {
			t.MissingTargets++
		}
	}
	code := func(f func(cell string) float64) {
		for _, cell := range rows {
			if miss(cell) {
				t.Y = append(t.Y, math.NaN())
				continue
			}
			t.Y = append(t.Y, f(cell))
		}
	}
	if opt.Positive != "" {
		t.Coding = CodingPositive
		t.Mapping = map[string]float64{strings.TrimSpace(opt.Positive): 1}
		code(func(cell string) float64 {
			if dl.sameLabel(cell, opt.Positive) {
				return 1
			}
			return -1
		})
		return nil
	}
	numeric := true
	for i, cell := range rows {
		if miss(cell) {
			continue
		}
		if _, ok := dl.num(cell); !ok {
			if opt.TargetType == TargetNumeric {
				return &checks.Error{Field: fmt.Sprintf("row %d, column %q", i+1, t.AllNames[j]), Rule: dl.numberRule(cell) + ` (targetType "numeric")`, Got: strconv.Quote(cell)}
			}
			numeric = false
		}
	}
	if numeric {
		t.Coding = CodingNumeric
		code(func(cell string) float64 {
			v, _ := dl.num(cell)
			return v
		})
		return nil
	}
	// The former, data-dependent coding, kept only for callers that declare
	// nothing: exactly two labels, the first in sorted order → −1.
	labels := map[string]bool{}
	for _, cell := range rows {
		if !miss(cell) {
			labels[strings.TrimSpace(cell)] = true
		}
	}
	names := make([]string, 0, len(labels))
	for l := range labels {
		names = append(names, l)
	}
	sort.Strings(names)
	if len(names) != 2 {
		if len(names) > 6 {
			names = append(names[:6], "…")
		}
		return &checks.Error{Field: "target", Rule: "a numeric column, or a declared positive label (positive) for ±1 classification",
			Got: fmt.Sprintf("%d labels: %s", len(labels), strings.Join(names, ", "))}
	}
	t.Coding = CodingInferred
	t.Mapping = map[string]float64{names[0]: -1, names[1]: 1}
	code(func(cell string) float64 { return t.Mapping[strings.TrimSpace(cell)] })
	return nil
}
