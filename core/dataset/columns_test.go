package dataset

import (
	"slices"
	"strings"
	"testing"
)

// TestColumnsAgreeWithParse: Columns names exactly the columns Parse reads
// (AllNames), header or not, with missing markers in the first record.
func TestColumnsAgreeWithParse(t *testing.T) {
	for _, text := range []string{
		"1,NA,3\n4,5,6\n",            // a missing marker is not a header cell
		"a, b ,c\n1,2,3\n",           // header names are trimmed
		"\n\nx,y\n1,2\n",             // leading blank lines
		"1,2\n3,4\n",                 // no header
		"mass,len\n3,1\n.,4\n",       // header, a missing cell dropped
		"1,?,3,.\n4,5,6,7\n",         // all markers
		"1e3,-2,+3.5\n1,2,3\n",       // numbers in every spelling
		"\"q,uoted\",b\n1,2\n",       // quoted header cell
		"x\n1\n2\n",                  // one column
		"n/a,none,null,NaN\n1,2,3,4", // every missing marker, no header
	} {
		got, err := Columns(text)
		if err != nil {
			t.Fatalf("Columns(%q): %v", text, err)
		}
		tab, err := Parse(text, Options{Drop: "missing"})
		if err != nil {
			t.Fatalf("Parse(%q): %v", text, err)
		}
		if !slices.Equal(got, tab.AllNames) {
			t.Errorf("Columns(%q) = %q, Parse names %q", text, got, tab.AllNames)
		}
	}
	if got, _ := Columns("1,NA,3\n"); !slices.Equal(got, []string{"c1", "c2", "c3"}) {
		t.Errorf(`Columns("1,NA,3") = %q, want c1 c2 c3 (the UI's old rule gave 1, NA, 3)`, got)
	}
}

// TestHeaderDeclaredOrAsked (issue 21 item 6): a first row that mixes
// numbers and text unlike the second — a headerless file whose first data
// row has one non-numeric cell, or a header with numeric names — is refused
// in auto mode with an error naming header (on main the first was silently
// taken for a header and the row lost); a declared header mode reads it
// either way, and a declaration is followed even where auto would guess.
func TestHeaderDeclaredOrAsked(t *testing.T) {
	for _, text := range []string{"1,abc,3\n4,5,6\n7,8,9\n", "id,1,2\n7,3,4\n", "1,abc\n"} {
		_, err := Parse(text, Options{})
		if err == nil || !strings.HasPrefix(err.Error(), "header must be declared for this file") {
			t.Errorf("Parse(%q) auto: %v", text, err)
		}
		if _, err := Columns(text); err == nil || !strings.HasPrefix(err.Error(), "header must be") {
			t.Errorf("Columns(%q) auto: %v", text, err)
		}
	}
	// Text in the same column as the next row's (a label column): data.
	tab, err := Parse("a,1,2\nb,3,4\n", Options{Target: "c1", Positive: "a"})
	if err != nil || tab.Header || len(tab.X) != 2 || tab.Y[0] != 1 || tab.Y[1] != -1 {
		t.Errorf("label column: %+v, %v", tab, err)
	}
	tab, err = Parse("1,abc,3\n4,5,6\n", Options{Header: HeaderAbsent, Features: []string{"c1", "c3"}})
	if err != nil || tab.Header || len(tab.X) != 2 || tab.X[0][1] != 3 {
		t.Errorf("absent: %+v, %v", tab, err)
	}
	tab, err = Parse("id,1,2\n7,3,4\n", Options{Header: HeaderPresent})
	if err != nil || !tab.Header || !slices.Equal(tab.AllNames, []string{"id", "1", "2"}) || len(tab.X) != 1 {
		t.Errorf("present: %+v, %v", tab, err)
	}
	tab, err = Parse("a,b\n1,2\n", Options{Header: HeaderAbsent, Drop: "missing"})
	if err == nil {
		t.Errorf("absent on a named header: read %+v", tab)
	}
	if cols, err := ColumnsWith("1,2\n3,4\n", HeaderPresent); err != nil || !slices.Equal(cols, []string{"1", "2"}) {
		t.Errorf("ColumnsWith present = %q, %v", cols, err)
	}
	if _, err := Parse("a\n1\n", Options{Header: "yes"}); err == nil || !strings.HasPrefix(err.Error(), "header must be") {
		t.Errorf("bad mode: %v", err)
	}
}

// TestHeaderNotFooledByMissing (issue 30 item 6): a data row with no number
// whose other cells are missing markers — "NA,,yes" above rows with a label
// in the same column — was taken for a header in auto mode, losing the row
// and exporting its cells as column names; now auto refuses it with an
// error naming header (Parse, Columns and ProfileText alike), a declared
// mode reads it, and headers with an empty name over a number column (R's
// row names) or a missing marker in the second row are still read.
func TestHeaderNotFooledByMissing(t *testing.T) {
	for _, text := range []string{"NA,,yes\n1.2,3,no\n4,5,yes\n", "?;yes\n1,5;no\n", ",,yes\n1,2,no\n", "NA,yes,\n1,no,2\n", "NA,,yes\n"} {
		if tab, err := Parse(text, Options{Drop: "missing"}); err == nil || !strings.HasPrefix(err.Error(), "header must be declared for this file") {
			t.Errorf("Parse(%q) auto: %v, columns %q", text, err, tabNames(tab))
		}
		if cols, err := Columns(text); err == nil || !strings.HasPrefix(err.Error(), "header must be") {
			t.Errorf("Columns(%q) auto: %q, %v", text, cols, err)
		}
		if _, err := ProfileText(text, HeaderAuto); err == nil || !strings.HasPrefix(err.Error(), "header must be") {
			t.Errorf("ProfileText(%q) auto: %v", text, err)
		}
	}
	tab, err := Parse("NA,,yes\n1.2,3,no\n4,5,yes\n", Options{Header: HeaderAbsent, Drop: "missing", Target: "c3", Positive: "yes"})
	if err != nil || tab.Header || tab.Dropped != 1 || len(tab.X) != 2 || !slices.Equal(tab.AllNames, []string{"c1", "c2", "c3"}) {
		t.Errorf("absent: %+v, %v", tab, err)
	}
	for text, names := range map[string][]string{
		"\"\",x,label\n1,2,yes\n":      {"", "x", "label"}, // R's write.csv with row names
		"x,y,label\nNA,,yes\n1,2,no\n": {"x", "y", "label"},
		"NA,x\n1,2\n":                  {"NA", "x"}, // a name over a number column: not a data row of this file
	} {
		opt := Options{Drop: "missing"}
		if names[len(names)-1] == "label" {
			opt.Target, opt.Positive = "label", "yes"
		}
		tab, err := Parse(text, opt)
		if err != nil || !tab.Header || !slices.Equal(tab.AllNames, names) {
			t.Errorf("Parse(%q): names %q, %v; want the header %q", text, tabNames(tab), err, names)
		}
	}
}

func tabNames(t *Table) []string {
	if t == nil {
		return nil
	}
	return t.AllNames
}

func TestColumnsErrors(t *testing.T) {
	for _, tc := range []struct{ text, want string }{
		{"", "text must be CSV with at least one data row (it is empty)"},
		{"\n \n", "text must be CSV with at least one data row (it is empty)"},
		{"\"unterminated\n", "text must be valid CSV"},
	} {
		_, err := Columns(tc.text)
		if err == nil || len(err.Error()) < len(tc.want) || err.Error()[:len(tc.want)] != tc.want {
			t.Errorf("Columns(%q) error = %v, want prefix %q", tc.text, err, tc.want)
		}
	}
}
