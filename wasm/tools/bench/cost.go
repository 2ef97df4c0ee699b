//go:build !js

package main

import (
	"context"
	"math"

	"github.com/dpsample/dpsample/core/benchkit"
	"github.com/dpsample/dpsample/core/loss"
	"github.com/dpsample/dpsample/core/mechanism"
	"github.com/dpsample/dpsample/core/rng"
	"github.com/dpsample/dpsample/core/sampler"
)

// CostRow is section 2 for one (n, d): the plan of sampler.NewPlan for
// Algorithm 1 calibrated at ε = 1, δ = 10⁻⁵ (G = C = 1, rank d, logistic),
// the §1.3 formulas recomputed from the plan's inputs, and the work
// measured by sampler.Run's Stats over the first Measured steps.
type CostRow struct {
	N, D          int
	Eta, Mu, TV   float64
	Mode          string  `json:"mode"`
	Steps         int     `json:"T"`
	StepsFormula  float64 `json:"TFormula"` // max(1, ⌈ln(KL₀/(2τ_c²)) / (2 ln(1+αλ))⌉)
	StepsApprox   float64 `json:"TApprox"`  // (G_f²/α)·ln(KL₀/(2τ_c²))/s²
	Lambda        float64 `json:"lambda"`
	LambdaFormula float64 `json:"lambdaFormula"` // s²/(2G_f² − s²α)
	Scale         float64 `json:"scale"`         // s, the isoperimetric scale of Z
	GfSqOverAlpha float64 `json:"GfSqOverAlpha"`
	Measured      int64   `json:"measuredSteps"`
	TrialsPerStep float64 `json:"trialsPerStep"`
	TrialsSE      float64 `json:"trialsPerStepSE"`
	EvalsPerStep  float64 `json:"lossEvalsPerStep"`
	EvalsBound    float64 `json:"lossEvalsPerStepBound"` // 2·StepDraws (stochastic) or 2n/p_min (full)
	Failures      int64   `json:"failures"`
	Clips         int64   `json:"clips"`
	ExpectedEvals float64 `json:"expectedLossEvalsFullRun"`
}

func cost() ([]CostRow, error) {
	var rows []CostRow
	for _, n := range []int{100, 1000} {
		for _, d := range []int{2, 50} {
			c, err := mechanism.Calibrate(mechanism.Calibration{N: n, D: d, Rank: d, G: 1, Radius: 1, Epsilon: 1, Delta: 1e-5})
			if err != nil {
				return nil, err
			}
			pl, err := sampler.NewPlan(sampler.Params{N: n, D: d, G: 1, Eta: c.Eta, Mu: c.Mu, TV: c.TV})
			if err != nil {
				return nil, err
			}
			gf := c.Eta * 1
			logNum := math.Max(0, math.Log(pl.KL0/(2*pl.TauC*pl.TauC)))
			s2 := pl.Scale * pl.Scale
			row := CostRow{N: n, D: d, Eta: c.Eta, Mu: c.Mu, TV: c.TV, Mode: pl.Mode, Steps: pl.Steps,
				StepsFormula:  math.Max(1, math.Ceil(logNum/(2*math.Log1p(pl.Alpha*pl.Lambda)))),
				StepsApprox:   gf * gf / pl.Alpha * logNum / s2,
				Lambda:        pl.Lambda,
				LambdaFormula: s2 / (2*gf*gf - s2*pl.Alpha),
				Scale:         pl.Scale,
				GfSqOverAlpha: gf * gf / pl.Alpha,
				ExpectedEvals: pl.ExpectedLossEvals,
			}
			row.EvalsBound = 2 * pl.StepDraws
			if pl.Mode == sampler.ModeFull {
				row.EvalsBound = 2 * float64(n) / pl.PMin
			}
			pot, err := benchkit.GLM(loss.Logistic, n, d, rng.Seeded(uint64(n*100+d)))
			if err != nil {
				return nil, err
			}
			m := 20_000
			if quick {
				m = 2_000
			}
			run := pl
			run.Steps = min(pl.Steps, m)
			_, st, err := sampler.Run(context.Background(), run, pot, rng.Seeded(7), nil)
			if err != nil {
				return nil, err
			}
			row.Measured = st.Steps
			row.TrialsPerStep = float64(st.Trials) / float64(st.Steps)
			// Trials per RGO call are geometric-like with mean ≈ 1/p; its
			// variance is ≤ (1−p)/p², so SE ≈ √((1−p)/p²/steps).
			row.TrialsSE = math.Sqrt((1 - pl.PMin) / (pl.PMin * pl.PMin) / float64(st.Steps))
			row.EvalsPerStep = float64(st.LossEvals) / float64(st.Steps)
			row.Failures, row.Clips = st.Failures, st.Clips
			rows = append(rows, row)
		}
	}
	return rows, nil
}
