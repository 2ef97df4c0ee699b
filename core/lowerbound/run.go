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
	// Returned is the user Trace returned on the full dataset (−1 for ⊥);
	// RemovedReturned the same on the dataset without user Remove.
	Returned        []int `json:"returned"`
	RemovedReturned []int `json:"removedReturned,omitempty"`
	// InnocentRate is, per trial, the exact probability that an innocent
	// (a ghost) is accused given the code and the full-data output
	// (fingerprint.Code.InnocentRate); RemovedInnocentRate is the same for
	// the output without user Remove, which is exactly the probability that
	// user Remove is accused in that pass (their row is independent of it).
	// Both are computed from the secret key: analysis, NOT private.
	InnocentRate        []float64 `json:"innocentRate"`
	RemovedInnocentRate []float64 `json:"removedInnocentRate,omitempty"`

	Rates          Rates    `json:"rates"`
	ImpliedEpsilon *Implied `json:"impliedEpsilon"`
	// Claim is the privacy the mechanism promises to one person (all Copies
	// of their rows); ImpliedEpsilon uses its δ.
	Claim Claim `json:"claim"`
	// Soundness states Definition G.1's per-person soundness for this run:
	// measured rates with exact Clopper–Pearson bounds, the exact
	// conditional rates, and the worst case over outputs.
	Soundness Soundness `json:"soundness"`
	Last      *Detail   `json:"last,omitempty"` // the last trial, for plots
	Private   bool      `json:"private"`        // false when a seed was given
	Trials    int       `json:"trials"`         // completed trials
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

// SoundnessLevel is the two-sided confidence level of every interval in
// Rates, Soundness and Implied.
const SoundnessLevel = 0.95

// Soundness is what this run says about Definition G.1's soundness: an
// innocent (a person whose rows the mechanism did not see) is accused with
// probability ≤ ξ. The paper proves it for the code of Algorithm 2 only as
// cited from [BUV18]; here it is measured and computed.
type Soundness struct {
	Xi    float64 `json:"xi"`
	Level float64 `json:"level"` // two-sided confidence level of the intervals
	// RemovedHits of Trials: user Remove accused (∈ A) without their rows,
	// with the exact Clopper–Pearson interval RemovedCI. With 0 hits the
	// upper end is 1 − (α/2)^{1/N} ≈ 3.7/N (the two-sided form of the rule
	// of three).
	RemovedHits int         `json:"removedHits"`
	Trials      int         `json:"trials"`
	RemovedCI   *[2]float64 `json:"removedCI,omitempty"`
	// RemovedExact is the mean of RemovedInnocentRate: the probability,
	// averaged over these trials' codes and outputs, that user Remove is
	// accused without their rows (computed, not sampled).
	RemovedExact *float64 `json:"removedExact,omitempty"`
	// GhostExact is the mean of InnocentRate (the ghosts' exact rate).
	GhostExact float64 `json:"ghostExact"`
	// WorstCaseGaussian = Φ̄(threshold/√d₀) ≈ Φ̄(√k), k = ln(n/ξ): the normal
	// approximation of the per-innocent rate for the all-ones output, the
	// output with the largest innocent variance (tardos mode). Any output is
	// allowed by Definition G.1, so per-person soundness ≤ ξ fails when
	// this exceeds ξ (e.g. n = 4: 2.0e-3 at ξ = 1e-3).
	WorstCaseGaussian float64 `json:"worstCaseGaussian"`
	// WorstCaseExact is the exact all-ones rate of the first trial's code
	// (it varies by ≈ 0.1% between codes, see fingerprint's tests).
	WorstCaseExact float64 `json:"worstCaseExact"`
	// WorstCaseExceedsXi is max(WorstCaseGaussian, WorstCaseExact) > ξ: the
	// page must then not say "at most ξ" for arbitrary outputs.
	WorstCaseExceedsXi bool `json:"worstCaseExceedsXi"`
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
		if lawRem, _, err = o.law(o.rows(0)-o.dropped(), D, full); err != nil {
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
	var worst []float64
	for range o.Trials {
		if err := ctx.Err(); err != nil {
			return e.finish(ghostRates, worst), err
		}
		code, err := fingerprint.New(fingerprint.Params{N: o.N, Xi: o.Xi, Mode: o.Mode}, rCode)
		if err != nil {
			return e.finish(ghostRates, worst), err
		}
		p, err := o.pass(code, lawFull, -1, rMech, step)
		if err != nil {
			return e.finish(ghostRates, worst), err
		}
		tr, _ := code.TraceWord(p.word)
		e.Returned = append(e.Returned, returned(tr))
		ir, _ := code.InnocentRate(p.word)
		e.InnocentRate = append(e.InnocentRate, ir)
		if len(worst) == 0 { // the all-ones rate varies by ≈ 0.1% between codes
			wc, _ := code.InnocentRate(code.AllOnes())
			worst = append(worst, wc)
		}
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
				return e.finish(ghostRates, worst), err
			}
			trq, _ := code.TraceWord(q.word)
			e.RemovedAccused = append(e.RemovedAccused, slices.Contains(trq.Accused, i))
			e.RemovedReturned = append(e.RemovedReturned, returned(trq))
			rr, _ := code.InnocentRate(q.word)
			e.RemovedInnocentRate = append(e.RemovedInnocentRate, rr)
			det.RemovedScores = trq.Scores
		}
		e.Last = det
		e.Trials++
	}
	return e.finish(ghostRates, worst), nil
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
		// σ = √D/(N·s): the ℓ2 sensitivity of the column means is √D/N.
		return MechanismInfo{Name: Gaussian, Epsilon: o.Epsilon, Delta: o.Delta, GDP: s,
			Sigma: math.Sqrt(float64(D)) / (rows * s)}, err
	case Exponential:
		return Algorithm1(o.rows(0), D, o.Epsilon, o.Delta)
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
		rows -= o.dropped()
	}
	box, isBox := law.(boxLaw)
	res := passResult{word: fingerprint.NewWord(D)}
	for k0 := 0; k0 < D; k0 += chunk {
		k1 := min(k0+chunk, D)
		for k := k0; k < k1; k++ {
			ones := code.Ones(k) * o.Copies
			if removed >= 0 && code.Bit(removed, k) {
				ones -= o.dropped()
			}
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

// returned is the user Trace returned, or −1 for ⊥.
func returned(tr fingerprint.Trace) int {
	if tr.Returned == nil {
		return -1
	}
	return *tr.Returned
}

func (e Experiment) finish(ghostRates, worst []float64) Experiment {
	e.Claim = GroupClaim(e.Mechanism, e.Options.Copies)
	e.Soundness = Soundness{Xi: e.Options.Xi, Level: SoundnessLevel, WorstCaseGaussian: e.Code.GaussianWorstCase()}
	e.Soundness.WorstCaseExceedsXi = e.Soundness.WorstCaseGaussian > e.Options.Xi
	n := e.Trials
	if n == 0 {
		return e
	}
	// A trial cancelled between its two passes has appended to the full-pass
	// slices; keep one entry per completed trial.
	e.ExcessOverD, e.ViolationsOverD, e.MaxScoreOverThreshold = e.ExcessOverD[:n], e.ViolationsOverD[:n], e.MaxScoreOverThreshold[:n]
	e.Traced, e.Returned, e.InnocentRate = e.Traced[:n], e.Returned[:n], e.InnocentRate[:n]
	if e.ExpectedExcessOverD != nil {
		e.ExpectedExcessOverD = e.ExpectedExcessOverD[:n]
	}
	if e.MemberAccused != nil {
		e.MemberAccused = e.MemberAccused[:n]
	}
	if e.GhostScored > 0 && len(ghostRates) > n { // ghosts of the cancelled trial
		last := ghostRates[len(ghostRates)-1]
		ghostRates = ghostRates[:n]
		g := e.Options.Ghosts
		e.GhostScored -= g
		e.GhostAccused -= int(math.Round(last * float64(g)))
	}
	e.Soundness.GhostExact = mean(e.InnocentRate)
	e.Soundness.WorstCaseExact = mean(worst)
	e.Soundness.WorstCaseExceedsXi = math.Max(e.Soundness.WorstCaseGaussian, e.Soundness.WorstCaseExact) > e.Options.Xi
	t := count(e.Traced)
	e.Rates.Traced = float64(t) / float64(n)
	lo, hi := ClopperPearson(t, n, 0.05)
	e.Rates.TracedCI = [2]float64{lo, hi}
	if e.Options.Remove != nil {
		m, r := float64(count(e.MemberAccused))/float64(n), float64(count(e.RemovedAccused))/float64(n)
		e.Rates.MemberAccused, e.Rates.RemovedAccused = &m, &r
		x0 := count(e.RemovedAccused)
		lo, hi := ClopperPearson(x0, n, 1-SoundnessLevel)
		e.Rates.RemovedCI = &[2]float64{lo, hi}
		e.Soundness.RemovedHits, e.Soundness.Trials, e.Soundness.RemovedCI = x0, n, e.Rates.RemovedCI
		p0 := mean(e.RemovedInnocentRate)
		e.Soundness.RemovedExact = &p0
		e.ImpliedEpsilon = ImpliedEpsilon(count(e.MemberAccused), x0, n, e.Claim.Delta, 1-SoundnessLevel)
		if p1 := m; p0 > 0 && p1 > e.Claim.Delta {
			v := math.Log((p1 - e.Claim.Delta) / p0)
			e.ImpliedEpsilon.Limit = &v
		}
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

func mean(x []float64) float64 {
	if len(x) == 0 {
		return 0
	}
	s := 0.0
	for _, v := range x {
		s += v
	}
	return s / float64(len(x))
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
