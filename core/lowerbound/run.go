package lowerbound

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/dpsample/dpsample/core/fingerprint"
	"github.com/dpsample/dpsample/core/privacy"
	"github.com/dpsample/dpsample/core/rng"
)

// Experiment is the outcome of Run (JS: the Experiment of lowerbound.run).
// Per-trial slices have one entry per completed trial.
type Experiment struct {
	Options   Options             `json:"options"`
	Code      fingerprint.Lengths `json:"code"`
	Rows      int                 `json:"rows"` // rows the mechanism sees on the full dataset
	Mechanism MechanismInfo       `json:"mechanism"`

	ExcessOverD []float64 `json:"excessOverD"` // (L(θ) − min L)/D on the full dataset
	// ExpectedExcessOverD is the closed-form E[excess]/D given the code
	// (box-exponential only): Σ_k |1−2m_k|·g(|a_k|)/D, g(a) = 1/a − 1/(e^a−1).
	ExpectedExcessOverD   []float64 `json:"expectedExcessOverD,omitempty"`
	ViolationsOverD       []float64 `json:"violationsOverD"` // marking violations of the rounded output / D
	Traced                []bool    `json:"traced"`          // Trace returned a user (≠ ⊥)
	MaxScoreOverThreshold []float64 `json:"maxScoreOverThreshold"`
	MemberAccused         []bool    `json:"memberAccused,omitempty"`  // user Remove ∈ A on the full dataset
	RemovedAccused        []bool    `json:"removedAccused,omitempty"` // user Remove ∈ A without its rows
	GhostAccused          int       `json:"ghostAccused"`
	GhostScored           int       `json:"ghostScored"`

	Rates          Rates    `json:"rates"`
	ImpliedEpsilon *Implied `json:"impliedEpsilon"`
	Last           *Detail  `json:"last,omitempty"` // the last trial, for plots
	Private        bool     `json:"private"`        // false when a seed was given
	Trials         int      `json:"trials"`         // completed trials
}

// Rates summarise the per-trial outcomes; each rate comes with a 95%
// Clopper–Pearson interval [lo, hi].
type Rates struct {
	Traced         float64     `json:"traced"`
	TracedCI       [2]float64  `json:"tracedCI"`
	MemberAccused  *float64    `json:"memberAccused"`
	RemovedAccused *float64    `json:"removedAccused"`
	RemovedCI      *[2]float64 `json:"removedCI,omitempty"`
	// Ghost is the pooled per-innocent accusation rate over ghost users.
	// Ghosts share the code and the output within a trial, so its uncertainty
	// is that of the per-trial means, not of GhostScored Bernoulli draws.
	Ghost   *float64 `json:"ghost"`
	GhostSE *float64 `json:"ghostSE,omitempty"` // standard error from the per-trial ghost rates
}

// Detail is the last trial's trace, for the score-bar plot.
type Detail struct {
	Scores        []float64 `json:"scores"` // members
	GhostScores   []float64 `json:"ghostScores,omitempty"`
	Threshold     float64   `json:"threshold"`
	Accused       []int     `json:"accused"`
	Returned      *int      `json:"returned"`
	RemovedScores []float64 `json:"removedScores,omitempty"`
	ExcessOverD   float64   `json:"excessOverD"`
}

// chunk is the number of published columns between progress calls and
// context checks.
const chunk = 1 << 15

// maxGhostDetail caps the ghost scores kept for the plot.
const maxGhostDetail = 20

// Run runs o.Trials independent trials of the lower-bound experiment of
// Theorem 3.7 / Lemma G.2. Each trial draws a fresh code (Algorithm 2), builds
// the dataset (the n published rows, Copies times each, then Pad zero rows),
// runs the mechanism, rounds its output at ½, traces it and scores Ghosts
// innocents; with Remove set it repeats mechanism and trace on the dataset
// without user Remove. progress(done, total) is called after every chunk of
// columns (it may block); ctx is checked between chunks. On cancellation Run
// returns the trials completed so far together with ctx.Err().
func Run(ctx context.Context, o Options, progress func(done, total int)) (Experiment, error) {
	o, l, err := o.normalize()
	if err != nil {
		return Experiment{}, err
	}
	root, private := rng.New(o.Seed)
	rCode, rMech, rGhost := rng.Split(root), rng.Split(root), rng.Split(root)
	D := l.Length
	e := Experiment{Options: o, Code: l, Rows: o.rows(0), Private: private}
	full, err := fullInfo(o, D)
	if err != nil {
		return Experiment{}, err
	}
	lawFull, info, err := o.law(o.rows(0), D, full)
	if err != nil {
		return Experiment{}, err
	}
	e.Mechanism = info
	var lawRem columnLaw
	passes := 1
	if o.Remove != nil {
		passes = 2
		if lawRem, _, err = o.law(o.rows(1), D, full); err != nil {
			return Experiment{}, err
		}
	}
	total := o.Trials * passes * D
	done := 0
	step := func(n int) error {
		done += n
		if progress != nil {
			progress(done, total)
		}
		return ctx.Err()
	}
	var ghostRates []float64
	for range o.Trials {
		if err := ctx.Err(); err != nil {
			return e.finish(ghostRates), err
		}
		code, err := fingerprint.New(fingerprint.Params{N: o.N, Xi: o.Xi, Mode: o.Mode}, rCode)
		if err != nil {
			return e.finish(ghostRates), err
		}
		p, err := o.pass(code, lawFull, -1, rMech, step)
		if err != nil {
			return e.finish(ghostRates), err
		}
		tr, _ := code.TraceWord(p.word)
		e.ExcessOverD = append(e.ExcessOverD, p.excess/float64(D))
		if o.Mechanism == BoxExponential {
			e.ExpectedExcessOverD = append(e.ExpectedExcessOverD, p.expected/float64(D))
		}
		e.ViolationsOverD = append(e.ViolationsOverD, float64(code.Violations(p.word))/float64(D))
		e.Traced = append(e.Traced, tr.Returned != nil)
		e.MaxScoreOverThreshold = append(e.MaxScoreOverThreshold, slices.Max(tr.Scores)/tr.Threshold)
		det := &Detail{Scores: tr.Scores, Threshold: tr.Threshold, Accused: tr.Accused, Returned: tr.Returned,
			ExcessOverD: p.excess / float64(D)}
		if o.Ghosts > 0 {
			gs, _ := code.GhostScores(rGhost, o.Ghosts, p.word)
			acc := 0
			for _, s := range gs {
				if s >= tr.Threshold {
					acc++
				}
			}
			e.GhostAccused += acc
			e.GhostScored += len(gs)
			ghostRates = append(ghostRates, float64(acc)/float64(len(gs)))
			det.GhostScores = gs[:min(len(gs), maxGhostDetail)]
		}
		if o.Remove != nil {
			i := *o.Remove
			e.MemberAccused = append(e.MemberAccused, slices.Contains(tr.Accused, i))
			q, err := o.pass(code, lawRem, i, rMech, step)
			if err != nil {
				return e.finish(ghostRates), err
			}
			trq, _ := code.TraceWord(q.word)
			e.RemovedAccused = append(e.RemovedAccused, slices.Contains(trq.Accused, i))
			det.RemovedScores = trq.Scores
		}
		e.Last = det
		e.Trials++
	}
	return e.finish(ghostRates), nil
}

// fullInfo fixes the mechanism's data-independent parameters on the full dataset.
func fullInfo(o Options, D int) (MechanismInfo, error) {
	rows := float64(o.rows(0))
	switch o.Mechanism {
	case BoxExponential:
		if o.S != nil {
			return MechanismInfo{Name: BoxExponential, S: *o.S, Epsilon: 2 * float64(D) * *o.S / rows}, nil
		}
		return MechanismInfo{Name: BoxExponential, S: o.Epsilon * rows / (2 * float64(D)), Epsilon: o.Epsilon}, nil
	case Gaussian:
		s, err := privacy.Calibrate(o.Epsilon, o.Delta)
		return MechanismInfo{Name: Gaussian, Epsilon: o.Epsilon, Delta: o.Delta, GDP: s}, err
	}
	return MechanismInfo{Name: o.Mechanism}, nil
}

type passResult struct {
	word             fingerprint.Word
	excess, expected float64
}

// pass runs the mechanism over every published column of the dataset built
// from code (without user `removed` if ≥ 0) and rounds at ½.
func (o Options) pass(code *fingerprint.Code, law columnLaw, removed int, r *rand.Rand, step func(int) error) (passResult, error) {
	D := code.Length
	rows := o.rows(0)
	if removed >= 0 {
		rows = o.rows(1)
	}
	box, isBox := law.(boxLaw)
	res := passResult{word: fingerprint.NewWord(D)}
	for k0 := 0; k0 < D; k0 += chunk {
		k1 := min(k0+chunk, D)
		for k := k0; k < k1; k++ {
			ones := code.Ones(k)
			if removed >= 0 && code.Bit(removed, k) {
				ones--
			}
			ones *= o.Copies
			theta := law.sample(r, ones)
			res.excess += excess(theta, ones, rows)
			if theta >= 0.5 {
				res.word.Set(k, true)
			}
			if isBox {
				a := box.lambda * float64(rows-2*ones)
				res.expected += abs(float64(rows-2*ones)) / float64(rows) * meanTruncExp(abs(a))
			}
		}
		if err := step(k1 - k0); err != nil {
			return res, err
		}
	}
	return res, nil
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}

func (e Experiment) finish(ghostRates []float64) Experiment {
	n := e.Trials
	if n == 0 {
		return e
	}
	t := count(e.Traced)
	e.Rates.Traced = float64(t) / float64(n)
	lo, hi := ClopperPearson(t, n, 0.05)
	e.Rates.TracedCI = [2]float64{lo, hi}
	if e.Options.Remove != nil {
		m, r := float64(count(e.MemberAccused))/float64(n), float64(count(e.RemovedAccused))/float64(n)
		e.Rates.MemberAccused, e.Rates.RemovedAccused = &m, &r
		lo, hi := ClopperPearson(count(e.RemovedAccused), n, 0.05)
		e.Rates.RemovedCI = &[2]float64{lo, hi}
		delta := e.Options.Delta
		if e.Options.Mechanism == Median || e.Options.Mechanism == BoxExponential {
			delta = 0
		}
		e.ImpliedEpsilon = ImpliedEpsilon(count(e.MemberAccused), count(e.RemovedAccused), n, delta, 0.05)
	}
	if e.GhostScored > 0 {
		g := float64(e.GhostAccused) / float64(e.GhostScored)
		e.Rates.Ghost = &g
		if m := len(ghostRates); m > 1 {
			v := 0.0
			for _, x := range ghostRates {
				v += (x - g) * (x - g)
			}
			se := math.Sqrt(v / float64(m-1) / float64(m))
			e.Rates.GhostSE = &se
		}
	}
	return e
}

func count(b []bool) int {
	c := 0
	for _, v := range b {
		if v {
			c++
		}
	}
	return c
}
