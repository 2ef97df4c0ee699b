package privacy

import (
	"math"

	"github.com/dpsample/dpsample/core/checks"
)

// MinAlpha and MaxAlpha bound the false-alarm rate α of Tradeoff.
const (
	MinAlpha = 1e-9
	MaxAlpha = 1 - 1e-9
)

// Tradeoff is the Gaussian-DP trade-off function (Dong, Roth & Su 2022,
// Definition 2.5 and Equation (4))
//
//	T_μ(α) = Φ(Φ⁻¹(1 − α) − μ),
//
// the smallest miss rate (type II error) of any test that tells a μ-GDP
// release on a table with a person's row from one on the table without it,
// when the test's false-alarm rate (type I error) is α. Its complement
// 1 − T_μ(α) = Φ̄(Φ̄⁻¹(α) − μ) (Catch) is the largest chance of catching
// the person; without any release it is α. Both are computed in the tail
// that keeps full relative accuracy (PhiInvUpper, Phi). Errors name "gdp" or
// "alpha"; α must lie in [MinAlpha, MaxAlpha].
func Tradeoff(mu, alpha float64) (float64, error) {
	if err := checkTradeoff(mu, alpha, 0); err != nil {
		return 0, err
	}
	return tradeoff(mu, alpha), nil
}

func tradeoff(mu, alpha float64) float64 { return Phi(PhiInvUpper(alpha) - mu) }

// Catch is 1 − T_μ(α) = Φ̄(Φ̄⁻¹(α) − μ) for a release within total
// variation tv of a μ-GDP one (a proximal sampler's slack, a ledger's ΣTV):
//
//	catch ≤ Φ̄(Φ̄⁻¹(α + tv) − μ) + tv   (capped at 1),
//
// because a test whose false-alarm rate on the release is α has rate at most
// α + tv on the exact mechanism, catches there at most 1 − T_μ(α + tv), and
// catches on the release at most tv more. With tv = 0 it is the exact
// 1 − T_μ(α). Errors name "gdp", "alpha" or "tv".
func Catch(mu, alpha, tv float64) (float64, error) {
	if err := checkTradeoff(mu, alpha, tv); err != nil {
		return 0, err
	}
	a := alpha + tv
	if a >= 1 {
		return 1, nil
	}
	return math.Min(1, Phi(mu-PhiInvUpper(a))+tv), nil
}

// CatchClosed is Catch(μ, α, 0) over the closed interval α ∈ [0, 1]: 0 at
// α = 0 and 1 at α = 1, the ends Catch's domain leaves out, and α clamped
// to [MinAlpha, MaxAlpha] between them. For drawing the trade-off and for a
// bound at an interval's end (an error, μ < 0 or NaN, gives 1: no promise).
func CatchClosed(mu, alpha float64) float64 {
	switch {
	case alpha <= 0:
		return 0
	case alpha >= 1:
		return 1
	}
	c, err := Catch(mu, math.Min(math.Max(alpha, MinAlpha), MaxAlpha), 0)
	if err != nil {
		return 1
	}
	return c
}

// CatchCurve is the promise of a μ-GDP release drawn: (α, CatchClosed(μ, α))
// for α = 0, 1/k, …, 1.
func CatchCurve(mu float64, k int) [][2]float64 {
	out := make([][2]float64, 0, k+1)
	for i := 0; i <= k; i++ {
		a := float64(i) / float64(k)
		out = append(out, [2]float64{a, CatchClosed(mu, a)})
	}
	return out
}

// LedgerCatch is Catch for everything a ledger's history released: the
// releases compose to μ = √Σ s_i² and their slacks add, tv = Σ TV_i (the
// ledger's own composition, Dong–Roth–Su Corollary 3.3 and the coupling of
// the package doc).
func LedgerCatch(st LedgerState, alpha float64) (float64, error) {
	return Catch(st.Spent.GDP, alpha, st.Spent.TV)
}

func checkTradeoff(mu, alpha, tv float64) error {
	return checks.First(checks.NonNegative("gdp", mu), checks.InRange("alpha", alpha, MinAlpha, MaxAlpha),
		checks.InRange("tv", tv, 0, 1))
}
