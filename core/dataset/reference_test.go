package dataset

import (
	"slices"
	"strings"
	"testing"
)

// TestReferenceCoding (issue 53 item 2, failing-first: on main every label
// had its column): a text feature with a reference label drops that label's
// column; the reference, an unlisted label and a missing cell code as
// zeros; the table names the reference; errors name reference.<column>.
func TestReferenceCoding(t *testing.T) {
	csv := "island,mass\nBiscoe,1\nDream,2\nTorgersen,3\nElsewhere,4\nNA,5\n"
	cats := map[string][]string{"island": {"Biscoe", "Dream", "Torgersen"}}
	tab, err := Parse(csv, Options{Categories: cats, Reference: map[string]string{"island": "Biscoe"}, Missing: MissingFill})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"island=Dream", "island=Torgersen", "mass"}; !slices.Equal(tab.Columns, want) {
		t.Fatalf("columns %v, want %v", tab.Columns, want)
	}
	want := [][]float64{{0, 0, 1}, {1, 0, 2}, {0, 1, 3}, {0, 0, 4}, {0, 0, 5}}
	for i, r := range want {
		if !slices.Equal(tab.X[i], r) {
			t.Errorf("row %d: %v, want %v", i+1, tab.X[i], r)
		}
	}
	if tab.Reference["island"] != "Biscoe" {
		t.Errorf("reference %v", tab.Reference)
	}
	for _, c := range []struct {
		cats map[string][]string
		ref  map[string]string
		want string
	}{
		{cats, map[string]string{"mass": "1"}, "reference.mass must be a text feature of categories"},
		{cats, map[string]string{"island": "Elsewhere"}, "reference.island must be one of its labels"},
		{map[string][]string{"island": {"Biscoe"}}, map[string]string{"island": "Biscoe"}, "reference.island must"},
	} {
		if _, err := Parse(csv, Options{Categories: c.cats, Reference: c.ref, Missing: MissingFill}); err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%v: %v; want %q", c.ref, err, c.want)
		}
	}
}
