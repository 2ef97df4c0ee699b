//go:build js && wasm

// The page's δ for a table of its size (issue 43 item 5).

package ledger

// OfferDelta sets the table budget's δ to d (with note under the field, ""
// for none) while the user has not typed one and the table has no release
// (its δ is fixed then): the page's δ for a table of its size
// (form.RowsDeltaText). It reports whether the field changed. The meter is
// redrawn (not OnRender: the caller tells the form): its line states the
// budget's δ, and a large table's row count arrives from the worker's
// profile after its key, when nothing else redraws it (issue 55).
func (lv *View) OfferDelta(d, note string) bool {
	if !lv.deltaAuto || (lv.State != nil && lv.State.Spent.Releases > 0) || lv.delta.Input.Value() == d {
		return false
	}
	lv.delta.Input.SetValue(d)
	lv.delta.SetNote(note)
	lv.draw()
	return true
}
