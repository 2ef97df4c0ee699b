//go:build !js

package utility

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"time"

	"github.com/dpsample/dpsample/core/baseline"
	"github.com/dpsample/dpsample/core/checks"
	"github.com/dpsample/dpsample/core/dpgd"
	"github.com/dpsample/dpsample/core/loss"
	"github.com/dpsample/dpsample/core/mechanism"
	"github.com/dpsample/dpsample/core/rng"
	"github.com/dpsample/dpsample/wasm/tools/internal/stats"
)

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
// reports the excess empirical risk L(θ) − min_{‖θ‖≤C} L (per run, mean ±
// std, median with a 95 % bootstrap interval), the test accuracy for real
// data (mean, SE, bootstrap interval), the wall time, and for synthetic data
// the ratio of medians risk(d_max)/risk(d_min) at fixed loss, n and rank
// (DimRatio).
//
// Synthetic data: every method runs on the d-dimensional rows — Algorithm 1
// through mechanism.Sample with the public rank declared, both DP-GD
// variants, output perturbation (SDCA in d) and objective perturbation
// (Newton in d, within ObjectiveMaxWork). MethodExpLatent, Algorithm 1 on the
// k-dim latent data lifted with its exact Gaussian orthogonal part, is a
// cross-check of the reduction only (d ≤ LatentMaxD).
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
		for _, g := range s.Grids {
			kind, _ := loss.ParseKind(g.Loss)
			for _, k := range g.Ranks {
				ws, err := syntheticWorkloads(s, g, kind, k, o.Clip)
				if err != nil {
					return rep, err
				}
				for _, w := range ws {
					works = append(works, w)
					for _, e := range g.Epsilons {
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
	done := 0
	err := runPool(ctx, o.Workers, len(jobs), func(ctx context.Context, ji int) (func(), error) {
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
		return func() {
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
				sl.params = out.params
			}
			done++
			if progress != nil {
				progress(done, len(jobs))
			}
		}, err
	})
	if err != nil {
		return rep, err
	}
	for i, c := range keys {
		wk := works[c.w]
		for mi, m := range o.Methods {
			sl := slots[i][mi]
			cell := UtilityCell{Workload: wk.name, Loss: wk.kind.String(), Rank: wk.rank, D: wk.d, N: wk.full.N(),
				Epsilon: c.eps, Method: m, Runs: len(sl.excess), Excess: sl.excess,
				Accuracy: sl.acc, Params: sl.params, ReferenceLoss: wk.ref.Loss, ReferenceGap: wk.ref.Gap, Error: sl.err}
			if m == MethodDPGD || m == MethodDPGDProjected {
				sch, err := gdSchedule(o, &wk, m, c.eps)
				if err != nil {
					return rep, err
				}
				cell.Schedule = &sch
			}
			cell.ExcessMean, cell.ExcessStd = stats.MeanStd(sl.excess)
			cell.ExcessMedian = stats.Median(sl.excess)
			cell.ExcessCI = stats.BootstrapCI(sl.excess, stats.Median, stats.BootSeed(i, mi))
			if len(sl.acc) > 0 {
				cell.AccuracyMean, cell.AccuracyStd = stats.MeanStd(sl.acc)
				cell.AccuracySE = cell.AccuracyStd / math.Sqrt(float64(len(sl.acc)))
				cell.AccuracyCI = stats.BootstrapCI(sl.acc, stats.Mean, stats.BootSeed(i, mi))
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
		theta, params, skip, err := runMethod(ctx, o, w, m, eps, r, seed)
		if err != nil {
			return nil, fmt.Errorf("%s on %s (%s, k=%d, d=%d, ε=%g): %w", m, w.name, w.kind, w.rank, w.d, eps, err)
		}
		out := methodOut{secs: time.Since(t0).Seconds(), params: params, acc: math.NaN()}
		if skip != "" {
			out.err = skip
			outs[mi] = out
			continue
		}
		out.excess = w.full.Mean(theta) - w.ref.Loss
		if w.xTest != nil {
			out.acc = loss.Accuracy(w.xTest, w.yTest, theta)
		}
		outs[mi] = out
	}
	return outs, nil
}

// runMethod returns one release of method m (or a reason to skip it). On
// synthetic data every method works on the d-dimensional rows; only
// MethodExpLatent uses the k-dimensional latent data (a cross-check).
func runMethod(ctx context.Context, o UtilityOptions, w *workload, m string, eps float64, r *rand.Rand, seed *uint64) (theta []float64, params map[string]float64, skip string, err error) {
	n := w.full.N()
	g := w.full.G()
	sampleParams := func(res mechanism.Result) map[string]float64 {
		p := map[string]float64{"eta": res.Plan.Eta, "mu": res.Plan.Mu, "steps": float64(res.Plan.Steps),
			"gdp": res.Plan.GDP, "deltaSpent": res.Privacy.Delta, "expectedLossEvals": res.Plan.ExpectedLossEvals}
		if res.Plan.Method == "first-order" {
			p["firstOrder"] = 1
		}
		if res.Plan.Sampler == mechanism.SamplerExact {
			p["exact"] = 1
		}
		if res.Diagnostics.Trials > 0 {
			p["trials"] = float64(res.Diagnostics.Trials)
		}
		return p
	}
	switch m {
	case MethodNonPrivate:
		return w.lift(w.ref.Theta, 0, r), map[string]float64{"referenceGap": w.ref.Gap}, "", nil
	case MethodExponential:
		req := expRequest(o, w, eps, true, "", seed) // sampled in d, rank k declared
		if w.basis != nil {
			pl, err := mechanism.NewPlan(req)
			if err != nil {
				return nil, nil, "", err
			}
			if work := pl.ExpectedLossEvals * float64(w.d); work > o.Synthetic.MaxWork {
				return nil, nil, fmt.Sprintf("not run: the plan (%s) needs T = %d steps, %.2g record evaluations × d = %.2g > maxWork = %.2g", pl.Method, pl.Steps, pl.ExpectedLossEvals, work, o.Synthetic.MaxWork), nil
			}
		}
		res, err := mechanism.Sample(ctx, req, nil)
		if err != nil {
			return nil, nil, "", err
		}
		return res.Theta, sampleParams(res), "", nil
	case MethodExpLatent:
		switch {
		case w.basis == nil:
			return nil, nil, "real data: no latent shortcut", nil
		case w.d > o.Synthetic.LatentMaxD:
			return nil, nil, fmt.Sprintf("latent cross-check only for d ≤ latentMaxD = %d", o.Synthetic.LatentMaxD), nil
		}
		req := expRequest(o, w, eps, false, "", seed)
		res, err := mechanism.Sample(ctx, req, nil)
		if err != nil {
			return nil, nil, "", err
		}
		return w.lift(res.Theta, 1/math.Sqrt(res.Plan.Eta*res.Plan.Mu), r), sampleParams(res), "", nil
	case MethodDPGD, MethodDPGDProjected:
		// The converging public schedule of core/dpgd (issue 20), the same
		// one as the real-data study's and mechanism's "dp-gd".
		sch, err := gdSchedule(o, w, m, eps)
		if err != nil {
			return nil, nil, "", err
		}
		theta, err := dpgd.Run(ctx, w.full, sch, r, nil)
		if err != nil {
			return nil, nil, "", err
		}
		return theta, map[string]float64{"sigma": sch.Sigma, "steps": float64(sch.Steps), "step": sch.Step}, "", nil
	case MethodOutputPert:
		mu, err := baseline.OutputMu(n, w.rank, g, w.radius, eps, o.Delta)
		if err != nil {
			return nil, nil, "", err
		}
		p := baseline.OutputPert{Epsilon: eps, Delta: o.Delta, Mu: mu, G: g, Tol: o.OutputTol}
		sigma, err := p.Sigma(n)
		if err != nil {
			return nil, nil, "", err
		}
		// Solved in d (SDCA on the d-dimensional rows), noise in all d.
		fit, err := baseline.Regularized(w.full, mu, o.OutputTol*2*g/(float64(n)*mu), baseline.MaxSDCAEpochs(w.full))
		if err != nil {
			return nil, nil, "", err
		}
		// The noise of baseline.OutputPerturbation (rng.Normals53).
		theta := make([]float64, len(fit.Theta))
		rng.Normals53(r, theta)
		for j, v := range fit.Theta {
			theta[j] = v + sigma*theta[j]
		}
		return theta, map[string]float64{"mu": mu, "sigma": sigma, "solverDist": fit.Dist, "epochs": float64(fit.Epochs)}, "", nil
	case MethodObjectivePert:
		if w.kind != loss.Logistic {
			return nil, nil, "objective perturbation needs a smooth loss; " + w.kind.String() + " is not", nil
		}
		if w.basis != nil && float64(n)*float64(w.d)*float64(w.d) > o.Synthetic.ObjectiveMaxWork {
			return nil, nil, fmt.Sprintf("not run: solved in d by Newton with a d×d Hessian, only where n·d² ≤ objectiveMaxWork = %.2g", o.Synthetic.ObjectiveMaxWork), nil
		}
		mu, err := baseline.OutputMu(n, w.rank, g, w.radius, eps, o.Delta)
		if err != nil {
			return nil, nil, "", err
		}
		lambda := baseline.ObjectiveLambda(n, mu, o.Clip, eps)
		p := baseline.ObjPert{Epsilon: eps, Delta: o.Delta, Lambda: lambda, Clip: o.Clip}
		sigma, err := p.Sigma(n)
		if err != nil {
			return nil, nil, "", err
		}
		b := make([]float64, w.full.Dim()) // baseline.ObjectivePerturbation's b (rng.Normals53)
		rng.Normals53(r, b)
		for j := range b {
			b[j] *= sigma
		}
		theta, gn := baseline.PerturbedLogistic(w.full, lambda, b)
		return theta, map[string]float64{"lambda": lambda, "sigma": sigma, "epsJacobian": p.JacobianEpsilon(n),
			"gradNorm": gn}, "", nil
	}
	return nil, nil, "", checks.Errorf("methods", "a known method, got %q", m)
}
