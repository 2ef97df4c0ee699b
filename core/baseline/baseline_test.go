package baseline

import (
	"context"
	"fmt"
	"math"
	"strings"
	"testing"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/dpsample/dpsample/core/dpgd"
	"github.com/dpsample/dpsample/core/loss"
	"github.com/dpsample/dpsample/core/privacy"
	"github.com/dpsample/dpsample/core/rng"
	"github.com/dpsample/dpsample/core/stats"
)

// TestSigmaCalibration: T steps of noise σ compose to the GDP level whose
// curve meets the target (ε, δ), the same s* as Algorithm 1's accountant.
func TestSigmaCalibration(t *testing.T) {
	for _, tc := range []struct {
		n, T       int
		eps, delta float64
	}{{100, 100, 1, 1e-5}, {1000, 50, 0.5, 1e-6}, {37, 1, 3, 1e-3}} {
		p := GD{Epsilon: tc.eps, Delta: tc.delta, Radius: 1, G: 1, Steps: tc.T}
		sigma, err := p.Sigma(tc.n)
		if err != nil {
			t.Fatal(err)
		}
		s := math.Sqrt(float64(tc.T)) * 2 / (float64(tc.n) * sigma)
		d, err := privacy.Delta(s, tc.eps)
		if err != nil {
			t.Fatal(err)
		}
		if d > tc.delta*(1+1e-9) || d < tc.delta*(1-1e-4) {
			t.Errorf("%+v: composed δ = %g, want %g (tight)", tc, d, tc.delta)
		}
	}
}

// TestEmbedding: the basis is orthonormal and the loss on the embedded data at
// θ = Uα + β (β ⊥ U) equals the latent loss at α.
func TestEmbedding(t *testing.T) {
	r := rng.Seeded(7)
	data, err := NewRankK(50, 3, r)
	if err != nil {
		t.Fatal(err)
	}
	u, err := Basis(20, 3, r)
	if err != nil {
		t.Fatal(err)
	}
	for i := range u {
		for j := range u {
			want := 0.0
			if i == j {
				want = 1
			}
			if got := dot(u[i], u[j]); math.Abs(got-want) > 1e-12 {
				t.Errorf("<u%d, u%d> = %g, want %g", i, j, got, want)
			}
		}
	}
	x := data.Embed(u)
	latent, _ := loss.New(loss.Logistic, data.Z, data.Y, loss.Params{Clip: 1})
	full, _ := loss.New(loss.Logistic, x, data.Y, loss.Params{Clip: 1})
	if full.Clipped() != 0 || latent.Clipped() != 0 {
		t.Fatalf("rows were clipped (%d, %d); ‖z‖ ≤ 1 must hold", full.Clipped(), latent.Clipped())
	}
	alpha := []float64{0.3, -1.2, 2}
	theta := Orthogonal(u, 5, r)
	for c, a := range alpha {
		for j, v := range u[c] {
			theta[j] += a * v
		}
	}
	if a, b := latent.Mean(alpha), full.Mean(theta); math.Abs(a-b) > 1e-12 {
		t.Errorf("latent loss %g ≠ embedded loss %g", a, b)
	}
}

// TestOrthogonalLaw: ‖β‖²/scale² ~ χ²_{d−k}; two-sided KS at the 5% level
// (critical value 1.36/√m). The broken version (no projection: χ²_d) fails.
func TestOrthogonalLaw(t *testing.T) {
	const d, k, m, scale = 5, 2, 3000, 0.7
	r := rng.Seeded(11)
	u, _ := Basis(d, k, r)
	crit := 1.36 / math.Sqrt(m)
	draw := func(broken bool) []float64 {
		out := make([]float64, m)
		for i := range out {
			var b []float64
			if broken {
				b = Orthogonal([][]float64{make([]float64, d)}, scale, r) // projects on nothing
			} else {
				b = Orthogonal(u, scale, r)
			}
			out[i] = dot(b, b) / (scale * scale)
		}
		return out
	}
	chi := distuv.ChiSquared{K: d - k}
	if ks := stats.KS(draw(false), chi.CDF); ks > crit {
		t.Errorf("KS = %.4f > %.4f: ‖β‖² is not scale²·χ²_%d", ks, crit, d-k)
	}
	if ks := stats.KS(draw(true), chi.CDF); ks <= crit {
		t.Errorf("broken (unprojected) draw passed: KS = %.4f ≤ %.4f", ks, crit)
	}
}

// TestDimFreeNoiseFreeConverges is dpgd.TestNoiseFreeConverges's criterion
// (issue 20) on the synthetic RankK instances of the dimension-free
// experiment (issue 33): with the noise set to zero, the schedule's excess
// over min_{‖θ‖≤C} L is ≤ 1 % of the private run's mean excess (10 seeds),
// for projected and unprojected DP-GD on the logistic loss (dpgd's smooth
// rule) at the sizes of the bench's §3b grid (n = 120, k = 1 and 3,
// ε = 0.5, 1, 2; n = 1000, k = 3, ε = 0.5; C = 3), of DimensionFree's
// defaults (n = 100, k = 2, ε = 1, C = 3) and of the page's element
// (n = 1000, k = 1, ε = 1, C = 2.5). The runs are on the latent data (d = k):
// without noise the iterates stay in span(U) and the smooth schedule does
// not depend on d, so the noise-free run is the same at every d, and the
// private excess is smallest at d = k (projected DP-GD's grows with d), so
// d = k is the strictest case. The old fixed rule of the demo (T = 100,
// h = C/(√T·√(G² + mσ²)), m = d projected or k unprojected, average of every
// iterate) fails the same criterion (the broken version the test must
// reject).
//
// Hinge (dpgd's non-smooth rule, the bench's n = 120, k = 3, ε = 0.5 cell)
// is checked against the subgradient method's deterministic bound instead:
// the rule sets T = ⌈(n·s)²/k⌉ so that the optimisation error GC/√T is of
// the order of the noise term by design, so the 1 % criterion does not
// apply; the average of θ_1 … θ_T at step h is within
// C²/(2hT) + 3hG²/2 of the minimum over the ball (Zinkevich's bound for
// θ_0 … θ_{T−1}, plus hG² for the shift by one iterate).
func TestDimFreeNoiseFreeConverges(t *testing.T) {
	type inst struct {
		kind     loss.Kind
		n, k     int
		eps, c   float64
		checkOld bool
	}
	var cases []inst
	for _, e := range []float64{0.5, 1, 2} {
		cases = append(cases, inst{loss.Logistic, 120, 1, e, 3, false}, inst{loss.Logistic, 120, 3, e, 3, e == 1})
	}
	cases = append(cases, inst{loss.Logistic, 1000, 3, 0.5, 3, false}, inst{loss.Logistic, 100, 2, 1, 3, true},
		inst{loss.Logistic, 1000, 1, 1, 2.5, true}, inst{loss.Hinge, 120, 3, 0.5, 3, false})
	oldFails := 0
	for ci, c := range cases {
		data, err := NewRankK(c.n, c.k, rng.Seeded(uint64(40+ci)))
		if err != nil {
			t.Fatal(err)
		}
		set, err := loss.New(c.kind, data.Z, data.Y, loss.Params{Clip: 1})
		if err != nil {
			t.Fatal(err)
		}
		ref := set.MinimizeInBall(c.c, 40000)
		for _, proj := range []bool{true, false} {
			sch, err := dpgd.NewSchedule(dpgd.Params{N: c.n, D: c.k, Rank: c.k, G: set.G(), Curvature: set.Curvature(),
				Radius: c.c, Epsilon: c.eps, Delta: 1e-5, Projected: proj})
			if err != nil {
				t.Fatal(err)
			}
			free, priv := gdExcesses(t, set, sch, ref.Loss, 10)
			name := fmt.Sprintf("%s n=%d k=%d ε=%g C=%g projected=%v", c.kind, c.n, c.k, c.eps, c.c, proj)
			t.Logf("%s: T = %d, h = %.3g, σ = %.3g: noise-free excess %.3g, private %.3g (ratio %.2g; ref gap %.2g)", name, sch.Steps, sch.Step, sch.Sigma, free, priv, free/priv, ref.Gap)
			if c.kind == loss.Hinge {
				g := set.G()
				if bound := c.c*c.c/(2*sch.Step*float64(sch.Steps)) + 1.5*sch.Step*g*g; free > bound+ref.Gap {
					t.Errorf("%s: noise-free excess %.3g above the subgradient bound %.3g", name, free, bound)
				}
				continue
			}
			if free > 0.01*priv {
				t.Errorf("%s: noise-free excess %.3g > 1%% of the private %.3g", name, free, priv)
			}
			if !c.checkOld {
				continue
			}
			const oldT = 100
			old := dpgd.Schedule{Steps: oldT, Sigma: sch.Sigma * math.Sqrt(oldT/float64(sch.Steps)), Average: dpgd.AverageAll, Projected: proj, Radius: c.c}
			m := float64(c.k) // d = k here
			old.Step = c.c / (math.Sqrt(oldT) * math.Sqrt(set.G()*set.G()+m*old.Sigma*old.Sigma))
			of, op := gdExcesses(t, set, old, ref.Loss, 10)
			t.Logf("%s, the old T = 100 rule: noise-free %.3g, private %.3g", name, of, op)
			if of > 0.01*op {
				oldFails++
			}
		}
	}
	if oldFails == 0 {
		t.Error("the old T = 100 rule passes the criterion everywhere: the test cannot tell")
	}
}

// gdExcesses returns the noise-free run's excess (σ = 0, the same step and
// T) and the mean private excess over seeds runs, both against ref.
func gdExcesses(t *testing.T, set *loss.Set, sch dpgd.Schedule, ref float64, seeds int) (free, priv float64) {
	t.Helper()
	nf := sch
	nf.Sigma = 0
	th, err := dpgd.Run(context.Background(), set, nf, rng.Seeded(1), nil)
	if err != nil {
		t.Fatal(err)
	}
	free = set.Mean(th) - ref
	for k := 0; k < seeds; k++ {
		th, err := dpgd.Run(context.Background(), set, sch, rng.Seeded(uint64(100+k)), nil)
		if err != nil {
			t.Fatal(err)
		}
		priv += (set.Mean(th) - ref) / float64(seeds)
	}
	return free, priv
}

// TestDimensionFreeTrend is the demonstration as a test: between d = 1 and
// d = 512 (rank 1), Algorithm 1's mean excess and unprojected DP-GD's
// change by less than 3 standard errors (each z-test falsely fails with
// probability ≈ 0.27% under normality), while the same test applied to
// projected DP-GD — which pays for d — fails: its excess grows by more than
// 3 standard errors.
func TestDimensionFreeTrend(t *testing.T) {
	seed := uint64(5)
	trials := 8
	if testing.Short() {
		trials = 5
	}
	res, err := DimensionFree(context.Background(), DimFreeOptions{N: 300, Rank: 1, Dims: []int{1, 512}, Trials: trials,
		Radius: 2.5, Seed: &seed}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Private {
		t.Error("a seeded run must say private: false")
	}
	lo, hi := res.Points[0], res.Points[1]
	for _, p := range res.Points {
		t.Logf("d = %d: Algorithm 1 %.4g ± %.2g, projected DP-GD %.4g ± %.2g, unprojected DP-GD %.4g ± %.2g (bound %.4g)",
			p.D, p.ExpMean, p.ExpSE, p.BaseMean, p.BaseSE, p.UnprojMean, p.UnprojSE, res.Bound)
	}
	z := func(a, b, sa, sb float64) float64 { return (b - a) / math.Hypot(sa, sb) }
	if zz := z(lo.ExpMean, hi.ExpMean, lo.ExpSE, hi.ExpSE); math.Abs(zz) > 3 {
		t.Errorf("Algorithm 1: excess %.4g at d=1 vs %.4g at d=512 (z = %.2f): not dimension-free", lo.ExpMean, hi.ExpMean, zz)
	}
	if zz := z(lo.BaseMean, hi.BaseMean, lo.BaseSE, hi.BaseSE); zz < 3 {
		t.Errorf("projected DP-GD: excess %.4g at d=1 vs %.4g at d=512 (z = %.2f): expected growth with d", lo.BaseMean, hi.BaseMean, zz)
	}
	if zz := z(lo.UnprojMean, hi.UnprojMean, lo.UnprojSE, hi.UnprojSE); math.Abs(zz) > 3 {
		t.Errorf("unprojected DP-GD: excess %.4g at d=1 vs %.4g at d=512 (z = %.2f): not dimension-free", lo.UnprojMean, hi.UnprojMean, zz)
	}
	if len(hi.Unprojected) != trials || math.IsNaN(hi.UnprojSE) {
		t.Errorf("unprojected runs %v", hi.Unprojected)
	}
	if hi.ExpMean > 3*res.Bound {
		t.Errorf("Algorithm 1's excess %.4g exceeds 3× Theorem 2.2's bound %.4g", hi.ExpMean, res.Bound)
	}
}

func TestDimensionFreeBadInput(t *testing.T) {
	for _, tc := range []struct {
		o     DimFreeOptions
		field string
	}{
		{DimFreeOptions{N: 1}, "n"},
		{DimFreeOptions{Rank: 3, Dims: []int{2}}, "dims"},
		{DimFreeOptions{Epsilon: -1}, "epsilon"},
		{DimFreeOptions{Delta: 2}, "delta"},
		{DimFreeOptions{Radius: math.NaN()}, "radius"},
		{DimFreeOptions{Trials: MaxTrials + 1}, "trials"},
		{DimFreeOptions{Dims: make([]int, MaxDims+1)}, "dims"},
		{DimFreeOptions{N: 10000, Dims: []int{100000}}, "dims"},
	} {
		_, err := DimensionFree(context.Background(), tc.o, nil)
		if err == nil || !strings.HasPrefix(err.Error(), tc.field) {
			t.Errorf("%+v: error %v, want one naming %q", tc.o, err, tc.field)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := DimensionFree(ctx, DimFreeOptions{Dims: []int{4}}, nil); err == nil {
		t.Error("a cancelled context must stop the run")
	}
}

// TestDimensionFreeGDConverges: at a large ε the noise is small and
// DimensionFree's DP-GD must reach the constrained optimum: each run's
// excess is below 0.005 for unprojected DP-GD at every d and for projected
// DP-GD at d = k (at d = 64 it still pays for d). The old demo's fixed
// T = 100 rule (h = C/(√T·√(G² + mσ²)), average of every iterate) stops
// 0.028 short here even without noise (computed below), so it fails. Every
// point records
// dpgd.NewSchedule's smooth-rule schedule, the same for both variants but
// for the projection.
func TestDimensionFreeGDConverges(t *testing.T) {
	seed := uint64(2)
	o := DimFreeOptions{N: 100, Rank: 2, Dims: []int{2, 64}, Epsilon: 20, Trials: 3, Seed: &seed}
	res, err := DimensionFree(context.Background(), o, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range res.Points {
		t.Logf("d = %d: projected %v, unprojected %v, schedule %+v", p.D, p.Baseline, p.Unprojected, p.UnprojSchedule)
		runs := p.Unprojected
		if p.D == o.Rank {
			runs = append(runs, p.Baseline...)
		}
		for _, v := range runs {
			if math.Abs(v) > 0.005 {
				t.Errorf("d = %d: a DP-GD run's excess %.3g at ε = 20 (projected %v, unprojected %v)", p.D, v, p.Baseline, p.Unprojected)
			}
		}
		want, err := dpgd.NewSchedule(dpgd.Params{N: 100, D: p.D, Rank: 2, G: 1, Curvature: 0.25, Radius: 3, Epsilon: 20, Delta: 1e-5})
		if err != nil {
			t.Fatal(err)
		}
		proj := want
		proj.Projected = true
		if p.UnprojSchedule != want || p.ProjSchedule != proj || !strings.HasPrefix(want.Rule, "smooth:") {
			t.Errorf("d = %d: schedules %+v / %+v, want %+v", p.D, p.ProjSchedule, p.UnprojSchedule, want)
		}
	}
	// The broken version: the old rule's noise-free excess on the same data.
	data, _ := NewRankK(100, 2, rng.Seeded(1))
	set, _ := loss.New(loss.Logistic, data.Z, data.Y, loss.Params{Clip: 1})
	old := dpgd.Schedule{Steps: 100, Step: 3 / (math.Sqrt(100) * 1), Average: dpgd.AverageAll, Radius: 3}
	th, _ := dpgd.Run(context.Background(), set, old, rng.Seeded(1), nil)
	if ex := set.Mean(th) - set.MinimizeInBall(3, 40000).Loss; ex <= 0.005 {
		t.Errorf("the old T = 100 rule reaches %.3g ≤ 0.005 without noise: the test cannot tell", ex)
	} else {
		t.Logf("the old T = 100 rule without noise: excess %.3g", ex)
	}
}
