package dataset

import (
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
