package lowerbound

import (
	"math"
	"math/rand/v2"

	"github.com/dpsample/dpsample/core/checks"
	"github.com/dpsample/dpsample/core/mechanism"
	"github.com/dpsample/dpsample/core/rng"
	"github.com/dpsample/dpsample/core/sampler/exact"
)

// Mechanism names the algorithm attacked by the rounding adversary.
type Mechanism string

const (
	// Median is the non-private minimiser: the coordinate-wise median, i.e.
	// θ_k = 1[m_k > ½] with θ_k = ½ when m_k = ½ (excess 0).
	Median Mechanism = "median"
	// Exponential is dpsample's Algorithm 1 on the ℓ1 instance, exactly
	// calibrated, with the exact separable sampler (exact.Binary).
	Exponential Mechanism = "exponential"
	// BoxExponential is the classic pure-ε exponential mechanism on the box
	// [0,1]^D with score −Σ_i‖θ−z_i‖₁ (sensitivity D): density
	// ∝ exp(−(ε/2D)·Σ_i‖θ−z_i‖₁), parameterised by s = εn/(2D).
	BoxExponential Mechanism = "box-exponential"
	// Gaussian adds N(0, σ²) to every column mean and clips to [0,1], with
	// σ = √D/(n·s*(ε,δ)) (ℓ2 sensitivity √D/n of the mean under replace-one,
	// analytic Gaussian calibration).
	Gaussian Mechanism = "gaussian"
)

// MechanismInfo reports the data-independent parameters a run used (for the
// full dataset of Rows rows).
type MechanismInfo struct {
	Name    Mechanism `json:"name"`
	Epsilon float64   `json:"epsilon,omitempty"` // ε (for box-exponential: ε_pure = 2Ds/n)
	Delta   float64   `json:"delta,omitempty"`
	S       float64   `json:"s,omitempty"`   // box-exponential: s = εn/(2D)
	GDP     float64   `json:"gdp,omitempty"` // exponential, gaussian: s*(ε, δ)
	Eta     float64   `json:"eta,omitempty"` // exponential: η
	Mu      float64   `json:"mu,omitempty"`  // exponential: μ
	A       float64   `json:"a,omitempty"`   // exponential: per-coordinate a = η/n
	B       float64   `json:"b,omitempty"`   // exponential: per-coordinate b = ημ/2
	Sigma   float64   `json:"sigma,omitempty"`
}

// columnLaw draws θ_k for one published column from the count of ones among
// the rows the mechanism sees. The law depends on the data only through
// (rows, ones), because the ℓ1 objective separates over coordinates.
type columnLaw interface {
	sample(r *rand.Rand, ones int) float64
}

// Algorithm1 returns the parameters of Algorithm 1 on the ℓ1 instance of
// §3.2 with n rows in dimension D, calibrated exactly for (ε, δ) by the same
// code as dpsample's mechanism (mechanism.Calibrate, default η rule):
//
//	loss ℓ(θ;z) = ‖θ−z‖₁, G = √D (ℓ2-Lipschitz constant: ∇ℓ ∈ {±1}^D),
//	C = √D (θ* ∈ [0,1]^D), rank k = D (∇ℓ has full rank: G_k = √(D−k)),
//	s = s*(ε, δ) (the sampler is exact, so all of δ goes to the curve),
//	η = n·s·√k/(√2·G·C) = n·s/√(2D)                   (the utility-optimal rule)
//	μ = 4ηG²/(n²s²) = 4ηD/(n²s²)                     (replace-one GDP s = 2G√η/(n√μ), Lemma E.1)
//
// The target exp(−η(L(θ) + μ/2‖θ‖²)) with L = (1/n)Σ_i‖θ−z_i‖₁ factorises into
// D independent coordinates p(t) ∝ exp(−a·Σ_i|t−z_ik| − b·t²) with
//
//	a = η/n = s/√(2D),  b = ημ/2 = 2a²D/s² = 1,
//
// which exact.Binary samples exactly for points in {0,1}. The data term of a
// coordinate weighs a·(2m−n) against the ridge's b = 1, so the output becomes
// accurate once s ≳ √(2D)/n, i.e. ε ≳ D/n² (s* ≈ √(2ε) for large ε).
//
// Theorem 2.2's alternative rule η = nε√(k ln(1/δ))/(GC) (EtaRule "paper")
// would give b/(a·n) = 2ε√(D ln(1/δ))/(n·s²) → √(D ln(1/δ))/n as ε grows: the
// ridge then dominates at every ε and the output never becomes accurate on
// this instance, so the attack demonstration uses the default rule.
func Algorithm1(n, D int, eps, delta float64) (MechanismInfo, error) {
	fn, fD := float64(n), float64(D)
	c, err := mechanism.Calibrate(mechanism.Calibration{N: n, D: D, Rank: D, G: math.Sqrt(fD), Radius: math.Sqrt(fD),
		Epsilon: eps, Delta: delta, Samples: 1, EtaRule: "optimal", Exact: true})
	if err != nil {
		return MechanismInfo{}, err
	}
	return MechanismInfo{Name: Exponential, Epsilon: eps, Delta: delta, GDP: c.GDP, Eta: c.Eta, Mu: c.Mu,
		A: c.Eta / fn, B: c.Eta * c.Mu / 2}, nil
}

type binaryLaw struct{ t *exact.Binary }

func (l binaryLaw) sample(r *rand.Rand, ones int) float64 { return l.t.Sample(r, ones) }

// medianLaw is the coordinate median of rows points in {0,1}.
type medianLaw struct{ rows int }

func (l medianLaw) sample(_ *rand.Rand, ones int) float64 {
	switch {
	case 2*ones > l.rows:
		return 1
	case 2*ones < l.rows:
		return 0
	}
	return 0.5
}

// boxLaw is the per-coordinate law of the pure-ε exponential mechanism on
// [0,1]: density ∝ exp(−λ·Σ_i|θ−z_i|) = exp(−λ(ones(1−θ) + zeros·θ))
// ∝ exp(−a·θ) with a = λ(rows − 2·ones), λ = ε/(2D). On the full dataset
// a = s(1−2m) with s = λn.
type boxLaw struct {
	lambda float64
	rows   int
}

func (l boxLaw) sample(r *rand.Rand, ones int) float64 {
	return truncExp(r, l.lambda*float64(l.rows-2*ones))
}

// truncExp draws θ ∈ [0,1] with density ∝ exp(−a·θ) by inversion:
// x = −log1p(−u(1−e^{−|a|}))/|a| has density ∝ e^{−|a|x}; θ = x if a > 0,
// 1 − x if a < 0, and θ = u when |a| < 1e-12.
func truncExp(r *rand.Rand, a float64) float64 {
	u := r.Float64()
	aa := math.Abs(a)
	if aa < 1e-12 {
		return u
	}
	x := -math.Log1p(u*math.Expm1(-aa)) / aa
	if a < 0 {
		return 1 - x
	}
	return x
}

// meanTruncExp is E[x] for x with density ∝ e^{−a x} on [0,1], a ≥ 0:
// g(a) = 1/a − 1/(e^a − 1), g(0) = ½ (series below a = 1e-4).
func meanTruncExp(a float64) float64 {
	if a < 1e-4 {
		return 0.5 - a/12
	}
	return 1/a - 1/math.Expm1(a)
}

// gaussLaw is the clipped Gaussian mechanism on the column mean.
type gaussLaw struct {
	sigma float64
	rows  int
}

func (l gaussLaw) sample(r *rand.Rand, ones int) float64 {
	v := float64(ones)/float64(l.rows) + l.sigma*rng.Normal53(r)
	return math.Min(1, math.Max(0, v))
}

// excess returns f(θ) − min f for one coordinate, where
// f(θ) = (1/rows)Σ_i|θ − z_i| = m|θ−1| + (1−m)|θ| and m = ones/rows; for θ in
// [0,1] it equals |1−2m|·|θ − θ*| (the ℓ1 instance of Section 3.2 and
// Lemma G.2's proof; derivation in the package doc).
func excess(theta float64, ones, rows int) float64 {
	m := float64(ones) / float64(rows)
	return m*math.Abs(theta-1) + (1-m)*math.Abs(theta) - math.Min(m, 1-m)
}

func newBinaryLaw(rows int, info MechanismInfo) (columnLaw, MechanismInfo, error) {
	t := exact.NewBinary(rows, info.A, info.B)
	if t == nil {
		return nil, info, checks.Errorf("epsilon", "such that Algorithm 1's per-coordinate parameters are finite (a=%s, b=%s)",
			checks.Fmt(info.A), checks.Fmt(info.B))
	}
	return binaryLaw{t}, info, nil
}
