//go:build js && wasm

package trace

import (
	"fmt"
	"strconv"

	"github.com/dpsample/dpsample/core/checks"
	"github.com/dpsample/dpsample/core/lowerbound"
	"github.com/dpsample/dpsample/wasm/ui/internal/kit"
	"honnef.co/go/js/dom/v2"
)

// traceMechStage is stage 3: the mechanism attacked and its parameter.
type traceMechStage struct {
	mech      *dom.HTMLSelectElement
	epsR      *dom.HTMLInputElement
	sR        *dom.HTMLInputElement
	epsOut    kit.Elem
	sOut      kit.Elem
	epsWrap   kit.Elem
	sWrap     kit.Elem
	deltaWrap kit.Elem
	deltaF    kit.NumberField
}

func (v *traceView) buildMechanism() {
	s := stage(v.pre+"-stage-mechanism", "3. The mechanism answers; the adversary rounds at ½")
	form := kit.El("form", "class", "controls", "novalidate", "")
	mw := kit.El("div", "class", "field")
	v.mechStage.mech = kit.AsSelect(kit.El("select", "id", v.pre+"-mech"))
	kit.AppendAll(v.mechStage.mech.BasicHTMLElement,
		kit.Text("option", "non-private median", "value", string(lowerbound.Median)),
		kit.Text("option", "dpsample's Algorithm 1 (ε)", "value", string(lowerbound.Exponential)),
		kit.Text("option", "box exponential mechanism (s)", "value", string(lowerbound.BoxExponential)),
		kit.Text("option", "Gaussian baseline (ε)", "value", string(lowerbound.Gaussian)))
	kit.AppendAll(mw, kit.Text("label", "mechanism", "for", v.pre+"-mech"), v.mechStage.mech)
	v.mechStage.epsWrap = kit.El("div", "class", "field")
	v.mechStage.epsR = kit.AsInput(kit.El("input", "type", "range", "id", v.pre+"-eps", "min", "-1", "max", "9", "step", "0.25",
		"value", strconv.Itoa(traceDefaultEps), "aria-describedby", v.pre+"-eps-out"))
	v.mechStage.epsOut = kit.Text("output", "", "id", v.pre+"-eps-out", "for", v.pre+"-eps")
	kit.AppendAll(v.mechStage.epsWrap, kit.Text("label", "ε (log scale, 0.1 … 10⁹)", "for", v.pre+"-eps"), v.mechStage.epsR, v.mechStage.epsOut)
	v.mechStage.sWrap = kit.El("div", "class", "field")
	v.mechStage.sR = kit.AsInput(kit.El("input", "type", "range", "id", v.pre+"-s", "min", "-2", "max", "3", "step", "0.25", "value", "0",
		"aria-describedby", v.pre+"-s-out"))
	v.mechStage.sOut = kit.Text("output", "", "id", v.pre+"-s-out", "for", v.pre+"-s")
	kit.AppendAll(v.mechStage.sWrap, kit.Text("label", "s = εn/(2D) (log scale, 0.01 … 1000)", "for", v.pre+"-s"), v.mechStage.sR, v.mechStage.sOut)
	v.mechStage.deltaF = kit.NewNumberField(v.pre+"-delta", "δ", "1e-5", "any", "for Algorithm 1 and Gaussian")
	v.mechStage.deltaWrap = v.mechStage.deltaF.Wrap
	kit.AppendAll(form, mw, v.mechStage.epsWrap, v.mechStage.sWrap, v.mechStage.deltaWrap)
	v.walk.output = kit.El("figure", "id", v.pre+"-output", "class", "plot")
	res := kit.El("p", "class", "result")
	css(res, "font-size", "16px")
	v.walk.excessOut = kit.Text("output", "—", "id", v.pre+"-excess")
	v.walk.violOut = kit.Text("output", "—", "id", v.pre+"-viol")
	kit.AppendAll(res, kit.Text("span", "excess/D = "), v.walk.excessOut, kit.Text("span", " · violations/D = "), v.walk.violOut)
	v.walk.outputNote = kit.Text("p", "", "class", "detail", "id", v.pre+"-output-note")
	v.walk.walkStatus = kit.Text("p", "", "class", "detail", "id", v.pre+"-walk-status", "aria-live", "polite")
	v.walk.hint = kit.Text("p", "", "class", "detail", "id", v.pre+"-hint", "aria-live", "polite")
	kit.Show(v.walk.hint, false)
	kit.AppendAll(s, form, v.narrationWithNote("The ℓ1 loss L(θ) = (1/N)Σᵢ‖θ − zᵢ‖₁ splits into columns; its minimiser is the column "+
		"majority, and the excess of θ is Σ_k |1 − 2m_k|·|θ_k − θ*_k| (m_k = share of 1s). The adversary rounds each θ_k at ½. "+
		"On a unanimous column a wrong rounding costs at least ½, so violations ≤ 2·excess: excess ≤ D/150 leaves at most D/75 "+
		"violations (D is the published length; see ", 1, ")."),
		res, v.walk.output, v.walk.outputNote, v.walk.hint, v.walk.walkStatus)
	v.root.AppendChild(s)
	kit.On(form, "submit", false, func(e kit.Event) { e.PreventDefault() })
	kit.On(v.mechStage.mech, "change", false, func(kit.Event) { v.mechChanged() })
	kit.On(v.mechStage.epsR, "input", false, func(kit.Event) { v.mechChanged() })
	kit.On(v.mechStage.sR, "input", false, func(kit.Event) { v.mechChanged() })
	kit.On(v.mechStage.deltaF.Input, "input", false, func(kit.Event) { v.mechChanged() })
	v.syncMechControls()
}

// readMech reads stage 3's controls.
func (v *traceView) readMech() (traceMech, bool) {
	m := traceMech{mech: lowerbound.Mechanism(v.mechStage.mech.Value())}
	m.logEps, _ = strconv.ParseFloat(v.mechStage.epsR.Value(), 64)
	m.logS, _ = strconv.ParseFloat(v.mechStage.sR.Value(), 64)
	d, err := v.mechStage.deltaF.Value("delta")
	if err == nil {
		err = checks.Delta("delta", d)
	}
	v.mechStage.deltaF.SetError(err)
	m.delta = d
	return m, err == nil || (m.mech != lowerbound.Exponential && m.mech != lowerbound.Gaussian)
}

func (v *traceView) syncMechControls() {
	m, _ := v.readMech()
	kit.Show(v.mechStage.epsWrap, m.mech == lowerbound.Exponential || m.mech == lowerbound.Gaussian)
	kit.Show(v.mechStage.deltaWrap, m.mech == lowerbound.Exponential || m.mech == lowerbound.Gaussian)
	kit.Show(v.mechStage.sWrap, m.mech == lowerbound.BoxExponential)
	v.mechStage.epsOut.SetTextContent("ε = " + fmtNum(m.eps()))
	// The sliders move log10 of the value: screen readers announce the value.
	v.mechStage.epsR.SetAttribute("aria-valuetext", "ε = "+fmtNum(m.eps()))
	v.mechStage.sR.SetAttribute("aria-valuetext", "s = "+fmtNum(m.s()))
	D := 0
	if v.rep != nil {
		D = v.rep.code.Length
	}
	rows := v.su.n * v.su.copies
	v.mechStage.sOut.SetTextContent(fmt.Sprintf("s = %s (ε_pure = 2Ds/N = %s)", fmtNum(m.s()), fmtNum(2*float64(D)*m.s()/float64(rows))))
}

func (v *traceView) mechChanged() {
	v.syncMechControls()
	v.runWalk()
}
