package sampler

import (
	"context"
	"errors"
	"math"
	"testing"

	"github.com/dpsample/dpsample/core/checks"
	"github.com/dpsample/dpsample/core/rng"
)

func smallPlan(t *testing.T, pot Potential, mode string) Plan {
	return mustPlan(t, Params{N: pot.N(), D: pot.Dim(), G: 1, Eta: 3, Mu: 1, TV: 1e-3, Mode: mode})
}

func TestRunProgressAndChunks(t *testing.T) {
	pot := randomGLM(rng.Seeded(5), 50, 3, false)
	pl := smallPlan(t, pot, ModeStochastic)
	pl.ChunkSteps = 97
	var calls, last int
	_, st, err := Run(context.Background(), pl, pot, rng.Seeded(6), func(done, total int) {
		calls++
		if total != pl.Steps || done <= last || done > total || (done != total && done%97 != 0) {
			t.Errorf("progress(%d, %d) after %d", done, total, last)
		}
		last = done
	})
	if err != nil {
		t.Fatal(err)
	}
	if want := (pl.Steps + 96) / 97; calls != want || last != pl.Steps || st.Steps != int64(pl.Steps) {
		t.Errorf("calls=%d (want %d) last=%d steps=%d (want %d)", calls, want, last, st.Steps, pl.Steps)
	}
}

// TestRunCancel: a cancel during the first chunk's callback stops the run
// before the second chunk, with ctx.Err() and no sample.
func TestRunCancel(t *testing.T) {
	pot := randomGLM(rng.Seeded(5), 50, 3, true)
	pl := smallPlan(t, pot, ModeFull)
	pl.ChunkSteps = 10
	ctx, cancel := context.WithCancel(context.Background())
	x, st, err := Run(ctx, pl, pot, rng.Seeded(6), func(done, total int) { cancel() })
	if !errors.Is(err, context.Canceled) || x != nil || st.Steps != 10 {
		t.Errorf("got x=%v steps=%d err=%v; want nil, 10, context.Canceled", x, st.Steps, err)
	}
}

func TestRunDeterministicWithSeed(t *testing.T) {
	pot := randomGLM(rng.Seeded(5), 20, 4, false)
	for _, mode := range []string{ModeFull, ModeStochastic} {
		pl := smallPlan(t, pot, mode)
		a, _, _ := Run(context.Background(), pl, pot, rng.Seeded(9), nil)
		b, _, _ := Run(context.Background(), pl, pot, rng.Seeded(9), nil)
		c, _, _ := Run(context.Background(), pl, pot, rng.Seeded(10), nil)
		for j := range a {
			if a[j] != b[j] {
				t.Errorf("%s: same seed gave different outputs %v %v", mode, a, b)
				break
			}
		}
		if a[0] == c[0] {
			t.Errorf("%s: different seeds gave the same output", mode)
		}
	}
}

// TestRunNoAllocsPerStep: allocations of a run do not grow with T.
func TestRunNoAllocsPerStep(t *testing.T) {
	pot := randomGLM(rng.Seeded(5), 20, 4, false)
	for _, mode := range []string{ModeFull, ModeStochastic} {
		pl := smallPlan(t, pot, mode)
		r := rng.Seeded(1)
		allocs := func(steps int) float64 {
			p := pl
			p.Steps = steps
			return testing.AllocsPerRun(5, func() { Run(context.Background(), p, pot, r, func(int, int) {}) })
		}
		if a, b := allocs(10), allocs(2000); a != b {
			t.Errorf("%s: %v allocations for 10 steps, %v for 2000", mode, a, b)
		}
	}
}

type nanPot struct{ *glm }

func (p nanPot) Value(i int, x []float64) float64 { return math.NaN() }
func (p nanPot) Mean(x []float64) float64         { return math.NaN() }

func TestRunBadInput(t *testing.T) {
	pot := randomGLM(rng.Seeded(5), 20, 4, false)
	pl := smallPlan(t, pot, ModeFull)
	other := randomGLM(rng.Seeded(5), 21, 4, false)
	otherD := randomGLM(rng.Seeded(5), 20, 5, false)
	auto := pl
	auto.Mode = ModeAuto
	zero := Plan{}
	nanLam := pl
	nanLam.Lambda = math.NaN()
	stoch := smallPlan(t, pot, ModeStochastic)
	cases := []struct {
		field string
		pl    Plan
		pot   Potential
		nilR  bool
	}{
		{"potential", pl, nil, false},
		{"rng", pl, pot, true},
		{"potential", pl, other, false},
		{"potential", pl, otherD, false},
		{"plan.Mode", auto, pot, false},
		{"plan.Mode", zero, pot, false},
		{"plan.Lambda", nanLam, pot, false},
		{"potential", pl, nanPot{pot}, false},
		{"potential", stoch, nanPot{pot}, false},
	}
	for i, c := range cases {
		r := rng.Seeded(1)
		if c.nilR {
			r = nil
		}
		x, _, err := Run(context.Background(), c.pl, c.pot, r, nil)
		var ce *checks.Error
		if !errors.As(err, &ce) || ce.Field != c.field || x != nil {
			t.Errorf("case %d: got %v, %v; want an error naming %q", i, x, err, c.field)
		}
	}
}

// TestCostMatchesTheory: per RGO call the expected number of trials is
// 1/P(accept) ∈ [e^{c − s²/2}(1 − bias), e^c/(1 − bias)] (E e^Z ∈ [1, e^{s²/2}],
// rgo.go), ≈ e^{1.5} = 4.48; the stochastic version makes ≤ StepDraws =
// K(1 − p)/(p ln(1/p)) ≈ 7 factory draws per call (2 loss evaluations each;
// rgobound.go) and ≤ K draws per trial; none of it depends on n or d.
// Measured over S = 20 000 steps per configuration (logistic loss), with a 4σ
// sampling margin (σ of the trial count per step ≤ √(1−p)/p; of the draws
// per step ≤ √(E S²), E S² ≤ 2(M(θ) − 1)/θ² from the MGF bound M).
func TestCostMatchesTheory(t *testing.T) {
	const S = 20000
	for _, n := range []int{100, 1000} {
		for _, d := range []int{2, 50} {
			for _, mode := range []string{ModeFull, ModeStochastic} {
				if mode == ModeFull && (n > 100 || d > 2) {
					continue // 2n evaluations per trial: same trial law, n× the time
				}
				pot := randomGLM(rng.Seeded(uint64(n+d)), n, d, false)
				pl := mustPlan(t, Params{N: n, D: d, G: 1, Eta: 10, Mu: 0.1, TV: 1e-6, Mode: mode})
				pl.Steps = S // cost per step only; not a valid sample
				_, st, err := Run(context.Background(), pl, pot, rng.Seeded(7), nil)
				if err != nil {
					t.Fatal(err)
				}
				trials := float64(st.Trials) / S
				evals := float64(st.LossEvals) / S
				bias := rgoBias(mode, pl.Scale)
				p := (1 - bias) / math.Exp(Offset)
				margin := 4 * math.Sqrt(1-p) / p / math.Sqrt(S)
				lo, hi := math.Exp(Offset-pl.Scale*pl.Scale/2)*(1-bias)-margin, 1/p+margin
				t.Logf("%-10s n=%4d d=%2d: trials/RGO=%.3f [%.3f, %.3f] evals/step=%.2f (≤ %.2f) evals/trial=%.2f clips=%d T=%d",
					mode, n, d, trials, lo, hi, evals, 2*pl.StepDraws, evals/trials, st.Clips, pl.Steps)
				if trials < lo || trials > hi {
					t.Errorf("%s n=%d d=%d: %.3f trials per RGO call, want in [%.3f, %.3f]", mode, n, d, trials, lo, hi)
				}
				if mode == ModeStochastic {
					const th = 0.05
					sd := math.Sqrt(2 * math.Expm1(stepDrawLogMGF(th, FactoryRate, p)) / (th * th))
					if bound := 2 * (pl.StepDraws + 4*sd/math.Sqrt(S)); evals > bound || evals/trials > 2*FactoryRate {
						t.Errorf("n=%d d=%d: %.2f loss evaluations per step (%.2f per trial), want ≤ %.2f (≤ %g)", n, d, evals, evals/trials, bound, 2*FactoryRate)
					}
				}
				if mode == ModeFull && math.Abs(evals-2*float64(n)*trials) > 1e-9*evals {
					t.Errorf("full n=%d: %.1f evaluations per step, want 2n·trials = %.1f", n, evals, 2*float64(n)*trials)
				}
				if st.Failures != 0 {
					t.Errorf("n=%d d=%d: %d failed RGO calls", n, d, st.Failures)
				}
			}
		}
	}
}
