package sampler

import (
	"math"
	"testing"

	"github.com/dpsample/dpsample/core/loss"
	"github.com/dpsample/dpsample/core/rng"
	"github.com/dpsample/dpsample/core/stats"
)

// TestFirstOrderShardedKS: the first-order sampler on the sharded passes
// (loss.Sharded on W = 4 goroutines) passes the KS test of
// TestFirstOrderKS1D against the exact 1-D law (α = 1e-3, critical value +
// TV) for logistic and Huber on n = 512 records (four blocks, so that every
// shard gets whole blocks); and the W = 1 (the Set) and W = 2 chains end
// where the W = 4 chains end, bit for bit (the sharded passes return the
// Set's bits), on the first 60 seeds — so they pass the same KS test. With
// fixed work (WorkTotal: the Set's anchor iterations before the last use its
// gradient-only pass, loss.Sharded's its Linearize) W = 1 and W = 2 end at
// the same bits on 20 seeds.
func TestFirstOrderShardedKS(t *testing.T) {
	const eta, mu, tv, n = 40, 0.02, 1e-3, 512
	m := numChains(1500)
	for i, k := range foKinds[:2] {
		r := rng.Seeded(uint64(60 + i))
		x := make([][]float64, n)
		y := make([]float64, n)
		for j := range x {
			x[j] = []float64{(0.3 + 0.7*r.Float64()) * float64(2*r.IntN(2)-1)}
			if k.Classification() {
				y[j] = float64(2*r.IntN(2) - 1)
			} else {
				y[j] = 0.8 * r.NormFloat64()
			}
		}
		set := mustSet(t, k, x, y, loss.Params{Huber: 0.5})
		lc := exactFor(t, set, eta, eta*mu)
		pl := foPlan(t, set, eta, mu, tv)
		sh := loss.NewSharded(set, 4)
		xs, _ := foChains(t, pl, sh, m, uint64(70+i))
		sh.Close()
		base := column(xs, 0)
		ks, crit := stats.KS(base, lc.CDF), stats.KSCritical(foAlpha, m)+tv
		t.Logf("%v W=4: T=%d, KS %.4f (crit %.4f)", k, pl.Steps, ks, crit)
		if ks > crit {
			t.Errorf("%v W=4: KS %.4f > critical %.4f", k, ks, crit)
		}
		for _, w := range []int{1, 2} {
			var pot SmoothPotential = set
			if w > 1 {
				sh := loss.NewSharded(set, w)
				defer sh.Close()
				pot = sh
			}
			xs, _ := foChains(t, pl, pot, 60, uint64(70+i))
			for c, v := range column(xs, 0) {
				if math.Float64bits(v) != math.Float64bits(base[c]) {
					t.Fatalf("%v W=%d: chain %d ended at %v, W=4 at %v", k, w, c, v, base[c])
				}
			}
		}
		fx, err := NewFirstOrderPlan(FirstOrderParams{N: set.N(), D: set.Dim(), G: set.G(), Curv: set.Curvature(), Eta: eta, Mu: mu, TV: tv, Work: WorkTotal})
		if err != nil {
			t.Fatal(err)
		}
		sh2 := loss.NewSharded(set, 2)
		defer sh2.Close()
		one, _ := foChains(t, fx, set, 20, uint64(80+i))
		two, _ := foChains(t, fx, sh2, 20, uint64(80+i))
		for c := range one {
			if math.Float64bits(one[c][0]) != math.Float64bits(two[c][0]) {
				t.Fatalf("%v fixed work: chain %d ended at %v (Set), %v (W=2)", k, c, one[c][0], two[c][0])
			}
		}
	}
}
