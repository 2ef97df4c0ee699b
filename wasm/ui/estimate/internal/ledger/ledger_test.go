//go:build js && wasm

package ledger

import (
	"crypto/sha256"
	"encoding/hex"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/dpsample/dpsample/core/privacy"
)

// TestTableKey (issue 30 item 5): the page's key of a table's budget is
// dataset.TableKey: the same rows in another order, with CRLF line ends and a
// trailing blank line, or 1.0 written 1, keep it (keyed by the bytes, each
// started a fresh budget); one changed cell changes it. legacyKey is the
// former key, the SHA-256 of the bytes, from which a stored budget is
// carried over.
func TestTableKey(t *testing.T) {
	txt := "sepal_length,species\n5.1,setosa\n6.0,versicolor ü\n"
	got, err := tableKey(txt)
	if err != nil {
		t.Fatal(err)
	}
	for _, same := range []string{"sepal_length,species\r\n6,versicolor ü\r\n5.1,setosa\r\n\r\n", "5.1,setosa\nsepal_length,species\n6.0,versicolor ü\n"} {
		if k, err := tableKey(same); err != nil || k != got {
			t.Errorf("the same table %q: key %q (%v), want %q", same, k, err, got)
		}
	}
	if other, _ := tableKey(strings.Replace(txt, "5.1", "5.2", 1)); other == got {
		t.Error("a changed cell kept the key")
	}
	// A large text, hashed in pieces (hashPiece, the event loop between
	// them), and a short one: the SHA-256 of the bytes either way.
	for _, s := range []string{txt, strings.Repeat("5.1,setosa ü\n", 3*hashPiece/13+5)} {
		want := sha256.Sum256([]byte(s))
		if got := legacyKey(s); got != hex.EncodeToString(want[:]) {
			t.Errorf("legacyKey of %d bytes %q, want the bytes' SHA-256 %x", len(s), got, want)
		}
	}
}

// TestStoredMerge: two tabs' stored states merge as the union of their
// releases (recomputed spent), never across budgets; covers tells a reset
// (a state lacking a release of the one it replaced) from a merge.
func TestStoredMerge(t *testing.T) {
	s, _ := privacy.Calibrate(1, 1e-5)
	var ga, gb privacy.Registry
	a, _ := ga.Open("k", 3, 1e-5)
	b, _ := gb.Open("k", 3, 1e-5)
	a.Charge(privacy.Release{GDP: s})
	b.Charge(privacy.Release{GDP: s})
	sa, sb := privacy.StateOf("k", a), privacy.StateOf("k", b)
	m, ok := merged(sa, sb)
	if !ok || m.Spent.Releases != 2 || !covers(m, sa) || !covers(m, sb) || covers(sa, sb) {
		t.Fatalf("merge of two tabs' releases: %+v, %v", m.Spent, ok)
	}
	var gc privacy.Registry
	c, _ := gc.Open("k", 2, 1e-5)
	if _, ok := merged(sa, privacy.StateOf("k", c)); ok {
		t.Error("states of two budgets merged")
	}
}

// TestLedgerWording: the meter's line and the result's statement give the
// numbers of all releases on the table, and say when nothing is left.
func TestLedgerWording(t *testing.T) {
	l, _ := privacy.NewLedger(3, 1e-5)
	s, _ := privacy.Calibrate(1.5, 1e-5)
	for i := 0; i < 3; i++ {
		if _, err := l.Charge(privacy.Release{GDP: s, Epsilon: 1.5, Delta: 1e-5}); err != nil {
			t.Fatal(err)
		}
	}
	st := privacy.StateOf("k", l)
	words := privacy.AttackerSentenceFor(allReleased, st.Spent.GDP, st.Spent.TV)
	if !strings.Contains(words, "at most ") || !strings.Contains(words, " times in 100") {
		t.Errorf("the attacker's odds: %q", words)
	}
	if !strings.Contains(words, "so far") {
		t.Errorf("the meter's sentence does not say it covers what was spent so far: %q", words)
	}
	if got := ledgerSummary(&st); got != "This table: 3 releases, spent ε = 2.77 of 3 (δ = 1e-05). "+words+" Once the whole budget (ε = 3) is spent: at most 18 times in 100. Room left: one more run at ε ≤ 0.661 (δ = 1e-05), or several smaller ones."+
		" (Spent is less than the ε the runs asked for, 4.5: privacy losses add up more gently than their ε's (see “What the table's budget means”), and a sampler keeps part of δ for its sampling error, so its guarantee at this table's δ is a little stronger than asked.)" {
		t.Errorf("summary %q", got)
	}
	// The refusal: plain words first (spent, asked, the largest ε that fits), the GDP detail after.
	big, _ := privacy.Calibrate(2, 1e-5)
	c, err := l.Check(privacy.Release{GDP: big, Epsilon: 2, Delta: 1e-5})
	if err != nil || c.Fits {
		t.Fatalf("check %+v, %v", c, err)
	}
	if got := (Refusal{&c}).plain(); got != "Not run: this table's privacy budget cannot pay for it. So far 3 releases spent ε = 2.77 of this table's ε = 3 (δ = 1e-05). "+
		"This run asks for ε = 2. The largest ε that still fits is 0.661 (rounded down): lower ε to that or less (the cost does not depend on the number of samples), "+
		"or reset the table's budget (see below)." {
		t.Errorf("refusal %q", got)
	}
	stmt := Statement(&st)
	for _, want := range []string{"All releases on this table so far (3 releases, this one included) together spent ε = 2.77 of the table's total ε = 3 at δ = 1e-05",
		"stays within (ε = 3, δ = 1e-05)-differential privacy", "one more run at ε ≤ 0.661"} {
		if !strings.Contains(stmt, want) {
			t.Errorf("statement %q lacks %q", stmt, want)
		}
	}
	if Statement(nil) != "" {
		t.Error("a statement without a ledger")
	}
	if e := Export(&st); e.Key != "" || st.Key != "k" {
		t.Error("the export keeps the fingerprint, or the state lost it")
	}
	full, _ := privacy.NewLedger(1, 1e-5)
	sf, _ := privacy.Calibrate(1, 0.5e-5)
	full.Charge(privacy.Release{GDP: sf})
	fs := privacy.StateOf("k", full)
	if got := ledgerSummary(&fs); !strings.HasSuffix(got, "Nothing is left: further runs on this table are refused.") {
		t.Errorf("full: %q", got)
	}
}

// TestWithLegacy (issue 41 item 2): a budget stored under a table's legacy
// key is merged into the one stored under its key by release id (main read
// it only when nothing was stored under the key). With two budgets the one
// with releases stands and the other's releases are counted against it; an
// unreadable legacy entry is an error (the table is blocked), an unreadable
// current one is left for sync to refuse.
func TestWithLegacy(t *testing.T) {
	state := func(key string, eps float64, ids ...string) string {
		h := make([]string, len(ids))
		for i, id := range ids {
			h[i] = `{"id":"` + id + `","gdp":0.1,"tv":0}`
		}
		return `{"key":"` + key + `","budget":{"epsilon":` + strconv.FormatFloat(eps, 'g', -1, 64) + `,"delta":1e-5,"gdp":0.7,"tv":1e-7},"history":[` + strings.Join(h, ",") + `]}`
	}
	read := func(s string) (string, string) {
		_, st, err := parseStored("k", s)
		if err != nil {
			t.Fatalf("%s: %v", s, err)
		}
		var ids []string
		for _, r := range st.History {
			ids = append(ids, r.ID)
		}
		return strconv.FormatFloat(st.Budget.Epsilon, 'g', -1, 64), strings.Join(ids, ",")
	}
	for _, c := range []struct {
		name, cur, old, eps, ids string
	}{
		{"nothing under the key", "", state("L", 3, "a", "b"), "3", "a,b"},
		{"both, one release in common", state("k", 3, "a", "c"), state("L", 3, "a", "b"), "3", "a,c,b"},
		{"two budgets, both with releases", state("k", 2, "c"), state("L", 3, "a"), "2", "c,a"},
		{"two budgets, the key's without releases", state("k", 2), state("L", 3, "a"), "3", "a"},
		{"two budgets, the legacy's without releases", state("k", 2, "c"), state("L", 3), "2", "c"},
	} {
		got, err := withLegacy("k", c.cur, "L", c.old)
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if eps, ids := read(got); eps != c.eps || ids != c.ids {
			t.Errorf("%s: budget ε = %s, releases %s; want ε = %s, %s", c.name, eps, ids, c.eps, c.ids)
		}
	}
	if _, err := withLegacy("k", state("k", 3, "a"), "L", "{not json"); err == nil || !strings.Contains(err.Error(), "former key") {
		t.Errorf("an unreadable legacy entry: %v", err)
	}
	if got, err := withLegacy("k", "{not json", "L", state("L", 3, "a")); err != nil || got != "{not json" {
		t.Errorf("an unreadable current entry: %q, %v", got, err)
	}
}

// TestRoomLeftOneRule (issue 45 item 6): the meter's line, a result's
// statement and a refusal print the same ε still to spend, rounded down —
// at a remaining ε whose rounding to the nearest goes up (the meter said
// "ε ≤ 2.37" where the refusal said "about 2.36").
func TestRoomLeftOneRule(t *testing.T) {
	for e := 0.30; e < 2.9; e += 0.01 {
		l, _ := privacy.NewLedger(3, 1e-5)
		s, _ := privacy.Calibrate(e, 1e-5)
		if _, err := l.Charge(privacy.Release{GDP: s, Epsilon: e, Delta: 1e-5}); err != nil {
			t.Fatal(err)
		}
		st := privacy.StateOf("k", l)
		down, near := privacy.FormatDown(st.Remaining.Epsilon, 3), strconv.FormatFloat(st.Remaining.Epsilon, 'g', 3, 64)
		if down == near {
			continue
		}
		big, _ := privacy.Calibrate(2.9, 1e-5)
		c, err := l.Check(privacy.Release{GDP: big, Epsilon: 2.9, Delta: 1e-5})
		if err != nil || c.Fits {
			t.Fatalf("check %+v, %v", c, err)
		}
		for name, msg := range map[string]string{"meter": ledgerSummary(&st), "statement": Statement(&st), "refusal": (Refusal{&c}).plain()} {
			want := "ε ≤ " + down
			if name == "refusal" {
				want = "The largest ε that still fits is " + down + " (rounded down)"
			}
			if !strings.Contains(msg, want) || strings.Contains(msg, near) {
				t.Errorf("after ε = %.2f (left %v): the %s says %q; want %q, not %s", e, st.Remaining.Epsilon, name, msg, want, near)
			}
		}
		return
	}
	t.Fatal("no remaining ε that rounds up to the nearest: the case this test is for is gone")
}

// TestLedgerPlotNeverRises (issue 45 item 6): the chart's curves, the
// budget's and what was spent (with a sampler's total variation), never rise
// with ε, and the budget's passes through its (ε, δ).
func TestLedgerPlotNeverRises(t *testing.T) {
	l, _ := privacy.NewLedger(3, 1e-5)
	s, _ := privacy.Calibrate(1.5, 1e-5/2)
	if _, err := l.Charge(privacy.Release{GDP: s, TV: l.Budget().TV / 4, Epsilon: 1.5, Delta: 1e-5}); err != nil {
		t.Fatal(err)
	}
	st := privacy.StateOf("k", l)
	if b := st.Budget; privacy.CurveDelta(b.GDP, b.TV, 1.6*b.Epsilon) <= privacy.CurveDelta(b.GDP, b.TV, b.Epsilon) {
		t.Fatal("the budget's CurveDelta does not rise within the chart: the case this test is for is gone")
	}
	p := ledgerPlot(st)
	if len(p.Series) != 2 {
		t.Fatalf("%d series, want the budget and what was spent", len(p.Series))
	}
	for _, sr := range p.Series {
		for i := 1; i < len(sr.Y); i++ {
			if sr.Y[i] > sr.Y[i-1]*(1+1e-12) {
				t.Errorf("%s rises at ε = %.3g: %g after %g", sr.Name, sr.X[i], sr.Y[i], sr.Y[i-1])
				break
			}
		}
	}
	b := p.Series[0]
	for i, x := range b.X {
		if math.Abs(x-3) < 1e-9 && math.Abs(b.Y[i]-1e-5) > 1e-5*1e-9 {
			t.Errorf("the budget's curve at ε = 3: δ = %g, want 1e-05", b.Y[i])
		}
	}
}
