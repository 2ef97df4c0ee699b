package mechanism

import (
	"math"

	"github.com/dpsample/dpsample/core/checks"
	"github.com/dpsample/dpsample/core/privacy"
)

// Calibration are the public inputs of the privacy calibration.
type Calibration struct {
	N, D, Rank int     // records, dimension, public rank k (0 means d)
	G          float64 // Lipschitz constant of the loss (public bound)
	Radius     float64 // C: public bound on ‖θ*‖ (LLL Assumption 1.2)
	Epsilon    float64
	Delta      float64
	Samples    int     // m ≥ 1 released samples (0 means 1)
	EtaRule    EtaRule // "optimal" (default) or "paper"
	Exact      bool    // the sampler is exact (TV = 0)
	// MaxTV, if > 0, caps the total variation of all m samples together
	// (a ledger's share, privacy.Ledger.TVAllowance): TV per sample =
	// min(Split.TV, MaxTV)/m, and DeltaSampler = (1+e^ε)·m·TV shrinks with it.
	MaxTV float64
}

// Calibrated are the parameters of Algorithm 1 for a Calibration.
type Calibrated struct {
	Eta, Mu      float64
	GDP          float64 // s per sample = 2G√η/(n√μ)
	GDPTotal     float64 // √m·s: the GDP of all m samples together
	DeltaCurve   float64 // δ given to the GDP curve: δ_{GDPTotal}(ε) ≤ DeltaCurve
	DeltaSampler float64 // δ given to the sampler: (1+e^ε)·m·TV
	TV           float64 // TV budget of EACH sample's sampler (0 if exact)
}

// EtaRule is how η is chosen (Request.EtaRule, Plan.EtaRule,
// Calibration.EtaRule): EtaOptimal or EtaPaper. JSON: the string itself.
type EtaRule string

// Eta rules.
const (
	EtaOptimal EtaRule = "optimal"
	EtaPaper   EtaRule = "paper"
)

// Calibrate computes η and μ of Algorithm 1.
//
//   - δ < 1/n (checks.DeltaForN: a δ ≥ 1/n permits publishing a row).
//   - δ split: exact sampler → DeltaCurve = δ, TV = 0; otherwise
//     privacy.Split (half of δ to the sampler), and each of the m samples gets
//     TV = Split.TV/m, since m independent draws are within m·TV of the ideal
//     joint law. Under a ledger the total is capped at MaxTV (the sampler
//     runs a little longer; the curve's half of δ is unchanged).
//   - s_total = privacy.Calibrate(ε, DeltaCurve), s = s_total/√m.
//   - η: "optimal" minimises the bound μC²/2·… + k/η of Theorem 2.2's proof
//     at fixed s, η = n·s·√k/(√2·G·C); "paper" is LLL's η = nε√(k ln(1/δ))/(GC).
//   - μ = 4ηG²/(n²s²), i.e. s = 2G√η/(n√μ) (replace-one, Lemma E.1).
//
// Errors name the field ("n", "d", "rank", "G", "radius", "epsilon",
// "delta", "samples", "etaRule").
func Calibrate(in Calibration) (Calibrated, error) {
	if err := checks.IntRange("n", in.N, 2, maxN); err != nil {
		return Calibrated{}, err
	}
	if err := checks.IntRange("d", in.D, 1, maxD); err != nil {
		return Calibrated{}, err
	}
	k := in.Rank
	if k == 0 {
		k = in.D
	}
	if err := checks.IntRange("rank", k, 1, in.D); err != nil {
		return Calibrated{}, err
	}
	if err := checks.Positive("G", in.G); err != nil {
		return Calibrated{}, err
	}
	if err := checks.Positive("radius", in.Radius); err != nil {
		return Calibrated{}, err
	}
	if err := checks.Epsilon("epsilon", in.Epsilon); err != nil {
		return Calibrated{}, err
	}
	if err := checks.DeltaForN("delta", in.Delta, in.N); err != nil {
		return Calibrated{}, err
	}
	m := in.Samples
	if m == 0 {
		m = 1
	}
	if err := checks.IntRange("samples", m, 1, maxSamples); err != nil {
		return Calibrated{}, err
	}
	if err := checks.NonNegative("maxTV", in.MaxTV); err != nil {
		return Calibrated{}, err
	}
	var c Calibrated
	if in.Exact {
		c.DeltaCurve = in.Delta
	} else {
		b, err := privacy.Split(in.Epsilon, in.Delta)
		if err != nil {
			return Calibrated{}, err
		}
		c.DeltaCurve, c.DeltaSampler, c.TV = b.DeltaCurve, b.DeltaSampler, b.TV/float64(m)
		if in.MaxTV > 0 && in.MaxTV < b.TV {
			// (1+e^ε)·MaxTV in log space, as Split forms its TV.
			c.TV = in.MaxTV / float64(m)
			c.DeltaSampler = math.Exp(math.Log(in.MaxTV) + in.Epsilon + math.Log1p(math.Exp(-in.Epsilon)))
		}
	}
	sTot, err := privacy.Calibrate(in.Epsilon, c.DeltaCurve)
	if err != nil {
		return Calibrated{}, err
	}
	c.GDPTotal = sTot
	c.GDP = sTot / math.Sqrt(float64(m))
	n := float64(in.N)
	switch in.EtaRule {
	case "", EtaOptimal:
		c.Eta = n * c.GDP * math.Sqrt(float64(k)) / (math.Sqrt2 * in.G * in.Radius)
	case EtaPaper:
		c.Eta = n * in.Epsilon * math.Sqrt(float64(k)*math.Log(1/in.Delta)) / (in.G * in.Radius)
	default:
		return Calibrated{}, &checks.Error{Field: "etaRule", Rule: `"optimal" or "paper"`, Got: `"` + string(in.EtaRule) + `"`}
	}
	c.Mu = 4 * c.Eta * in.G * in.G / (n * n * c.GDP * c.GDP)
	for _, v := range []float64{c.Eta, c.Mu, c.Eta * c.Mu, c.Eta * in.G} {
		if !(v > 0) || math.IsInf(v, 0) {
			return Calibrated{}, checks.Errorf("radius", "such that η and μ are finite and non-zero (got η=%s, μ=%s); check radius, G, epsilon and n",
				checks.Fmt(c.Eta), checks.Fmt(c.Mu))
		}
	}
	return c, nil
}

// PaperConstants returns LLL's literal Algorithm 1 parameters
// η = nε√(k ln(1/δ))/(GC), μ = 8ηG²/(n²ε²), for which s = ε/√2 whatever δ:
// they do NOT give (ε, δ)-DP (see the audit tests). For tests and display only.
func PaperConstants(n, k int, g, radius, eps, delta float64) (eta, mu float64) {
	eta = float64(n) * eps * math.Sqrt(float64(k)*math.Log(1/delta)) / (g * radius)
	mu = 8 * eta * g * g / (float64(n*n) * eps * eps)
	return eta, mu
}

// Size limits (absurd sizes are rejected before any allocation).
const (
	maxN       = 10_000_000
	maxD       = 1_000_000
	maxCells   = 100_000_000 // n·d
	maxSamples = 10_000
)
