package lowerbound

import (
	"math"

	"github.com/dpsample/dpsample/core/checks"
)

// Pooled is the soundness evidence of several soundness runs (Options.Remove
// set) of one configuration, pooled over all their trials: what a caller that
// runs the experiment in chunks (the trace page) shows. Every field is the
// one Run's finish computes for a single run, over the pooled trials:
//
//   - the counts (traced, member and removed accusations, ghosts) are sums;
//   - Soundness.RemovedExact and GhostExact are means over all trials of
//     RemovedInnocentRate and InnocentRate; WorstCaseExact is the mean over
//     runs of each run's value (each is one code's all-ones rate);
//   - RemovedCI, TracedCI, MemberCI are two-sided Clopper–Pearson intervals at
//     SoundnessLevel; ImpliedEpsilon is ImpliedEpsilon(member, removed,
//     trials, Claim.Delta) with Limit = ln((p̂₁ − δ)/p₀), p₀ = RemovedExact.
type Pooled struct {
	Trials       int        `json:"trials"`
	Traced       int        `json:"traced"` // trials where Trace returned a user on the full data
	TracedCI     [2]float64 `json:"tracedCI"`
	MemberHits   int        `json:"memberHits"` // trials where user Remove ∈ A on the full data
	MemberCI     [2]float64 `json:"memberCI"`
	GhostAccused int        `json:"ghostAccused"`
	GhostScored  int        `json:"ghostScored"`
	// Claim is the runs' common Claim; Soundness and ImpliedEpsilon as in
	// Experiment, over the pooled trials.
	Claim          Claim     `json:"claim"`
	Soundness      Soundness `json:"soundness"`
	ImpliedEpsilon *Implied  `json:"impliedEpsilon"`
}

// Pool pools soundness runs of one configuration (the same Options up to
// Seed, Trials and Ghosts, hence the same Claim). It errors, naming "runs",
// when there is no completed trial, when a run has no Remove, or when two
// runs differ in configuration.
func Pool(runs ...Experiment) (Pooled, error) {
	var p Pooled
	if len(runs) == 0 {
		return p, checks.Errorf("runs", "at least one experiment")
	}
	first := runs[0]
	var removedRates, innocentRates []float64
	worst := 0.0
	for i, e := range runs {
		if e.Options.Remove == nil {
			return p, checks.Errorf("runs", "soundness runs (options.remove set), run %d has none", i)
		}
		if !sameConfig(first, e) {
			return p, checks.Errorf("runs", "runs of one configuration, run %d differs from run 0", i)
		}
		n := e.Trials
		if len(e.Traced) < n || len(e.MemberAccused) < n || len(e.RemovedAccused) < n ||
			len(e.RemovedInnocentRate) < n || len(e.InnocentRate) < n {
			return p, checks.Errorf("runs", "complete experiments, run %d has fewer per-trial entries than trials", i)
		}
		p.Trials += n
		p.Traced += count(e.Traced[:n])
		p.MemberHits += count(e.MemberAccused[:n])
		p.Soundness.RemovedHits += count(e.RemovedAccused[:n])
		p.GhostAccused += e.GhostAccused
		p.GhostScored += e.GhostScored
		removedRates = append(removedRates, e.RemovedInnocentRate[:n]...)
		innocentRates = append(innocentRates, e.InnocentRate[:n]...)
		worst += e.Soundness.WorstCaseExact
	}
	if p.Trials == 0 {
		return p, checks.Errorf("runs", "at least one completed trial")
	}
	alpha := 1 - SoundnessLevel
	n := p.Trials
	p.Claim = first.Claim
	s := &p.Soundness
	s.Xi, s.Level, s.Trials = first.Options.Xi, SoundnessLevel, n
	s.WorstCaseGaussian = first.Soundness.WorstCaseGaussian
	s.WorstCaseExact = worst / float64(len(runs))
	s.WorstCaseExceedsXi = math.Max(s.WorstCaseGaussian, s.WorstCaseExact) > s.Xi
	lo, hi := ClopperPearson(s.RemovedHits, n, alpha)
	s.RemovedCI = &[2]float64{lo, hi}
	p0 := mean(removedRates)
	s.RemovedExact = &p0
	s.GhostExact = mean(innocentRates)
	p.TracedCI[0], p.TracedCI[1] = ClopperPearson(p.Traced, n, alpha)
	p.MemberCI[0], p.MemberCI[1] = ClopperPearson(p.MemberHits, n, alpha)
	delta := p.Claim.Delta
	p.ImpliedEpsilon = ImpliedEpsilon(p.MemberHits, s.RemovedHits, n, delta, alpha)
	if p1 := float64(p.MemberHits) / float64(n); p0 > 0 && p1 > delta {
		v := math.Log((p1 - delta) / p0)
		p.ImpliedEpsilon.Limit = &v
	}
	return p, nil
}

// sameConfig reports whether a and b ran the same experiment up to Seed,
// Trials and Ghosts.
func sameConfig(a, b Experiment) bool {
	x, y := a.Options, b.Options
	eqf := func(p, q *float64) bool { return (p == nil) == (q == nil) && (p == nil || *p == *q) }
	eqi := func(p, q *int) bool { return (p == nil) == (q == nil) && (p == nil || *p == *q) }
	return x.N == y.N && x.Xi == y.Xi && x.Mode == y.Mode && x.Mechanism == y.Mechanism &&
		x.Epsilon == y.Epsilon && x.Delta == y.Delta && eqf(x.S, y.S) && eqi(x.Remove, y.Remove) &&
		x.Copies == y.Copies && x.Pad == y.Pad &&
		a.Claim.Rule == b.Claim.Rule && eqf(a.Claim.Epsilon, b.Claim.Epsilon) && a.Claim.Delta == b.Claim.Delta
}
