package privacy_test

import (
	"fmt"

	"github.com/dpsample/dpsample/core/privacy"
)

// Calibrate finds the largest Gaussian-DP parameter s whose curve δ_s(ε)
// (Lemma E.1, corrected) stays within the budget; Delta reads the curve back.
func ExampleCalibrate() {
	s, err := privacy.Calibrate(1, 1e-5)
	if err != nil {
		panic(err)
	}
	d, _ := privacy.Delta(s, 1)
	fmt.Printf("s* = %.6f, δ_s*(1) = %.3g\n", s, d)
	eps, _ := privacy.Epsilon(s, 1e-5)
	fmt.Printf("ε(s*, 1e-5) = %.6f\n", eps)
	// Output:
	// s* = 0.268051, δ_s*(1) = 1e-05
	// ε(s*, 1e-5) = 1.000000
}

// Group gives the guarantee for k records at once, e.g. one person who
// contributed k rows (Proposition C.2).
func ExampleGroup() {
	for _, k := range []int{1, 2, 5} {
		eps, delta, err := privacy.Group(k, 0.5, 1e-6)
		if err != nil {
			panic(err)
		}
		fmt.Printf("k = %d: (%g, %.3g)\n", k, eps, delta)
	}
	// Output:
	// k = 1: (0.5, 1e-06)
	// k = 2: (1, 3.3e-06)
	// k = 5: (2.5, 3.69e-05)
}
