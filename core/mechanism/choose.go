package mechanism

import (
	"fmt"

	"github.com/dpsample/dpsample/core/checks"
	"github.com/dpsample/dpsample/core/loss"
	"github.com/dpsample/dpsample/core/sampler"
)

// SamplerSmooth forces the first-order proximal sampler (smooth losses only).
const SamplerSmooth Sampler = "smooth"

// MethodFirstOrder is Plan.Method of the first-order proximal sampler
// (sampler.RunFirstOrder, smooth-sampler.md); Plan.Sampler is then
// "proximal" (an approximate sampler with a TV budget).
const MethodFirstOrder = "first-order"

// samplerChoice is the outcome of chooseSampler.
type samplerChoice struct {
	exact      string // exact method, or ""
	firstOrder bool   // first-order proximal sampler
	why        string // the reason, for Plan.Why
}

// chooseSampler applies the request's sampler choice to the loss and the
// dimension (all public): "auto" picks, in order, an exact sampler, the
// first-order sampler when the loss is smooth (loss.Smooth), else the
// zeroth-order one; "exact", "smooth" and "proximal" force theirs, and an
// unavailable forced choice is an error naming the field "sampler" and the
// loss.
func chooseSampler(choice Sampler, set *loss.Set) (samplerChoice, error) {
	k, d := set.Kind(), set.Dim()
	method := exactMethod(k, d)
	beta, smooth := set.Smooth()
	switch choice {
	case "", SamplerAuto:
		switch {
		case method != "":
			return samplerChoice{exact: method, why: fmt.Sprintf("auto: exact sampler %q exists for loss %q in dimension %d (no sampling error)", method, k.String(), d)}, nil
		case smooth:
			return samplerChoice{firstOrder: true, why: fmt.Sprintf("auto: loss %q is smooth (φ'' ≤ β = %g), so the exact first-order RGO applies (step set by the curvature β·clip², not by G)", k.String(), beta)}, nil
		}
		return samplerChoice{why: fmt.Sprintf("auto: loss %q is not smooth and has no exact sampler in dimension %d: zeroth-order proximal sampler (loss values only)", k.String(), d)}, nil
	case SamplerExact:
		if method == "" {
			return samplerChoice{}, checks.Errorf("sampler", `"proximal", "smooth" or "auto" for loss %q in dimension %d ("exact" is available for loss "l1" and "linear" in any dimension and for every loss in dimension 1)`, k.String(), d)
		}
		return samplerChoice{exact: method, why: fmt.Sprintf("requested: exact sampler %q", method)}, nil
	case SamplerSmooth:
		if !smooth {
			return samplerChoice{}, checks.Errorf("sampler", `"auto" or "proximal" for loss %q, which is not smooth in ⟨θ,x⟩ ("smooth" needs "logistic", "huber", "smooth-hinge" or "smooth-quantile")`, k.String())
		}
		return samplerChoice{firstOrder: true, why: fmt.Sprintf("requested: first-order RGO for the smooth loss %q (β = %g)", k.String(), beta)}, nil
	case SamplerProximal:
		return samplerChoice{why: "requested: zeroth-order proximal sampler (loss values only)"}, nil
	}
	return samplerChoice{}, &checks.Error{Field: "sampler", Rule: `one of "auto", "proximal", "smooth", "exact"`, Got: fmt.Sprintf("%q", choice)}
}

// planFirstOrder fills the first-order fields of pl (λ, K, M, T, the
// acceptance bound and the TV split) from the data-independent plan.
func planFirstOrder(pl *Plan, p *prepared, cal Calibrated) error {
	fo, err := sampler.NewFirstOrderPlan(sampler.FirstOrderParams{N: pl.N, D: pl.D, G: pl.G, Curv: p.set.Curvature(),
		Spread: p.set.GradSpread(), Eta: cal.Eta, Mu: cal.Mu, TV: cal.TV, Work: p.work})
	if err != nil {
		return err
	}
	p.fo, p.firstOrder = fo, true
	pl.Sampler, pl.Method = SamplerProximal, MethodFirstOrder
	pl.Steps, pl.Lambda, pl.RadiusBall = fo.Steps, fo.Lambda, fo.RadiusBall
	pl.Curvature, pl.AnchorMax, pl.TrialBudget, pl.AcceptMin = fo.Curv, fo.AnchorMax, fo.TrialBudget, fo.PMin
	pl.TVMix, pl.TVRGO = fo.TauC, fo.TauFail
	pl.FixedWork, pl.TrialTotal, pl.TVOver = fo.Work != sampler.WorkAdaptive, fo.TrialTotal, fo.TauOver
	pl.ExpectedLossEvals = fo.ExpectedLossEvals * float64(pl.Samples)
	return nil
}
