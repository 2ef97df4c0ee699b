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
