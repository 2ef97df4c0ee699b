package privacy_test

import (
	"fmt"
	"math"

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

// ExampleComposedEpsilon prints docs/PRIVACY.md's composition table: k
// releases of one s-GDP mechanism, each calibrated to (ε₁, δ₁ = δ/(2k)) with
// δ = 1e-5, accounted three ways at a total δ ≤ 1e-5 — basic composition
// (kε₁ at kδ₁), advanced composition (Dwork, Rothblum & Vadhan 2010; Dwork &
// Roth 2014, Theorem 3.20: ε₁√(2k ln(1/δ′)) + kε₁(e^ε₁ − 1) at kδ₁ + δ′,
// δ′ = δ/2) and the ledger's exact GDP composition (√k·s, ε at δ).
func ExampleComposedEpsilon() {
	const delta = 1e-5
	fmt.Println("| ε₁ per release | k | basic | advanced (DRV) | GDP ledger (exact) |")
	fmt.Println("|---|---|---|---|---|")
	for _, e1 := range []float64{1, 0.5, 0.1} {
		for _, k := range []int{1, 3, 10, 30, 100, 1000} {
			kf := float64(k)
			s, err := privacy.Calibrate(e1, delta/(2*kf))
			if err != nil {
				panic(err)
			}
			adv := math.Sqrt(2*kf*math.Log(2/delta))*e1 + kf*e1*math.Expm1(e1)
			gdp, _, ok := privacy.ComposedEpsilon(math.Sqrt(kf)*s, 0, delta)
			if !ok {
				panic("infeasible")
			}
			fmt.Printf("| %g | %d | %.3g | %.3g | %.3g |\n", e1, k, kf*e1, adv, gdp)
		}
	}
	// Output:
	// | ε₁ per release | k | basic | advanced (DRV) | GDP ledger (exact) |
	// |---|---|---|---|---|
	// | 1 | 1 | 1 | 6.66 | 0.957 |
	// | 1 | 3 | 3 | 13.7 | 1.64 |
	// | 1 | 10 | 10 | 32.8 | 3.03 |
	// | 1 | 30 | 30 | 78.6 | 5.39 |
	// | 1 | 100 | 100 | 221 | 10.5 |
	// | 1 | 1000 | 1e+03 | 1.87e+03 | 43.4 |
	// | 0.5 | 1 | 0.5 | 2.79 | 0.476 |
	// | 0.5 | 3 | 1.5 | 5.25 | 0.809 |
	// | 0.5 | 10 | 5 | 11.1 | 1.46 |
	// | 0.5 | 30 | 15 | 23.3 | 2.55 |
	// | 0.5 | 100 | 50 | 57.1 | 4.78 |
	// | 0.5 | 1000 | 500 | 402 | 17.6 |
	// | 0.1 | 1 | 0.1 | 0.505 | 0.0942 |
	// | 0.1 | 3 | 0.3 | 0.887 | 0.158 |
	// | 0.1 | 10 | 1 | 1.67 | 0.28 |
	// | 0.1 | 30 | 3 | 3.02 | 0.476 |
	// | 0.1 | 100 | 10 | 5.99 | 0.861 |
	// | 0.1 | 1000 | 100 | 26.1 | 2.77 |
}

// ExampleLedger prints how many releases requested at (ε₁, δ = 1e-5) fit in
// the page's default budget (ε = 3, δ = 1e-5), with an exact sampler (s =
// Calibrate(ε₁, δ)) and with an approximate one (s = Calibrate(ε₁, δ/2), TV
// its proportional share), and what those releases spend; basic composition
// would allow ⌊3/ε₁⌋ releases, and only if each asked for δ/k.
func ExampleLedger() {
	const eps, delta = 3, 1e-5
	fmt.Println("| ε₁ per release | exact sampler: releases | spent ε | approximate sampler: releases | spent ε | basic composition |")
	fmt.Println("|---|---|---|---|---|---|")
	for _, e1 := range []float64{0.25, 0.5, 1, 1.5, 2, 3} {
		row := fmt.Sprintf("| %g |", e1)
		for _, approx := range []bool{false, true} {
			l, err := privacy.NewLedger(eps, delta)
			if err != nil {
				panic(err)
			}
			d := delta
			if approx {
				d = delta / 2
			}
			s, _ := privacy.Calibrate(e1, d)
			k := 0
			for {
				tv := 0.0
				if approx {
					tv = l.TVAllowance(s)
				}
				if _, err := l.Charge(privacy.Release{GDP: s, TV: tv}); err != nil {
					break
				}
				k++
			}
			row += fmt.Sprintf(" %d | %.3g |", k, l.State().Spent.Epsilon)
		}
		fmt.Printf("%s %d |\n", row, int(eps/e1))
	}
	// Output:
	// | ε₁ per release | exact sampler: releases | spent ε | approximate sampler: releases | spent ε | basic composition |
	// |---|---|---|---|---|---|
	// | 0.25 | 85 | 2.88 | 94 | 3 | 12 |
	// | 0.5 | 23 | 2.83 | 26 | 2.99 | 6 |
	// | 1 | 6 | 2.71 | 7 | 2.91 | 3 |
	// | 1.5 | 3 | 2.77 | 3 | 2.72 | 2 |
	// | 2 | 1 | 2 | 2 | 2.93 | 1 |
	// | 3 | 0 | 0 | 1 | 3 | 1 |
}
