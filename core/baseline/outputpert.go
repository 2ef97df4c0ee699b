package baseline

import (
	"math"
	"math/rand/v2"

	"github.com/dpsample/dpsample/core/checks"
	"github.com/dpsample/dpsample/core/loss"
	"github.com/dpsample/dpsample/core/privacy"
	"github.com/dpsample/dpsample/core/rng"
)

// OutputPert are the public parameters of output perturbation for the
// μ-strongly convex regularised ERM θ̂ = argmin L(θ; D) + μ/2·‖θ‖²
// (Chaudhuri–Monteleoni–Sarwate 2011, Gaussian version as in BoltOn,
// Wu et al. 2017).
//
// Sensitivity. For G-Lipschitz convex ℓ, replacing one record moves θ̂ by at
// most 2G/(nμ) in ℓ2 (CMS11 Corollary 8 with replace-one neighbours). θ̂ is
// computed by Regularized only up to a certified ‖θ̃ − θ̂‖ ≤ Tol·2G/(nμ), so the
// released θ̃ + N(0, σ²I) is calibrated to the sensitivity of θ̃ itself,
//
//	Δ = (1 + 2·Tol)·2G/(nμ),
//
// and σ = Δ/s* with s* = privacy.Calibrate(ε, δ): the Gaussian mechanism with
// sensitivity Δ and noise σ is (Δ/σ)-GDP (Dong–Roth–Su Theorem 2.7), i.e.
// (ε, δ)-DP with the same exact curve as Algorithm 1.
type OutputPert struct {
	Epsilon float64 `json:"epsilon"`
	Delta   float64 `json:"delta"`
	Mu      float64 `json:"mu"`  // regularisation μ > 0 (public)
	G       float64 `json:"G"`   // Lipschitz constant of ℓ (public)
	Tol     float64 `json:"tol"` // certified solver error, as a fraction of 2G/(nμ); in (0, 1)
}

func (p OutputPert) validate(n int) error {
	return checks.First(budget(n, p.Epsilon, p.Delta),
		checks.Positive("mu", p.Mu),
		checks.Positive("G", p.G),
		checks.InRange("tol", p.Tol, 1e-12, 1))
}

// Sensitivity returns Δ = (1 + 2·Tol)·2G/(nμ).
func (p OutputPert) Sensitivity(n int) (float64, error) {
	if err := p.validate(n); err != nil {
		return 0, err
	}
	return (1 + 2*p.Tol) * 2 * p.G / (float64(n) * p.Mu), nil
}

// Sigma returns the noise scale σ = Δ/s*(ε, δ).
func (p OutputPert) Sigma(n int) (float64, error) {
	delta, err := p.Sensitivity(n)
	if err != nil {
		return 0, err
	}
	s, err := privacy.Calibrate(p.Epsilon, p.Delta)
	if err != nil {
		return 0, err
	}
	return delta / s, nil
}

// OutputPerturbation releases θ̃ + N(0, σ²I) where θ̃ = Regularized(set, μ)
// (certified within Tol·2G/(nμ) of θ̂), the noise from rng.Normals53 (issue
// 51). set.G() must not exceed p.G.
func OutputPerturbation(set *loss.Set, p OutputPert, r *rand.Rand) ([]float64, error) {
	sigma, err := p.Sigma(set.N())
	if err != nil {
		return nil, err
	}
	if set.G() > p.G {
		return nil, checks.Errorf("G", "at least the loss's Lipschitz constant %s, got %s", checks.Fmt(set.G()), checks.Fmt(p.G))
	}
	tol := p.Tol * 2 * p.G / (float64(set.N()) * p.Mu)
	fit, err := Regularized(set, p.Mu, tol, MaxSDCAEpochs(set))
	if err != nil {
		return nil, err
	}
	out := make([]float64, len(fit.Theta))
	rng.Normals53(r, out)
	for j, v := range fit.Theta {
		out[j] = v + sigma*out[j]
	}
	return out, nil
}

// MaxSDCAEpochs bounds the solver's work at about 2·10⁸ coordinate·feature
// operations.
func MaxSDCAEpochs(set *loss.Set) int {
	return int(math.Max(50, math.Min(20000, 2e8/float64(set.N()*set.Dim()))))
}

// OutputMu is output perturbation's a-priori regulariser
//
//	μ = 2G·k^{1/4}/(C·√(n·s*)),  s* = privacy.Calibrate(ε, δ),
//
// the minimiser of the heuristic excess μC²/2 + G·√k·σ with σ = 2G/(nμs*)
// (regularisation bias at ‖θ*‖ = C plus the noise the loss sees in the k
// directions of the data). Public inputs only.
func OutputMu(n, rank int, g, radius, eps, delta float64) (float64, error) {
	s, err := privacy.Calibrate(eps, delta)
	if err != nil {
		return 0, err
	}
	return 2 * g * math.Pow(float64(rank), 0.25) / (radius * math.Sqrt(float64(n)*s)), nil
}
