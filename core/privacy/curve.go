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

// PaperDelta is the curve as printed in Lemma E.1 of the paper,
// Φ(−ε/2 + s/2) − e^ε·Φ(−ε/s − s/2). It is WRONG (a typo: the first term
// should read −ε/s) and exists only so tests can show that it fails the
// references; never use it for accounting.
func PaperDelta(s, eps float64) float64 {
	return Phi(-eps/2+s/2) - math.Exp(eps)*Phi(-eps/s-s/2)
}
