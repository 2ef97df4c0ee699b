//go:build js && wasm

// The page's δ for a table of its size (issue 43 item 5).

package ledger

// OfferDelta sets the table budget's δ to d (with note under the field, ""
// for none) while the user has not typed one and the table has no release
// (its δ is fixed then): the page's δ for a table of its size
// (form.RowsDeltaText). It reports whether the field changed.
func (lv *View) OfferDelta(d, note string) bool {
	if !lv.deltaAuto || (lv.State != nil && lv.State.Spent.Releases > 0) || lv.delta.Input.Value() == d {
		return false
	}
	lv.delta.Input.SetValue(d)
	lv.delta.SetNote(note)
	return true
}
