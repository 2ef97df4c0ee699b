package dataset

import (
	"math"
	"slices"

	"github.com/dpsample/dpsample/core/checks"
)

// Range is a declared public range of one feature.
type Range struct{ Lo, Hi float64 }

// Scale maps feature j of every row from its public range [Lo, Hi] to [−1, 1]
// by x ↦ (2x − Lo − Hi)/(Hi − Lo), clamping values outside the range to ±1
// (clamping, like the mechanism's clipping, is part of the mechanism and needs
// no look at the data). A missing cell (NaN, Parse's under Missing "fill")
// becomes 0, the range's middle: a public value inside the domain
// (missing.go). ranges must hold one entry per column of t, except that an
// indicator column (t.Indicators) left out is scaled by IndicatorRange (its
// 0/1 kept). The number of clamped cells is t.Clamped: a statistic of the
// data, NOT private (shown to the data owner only, like
// mechanism.Diagnostics); the filled ones are t.MissingCells.
func (t *Table) Scale(ranges map[string]Range) error {
	rs := make([]Range, len(t.Columns))
	for j, c := range t.Columns {
		r, ok := ranges[c]
		if !ok && slices.Contains(t.Indicators, c) {
			r, ok = IndicatorRange, true
		}
		if !ok {
			return checks.Errorf("ranges."+c, "a declared public range [lo, hi] (none was given for feature column %q)", c)
		}
		if err := r.Valid("ranges." + c); err != nil {
			return err
		}
		rs[j] = r
	}
	for _, row := range t.X {
		for j, r := range rs {
			if math.IsNaN(row[j]) {
				row[j] = 0
				continue
			}
			v := r.ToScaled(row[j])
			row[j] = min(1, max(-1, v))
			if row[j] != v {
				t.Clamped++
			}
		}
	}
	return nil
}
