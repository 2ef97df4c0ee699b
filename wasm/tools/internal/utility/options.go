//go:build !js

package utility

// The utility study's options, their defaults and validation (the
// runner is utility.go, the workloads workloads.go).

import (
	"slices"

	"github.com/dpsample/dpsample/core/baseline"
	"github.com/dpsample/dpsample/core/checks"
	"github.com/dpsample/dpsample/core/dataset"
	"github.com/dpsample/dpsample/core/dpgd"
	"github.com/dpsample/dpsample/core/loss"
	"github.com/dpsample/dpsample/core/mechanism"
)

// Methods compared by UtilityBench.
const (
	MethodNonPrivate    = "non-private"            // the reference minimiser over ‖θ‖ ≤ C (not private)
	MethodExponential   = "exponential"            // Algorithm 1 (mechanism.Sample, sampler auto, default η rule), in the ambient d
	MethodExpLatent     = "exponential-latent"     // cross-check only: Algorithm 1 on the k-dim latent data, lifted (synthetic, d ≤ latentMaxD)
	MethodDPGD          = "dp-gd"                  // unprojected full-batch DP-GD (Song et al. 2021)
	MethodDPGDProjected = "dp-gd-projected"        // DP-GD projected onto ‖θ‖ ≤ C (BST14)
	MethodOutputPert    = "output-perturbation"    // regularised ERM + Gaussian noise
	MethodObjectivePert = "objective-perturbation" // KST12, logistic only
	WorkloadSynthetic   = "synthetic"
	DatasetBreastCancer = "breast-cancer" // dataset.Builtins keys
	DatasetPenguins     = "penguins"
	maxUtilityJobs      = 1_000_000
)

// AllMethods lists every method in report order.
func AllMethods() []string {
	return []string{MethodNonPrivate, MethodExponential, MethodExpLatent, MethodDPGD, MethodDPGDProjected, MethodOutputPert, MethodObjectivePert}
}

// SyntheticGrid is one block of the dimension-free experiment: one loss at
// one n, over ranks × dims × ε.
type SyntheticGrid struct {
	Loss     string    `json:"loss"` // "logistic", "hinge" or "lad"
	N        int       `json:"n"`
	Ranks    []int     `json:"ranks"`
	Dims     []int     `json:"dims"`
	Epsilons []float64 `json:"epsilons"`
}

// SyntheticOptions describe the synthetic GLM workloads (the dimension-free
// experiment, issue 16 part 1): rank-k latent data (baseline.NewRankK labels
// for logistic and hinge, baseline.NewRankKRegression targets for lad)
// embedded in each d by a random orthonormal basis. The latent data are the
// same for every d (one draw per loss, n and rank), the basis is redrawn per
// d. Every method runs on the d-dimensional data; the latent shortcut
// (MethodExpLatent) is a labelled cross-check only.
type SyntheticOptions struct {
	Grids    []SyntheticGrid `json:"grids"`
	Seeds    int             `json:"seeds"`    // independent runs of every method per cell
	Radius   float64         `json:"radius"`   // C, public
	Noise    float64         `json:"noise"`    // LAD target noise
	DataSeed uint64          `json:"dataSeed"` // the synthetic data (public)
	// MaxWork bounds one Algorithm 1 sample's planned work: a cell whose
	// plan has ExpectedLossEvals·d above it is reported n/a with its T (the
	// bench has a time budget; the plan is public, so the skip is too).
	MaxWork float64 `json:"maxWork"`
	// ObjectiveMaxWork: objective perturbation is solved in d by Newton's
	// method with a d×d Hessian (n·d² per Hessian), run only where
	// n·d² ≤ ObjectiveMaxWork.
	ObjectiveMaxWork float64 `json:"objectiveMaxWork"`
	// LatentMaxD: the latent cross-check runs for d ≤ LatentMaxD (0: never).
	LatentMaxD int `json:"latentMaxD"`
}

// RealOptions describe the real-data workloads: logistic regression without
// intercept on features scaled from declared public ranges (dataset.Scale)
// and rows clipped to ‖x‖ ≤ clip, a fixed 80/20 train/test split.
type RealOptions struct {
	Datasets  []string  `json:"datasets"` // "breast-cancer" (target malignant), "penguins" (target sex)
	DataDir   string    `json:"dataDir"`  // directory holding the CSVs (default site/data)
	Epsilons  []float64 `json:"epsilons"`
	Seeds     int       `json:"seeds"`
	Radius    float64   `json:"radius"`    // C, public
	SplitSeed uint64    `json:"splitSeed"` // the fixed 80/20 split
}

// UtilityOptions configure UtilityBench. Every hyper-parameter is fixed here
// or by a stated rule from public quantities before any data is seen.
type UtilityOptions struct {
	Synthetic *SyntheticOptions `json:"synthetic,omitempty"` // nil: no synthetic workloads
	Real      *RealOptions      `json:"real,omitempty"`      // nil: no real-data workloads
	Methods   []string          `json:"methods"`             // default AllMethods()
	Delta     float64           `json:"delta"`               // δ of every method (default 1e-5)
	Clip      float64           `json:"clip"`                // public bound on ‖x‖ (default 1), so G = clip
	OutputTol float64           `json:"outputTol"`           // output perturbation's certified solver error / (2G/(nμ)) (default 0.01)
	Workers   int               `json:"workers"`             // parallel jobs (default 1)
	Seed      *uint64           `json:"seed,omitempty"`      // reproducible, NOT private
}

// Hyper records the a-priori hyper-parameter rules (no tuning on private data).
type Hyper struct {
	Delta           float64              `json:"delta"`
	Clip            float64              `json:"clip"`
	Neighbours      mechanism.Neighbours `json:"neighbours"`
	Accountant      string               `json:"accountant"`
	ExponentialRule string               `json:"exponentialRule"`
	GDRule          string               `json:"gdRule"`
	OutputMuRule    string               `json:"outputMuRule"`
	OutputTol       float64              `json:"outputTol"`
	ObjectiveRule   string               `json:"objectiveRule"`
	ReferenceRule   string               `json:"referenceRule"`
	DimensionFree   string               `json:"dimensionFree"`
	Notes           []string             `json:"notes"`
	SyntheticRadius float64              `json:"syntheticRadius,omitempty"`
	RealRadius      float64              `json:"realRadius,omitempty"`
}

// UtilityCell is one workload × method × (ε, d, k) result.
type UtilityCell struct {
	Workload      string             `json:"workload"` // "synthetic", "breast-cancer", "penguins"
	Loss          string             `json:"loss"`
	Rank          int                `json:"rank"`
	D             int                `json:"d"`
	N             int                `json:"n"` // training records
	Epsilon       float64            `json:"epsilon"`
	Method        string             `json:"method"`
	Runs          int                `json:"runs"`
	Excess        []float64          `json:"excess"` // L(θ) − min_{‖θ‖≤C} L on the training data, per run
	ExcessMean    float64            `json:"excessMean"`
	ExcessStd     float64            `json:"excessStd"` // sample standard deviation over runs (0 if runs < 2)
	ExcessMedian  float64            `json:"excessMedian"`
	ExcessCI      [2]float64         `json:"excessMedianCI95"` // percentile bootstrap of the median
	Accuracy      []float64          `json:"accuracy,omitempty"`
	AccuracyMean  float64            `json:"accuracyMean,omitempty"` // test accuracy (real data)
	AccuracyStd   float64            `json:"accuracyStd,omitempty"`
	AccuracySE    float64            `json:"accuracySE,omitempty"`       // std/√runs
	AccuracyCI    [2]float64         `json:"accuracyMeanCI95,omitempty"` // percentile bootstrap of the mean
	Seconds       float64            `json:"seconds"`                    // wall time of all runs
	SecondsPerRun float64            `json:"secondsPerRun"`              // wall time per run
	Params        map[string]float64 `json:"params"`                     // calibrated σ, μ, η, T, …
	// Schedule is DP-GD's public schedule (core/dpgd) in the cell, the
	// same for every run (both DP-GD methods only).
	Schedule      *dpgd.Schedule `json:"schedule,omitempty"`
	ReferenceLoss float64        `json:"referenceLoss"`
	ReferenceGap  float64        `json:"referenceGap"` // certified gap of the reference
	Error         string         `json:"error,omitempty"`
}

// DimRatio is the dimension-free check: median excess at the largest d over
// the median excess at the smallest d, at fixed loss, n, rank, ε and method,
// with a 95 % bootstrap interval. There is no target: in exact arithmetic
// the risk law of every method except projected DP-GD is the same at every
// d (see dimInvariant), so the ratio checks the implementations, and its
// expected value for those methods is 1.
type DimRatio struct {
	Loss      string     `json:"loss"`
	N         int        `json:"n"`
	Rank      int        `json:"rank"`
	Epsilon   float64    `json:"epsilon"`
	Method    string     `json:"method"`
	DLow      int        `json:"dLow"`
	DHigh     int        `json:"dHigh"`
	Low       float64    `json:"low"`  // median excess at DLow
	High      float64    `json:"high"` // median excess at DHigh
	Ratio     float64    `json:"ratio"`
	RatioCI   [2]float64 `json:"ratioCI95"` // percentile bootstrap, the two samples resampled independently
	Invariant bool       `json:"invariantInLaw"`
}

// DimInvariant reports whether method m's excess risk on the synthetic
// rank-k data has the same law at every d by construction (exact
// arithmetic): the rows lie in span(U) and every regulariser and noise is
// isotropic, so only the span component of θ changes the loss and its law
// does not involve d. Projected DP-GD is the exception: its projection onto
// ‖θ‖ ≤ C couples the span component with d − k noise coordinates. The
// latent cross-check is moreover computed identically at every d.
func DimInvariant(m string) bool {
	return m != MethodDPGDProjected
}

// UtilityReport is UtilityBench's result.
type UtilityReport struct {
	Options UtilityOptions `json:"options"`
	Hyper   Hyper          `json:"hyper"`
	Cells   []UtilityCell  `json:"cells"`
	Ratios  []DimRatio     `json:"ratios"`
	Private bool           `json:"private"`
	Seconds float64        `json:"seconds"`
}

// QuickUtilityOptions is a small preset for tests and smoke runs (seconds).
func QuickUtilityOptions() UtilityOptions {
	seed := uint64(1)
	return UtilityOptions{
		Synthetic: &SyntheticOptions{Grids: []SyntheticGrid{
			{Loss: "logistic", N: 60, Ranks: []int{1, 2}, Dims: []int{4, 40}, Epsilons: []float64{1}},
			{Loss: "hinge", N: 60, Ranks: []int{1}, Dims: []int{4, 40}, Epsilons: []float64{1}},
			{Loss: "lad", N: 60, Ranks: []int{2}, Dims: []int{4}, Epsilons: []float64{1}},
		}, Seeds: 3, Radius: 3, Noise: 0.5, DataSeed: 1, MaxWork: 5e7, ObjectiveMaxWork: 1e5, LatentMaxD: 4},
		Real: &RealOptions{Datasets: []string{DatasetPenguins}, DataDir: "site/data", Epsilons: []float64{1}, Seeds: 2,
			Radius: 10, SplitSeed: 1},
		Delta: 1e-5, Clip: 1, OutputTol: 0.01, Workers: 1, Seed: &seed,
	}
}

// FullUtilityOptions is the benchmark preset of issues 12 (part 4) and 16
// (part 1), sized so that ./build.sh bench fits in about 25 minutes on a
// shared 2-core machine (the cost of every cell was measured with 2 seeds
// first): the dimension-free experiment in the ambient d with 30 seeds: logistic
// (first-order sampler) at n = 120 over d ∈ {10, 100, 1000}, ranks 1 and 3,
// ε ∈ {0.5, 1, 2}, and at d = 10⁴ for rank 3, ε = 0.5; logistic at n = 1000
// over d ∈ {10, 100}, rank 3, ε = 0.5; hinge (zeroth-order sampler, T ∝
// n²s²) at n = 120 over d ∈ {10, 100}, rank 3, ε = 0.5. MaxWork was 5e8
// until the fixed-work plans of the first-order sampler raised the d = 10⁴
// cell's planned work to 5.3e8 (its run time did not change: 6.7 s per
// sample before); 6e8 keeps the grid of the earlier runs (issue 33 compares
// them cell by cell).
func FullUtilityOptions() UtilityOptions {
	seed := uint64(1)
	return UtilityOptions{
		Synthetic: &SyntheticOptions{Grids: []SyntheticGrid{
			{Loss: "logistic", N: 120, Ranks: []int{1, 3}, Dims: []int{10, 100, 1000}, Epsilons: []float64{0.5, 1, 2}},
			{Loss: "logistic", N: 120, Ranks: []int{3}, Dims: []int{10_000}, Epsilons: []float64{0.5}},
			{Loss: "logistic", N: 1000, Ranks: []int{3}, Dims: []int{10, 100}, Epsilons: []float64{0.5}},
			{Loss: "hinge", N: 120, Ranks: []int{3}, Dims: []int{10, 100}, Epsilons: []float64{0.5}},
		}, Seeds: 30, Radius: 3, Noise: 0.5, DataSeed: 1, MaxWork: 6e8, ObjectiveMaxWork: 1.2e6, LatentMaxD: 10},
		// No real data here: one fixed split is what issue 20 rejected; the
		// real-data study is RunStudy (realstudy.go), over 20 splits.
		Delta: 1e-5, Clip: 1, OutputTol: 0.01, Workers: 2, Seed: &seed,
	}
}

func (o *UtilityOptions) defaults() {
	if len(o.Methods) == 0 {
		o.Methods = AllMethods()
	}
	if o.Delta == 0 {
		o.Delta = 1e-5
	}
	if o.Clip == 0 {
		o.Clip = 1
	}
	if o.OutputTol == 0 {
		o.OutputTol = 0.01
	}
	if o.Workers == 0 {
		o.Workers = 1
	}
	if s := o.Synthetic; s != nil {
		if s.Radius == 0 {
			s.Radius = 3
		}
		if s.Noise == 0 {
			s.Noise = 0.5
		}
		if s.DataSeed == 0 {
			s.DataSeed = 1
		}
	}
	if r := o.Real; r != nil {
		if r.DataDir == "" {
			r.DataDir = "site/data"
		}
		if r.Radius == 0 {
			r.Radius = 10
		}
		if r.SplitSeed == 0 {
			r.SplitSeed = 1
		}
	}
}

func validEps(field string, eps []float64) error {
	if len(eps) == 0 {
		return checks.Errorf(field, "a list of at least one ε")
	}
	for _, e := range eps {
		if err := checks.Epsilon(field, e); err != nil {
			return err
		}
		if e > 50 {
			return checks.Errorf(field, "ε at most 50, got %s", checks.Fmt(e))
		}
	}
	return nil
}

func (o UtilityOptions) validate() error {
	if o.Synthetic == nil && o.Real == nil {
		return checks.Errorf("synthetic", "given, or real: one kind of workload at least")
	}
	for _, m := range o.Methods {
		if !slices.Contains(AllMethods(), m) {
			return checks.Errorf("methods", "a list of methods from %v, got %q", AllMethods(), m)
		}
	}
	if err := checks.Delta("delta", o.Delta); err != nil {
		return err
	}
	if err := checks.Positive("clip", o.Clip); err != nil {
		return err
	}
	if err := checks.InRange("outputTol", o.OutputTol, 1e-9, 0.5); err != nil {
		return err
	}
	if err := checks.IntRange("workers", o.Workers, 1, 64); err != nil {
		return err
	}
	jobs := 0
	if s := o.Synthetic; s != nil {
		if len(s.Grids) == 0 {
			return checks.Errorf("synthetic.grids", "a list of at least one grid")
		}
		for _, g := range s.Grids {
			if err := checks.IntRange("synthetic.grids.n", g.N, 2, baseline.MaxN); err != nil {
				return err
			}
			if len(g.Ranks) == 0 || len(g.Dims) == 0 {
				return checks.Errorf("synthetic.grids.ranks", "non-empty (dims too)")
			}
			for _, k := range g.Ranks {
				if err := checks.IntRange("synthetic.grids.ranks", k, 1, baseline.MaxRank); err != nil {
					return err
				}
				for _, d := range g.Dims {
					if err := checks.IntRange("synthetic.grids.dims", d, k, baseline.MaxD); err != nil {
						return err
					}
					if g.N*d > baseline.MaxCells {
						return checks.Errorf("synthetic.grids.dims", "at most %d/n each (n·d ≤ %d), got %d·%d", baseline.MaxCells, baseline.MaxCells, g.N, d)
					}
				}
			}
			k, err := loss.ParseKind(g.Loss)
			if err != nil || !baseline.IsGLM(k) {
				return checks.Errorf("synthetic.grids.loss", `"logistic", "hinge" or "lad", got %q`, g.Loss)
			}
			if err := validEps("synthetic.grids.epsilons", g.Epsilons); err != nil {
				return err
			}
			jobs += len(g.Ranks) * len(g.Dims) * len(g.Epsilons) * s.Seeds
		}
		if err := checks.IntRange("synthetic.seeds", s.Seeds, 1, baseline.MaxTrials); err != nil {
			return err
		}
		if err := checks.Positive("synthetic.radius", s.Radius); err != nil {
			return err
		}
		if err := checks.Positive("synthetic.noise", s.Noise); err != nil {
			return err
		}
		if err := checks.InRange("synthetic.maxWork", s.MaxWork, 1e3, 1e13); err != nil {
			return err
		}
		if err := checks.InRange("synthetic.objectiveMaxWork", s.ObjectiveMaxWork, 0, 1e13); err != nil {
			return err
		}
		if err := checks.IntRange("synthetic.latentMaxD", s.LatentMaxD, 0, baseline.MaxD); err != nil {
			return err
		}
	}
	if r := o.Real; r != nil {
		if len(r.Datasets) == 0 {
			return checks.Errorf("real.datasets", "a list of at least one dataset")
		}
		for _, d := range r.Datasets {
			if _, ok := dataset.LookupBuiltin(d); !ok {
				return checks.Errorf("real.datasets", "a list of %q or %q, got %q", DatasetBreastCancer, DatasetPenguins, d)
			}
		}
		if err := validEps("real.epsilons", r.Epsilons); err != nil {
			return err
		}
		if err := checks.IntRange("real.seeds", r.Seeds, 1, baseline.MaxTrials); err != nil {
			return err
		}
		if err := checks.Positive("real.radius", r.Radius); err != nil {
			return err
		}
		jobs += len(r.Datasets) * len(r.Epsilons) * r.Seeds
	}
	if jobs > maxUtilityJobs {
		return checks.Errorf("seeds", "at most %d runs in all, got %d", maxUtilityJobs, jobs)
	}
	return nil
}
