package sampler

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/dpsample/dpsample/core/loss"
	"github.com/dpsample/dpsample/core/rng"
)

// workModes are the three work modes, in the order the benchmarks report them.
var workModes = []string{WorkAdaptive, WorkPerStep, WorkTotal}

func workName(w string) string {
	if w == WorkAdaptive {
		return "adaptive"
	}
	return w
}

// zerothLike is a non-smooth problem for the zeroth-order sampler at
// Algorithm 1's η, μ, TV (as breastLike): hinge, n rows of d features
// clipped to norm 1, C = 1, δ = 1e-5.
func zerothLike(b testing.TB, n, d int, eps float64) (*glm, float64, float64, float64) {
	pot := randomGLM(rng.Seeded(uint64(n*d)), n, d, true)
	eta, mu, tv := alg1(b, n, d, 1, eps)
	return pot, eta, mu, tv
}

// BenchmarkFixedWork measures the cost of fixed work (issue 21 item 2) side
// by side in one run: every iteration draws one full sample (planned T) in
// each work mode, after one untimed warm-up sample — adaptive (the default before issue 21), per-step pinning
// (K + 1 anchor passes and M trials every step) and the total budget (K + 1
// anchor passes per step, B trials in all) — on the same problem, and
// reports the seconds per sample of each and the ratios to adaptive:
//
//	go test -run xxx -bench FixedWork -benchtime 3x ./core/sampler/
//
// first-order: the breast-cancer-sized logistic problem (n = 455, d = 30) at
// ε ∈ {1, 5}; zeroth-order: hinge, n = 40, d = 10, ε = 1 (full RGO).
func BenchmarkFixedWork(b *testing.B) {
	for _, eps := range []float64{1, 5} {
		b.Run("first-order/n=455,d=30/eps="+ftoa(eps), func(b *testing.B) {
			set, _, eta, mu, tv := breastLike(b, eps)
			var pls [3]FirstOrderPlan
			for i, w := range workModes {
				pl, err := NewFirstOrderPlan(FirstOrderParams{N: set.N(), D: set.Dim(), G: set.G(), Curv: set.Curvature(), Spread: set.GradSpread(), Eta: eta, Mu: mu, TV: tv, Work: w})
				if err != nil {
					b.Fatal(err)
				}
				pls[i] = pl
			}
			benchModes(b, func(i int, r *rand.Rand) Stats {
				_, st, err := RunFirstOrder(context.Background(), pls[i], set, r, nil)
				if err != nil {
					b.Fatal(err)
				}
				return st
			})
			b.ReportMetric(float64(pls[0].AnchorMax), "K")
			b.ReportMetric(float64(pls[2].AnchorMax), "K-total")
			b.ReportMetric(float64(pls[0].TrialBudget), "M")
			b.ReportMetric(float64(pls[2].TrialTotal)/float64(pls[2].Steps), "B/T")
		})
	}
	b.Run("zeroth-order/hinge/n=40,d=10/eps=1", func(b *testing.B) {
		pot, eta, mu, tv := zerothLike(b, 40, 10, 1)
		var pls [3]Plan
		for i, w := range workModes {
			pl, err := NewPlan(Params{N: pot.N(), D: pot.Dim(), G: 1, Eta: eta, Mu: mu, TV: tv, Mode: ModeFull, Work: w})
			if err != nil {
				b.Fatal(err)
			}
			pls[i] = pl
		}
		benchModes(b, func(i int, r *rand.Rand) Stats {
			_, st, err := Run(context.Background(), pls[i], pot, r, nil)
			if err != nil {
				b.Fatal(err)
			}
			return st
		})
		b.ReportMetric(float64(pls[0].Steps), "T")
		b.ReportMetric(float64(pls[0].TrialBudget), "M")
		b.ReportMetric(float64(pls[2].TrialTotal)/float64(pls[2].Steps), "B/T")
	})
}

// benchModes runs run(i, r) for the three work modes in turn, b.N times,
// and reports each mode's seconds per sample, trials per step and the cost
// ratios to the adaptive mode.
func benchModes(b *testing.B, run func(i int, r *rand.Rand) Stats) {
	var sec [3]float64
	var st [3]Stats
	run(0, rng.Seeded(1<<40)) // warm-up (JIT under wasm), untimed: the adaptive mode shares the code of the others
	b.ResetTimer()
	for k := 0; k < b.N; k++ {
		for j := range workModes {
			i := j
			if k%2 == 1 {
				i = len(workModes) - 1 - j // alternate the order: drifting load falls on every mode alike
			}
			t0 := time.Now()
			s := run(i, rng.Seeded(uint64(k)))
			sec[i] += time.Since(t0).Seconds()
			st[i].Steps += s.Steps
			st[i].Trials += s.Trials
			st[i].AnchorIters += s.AnchorIters
		}
	}
	for i, w := range workModes {
		b.ReportMetric(sec[i]/float64(b.N), workName(w)+"-s/sample")
		b.ReportMetric(float64(st[i].Trials)/float64(st[i].Steps), workName(w)+"-trials/step")
	}
	b.ReportMetric(sec[1]/sec[0], "per-step/adaptive")
	b.ReportMetric(sec[2]/sec[0], "total/adaptive")
}

// BenchmarkFirstOrderNormals prices the 53-bit normals of the first-order
// sampler (issue 21 item 3) side by side: one adaptive sample on the
// breast-cancer-sized problem at ε = 1 (which draws its normals with
// rng.Normal53), then as many normals again from rng.Normal53 and from
// NormFloat64 (the generator before issue 21); reports the sample time, the
// extra time of Normal53 over NormFloat64 for that many normals, and that
// extra as a share of the sample.
func BenchmarkFirstOrderNormals(b *testing.B) {
	set, _, eta, mu, tv := breastLike(b, 1)
	pl, err := NewFirstOrderPlan(FirstOrderParams{N: set.N(), D: set.Dim(), G: set.G(), Curv: set.Curvature(), Spread: set.GradSpread(), Eta: eta, Mu: mu, TV: tv})
	if err != nil {
		b.Fatal(err)
	}
	var run, n53, zig float64
	sink := 0.0
	for k := 0; k < b.N; k++ {
		t0 := time.Now()
		_, st, err := RunFirstOrder(context.Background(), pl, set, rng.Seeded(uint64(k)), nil)
		if err != nil {
			b.Fatal(err)
		}
		t1 := time.Now()
		normals := st.Draws - st.Trials // one uniform per trial, the rest normals
		r := rng.Seeded(uint64(k))
		for i := int64(0); i < normals; i++ {
			sink += rng.Normal53(r)
		}
		t2 := time.Now()
		for i := int64(0); i < normals; i++ {
			sink += r.NormFloat64()
		}
		t3 := time.Now()
		run += t1.Sub(t0).Seconds()
		n53 += t2.Sub(t1).Seconds()
		zig += t3.Sub(t2).Seconds()
	}
	if sink == 0 {
		b.Log(sink)
	}
	b.ReportMetric(run/float64(b.N), "s/sample")
	b.ReportMetric((n53-zig)/float64(b.N)*1e3, "normal53-extra-ms/sample")
	b.ReportMetric((n53-zig)/run, "normal53-share")
}

// BenchmarkFixedWorkRows (issue 31) measures fixed work against adaptive
// work side by side in one run, per first-order logistic sample (d = 30,
// ε = 1, δ = 1e-5, Algorithm 1's η, μ; random rows on the breast-cancer-
// sized generator of breastLike): n = 455 at C = 16, and n = 10⁴ at C = 10
// (the rows-per-tab shape). Each iteration draws one sample in each mode,
// alternating the order, after an untimed warm-up; it reports the seconds
// per sample, the passes over the data per step (deterministic counters:
// loss evaluations / (n·T)) and both ratios fixed/adaptive:
//
//	go test -run xxx -bench FixedWorkRows -benchtime 1x ./core/sampler/
func BenchmarkFixedWorkRows(b *testing.B) {
	for _, c := range []struct {
		n int
		C float64
	}{{455, 16}, {10_000, 10}} {
		b.Run(fmt.Sprintf("n=%d,d=30,C=%g,eps=1", c.n, c.C), func(b *testing.B) {
			const d = 30
			pot := randomGLM(rng.Seeded(uint64(c.n)), c.n, d, false)
			x := make([][]float64, c.n)
			for i := range x {
				x[i] = pot.a[i*d : (i+1)*d]
			}
			set, err := loss.New(loss.Logistic, x, pot.y, loss.Params{})
			if err != nil {
				b.Fatal(err)
			}
			eta, mu, tv := alg1(b, c.n, d, c.C, 1)
			modes := []string{WorkAdaptive, WorkTotal}
			pls := make([]FirstOrderPlan, 2)
			for i, w := range modes {
				if pls[i], err = NewFirstOrderPlan(FirstOrderParams{N: c.n, D: d, G: set.G(), Curv: set.Curvature(), Spread: set.GradSpread(), Eta: eta, Mu: mu, TV: tv, Work: w}); err != nil {
					b.Fatal(err)
				}
			}
			run := func(i int, seed uint64) Stats {
				_, st, err := RunFirstOrder(context.Background(), pls[i], set, rng.Seeded(seed), nil)
				if err != nil {
					b.Fatal(err)
				}
				return st
			}
			run(0, 1<<40)
			var sec [2]float64
			var evals, steps [2]int64
			b.ResetTimer()
			for k := 0; k < b.N; k++ {
				for j := range modes {
					i := j
					if k%2 == 1 {
						i = 1 - j
					}
					t0 := time.Now()
					st := run(i, uint64(k))
					sec[i] += time.Since(t0).Seconds()
					evals[i] += st.LossEvals
					steps[i] += st.Steps
				}
			}
			// Per step and per sample: the modes have their own step (StepRatio,
			// FixedStepRatio), so their T differ.
			passes := func(i int) float64 { return float64(evals[i]) / float64(steps[i]) / float64(c.n) }
			perSample := func(i int) float64 { return float64(evals[i]) / float64(b.N) / float64(c.n) }
			b.ReportMetric(sec[0]/float64(b.N), "adaptive-s/sample")
			b.ReportMetric(sec[1]/float64(b.N), "fixed-s/sample")
			b.ReportMetric(sec[1]/sec[0], "fixed/adaptive-time")
			b.ReportMetric(passes(0), "adaptive-passes/step")
			b.ReportMetric(passes(1), "fixed-passes/step")
			b.ReportMetric(perSample(1)/perSample(0), "fixed/adaptive-passes")
			b.ReportMetric(float64(pls[1].AnchorMax), "K-fixed")
			b.ReportMetric(float64(pls[0].AnchorMax), "K-adaptive")
			b.ReportMetric(float64(pls[0].Steps), "T-adaptive")
			b.ReportMetric(float64(pls[1].Steps), "T-fixed")
		})
	}
}
