//go:build js && wasm

package categories

import (
	"reflect"
	"strings"
	"testing"

	"github.com/dpsample/dpsample/core/privacy"
)

func TestParseList(t *testing.T) {
	if l, typed, err := ParseList("region", "  "); l != nil || typed || err != nil {
		t.Errorf("blank: %v %v %v, want untyped (found privately)", l, typed, err)
	}
	if l, typed, err := ParseList("region", " north, south ,,east "); err != nil || !typed || strings.Join(l, "|") != "north|south|east" {
		t.Errorf("list: %q %v %v", l, typed, err)
	}
	_, typed, err := ParseList("region", " , ")
	if err == nil || !typed || !strings.HasPrefix(err.Error(), "categories.region must be a non-empty list of labels") {
		t.Errorf("empty list: typed %v, error %v", typed, err)
	}
}

// TestLists: a typed list wins over a found one; a found list counts only
// while the table's ledger holds its release (else the column is blank, to
// be found on this table); a found empty list is used (said) but codes
// nothing; the first typed list in error is returned.
func TestLists(t *testing.T) {
	st := &privacy.LedgerState{Key: "k1", History: []privacy.Release{{ID: "r1", Epsilon: 1, Delta: 1e-5}}}
	b := NewBook()
	b.Found["region"] = Found{Labels: []string{"north", "south"}, Epsilon: 1, Delta: 1e-5, Release: "r1", Table: "k1"}
	b.Found["id"] = Found{Labels: nil, Epsilon: 1, Delta: 1e-5, Release: "r1", Table: "k1"}
	b.Found["plan"] = Found{Labels: []string{"a"}, Release: "r0", Table: "k1"} // a release this ledger does not hold
	b.Typed["sex"] = "f, m, x"

	cats, used, blank, err := b.Lists([]string{"region", "id", "plan", "sex", "site"}, st)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][]string{"region": {"north", "south"}, "sex": {"f", "m", "x"}}
	if !reflect.DeepEqual(cats, want) {
		t.Errorf("categories %v, want %v", cats, want)
	}
	if strings.Join(blank, ",") != "plan,site" {
		t.Errorf("blank %q, want plan (its release is not held) and site", blank)
	}
	if len(used) != 3 || used[1].Col != "id" || len(used[1].Labels) != 0 || !used[2].Typed {
		t.Errorf("used %+v", used)
	}
	if got := OneHotDims(cats); got != 1+2 {
		t.Errorf("OneHotDims = %d, want 3 (two blocks of 2 and 3 labels count as two columns)", got)
	}
	if _, _, blank, _ := b.Lists([]string{"region"}, &privacy.LedgerState{Key: "k2", History: st.History}); len(blank) != 1 {
		t.Errorf("a list found on another table counted: blank %q", blank)
	}

	b.Typed["region"] = "east" // typed wins
	cats, _, _, _ = b.Lists([]string{"region"}, st)
	if strings.Join(cats["region"], ",") != "east" {
		t.Errorf("typed list did not win: %v", cats)
	}
	b.Typed["region"] = ","
	if _, _, _, err := b.Lists([]string{"region", "sex"}, st); err == nil || !strings.HasPrefix(err.Error(), "categories.region must") {
		t.Errorf("empty typed list: %v", err)
	}

	s := Statement(used, st)
	for _, w := range []string{"categories typed (public, no budget): sex (f, m, x)", "found privately by a separate (ε = 1, δ = 1e-05) release of the table's ranges and categories",
		"region (north, south)", "Left out: id — no category has enough rows"} {
		if !strings.Contains(s, w) {
			t.Errorf("statement lacks %q: %q", w, s)
		}
	}
	if s := Statement(used, &privacy.LedgerState{Key: "k2"}); strings.Contains(s, "found privately") {
		t.Errorf("statement claims a release the ledger does not hold: %q", s)
	}
	ex := Export(used, st)
	if ex["sex"].(map[string]any)["source"] != "typed" || ex["region"].(map[string]any)["release"] != "r1" {
		t.Errorf("export %v", ex)
	}
}

// TestChanged: a field drawn before the table's ledger was known (no found
// list shown) asks for a redraw once the ledger holds the list's release,
// and not again after it was drawn with it.
func TestChanged(t *testing.T) {
	st := &privacy.LedgerState{Key: "k1", History: []privacy.Release{{ID: "r1", Epsilon: 1, Delta: 1e-5}}}
	b := NewBook()
	b.Found["region"] = Found{Labels: []string{"north"}, Epsilon: 1, Release: "r1", Table: "k1"}
	b.shown["region"] = false // drawn while the ledger was unknown
	if b.Changed(nil) {
		t.Error("Changed with the ledger still unknown")
	}
	if !b.Changed(st) {
		t.Error("not Changed once the ledger holds the list's release")
	}
	b.shown["region"] = true // drawn again, with the list
	if b.Changed(st) || !b.Changed(&privacy.LedgerState{Key: "k1"}) {
		t.Error("Changed: wrong after the redraw, or blind to a ledger that no longer holds the release (a reset)")
	}
}

// TestReferences (issue 53 item 2): the reference of each feature is the
// first label of its list (a found list's most frequent released label); a
// reference-coded block has one column fewer and still counts as one column
// of the clip (BlockDims); the statement and the export name it and say how
// other labels code.
func TestReferences(t *testing.T) {
	st := &privacy.LedgerState{Key: "k1", History: []privacy.Release{{ID: "r1", Epsilon: 1, Delta: 1e-5}}}
	used := []Used{
		{Col: "island", Labels: []string{"Biscoe", "Dream", "Torgersen"}, Found: Found{Labels: []string{"Biscoe", "Dream", "Torgersen"}, Release: "r1", Table: "k1"}},
		{Col: "sex", Labels: []string{"f", "m"}, Typed: true},
		{Col: "one", Labels: []string{"x"}, Typed: true},
	}
	refs := SetReferences(used)
	if !reflect.DeepEqual(refs, map[string]string{"island": "Biscoe", "sex": "f"}) || used[2].Reference != "" {
		t.Fatalf("references %v, used %+v", refs, used)
	}
	cats := map[string][]string{"island": used[0].Labels, "sex": used[1].Labels, "one": used[2].Labels}
	// Columns of a row: island's 2, sex's 1, one's 1, then 2 numbers and the
	// intercept = 7; blocks 3, numbers 2, intercept 1 = 6 columns of the clip.
	if got := 7 - BlockDims(cats, refs); got != 6 {
		t.Errorf("clip columns %d, want 6 (BlockDims %d)", got, BlockDims(cats, refs))
	}
	if OneHotDims(cats) != BlockDims(cats, nil) || OneHotDims(cats) != 3 {
		t.Errorf("OneHotDims %d", OneHotDims(cats))
	}
	s := Statement(used, st)
	for _, w := range []string{"island (Biscoe = reference, Dream, Torgersen)", "sex (f = reference, m)", "codes like the reference (all zeros)"} {
		if !strings.Contains(s, w) {
			t.Errorf("statement lacks %q: %q", w, s)
		}
	}
	if ex := Export(used, st); ex["island"].(map[string]any)["reference"] != "Biscoe" || ex["one"].(map[string]any)["reference"] != nil {
		t.Errorf("export %v", ex)
	}
}
