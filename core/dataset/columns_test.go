package dataset

import (
	"slices"
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
		"id,1,2\n7,3,4\n",            // one text cell makes a header
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
