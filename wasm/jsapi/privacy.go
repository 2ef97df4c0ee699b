//go:build js && wasm

package jsapi

import (
	"syscall/js"

	"github.com/dpsample/dpsample/core/checks"
	"github.com/dpsample/dpsample/core/privacy"
	"github.com/dpsample/dpsample/wasm/internal/jsio"
)

// privacyAPI is dpsample.privacy: the Gaussian-DP curve of Lemma E.1
// (corrected), its calibration and inverse. Every call returns a Promise.
func privacyAPI() map[string]any {
	return map[string]any{
		// delta(gdp, epsilon) → δ_s(ε)
		"delta": jsio.Export(func(a []js.Value) (any, error) {
			s, err := jsio.NumberRule(jsio.Arg(a, 0), "gdp", checks.Positive)
			if err != nil {
				return nil, err
			}
			eps, err := jsio.Number(jsio.Arg(a, 1), "epsilon")
			if err != nil {
				return nil, err
			}
			return privacy.Delta(s, eps)
		}),
		// calibrate(epsilon, delta) → largest s with δ_s(ε) ≤ δ
		"calibrate": jsio.Export(func(a []js.Value) (any, error) {
			eps, err := jsio.NumberRule(jsio.Arg(a, 0), "epsilon", checks.Epsilon)
			if err != nil {
				return nil, err
			}
			delta, err := jsio.NumberRule(jsio.Arg(a, 1), "delta", checks.Delta)
			if err != nil {
				return nil, err
			}
			return privacy.Calibrate(eps, delta)
		}),
		// tradeoff(gdp, alpha) → T_μ(α) = Φ(Φ⁻¹(1 − α) − μ): the smallest miss
		// rate of a membership test with false-alarm rate α (issue 44).
		"tradeoff": jsio.Export(func(a []js.Value) (any, error) {
			mu, err := jsio.Number(jsio.Arg(a, 0), "gdp")
			if err != nil {
				return nil, err
			}
			alpha, err := jsio.Number(jsio.Arg(a, 1), "alpha")
			if err != nil {
				return nil, err
			}
			return privacy.Tradeoff(mu, alpha)
		}),
		// catch(gdp, alpha, tv?) → the largest chance of catching a person at
		// false-alarm rate α: Φ̄(Φ̄⁻¹(α + tv) − μ) + tv (1 − T_μ(α) when tv = 0).
		// A ledger's state: catch(state.spent.gdp, alpha, state.spent.tv).
		"catch": jsio.Export(func(a []js.Value) (any, error) {
			mu, err := jsio.Number(jsio.Arg(a, 0), "gdp")
			if err != nil {
				return nil, err
			}
			alpha, err := jsio.Number(jsio.Arg(a, 1), "alpha")
			if err != nil {
				return nil, err
			}
			tv := 0.0
			if t := jsio.Arg(a, 2); t.Type() != js.TypeUndefined {
				if tv, err = jsio.Number(t, "tv"); err != nil {
					return nil, err
				}
			}
			return privacy.Catch(mu, alpha, tv)
		}),
		// epsilon(gdp, delta) → smallest ε with δ_s(ε) ≤ δ
		"epsilon": jsio.Export(func(a []js.Value) (any, error) {
			s, err := jsio.NumberRule(jsio.Arg(a, 0), "gdp", checks.Positive)
			if err != nil {
				return nil, err
			}
			delta, err := jsio.NumberRule(jsio.Arg(a, 1), "delta", checks.Delta)
			if err != nil {
				return nil, err
			}
			return privacy.Epsilon(s, delta)
		}),
	}
}
