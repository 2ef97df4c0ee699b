package mechanism

import (
	"github.com/dpsample/dpsample/core/loss"
	"github.com/dpsample/dpsample/core/sampler"
)

// Work is a data-independent estimate of the work of one sample call (all
// m samples), from the plan alone, for a page to warn before it starts: the
// call makes about Passes passes over the n rows, each costing about
// RowsTimesD = n·d multiply-adds plus n evaluations of the scalar loss. A
// page turns it into seconds with a per-(row·feature) cost it measured on
// the device: seconds ≈ Passes·RowsTimesD·cost.
//
//	first-order, fixedWork (the default): Passes = PassesMax = m·(T·(K+1) + B), exactly the work done
//	first-order   Passes    = T·m·(1 + 1/p_min)       one anchor pass and 1/p_min trials per step
//	              PassesMax = T·m·(K + 1 + 1/p_min)   the bound on the expectation (Plan.ExpectedLossEvals/n)
//	zeroth-order  Passes = PassesMax = Plan.ExpectedLossEvals/n
//	1d-rejection  Passes = PassesMax = Plan.ExpectedLossEvals/n (table and draws)
//	l1-mixture    Passes = PassesMax = m (each draw walks every coordinate's n points)
//	gaussian      Passes = PassesMax = 1 (the mean of the rows)
//
// For the first-order sampler PassesMax is a bound (K anchor passes is the
// worst case over all data sets and the acceptance per trial is at least
// p_min); Passes is an estimate, not a bound: it assumes the warm-started
// anchor needs one pass per step. How many it needs depends on the data
// (on how the curvature of L spreads over the d directions): 1.00 per step
// on the 455 × 30 breast-cancer-shaped problem (acceptance 0.87, 2.15 passes
// per step against Passes' 2.66), 1.1–1.7 on 200 × 5 problems (TestPlanWork:
// 0.84–1.14 × Passes). Only public inputs enter: Work is part of the plan and
// safe to show.
type Work struct {
	Passes     float64 `json:"passes"`     // estimated passes over the data
	PassesMax  float64 `json:"passesMax"`  // data-independent bound on the expected passes
	RowsTimesD float64 `json:"rowsTimesD"` // n·d: the multiply-adds of one pass
	// Reference is the passes of the non-private reference fit the same call makes
	// (Result.Fit, loss.MinPassesMax): 1 for L(0), ⌈d/2⌉ for the covariance
	// of the rows and clamp(3·10⁷/(n·d), 150, 3000) iterations of about one
	// pass for a smooth loss (clamp(3·10⁷/(n·d), 300, 3000) of 1 + d²/(6n)
	// for lad, quantile and hinge: a pass and a d×d Newton system). It is
	// not in Passes; a page adds it
	// (at 10⁵ × 9 rows with DP-GD it is 156 passes beside T's 300–500).
	// ReferenceFixed: the fit makes exactly Reference passes whatever the
	// rows (the default, docs/PRIVACY.md §7.1); false (a request with
	// fixedWork false) when it stops once converged, after at most as many.
	Reference      float64 `json:"referencePasses"`
	ReferenceFixed bool    `json:"referenceFixed"`
	// Draws counts the random numbers the samplers draw on the sampling
	// worker (normals, uniforms and row indices), from public inputs:
	//
	//	first-order   m·(T·d + B·(d + 1))            a step's d normals; a trial's d normals and its uniform
	//	zeroth-order  m·((T+1)·d + B·(2d + 1) + 2·B_f)  the start's d normals; a trial's 2d and its uniform; a factory draw's row and uniform
	//	dp-gd         m·T·d                          the gradient noise (+ d + d(d+1) with intervals)
	//	exact         0                              (counted in Passes)
	//
	// with B the trials and B_f the factory draws per sample — the budgets
	// under fixed work (then Draws is Diagnostics.Draws exactly), T/p_min and
	// the expected factory draws without. A page adds Draws times the cost of
	// a draw on the device (issue 53 item 7b: a zeroth-order run spent most
	// of its time on the 2d normals of its trials, which Passes leaves out —
	// under node the estimate without them was 3–7 times short).
	Draws float64 `json:"draws"`
	// Interval is the passes of the intervals' releases (Request.Interval
	// above the gate: interval.Plan.Passes = d + 2, one for the margins and
	// the gradient and d + 1 for the two d×d matrices), included in Passes
	// and PassesMax; 0 otherwise. Their d + d(d+1) normals are in Draws.
	Interval float64 `json:"intervalPasses"`
}

// estimateWork fills Work from a plan whose method and budgets are set.
func estimateWork(pl Plan, k loss.Kind, fixedFit bool) Work {
	n, m := float64(pl.N), float64(pl.Samples)
	w := Work{RowsTimesD: n * float64(pl.D), Reference: fitPasses(pl.N, pl.D, k), ReferenceFixed: fixedFit}
	T, d := float64(pl.Steps), float64(pl.D)
	trials := float64(pl.TrialTotal) // B per sample under fixed work
	if !pl.FixedWork && pl.AcceptMin > 0 {
		trials = T / pl.AcceptMin
	}
	switch {
	case pl.Schedule != nil:
		w.Draws = m * T * d
	case pl.Method == MethodFirstOrder:
		w.Draws = m * (T*d + trials*(d+1))
	case pl.Method == methodProxPre+sampler.ModeFull:
		w.Draws = m * ((T+1)*d + trials*(2*d+1))
	case pl.Method == methodProxPre+sampler.ModeStochastic:
		factory := float64(pl.FactoryTotal)
		if !pl.FixedWork {
			factory = pl.ExpectedLossEvals / 2 / m
		}
		w.Draws = m * ((T+1)*d + trials*(2*d+1) + 2*factory)
	}
	switch pl.Method {
	case MethodFirstOrder:
		if pl.FixedWork { // exactly T·(K+1) anchor passes and B trials per sample
			w.Passes = m * (float64(pl.Steps)*float64(pl.AnchorMax+1) + float64(pl.TrialTotal))
			w.PassesMax = w.Passes
			break
		}
		w.Passes = float64(pl.Steps) * m * (1 + 1/pl.AcceptMin)
		w.PassesMax = pl.ExpectedLossEvals / n
	case MethodL1:
		w.Passes, w.PassesMax = m, m
	case MethodGauss:
		w.Passes, w.PassesMax = 1, 1
	default:
		w.Passes = pl.ExpectedLossEvals / n
		w.PassesMax = w.Passes
	}
	if pl.Interval != nil && pl.Interval.Gate {
		w.Interval = pl.Interval.Passes
		w.Passes += w.Interval
		w.PassesMax += w.Interval
		w.Draws += d + d*(d+1) // g's d normals, H's and J's upper triangles
	}
	return w
}
