//go:build !js

package main

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"time"

	"github.com/dpsample/dpsample/core/baseline"
	"github.com/dpsample/dpsample/core/checks"
	"github.com/dpsample/dpsample/core/dataset"
	"github.com/dpsample/dpsample/core/loss"
	"github.com/dpsample/dpsample/core/mechanism"
	"github.com/dpsample/dpsample/core/rng"
)

// Methods compared by UtilityBench.
const (
	MethodNonPrivate     = "non-private"            // the reference minimiser over ‖θ‖ ≤ C (not private)
	MethodExponential    = "exponential"            // Algorithm 1 (mechanism.Sample, default η rule)
	MethodExpDirect      = "exponential-direct"     // Algorithm 1 sampled directly in d (synthetic, d ≤ directMaxD)
	MethodDPGD           = "dp-gd"                  // unprojected full-batch DP-GD (Song et al. 2021)
	MethodDPGDProjected  = "dp-gd-projected"        // DP-GD projected onto ‖θ‖ ≤ C (BST14)
	MethodOutputPert     = "output-perturbation"    // regularised ERM + Gaussian noise
	MethodObjectivePert  = "objective-perturbation" // KST12, logistic only
	WorkloadSynthetic    = "synthetic"
	DatasetBreastCancer  = "breast-cancer" // dataset.Builtins keys
	DatasetPenguins      = "penguins"
	maxUtilityJobs       = 1_000_000
	defaultExpStepBudget = 400_000
)

// AllMethods lists every method in report order.
func AllMethods() []string {
	return []string{MethodNonPrivate, MethodExponential, MethodExpDirect, MethodDPGD, MethodDPGDProjected, MethodOutputPert, MethodObjectivePert}
}

// SyntheticOptions describe the synthetic GLM workloads: rank-k latent data
// (baseline.NewRankK labels for logistic and hinge, baseline.NewRankKRegression targets for lad)
// embedded in each d by a random orthonormal basis. The latent data are the
// same for every d (one draw per loss and rank), the basis is redrawn per d.
type SyntheticOptions struct {
	N        int       `json:"n"`
	Ranks    []int     `json:"ranks"`
	Dims     []int     `json:"dims"`
	Losses   []string  `json:"losses"`   // of "logistic", "hinge", "lad"
	Epsilons []float64 `json:"epsilons"` // privacy levels
	Seeds    int       `json:"seeds"`    // independent runs of every method per cell
	Radius   float64   `json:"radius"`   // C, public
	Noise    float64   `json:"noise"`    // LAD target noise
	DataSeed uint64    `json:"dataSeed"` // the synthetic data (public)
	// DirectMaxD: "exponential-direct" (Algorithm 1 run by the proximal
	// sampler in the full dimension d, no rank-k reduction) is run for
	// d ≤ DirectMaxD only, as a cross-check of the reduction (0: never).
	DirectMaxD int `json:"directMaxD"`
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
	// ExpStepBudget caps the proximal sampler's T per sample. When the plan at
	// ε needs more steps, the exponential mechanism runs at the largest
	// ε′ ≤ ε whose plan fits (found from public quantities only); an (ε′, δ)-DP
	// release is (ε, δ)-DP, so the comparison stays at equal (ε, δ) but
	// handicaps the mechanism. The cell reports ε′ (effectiveEpsilon).
	ExpStepBudget int `json:"expStepBudget"`
}

// UtilityOptions configure UtilityBench. Every hyper-parameter is fixed here
// or by a stated rule from public quantities before any data is seen.
type UtilityOptions struct {
	Synthetic *SyntheticOptions `json:"synthetic,omitempty"` // nil: no synthetic workloads
	Real      *RealOptions      `json:"real,omitempty"`      // nil: no real-data workloads
	Methods   []string          `json:"methods"`             // default AllMethods()
	Delta     float64           `json:"delta"`               // δ of every method (default 1e-5)
	Clip      float64           `json:"clip"`                // public bound on ‖x‖ (default 1), so G = clip
	GDSteps   int               `json:"gdSteps"`             // T of both DP-GD variants (default 100)
	OutputTol float64           `json:"outputTol"`           // output perturbation's certified solver error / (2G/(nμ)) (default 0.01)
	Workers   int               `json:"workers"`             // parallel jobs (default 1)
	Seed      *uint64           `json:"seed,omitempty"`      // reproducible, NOT private
}

// Hyper records the a-priori hyper-parameter rules (no tuning on private data).
type Hyper struct {
	Delta            float64  `json:"delta"`
	Clip             float64  `json:"clip"`
	Neighbours       string   `json:"neighbours"`
	Accountant       string   `json:"accountant"`
	ExponentialRule  string   `json:"exponentialRule"`
	GDSteps          int      `json:"gdSteps"`
	GDRule           string   `json:"gdRule"`
	OutputMuRule     string   `json:"outputMuRule"`
	OutputTol        float64  `json:"outputTol"`
	ObjectiveRule    string   `json:"objectiveRule"`
	ReferenceRule    string   `json:"referenceRule"`
	DimensionFree    string   `json:"dimensionFree"`
	Notes            []string `json:"notes"`
	SyntheticRadius  float64  `json:"syntheticRadius,omitempty"`
	RealRadius       float64  `json:"realRadius,omitempty"`
	RealExpStepLimit int      `json:"realExpStepBudget,omitempty"`
}

// UtilityCell is one workload × method × (ε, d, k) result.
type UtilityCell struct {
	Workload         string             `json:"workload"` // "synthetic", "breast-cancer", "penguins"
	Loss             string             `json:"loss"`
	Rank             int                `json:"rank"`
	D                int                `json:"d"`
	N                int                `json:"n"` // training records
	Epsilon          float64            `json:"epsilon"`
	EffectiveEpsilon float64            `json:"effectiveEpsilon"` // < Epsilon only for a step-capped exponential mechanism
	Method           string             `json:"method"`
	Runs             int                `json:"runs"`
	Excess           []float64          `json:"excess"` // L(θ) − min_{‖θ‖≤C} L on the training data, per run
	ExcessMean       float64            `json:"excessMean"`
	ExcessStd        float64            `json:"excessStd"` // sample standard deviation over runs (0 if runs < 2)
	Accuracy         []float64          `json:"accuracy,omitempty"`
	AccuracyMean     float64            `json:"accuracyMean,omitempty"` // test accuracy (real data)
	AccuracyStd      float64            `json:"accuracyStd,omitempty"`
	Seconds          float64            `json:"seconds"`       // wall time of all runs
	SecondsPerRun    float64            `json:"secondsPerRun"` // wall time per run
	Params           map[string]float64 `json:"params"`        // calibrated σ, μ, η, T, …
	ReferenceLoss    float64            `json:"referenceLoss"`
	ReferenceGap     float64            `json:"referenceGap"` // certified gap of the reference
	Error            string             `json:"error,omitempty"`
}

// DimRatio is the dimension-free check: mean excess at the largest d over the
// mean excess at the smallest d, at fixed loss, rank, ε and method.
type DimRatio struct {
	Loss    string  `json:"loss"`
	Rank    int     `json:"rank"`
	Epsilon float64 `json:"epsilon"`
	Method  string  `json:"method"`
	DLow    int     `json:"dLow"`
	DHigh   int     `json:"dHigh"`
	Low     float64 `json:"low"`
	High    float64 `json:"high"`
	Ratio   float64 `json:"ratio"`
	RatioSE float64 `json:"ratioSE"` // delta method from the two standard errors
	Target  float64 `json:"target,omitempty"`
	Meets   bool    `json:"meets"` // Ratio ≤ Target (exponential mechanism only)
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

// DimFreeTarget is the target of the dimension-free ratio for Algorithm 1.
const DimFreeTarget = 1.3

// QuickUtilityOptions is a small preset for tests and smoke runs (seconds).
func QuickUtilityOptions() UtilityOptions {
	seed := uint64(1)
	return UtilityOptions{
		Synthetic: &SyntheticOptions{N: 60, Ranks: []int{1, 2}, Dims: []int{4, 40}, Losses: []string{"logistic", "hinge", "lad"},
			Epsilons: []float64{1}, Seeds: 3, Radius: 3, Noise: 0.5, DataSeed: 1, DirectMaxD: 4},
		Real: &RealOptions{Datasets: []string{DatasetPenguins}, DataDir: "site/data", Epsilons: []float64{1}, Seeds: 2,
			Radius: 10, SplitSeed: 1, ExpStepBudget: 50_000},
		Delta: 1e-5, Clip: 1, GDSteps: 50, OutputTol: 0.01, Workers: 1, Seed: &seed,
	}
}

// FullUtilityOptions is the benchmark preset of issue 9: ranks 1 and 3 in
// d = 10 … 1000 for three losses at ε = 1, both real datasets at
// ε ∈ {0.1, 0.5, 1, 2, 5}, δ = 1e-5, 10 seeds.
func FullUtilityOptions() UtilityOptions {
	seed := uint64(1)
	return UtilityOptions{
		Synthetic: &SyntheticOptions{N: 120, Ranks: []int{1, 3}, Dims: []int{10, 30, 100, 300, 1000},
			Losses: []string{"logistic", "hinge", "lad"}, Epsilons: []float64{1}, Seeds: 10, Radius: 3, Noise: 0.5, DataSeed: 1,
			DirectMaxD: 10},
		Real: &RealOptions{Datasets: []string{DatasetBreastCancer, DatasetPenguins}, DataDir: "site/data",
			Epsilons: []float64{0.1, 0.5, 1, 2, 5}, Seeds: 10, Radius: 10, SplitSeed: 1, ExpStepBudget: defaultExpStepBudget},
		Delta: 1e-5, Clip: 1, GDSteps: 100, OutputTol: 0.01, Workers: 2, Seed: &seed,
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
	if o.GDSteps == 0 {
		o.GDSteps = 100
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
		if r.ExpStepBudget == 0 {
			r.ExpStepBudget = defaultExpStepBudget
		}
	}
}

func validEps(field string, eps []float64) error {
	if len(eps) == 0 {
		return checks.Errorf(field, "at least one ε is needed")
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
		return checks.Errorf("synthetic", "at least one of synthetic and real workloads is needed")
	}
	for _, m := range o.Methods {
		if !slices.Contains(AllMethods(), m) {
			return checks.Errorf("methods", "unknown method %q (one of %v)", m, AllMethods())
		}
	}
	if err := checks.Delta("delta", o.Delta); err != nil {
		return err
	}
	if err := checks.Positive("clip", o.Clip); err != nil {
		return err
	}
	if err := checks.IntRange("gdSteps", o.GDSteps, 1, baseline.MaxSteps); err != nil {
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
		if err := checks.IntRange("synthetic.n", s.N, 2, baseline.MaxN); err != nil {
			return err
		}
		if len(s.Ranks) == 0 || len(s.Dims) == 0 || len(s.Losses) == 0 {
			return checks.Errorf("synthetic.ranks", "ranks, dims and losses must be non-empty")
		}
		for _, k := range s.Ranks {
			if err := checks.IntRange("synthetic.ranks", k, 1, baseline.MaxRank); err != nil {
				return err
			}
			for _, d := range s.Dims {
				if err := checks.IntRange("synthetic.dims", d, k, baseline.MaxD); err != nil {
					return err
				}
				if s.N*d > baseline.MaxCells {
					return checks.Errorf("synthetic.dims", "n·d must be at most %d, got %d·%d", baseline.MaxCells, s.N, d)
				}
			}
		}
		for _, l := range s.Losses {
			k, err := loss.ParseKind(l)
			if err != nil || !baseline.IsGLM(k) {
				return checks.Errorf("synthetic.losses", `each loss must be "logistic", "hinge" or "lad", got %q`, l)
			}
		}
		if err := validEps("synthetic.epsilons", s.Epsilons); err != nil {
			return err
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
		if err := checks.IntRange("synthetic.directMaxD", s.DirectMaxD, 0, baseline.MaxD); err != nil {
			return err
		}
		jobs += len(s.Ranks) * len(s.Dims) * len(s.Losses) * len(s.Epsilons) * s.Seeds
	}
	if r := o.Real; r != nil {
		if len(r.Datasets) == 0 {
			return checks.Errorf("real.datasets", "at least one dataset is needed")
		}
		for _, d := range r.Datasets {
			if _, ok := dataset.LookupBuiltin(d); !ok {
				return checks.Errorf("real.datasets", "unknown dataset %q (one of %q, %q)", d, DatasetBreastCancer, DatasetPenguins)
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
		if err := checks.IntRange("real.expStepBudget", r.ExpStepBudget, 1000, 1_000_000_000); err != nil {
			return err
		}
		jobs += len(r.Datasets) * len(r.Epsilons) * r.Seeds
	}
	if jobs > maxUtilityJobs {
		return checks.Errorf("seeds", "at most %d runs in all, got %d", maxUtilityJobs, jobs)
	}
	return nil
}

// workload is one dataset: latent rows (k-dim for synthetic data, the data
// itself for real data), the embedding basis (nil for real data), the
// d-dimensional training set, and the test split (real data).
type workload struct {
	name    string
	kind    loss.Kind
	rank, d int
	latent  *loss.Set   // k-dim (synthetic) or = full (real)
	full    *loss.Set   // d-dim training data
	basis   [][]float64 // nil: latent = full
	xTrain  [][]float64
	yTrain  []float64
	xTest   [][]float64
	yTest   []float64
	radius  float64
	ref     baseline.ReferenceFit
}

// cellKey identifies a cell before methods.
type cellKey struct {
	w   int
	eps float64
}

type studyJob struct {
	cell int // index into keys
	seed int
}

// UtilityBench compares Algorithm 1 with DP-GD (unprojected and projected),
// output perturbation and objective perturbation at the same (ε, δ), all
// accounted with package privacy's exact GDP curve under replace-one
// neighbours (objective perturbation: its own pointwise bound, see baseline.ObjPert),
// hyper-parameters fixed a priori (Hyper). For each workload × ε × method it
// reports the excess empirical risk L(θ) − min_{‖θ‖≤C} L (mean ± std over
// seeds), the test accuracy for real data, the wall time, and for synthetic
// data the ratio risk(d_max)/risk(d_min) at fixed rank (DimRatio).
//
// Synthetic data: the exponential mechanism is sampled through the rank-k
// structure as in DimensionFree (α from mechanism.Sample on the latent data,
// the orthogonal part exactly Gaussian). This is exact because the rows lie
// exactly in the k-dimensional span of the basis and the regulariser is
// isotropic; TestLatentMatchesDirect checks it against a direct d-dimensional
// run. Output and objective perturbation use the same exact reduction (their
// minimisers' orthogonal parts are 0 and −P⊥b/(nλ)); both DP-GD variants run
// in the full dimension d.
//
// progress (may be nil) gets (done, total) in runs (one run = every method on
// one workload, ε and seed).
func UtilityBench(ctx context.Context, o UtilityOptions, progress func(done, total int)) (UtilityReport, error) {
	start := time.Now()
	o.defaults()
	if err := o.validate(); err != nil {
		return UtilityReport{}, err
	}
	master, private := rng.New(o.Seed)
	rep := UtilityReport{Options: o, Private: private, Hyper: hyper(o)}
	var works []workload
	var keys []cellKey
	if s := o.Synthetic; s != nil {
		for _, ln := range s.Losses {
			kind, _ := loss.ParseKind(ln)
			for _, k := range s.Ranks {
				ws, err := syntheticWorkloads(s, kind, k, o.Clip)
				if err != nil {
					return rep, err
				}
				for _, w := range ws {
					works = append(works, w)
					for _, e := range s.Epsilons {
						keys = append(keys, cellKey{len(works) - 1, e})
					}
				}
			}
		}
	}
	if r := o.Real; r != nil {
		for _, name := range r.Datasets {
			w, err := realWorkload(r, name, o.Clip)
			if err != nil {
				return rep, err
			}
			works = append(works, w)
			for _, e := range r.Epsilons {
				keys = append(keys, cellKey{len(works) - 1, e})
			}
		}
	}
	seedsOf := func(c cellKey) int {
		if works[c.w].basis != nil || works[c.w].name == WorkloadSynthetic {
			return o.Synthetic.Seeds
		}
		return o.Real.Seeds
	}
	// Cells: one per key and method, filled by the jobs.
	type slot struct {
		excess, acc, secs []float64
		params            map[string]float64
		effEps            float64
		err               string
	}
	slots := make([][]slot, len(keys))
	var jobs []studyJob
	for i, c := range keys {
		slots[i] = make([]slot, len(o.Methods))
		for s := 0; s < seedsOf(c); s++ {
			jobs = append(jobs, studyJob{i, s})
		}
	}
	jobSeeds := make([]uint64, len(jobs))
	for i := range jobSeeds {
		jobSeeds[i] = master.Uint64()
	}
	var mu sync.Mutex
	done := 0
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var firstErr error
	ch := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < o.Workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for ji := range ch {
				jb := jobs[ji]
				c := keys[jb.cell]
				wk := &works[c.w]
				var r *rand.Rand
				var seedp *uint64
				if private {
					r, _ = rng.New(nil)
				} else {
					s := jobSeeds[ji]
					r, seedp = rng.Seeded(s), &s
				}
				outs, err := runMethods(ctx, o, wk, c.eps, r, seedp)
				mu.Lock()
				if err != nil && firstErr == nil {
					firstErr = err
					cancel()
				}
				for mi, out := range outs {
					sl := &slots[jb.cell][mi]
					if out.err != "" {
						sl.err = out.err
						continue
					}
					sl.excess = append(sl.excess, out.excess)
					if !math.IsNaN(out.acc) {
						sl.acc = append(sl.acc, out.acc)
					}
					sl.secs = append(sl.secs, out.secs)
					sl.params, sl.effEps = out.params, out.effEps
				}
				done++
				if progress != nil {
					progress(done, len(jobs))
				}
				mu.Unlock()
			}
		}()
	}
feed:
	for ji := range jobs {
		select {
		case ch <- ji:
		case <-ctx.Done():
			break feed
		}
	}
	close(ch)
	wg.Wait()
	if firstErr != nil {
		return rep, firstErr
	}
	if err := ctx.Err(); err != nil {
		return rep, err
	}
	for i, c := range keys {
		wk := works[c.w]
		for mi, m := range o.Methods {
			sl := slots[i][mi]
			cell := UtilityCell{Workload: wk.name, Loss: wk.kind.String(), Rank: wk.rank, D: wk.d, N: wk.full.N(),
				Epsilon: c.eps, EffectiveEpsilon: sl.effEps, Method: m, Runs: len(sl.excess), Excess: sl.excess,
				Accuracy: sl.acc, Params: sl.params, ReferenceLoss: wk.ref.Loss, ReferenceGap: wk.ref.Gap, Error: sl.err}
			cell.ExcessMean, cell.ExcessStd = meanStd(sl.excess)
			if len(sl.acc) > 0 {
				cell.AccuracyMean, cell.AccuracyStd = meanStd(sl.acc)
			}
			for _, s := range sl.secs {
				cell.Seconds += s
			}
			if len(sl.secs) > 0 {
				cell.SecondsPerRun = cell.Seconds / float64(len(sl.secs))
			}
			rep.Cells = append(rep.Cells, cell)
		}
	}
	rep.Ratios = dimRatios(rep.Cells)
	rep.Seconds = time.Since(start).Seconds()
	return rep, nil
}

// methodOut is one method's outcome in one run.
type methodOut struct {
	excess, acc, secs float64
	effEps            float64
	params            map[string]float64
	err               string
}

// runMethods runs every requested method once on workload w at ε.
func runMethods(ctx context.Context, o UtilityOptions, w *workload, eps float64, r *rand.Rand, seed *uint64) ([]methodOut, error) {
	outs := make([]methodOut, len(o.Methods))
	for mi, m := range o.Methods {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		t0 := time.Now()
		theta, params, effEps, skip, err := runMethod(ctx, o, w, m, eps, r, seed)
		if err != nil {
			return nil, fmt.Errorf("%s on %s (%s, k=%d, d=%d, ε=%g): %w", m, w.name, w.kind, w.rank, w.d, eps, err)
		}
		out := methodOut{secs: time.Since(t0).Seconds(), params: params, effEps: effEps, acc: math.NaN()}
		if skip != "" {
			out.err = skip
			outs[mi] = out
			continue
		}
		out.excess = w.full.Mean(theta) - w.ref.Loss
		if w.xTest != nil {
			out.acc = accuracy(w.xTest, w.yTest, theta)
		}
		outs[mi] = out
	}
	return outs, nil
}

// runMethod returns one release of method m (or a reason to skip it).
func runMethod(ctx context.Context, o UtilityOptions, w *workload, m string, eps float64, r *rand.Rand, seed *uint64) (theta []float64, params map[string]float64, effEps float64, skip string, err error) {
	n := w.full.N()
	g := w.full.G()
	effEps = eps
	switch m {
	case MethodNonPrivate:
		return w.lift(w.ref.Theta, 0, r), map[string]float64{"referenceGap": w.ref.Gap}, eps, "", nil
	case MethodExponential:
		if w.basis == nil && o.Real != nil {
			effEps, err = cappedEpsilon(n, w.d, g, w.radius, eps, o.Delta, o.Clip, o.Real.ExpStepBudget)
			if err != nil {
				return nil, nil, 0, "", err
			}
		}
		req := expRequest(o, w, effEps, false, "", seed)
		res, err := mechanism.Sample(ctx, req, nil)
		if err != nil {
			return nil, nil, 0, "", err
		}
		params = map[string]float64{"eta": res.Plan.Eta, "mu": res.Plan.Mu, "steps": float64(res.Plan.Steps),
			"gdp": res.Plan.GDP, "deltaSpent": res.Privacy.Delta}
		if res.Plan.Sampler == mechanism.SamplerExact {
			params["exact"] = 1
		}
		return w.lift(res.Theta, 1/math.Sqrt(res.Plan.Eta*res.Plan.Mu), r), params, effEps, "", nil
	case MethodExpDirect:
		switch {
		case w.basis == nil:
			return nil, nil, eps, "real data: the exponential method already samples in the full dimension", nil
		case w.d > o.Synthetic.DirectMaxD:
			return nil, nil, eps, fmt.Sprintf("direct sampling only for d ≤ directMaxD = %d", o.Synthetic.DirectMaxD), nil
		}
		req := expRequest(o, w, eps, true, "", seed)
		res, err := mechanism.Sample(ctx, req, nil)
		if err != nil {
			return nil, nil, 0, "", err
		}
		return res.Theta, map[string]float64{"eta": res.Plan.Eta, "mu": res.Plan.Mu, "steps": float64(res.Plan.Steps),
			"gdp": res.Plan.GDP, "deltaSpent": res.Privacy.Delta}, eps, "", nil
	case MethodDPGD, MethodDPGDProjected:
		p := baseline.GD{Epsilon: eps, Delta: o.Delta, Radius: w.radius, G: g, Steps: o.GDSteps}
		proj := m == MethodDPGDProjected
		theta, err := baseline.NoisyGD(ctx, w.full, p, proj, w.rank, r)
		if err != nil {
			return nil, nil, 0, "", err
		}
		sigma, _ := p.Sigma(n)
		dim := float64(w.rank)
		if proj {
			dim = float64(w.d)
		}
		return theta, map[string]float64{"sigma": sigma, "steps": float64(o.GDSteps),
			"step": baseline.GDStep(w.radius, o.GDSteps, g, sigma, dim)}, eps, "", nil
	case MethodOutputPert:
		mu, err := baseline.OutputMu(n, w.rank, g, w.radius, eps, o.Delta)
		if err != nil {
			return nil, nil, 0, "", err
		}
		p := baseline.OutputPert{Epsilon: eps, Delta: o.Delta, Mu: mu, G: g, Tol: o.OutputTol}
		sigma, err := p.Sigma(n)
		if err != nil {
			return nil, nil, 0, "", err
		}
		fit, err := baseline.Regularized(w.latent, mu, o.OutputTol*2*g/(float64(n)*mu), baseline.MaxSDCAEpochs(w.latent))
		if err != nil {
			return nil, nil, 0, "", err
		}
		theta := w.lift(fit.Theta, 0, r)
		for j := range theta {
			theta[j] += sigma * r.NormFloat64()
		}
		return theta, map[string]float64{"mu": mu, "sigma": sigma, "solverDist": fit.Dist, "epochs": float64(fit.Epochs)}, eps, "", nil
	case MethodObjectivePert:
		if w.kind != loss.Logistic {
			return nil, nil, eps, "objective perturbation needs a smooth loss; " + w.kind.String() + " is not", nil
		}
		mu, err := baseline.OutputMu(n, w.rank, g, w.radius, eps, o.Delta)
		if err != nil {
			return nil, nil, 0, "", err
		}
		lambda := baseline.ObjectiveLambda(n, mu, o.Clip, eps)
		p := baseline.ObjPert{Epsilon: eps, Delta: o.Delta, Lambda: lambda, Clip: o.Clip}
		sigma, err := p.Sigma(n)
		if err != nil {
			return nil, nil, 0, "", err
		}
		b := make([]float64, w.latent.Dim())
		for j := range b {
			b[j] = sigma * r.NormFloat64()
		}
		alpha, gn := baseline.PerturbedLogistic(w.latent, lambda, b)
		// Orthogonal part of argmin L + λ/2‖θ‖² + ⟨b, θ⟩/n is −P⊥b/(nλ): exact Gaussian.
		theta := w.lift(alpha, sigma/(float64(n)*lambda), r)
		return theta, map[string]float64{"lambda": lambda, "sigma": sigma, "epsJacobian": p.JacobianEpsilon(n),
			"gradNorm": gn}, eps, "", nil
	}
	return nil, nil, 0, "", checks.Errorf("methods", "unknown method %q", m)
}

// lift maps a latent point α to θ = Uα + β with β ~ N(0, scale²(I − UUᵀ))
// (scale 0: β = 0). For real data (no basis) it returns α.
func (w *workload) lift(alpha []float64, scale float64, r *rand.Rand) []float64 {
	if w.basis == nil {
		return slices.Clone(alpha)
	}
	var theta []float64
	if scale > 0 {
		theta = baseline.Orthogonal(w.basis, scale, r)
	} else {
		theta = make([]float64, w.d)
	}
	for c, a := range alpha {
		for j, v := range w.basis[c] {
			theta[j] += a * v
		}
	}
	return theta
}

// cappedEpsilon returns the largest ε′ ≤ ε (to 0.1%) whose mechanism plan for
// n×d logistic data needs at most budget proximal steps; public inputs only.
func cappedEpsilon(n, d int, g, radius, eps, delta, clip float64, budget int) (float64, error) {
	steps := func(e float64) (int, error) {
		x := make([][]float64, n)
		for i := range x {
			x[i] = make([]float64, d)
		}
		y := make([]float64, n)
		pl, err := mechanism.NewPlan(mechanism.Request{Loss: "logistic", X: x, Y: y, Epsilon: e, Delta: delta, Radius: radius, Clip: clip})
		return pl.Steps, err
	}
	s, err := steps(eps)
	if err != nil || s <= budget {
		return eps, err
	}
	lo, hi := 0.0, eps
	for hi-lo > 1e-3*eps {
		m := (lo + hi) / 2
		s, err := steps(m)
		if err != nil {
			return 0, err
		}
		if s <= budget {
			lo = m
		} else {
			hi = m
		}
	}
	if lo == 0 {
		return 0, checks.Errorf("real.expStepBudget", "no ε′ > 0 fits %d steps", budget)
	}
	return lo, nil
}

func latentRows(s *loss.Set) [][]float64 {
	x := make([][]float64, s.N())
	for i := range x {
		x[i] = slices.Clone(s.Row(i))
	}
	return x
}

func targets(s *loss.Set) []float64 {
	y := make([]float64, s.N())
	for i := range y {
		y[i] = s.Target(i)
	}
	return y
}

// syntheticWorkloads builds the workloads of one loss and rank, one per d.
func syntheticWorkloads(s *SyntheticOptions, kind loss.Kind, k int, clip float64) ([]workload, error) {
	r := rng.Seeded(s.DataSeed ^ uint64(k)*0x2545F4914F6CDD1D ^ uint64(kind)*0x9E3779B97F4A7C15)
	var data baseline.RankK
	var err error
	if kind == loss.LAD {
		data, err = baseline.NewRankKRegression(s.N, k, s.Noise, r)
	} else {
		data, err = baseline.NewRankK(s.N, k, r)
	}
	if err != nil {
		return nil, err
	}
	latent, err := loss.New(kind, data.Z, data.Y, loss.Params{Clip: clip})
	if err != nil {
		return nil, err
	}
	ref := baseline.Reference(latent, s.Radius, referenceIters(s.N, k))
	var out []workload
	for _, d := range s.Dims {
		u, err := baseline.Basis(d, k, rng.Seeded(s.DataSeed^uint64(d)*0x9E3779B97F4A7C15^uint64(k)))
		if err != nil {
			return nil, err
		}
		x := data.Embed(u)
		full, err := loss.New(kind, x, data.Y, loss.Params{Clip: clip})
		if err != nil {
			return nil, err
		}
		out = append(out, workload{name: WorkloadSynthetic, kind: kind, rank: k, d: d, latent: latent, full: full,
			basis: u, xTrain: x, yTrain: data.Y, radius: s.Radius, ref: ref})
	}
	return out, nil
}

// referenceIters sizes the reference fit at about 10⁸ operations.
func referenceIters(n, d int) int {
	return int(math.Max(2000, math.Min(40000, 1e8/float64(n*d))))
}

// realWorkload loads, scales and splits one real dataset.
func realWorkload(o *RealOptions, name string, clip float64) (workload, error) {
	b, ok := dataset.LookupBuiltin(name)
	if !ok {
		return workload{}, checks.Errorf("real.datasets", "one of the built-in datasets (dataset.Builtins), got %q", name)
	}
	text, err := os.ReadFile(filepath.Join(o.DataDir, b.File))
	if err != nil {
		return workload{}, checks.Errorf("real.dataDir", "cannot read %s: %v", b.File, err)
	}
	t, err := dataset.Parse(string(text), b.Options())
	if err != nil {
		return workload{}, err
	}
	if err := t.Scale(b.Ranges); err != nil {
		return workload{}, err
	}
	// Fixed 80/20 split: a permutation from the public split seed.
	n := len(t.X)
	perm := rng.Seeded(o.SplitSeed).Perm(n)
	nTrain := int(math.Round(0.8 * float64(n)))
	w := workload{name: name, kind: loss.Logistic, d: len(t.Columns), radius: o.Radius}
	w.rank = w.d
	for i, p := range perm {
		y := t.Y[p]
		if y == 0 {
			y = -1
		}
		if i < nTrain {
			w.xTrain, w.yTrain = append(w.xTrain, t.X[p]), append(w.yTrain, y)
		} else {
			w.xTest, w.yTest = append(w.xTest, t.X[p]), append(w.yTest, y)
		}
	}
	w.full, err = loss.New(loss.Logistic, w.xTrain, w.yTrain, loss.Params{Clip: clip})
	if err != nil {
		return workload{}, err
	}
	w.latent = w.full
	w.ref = baseline.Reference(w.full, o.Radius, referenceIters(nTrain, w.d))
	return w, nil
}

// accuracy is the fraction of test rows with sign(⟨θ, x⟩) = y (0 counts as −1).
func accuracy(x [][]float64, y, theta []float64) float64 {
	ok := 0
	for i, xi := range x {
		pred := -1.0
		if dot(theta, xi) > 0 {
			pred = 1
		}
		if pred == y[i] {
			ok++
		}
	}
	return float64(ok) / float64(len(x))
}

// dimRatios forms risk(d_max)/risk(d_min) for every synthetic loss, rank, ε
// and method, with a delta-method standard error.
func dimRatios(cells []UtilityCell) []DimRatio {
	type key struct {
		loss   string
		rank   int
		eps    float64
		method string
	}
	lo := map[key]UtilityCell{}
	hi := map[key]UtilityCell{}
	var order []key
	for _, c := range cells {
		if c.Workload != WorkloadSynthetic || c.Runs == 0 {
			continue
		}
		k := key{c.Loss, c.Rank, c.Epsilon, c.Method}
		l, ok := lo[k]
		if !ok {
			order = append(order, k)
			lo[k], hi[k] = c, c
			continue
		}
		if c.D < l.D {
			lo[k] = c
		}
		if c.D > hi[k].D {
			hi[k] = c
		}
	}
	var out []DimRatio
	for _, k := range order {
		if k.method == MethodNonPrivate {
			continue
		}
		l, h := lo[k], hi[k]
		if l.D == h.D {
			continue
		}
		dr := DimRatio{Loss: k.loss, Rank: k.rank, Epsilon: k.eps, Method: k.method, DLow: l.D, DHigh: h.D,
			Low: l.ExcessMean, High: h.ExcessMean, Ratio: h.ExcessMean / l.ExcessMean}
		seL := l.ExcessStd / math.Sqrt(float64(l.Runs))
		seH := h.ExcessStd / math.Sqrt(float64(h.Runs))
		dr.RatioSE = math.Abs(dr.Ratio) * math.Hypot(seL/l.ExcessMean, seH/h.ExcessMean)
		if math.IsNaN(dr.Ratio) || math.IsInf(dr.Ratio, 0) || math.IsNaN(dr.RatioSE) || math.IsInf(dr.RatioSE, 0) {
			continue // a zero mean at d_min: no ratio (keeps the report plain JSON)
		}
		if k.method == MethodExponential {
			dr.Target = DimFreeTarget
			dr.Meets = dr.Ratio <= DimFreeTarget
		}
		out = append(out, dr)
	}
	return out
}

// hyper writes the a-priori rules down.
func hyper(o UtilityOptions) Hyper {
	h := Hyper{
		Delta: o.Delta, Clip: o.Clip, Neighbours: mechanism.ReplaceOne,
		Accountant:      "exact Gaussian-DP curve δ_s(ε) (package privacy) for the exponential mechanism, both DP-GD variants and output perturbation; objective perturbation uses its own pointwise bound (ObjPert)",
		ExponentialRule: "mechanism.Sample: default η rule (optimal), public radius C, rank k, sampler auto (exact 1-d rejection when the latent dimension is 1, else the proximal sampler with mode auto and half of δ for its TV)",
		GDSteps:         o.GDSteps,
		GDRule:          "full batch, θ₀ = 0, average iterate, σ = 2G√T/(n·s*(ε,δ)); projected: h = C/(√T·√(G²+dσ²)); unprojected: h = C/(√T·√(G²+kσ²)), k the public rank",
		OutputMuRule:    "μ = 2G·k^{1/4}/(C·√(n·s*)); sensitivity (1+2·tol)·2G/(nμ) covers the certified SDCA error; σ = sensitivity/s*",
		OutputTol:       o.OutputTol,
		ObjectiveRule:   "logistic only; λ = max(μ_output, β/(n(e^{ε/2}−1))), β = clip²/4; σ from ε = log(1+β/(nλ)) + 2G²/σ² + 2G√(2ln(1/δ))/σ; exact minimiser by Newton (float residue not charged)",
		ReferenceRule:   "excess = L(θ) − min_{‖θ‖≤C} L on the training data; the minimum by projected (sub)gradient descent with a certified gap",
		DimensionFree:   "synthetic data lie exactly in the k-dim span of U and every regulariser is isotropic, so the exponential mechanism, output and objective perturbation are computed on the k-dim latent data and lifted with their exact Gaussian orthogonal parts; DP-GD runs in d; exponential-direct samples Algorithm 1 in d (proximal sampler, rank k declared) for d ≤ directMaxD as a cross-check",
		Notes: []string{
			"no hyper-parameter looks at the data; G = clip for all three losses",
			"real data: features scaled from dataset's declared public ranges, rows clipped to ‖x‖ ≤ clip, no intercept, fixed 80/20 split",
			"the exponential mechanism on real data runs at ε′ ≤ ε when the proximal sampler's T at ε exceeds the step budget (see effectiveEpsilon)",
		},
	}
	if o.Synthetic != nil {
		h.SyntheticRadius = o.Synthetic.Radius
	}
	if o.Real != nil {
		h.RealRadius, h.RealExpStepLimit = o.Real.Radius, o.Real.ExpStepBudget
	}
	return h
}
