package fingerprint

import (
	"math"
	"strings"
	"testing"
)

// section5 is a table of Algorithm 2's lengths computed independently with python3:
// k = ln(n/ξ), d₀ = ⌈100n²k⌉, D = 5d₀, Z = 20nk, practical ℓ = ⌈10n²k⌉. A design
// note (not in the repository) printed ℓ = 59,069 and 82,646 at n = 32; ⌈10n²k⌉ is 59,068 (10n²k = 59067.61)
// and 82,647 (82646.08), so those two entries are corrected here.
var section5 = []struct {
	n         int
	xi        float64
	k         float64
	d0, D     int
	z         float64
	practical int
}{
	{4, .1, 3.6889, 5903, 29515, 295.11, 591},
	{8, .1, 4.3820, 28045, 140225, 701.12, 2805},
	{16, .1, 5.0752, 129925, 649625, 1624.06, 12993},
	{32, .1, 5.7683, 590677, 2953385, 3691.73, 59068},
	{4, .01, 5.9915, 9587, 47935, 479.32, 959},
	{8, .01, 6.6846, 42782, 213910, 1069.54, 4279},
	{16, .01, 7.3778, 188871, 944355, 2360.88, 18888},
	{32, .01, 8.0709, 826461, 4132305, 5165.38, 82647},
}

func TestLengthsSection5(t *testing.T) {
	for _, c := range section5 {
		l, err := Compute(Params{N: c.n, Xi: c.xi})
		if err != nil {
			t.Fatal(err)
		}
		if l.D0 != c.d0 || l.Length != c.D {
			t.Errorf("n=%d xi=%g: d0, D = %d, %d; want %d, %d", c.n, c.xi, l.D0, l.Length, c.d0, c.D)
		}
		// The table prints k to 4 and Z to 2 decimals.
		if math.Abs(l.K-c.k) > 5e-5 || math.Abs(l.Z-c.z) > 5e-3 || l.Threshold != l.Z/2 {
			t.Errorf("n=%d xi=%g: k=%.5f Z=%.3f threshold=%g; want k=%.4f Z=%.2f, Z/2", c.n, c.xi, l.K, l.Z, l.Threshold, c.k, c.z)
		}
		if want := 1 / (300 * float64(c.n)); l.T != want || math.Abs(math.Pow(math.Sin(l.TPrime), 2)-want) > 1e-15 {
			t.Errorf("n=%d: t=%g sin²t′=%g, want %g", c.n, l.T, math.Pow(math.Sin(l.TPrime), 2), want)
		}
		s, err := Compute(Params{N: c.n, Xi: c.xi, Mode: Symmetric})
		if err != nil {
			t.Fatal(err)
		}
		if s.D0 != c.practical || s.Length != 5*c.practical {
			t.Errorf("symmetric n=%d xi=%g: ℓ=%d, want %d", c.n, c.xi, s.D0, c.practical)
		}
		if want := math.Sqrt(2 * float64(s.D0) * s.K); math.Abs(s.Threshold-want) > 1e-9 {
			t.Errorf("symmetric threshold %g, want √(2ℓk) = %g", s.Threshold, want)
		}
	}
}

// The log-base slip (log₂ for ln) must not pass the same table.
func TestLengthsLogBaseSlipFails(t *testing.T) {
	for _, c := range section5 {
		l := lengths(Params{N: c.n, Xi: c.xi, Mode: Tardos}, math.Log2)
		if l.D0 == c.d0 {
			t.Errorf("log2 variant reproduces d0=%d at n=%d xi=%g; the table test could not catch the slip", c.d0, c.n, c.xi)
		}
	}
}

func TestParamsBadInput(t *testing.T) {
	cases := []struct {
		p     Params
		field string
	}{
		{Params{N: 1, Xi: .1}, "n must be"},
		{Params{N: -3, Xi: .1}, "n must be"},
		{Params{N: 4, Xi: 0}, "xi must be"},
		{Params{N: 4, Xi: 1}, "xi must be"},
		{Params{N: 4, Xi: math.NaN()}, "xi must be"},
		{Params{N: 4, Xi: math.Inf(1)}, "xi must be"},
		{Params{N: 4, Xi: .1, Mode: "boneh-shaw"}, "mode must be"},
	}
	for _, c := range cases {
		_, err := New(c.p, nil)
		if err == nil || !strings.HasPrefix(err.Error(), c.field) {
			t.Errorf("New(%+v) = %v, want error starting %q", c.p, err, c.field)
		}
	}
}

func TestMemoryBudget(t *testing.T) {
	// n = 128, ξ = 0.01 needs d₀ ≈ 15.2M real columns: far over budget.
	_, err := New(Params{N: 128, Xi: .01}, nil)
	if err == nil {
		t.Fatal("no error for a code over the memory budget")
	}
	msg := err.Error()
	if !strings.HasPrefix(msg, "n must be") || !strings.Contains(msg, "needs") || !strings.Contains(msg, "MiB") {
		t.Errorf("budget error %q should name n and the size needed", msg)
	}
	if _, err := Compute(Params{N: MaxN, Xi: 1e-300}); err == nil {
		t.Error("absurd size accepted")
	}
	// n = 32, ξ = .01 (the benchmark setting) is inside the budget.
	l, err := Compute(Params{N: 32, Xi: .01})
	if err != nil || l.Bytes > MaxBytes {
		t.Errorf("n=32 xi=.01: %v (%d bytes)", err, l.Bytes)
	}
}
