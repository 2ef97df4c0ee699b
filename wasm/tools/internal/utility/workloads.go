//go:build !js

package utility

// The utility study's workloads (synthetic and real), the dimension ratios
// and the written-down hyper-parameter rules.

import (
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"

	"github.com/dpsample/dpsample/core/baseline"
	"github.com/dpsample/dpsample/core/checks"
	"github.com/dpsample/dpsample/core/dataset"
	"github.com/dpsample/dpsample/core/dpgd"
	"github.com/dpsample/dpsample/core/loss"
	"github.com/dpsample/dpsample/core/mechanism"
	"github.com/dpsample/dpsample/core/rng"
	"github.com/dpsample/dpsample/wasm/tools/internal/stats"
)

// gdSchedule is DP-GD's public schedule for method m (MethodDPGD or
// MethodDPGDProjected) on workload w at ε: core/dpgd's smooth rule for a
// smooth loss, its non-smooth rule otherwise.
func gdSchedule(o UtilityOptions, w *workload, m string, eps float64) (dpgd.Schedule, error) {
	return dpgd.NewSchedule(dpgd.Params{N: w.full.N(), D: w.d, Rank: w.rank, G: w.full.G(), Curvature: w.full.Curvature(),
		Radius: w.radius, Epsilon: eps, Delta: o.Delta, Projected: m == MethodDPGDProjected})
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

func latentRows(s *loss.Set) [][]float64 {
	x := make([][]float64, s.N())
	for i := range x {
		x[i] = slices.Clone(s.Row(i))
	}
	return x
}

func Targets(s *loss.Set) []float64 {
	y := make([]float64, s.N())
	for i := range y {
		y[i] = s.Target(i)
	}
	return y
}

// syntheticWorkloads builds the workloads of one loss and rank, one per d.
func syntheticWorkloads(s *SyntheticOptions, g SyntheticGrid, kind loss.Kind, k int, clip float64) ([]workload, error) {
	r := rng.Seeded(s.DataSeed ^ uint64(k)*0x2545F4914F6CDD1D ^ uint64(kind)*0x9E3779B97F4A7C15 ^ uint64(g.N)*0xBF58476D1CE4E5B9)
	var data baseline.RankK
	var err error
	if kind == loss.LAD {
		data, err = baseline.NewRankKRegression(g.N, k, s.Noise, r)
	} else {
		data, err = baseline.NewRankK(g.N, k, r)
	}
	if err != nil {
		return nil, err
	}
	latent, err := loss.New(kind, data.Z, data.Y, loss.Params{Clip: clip})
	if err != nil {
		return nil, err
	}
	ref := baseline.Reference(latent, s.Radius, referenceIters(g.N, k))
	var out []workload
	for _, d := range g.Dims {
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
		return workload{}, checks.Errorf("real.dataDir", "a directory holding %s (%v)", b.File, err)
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

// dimRatios forms median risk(d_max)/median risk(d_min) for every synthetic
// loss, n, rank, ε and method, with a bootstrap interval.
func dimRatios(cells []UtilityCell) []DimRatio {
	type key struct {
		loss    string
		n, rank int
		eps     float64
		method  string
	}
	lo := map[key]UtilityCell{}
	hi := map[key]UtilityCell{}
	var order []key
	for _, c := range cells {
		if c.Workload != WorkloadSynthetic || c.Runs == 0 {
			continue
		}
		k := key{c.Loss, c.N, c.Rank, c.Epsilon, c.Method}
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
	for i, k := range order {
		if k.method == MethodNonPrivate {
			continue
		}
		l, h := lo[k], hi[k]
		if l.D == h.D {
			continue
		}
		dr := DimRatio{Loss: k.loss, N: k.n, Rank: k.rank, Epsilon: k.eps, Method: k.method, DLow: l.D, DHigh: h.D,
			Low: l.ExcessMedian, High: h.ExcessMedian, Ratio: h.ExcessMedian / l.ExcessMedian,
			RatioCI: stats.RatioCI(l.Excess, h.Excess, stats.BootSeed(i, 99)), Invariant: DimInvariant(k.method)}
		if bad := func(x float64) bool { return math.IsNaN(x) || math.IsInf(x, 0) }; bad(dr.Ratio) || bad(dr.RatioCI[0]) || bad(dr.RatioCI[1]) {
			continue // a zero median at d_min: no ratio (keeps the report plain JSON)
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
		ExponentialRule: "mechanism.Sample at the requested ε (no cap): default η rule (optimal), public radius C, public rank k, sampler auto (exact sampler where one exists, else the exact first-order sampler for smooth losses (logistic), else the zeroth-order proximal sampler (hinge, lad)), half of δ for the sampler's TV",
		GDRule:          "core/dpgd's public schedule, recorded in each cell (schedule): full batch, θ₀ = 0, σ = 2G√T/(n·s*(ε,δ)); smooth losses h = 1/(β·clip²), T = ⌈0.5·min(n·s, K)·β·clip²·C/G⌉ (K = dpgd.SmoothNSCap since issue 43; the study's runs of f855c52 used T = ⌈0.5·n·s·β·clip²·C/G⌉), suffix average; non-smooth T = ⌈(n·s)²/k⌉, h = C/(√T·√(G²+mσ²)) (m = k unprojected, d projected), average iterate; T in [50, 20000]",
		OutputMuRule:    "μ = 2G·k^{1/4}/(C·√(n·s*)); sensitivity (1+2·tol)·2G/(nμ) covers the certified SDCA error; σ = sensitivity/s*",
		OutputTol:       o.OutputTol,
		ObjectiveRule:   "logistic only; λ = max(μ_output, β/(n(e^{ε/2}−1))), β = clip²/4; σ from ε = log(1+β/(nλ)) + 2G²/σ² + 2G√(2ln(1/δ))/σ; exact minimiser by Newton (float residue not charged)",
		ReferenceRule:   "excess = L(θ) − min_{‖θ‖≤C} L on the training data; the minimum by projected (sub)gradient descent with a certified gap",
		DimensionFree:   "every method runs on the d-dimensional rows: Algorithm 1 sampled in d with rank k declared, both DP-GD variants in d, output perturbation solved by SDCA in d with noise in all d, objective perturbation solved by Newton in d (where n·d² ≤ objectiveMaxWork); exponential-latent (Algorithm 1 on the k-dim latent data, lifted with its exact Gaussian orthogonal part) is a cross-check for d ≤ latentMaxD only",
		Notes: []string{
			"no hyper-parameter looks at the data; G = clip for all three losses",
			"real data: features scaled from dataset's declared public ranges, rows clipped to ‖x‖ ≤ clip, no intercept, fixed 80/20 split",
			"real data: Algorithm 1 runs at the requested ε (the step cap of earlier reports is gone); the first-order sampler's T at n = 455, d = 30 is a few hundred steps",
		},
	}
	if o.Synthetic != nil {
		h.SyntheticRadius = o.Synthetic.Radius
	}
	if o.Real != nil {
		h.RealRadius = o.Real.Radius
	}
	return h
}
