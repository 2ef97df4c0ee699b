package privacy

import (
	"math"
	"os"
	"strconv"
	"strings"
	"testing"
)

// deltaGolden are δ_s(ε) references from testdata/golden.txt: mpmath at 60
// digits (testdata/golden.py), printed to 20 significant digits. The rows
// (1,1) (1,2) (3,1) (1,0) (1,−1) also appear, to 8 digits, in
// google/differential-privacy dp_accounting pld/privacy_loss_mechanism_test.py
// (GaussianPrivacyLoss, σ = 1/s, sensitivity 1): 0.12693674, 0.02092364,
// 0.78760074, 0.38292492, 0.67881797. The row (0.1, 1) = 1.23e-25 is the
// stress case where ½(1+erf) returns 0.
var deltaGolden = func() (out []struct{ s, eps, delta float64 }) {
	for _, r := range readGolden("delta") {
		out = append(out, struct{ s, eps, delta float64 }{r[0], r[1], r[2]})
	}
	return out
}()

// readGolden returns the numeric rows of testdata/golden.txt tagged kind.
func readGolden(kind string) (rows [][3]float64) {
	b, err := os.ReadFile("testdata/golden.txt")
	if err != nil {
		panic(err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		f := strings.Fields(line)
		if len(f) != 4 || f[0] != kind {
			continue
		}
		var r [3]float64
		for i := range r {
			if r[i], err = strconv.ParseFloat(f[i+1], 64); err != nil {
				panic(err)
			}
		}
		rows = append(rows, r)
	}
	return rows
}

func relErr(got, want float64) float64 { return math.Abs(got-want) / math.Abs(want) }

func TestDeltaGolden(t *testing.T) {
	if len(deltaGolden) < 10 {
		t.Fatalf("only %d golden rows read", len(deltaGolden))
	}
	for _, c := range deltaGolden {
		got, err := Delta(c.s, c.eps)
		if err != nil {
			t.Fatal(err)
		}
		if e := relErr(got, c.delta); e > 1e-10 {
			t.Errorf("Delta(s=%g, ε=%g) = %.12g, want %.12g (rel err %.2g)", c.s, c.eps, got, c.delta, e)
		}
	}
}

// TestPaperCurveIsWrong pins the typo of Lemma E.1 as printed,
// Φ(−ε/2 + s/2) − e^ε Φ(−ε/s − s/2): it must fail the same references,
// so a regression to it is caught.
func TestPaperCurveIsWrong(t *testing.T) {
	bad := 0
	for _, c := range deltaGolden {
		if c.eps == 0 || c.s == 2 { // the only places the two forms agree
			continue
		}
		if relErr(PaperDelta(c.s, c.eps), c.delta) > 1e-3 {
			bad++
		}
	}
	if bad < 8 {
		t.Fatalf("the paper's printed curve failed only %d references", bad)
	}
	// As s → 0 the typo tends to Φ(−ε/2) = 0.3085 at ε = 1 instead of 0.
	if p := PaperDelta(1e-9, 1); math.Abs(p-0.308537538726) > 1e-9 {
		t.Fatalf("PaperDelta(1e-9, 1) = %g, want ≈ Φ(−1/2)", p)
	}
}

// TestDeltaIdentities checks facts that hold for every s, ε: δ_s(0) = 2Φ(s/2) − 1,
// δ increasing in s and decreasing in ε, and agreement with a direct
// (non-log) evaluation where that is accurate.
func TestDeltaIdentities(t *testing.T) {
	for _, s := range []float64{0.05, 0.3, 1, 2.5, 7} {
		d0, _ := Delta(s, 0)
		if want := 2*Phi(s/2) - 1; relErr(d0, want) > 1e-12 {
			t.Errorf("δ_%g(0) = %g, want %g", s, d0, want)
		}
		prev := 2.0
		for _, eps := range []float64{0.01, 0.1, 0.5, 1, 2, 5, 10, 50} {
			d, _ := Delta(s, eps)
			if !(d <= prev) {
				t.Errorf("δ_%g not decreasing at ε=%g", s, eps)
			}
			prev = d
			if d > 1e-8 { // direct form is accurate only far from cancellation
				direct := Phi(-eps/s+s/2) - math.Exp(eps)*Phi(-eps/s-s/2)
				if relErr(d, direct) > 1e-7 {
					t.Errorf("δ_%g(%g) = %g, direct %g", s, eps, d, direct)
				}
			}
		}
	}
	for _, eps := range []float64{0.1, 1, 5} {
		prev := 0.0
		for _, s := range []float64{0.01, 0.1, 0.5, 1, 3, 10} {
			d, _ := Delta(s, eps)
			if !(d >= prev) {
				t.Errorf("δ_s(%g) not increasing in s at s=%g", eps, s)
			}
			prev = d
		}
	}
}

// TestDeltaHugeEpsilon: e^ε would overflow at ε = 800; the log-space form
// must still give a finite log δ below the ε = 700 value, or exactly −Inf.
func TestDeltaHugeEpsilon(t *testing.T) {
	l700, err := LogDelta(40, 700)
	if err != nil || math.IsNaN(l700) {
		t.Fatalf("LogDelta(40, 700) = %v, %v", l700, err)
	}
	l800, err := LogDelta(40, 800)
	if err != nil || math.IsNaN(l800) || !(l800 < l700) {
		t.Fatalf("LogDelta(40, 800) = %v (700: %v), %v", l800, l700, err)
	}
}

func TestCurveBadInput(t *testing.T) {
	cases := []struct {
		s, eps float64
		field  string
	}{
		{math.NaN(), 1, "gdp"}, {0, 1, "gdp"}, {math.Copysign(0, -1), 1, "gdp"}, {-1, 1, "gdp"},
		{math.Inf(1), 1, "gdp"}, {1, math.NaN(), "epsilon"}, {1, math.Inf(1), "epsilon"}, {1, math.Inf(-1), "epsilon"},
	}
	for _, c := range cases {
		_, err := Delta(c.s, c.eps)
		if err == nil || !strings.HasPrefix(err.Error(), c.field+" must be") {
			t.Errorf("Delta(%v, %v): error %v, want one naming %q", c.s, c.eps, err, c.field)
		}
	}
}

func TestLogPhi(t *testing.T) {
	// Continuity across the switch points of LogPhi, and the asymptotic branch
	// against the exact erfc value where both are representable.
	for _, x := range []float64{-37, 0} {
		a, b := LogPhi(math.Nextafter(x, math.Inf(-1))), LogPhi(math.Nextafter(x, math.Inf(1)))
		if math.Abs(a-b) > 1e-12*math.Abs(a)+1e-300 {
			t.Errorf("LogPhi jumps at %g: %g vs %g", x, a, b)
		}
	}
	for _, x := range []float64{-20, -30, -36.9} {
		exact := math.Log(0.5 * math.Erfc(-x/math.Sqrt2))
		r := 1 / (x * x)
		asym := -x*x/2 - math.Log(-x) - 0.5*math.Log(2*math.Pi) + math.Log(1-r*(1-r*(3-r*(15-105*r))))
		if relErr(asym, exact) > 1e-12 {
			t.Errorf("asymptotic logΦ(%g) = %.16g, erfc gives %.16g", x, asym, exact)
		}
	}
	if v := LogPhi(-1000); math.IsInf(v, 0) || math.IsNaN(v) {
		t.Errorf("LogPhi(-1000) = %g", v)
	}
}

// PaperDelta is the curve as printed in Lemma E.1 of the paper,
// Φ(−ε/2 + s/2) − e^ε·Φ(−ε/s − s/2). It is WRONG (a typo: the first term
// should read −ε/s) and exists only so the tests can show that it fails the
// references; never use it for accounting.
func PaperDelta(s, eps float64) float64 {
	return Phi(-eps/2+s/2) - math.Exp(eps)*Phi(-eps/s-s/2)
}

// TestGuaranteeDelta: the δ a ledger's chart draws never rises with ε (issue
// 45: the budget's CurveDelta at ε = 3, δ = 10⁻⁵ dips near 3.26 and rises), is
// CurveDelta where that decreases, and is the running minimum of CurveDelta
// over a fine grid everywhere; the budget's (ε, δ) stays on it.
func TestGuaranteeDelta(t *testing.T) {
	b, err := NewLedgerBudget(3, 1e-5)
	if err != nil {
		t.Fatal(err)
	}
	if CurveDelta(b.GDP, b.TV, 4.8) <= CurveDelta(b.GDP, b.TV, 3.5) {
		t.Fatal("the budget's CurveDelta does not rise: the case this test is for is gone")
	}
	if d := GuaranteeDelta(b.GDP, b.TV, b.Epsilon); relErr(d, b.Delta) > 1e-9 {
		t.Errorf("at the budget's ε: δ = %g, want %g", d, b.Delta)
	}
	for _, c := range []struct{ g, tv float64 }{{b.GDP, b.TV}, {0.3, 1e-7}, {2, 1e-3}, {1, 0}, {0, 1e-6}, {1, 1}, {5, 0.4}} {
		runMin := math.Inf(1)
		prev := math.Inf(1)
		for i := 0; i <= 4000; i++ {
			e := 8 * float64(i) / 4000
			cd, gd := CurveDelta(c.g, c.tv, e), GuaranteeDelta(c.g, c.tv, e)
			runMin = math.Min(runMin, cd)
			if gd > prev*(1+1e-12) {
				t.Fatalf("g = %g, tv = %g: δ rises at ε = %g (%g after %g)", c.g, c.tv, e, gd, prev)
			}
			// The exact minimum over [0, ε]: at most the grid's running minimum
			// (and the curve), below it only by what the grid misses near ε*.
			if gd > runMin*(1+1e-12) || gd < runMin*(1-1e-3) {
				t.Fatalf("g = %g, tv = %g, ε = %g: guarantee %g, curve %g, running minimum %g", c.g, c.tv, e, gd, cd, runMin)
			}
			prev = gd
		}
	}
}
