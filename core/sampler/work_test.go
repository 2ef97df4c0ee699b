package sampler

import (
	"context"
	"math"
	"testing"

	"github.com/dpsample/dpsample/core/loss"
	"github.com/dpsample/dpsample/core/rng"
	"github.com/dpsample/dpsample/core/stats"
	"gonum.org/v1/gonum/stat/distuv"
)

// TestTotalBudget: the Chernoff bound of TotalBudget holds against the exact
// binomial tail (gonum) and stays below the target (DrawBudget's bound:
// TestDrawBudgetHolds), and B is the least count with that bound; at B = T·M the bound is
// 0 (no overrun possible).
func TestTotalBudget(t *testing.T) {
	for _, c := range []struct {
		steps, m  int
		p, target float64
	}{{337, 29, 0.59, 1e-9}, {20, 12, 0.37, 1e-4}, {5000, 60, 0.36, 1e-12}, {3, 2, 0.5, 1e-30}} {
		b, bound := TotalBudget(c.steps, c.m, c.p, c.target)
		exact := distuv.Binomial{N: float64(b), P: c.p}.CDF(float64(c.steps - 1)) // P(Bin(B, p) ≤ T − 1)
		t.Logf("T=%d M=%d p=%v target %g: B = %d (B/T = %.3f), bound %.3g, exact tail %.3g", c.steps, c.m, c.p, c.target, b, float64(b)/float64(c.steps), bound, exact)
		if b == int64(c.steps*c.m) {
			exact = 0 // N_t ≤ M: no overrun, whatever the binomial says
		}
		if bound > c.target || exact > bound*(1+1e-9)+1e-300 || b > int64(c.steps*c.m) || b < int64(c.steps) {
			t.Errorf("%+v: B = %d, bound %g, exact %g", c, b, bound, exact)
		}
		if b < int64(c.steps*c.m) {
			if _, prev := TotalBudget(c.steps, c.m, c.p, c.target); prev != bound {
				t.Errorf("not deterministic")
			}
			q := float64(c.steps-1) / float64(b-1)
			if q < c.p && math.Exp(-float64(b-1)*klBernoulli(q, c.p)) <= c.target {
				t.Errorf("%+v: B − 1 = %d also meets the target", c, b-1)
			}
		} else if bound != 0 {
			t.Errorf("%+v: B = T·M with bound %g ≠ 0", c, bound)
		}
	}

}

// TestWorkModesLaw: padding does not change the law. The first-order
// sampler on the curved 1-D logistic problem (where the acceptance step
// matters, TestFirstOrderBrokenFails) with WorkPerStep and WorkTotal, and
// the zeroth-order sampler on the 1-D ℓ1 problem in both RGO modes with
// WorkTotal (the mode of fixedWork), pass the same KS tests (α = 1e-3 and
// 0.01 respectively, critical values + TV); every run does exactly the
// planned work: T·(K + 1) anchor passes, T·M or B trials, B_f factory draws
// (loss evaluations 2·B_f), the same Draws in every chain of a mode. The
// zeroth-order sampler's WorkPerStep (M ≈ 35 trials every step) is checked
// for its counters on 20 chains only.
func TestWorkModesLaw(t *testing.T) {
	const eta, mu, tv = 40, 0.02, 1e-3
	m := numChains(2000)
	set, lc := curved(t, loss.Logistic, eta, mu)
	for i, w := range []string{WorkPerStep, WorkTotal} {
		pl, err := NewFirstOrderPlan(FirstOrderParams{N: set.N(), D: set.Dim(), G: set.G(), Curv: set.Curvature(), Eta: eta, Mu: mu, TV: tv, Work: w})
		if err != nil {
			t.Fatal(err)
		}
		xs := make([]float64, m)
		var draws int64
		for c := range xs {
			x, st, err := RunFirstOrder(context.Background(), pl, set, rng.Seeded(uint64(900+100*i+c)), nil)
			if err != nil {
				t.Fatal(err)
			}
			xs[c] = x[0]
			trials := int64(pl.Steps) * int64(pl.TrialBudget)
			if w == WorkTotal {
				trials = pl.TrialTotal
			}
			if st.AnchorIters != int64(pl.Steps*(pl.AnchorMax+1)) || st.Trials != trials || (c > 0 && st.Draws != draws) {
				t.Fatalf("first-order %s: stats %+v (T=%d K=%d M=%d B=%d)", w, st, pl.Steps, pl.AnchorMax, pl.TrialBudget, pl.TrialTotal)
			}
			draws = st.Draws
		}
		ks, crit := stats.KS(xs, lc.CDF), stats.KSCritical(foAlpha, m)+tv
		t.Logf("first-order %s: T=%d K=%d M=%d B=%d τ_over=%.3g: KS %.4f (crit %.4f)", w, pl.Steps, pl.AnchorMax, pl.TrialBudget, pl.TrialTotal, pl.TauOver, ks, crit)
		if ks > crit {
			t.Errorf("first-order %s: KS %.4f > %.4f", w, ks, crit)
		}
		if pl.TauC+pl.TauFail+pl.TauOver > tv*(1+1e-12) {
			t.Errorf("first-order %s: TV split %g + %g + %g > %g", w, pl.TauC, pl.TauFail, pl.TauOver, tv)
		}
	}
	for i, mode := range []string{ModeFull, ModeStochastic} {
		for j, w := range []string{WorkPerStep, WorkTotal} {
			p, pot, z := l1Problem(mode)
			p.Work = w
			pl := mustPlan(t, p)
			var ks, crit, ks2, crit2 float64
			var st Stats
			chainsRun := int64(20)
			if w == WorkPerStep {
				_, st = chains(t, pl, pot, int(chainsRun), uint64(60+10*i+j))
			} else {
				ks, crit, ks2, crit2, st = l1KS(t, pl, pot, z, uint64(60+10*i+j))
				chainsRun = int64(numChains(1500))
			}
			trials := int64(pl.Steps) * int64(pl.TrialBudget)
			evals := 2 * int64(pl.N) * trials
			if w == WorkTotal {
				trials = pl.TrialTotal
				evals = 2 * int64(pl.N) * trials
			}
			if mode == ModeStochastic {
				evals = 2 * int64(pl.PoissonCap) * trials
				if w == WorkTotal {
					evals = 2 * pl.FactoryTotal
				}
			}
			t.Logf("%s %s: T=%d M=%d B=%d B_f=%d τ_over=%.3g: KS %.4f (crit %.4f), KS2 %.4f (crit %.4f)", mode, w, pl.Steps, pl.TrialBudget, pl.TrialTotal, pl.FactoryTotal, pl.TauOver, ks, crit, ks2, crit2)
			if st.Trials != chainsRun*trials || st.LossEvals != chainsRun*evals {
				t.Errorf("%s %s: %d trials and %d evaluations in %d chains, want %d and %d per chain", mode, w, st.Trials, st.LossEvals, chainsRun, trials, evals)
			}
			if ks > crit || ks2 > crit2 {
				t.Errorf("%s %s: KS %.4f, %.4f > %.4f, %.4f", mode, w, ks, ks2, crit, crit2)
			}
		}
	}
}

// TestTotalBudgetOverrun: a budget too small on purpose (B = T, while a step
// needs more than one trial with probability ≥ 0.1) runs out; the run still
// does exactly B trials, counts the overruns and returns a sample.
func TestTotalBudgetOverrun(t *testing.T) {
	set, _ := curved(t, loss.Logistic, 40, 0.02)
	pl, err := NewFirstOrderPlan(FirstOrderParams{N: set.N(), D: set.Dim(), G: set.G(), Curv: set.Curvature(), Eta: 40, Mu: 0.02, TV: 1e-3, Work: WorkTotal})
	if err != nil {
		t.Fatal(err)
	}
	pl.TrialTotal = int64(pl.Steps)
	_, st, err := RunFirstOrder(context.Background(), pl, set, rng.Seeded(4), nil)
	if err != nil {
		t.Fatal(err)
	}
	if st.Overruns == 0 || st.Trials != pl.TrialTotal {
		t.Errorf("B = T: %d overruns, %d trials (B = %d)", st.Overruns, st.Trials, pl.TrialTotal)
	}
	p, pot, _ := l1Problem(ModeStochastic)
	p.Work = WorkTotal
	zp := mustPlan(t, p)
	zp.FactoryTotal = int64(zp.Steps) // about half the draws the factories need
	_, zs, err := Run(context.Background(), zp, pot, rng.Seeded(5), nil)
	if err != nil {
		t.Fatal(err)
	}
	if zs.Overruns == 0 || zs.Trials != zp.TrialTotal || zs.LossEvals != 2*zp.FactoryTotal {
		t.Errorf("B_f = T: %d overruns, %d trials (B = %d), %d evaluations (2·B_f = %d)", zs.Overruns, zs.Trials, zp.TrialTotal, zs.LossEvals, 2*zp.FactoryTotal)
	}
}
