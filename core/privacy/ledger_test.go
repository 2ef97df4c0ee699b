package privacy

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"sync"
	"testing"

	"github.com/dpsample/dpsample/core/checks"
)

func mustLedger(t testing.TB, eps, delta float64) *Ledger {
	t.Helper()
	l, err := NewLedger(eps, delta)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// compositionViolations runs the ledger's exactness checks and returns what
// fails; the tests below require none for the real rule and some for every
// broken one (TestBrokenCompositionIsCaught). Its ledgers compose by compose.
func compositionViolations(compose func([]float64) float64) []string {
	var bad []string
	// Two releases at s compose to √2·s (Dong–Roth–Su Corollary 3.3).
	for _, s := range []float64{0.01, 0.27, 1, 3} {
		l, _ := newLedger(80, 1e-5, compose) // S ≈ 8.4: room for 2 × 3
		for i := 0; i < 2; i++ {
			if _, err := l.Charge(Release{GDP: s}); err != nil {
				return append(bad, fmt.Sprintf("two releases at %g: charge %d refused: %v", s, i, err))
			}
		}
		if g := l.State().Spent.GDP; math.Abs(g-math.Sqrt2*s) > 1e-15*s {
			bad = append(bad, fmt.Sprintf("two releases at %g spent gdp %.17g, want √2·s = %.17g", s, g, math.Sqrt2*s))
		}
	}
	// m releases at S/√m use exactly a budget S: all fit, the spent GDP is S,
	// nothing is left (a further release of S·1e-6 is refused).
	for _, m := range []int{2, 3, 7, 10, 100, 500} {
		l, _ := newLedger(1, 1e-5, compose)
		S := l.Budget().GDP
		for i := 0; i < m; i++ {
			if _, err := l.Charge(Release{GDP: S / math.Sqrt(float64(m))}); err != nil {
				bad = append(bad, fmt.Sprintf("m = %d: release %d of S/√m refused: %v", m, i+1, err))
				break
			}
		}
		st := l.State()
		if math.Abs(st.Spent.GDP-S) > 1e-13*S {
			bad = append(bad, fmt.Sprintf("m = %d releases at S/√m spent gdp %.17g, want S = %.17g", m, st.Spent.GDP, S))
		}
		if l.Fits(Release{GDP: S * 1e-6}) == nil {
			bad = append(bad, fmt.Sprintf("m = %d: a release of S·1e-6 still fits after m releases of S/√m", m))
		}
	}
	// Remaining: after a at 0.6·S the largest release is 0.8·S.
	l, _ := newLedger(2, 1e-6, compose)
	S := l.Budget().GDP
	if _, err := l.Charge(Release{GDP: 0.6 * S}); err != nil {
		return append(bad, err.Error())
	}
	if r := l.Remaining().GDP; math.Abs(r-0.8*S) > 1e-14*S {
		bad = append(bad, fmt.Sprintf("remaining after 0.6·S is %.17g·S, want 0.8·S", r/S))
	}
	if l.Fits(Release{GDP: 0.8 * S * (1 + 1e-12)}) == nil {
		bad = append(bad, "0.8·S·(1+1e-12) fits after 0.6·S")
	}
	return bad
}

func TestComposition(t *testing.T) {
	for _, v := range compositionViolations(composeGDP) {
		t.Error(v)
	}
}

// TestBrokenCompositionIsCaught swaps the composition rule for broken ones —
// adding s (basic composition of GDP parameters, too conservative), taking
// the largest s (no composition at all: each release judged alone), adding
// s² without the root — and requires the checks above to fail each.
func TestBrokenCompositionIsCaught(t *testing.T) {
	for name, rule := range map[string]func([]float64) float64{
		"Σ s": func(s []float64) float64 {
			sum := 0.0
			for _, v := range s {
				sum += v
			}
			return sum
		},
		"max s": func(s []float64) float64 {
			m := 0.0
			for _, v := range s {
				m = math.Max(m, v)
			}
			return m
		},
		"Σ s² (no root)": func(s []float64) float64 {
			sum := 0.0
			for _, v := range s {
				sum += v * v
			}
			return sum
		},
	} {
		if v := compositionViolations(rule); len(v) == 0 {
			t.Errorf("composition rule %q passes the ledger's checks", name)
		} else {
			t.Logf("%s caught: %s", name, v[0])
		}
	}
}

// TestRefusalAtTheBoundary: after a release at a, one at exactly
// b = √(S² − a²) fits, one at b′ = √(b² + 1e-12·S²) does not: the tolerance
// is FitTolerance = 2⁻⁴⁴ ≈ 5.7e-14 of S² on Σ s², and 1e-12 is 17 times that.
// A refused charge changes nothing.
func TestRefusalAtTheBoundary(t *testing.T) {
	for _, frac := range []float64{0.1, 0.5, 0.9, 0.999} {
		l := mustLedger(t, 3, 1e-5)
		S := l.Budget().GDP
		a := frac * S
		if _, err := l.Charge(Release{GDP: a}); err != nil {
			t.Fatal(err)
		}
		b := math.Sqrt((S - a) * (S + a))
		before := l.State()
		over := math.Sqrt(b*b + 1e-12*S*S)
		err := l.Fits(Release{GDP: over})
		if err == nil {
			t.Fatalf("a = %g·S: √(b² + 1e-12·S²) fits", frac)
		}
		if _, err := l.Charge(Release{GDP: over}); err == nil {
			t.Fatalf("a = %g·S: √(b² + 1e-12·S²) was charged", frac)
		}
		if after := l.State(); after.Spent != before.Spent || len(after.History) != 1 {
			t.Fatalf("a refused charge changed the ledger: %+v → %+v", before.Spent, after.Spent)
		}
		if !strings.HasPrefix(err.Error(), "ledger must be large enough for this release: it costs gdp ") ||
			!strings.Contains(err.Error(), "is left") || !strings.Contains(err.Error(), "1 release(s) so far") {
			t.Errorf("refusal message %q", err)
		}
		if _, err := l.Charge(Release{GDP: b}); err != nil {
			t.Errorf("a = %g·S: the boundary release b = √(S² − a²) is refused: %v", frac, err)
		}
		if st := l.State(); st.Spent.OverBudget || st.Remaining.GDP > 1e-6*S {
			t.Errorf("a = %g·S: after the boundary release: %+v, remaining %+v", frac, st.Spent, st.Remaining)
		}
	}
}

// TestOneReleaseAtTheBudgetFitsExactly: a release of the mechanism's own
// form at the budget's (ε, δ) — s = Calibrate(ε, δ/2), TV = (δ/2)/(1+e^ε) —
// uses the whole budget: it fits, its spent ε at δ is the budget's ε, and
// nothing more fits.
func TestOneReleaseAtTheBudgetFitsExactly(t *testing.T) {
	for _, c := range []struct{ eps, delta float64 }{{3, 1e-5}, {1, 1e-6}, {0.1, 1e-9}, {8, 1e-3}} {
		l := mustLedger(t, c.eps, c.delta)
		sp, _ := Split(c.eps, c.delta)
		s, _ := Calibrate(c.eps, sp.DeltaCurve)
		st, err := l.Charge(Release{GDP: s, TV: sp.TV, Epsilon: c.eps, Delta: c.delta})
		if err != nil {
			t.Fatalf("%+v: %v", c, err)
		}
		if relErr(st.Spent.Epsilon, c.eps) > 1e-8 || st.Spent.Delta != c.delta || st.Spent.OverBudget {
			t.Errorf("%+v: spent %+v", c, st.Spent)
		}
		if d := CurveDelta(st.Budget.GDP, st.Budget.TV, c.eps); relErr(d, c.delta) > 1e-9 {
			t.Errorf("%+v: the budget's curve at its ε is %g", c, d)
		}
		if l.Fits(Release{GDP: 1e-4 * s}) == nil || l.Fits(Release{GDP: 1e-9 * s, TV: 1e-6 * sp.TV}) == nil {
			t.Errorf("%+v: something still fits after the whole budget", c)
		}
	}
}

// TestTVBudgetRunsOut: releases with a large TV of their own exhaust the TV
// side while GDP is left; the refusal names total variation; an exact
// release (TV = 0) still fits.
func TestTVBudgetRunsOut(t *testing.T) {
	l := mustLedger(t, 1, 1e-5)
	b := l.Budget()
	small := Release{GDP: 0.01 * b.GDP, TV: 0.4 * b.TV}
	for i := 0; i < 2; i++ {
		if _, err := l.Charge(small); err != nil {
			t.Fatalf("charge %d: %v", i, err)
		}
	}
	_, err := l.Charge(small)
	if err == nil || !strings.Contains(err.Error(), "total variation") {
		t.Fatalf("third TV charge: %v", err)
	}
	if rem := l.Remaining(); math.Abs(rem.TV-0.2*b.TV) > 1e-12*b.TV || rem.GDP < 0.99*b.GDP {
		t.Errorf("remaining %+v, budget %+v", rem, b)
	}
	if _, err := l.Charge(Release{GDP: 0.5 * b.GDP}); err != nil {
		t.Errorf("an exact release with GDP left: %v", err)
	}
	// The allowance never exceeds what is left.
	if a := l.TVAllowance(0.5 * b.GDP); a > 0.2*b.TV || a <= 0 {
		t.Errorf("TVAllowance = %g with %g left", a, 0.2*b.TV)
	}
}

// TestTVAllowanceKeepsTVFromBinding: releases that each take their
// proportional TV share use the TV side no faster than the GDP side, so an
// even split of the budget fits on both sides.
func TestTVAllowanceKeepsTVFromBinding(t *testing.T) {
	for _, m := range []int{1, 2, 3, 10, 100} {
		l := mustLedger(t, 3, 1e-5)
		s := l.Budget().GDP / math.Sqrt(float64(m))
		for i := 0; i < m; i++ {
			tv := l.TVAllowance(s)
			if want := l.Budget().TV / float64(m); tv > want || tv < want*(1-1e-8) {
				t.Fatalf("m = %d: allowance %g, want the share %g", m, tv, want)
			}
			if _, err := l.Charge(Release{GDP: s, TV: tv}); err != nil {
				t.Fatalf("m = %d, release %d: %v", m, i+1, err)
			}
		}
		if st := l.State(); st.Spent.OverBudget || st.Spent.TV > l.Budget().TV {
			t.Errorf("m = %d: %+v", m, st.Spent)
		}
	}
}

// TestComposedEpsilon: the returned ε is feasible and minimal (f(ε(1−1e-9))
// > δ), agrees with Epsilon when tv = 0, and reports infeasibility.
func TestComposedEpsilon(t *testing.T) {
	f := func(g, tv, e float64) float64 {
		d, _ := Delta(g, e)
		return d + (1+math.Exp(e))*tv
	}
	for _, g := range []float64{0.05, 0.3, 1, 2.5} {
		for _, tv := range []float64{0, 1e-12, 1e-8, 1e-7} {
			for _, delta := range []float64{1e-6, 1e-5, 1e-3} {
				e, d, ok := ComposedEpsilon(g, tv, delta)
				if !ok {
					if d <= delta {
						t.Errorf("(%g, %g, %g): infeasible with δ = %g ≤ target", g, tv, delta, d)
					}
					// No grid point may be feasible either.
					for x := 0.0; x < 60; x += 0.01 {
						if f(g, tv, x) <= delta*(1-1e-9) {
							t.Errorf("(%g, %g, %g): reported infeasible but f(%g) = %g", g, tv, delta, x, f(g, tv, x))
							break
						}
					}
					continue
				}
				if d != delta || f(g, tv, e) > delta*(1+1e-12) {
					t.Errorf("(%g, %g, %g): ε = %g gives %g", g, tv, delta, e, f(g, tv, e))
				}
				if e > 0 && f(g, tv, e*(1-1e-9)) <= delta {
					t.Errorf("(%g, %g, %g): ε = %g is not the smallest", g, tv, delta, e)
				}
				if tv == 0 {
					if want, _ := Epsilon(g, delta); e != want {
						t.Errorf("(%g, 0, %g): %g ≠ Epsilon %g", g, delta, e, want)
					}
				}
			}
		}
	}
	if _, _, ok := ComposedEpsilon(0.5, 1e-3, 1e-5); ok {
		t.Error("tv = 1e-3 cannot reach δ = 1e-5")
	}
}

// TestNeverLooserThanBasicComposition: k releases, each (ε₁, δ₁)-DP, are
// (kε₁, kδ₁)-DP by basic composition; the ledger's ε at kδ₁ is at most kε₁,
// and for many releases much less (the GDP curve alone: ≤ 0.2·kε₁ at k = 100,
// ε₁ = 0.1). Also with approximate-sampler releases (TV at their own split),
// where the exact curve alone can be looser and the basic bound takes over.
func TestNeverLooserThanBasicComposition(t *testing.T) {
	for _, eps1 := range []float64{0.05, 0.1, 0.5, 1, 2} {
		for _, k := range []int{1, 2, 3, 10, 100} {
			d1 := 1e-7
			// Exact sampler: s = Calibrate(ε₁, δ₁), TV = 0.
			s, _ := Calibrate(eps1, d1)
			e, _, ok := ComposedEpsilon(math.Sqrt(float64(k))*s, 0, float64(k)*d1)
			if !ok || e > float64(k)*eps1*(1+1e-9) {
				t.Errorf("exact: k = %d at ε₁ = %g: GDP curve gives %g > kε₁ = %g", k, eps1, e, float64(k)*eps1)
			}
			if k == 100 && eps1 == 0.1 && e > 0.2*float64(k)*eps1 {
				t.Errorf("k = 100 at ε₁ = 0.1: %g, want far below basic's 10", e)
			}
			// Approximate sampler: s = Calibrate(ε₁, δ₁/2), TV = (δ₁/2)/(1+e^ε₁).
			sp, _ := Split(eps1, d1)
			sa, _ := Calibrate(eps1, sp.DeltaCurve)
			// (A ledger's own budget never holds k such TVs; the history is
			// set directly to test the accounting alone.)
			l := &Ledger{}
			for i := 0; i < k; i++ {
				l.history = append(l.history, Release{GDP: sa, TV: sp.TV, Epsilon: eps1, Delta: d1})
			}
			le, _, ok, err := l.EpsilonAt(float64(k) * d1)
			if err != nil || !ok || le > float64(k)*eps1*(1+1e-9) {
				t.Errorf("approximate: k = %d at ε₁ = %g: ledger ε %g > kε₁ (%v %v)", k, eps1, le, ok, err)
			}
		}
	}
}

// TestRegistry: open is idempotent for the same budget and an error naming
// the field for another; get names the key; restore merges by release ID
// (a stale copy cannot remove charges) and checks the budget; reset empties
// the history and keeps the budget.
func TestRegistry(t *testing.T) {
	var g Registry
	l, err := g.Open("t1", 3, 1e-5)
	if err != nil {
		t.Fatal(err)
	}
	if l2, err := g.Open("t1", 3, 1e-5); err != nil || l2 != l {
		t.Fatalf("reopen: %v", err)
	}
	if _, err := g.Open("t1", 2, 1e-5); err == nil || !strings.HasPrefix(err.Error(), "epsilon must be 3, the budget ledger \"t1\" was opened with") {
		t.Errorf("other ε: %v", err)
	}
	if _, err := g.Open("t1", 3, 1e-6); err == nil || !strings.HasPrefix(err.Error(), "delta must be 1e-05, the budget") {
		t.Errorf("other δ: %v", err)
	}
	for _, c := range []struct {
		key        string
		eps, delta float64
		want       string
	}{{"", 1, 1e-5, "key must be"}, {strings.Repeat("k", 300), 1, 1e-5, "key must be"}, {"x", 0, 1e-5, "epsilon must be"}, {"x", 1, 1, "delta must be"}} {
		if _, err := g.Open(c.key, c.eps, c.delta); err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("Open(%.10q, %g, %g): %v", c.key, c.eps, c.delta, err)
		}
	}
	if _, err := g.Get("key", "nope"); err == nil || !strings.HasPrefix(err.Error(), "key must be the key of an open ledger") {
		t.Errorf("get missing: %v", err)
	}
	S := l.Budget().GDP
	if _, err := l.Charge(Release{GDP: 0.5 * S}); err != nil {
		t.Fatal(err)
	}
	stale := StateOf("t1", l) // one release
	if _, err := l.Charge(Release{GDP: 0.5 * S}); err != nil {
		t.Fatal(err)
	}
	if _, err := g.Restore(stale); err != nil {
		t.Fatal(err)
	}
	if n := l.State().Spent.Releases; n != 2 {
		t.Fatalf("restoring a stale copy left %d releases, want 2", n)
	}
	// Another device's history with one shared and one new release: union.
	other := StateOf("t1", l)
	other.History = append(other.History[:1], Release{ID: "other-device", GDP: 0.1 * S})
	if _, err := g.Restore(other); err != nil {
		t.Fatal(err)
	}
	if st := l.State(); st.Spent.Releases != 3 {
		t.Fatalf("union gave %d releases, want 3", st.Spent.Releases)
	}
	// A fresh registry (a reloaded page) gets the full state back.
	var fresh Registry
	rl, err := fresh.Restore(StateOf("t1", l))
	if err != nil || rl.State().Spent != l.State().Spent {
		t.Fatalf("restore into a fresh registry: %v", err)
	}
	bad := StateOf("t1", l)
	bad.Budget.Epsilon = 1
	if _, err := g.Restore(bad); err == nil || !strings.HasPrefix(err.Error(), "state.budget.epsilon must be 3") {
		t.Errorf("restore with another budget: %v", err)
	}
	for _, mut := range []struct {
		f    func(*LedgerState)
		want string
	}{
		{func(s *LedgerState) { s.History[1].GDP = math.NaN() }, "state.history[1].gdp must be"},
		{func(s *LedgerState) { s.History[0].ID = "" }, "state.history[0].id must be"},
		{func(s *LedgerState) { s.History[2].ID = s.History[0].ID }, "state.history[2].id must be unique"},
		{func(s *LedgerState) { s.History[0].TV = 2 }, "state.history[0].tv must be"},
		{func(s *LedgerState) { s.Key = "" }, "state.key must be"},
	} {
		st := StateOf("t1", l)
		mut.f(&st)
		if _, err := g.Restore(st); err == nil || !strings.HasPrefix(err.Error(), mut.want) {
			t.Errorf("restore: %v, want %q", err, mut.want)
		}
	}
	r, _ := g.Get("key", "t1")
	r.Reset()
	if st := StateOf("t1", r); st.Spent.Releases != 0 || st.Budget.Epsilon != 3 || st.Remaining.GDP != S {
		t.Errorf("after reset: %+v", st)
	}
	if _, err := r.Charge(Release{GDP: 0.1 * S}); err != nil {
		t.Fatal(err)
	}
	if err := r.ResetTo(0, 1e-5); err == nil || !strings.HasPrefix(err.Error(), "epsilon must be") || r.State().Spent.Releases != 1 {
		t.Errorf("ResetTo(0, …): %v", err)
	}
	if err := r.ResetTo(1, 1e-6); err != nil {
		t.Fatal(err)
	}
	if l2, err := g.Open("t1", 1, 1e-6); err != nil || l2 != r || r.State().Spent.Releases != 0 {
		t.Errorf("after ResetTo(1, 1e-6): open gives %v", err)
	}
}

// TestConcurrentChargesNeverOverspend: 64 goroutines race to charge S/4
// each; exactly 4 succeed.
func TestConcurrentChargesNeverOverspend(t *testing.T) {
	l := mustLedger(t, 1, 1e-5)
	S := l.Budget().GDP
	var wg sync.WaitGroup
	var mu sync.Mutex
	ok := 0
	for i := 0; i < 64; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := l.Charge(Release{GDP: S / 2}); err == nil {
				mu.Lock()
				ok++
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if ok != 4 {
		t.Fatalf("%d charges of S/2 succeeded, want 4", ok)
	}
}

// TestReleaseValidation: bad charges are errors naming the field.
func TestReleaseValidation(t *testing.T) {
	l := mustLedger(t, 1, 1e-5)
	for _, c := range []struct {
		r    Release
		want string
	}{
		{Release{GDP: 0}, "gdp must be"},
		{Release{GDP: math.Inf(1)}, "gdp must be"},
		{Release{GDP: 0.1, TV: -1}, "tv must be"},
		{Release{GDP: 0.1, TV: math.NaN()}, "tv must be"},
		{Release{GDP: 0.1, Epsilon: -1}, "epsilon must be"},
		{Release{GDP: 0.1, Delta: 1.5}, "delta must be"},
	} {
		if _, err := l.Charge(c.r); err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("Charge(%+v): %v", c.r, err)
		}
	}
	if st := l.State(); st.Spent.Releases != 0 {
		t.Fatal("a bad charge was recorded")
	}
}

// TestHistoryStaysRestorable (issue 30 item 3): a ledger holding MaxHistory
// releases refuses one more (Charge and Check, naming ledger) instead of
// growing into a state that can no longer be restored; a state over
// MaxHistory, or one whose merge would pass it, is refused by Restore
// naming state.history and changes nothing. On main the 100,001st charge
// was accepted and the page's stored budget could not be read back.
func TestHistoryStaysRestorable(t *testing.T) {
	h := make([]Release, MaxHistory)
	for i := range h {
		h[i] = Release{ID: fmt.Sprintf("r%d", i), GDP: 1e-3}
	}
	var g Registry
	l, err := g.Restore(LedgerState{Key: "k", Budget: LedgerBudget{Epsilon: 3, Delta: 1e-5}, History: h})
	if err != nil {
		t.Fatal(err)
	}
	var ce *checks.Error
	if _, err := l.Charge(Release{GDP: 1e-3}); !errors.As(err, &ce) || ce.Field != "ledger" || !strings.Contains(err.Error(), "reset") {
		t.Fatalf("charge %d: %v", MaxHistory+1, err)
	}
	if c, err := l.Check(Release{GDP: 1e-3}); err != nil || c.Fits {
		t.Fatalf("check %d: %+v, %v", MaxHistory+1, c.Fits, err)
	}
	var fresh Registry
	if _, err := fresh.Restore(StateOf("k", l)); err != nil {
		t.Fatalf("the full ledger's state does not restore: %v", err)
	}
	over := LedgerState{Key: "k2", Budget: LedgerBudget{Epsilon: 3, Delta: 1e-5}, History: append(h[:MaxHistory:MaxHistory], Release{ID: "x", GDP: 1e-3})}
	if _, err := fresh.Restore(over); !errors.As(err, &ce) || ce.Field != "state.history" {
		t.Errorf("restore of %d releases: %v", MaxHistory+1, err)
	}
	more := LedgerState{Key: "k", Budget: LedgerBudget{Epsilon: 3, Delta: 1e-5}, History: []Release{{ID: "x", GDP: 1e-3}}}
	if _, err := fresh.Restore(more); !errors.As(err, &ce) || ce.Field != "state.history" {
		t.Errorf("a merge past %d releases: %v", MaxHistory, err)
	}
	if l, _ := fresh.Get("key", "k"); l.State().Spent.Releases != MaxHistory {
		t.Errorf("a refused merge changed the ledger: %d releases", l.State().Spent.Releases)
	}
}

// TestFitsRoundsDown (issue 45): a refusal prints what is left rounded down
// (FormatDown): after three releases at ε = 1.5 of (3, 10⁻⁵), 0.66118… may
// still be asked for, printed 0.6611 where %.4g said 0.6612 — more than fits.
func TestFitsRoundsDown(t *testing.T) {
	l, _ := NewLedger(3, 1e-5)
	s, _ := Calibrate(1.5, 1e-5)
	for i := 0; i < 3; i++ {
		if _, err := l.Charge(Release{GDP: s, Epsilon: 1.5, Delta: 1e-5}); err != nil {
			t.Fatal(err)
		}
	}
	rem := StateOf("k", l).Remaining
	if got := fmt.Sprintf("%.4g", rem.Epsilon); got != "0.6612" {
		t.Fatalf("remaining ε = %v (%s): the case this test is for is gone", rem.Epsilon, got)
	}
	err := l.Fits(Release{GDP: s, Epsilon: 1.5, Delta: 1e-5})
	if err == nil || !strings.Contains(err.Error(), "at most ε = 0.6611 at δ = 1e-05") || !strings.Contains(err.Error(), "only gdp "+FormatDown(rem.GDP, 4)+" is left") {
		t.Errorf("refusal %v: want what is left rounded down", err)
	}
	// The ε printed fits: a release calibrated at it is accepted.
	s2, _ := Calibrate(0.6611, 1e-5)
	if err := l.Fits(Release{GDP: s2, Epsilon: 0.6611, Delta: 1e-5}); err != nil {
		t.Errorf("the printed ε does not fit: %v", err)
	}
}
