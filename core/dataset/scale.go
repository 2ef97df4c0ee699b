package dataset

import (
	"fmt"

	"github.com/dpsample/dpsample/core/checks"
)

// Range is a declared public range of one feature.
type Range struct{ Lo, Hi float64 }

// Scale maps feature j of every row from its public range [Lo, Hi] to [−1, 1]
// by x ↦ (2x − Lo − Hi)/(Hi − Lo), clamping values outside the range to ±1
// (clamping, like the mechanism's clipping, is part of the mechanism and needs
// no look at the data). ranges must hold one entry per column of t.
func (t *Table) Scale(ranges map[string]Range) error {
	rs := make([]Range, len(t.Columns))
	for j, c := range t.Columns {
		r, ok := ranges[c]
		if !ok {
			return checks.Errorf("ranges."+c, "a declared public range [lo, hi] (none was given for feature column %q)", c)
		}
		if err := checks.Finite("ranges."+c+".lo", r.Lo); err != nil {
			return err
		}
		if err := checks.Finite("ranges."+c+".hi", r.Hi); err != nil {
			return err
		}
		if !(r.Hi > r.Lo) {
			return &checks.Error{Field: "ranges." + c, Rule: "[lo, hi] with lo < hi", Got: fmt.Sprintf("[%s, %s]", checks.Fmt(r.Lo), checks.Fmt(r.Hi))}
		}
		rs[j] = r
	}
	for _, row := range t.X {
		for j, r := range rs {
			v := (2*row[j] - r.Lo - r.Hi) / (r.Hi - r.Lo)
			row[j] = min(1, max(-1, v))
		}
	}
	return nil
}
