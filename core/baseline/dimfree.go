package baseline

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/dpsample/dpsample/core/checks"
	"github.com/dpsample/dpsample/core/dpgd"
	"github.com/dpsample/dpsample/core/loss"
	"github.com/dpsample/dpsample/core/mechanism"
	"github.com/dpsample/dpsample/core/rng"
)

// Limits on the sizes DimensionFree and its parts accept.
const (
	MaxN      = 20_000
	MaxRank   = 64
	MaxD      = 100_000
	MaxDims   = 32
	MaxTrials = 200
	MaxSteps  = 100_000   // of GD (a T-step Gaussian mechanism's accounting)
	MaxCells  = 4_000_000 // n·d of one embedded dataset
)

// DimFreeOptions configure DimensionFree (JS: dpsample.demo.dimensionFree).
// Everything here is public: the data are synthetic. Both DP-GD variants
// run on core/dpgd's public schedule (dpgd.NewSchedule: the smooth rule, the
// logistic loss being (1/4)-smooth), which nothing here overrides.
type DimFreeOptions struct {
	N        int     `json:"n"`                  // records (default 100)
	Rank     int     `json:"rank"`               // k (default 2)
	Dims     []int   `json:"dims"`               // the ambient dimensions d ≥ k (default 2, 8, 32, 128, 512)
	Epsilon  float64 `json:"epsilon"`            // default 1
	Delta    float64 `json:"delta"`              // default 1e-5
	Radius   float64 `json:"radius"`             // C (default 3)
	Trials   int     `json:"trials"`             // runs per d and method (default 3)
	DataSeed uint64  `json:"dataSeed,omitempty"` // the synthetic data (default 1; the same for every d)
	Seed     *uint64 `json:"seed,omitempty"`
}

// DimFreePoint is the outcome at one d.
type DimFreePoint struct {
	D           int       `json:"d"`
	Exponential []float64 `json:"exponential"` // excess empirical risk of each Algorithm 1 run
	Baseline    []float64 `json:"baseline"`    // … of each projected DP-GD run
	// Unprojected is the excess of each unprojected DP-GD run (the GLM
	// setting of Song et al. 2021: no projection).
	Unprojected []float64 `json:"unprojected"`
	// The public schedules (core/dpgd) of the two DP-GD variants at this d.
	ProjSchedule   dpgd.Schedule `json:"projectedSchedule"`
	UnprojSchedule dpgd.Schedule `json:"unprojectedSchedule"`
	ExpMean        float64       `json:"expMean"`
	ExpSE          float64       `json:"expSE"` // standard error of the mean
	BaseMean       float64       `json:"baseMean"`
	BaseSE         float64       `json:"baseSE"`
	UnprojMean     float64       `json:"unprojMean"`
	UnprojSE       float64       `json:"unprojSE"`
}

// DimFreeResult is DimensionFree's report.
type DimFreeResult struct {
	Options        DimFreeOptions `json:"options"`
	Points         []DimFreePoint `json:"points"`
	Bound          float64        `json:"bound"`          // Theorem 2.2: GC·√(k·ln(1/δ))/(nε), constant 1
	NonPrivateLoss float64        `json:"nonPrivateLoss"` // ≈ min_{‖θ‖≤C} L, the reference of every excess
	Eta            float64        `json:"eta"`            // Algorithm 1's η and μ (independent of d)
	Mu             float64        `json:"mu"`
	Private        bool           `json:"private"`
}

func (o *DimFreeOptions) defaults() {
	if o.N == 0 {
		o.N = 100
	}
	if o.Rank == 0 {
		o.Rank = 2
	}
	if len(o.Dims) == 0 {
		o.Dims = []int{2, 8, 32, 128, 512}
	}
	if o.Epsilon == 0 {
		o.Epsilon = 1
	}
	if o.Delta == 0 {
		o.Delta = 1e-5
	}
	if o.Radius == 0 {
		o.Radius = 3
	}
	if o.Trials == 0 {
		o.Trials = 3
	}
	if o.DataSeed == 0 {
		o.DataSeed = 1
	}
}

func (o DimFreeOptions) validate() error {
	if err := checks.IntRange("n", o.N, 2, MaxN); err != nil {
		return err
	}
	if err := checks.IntRange("rank", o.Rank, 1, MaxRank); err != nil {
		return err
	}
	if len(o.Dims) > MaxDims {
		return checks.Errorf("dims", "at most %d dimensions, got %d", MaxDims, len(o.Dims))
	}
	for _, d := range o.Dims {
		if err := checks.IntRange("dims", d, o.Rank, MaxD); err != nil {
			return err
		}
		if o.N*d > MaxCells {
			return &checks.Error{Field: "dims", Rule: fmt.Sprintf("dimensions with n·d ≤ %d", MaxCells), Got: fmt.Sprintf("%d·%d", o.N, d)}
		}
	}
	if err := checks.IntRange("trials", o.Trials, 1, MaxTrials); err != nil {
		return err
	}
	return checks.First(budget(o.N, o.Epsilon, o.Delta), checks.Positive("radius", o.Radius))
}

// DimensionFree measures the excess empirical logistic risk L(θ) − min_{‖θ‖≤C} L
// of Algorithm 1 and of DP-GD, projected and unprojected, on the same RankK
// data embedded in each d of o.Dims, o.Trials runs each, with (ε, δ) from the
// same accountant. Both DP-GD variants run dpgd.Run on dpgd.NewSchedule's
// public schedule for this loss (the smooth rule: h = 1/(β·clip²) = 4,
// T = ⌈0.5·min(n·s, dpgd.SmoothNSCap)·β·clip²·C/G⌉ in [dpgd.MinSteps,
// dpgd.MaxSteps], the suffix average; σ = 2G√T/(n·s), s = s*(ε, δ)), the schedule whose noise-free run
// converges (TestDimFreeNoiseFreeConverges); each point records both.
//
// Projected DP-GD (BST14) pays for d: the projection onto the ball mixes the
// d − k noise directions back into the loss. Unprojected DP-GD (Song et al.
// 2021, the GLM setting) is dimension-free like Algorithm 1: the noise
// orthogonal to the data's span never reaches the loss, so the law of its
// loss does not depend on d at all; its θ can leave the ball ‖θ‖ ≤ C, so its
// excess over the constrained optimum can be negative.
//
// Algorithm 1 at dimension d is sampled through the rank-k structure: with
// θ = Uα + β, β ⊥ range(U), the loss depends on α only and
//
//	π(θ) ∝ exp(−η·L(Uα) − ημ/2·‖α‖²) · exp(−ημ/2·‖β‖²),
//
// so α is Algorithm 1 on the k-dimensional latent data (mechanism.Sample with
// the same n, k, G = 1, C, ε, δ, hence the same η and μ as the d-dimensional
// request with rank k; sampler "auto", i.e. the first-order proximal sampler
// for this smooth loss when k > 1 and the exact 1-D sampler when k = 1) and β ~ N(0, (ημ)⁻¹(I − UUᵀ)) exactly. The law is
// Algorithm 1's on the embedded data; the loss is then evaluated on the
// d-dimensional data. (This is also why Theorem 2.2 holds: the d − k directions
// the loss cannot see only carry the regulariser's Gaussian.)
//
// progress (may be nil) gets (done, total) in units of 1/1000 of a run.
func DimensionFree(ctx context.Context, o DimFreeOptions, progress func(done, total int)) (DimFreeResult, error) {
	o.defaults()
	if err := o.validate(); err != nil {
		return DimFreeResult{}, err
	}
	r, private := rng.New(o.Seed)
	data, err := NewRankK(o.N, o.Rank, rng.Seeded(o.DataSeed))
	if err != nil {
		return DimFreeResult{}, err
	}
	res := DimFreeResult{Options: o, Private: private,
		Bound: o.Radius * math.Sqrt(float64(o.Rank)*math.Log(1/o.Delta)) / (float64(o.N) * o.Epsilon)}
	// The reference of every excess: min over ‖θ‖ ≤ C of L on the latent
	// rows (the embedding keeps L), by the certified ball method with
	// max(100, min(2000, 2·10⁷/(n·k))) iterations — the mechanism's own
	// comparison was this until issue 53 made it the minimum over ℝ^d.
	latent, err := loss.New(loss.Logistic, data.Z, data.Y, loss.Params{Clip: 1})
	if err != nil {
		return DimFreeResult{}, err
	}
	res.NonPrivateLoss = latent.MinimizeInBall(o.Radius, int(math.Max(100, math.Min(2000, 2e7/float64(o.N*o.Rank))))).Loss
	total := 3 * len(o.Dims) * o.Trials * 1000
	unit := 0
	report := func(frac float64) {
		if progress != nil {
			progress(unit*1000+int(frac*1000), total)
		}
	}
	for _, d := range o.Dims {
		u, err := Basis(d, o.Rank, rng.Seeded(o.DataSeed^uint64(d)*0x9E3779B97F4A7C15))
		if err != nil {
			return res, err
		}
		x := data.Embed(u)
		set, err := loss.New(loss.Logistic, x, data.Y, loss.Params{Clip: 1})
		if err != nil {
			return res, err
		}
		pt := DimFreePoint{D: d}
		for _, v := range []struct {
			projected bool
			dst       *dpgd.Schedule
		}{{true, &pt.ProjSchedule}, {false, &pt.UnprojSchedule}} {
			if *v.dst, err = dpgd.NewSchedule(dpgd.Params{N: o.N, D: d, Rank: o.Rank, G: set.G(), Curvature: set.Curvature(),
				Radius: o.Radius, Epsilon: o.Epsilon, Delta: o.Delta, Projected: v.projected}); err != nil {
				return res, err
			}
		}
		gdProgress := func(done, tot int) { report(float64(done) / float64(max(tot, 1))) }
		for t := 0; t < o.Trials; t++ {
			seed := r.Uint64()
			var seedp *uint64
			if !private {
				seedp = &seed
			}
			m, err := mechanism.Sample(ctx, mechanism.Request{Loss: "logistic", X: data.Z, Y: data.Y, Epsilon: o.Epsilon,
				Delta: o.Delta, Radius: o.Radius, Rank: o.Rank, Clip: 1, Seed: seedp},
				func(done, tot int) { report(float64(done) / float64(max(tot, 1))) })
			if err != nil {
				return res, err
			}
			res.Eta, res.Mu = m.Plan.Eta, m.Plan.Mu
			theta := Orthogonal(u, 1/math.Sqrt(m.Plan.Eta*m.Plan.Mu), r)
			for c, a := range m.Theta {
				for j, v := range u[c] {
					theta[j] += a * v
				}
			}
			pt.Exponential = append(pt.Exponential, set.Mean(theta)-res.NonPrivateLoss)
			unit++
			report(0)
			b, err := dpgd.Run(ctx, set, pt.ProjSchedule, r, gdProgress)
			if err != nil {
				return res, err
			}
			pt.Baseline = append(pt.Baseline, set.Mean(b)-res.NonPrivateLoss)
			unit++
			report(0)
			ub, err := dpgd.Run(ctx, set, pt.UnprojSchedule, r, gdProgress)
			if err != nil {
				return res, err
			}
			pt.Unprojected = append(pt.Unprojected, set.Mean(ub)-res.NonPrivateLoss)
			unit++
			report(0)
		}
		pt.ExpMean, pt.ExpSE = meanSE(pt.Exponential)
		pt.BaseMean, pt.BaseSE = meanSE(pt.Baseline)
		pt.UnprojMean, pt.UnprojSE = meanSE(pt.Unprojected)
		res.Points = append(res.Points, pt)
	}
	return res, nil
}

// Orthogonal draws β = (I − UUᵀ)g with g ~ N(0, scale²·I_d) (rng.Normals53,
// issue 51: β is part of the released sample): a centred Gaussian of
// covariance scale²·(I − UUᵀ) on the orthogonal complement of the columns u.
func Orthogonal(u [][]float64, scale float64, r *rand.Rand) []float64 {
	d := len(u[0])
	g := make([]float64, d)
	rng.Normals53(r, g)
	for j := range g {
		g[j] *= scale
	}
	for _, c := range u {
		a := dot(c, g)
		for j := range g {
			g[j] -= a * c[j]
		}
	}
	return g
}

func meanSE(v []float64) (mean, se float64) {
	for _, x := range v {
		mean += x
	}
	mean /= float64(len(v))
	if len(v) < 2 {
		return mean, math.NaN()
	}
	var ss float64
	for _, x := range v {
		ss += (x - mean) * (x - mean)
	}
	return mean, math.Sqrt(ss / float64(len(v)-1) / float64(len(v)))
}
