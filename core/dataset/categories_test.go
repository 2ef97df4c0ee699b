package dataset

import (
	"math"
	"strings"
	"testing"
)

// Declared categories one-hot code a text feature as name=label columns in
// the list's order, an unlisted label as all zeros; errors name the field.
func TestCategoriesOneHot(t *testing.T) {
	csv := "island,mass,sex\nBiscoe,3000,m\n Dream ,3100,f\nTorgersen,3200,m\nBiscoe,3300,f\n"
	tab, err := Parse(csv, Options{Target: "sex", TargetType: TargetLabel, Positive: "m", Categories: map[string][]string{"island": {"Dream", "Biscoe", "Nowhere"}}})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"island=Dream", "island=Biscoe", "island=Nowhere", "mass"}
	if strings.Join(tab.Columns, "|") != strings.Join(want, "|") {
		t.Fatalf("columns %v, want %v", tab.Columns, want)
	}
	rows := [][]float64{{0, 1, 0, 3000}, {1, 0, 0, 3100}, {0, 0, 0, 3200}, {0, 1, 0, 3300}}
	for i, r := range rows {
		for j, v := range r {
			if tab.X[i][j] != v {
				t.Fatalf("row %d: %v, want %v", i, tab.X[i], r)
			}
		}
	}
	for _, c := range []struct {
		cats  map[string][]string
		opt   Options
		field string
	}{
		{map[string][]string{"island": {}}, Options{}, "categories.island"},
		{map[string][]string{"island": {"a", "a"}}, Options{}, "categories.island"},
		{map[string][]string{"island": {" "}}, Options{}, "categories.island"},
		{map[string][]string{"nope": {"a"}}, Options{}, "categories.nope"},
		{map[string][]string{"sex": {"m"}}, Options{Target: "sex", TargetType: TargetLabel, Positive: "m"}, "categories.sex"},
		{map[string][]string{"island": {"Biscoe"}}, Options{Features: []string{"mass"}}, "categories.island"},
	} {
		o := c.opt
		o.Categories = c.cats
		if _, err := Parse(csv, o); err == nil || !strings.HasPrefix(err.Error(), c.field+" must") {
			t.Errorf("%v: %v; want an error naming %s", c.cats, err, c.field)
		}
	}
}

// ReadCells splits every column's cells into numbers, labels and missing,
// in the file's dialect.
func TestReadCells(t *testing.T) {
	cols, n, err := ReadCells("a;b;c\n1,5;x;NA\n2;y;3\n;x;inf\n", HeaderAuto)
	if err != nil {
		t.Fatal(err)
	}
	if n != 3 || len(cols) != 3 || cols[0].Name != "a" {
		t.Fatalf("n = %d, %+v", n, cols)
	}
	if len(cols[0].Nums) != 2 || cols[0].Nums[0] != 1.5 || len(cols[1].Labels) != 3 || cols[1].Labels[2] != "x" {
		t.Errorf("%+v", cols)
	}
	for _, c := range cols {
		for _, v := range c.Nums {
			if math.IsInf(v, 0) || math.IsNaN(v) {
				t.Errorf("%s: a non-finite number %g", c.Name, v)
			}
		}
	}
	if _, _, err := ReadCells("a,b\n1,2\n3\n", HeaderAuto); err == nil || !strings.HasPrefix(err.Error(), "row 2 must") {
		t.Errorf("ragged: %v", err)
	}
}
