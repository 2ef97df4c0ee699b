//go:build !js

package e2e

import (
	"strconv"
	"time"
)

// The estimate's form after issue 53 item 1: a CSV has no target until the
// person chooses one (the target list shows "— choose the column to
// predict —"), and until then every column is offered as a feature.

// chooseTarget chooses col in the target list (#est-target), as a person
// does, and waits until the form has taken it: col leaves the feature
// boxes. While the task follows the file, the task is then the one col
// suggests (logistic for a text or two-valued column, smooth-quantile
// otherwise), to be confirmed at Run or by choosing it (confirmTask).
func (p *page) chooseTarget(col string) {
	p.t.Helper()
	q := strconv.Quote(col)
	p.waitJS(`[...document.getElementById("est-target").options].some(o => o.value === `+q+`)`, 20*time.Second)
	p.setValue("est-target", col)
	p.waitJS(`document.getElementById("est-target").value === `+q+
		` && ![...document.querySelectorAll("#est-features input")].some(c => c.value === `+q+`)`, 20*time.Second)
}

// featureBoxes waits until the form offers n feature boxes (a CSV with no
// target chosen offers every column).
func (p *page) featureBoxes(n int) {
	p.t.Helper()
	p.waitJS(`document.querySelectorAll("#est-features input").length === `+strconv.Itoa(n), 20*time.Second)
}
