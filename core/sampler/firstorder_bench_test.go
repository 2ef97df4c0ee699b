package sampler

import (
	"context"
	"math"
	"testing"
	"time"

	"github.com/dpsample/dpsample/core/loss"
	"github.com/dpsample/dpsample/core/privacy"
	"github.com/dpsample/dpsample/core/rng"
)

// breastLike returns a synthetic logistic problem of the breast-cancer size
// (n = 455 training rows, d = 30, rows clipped to norm 1) and Algorithm 1's
// η, μ, TV at (ε, δ = 1e-5), C = 10, G = 1, with the optimal-η rule
// η = n·s·√d/(√2·G·C), μ = 4ηG²/(n²s²), s calibrated to δ/2 (privacy.Split).
func breastLike(b testing.TB, eps float64) (*loss.Set, *glm, float64, float64, float64) {
	const n, d, C = 455, 30, 10.0
	pot := randomGLM(rng.Seeded(455), n, d, false)
	x := make([][]float64, n)
	for i := range x {
		x[i] = pot.a[i*d : (i+1)*d]
	}
	set, err := loss.New(loss.Logistic, x, pot.y, loss.Params{})
	if err != nil {
		b.Fatal(err)
	}
	eta, mu, tv := alg1(b, n, d, C, eps)
	return set, pot, eta, mu, tv
}

// alg1 returns Algorithm 1's η, μ and the sampler's TV at (ε, δ = 1e-5),
// G = 1, radius C, with the optimal-η rule η = n·s·√d/(√2·G·C),
// μ = 4ηG²/(n²s²), s calibrated to δ/2 (privacy.Split).
func alg1(b testing.TB, n, d int, c, eps float64) (eta, mu, tv float64) {
	bud, err := privacy.Split(eps, 1e-5)
	if err != nil {
		b.Fatal(err)
	}
	s, err := privacy.Calibrate(eps, bud.DeltaCurve)
	if err != nil {
		b.Fatal(err)
	}
	eta = float64(n) * s * math.Sqrt(float64(d)) / (math.Sqrt2 * c)
	mu = 4 * eta / (float64(n*n) * s * s)
	return eta, mu, bud.TV
}

// BenchmarkFirstOrderVsZeroth times, side by side in one benchmark, b.N
// steps of the first-order sampler (loss.Set potential) and b.N steps of the
// zeroth-order sampler in its planned mode on the same breast-cancer-sized
// logistic problem at ε = 1, and reports the per-step times, their ratio, and
// the per-sample times and ratio with each sampler's own planned T:
//
//	go test -run xxx -bench FirstOrderVsZeroth ./core/sampler/
func BenchmarkFirstOrderVsZeroth(b *testing.B) {
	set, pot, eta, mu, tv := breastLike(b, 1)
	fo, err := NewFirstOrderPlan(FirstOrderParams{N: set.N(), D: set.Dim(), G: set.G(), Curv: set.Curvature(), Eta: eta, Mu: mu, TV: tv})
	if err != nil {
		b.Fatal(err)
	}
	zo, err := NewPlan(Params{N: set.N(), D: set.Dim(), G: set.G(), Eta: eta, Mu: mu, TV: tv})
	if err != nil {
		b.Fatal(err)
	}
	foT, zoT := fo.Steps, zo.Steps
	fo.Steps, zo.Steps = b.N, b.N
	b.ResetTimer()
	t0 := time.Now()
	_, fst, err := RunFirstOrder(context.Background(), fo, set, rng.Seeded(1), nil)
	if err != nil {
		b.Fatal(err)
	}
	t1 := time.Now()
	_, zst, err := Run(context.Background(), zo, pot, rng.Seeded(2), nil)
	if err != nil {
		b.Fatal(err)
	}
	t2 := time.Now()
	foStep := t1.Sub(t0).Seconds() / float64(b.N)
	zoStep := t2.Sub(t1).Seconds() / float64(b.N)
	b.ReportMetric(foStep*1e6, "fo-µs/step")
	b.ReportMetric(zoStep*1e6, "zo-µs/step")
	b.ReportMetric(foStep/zoStep, "fo/zo-step")
	b.ReportMetric(foStep*float64(foT), "fo-s/sample")
	b.ReportMetric(zoStep*float64(zoT), "zo-s/sample")
	b.ReportMetric(zoStep*float64(zoT)/(foStep*float64(foT)), "zo/fo-sample")
	b.ReportMetric(float64(fst.Steps-fst.Failures)/float64(fst.Trials), "fo-accept")
	b.ReportMetric(float64(fst.AnchorIters)/float64(fst.Steps), "fo-anchor/step")
	b.ReportMetric(float64(zst.Trials)/float64(zst.Steps), "zo-trials/step")
}

// BenchmarkFirstOrderSample draws one full first-order sample (planned T) on
// the breast-cancer-sized problem at ε ∈ {0.5, 1, 2, 5}; reports T, s/sample
// and the acceptance per trial.
func BenchmarkFirstOrderSample(b *testing.B) {
	for _, eps := range []float64{0.5, 1, 2, 5} {
		b.Run("eps="+ftoa(eps), func(b *testing.B) {
			set, _, eta, mu, tv := breastLike(b, eps)
			fo, err := NewFirstOrderPlan(FirstOrderParams{N: set.N(), D: set.Dim(), G: set.G(), Curv: set.Curvature(), Eta: eta, Mu: mu, TV: tv})
			if err != nil {
				b.Fatal(err)
			}
			var st Stats
			for i := 0; i < b.N; i++ {
				_, s, err := RunFirstOrder(context.Background(), fo, set, rng.Seeded(uint64(i)), nil)
				if err != nil {
					b.Fatal(err)
				}
				st.Steps += s.Steps
				st.Trials += s.Trials
				st.Failures += s.Failures
				st.AnchorIters += s.AnchorIters
			}
			b.ReportMetric(float64(fo.Steps), "T")
			b.ReportMetric(float64(fo.AnchorMax), "K")
			b.ReportMetric(b.Elapsed().Seconds()/float64(b.N), "s/sample")
			b.ReportMetric(float64(st.Steps-st.Failures)/float64(st.Trials), "accept")
			b.ReportMetric(float64(st.AnchorIters)/float64(st.Steps), "anchor/step")
		})
	}
}

func ftoa(v float64) string {
	if v == math.Trunc(v) {
		return string(rune('0' + int(v)))
	}
	return "0." + string(rune('0'+int(math.Round(v*10))%10))
}
