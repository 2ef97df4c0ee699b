package privacy

import (
	"math"

	"github.com/dpsample/dpsample/core/checks"
)

// LogDelta returns log δ_s(ε) for the s-GDP curve
//
//	δ_s(ε) = Φ(−ε/s + s/2) − e^ε·Φ(−ε/s − s/2)
//
// (Lemma E.1, with the paper's typo corrected; see the package doc), evaluated
// as A + log1p(−exp(B − A)) with A = logΦ(s/2 − ε/s), B = ε + logΦ(−s/2 − ε/s).
// It returns −Inf when δ underflows to 0 (B ≥ A in floating point). s must be
// finite and > 0, ε finite (ε may be ≤ 0: the curve is defined on all of ℝ).
func LogDelta(s, eps float64) (float64, error) {
	if err := checks.Positive("gdp", s); err != nil {
		return 0, err
	}
	if err := checks.Finite("epsilon", eps); err != nil {
		return 0, err
	}
	return logDelta(s, eps), nil
}

// logDelta is LogDelta without validation, for the calibration loops.
func logDelta(s, eps float64) float64 {
	a := LogPhi(s/2 - eps/s)
	b := eps + LogPhi(-s/2-eps/s)
	if b >= a || math.IsInf(a, -1) {
		return math.Inf(-1)
	}
	return a + math.Log1p(-math.Exp(b-a))
}

// Delta returns δ_s(ε), the smallest δ for which an s-GDP mechanism is
// (ε, δ)-DP. See LogDelta for the formula and the domain.
func Delta(s, eps float64) (float64, error) {
	ld, err := LogDelta(s, eps)
	if err != nil {
		return 0, err
	}
	return math.Exp(ld), nil
}

// CurveDelta is the δ at ε ≥ 0 of a g-GDP composition within total
// variation tv of its exact law: δ_g(ε) + (1 + e^ε)·tv (g = 0: no GDP part).
// For a ledger it is the curve of what is spent (Spent.GDP, Spent.TV) or of
// the budget (Budget.GDP, Budget.TV; at the budget's ε it is its δ).
func CurveDelta(g, tv, eps float64) float64 {
	d := 0.0
	if g > 0 {
		d = math.Exp(logDelta(g, eps))
	}
	if tv > 0 {
		d += math.Exp(math.Log(tv) + eps + math.Log1p(math.Exp(-eps)))
	}
	return d
}

// curveArgmin is ε* = max(0, g·(z − g/2)), z = Φ⁻¹(1 − tv), where CurveDelta(g,
// tv, ·) is smallest: it decreases on [0, ε*] and increases beyond, since its
// derivative is e^ε·(tv − Φ(−ε/g − g/2)) (see ComposedEpsilon). With tv = 0 it
// decreases everywhere (+Inf); with g = 0 or tv ≥ 1 it increases (0).
func curveArgmin(g, tv float64) float64 {
	switch {
	case tv == 0:
		return math.Inf(1)
	case g > 0 && tv < 1: // tv ≥ 1 (merged histories): Φ⁻¹ of 1 − tv was NaN
		return math.Max(0, g*(PhiInvUpper(tv)-g/2))
	}
	return 0
}

// GuaranteeDelta is the δ that a g-GDP composition within total variation tv
// guarantees at ε ≥ 0: the smallest CurveDelta(g, tv, ε′) over ε′ ≤ ε, that is
// CurveDelta(g, tv, min(ε, ε*)). An (ε′, δ)-DP mechanism is (ε, δ)-DP at every
// ε ≥ ε′, so a guarantee never grows with ε; CurveDelta's sampler term
// (1 + e^ε)·tv does, and past ε* (≈ 3.26 for the page's budget ε = 3, δ = 10⁻⁵)
// CurveDelta rises — drawn as it was, the ledger's chart read as if a larger ε
// allowed more δ (issue 45). At ε ≤ ε* both are the same; ComposedEpsilon
// searches only there.
func GuaranteeDelta(g, tv, eps float64) float64 {
	return CurveDelta(g, tv, math.Min(eps, curveArgmin(g, tv)))
}

// ComposedEpsilon returns the smallest ε ≥ 0 with
//
//	f(ε) = δ_g(ε) + (1 + e^ε)·tv ≤ δ,
//
// the (ε, δ) guarantee of a g-GDP composition whose law is within total
// variation tv of the exact one (see Budget). δ_g is decreasing and
// (1+e^ε)·tv increasing in ε; f′(ε) = e^ε·(tv − Φ(−ε/g − g/2)) vanishes at
// ε* = g·(z − g/2), z = Φ⁻¹(1 − tv), so f decreases on [0, ε*] and the answer
// is found by bisection there. ok is false when f(ε*) > δ (no ε works); the
// result is then (max(ε*, 0), f there). g = 0 means no GDP release (f =
// (1+e^ε)·tv, smallest at ε = 0), and so does tv ≥ 1, which a merge of two
// devices' histories can reach (f increases; before issue 41 ε* was NaN and
// so were the ledger's spent ε and δ). The returned ε is the feasible end of
// the bracket (f(ε) ≤ δ holds there).
func ComposedEpsilon(g, tv, delta float64) (eps, atDelta float64, ok bool) {
	f := func(e float64) float64 { return CurveDelta(g, tv, e) }
	if tv == 0 {
		if g == 0 {
			return 0, 0, true
		}
		e, err := Epsilon(g, delta)
		if err != nil {
			return 0, f(0), false
		}
		return e, delta, true
	}
	star := curveArgmin(g, tv) // tv > 0 here: finite
	if f(0) <= delta {
		return 0, delta, true
	}
	if fs := f(star); !(fs <= delta) {
		return star, fs, false
	}
	lo, hi := 0.0, star // f(lo) > δ ≥ f(hi)
	for hi-lo > relTol*hi {
		mid := lo + (hi-lo)/2
		if mid <= lo || mid >= hi {
			break
		}
		if f(mid) <= delta {
			hi = mid
		} else {
			lo = mid
		}
	}
	return hi, delta, true
}
