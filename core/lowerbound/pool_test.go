package lowerbound

import (
	"errors"
	"math"
	"reflect"
	"testing"

	"github.com/dpsample/dpsample/core/checks"
)

// TestPoolOneRun: pooling a single run reproduces that run's own Soundness,
// ImpliedEpsilon (Limit included) and rates, so the page that pools chunks
// shows exactly what Run computes.
func TestPoolOneRun(t *testing.T) {
	for _, o := range []Options{
		{N: 4, Xi: 1.0 / 16, Mechanism: Median, Remove: iptr(0), Ghosts: 5, Trials: 12, Seed: seed(7)},
		{N: 3, Xi: 0.05, Mechanism: Gaussian, Epsilon: 1e4, Delta: 1e-5, Copies: 2, Remove: iptr(1), Ghosts: 3, Trials: 8, Seed: seed(8)},
	} {
		e := mustRun(t, o)
		p, err := Pool(e)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(p.Soundness, e.Soundness) {
			t.Errorf("%s: pooled soundness %+v, run's %+v", o.Mechanism, p.Soundness, e.Soundness)
		}
		if !reflect.DeepEqual(p.ImpliedEpsilon, e.ImpliedEpsilon) {
			t.Errorf("%s: pooled implied %+v, run's %+v", o.Mechanism, *p.ImpliedEpsilon, *e.ImpliedEpsilon)
		}
		if !reflect.DeepEqual(p.Claim, e.Claim) || p.ImpliedEpsilon.Delta != e.Claim.Delta {
			t.Errorf("%s: pooled claim %+v (implied δ %g), run's %+v", o.Mechanism, p.Claim, p.ImpliedEpsilon.Delta, e.Claim)
		}
		if p.TracedCI != e.Rates.TracedCI || float64(p.Traced)/float64(p.Trials) != e.Rates.Traced ||
			float64(p.MemberHits)/float64(p.Trials) != *e.Rates.MemberAccused {
			t.Errorf("%s: pooled rates %+v, run's %+v", o.Mechanism, p, e.Rates)
		}
		if p.GhostAccused != e.GhostAccused || p.GhostScored != e.GhostScored {
			t.Errorf("%s: ghosts %d/%d, run's %d/%d", o.Mechanism, p.GhostAccused, p.GhostScored, e.GhostAccused, e.GhostScored)
		}
	}
}

// TestPoolTwoRuns: counts add, and the exact rate is the mean over all
// trials — with 3 and 9 trials that differs from the mean of the two runs'
// means, which a wrong pooling would return.
func TestPoolTwoRuns(t *testing.T) {
	o := Options{N: 4, Xi: 1.0 / 16, Mechanism: BoxExponential, S: fptr(3), Remove: iptr(2), Ghosts: 4}
	a, b := o, o
	a.Trials, a.Seed = 3, seed(11)
	b.Trials, b.Seed, b.Ghosts = 9, seed(12), 6
	ea, eb := mustRun(t, a), mustRun(t, b)
	p, err := Pool(ea, eb)
	if err != nil {
		t.Fatal(err)
	}
	all := append(append([]float64(nil), ea.RemovedInnocentRate...), eb.RemovedInnocentRate...)
	want := mean(all)
	if p.Trials != 12 || p.Soundness.Trials != 12 {
		t.Errorf("pooled trials %d / %d, want 12", p.Trials, p.Soundness.Trials)
	}
	if got := *p.Soundness.RemovedExact; math.Abs(got-want) > 1e-15*want {
		t.Errorf("pooled exact rate %g, want the mean over all 12 trials %g", got, want)
	}
	if mm := (*ea.Soundness.RemovedExact + *eb.Soundness.RemovedExact) / 2; math.Abs(mm-want) < 1e-6*want {
		t.Fatalf("the runs' exact rates %g and %g do not tell the pooled mean from the mean of means", *ea.Soundness.RemovedExact, *eb.Soundness.RemovedExact)
	}
	hits := ea.Soundness.RemovedHits + eb.Soundness.RemovedHits
	lo, hi := ClopperPearson(hits, 12, 0.05)
	if p.Soundness.RemovedHits != hits || *p.Soundness.RemovedCI != [2]float64{lo, hi} {
		t.Errorf("pooled hits %d CI %v, want %d [%g, %g]", p.Soundness.RemovedHits, *p.Soundness.RemovedCI, hits, lo, hi)
	}
	if p.GhostScored != 3*4+9*6 || p.GhostAccused != ea.GhostAccused+eb.GhostAccused {
		t.Errorf("pooled ghosts %d of %d", p.GhostAccused, p.GhostScored)
	}
	wc := (ea.Soundness.WorstCaseExact + eb.Soundness.WorstCaseExact) / 2
	if p.Soundness.WorstCaseExact != wc || p.Soundness.WorstCaseGaussian != ea.Soundness.WorstCaseGaussian {
		t.Errorf("pooled worst case %g (Φ̄ %g), want %g (%g)", p.Soundness.WorstCaseExact, p.Soundness.WorstCaseGaussian, wc, ea.Soundness.WorstCaseGaussian)
	}
	member := count(ea.MemberAccused) + count(eb.MemberAccused)
	im := ImpliedEpsilon(member, hits, 12, p.Claim.Delta, 0.05)
	if p.ImpliedEpsilon.Lower != im.Lower || !reflect.DeepEqual(p.ImpliedEpsilon.Ceiling, im.Ceiling) {
		t.Errorf("pooled implied %+v, want %+v", *p.ImpliedEpsilon, *im)
	}
}

// TestPoolBadInput: no runs, runs without Remove, and runs of different
// configurations are refused with an error naming "runs".
func TestPoolBadInput(t *testing.T) {
	base := Options{N: 3, Xi: 0.05, Mechanism: Median, Remove: iptr(0), Trials: 2, Seed: seed(3)}
	e := mustRun(t, base)
	other := base
	other.Remove = iptr(1)
	eo := mustRun(t, other)
	noRemove := base
	noRemove.Remove = nil
	en := mustRun(t, noRemove)
	for name, runs := range map[string][]Experiment{"none": nil, "no remove": {en}, "other person": {e, eo}} {
		_, err := Pool(runs...)
		var ce *checks.Error
		if !errors.As(err, &ce) || ce.Field != "runs" {
			t.Errorf("%s: error %v, want one naming runs", name, err)
		}
	}
}
