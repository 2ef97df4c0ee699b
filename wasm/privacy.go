//go:build js && wasm

package main

import (
	"syscall/js"

	"github.com/dpsample/dpsample/core/checks"
	"github.com/dpsample/dpsample/core/privacy"
)

// privacyAPI is dpsample.privacy: the Gaussian-DP curve of Lemma E.1
// (corrected), its calibration and inverse. Every call returns a Promise.
func privacyAPI() map[string]any {
	return map[string]any{
		// delta(gdp, epsilon) → δ_s(ε)
		"delta": export(func(a []js.Value) (any, error) {
			s, err := numberRule(arg(a, 0), "gdp", checks.Positive)
			if err != nil {
				return nil, err
			}
			eps, err := number(arg(a, 1), "epsilon")
			if err != nil {
				return nil, err
			}
			return privacy.Delta(s, eps)
		}),
		// calibrate(epsilon, delta) → largest s with δ_s(ε) ≤ δ
		"calibrate": export(func(a []js.Value) (any, error) {
			eps, err := numberRule(arg(a, 0), "epsilon", checks.Epsilon)
			if err != nil {
				return nil, err
			}
			delta, err := numberRule(arg(a, 1), "delta", checks.Delta)
			if err != nil {
				return nil, err
			}
			return privacy.Calibrate(eps, delta)
		}),
		// epsilon(gdp, delta) → smallest ε with δ_s(ε) ≤ δ
		"epsilon": export(func(a []js.Value) (any, error) {
			s, err := numberRule(arg(a, 0), "gdp", checks.Positive)
			if err != nil {
				return nil, err
			}
			delta, err := numberRule(arg(a, 1), "delta", checks.Delta)
			if err != nil {
				return nil, err
			}
			return privacy.Epsilon(s, delta)
		}),
	}
}
