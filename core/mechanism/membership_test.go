package mechanism

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/dpsample/dpsample/core/checks"
	"github.com/dpsample/dpsample/core/privacy"
)

// TestMembershipUnderCurve (issue 44 item 3): the likelihood-ratio attack on
// the mechanism as shipped finds no point above its promised trade-off
// curve. Alpha = 1e-3 is the test's false-failure rate (Bonferroni over the
// 2J Clopper–Pearson intervals, membership.go), at each of the seeds. The
// far pair attains the curve, so the exact catch at each threshold equals
// the promise at its exact false alarm, and the measured points lie near it.
func TestMembershipUnderCurve(t *testing.T) {
	for _, c := range []MembershipConfig{
		{Epsilon: 1, Delta: 1e-5, Draws: 40_000, Alpha: 1e-3, Seed: 1},
		{Epsilon: 0.5, Delta: 1e-6, N: 3, Draws: 40_000, Alpha: 1e-3, Seed: 2},
		{Epsilon: 3, Delta: 1e-5, Draws: 40_000, Alpha: 1e-3, Seed: 3},
	} {
		res, err := Membership(context.Background(), c, nil)
		if err != nil {
			t.Fatal(err)
		}
		if res.Above || res.Private || res.RunGDP != res.GDP || len(res.Points) != len(MembershipLevels) {
			t.Errorf("ε = %g: above %v, private %v, run s %v vs promised %v, %d points", c.Epsilon, res.Above, res.Private, res.RunGDP, res.GDP, len(res.Points))
		}
		for _, p := range res.Points {
			want, _ := privacy.Catch(res.GDP, p.Level, 0)
			if math.Abs(p.ExactCatch-want) > 1e-9 {
				t.Errorf("ε = %g, q = %g: exact catch %v, the curve %v: the far pair should attain it", c.Epsilon, p.Level, p.ExactCatch, want)
			}
			if p.CatchLo > p.ExactCatch || p.CatchHi < p.ExactCatch || p.FalseAlarmLo > p.Level || p.FalseAlarmHi < p.Level {
				t.Errorf("ε = %g, q = %g: intervals [%v, %v] × [%v, %v] miss the exact point (%v, %v)", c.Epsilon, p.Level,
					p.FalseAlarmLo, p.FalseAlarmHi, p.CatchLo, p.CatchHi, p.Level, p.ExactCatch)
			}
		}
		if len(res.Curve) != 101 || res.Curve[0] != [2]float64{0, 0} || res.Curve[100] != [2]float64{1, 1} {
			t.Errorf("curve ends %v … %v", res.Curve[0], res.Curve[len(res.Curve)-1])
		}
		t.Logf("ε = %g (s = %.3f): catch at q = 0.05: %.4f [%.4f, %.4f], promise %.4f", c.Epsilon, res.GDP,
			res.Points[2].Catch, res.Points[2].CatchLo, res.Points[2].CatchHi, res.Points[2].Bound)
	}
}

// TestMembershipCatchesBroken: the same attack on a deliberately broken
// mechanism — the noise halved, the promise kept — finds points above the
// curve. At s = 0.268 (ε = 1, δ = 1e-5) the broken mechanism's catch at a
// 5 % false alarm is Φ̄(1.645 − 0.536) ≈ 0.134 against a promise of ≈ 0.093,
// and at 50 % Φ̄(−0.536) ≈ 0.70 against 0.61; with 40,000 draws per table
// the intervals are ±0.006, so every seed finds it (the miss probability is
// far below 1e-9).
func TestMembershipCatchesBroken(t *testing.T) {
	for seed := uint64(1); seed <= 3; seed++ {
		res, err := Membership(context.Background(), MembershipConfig{Epsilon: 1, Delta: 1e-5, Draws: 40_000, Alpha: 1e-3, Noise: 0.5, Seed: seed}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if !res.Above || math.Abs(res.RunGDP-2*res.GDP) > 1e-9*res.GDP {
			t.Errorf("seed %d: noise halved not caught (above %v, run s %v, promised %v)", seed, res.Above, res.RunGDP, res.GDP)
		}
		above := 0
		for _, p := range res.Points {
			if p.Above {
				above++
			}
		}
		t.Logf("seed %d: %d of %d points above the curve", seed, above, len(res.Points))
	}
}

// TestMembershipProgressAndErrors: progress ends at 2·draws; bad fields are
// named; a cancelled context stops the attack.
func TestMembershipProgressAndErrors(t *testing.T) {
	var last [2]int
	calls := 0
	if _, err := Membership(context.Background(), MembershipConfig{Epsilon: 1, Delta: 1e-5, Draws: 5000, Seed: 1},
		func(d, tot int) { last = [2]int{d, tot}; calls++ }); err != nil {
		t.Fatal(err)
	}
	if last != [2]int{10_000, 10_000} || calls < 5 {
		t.Errorf("progress: %d calls, the last %v", calls, last)
	}
	for _, c := range []struct {
		cfg   MembershipConfig
		field string
	}{
		{MembershipConfig{Epsilon: 0, Delta: 1e-5}, "epsilon"},
		{MembershipConfig{Epsilon: 1, Delta: 1}, "delta"},
		{MembershipConfig{Epsilon: 1, Delta: 1e-5, N: 1}, "n"},
		{MembershipConfig{Epsilon: 1, Delta: 1e-5, Draws: 10}, "draws"},
		{MembershipConfig{Epsilon: 1, Delta: 1e-5, Alpha: 0.9}, "alpha"},
		{MembershipConfig{Epsilon: 1, Delta: 1e-5, Noise: -1}, "noise"},
		{MembershipConfig{Epsilon: math.NaN(), Delta: 1e-5}, "epsilon"},
	} {
		_, err := Membership(context.Background(), c.cfg, nil)
		var ce *checks.Error
		if !errors.As(err, &ce) || ce.Field != c.field {
			t.Errorf("%+v: error %v, want one naming %q", c.cfg, err, c.field)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Membership(ctx, MembershipConfig{Epsilon: 1, Delta: 1e-5, Seed: 1}, nil); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
	if _, err := Membership(context.Background(), MembershipConfig{Epsilon: 1, Delta: 1e-5, Seed: 1}, nil); err != nil && strings.Contains(err.Error(), "window") {
		t.Errorf("the default attack leaves the window: %v", err)
	}
}
