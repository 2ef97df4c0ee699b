//go:build js && wasm

package ui

import (
	"fmt"
	"math"

	"github.com/dpsample/dpsample/core/privacy"
)

// refusal is the message for a run the table's budget cannot pay for: plain
// words first (what was spent, what this run would cost, the largest ε that
// still fits), the ledger's exact GDP accounting in a disclosure.
type refusal struct{ c *privacy.Check }

func (r refusal) plain() string {
	b, sp, rem := r.c.Before.Budget, r.c.Before.Spent, r.c.Before.Remaining
	s := fmt.Sprintf("Not run: this table's privacy budget cannot pay for it. So far %s spent ε = %s of this table's ε = %s (δ = %s). ",
		count(sp.Releases, "release"), g3(sp.Epsilon), g3(b.Epsilon), g3(b.Delta))
	if r.c.Cost.Epsilon > 0 {
		s += fmt.Sprintf("This run asks for ε = %s. ", g3(r.c.Cost.Epsilon))
	}
	if rem.Epsilon > 0.005 {
		s += fmt.Sprintf("The largest ε that still fits is about %s: lower ε to that or less (the cost does not depend on the number of samples), "+
			"or reset the table's budget (see below).", g3(math.Floor(rem.Epsilon*100)/100))
	} else {
		s += "Nothing is left for another run; resetting the table's budget (see below) is the only way on, and it forgets what was spent."
	}
	return s
}

func (r refusal) Error() string { return r.plain() + " " + r.c.Reason + "." }

// show writes the refusal into slot: the plain message, then the exact
// accounting under a disclosure.
func (r refusal) show(slot elem) {
	slot.SetInnerHTML("")
	det := el("details", "class", "refusal-detail")
	appendAll(det, text("summary", "The exact accounting (Gaussian DP)"), text("p", r.c.Reason+"."))
	appendAll(slot, textNode(r.plain()+" "), det)
}
