package privacy

import (
	"math"
	"strconv"
	"strings"
	"testing"
)

// T_μ against its closed form computed another way (erf in the bulk), its
// symmetry T(T(α)) = α (Dong–Roth–Su Proposition 2.4: a trade-off function
// of a symmetric pair is its own inverse), T_0(α) = 1 − α, and Catch = 1 − T.
func TestTradeoffClosedForm(t *testing.T) {
	for _, mu := range []float64{0, 0.1, 0.27, 0.7, 1, 2, 5} {
		for _, alpha := range []float64{1e-9, 1e-6, 1e-3, 0.01, 0.05, 0.2, 0.5, 0.8, 0.99, 1 - 1e-6} {
			got, err := Tradeoff(mu, alpha)
			if err != nil {
				t.Fatal(err)
			}
			if alpha >= 1e-3 && alpha <= 0.999 {
				z := math.Sqrt2 * math.Erfinv(1-2*alpha) // Φ⁻¹(1 − α)
				want := 0.5 * (1 + math.Erf((z-mu)/math.Sqrt2))
				if math.Abs(got-want) > 1e-13 {
					t.Errorf("T_%g(%g) = %.17g, erf form %.17g", mu, alpha, got, want)
				}
			}
			if mu == 0 && math.Abs(got-(1-alpha)) > 1e-15 {
				t.Errorf("T_0(%g) = %.17g, want 1 − α", alpha, got)
			}
			if got > MinAlpha && got < MaxAlpha {
				back, _ := Tradeoff(mu, got)
				if math.Abs(back-alpha) > 1e-9*math.Max(alpha, 1e-6) {
					t.Errorf("T_%g(T_%g(%g)) = %.17g, want α", mu, mu, alpha, back)
				}
			}
			c, _ := Catch(mu, alpha, 0)
			if math.Abs(c-(1-got)) > 1e-15 && math.Abs(c-(1-got)) > 1e-12*c {
				t.Errorf("Catch(%g, %g) = %.17g, 1 − T = %.17g", mu, alpha, c, 1-got)
			}
		}
	}
}

// The GDP curve is the envelope of the (ε, δ) lines the ledger converts to
// (Dong–Roth–Su Corollary 2.13): for δ = δ_μ(ε), T_μ(α) ≥ 1 − δ − e^ε·α for
// every α, with equality at one α (the supporting line touches the curve).
func TestTradeoffAgainstEpsilonDelta(t *testing.T) {
	for _, mu := range []float64{0.27, 0.7, 1.5} {
		for _, eps := range []float64{0.5, 1, 3} {
			delta, err := Delta(mu, eps)
			if err != nil {
				t.Fatal(err)
			}
			minGap := math.Inf(1)
			for k := 0; k <= 20000; k++ {
				alpha := math.Pow(10, -9+9*float64(k)/20000)
				if alpha > MaxAlpha {
					break
				}
				tr, _ := Tradeoff(mu, alpha)
				gap := tr - (1 - delta - math.Exp(eps)*alpha)
				if gap < -1e-12 {
					t.Fatalf("μ = %g, ε = %g: T(%g) = %g below the (ε, δ = %g) line by %g", mu, eps, alpha, tr, delta, -gap)
				}
				minGap = math.Min(minGap, gap)
			}
			if minGap > 1e-4 {
				t.Errorf("μ = %g, ε = %g: the line never touches the curve (gap ≥ %g)", mu, eps, minGap)
			}
		}
	}
}

// A slack tv enters as Φ̄(Φ̄⁻¹(α + tv) − μ) + tv: 0 adds nothing, more adds
// more, and the bound holds against a mixture that realises it; errors name
// the field.
func TestCatchWithTV(t *testing.T) {
	base, _ := Catch(0.7, 0.05, 0)
	small, _ := Catch(0.7, 0.05, 1e-6)
	big, _ := Catch(0.7, 0.05, 0.01)
	if !(base < small && small < big) || big > 1 {
		t.Errorf("catch %g, %g, %g not increasing in tv", base, small, big)
	}
	if c, _ := Catch(0.7, 0.999, 0.01); c != 1 {
		t.Errorf("α + tv ≥ 1: %g, want 1", c)
	}
	st := LedgerState{Spent: LedgerSpent{GDP: 0.7, TV: 0.01}}
	if c, _ := LedgerCatch(st, 0.05); c != big {
		t.Errorf("LedgerCatch %g, Catch %g", c, big)
	}
	for _, c := range []struct {
		mu, alpha, tv float64
		field         string
	}{{-1, 0.05, 0, "gdp"}, {math.NaN(), 0.05, 0, "gdp"}, {1, 0, 0, "alpha"}, {1, 1, 0, "alpha"}, {1, 1e-10, 0, "alpha"}, {1, 0.05, -1, "tv"}, {1, 0.05, 2, "tv"}} {
		if _, err := Catch(c.mu, c.alpha, c.tv); err == nil || !strings.HasPrefix(err.Error(), c.field+" must") {
			t.Errorf("Catch(%g, %g, %g): %v; want an error naming %s", c.mu, c.alpha, c.tv, err, c.field)
		}
	}
}

// The sentence's number is FormatPromise(catch): rounded up to 0.1 in 100
// (8.43 % is "at most 8.5 in 100"), the same number <dp-membership> prints
// (issue 53 item 6), 5.0 for no privacy loss, and "every time" when the
// bound reaches 1; it has no symbol of the arithmetic.
func TestAttackerSentence(t *testing.T) {
	s1, _ := Calibrate(1, 1e-5)
	for _, c := range []struct {
		mu, tv float64
		want   string
	}{
		{0, 0, "at most 5.0 times in 100"},
		{s1, 0, "at most 8.5 times in 100"},
		{s1, 1e-4, "at most 8.5 times in 100"}, // tv on both sides: 8.43 + 0.02
		{0.7, 0, "at most 17.3 times in 100"},  // Φ̄(1.645 − 0.7) = 0.1723
		{20, 0, "every time"},
	} {
		got := AttackerSentence(c.mu, c.tv)
		if !strings.Contains(got, c.want) || strings.ContainsAny(got, "εδμΦ√") {
			t.Errorf("μ = %g, tv = %g: %q; want %q", c.mu, c.tv, got, c.want)
		}
	}
	if c, _ := Catch(s1, 0.05, 0); math.Abs(100*c-8.43) > 0.005 {
		t.Errorf("catch at ε = 1: %g", c)
	}
}

// TestPromiseRate: one rounding rule for a promise — up, to 0.1 in 100,
// never below the bound (checked on 10⁵ values against the bound itself),
// exact tenths kept (0.05 is 5.0, 0.085 is 8.5) — and a measured rate
// labelled as measured, to the nearest tenth. Rounding to the nearest (the
// broken rule) prints less than the bound on about half of the values.
func TestPromiseRate(t *testing.T) {
	for _, c := range []struct {
		c    float64
		want string
	}{
		{0.0842866582792795, "8.5"}, {0.0841, "8.5"}, {0.085, "8.5"}, {0.05, "5.0"}, {0.0850001, "8.6"},
		{0, "0.0"}, {1, "100.0"}, {0.99999, "100.0"}, {0.17729154730831637, "17.8"},
	} {
		if got := FormatPromise(c.c); got != c.want {
			t.Errorf("FormatPromise(%v) = %q, want %q", c.c, got, c.want)
		}
	}
	below, nearBelow := 0, 0
	for i := range 100000 {
		c := float64(i)/100000 + 1.234567e-7
		r, _ := strconv.ParseFloat(FormatPromise(c), 64)
		if r < 100*c-1e-9 {
			below++
		}
		if math.Round(1000*c)/10 < 100*c {
			nearBelow++
		}
	}
	if below != 0 || nearBelow < 40000 {
		t.Errorf("%d promises printed below the bound (want 0); rounding to the nearest would print %d below (want about half)", below, nearBelow)
	}
	if got := FormatMeasured(0.0861, 0.0812, 0.0917); got != "measured: 8.6 in 100 [8.1, 9.2]" {
		t.Errorf("FormatMeasured: %q", got)
	}
}

// TestCatchCurve: the closed-interval catch is Catch inside (0, 1), 0 and 1
// at the ends, and the curve runs over k + 1 equally spaced α.
func TestCatchCurve(t *testing.T) {
	s1, _ := Calibrate(1, 1e-5)
	c := CatchCurve(s1, 20)
	if len(c) != 21 || c[0] != [2]float64{0, 0} || c[20] != [2]float64{1, 1} {
		t.Fatalf("curve ends %v … %v (%d points)", c[0], c[len(c)-1], len(c))
	}
	for _, p := range c[1:20] {
		want, _ := Catch(s1, p[0], 0)
		if p[1] != want {
			t.Errorf("α = %g: %v, want Catch's %v", p[0], p[1], want)
		}
	}
	if got := CatchClosed(-1, 0.5); got != 1 {
		t.Errorf("CatchClosed with a negative gdp: %v, want 1 (no promise)", got)
	}
}
