package baseline

import (
	"math"

	"github.com/dpsample/dpsample/core/checks"
	"github.com/dpsample/dpsample/core/privacy"
)

// GD are the public parameters of a T-step DP-GD run (accounting and
// ledger charge only; the runs themselves are core/dpgd's).
type GD struct {
	Epsilon, Delta float64
	Radius         float64 // C: the iterates are projected onto ‖θ‖₂ ≤ C
	G              float64 // Lipschitz constant of each loss (logistic with ‖x‖ ≤ 1: G = 1)
	Steps          int     // T
}

// Sigma returns the per-step noise scale of T-step DP-GD for n records: replacing
// one record moves the mean gradient by at most 2G/n, so one step with noise
// N(0, σ²I) is (2G/(nσ))-GDP, T steps compose to √T·2G/(nσ) (Dong–Roth–Su,
// Corollary 3.3), and σ = 2G√T/(n·s*) with s* = privacy.Calibrate(ε, δ)
// makes the whole run (ε, δ)-DP (the same accountant as Algorithm 1).
func (p GD) Sigma(n int) (float64, error) {
	if err := p.validate(n); err != nil {
		return 0, err
	}
	s, err := privacy.Calibrate(p.Epsilon, p.Delta)
	if err != nil {
		return 0, err
	}
	return 2 * p.G * math.Sqrt(float64(p.Steps)) / (float64(n) * s), nil
}

func (p GD) validate(n int) error {
	return checks.First(budget(n, p.Epsilon, p.Delta),
		checks.Positive("radius", p.Radius),
		checks.Positive("G", p.G),
		checks.IntRange("steps", p.Steps, 1, MaxSteps))
}

// budget checks the size and the (ε, δ) every baseline is calibrated for;
// δ < 1/n is the mechanism's rule too (checks.DeltaForN).
func budget(n int, eps, delta float64) error {
	return checks.First(checks.IntRange("n", n, 2, MaxN), checks.Epsilon("epsilon", eps), checks.DeltaForN("delta", delta, n))
}

// project maps θ onto the ball ‖θ‖₂ ≤ c.
func project(theta []float64, c float64) {
	if nn := math.Sqrt(dot(theta, theta)); nn > c {
		for j := range theta {
			theta[j] *= c / nn
		}
	}
}
