//go:build js && wasm

package trace

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/dpsample/dpsample/wasm/ui/internal/kit"
	"honnef.co/go/js/dom/v2"
)

// traceCodebookStage is stage 2: the codebook, its columns and (on request) the secret key.
type traceCodebookStage struct {
	codebook     kit.Elem
	codebookNote kit.Elem
	reveal       *dom.HTMLInputElement
}

func (v *traceView) buildCodebook() {
	s := stage(v.pre+"-stage-data", "2. The data: the published codebook")
	lab := kit.El("label", "for", v.pre+"-reveal")
	v.book.reveal = kit.AsInput(kit.El("input", "type", "checkbox", "id", v.pre+"-reveal"))
	kit.AppendAll(lab, v.book.reveal, kit.TextNode(" reveal the secret permutation (which columns are real, which are dummies)"))
	v.book.codebook = kit.El("figure", "id", v.pre+"-codebook", "class", "plot")
	v.book.codebookNote = kit.Text("p", "", "class", "detail", "id", v.pre+"-codebook-note")
	newCode := kit.Text("button", "Draw a new code", "type", "button", "class", "secondary", "id", v.pre+"-new-code")
	kit.AppendAll(s, narration("The first few dozen of the D published columns, one row per person (black = 1). "+
		"Anyone can see which columns are unanimous (marked ▪ above the grid); only the key holder knows which of them are real."),
		lab, v.book.codebook, v.book.codebookNote, newCode)
	v.root.AppendChild(s)
	kit.On(v.book.reveal, "change", false, func(kit.Event) { v.drawCodebook() })
	kit.On(newCode, "click", false, func(kit.Event) {
		v.su.seed = rand.Uint64() >> 11 // seeds must fit in a JS number
		v.setupChanged()
	})
}

func stripWidth(cols int) float64 { return stripLeft + stripCell*float64(cols) + 12 }

func (v *traceView) drawCodebook() {
	r := v.rep
	if r == nil {
		return
	}
	c := r.code
	cols := min(v.windowCols(), c.Length)
	reveal := v.book.reveal.Checked()
	rowH := 16.0
	top := 24.0
	if reveal {
		top += 18
	}
	h := top + rowH*float64(c.N) + 6
	w := stripWidth(cols)
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 %g %g" role="img" aria-label="codebook strip" font-family="system-ui, sans-serif" font-size="12">`, w, h)
	fmt.Fprintf(&b, `<desc>Bits of the %d people on published columns 1 to %d.</desc>`, c.N, cols)
	fmt.Fprintf(&b, `<text x="4" y="14">unanimous</text>`)
	if reveal {
		fmt.Fprintf(&b, `<text x="4" y="32">secret key</text>`)
	}
	real, unan := 0, 0
	for k := range cols {
		x := stripLeft + stripCell*float64(k)
		o := c.Ones(k)
		if o == 0 || o == c.N {
			unan++
			fmt.Fprintf(&b, `<rect x="%g" y="6" width="%g" height="9" fill="#888"/>`, x+2, stripCell-4)
		}
		if reveal {
			kind := r.columnKind(k)
			col := "#0072B2"
			if kind != "real" {
				col = "#E69F00"
			} else {
				real++
			}
			fmt.Fprintf(&b, `<rect x="%g" y="22" width="%g" height="12" fill="%s"><title>column %d: %s</title></rect>`, x+0.5, stripCell-1, col, k+1, kind)
		}
		for i := range c.N {
			y := top + rowH*float64(i)
			fill := "#fff"
			if c.Bit(i, k) {
				fill = "#1d1d1f"
			}
			fmt.Fprintf(&b, `<rect x="%g" y="%g" width="%g" height="%g" fill="%s" stroke="#bbb" stroke-width="0.5"/>`, x, y, stripCell, rowH, fill)
		}
	}
	for i := range c.N {
		fmt.Fprintf(&b, `<text x="4" y="%g">person %d</text>`, top+rowH*float64(i)+12, i+1)
	}
	b.WriteString(`</svg>`)
	fmt.Fprintf(&b, `<figcaption class="detail">The codebook (the data set): published columns 1–%d of %d.</figcaption>`, cols, c.Length)
	v.book.codebook.SetInnerHTML(b.String())
	v.book.codebook.SetAttribute("data-revealed", strconv.FormatBool(reveal))
	v.book.codebook.SetAttribute("data-perm-ok", strconv.FormatBool(r.permOK))
	if reveal {
		note := fmt.Sprintf("Blue = real Tardos column (%d here), orange = dummy (%d here). Of the %d unanimous columns in this window, "+
			"the real ones are indistinguishable from dummies without the key.", real, cols-real, unan)
		if !r.permOK {
			note = "The page could not rebuild the secret permutation for this draw, so the colours may be wrong."
		}
		v.book.codebookNote.SetTextContent(note)
	} else {
		v.book.codebookNote.SetTextContent(fmt.Sprintf("%d of these %d columns are unanimous. Real or dummy? Tick the box to ask the key.", unan, cols))
	}
}

// ---- stage 3: the mechanism ----
