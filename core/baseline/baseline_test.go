package baseline

import (
	"context"
	"math"
	"sort"
	"strings"
	"testing"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/dpsample/dpsample/core/loss"
	"github.com/dpsample/dpsample/core/privacy"
	"github.com/dpsample/dpsample/core/rng"
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
	if ks := ksStat(draw(false), chi.CDF); ks > crit {
		t.Errorf("KS = %.4f > %.4f: ‖β‖² is not scale²·χ²_%d", ks, crit, d-k)
	}
	if ks := ksStat(draw(true), chi.CDF); ks <= crit {
		t.Errorf("broken (unprojected) draw passed: KS = %.4f ≤ %.4f", ks, crit)
	}
}

func ksStat(v []float64, cdf func(float64) float64) float64 {
	sort.Float64s(v)
	var worst float64
	for i, x := range v {
		f := cdf(x)
		worst = math.Max(worst, math.Max(math.Abs(float64(i+1)/float64(len(v))-f), math.Abs(f-float64(i)/float64(len(v)))))
	}
	return worst
}

// TestNoisyGDConverges: with negligible noise (ε = 1e6), the averaged
// projected iterate is within the deterministic bound 2CG/√T of the
// constrained optimum (estimated by a long noiseless run).
func TestNoisyGDConverges(t *testing.T) {
	r := rng.Seeded(3)
	data, _ := NewRankK(200, 2, r)
	set, _ := loss.New(loss.Logistic, data.Z, data.Y, loss.Params{Clip: 1})
	long, err := NoisyGD(context.Background(), set, GD{Epsilon: 1e9, Delta: 1e-5, Radius: 2, G: 1, Steps: 20000}, true, 2, r)
	if err != nil {
		t.Fatal(err)
	}
	const T = 100
	th, err := NoisyGD(context.Background(), set, GD{Epsilon: 1e9, Delta: 1e-5, Radius: 2, G: 1, Steps: T}, true, 2, r)
	if err != nil {
		t.Fatal(err)
	}
	if gap, bound := set.Mean(th)-set.Mean(long), 2*2/math.Sqrt(T); gap > bound || gap < -2*2/math.Sqrt(20000) {
		t.Errorf("excess %g outside [−2C/√20000, 2CG/√T = %g]", gap, bound)
	}
}

// TestDimensionFreeTrend is the demonstration as a test: between d = 1 and
// d = 512 (rank 1), Algorithm 1's mean excess and unprojected NoisyGD's
// change by less than 3 standard errors (each z-test falsely fails with
// probability ≈ 0.27% under normality), while the same test applied to
// projected NoisyGD — which pays for d — fails: its excess grows by more than
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
		t.Errorf("NoisyGD: excess %.4g at d=1 vs %.4g at d=512 (z = %.2f): expected growth with d", lo.BaseMean, hi.BaseMean, zz)
	}
	if zz := z(lo.UnprojMean, hi.UnprojMean, lo.UnprojSE, hi.UnprojSE); math.Abs(zz) > 3 {
		t.Errorf("unprojected NoisyGD: excess %.4g at d=1 vs %.4g at d=512 (z = %.2f): not dimension-free", lo.UnprojMean, hi.UnprojMean, zz)
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
