package privacy

import (
	"math"
	"testing"
)

// tinyDeltas are δ (and TV) values below the 2.8·10⁻¹⁷ where erfcinv(2p)
// returned +Inf, down to the smallest subnormal; the JS API accepts any δ in
// (0, 1) below 1/n.
var tinyDeltas = []float64{1e-15, 1e-16, 5e-17, 2e-17, 1e-17, 1e-20, 1e-50, 1e-100, 1e-300, 1e-310, 5e-324}

// TestPhiInvUpperTail (issue 41, found while fuzzing describe's ε and δ):
// for p below 10⁻¹⁵, PhiInvUpper solves log Φ(−z) = log p to 10⁻¹³·z²
// (z's own relative rounding, ≈ 10⁻¹⁵, moves log Φ(−z) by ≈ z²·10⁻¹⁵), is
// finite and decreases with p; at and above 10⁻¹⁵ it is √2·erfcinv(2p) as
// before, bit for bit. Before, it was +Inf below 2.8·10⁻¹⁷.
func TestPhiInvUpperTail(t *testing.T) {
	prev := 0.0
	for _, p := range tinyDeltas[1:] {
		z := PhiInvUpper(p)
		if math.IsInf(z, 0) || math.IsNaN(z) || !(z > prev) {
			t.Fatalf("PhiInvUpper(%g) = %v (after %v for a larger p)", p, z, prev)
		}
		if e := math.Abs(LogPhi(-z) - math.Log(p)); e > 1e-13*z*z {
			t.Errorf("PhiInvUpper(%g) = %v: log Φ(−z) − log p = %.3g", p, z, e)
		}
		prev = z
	}
	for _, p := range []float64{1e-15, 1e-12, 1e-6, 0.025, 0.5, 0.9} {
		if z, want := PhiInvUpper(p), math.Sqrt2*math.Erfcinv(2*p); z != want {
			t.Errorf("PhiInvUpper(%g) = %v, was %v", p, z, want)
		}
	}
	if z := PhiInvUpper(0); !math.IsInf(z, 1) {
		t.Errorf("PhiInvUpper(0) = %v, want +Inf", z)
	}
}

// TestCalibrateTinyDelta (issue 41): Calibrate(ε, δ) for δ from 10⁻¹⁵ down
// to 5·10⁻³²⁴ returns a finite s > 0 with δ_s(ε) ≤ δ as callers compute it
// (exp of LogDelta), within 10⁻¹² of the largest such s where δ is a normal
// number, in microseconds; a ledger of budget δ = 10⁻²⁰ has a finite S; and
// ComposedEpsilon of a release with a tiny total variation (an approximate
// sampler under a large budget: TV 4.5·10⁻⁵¹ in docs/PRIVACY.md §8) is
// finite and next to the exact curve's ε. Before, Calibrate returned NaN
// and no error below δ ≈ 2.8·10⁻¹⁷ (so did a ledger's S and describe's
// plan), ComposedEpsilon +Inf with ok false, and once PhiInvUpper was fixed
// the final ulp-by-ulp step of Calibrate never ended for δ = 5·10⁻³²⁴.
func TestCalibrateTinyDelta(t *testing.T) {
	for _, eps := range []float64{0.1, 1, 10} {
		for _, d := range tinyDeltas {
			s, err := Calibrate(eps, d)
			if err != nil || !(s > 0) || math.IsInf(s, 0) {
				t.Fatalf("Calibrate(%g, %g) = %v, %v", eps, d, s, err)
			}
			ld, _ := LogDelta(s, eps)
			if math.Exp(ld) > d {
				t.Errorf("Calibrate(%g, %g) = %v: δ_s = %g > δ", eps, d, s, math.Exp(ld))
			}
			if ld2, _ := LogDelta(s*(1+1e-12), eps); d >= 0x1p-1022 && !(ld2 > math.Log(d)) {
				t.Errorf("Calibrate(%g, %g) = %v is not the largest s (s·(1+1e-12) fits too)", eps, d, s)
			}
		}
	}
	l, err := NewLedger(3, 1e-20)
	if err != nil {
		t.Fatal(err)
	}
	if b := l.Budget(); !(b.GDP > 0) || math.IsInf(b.GDP, 0) {
		t.Fatalf("ledger budget at δ = 1e-20: %+v", b)
	}
	exact, _ := Epsilon(0.5, 1e-5)
	for _, tv := range []float64{1e-17, 4.5e-51, 1e-300} {
		e, d, ok := ComposedEpsilon(0.5, tv, 1e-5)
		if !ok || d != 1e-5 || math.Abs(e-exact) > 1e-9*exact {
			t.Errorf("ComposedEpsilon(0.5, %g, 1e-5) = %v, %v, %v; the exact curve's ε is %v", tv, e, d, ok, exact)
		}
	}
}
