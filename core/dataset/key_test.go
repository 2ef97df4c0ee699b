package dataset

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// TestTableKey (issue 30 item 5): the budget's key does not change when
// the same table is saved again in another row order, with CRLF line ends,
// trailing blank lines, another delimiter, quotes, a byte-order mark, or
// numbers spelled otherwise (1.0 / 1 / 1e0, a decimal comma); it changes for
// a changed cell (a number or a label), an added or a dropped duplicate row,
// a renamed column and swapped columns. Keyed by the bytes (main), every
// "same" variant started a fresh budget.
func TestTableKey(t *testing.T) {
	base := "x,y,label\n1.0,2.5,yes\n3,-0.25,no\n1.0,2.5,yes\n,4,no\n"
	key := func(s string) string {
		t.Helper()
		k, err := TableKey(s)
		if err != nil {
			t.Fatalf("TableKey(%q): %v", s, err)
		}
		if len(k) != 64 {
			t.Fatalf("TableKey(%q) = %q: not a hex SHA-256", s, k)
		}
		return k
	}
	want := key(base)
	for name, s := range map[string]string{
		"row order":           "x,y,label\n,4,no\n3,-0.25,no\n1.0,2.5,yes\n1.0,2.5,yes\n",
		"header last":         "1.0,2.5,yes\n3,-0.25,no\n1.0,2.5,yes\n,4,no\nx,y,label\n",
		"CRLF":                strings.ReplaceAll(base, "\n", "\r\n"),
		"no final newline":    strings.TrimSuffix(base, "\n"),
		"trailing blanks":     base + "\n\n\r\n",
		"leading blank":       "\n" + base,
		"number spelling":     "x,y,label\n1,2.50,yes\n3.000,-.25,no\n1e0,25e-1,yes\n,4.0,no\n",
		"missing marker":      "x,y,label\n1.0,2.5,yes\n3,-0.25,no\n1.0,2.5,yes\nNA,4,no\n",
		"quotes and spaces":   "\"x\", y ,\"label\"\n1.0, 2.5,\"yes\"\n3,-0.25,no\n1.0,2.5,yes\n,4,no\n",
		"byte-order mark":     "\ufeff" + base,
		"semicolon + decimal": "x;y;label\n1,0;2,5;yes\n3;-0,25;no\n1;2,5;yes\n;4;no\n",
		"tab":                 strings.ReplaceAll(base, ",", "\t"),
	} {
		if got := key(s); got != want {
			t.Errorf("%s: key changed for the same table\n%q", name, s)
		}
	}
	for name, s := range map[string]string{
		"a changed number":      strings.Replace(base, "3,", "3.1,", 1),
		"a changed label":       strings.Replace(base, "3,-0.25,no", "3,-0.25,yes", 1),
		"label case":            strings.Replace(base, "3,-0.25,no", "3,-0.25,No", 1),
		"a filled missing cell": strings.Replace(base, ",4,no", "0,4,no", 1),
		"an added row":          base + "5,5,no\n",
		"a dropped duplicate":   "x,y,label\n1.0,2.5,yes\n3,-0.25,no\n,4,no\n",
		"a renamed column":      strings.Replace(base, "x,y", "x1,y", 1),
		"swapped columns":       "y,x,label\n2.5,1.0,yes\n-0.25,3,no\n2.5,1.0,yes\n4,,no\n",
	} {
		if got := key(s); got == want {
			t.Errorf("%s: the same key\n%q", name, s)
		}
	}
	if _, err := TableKey("\"unterminated\n1,2\n"); err == nil || !strings.HasPrefix(err.Error(), "text must be valid CSV") {
		t.Errorf("invalid CSV: %v", err)
	}
	// A quoted cell holding the delimiter or a newline stays one cell.
	if key("a,b\n\"1,2\",3\n") == key("a,b\n1,2,3\n") || key("a\n\"p\nq\"\n") == key("a\np\nq\n") {
		t.Error("quoted cells merged with their neighbours")
	}
}

// TestTableKeyAllMissing (issue 41 item 3): a trailing delimiter on every
// line (a column missing in every record, header included) and a trailing
// row of empty cells leave Parse's x and y as they were, and so must leave
// the key. Before CanonicalForm left such rows and columns out, each of the
// three variants below had a key of its own (a fresh budget).
func TestTableKeyAllMissing(t *testing.T) {
	base := "x,y,label\n1.0,2.5,yes\n3,-0.25,no\n1.0,2.5,yes\n0,4,no\n"
	trailing := strings.ReplaceAll(base, "\n", ",\n") // "x,y,label,\n1.0,2.5,yes,\n…"
	for name, s := range map[string]string{
		"a trailing comma on every line":         trailing,
		"a trailing row of empty cells":          base + ",,\n",
		"both (a row of four empty cells)":       trailing + ",,,\n",
		"an empty middle column":                 "x,,y,label\n1.0,,2.5,yes\n3,NA,-0.25,no\n1.0,,2.5,yes\n0,?,4,no\n",
		"empty rows between, of missing markers": "x,y,label\n1.0,2.5,yes\nNA,,?\n3,-0.25,no\n1.0,2.5,yes\n,,\n0,4,no\n",
	} {
		// The premise: Parse gives the same x and y.
		opt := Options{Target: "label", Positive: "yes", Features: []string{"x", "y"}, Drop: "missing"}
		want, err := Parse(base, opt)
		if err != nil {
			t.Fatal(err)
		}
		got, err := Parse(s, opt)
		if err != nil {
			t.Fatalf("%s: Parse: %v", name, err)
		}
		if !reflect.DeepEqual(got.X, want.X) || !reflect.DeepEqual(got.Y, want.Y) {
			t.Fatalf("%s: Parse gives x %v y %v, want x %v y %v", name, got.X, got.Y, want.X, want.Y)
		}
		kb, _ := TableKey(base)
		if ks, err := TableKey(s); err != nil || ks != kb {
			cb, _ := CanonicalForm(base)
			cs, _ := CanonicalForm(s)
			t.Errorf("%s: another key (%v)\ncanonical %q\nwant      %q", name, err, cs, cb)
		}
	}
	// A column whose header is named is kept even when every data cell of
	// it is missing, and a row with one cell that is not missing is kept.
	kb, _ := TableKey(base)
	for name, s := range map[string]string{
		"a named empty column":        strings.Replace(trailing, "label,\n", "label,z\n", 1),
		"a row with one value":        base + ",,no\n",
		"one value in the new column": strings.Replace(trailing, "0,4,no,", "0,4,no,7", 1),
	} {
		if ks, _ := TableKey(s); ks == kb {
			t.Errorf("%s: the same key as the table without it\n%q", name, s)
		}
	}
}

// TestTableKeyUnchanged (issue 41 item 3): a table without a row or a
// column of missing cells only keeps the key it had before issue 41 (the
// keys below were computed by TableKey at ae268fa, before the change): a
// changed key would orphan the budgets stored under it. The shipped
// datasets are pinned too; if one of their files is edited, its key moves
// and this test says so.
func TestTableKeyUnchanged(t *testing.T) {
	for _, tc := range []struct{ text, key string }{
		{"x,y,label\n1.0,2.5,yes\n3,-0.25,no\n1.0,2.5,yes\n,4,no\n", "58962cbeded48787a62c45b951cb3218a4364531e6b133f90003bac24a4df59e"},
		// A column missing in every data row but named in the header.
		{"x,y,z\n1,,3\n4,,6\n", "5daf40964efd8f6873baa0bab5bd41f2174cfa90a86364e768ba7ce9a0ab802b"},
	} {
		if k, err := TableKey(tc.text); err != nil || k != tc.key {
			t.Errorf("TableKey(%q) = %s, %v; was %s", tc.text, k, err, tc.key)
		}
	}
	for file, key := range map[string]string{
		"breast-cancer-wisconsin.csv": "7e3a0b14c3637c079fa0517b786f1dd01fc71bb0844414397e6fab87a4e94aa6",
		"palmer-penguins.csv":         "f39f7f16c79f6f669805ec19428f635d597a6d5e7ab2c59094a49074ea3fd956",
	} {
		b, err := os.ReadFile(filepath.Join("..", "..", "site", "data", file))
		if err != nil {
			t.Fatal(err)
		}
		if k, err := TableKey(string(b)); err != nil || k != key {
			t.Errorf("%s: key %s, %v; was %s (edited file, or a changed canonical form?)", file, k, err, key)
		}
	}
}
