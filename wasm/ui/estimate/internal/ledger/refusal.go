//go:build js && wasm

package ledger

import (
	"github.com/dpsample/dpsample/core/privacy"
	"github.com/dpsample/dpsample/wasm/ui/estimate/internal/form"
	"github.com/dpsample/dpsample/wasm/ui/internal/kit"
)

// Refusal is the message for a run the table's budget cannot pay for: plain
// words first (what was spent, what this run would cost, the largest ε that
// still fits), the ledger's exact GDP accounting in a disclosure.
type Refusal struct{ C *privacy.Check }

func (r Refusal) plain() string { return form.RefusalText(r.C, "") }

func (r Refusal) Error() string { return r.plain() + " " + r.C.Reason + "." }

// Show writes the refusal into slot: the plain message, then the exact
// accounting under a disclosure.
func (r Refusal) Show(slot kit.Elem) {
	slot.SetInnerHTML("")
	det := kit.El("details", "class", "refusal-detail")
	kit.AppendAll(det, kit.Text("summary", "The exact accounting (Gaussian DP)"), kit.Text("p", r.C.Reason+"."))
	kit.AppendAll(slot, kit.TextNode(r.plain()+" "), det)
}
