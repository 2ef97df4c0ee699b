//go:build js && wasm

// The page's δ for a table of its size (issue 43 item 5).

package ledger

import "math"

// OfferDelta sets the table budget's δ to d (with note under the field, ""
// for none) while the user has not typed one and the table has no release
// (its δ is fixed then): the page's δ for a table of its size
// (RowsDeltaText). The meter is redrawn: its line states the budget's δ,
// and a large table's row count arrives (from the worker's profile) after
// its key, when nothing else redraws it (issue 55).
func (lv *View) OfferDelta(d, note string) {
	if !lv.deltaAuto || (lv.State != nil && lv.State.Spent.Releases > 0) || lv.delta.Input.Value() == d {
		return
	}
	lv.delta.Input.SetValue(d)
	lv.delta.SetNote(note)
	lv.render()
}

// DefaultDelta is the page's δ (a run's and a table budget's, and the
// default of their fields: RowsDeltaText(0)) for tables of up to 10⁴ rows
// (docs/DEFAULTS.md).
const DefaultDelta = 1e-5

// RowsDelta is the δ the page offers for a table of n rows: DefaultDelta
// while it is at most 1/(10n), else the power of ten at or below 1/(10n) —
// δ ≪ 1/n, as DP asks (checks.DeltaForN refuses δ ≥ 1/n: at 10⁵ rows the
// default 10⁻⁵ was refused and a newcomer had two fields to change before a
// first run, issue 43 item 5). The row count is public (replace-one
// neighbours: docs/PRIVACY.md), so the choice spends nothing.
func RowsDelta(n int) float64 {
	if n <= 0 || DefaultDelta <= 1/(10*float64(n)) {
		return DefaultDelta
	}
	return math.Pow(10, math.Floor(math.Log10(1/(10*float64(n)))))
}

// RowsDeltaText is RowsDelta(n) as the δ fields show it ("1e-6").
func RowsDeltaText(n int) string { return trimFloat(RowsDelta(n)) }
