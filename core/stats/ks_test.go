package stats

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestKS: hand-computed statistics, xs left unsorted, and critical values.
func TestKS(t *testing.T) {
	uniform := func(x float64) float64 { return math.Min(1, math.Max(0, x)) }
	for _, c := range []struct {
		xs   []float64
		want float64
	}{
		{[]float64{0.5}, 0.5},              // max(0.5 − 0, 1 − 0.5)
		{[]float64{0.9, 0.1}, 0.4},         // order statistics 0.1, 0.9: max(0.1, 0.4, 0.4, 0.1)
		{[]float64{0.2, 0.4, 0.6}, 0.4},    // 1 − 0.6
		{[]float64{0.95, 0.9, 0.85}, 0.85}, // all high: F(0.85) − 0
	} {
		in := slices.Clone(c.xs)
		if got := KS(c.xs, uniform); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("KS(%v) = %g, want %g", in, got, c.want)
		}
		if !slices.Equal(in, c.xs) {
			t.Errorf("KS sorted its argument: %v → %v", in, c.xs)
		}
	}
	for _, c := range []struct{ alpha, want float64 }{{0.05, 1.3581}, {0.01, 1.6276}, {0.001, 1.9495}} {
		if got := KSCritical(c.alpha, 100) * 10; math.Abs(got-c.want) > 1e-4 {
			t.Errorf("KSCritical(%g, 100)·√100 = %.5f, want %.4f", c.alpha, got, c.want)
		}
	}
	// A uniform sample passes at α = 0.001 (seeded); the same sample
	// shifted by 0.1 does not.
	r := rand.New(rand.NewPCG(1, 2))
	xs := make([]float64, 2000)
	for i := range xs {
		xs[i] = r.Float64()
	}
	crit := KSCritical(0.001, len(xs))
	if d := KS(xs, uniform); d > crit {
		t.Errorf("uniform sample: KS %.4f > %.4f", d, crit)
	}
	for i := range xs {
		xs[i] += 0.1
	}
	if d := KS(xs, uniform); d <= crit {
		t.Errorf("shifted sample: KS %.4f ≤ %.4f", d, crit)
	}
}
