package privacy

import (
	"encoding/json"
	"errors"
	"math"
	"math/big"
	"strings"
	"testing"

	"github.com/dpsample/dpsample/core/checks"
)

// FuzzLedgerRestore (issue 41 item 7): a stored ledger state — what the page
// keeps in localStorage and gives back to ledger.restore after a reload —
// is untrusted text (edited by hand, written by another version). Here it
// is decoded with encoding/json (the JS API reads the same fields from
// JSON.parse's object, wasm/jsapi's readState, which runs only under
// GOOS=js), one more release with fuzzed gdp and tv is appended (NaN and
// ±Inf, which JSON cannot write but a JS object can hold), and the state is
// restored into a fresh registry and into one whose ledger under the same
// key already holds a release.
//
// Properties. A refused restore names its field (a *checks.Error whose
// Field starts with "state.") and changes nothing. A restore that succeeds
// never shows more budget left than the stored history allows: with the
// union U of the ledger's releases and the stored ones (by id),
//
//   - the budget is NewLedgerBudget(ε, δ) (the stored gdp and tv of the
//     budget are ignored), U's releases are all there, once;
//   - spent gdp = √(Σ_U sᵢ²) (in 200-bit arithmetic: an sᵢ may be 10²⁰⁰),
//     spent tv = Σ_U TVᵢ (10⁻¹² relative);
//   - remaining gdp² ≤ max(0, S² − Σ sᵢ²) and remaining tv ≤ max(0,
//     TV_tot − Σ TVᵢ) (up to 10⁻¹² of the budget), remaining ε ≤ the
//     budget's ε, and a release of √(remaining² + 10⁻⁹·S²), or of TV
//     remaining + 10⁻⁹·TV_tot (the next float when that rounds to
//     remaining), is refused naming "ledger";
//   - spent ε and δ are numbers ≥ 0 (not NaN); over budget by more than
//     10⁻⁹ it says so, with nothing left; well inside the budget, spent ε
//     at the budget's δ is at most its ε;
//   - restoring the same state again changes nothing.
func FuzzLedgerRestore(f *testing.F) {
	budget := func(eps, delta float64) LedgerBudget { b, _ := NewLedgerBudget(eps, delta); return b }
	b3 := budget(3, 1e-5)
	S := b3.GDP
	seed := func(st LedgerState, gdp, tv float64) {
		b, err := json.Marshal(st)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b, gdp, tv)
	}
	// From TestRegistry, TestHistoryStaysRestorable and the page's states.
	two := []Release{{ID: "r1", Label: "estimate", GDP: 0.5 * S, Epsilon: 1, Delta: 1e-5}, {ID: "r2", GDP: 0.5 * S, TV: 1e-8}}
	seed(LedgerState{Key: "t1", Budget: b3, History: two}, 0, 0)
	seed(LedgerState{Key: "t1", Budget: b3, History: append(two[:1:1], Release{ID: "other-device", GDP: 0.1 * S})}, 0, 0)
	seed(LedgerState{Key: "t1", Budget: b3, History: two}, math.NaN(), 0)
	seed(LedgerState{Key: "t1", Budget: b3, History: two}, 0.1, math.Inf(1))
	seed(LedgerState{Key: "t1", Budget: b3, History: two}, 0.9*S, 0) // over budget after a merge
	seed(LedgerState{Key: "t1", Budget: b3, History: []Release{{ID: "", GDP: 0.1}}}, 0, 0)
	seed(LedgerState{Key: "t1", Budget: b3, History: []Release{{ID: "a", GDP: 0.1}, {ID: "a", GDP: 0.1}}}, 0, 0)
	seed(LedgerState{Key: "t1", Budget: b3, History: []Release{{ID: "a", GDP: 0.1, TV: 2}}}, 0, 0)
	seed(LedgerState{Key: "", Budget: b3}, 0, 0)
	seed(LedgerState{Key: "t1", Budget: LedgerBudget{Epsilon: 1, Delta: 1e-5}, History: two}, 0, 0)
	seed(LedgerState{Key: "k", Budget: LedgerBudget{Epsilon: 3, Delta: 1e-5, GDP: 1e6, TV: 1}, History: []Release{{ID: "x", GDP: 1e-3}}}, 0, 0)
	seed(LedgerState{Key: "k", Budget: budget(100, 1e-6), History: []Release{{ID: "x", GDP: 2, TV: 4.5e-51}}}, 0, 0)
	seed(LedgerState{Key: "k", Budget: budget(3, 1e-20)}, 0.05, 1e-30)
	for _, s := range []string{
		`{"key":"k","budget":{"epsilon":3,"delta":1e-5},"history":[{"id":"a","gdp":0.3,"tv":1e-9}]}`,
		`{"key":"k","budget":{"epsilon":3,"delta":1e-5},"history":null}`,
		`{"key":"k","budget":{"epsilon":-3,"delta":1e-5}}`,
		`{"key":"k","budget":{"epsilon":3,"delta":2}}`,
		`{"key":"k","budget":{"epsilon":3,"delta":1e-5},"history":[{"id":"a","gdp":-0.3}]}`,
		`{"key":"k","budget":{"epsilon":3,"delta":1e-5},"history":[{"id":"a","gdp":1e300,"epsilon":-1}]}`,
	} {
		f.Add([]byte(s), 0.0, 0.0)
	}
	f.Fuzz(func(t *testing.T, stored []byte, gdp, tv float64) {
		var st LedgerState
		if json.Unmarshal(stored, &st) != nil {
			return // not JSON of a state: JSON.parse or readState refuses it
		}
		if gdp != 0 || tv != 0 {
			st.History = append(st.History, Release{ID: "fuzz-extra", GDP: gdp, TV: tv})
		}
		var fresh, held Registry
		var prior []Release
		if l, err := held.Open(st.Key, st.Budget.Epsilon, st.Budget.Delta); err == nil {
			if _, err := l.Charge(Release{ID: "prior", GDP: l.Budget().GDP / 3}); err != nil {
				t.Fatalf("a third of S refused by an empty ledger: %v", err)
			}
			prior = l.State().History
		}
		checkRestore(t, &fresh, st, nil)
		checkRestore(t, &held, st, prior)
	})
}

// checkRestore restores st into g (whose ledger st.Key holds prior, or
// none) and checks FuzzLedgerRestore's properties.
func checkRestore(t *testing.T, g *Registry, st LedgerState, prior []Release) {
	t.Helper()
	var before *LedgerState
	if l, err := g.Get("key", st.Key); err == nil {
		s := l.State()
		before = &s
	}
	l, err := g.Restore(st)
	if err != nil {
		var ce *checks.Error
		if !errors.As(err, &ce) || !strings.HasPrefix(ce.Field, "state.") || ce.Field == "state." {
			t.Fatalf("Restore: error %T %q does not name a field of the state", err, err)
		}
		if before != nil {
			if l, _ := g.Get("key", st.Key); l.State().Spent != before.Spent {
				t.Fatalf("a refused restore changed the ledger: %+v → %+v", before.Spent, l.State().Spent)
			}
		}
		return
	}
	got := l.State()
	b, err := NewLedgerBudget(st.Budget.Epsilon, st.Budget.Delta)
	if err != nil || got.Budget != b {
		t.Fatalf("budget %+v, want NewLedgerBudget's %+v (%v)", got.Budget, b, err)
	}
	// The union by id, the ledger's first.
	union := append([]Release(nil), prior...)
	have := map[string]bool{}
	for _, r := range prior {
		have[r.ID] = true
	}
	for _, r := range st.History {
		if !have[r.ID] {
			union, have[r.ID] = append(union, r), true
		}
	}
	if len(got.History) != len(union) || got.Spent.Releases != len(union) {
		t.Fatalf("%d releases (history %d) after restoring %d onto %d; the union has %d",
			got.Spent.Releases, len(got.History), len(st.History), len(prior), len(union))
	}
	for i, r := range got.History {
		if r != union[i] {
			t.Fatalf("release %d is %+v, want %+v", i, r, union[i])
		}
	}
	// G = √(Σ s_i²) in 200-bit arithmetic (an s_i may be 10²⁰⁰), then float64.
	sq := new(big.Float).SetPrec(200)
	var tv float64
	for _, r := range union {
		x := new(big.Float).SetPrec(200).SetFloat64(r.GDP)
		sq.Add(sq, x.Mul(x, x))
		tv += r.TV
	}
	G, _ := sq.Sqrt(sq).Float64() // +Inf beyond MaxFloat64
	S, S2 := b.GDP, b.GDP*b.GDP
	near := func(a, want float64) bool { return a == want || math.Abs(a-want) <= 1e-12*want }
	if !near(got.Spent.GDP, G) || !near(got.Spent.TV, tv) {
		t.Fatalf("spent gdp %v, tv %v; the history composes to gdp %v, tv %v", got.Spent.GDP, got.Spent.TV, G, tv)
	}
	if sp := got.Spent; math.IsNaN(sp.Epsilon) || math.IsNaN(sp.Delta) || sp.Epsilon < 0 || sp.Delta < 0 {
		t.Fatalf("spent %+v", sp)
	}
	rem := got.Remaining
	if !(rem.GDP <= b.GDP) || !(rem.GDP*rem.GDP <= math.Max(0, (S-G)*(S+G))+1e-12*S2) ||
		!(rem.TV <= math.Max(0, b.TV-tv)+1e-12*b.TV) ||
		!(rem.Epsilon >= 0 && rem.Epsilon <= b.Epsilon*(1+1e-9)) {
		t.Fatalf("remaining %+v with budget %+v and spent gdp %v, tv %v: more than the history allows",
			rem, b, G, tv)
	}
	var ce *checks.Error
	if err := l.Fits(Release{GDP: math.Sqrt(rem.GDP*rem.GDP + 1e-9*S2)}); !errors.As(err, &ce) || ce.Field != "ledger" {
		t.Fatalf("a release of gdp %v above the remaining %v: %v", math.Sqrt(rem.GDP*rem.GDP+1e-9*S2), rem.GDP, err)
	}
	above := rem.TV + 1e-9*b.TV
	if above <= rem.TV { // TV_tot = 0 (ε = 7000: (δ/2)/(1 + e^ε) underflows) or subnormal
		above = math.Nextafter(rem.TV, 1)
	}
	if err := l.Fits(Release{GDP: 1e-9 * b.GDP, TV: above}); !errors.As(err, &ce) || ce.Field != "ledger" {
		t.Fatalf("a release of tv %v above the remaining %v: %v", above, rem.TV, err)
	}
	switch {
	case G > S*(1+1e-9) || tv > b.TV*(1+1e-9):
		if !got.Spent.OverBudget || rem.GDP != 0 && rem.TV != 0 {
			t.Fatalf("spent gdp %v of S = %v, tv %v of %v, but over budget %v, remaining %+v",
				G, S, tv, b.TV, got.Spent.OverBudget, rem)
		}
	case G < S*(1-1e-9) && tv < b.TV*(1-1e-9):
		if got.Spent.OverBudget || len(union) > 0 && !(got.Spent.Epsilon <= b.Epsilon*(1+1e-9) && got.Spent.Delta == b.Delta) {
			t.Fatalf("within the budget %+v: spent %+v", b, got.Spent)
		}
	}
	for _, r := range st.History {
		if !have[r.ID] {
			t.Fatalf("stored release %q lost", r.ID)
		}
	}
	if l2, err := g.Restore(st); err != nil || l2 != l || l2.State().Spent != got.Spent {
		t.Fatalf("restoring the same state again: %v, spent %+v → %+v", err, got.Spent, l2.State().Spent)
	}
}

// TestRestoreHugeRelease (issue 41): FuzzLedgerRestore's first find
// (testdata/fuzz/FuzzLedgerRestore/1fbdd8e896a61e4a), spelled out. A
// stored release of gdp 10²⁰⁰ — finite and > 0, so Restore accepts it —
// made Σ sᵢ² overflow and the compensated sum NaN: the ledger said it was
// not over budget and had NaN left. Now spent gdp is 10²⁰⁰, the ledger is
// over budget with nothing left, and two releases of 10¹⁵⁴ (whose squares
// overflow) compose to √2·10¹⁵⁴.
func TestRestoreHugeRelease(t *testing.T) {
	for _, tc := range []struct {
		h    []Release
		want float64
	}{
		{[]Release{{ID: "0", GDP: 1e200}}, 1e200},
		{[]Release{{ID: "a", GDP: 1e154}, {ID: "b", GDP: 1e154}}, math.Sqrt2 * 1e154},
		{[]Release{{ID: "a", GDP: math.MaxFloat64}, {ID: "b", GDP: math.MaxFloat64}}, math.Inf(1)},
	} {
		var g Registry
		l, err := g.Restore(LedgerState{Key: "0", Budget: LedgerBudget{Epsilon: 1, Delta: 0.1}, History: tc.h})
		if err != nil {
			t.Fatal(err)
		}
		st := l.State()
		if got := st.Spent.GDP; !(got == tc.want || math.Abs(got-tc.want) <= 1e-15*tc.want) ||
			!st.Spent.OverBudget || st.Remaining.GDP != 0 || st.Remaining.Epsilon != 0 {
			t.Errorf("%d releases of %g: spent %+v, remaining %+v; want gdp %g, over budget, nothing left",
				len(tc.h), tc.h[0].GDP, st.Spent, st.Remaining, tc.want)
		}
	}
}

// TestSpentOverTotalVariationOne (issue 41): FuzzLedgerRestore's second find
// (testdata/fuzz/FuzzLedgerRestore/5f07f68370010914). Two stored releases of
// TV 1 each — each valid, together Σ TV = 2, reachable by merging devices'
// histories — made ComposedEpsilon's ε* = g·(Φ⁻¹(1 − tv) − g/2) NaN, and the
// ledger's spent ε and δ NaN. Now no ε works (ok false) and the curve's
// smallest δ, at ε = 0, is reported: δ_g(0) + 2·tv.
func TestSpentOverTotalVariationOne(t *testing.T) {
	var g Registry
	l, err := g.Restore(LedgerState{Key: "0", Budget: LedgerBudget{Epsilon: 1, Delta: 0.1},
		History: []Release{{ID: "0", GDP: 1, TV: 1}, {ID: "fuzz-extra", GDP: 255, TV: 1}}})
	if err != nil {
		t.Fatal(err)
	}
	sp := l.State().Spent
	if want := CurveDelta(sp.GDP, 2, 0); sp.Epsilon != 0 || sp.Delta != want || !sp.OverBudget {
		t.Errorf("spent %+v; want ε 0 at the curve's smallest δ %v, over budget", sp, want)
	}
	for _, tv := range []float64{1, 1.5, 2} {
		if e, d, ok := ComposedEpsilon(0.5, tv, 1e-5); ok || e != 0 || !(d >= 2*tv) {
			t.Errorf("ComposedEpsilon(0.5, %g, 1e-5) = %v, %v, %v; want 0, ≥ 2·tv, false", tv, e, d, ok)
		}
	}
}
