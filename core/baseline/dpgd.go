package baseline

import (
	"context"
	"math"
	"math/rand/v2"

	"github.com/dpsample/dpsample/core/checks"
	"github.com/dpsample/dpsample/core/privacy"
)

// GD are the public parameters of NoisyGD.
type GD struct {
	Epsilon, Delta float64
	Radius         float64 // C: the iterates are projected onto ‖θ‖₂ ≤ C
	G              float64 // Lipschitz constant of each loss (logistic with ‖x‖ ≤ 1: G = 1)
	Steps          int     // T
}

// Sigma returns the per-step noise scale of NoisyGD for n records: replacing
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

// budget checks the size and the (ε, δ) every baseline is calibrated for.
func budget(n int, eps, delta float64) error {
	return checks.First(checks.IntRange("n", n, 2, MaxN), checks.Epsilon("epsilon", eps), checks.Delta("delta", delta))
}

// NoisyGD runs projected noisy gradient descent on the mean logistic loss
// L(θ) = (1/n)Σ log(1 + exp(−y_i⟨θ, x_i⟩)) (rows with ‖x_i‖ ≤ 1):
//
//	θ_{t+1} = Π_C(θ_t − h·(∇L(θ_t) + N(0, σ²I))),  θ_0 = 0,
//	h = C/(√T·√(G² + dσ²)),
//
// and returns the average of θ_1 … θ_T (post-processing). The step size is the
// one that minimises the projected stochastic-gradient bound
// E L(θ̄) − min_{‖θ‖≤C} L ≤ 2C·√(G² + dσ²)/√T, which grows like √d once
// dσ² > G² (Bassily–Smith–Thakurta 2014, Theorem 2.4, up to constants).
func NoisyGD(ctx context.Context, x [][]float64, y []float64, p GD, r *rand.Rand) ([]float64, error) {
	n := len(x)
	sigma, err := p.Sigma(n)
	if err != nil {
		return nil, err
	}
	if _, _, err := checks.Matrix("x", x); err != nil {
		return nil, err
	}
	if err := checks.Vector("y", y, n); err != nil {
		return nil, err
	}
	d := len(x[0])
	h := p.Radius / (math.Sqrt(float64(p.Steps)) * math.Sqrt(p.G*p.G+float64(d)*sigma*sigma))
	theta := make([]float64, d)
	grad := make([]float64, d)
	avg := make([]float64, d)
	for t := 0; t < p.Steps; t++ {
		if t%16 == 0 && ctx.Err() != nil {
			return nil, ctx.Err()
		}
		LogisticGradient(x, y, theta, grad)
		for j := range theta {
			theta[j] -= h * (grad[j] + sigma*r.NormFloat64())
		}
		project(theta, p.Radius)
		for j := range avg {
			avg[j] += theta[j] / float64(p.Steps)
		}
	}
	return avg, nil
}

// LogisticGradient sets g to ∇L(θ) = −(1/n)Σ y_i·σ(−y_i⟨θ, x_i⟩)·x_i.
func LogisticGradient(x [][]float64, y, theta, g []float64) {
	clear(g)
	n := float64(len(x))
	for i, xi := range x {
		m := y[i] * dot(theta, xi)
		c := -y[i] / (1 + math.Exp(m)) / n
		for j, v := range xi {
			g[j] += c * v
		}
	}
}

// project maps θ onto the ball ‖θ‖₂ ≤ c.
func project(theta []float64, c float64) {
	if nn := math.Sqrt(dot(theta, theta)); nn > c {
		for j := range theta {
			theta[j] *= c / nn
		}
	}
}
