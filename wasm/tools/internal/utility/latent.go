//go:build !js

package utility

import (
	"context"
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/dpsample/dpsample/core/checks"
	"github.com/dpsample/dpsample/core/loss"
	"github.com/dpsample/dpsample/core/mechanism"
	"github.com/dpsample/dpsample/core/rng"
	"github.com/dpsample/dpsample/wasm/tools/internal/stats"
)

// The latent-vs-direct check of issue 16 item 2. The utility study samples
// Algorithm 1 on synthetic rank-k data in two ways: "exponential" samples the
// k-dim latent problem and lifts α to θ = Uα + β with β ~ N(0, (ημ)⁻¹P⊥)
// (exact: for rows in span(U) the density exp(−η(L(Uᵀθ) + μ/2‖θ‖²)) factors
// into the latent density of Uᵀθ times an isotropic Gaussian on span(U)⊥);
// "exponential-direct" samples the d-dim problem with the rank k declared.
// The excess risk depends on θ only through Uᵀθ, so both have the same law
// of excess up to (i) the sampler's TV budget (≤ δ/2 per sample, ≈ 10⁻⁶ at
// δ = 10⁻⁵) and (ii) the δ split: a latent exact sampler (k = 1) gives the
// whole δ to the GDP curve, every approximate sampler half, so s, η, μ differ
// by a few per cent. LatentDirect draws independent runs of both paths, with
// the requests the study builds (expRequest), and tests equality in law of
// the excess with the two-sample KS and Mann–Whitney tests.

// expRequest is the request the utility study sends for Algorithm 1 on
// workload w at ε: the latent rows (rank left to default = k) or, direct, the
// embedded d-dim rows with the rank k declared. samplerName "" is the
// mechanism's default ("auto").
func expRequest(o UtilityOptions, w *workload, eps float64, direct bool, samplerName mechanism.Sampler, seed *uint64) mechanism.Request {
	if direct {
		return mechanism.Request{Loss: w.kind.String(), X: w.xTrain, Y: w.yTrain, Epsilon: eps, Delta: o.Delta,
			Radius: w.radius, Rank: w.rank, Clip: o.Clip, Seed: seed, Sampler: samplerName}
	}
	return mechanism.Request{Loss: w.kind.String(), X: latentRows(w.latent), Y: Targets(w.latent), Epsilon: eps,
		Delta: o.Delta, Radius: w.radius, Clip: o.Clip, Seed: seed, Sampler: samplerName}
}

// LatentConfig names the samplers of the two paths.
type LatentConfig struct {
	Name string `json:"name"`
	// Latent and Direct map the rank k to the request's sampler ("" = auto).
	Latent func(k int) mechanism.Sampler `json:"-"`
	Direct func(k int) mechanism.Sampler `json:"-"`
	Doc    string                        `json:"doc"`
}

// LatentConfigs are the configurations checked: the study as it ran before
// the first-order sampler (latent auto = exact 1-D sampler at k = 1, else
// zeroth-order; direct zeroth-order), both paths forced to the zeroth-order
// sampler (same δ split, hence the same η, μ), and the study as it runs now
// (auto in both: first-order for logistic, zeroth-order for hinge and lad,
// exact 1-D for the latent k = 1).
func LatentConfigs() []LatentConfig {
	auto := func(int) mechanism.Sampler { return "" }
	prox := func(int) mechanism.Sampler { return mechanism.SamplerProximal }
	return []LatentConfig{
		{Name: "was", Doc: "before the first-order sampler: latent exact (k = 1) or zeroth-order, direct zeroth-order",
			Latent: func(k int) mechanism.Sampler {
				if k == 1 {
					return mechanism.SamplerExact
				}
				return mechanism.SamplerProximal
			}, Direct: prox},
		{Name: "proximal", Doc: "zeroth-order sampler forced in both paths", Latent: prox, Direct: prox},
		{Name: "now", Doc: "sampler auto in both paths (first-order for logistic)", Latent: auto, Direct: auto},
	}
}

// LatentOptions configure LatentDirect.
type LatentOptions struct {
	Utility UtilityOptions // synthetic workloads (n, ranks, losses, radius, δ, clip); Dims must hold D
	D       int            // the dimension of the direct path
	Epsilon float64
	Runs    int      // independent runs per path per cell
	Configs []string // names from LatentConfigs (default all)
	Seed    uint64   // master seed of the runs (the report is NOT private)
	// BreakRank, when > 0, replaces the rank the direct request declares (a
	// deliberately broken study, for the test that the check has power).
	BreakRank int
}

// LatentCell is one loss × rank × configuration.
type LatentCell struct {
	Config     string  `json:"config"`
	Loss       string  `json:"loss"`
	Rank       int     `json:"rank"`
	D          int     `json:"d"`
	Runs       int     `json:"runs"`
	LatentPlan string  `json:"latentMethod"`
	DirectPlan string  `json:"directMethod"`
	LatentGDP  float64 `json:"latentGDP"`
	DirectGDP  float64 `json:"directGDP"`
	LatentEta  float64 `json:"latentEta"`
	DirectEta  float64 `json:"directEta"`
	LatentMean float64 `json:"latentMean"`
	DirectMean float64 `json:"directMean"`
	LatentMed  float64 `json:"latentMedian"`
	DirectMed  float64 `json:"directMedian"`
	LatentSE   float64 `json:"latentSE"`
	DirectSE   float64 `json:"directSE"`
	KS         float64 `json:"ks"`
	KSP        float64 `json:"ksP"`
	MWZ        float64 `json:"mannWhitneyZ"`
	MWP        float64 `json:"mannWhitneyP"`
	Welch      float64 `json:"welchT"`
	Clipped    int     `json:"clippedRows"` // feature rows clipped in any run of either path (0: the embedding preserves norms)
	LatentSecs float64 `json:"latentSecondsPerRun"`
	DirectSecs float64 `json:"directSecondsPerRun"`
	// ⟨u₁, θ⟩ (u₁ the basis vector along the generating direction): the
	// law of Uᵀθ is what both paths must share; its first coordinate is a
	// sharper two-sample statistic than the heavy-tailed excess.
	ProjKS      float64   `json:"projKS"`
	ProjKSP     float64   `json:"projKSP"`
	NormKS      float64   `json:"normKS"` // KS on ‖Uᵀθ‖
	NormKSP     float64   `json:"normKSP"`
	LatentRisks []float64 `json:"-"`
	DirectRisks []float64 `json:"-"`
	LatentProj  []float64 `json:"-"`
	DirectProj  []float64 `json:"-"`
	LatentNorm  []float64 `json:"-"`
	DirectNorm  []float64 `json:"-"`
}

// LatentSame records a configuration whose plans (method, η, μ of both
// paths) equal an earlier configuration's for the same loss and rank.
type LatentSame struct {
	Config string `json:"config"`
	Loss   string `json:"loss"`
	Rank   int    `json:"rank"`
	SameAs string `json:"sameAs"`
}

// LatentReport is LatentDirect's result.
type LatentReport struct {
	Cells   []LatentCell `json:"cells"`
	Same    []LatentSame `json:"same"`
	Seed    uint64       `json:"seed"`
	Private bool         `json:"private"` // always false (seeded)
	Seconds float64      `json:"seconds"`
}

// LatentDirect runs the check: for every synthetic loss × rank of
// o.Utility and every configuration, o.Runs latent and o.Runs direct runs at
// d = o.D, ε = o.Epsilon, each with its own seed (independent samples; the
// study itself reuses one seed for both paths of a job, which correlates
// them but does not change either law).
func LatentDirect(ctx context.Context, o LatentOptions) (LatentReport, error) {
	start := time.Now()
	u := o.Utility
	u.defaults()
	s := u.Synthetic
	if s == nil {
		return LatentReport{}, checks.Errorf("synthetic", "given (the check runs on the synthetic workloads)")
	}
	if err := checks.IntRange("runs", o.Runs, 2, 100_000); err != nil {
		return LatentReport{}, err
	}
	cfgs := LatentConfigs()
	if len(o.Configs) > 0 {
		var sel []LatentConfig
		for _, name := range o.Configs {
			i := -1
			for j, c := range cfgs {
				if c.Name == name {
					i = j
				}
			}
			if i < 0 {
				return LatentReport{}, checks.Errorf("configs", "a list of known configuration names, got %q", name)
			}
			sel = append(sel, cfgs[i])
		}
		cfgs = sel
	}
	rep := LatentReport{Seed: o.Seed}
	master := rng.Seeded(o.Seed)
	type job struct {
		cell, run int
		direct    bool
		seed      uint64
	}
	type cellIn struct {
		w   *workload
		cfg LatentConfig
	}
	var ins []cellIn
	ws, err := latentWorkloads(u, o.D)
	if err != nil {
		return rep, err
	}
	for _, w := range ws {
		kind, k := w.kind, w.rank
		{
			seen := map[[2]string]string{}
			for _, c := range cfgs {
				// A configuration whose two plans coincide with an earlier
				// one's for this loss and rank is the same experiment: run once.
				var key [2]string
				for i, direct := range []bool{false, true} {
					name := c.Latent(k)
					if direct {
						name = c.Direct(k)
					}
					pl, err := mechanism.NewPlan(expRequest(u, w, o.Epsilon, direct, name, nil))
					if err != nil {
						return rep, err
					}
					key[i] = fmt.Sprintf("%s/%g/%g", pl.Method, pl.Eta, pl.Mu)
				}
				if prev, ok := seen[key]; ok {
					rep.Same = append(rep.Same, LatentSame{Config: c.Name, Loss: kind.String(), Rank: k, SameAs: prev})
					continue
				}
				seen[key] = c.Name
				ins = append(ins, cellIn{w, c})
				rep.Cells = append(rep.Cells, LatentCell{Config: c.Name, Loss: kind.String(), Rank: k, D: o.D, Runs: o.Runs,
					LatentRisks: make([]float64, o.Runs), DirectRisks: make([]float64, o.Runs),
					LatentProj: make([]float64, o.Runs), DirectProj: make([]float64, o.Runs),
					LatentNorm: make([]float64, o.Runs), DirectNorm: make([]float64, o.Runs)})
			}
		}
	}
	var jobs []job
	for ci := range ins {
		for r := 0; r < o.Runs; r++ {
			jobs = append(jobs, job{ci, r, false, master.Uint64()}, job{ci, r, true, master.Uint64()})
		}
	}
	secs := make([][2]float64, len(ins))
	err = runPool(ctx, u.Workers, len(jobs), func(ctx context.Context, ji int) (func(), error) {
		jb := jobs[ji]
		in := ins[jb.cell]
		w := in.w
		name := in.cfg.Latent(w.rank)
		if jb.direct {
			name = in.cfg.Direct(w.rank)
		}
		seed := jb.seed
		req := expRequest(u, w, o.Epsilon, jb.direct, name, &seed)
		if jb.direct && o.BreakRank > 0 {
			req.Rank = o.BreakRank
		}
		t0 := time.Now()
		res, err := mechanism.Sample(ctx, req, nil)
		var excess, proj, norm float64
		if err == nil {
			theta := res.Theta
			if !jb.direct {
				theta = w.lift(res.Theta, 1/math.Sqrt(res.Plan.Eta*res.Plan.Mu), rng.Seeded(seed^0x5DEECE66D))
			}
			excess = w.full.Mean(theta) - w.ref.Loss
			proj = stats.Dot(theta, w.basis[0])
			for _, b := range w.basis {
				norm += stats.Dot(theta, b) * stats.Dot(theta, b)
			}
			norm = math.Sqrt(norm)
		}
		dt := time.Since(t0).Seconds()
		if err != nil {
			return nil, fmt.Errorf("%s %s k=%d direct=%v: %w", in.cfg.Name, w.kind, w.rank, jb.direct, err)
		}
		return func() {
			c := &rep.Cells[jb.cell]
			c.Clipped += res.Diagnostics.ClippedRows
			desc := res.Plan.Method
			if jb.direct {
				c.DirectProj[jb.run], c.DirectNorm[jb.run] = proj, norm
				c.DirectRisks[jb.run], c.DirectPlan, c.DirectGDP, c.DirectEta = excess, desc, res.Plan.GDP, res.Plan.Eta
				secs[jb.cell][1] += dt
			} else {
				c.LatentProj[jb.run], c.LatentNorm[jb.run] = proj, norm
				c.LatentRisks[jb.run], c.LatentPlan, c.LatentGDP, c.LatentEta = excess, desc, res.Plan.GDP, res.Plan.Eta
				secs[jb.cell][0] += dt
			}
		}, nil
	})
	if err != nil {
		return rep, err
	}
	for i := range rep.Cells {
		c := &rep.Cells[i]
		var sdL, sdD float64
		c.LatentMean, sdL = stats.MeanStd(c.LatentRisks)
		c.DirectMean, sdD = stats.MeanStd(c.DirectRisks)
		m := float64(o.Runs)
		c.LatentSE, c.DirectSE = sdL/math.Sqrt(m), sdD/math.Sqrt(m)
		c.Welch = (c.DirectMean - c.LatentMean) / math.Hypot(c.LatentSE, c.DirectSE)
		c.LatentMed, c.DirectMed = stats.Median(c.LatentRisks), stats.Median(c.DirectRisks)
		c.KS = stats.KSTwoSample(c.LatentRisks, c.DirectRisks)
		c.KSP = stats.KSPValue(c.KS, o.Runs, o.Runs)
		c.MWZ, c.MWP = stats.MannWhitney(c.LatentRisks, c.DirectRisks)
		c.ProjKS = stats.KSTwoSample(c.LatentProj, c.DirectProj)
		c.ProjKSP = stats.KSPValue(c.ProjKS, o.Runs, o.Runs)
		c.NormKS = stats.KSTwoSample(c.LatentNorm, c.DirectNorm)
		c.NormKSP = stats.KSPValue(c.NormKS, o.Runs, o.Runs)
		c.LatentSecs, c.DirectSecs = secs[i][0]/m, secs[i][1]/m
	}
	rep.Seconds = time.Since(start).Seconds()
	return rep, nil
}

// latentWorkloads returns the study's synthetic workloads at dimension d,
// one per loss and rank (syntheticWorkloads: the same data, basis and
// reference fit as the utility study). It is the one place that depends on
// the shape of SyntheticOptions.
func latentWorkloads(u UtilityOptions, d int) ([]*workload, error) {
	s := u.Synthetic
	var out []*workload
	for _, g := range s.Grids {
		if !slices.Contains(g.Dims, d) {
			continue
		}
		kind, err := loss.ParseKind(g.Loss)
		if err != nil {
			return nil, err
		}
		for _, k := range g.Ranks {
			ws, err := syntheticWorkloads(s, g, kind, k, u.Clip)
			if err != nil {
				return nil, err
			}
			for i := range ws {
				if ws[i].d == d {
					out = append(out, &ws[i])
				}
			}
		}
	}
	if len(out) == 0 {
		return nil, checks.Errorf("d", "a dimension of some synthetic grid, got %d", d)
	}
	return out, nil
}
