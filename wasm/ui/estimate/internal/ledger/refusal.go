//go:build js && wasm

package ledger

import (
	"fmt"

	"github.com/dpsample/dpsample/core/privacy"
	"github.com/dpsample/dpsample/wasm/ui/internal/kit"
)

// Refusal is the message for a run the table's budget cannot pay for: plain
// words first (what was spent, what this run would cost, the largest ε that
// still fits), the ledger's exact GDP accounting in a disclosure.
type Refusal struct{ C *privacy.Check }

func (r Refusal) plain() string {
	b, sp, rem := r.C.Before.Budget, r.C.Before.Spent, r.C.Before.Remaining
	s := fmt.Sprintf("Not run: this table's privacy budget cannot pay for it. So far %s spent ε = %s of this table's ε = %s (δ = %s). ",
		kit.Count(sp.Releases, "release"), kit.G3(sp.Epsilon), kit.G3(b.Epsilon), kit.G3(b.Delta))
	if r.C.Cost.Epsilon > 0 {
		s += fmt.Sprintf("This run asks for ε = %s. ", kit.G3(r.C.Cost.Epsilon))
	}
	if left, ok := roomLeft(rem.Epsilon); ok {
		s += fmt.Sprintf("The largest ε that still fits is %s (rounded down): lower ε to that or less (the cost does not depend on the number of samples), "+
			"or reset the table's budget (see below).", left)
	} else {
		s += "Nothing is left for another run; resetting the table's budget (see below) is the only way on, and it forgets what was spent."
	}
	return s
}

func (r Refusal) Error() string { return r.plain() + " " + r.C.Reason + "." }

// Show writes the refusal into slot: the plain message, then the exact
// accounting under a disclosure.
func (r Refusal) Show(slot kit.Elem) {
	slot.SetInnerHTML("")
	det := kit.El("details", "class", "refusal-detail")
	kit.AppendAll(det, kit.Text("summary", "The exact accounting (Gaussian DP)"), kit.Text("p", r.C.Reason+"."))
	kit.AppendAll(slot, kit.TextNode(r.plain()+" "), det)
}
