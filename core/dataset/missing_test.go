package dataset

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"
)

// missingCSV is a small generated table with a missing number (row 2, a),
// a missing text cell (row 3, site) and a missing target (row 4, y).
const missingCSV = "a,site,b,y\n" +
	"1,north,10,5\n" +
	",south,20,6\n" +
	"3,NA,30,7\n" +
	"4,north,40,\n" +
	"5,south,50,9\n"

// TestFillKeepsEveryRow (issue 51 item 1, failing-first): under missing
// "fill" every data row is kept — n is the file's row count — a missing
// number is NaN in x, a missing text cell codes as zeros, a missing target
// is NaN in y, and the counts are the owner's.
func TestFillKeepsEveryRow(t *testing.T) {
	tab, err := Parse(missingCSV, Options{Target: "y", TargetType: TargetNumeric, Missing: MissingFill,
		Categories: map[string][]string{"site": {"north", "south"}}})
	if err != nil {
		t.Fatal(err)
	}
	if len(tab.X) != 5 || len(tab.Y) != 5 || tab.Dropped != 0 {
		t.Fatalf("%d rows, %d targets, %d dropped; want 5, 5, 0", len(tab.X), len(tab.Y), tab.Dropped)
	}
	if !math.IsNaN(tab.X[1][0]) || tab.X[1][3] != 20 {
		t.Errorf("row 2: %v, want a NaN first", tab.X[1])
	}
	if tab.X[2][1] != 0 || tab.X[2][2] != 0 || tab.X[2][0] != 3 {
		t.Errorf("row 3 (site NA): %v, want zeros in site's block", tab.X[2])
	}
	if !math.IsNaN(tab.Y[3]) || tab.Y[4] != 9 {
		t.Errorf("y %v, want NaN in row 4", tab.Y)
	}
	if tab.MissingCells != 2 || tab.MissingTargets != 1 {
		t.Errorf("counts %d cells, %d targets; want 2, 1", tab.MissingCells, tab.MissingTargets)
	}
	// A label target: a missing cell is NaN, not −1.
	lab, err := Parse("a,y\n1,yes\n2,\n3,no\n", Options{Target: "y", Positive: "yes", Missing: MissingFill})
	if err != nil {
		t.Fatal(err)
	}
	if lab.Y[0] != 1 || !math.IsNaN(lab.Y[1]) || lab.Y[2] != -1 || lab.MissingTargets != 1 {
		t.Errorf("label target %v (%d missing)", lab.Y, lab.MissingTargets)
	}
	// Undeclared targets: numbers, or the two-label inference, skip the missing cell.
	num, err := Parse("a,y\n1,2.5\n2,NA\n", Options{Target: "y", Missing: MissingFill})
	if err != nil || num.Coding != CodingNumeric || !math.IsNaN(num.Y[1]) {
		t.Errorf("undeclared numeric target: %+v, %v", num, err)
	}
	inf, err := Parse("a,y\n1,p\n2,?\n3,q\n", Options{Target: "y", Missing: MissingFill})
	if err != nil || inf.Coding != CodingInferred || !math.IsNaN(inf.Y[1]) || len(inf.Mapping) != 2 {
		t.Errorf("undeclared label target: %+v, %v", inf, err)
	}
	// Every row missing its target is still n rows (no error that one record decides).
	all, err := Parse("a,y\n1,\n2,\n", Options{Target: "y", TargetType: TargetNumeric, Missing: MissingFill})
	if err != nil || len(all.X) != 2 || all.MissingTargets != 2 {
		t.Errorf("all targets missing: %+v, %v", all, err)
	}
}

// TestFillNeighbourSameShape (failing-first): a table and its neighbour with
// one cell emptied — a feature's or the target's — parse to the same n and
// the same columns under missing "fill"; with drop: "missing" (the page's
// former policy) n moves by one.
func TestFillNeighbourSameShape(t *testing.T) {
	var b strings.Builder
	b.WriteString("a,b,y\n")
	for i := range 40 {
		fmt.Fprintf(&b, "%d,%d,%d\n", i%7, i%5, i%3)
	}
	d := b.String()
	lines := strings.Split(d, "\n")
	for _, which := range []string{"feature", "target"} {
		nb := slices.Clone(lines)
		cells := strings.Split(nb[10], ",")
		if which == "feature" {
			cells[1] = ""
		} else {
			cells[2] = "NA"
		}
		nb[10] = strings.Join(cells, ",")
		d2 := strings.Join(nb, "\n")
		for _, pol := range []Options{{Missing: MissingFill}, {Drop: "missing"}} {
			pol.Target, pol.TargetType = "y", TargetNumeric
			t1, err1 := Parse(d, pol)
			t2, err2 := Parse(d2, pol)
			if err1 != nil || err2 != nil {
				t.Fatal(err1, err2)
			}
			same := len(t1.X) == len(t2.X) && slices.Equal(t1.Columns, t2.Columns)
			if fill := pol.Missing == MissingFill; same != fill {
				t.Errorf("%s emptied, policy %+v: n %d and %d, columns %v and %v", which, pol, len(t1.X), len(t2.X), t1.Columns, t2.Columns)
			}
		}
	}
}

// TestScaleFillsMiddle: Scale maps a NaN (a missing cell) to 0, the middle
// of the declared range, and clamps and scales the others as before; an
// indicator column left out of the ranges is kept 0/1 (IndicatorRange).
func TestScaleFillsMiddle(t *testing.T) {
	tab, err := Parse("a,b\n1,4\n,8\n30,\n", Options{Missing: MissingFill, Indicators: []string{"b"}})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"a", "b", "b missing"}; !slices.Equal(tab.Columns, want) || !slices.Equal(tab.Indicators, []string{"b missing"}) {
		t.Fatalf("columns %v, indicators %v", tab.Columns, tab.Indicators)
	}
	if err := tab.Scale(map[string]Range{"a": {0, 10}, "b": {0, 8}}); err != nil {
		t.Fatal(err)
	}
	want := [][]float64{{-0.8, 0, 0}, {0, 1, 0}, {1, 0, 1}}
	for i, r := range want {
		for j, v := range r {
			if math.Abs(tab.X[i][j]-v) > 1e-15 {
				t.Fatalf("row %d: %v, want %v", i, tab.X[i], r)
			}
		}
	}
	if tab.Clamped != 1 || tab.MissingCells != 2 {
		t.Errorf("clamped %d, missing %d; want 1, 2", tab.Clamped, tab.MissingCells)
	}
}

// TestMissingOptionErrors: every bad policy option is an error naming its
// field, before any row is read.
func TestMissingOptionErrors(t *testing.T) {
	for _, c := range []struct {
		opt   Options
		field string
	}{
		{Options{Missing: "zero"}, "missing"},
		{Options{Missing: MissingFill, Drop: "missing"}, "missing"},
		{Options{Indicators: []string{"a"}}, "indicators"},
		{Options{Missing: MissingFill, Indicators: []string{"nope"}}, "indicators"},
		{Options{Missing: MissingFill, Indicators: []string{"a", "a"}}, "indicators"},
		{Options{Missing: MissingFill, Target: "y", TargetType: TargetNumeric, Indicators: []string{"y"}}, "indicators"},
		{Options{Missing: MissingFill, Features: []string{"b"}, Indicators: []string{"a"}}, "indicators"},
		{Options{Missing: MissingFill, Indicators: []string{"a"}, Features: []string{"a", "a missing"}}, "indicators"},
	} {
		_, err := Parse("a,b,a missing,y\n1,2,3,4\n", c.opt)
		if err == nil || !strings.HasPrefix(err.Error(), c.field+" must") {
			t.Errorf("%+v: %v; want an error naming %s", c.opt, err, c.field)
		}
	}
}

// TestZeroMissingTargets: a row whose target is NaN becomes a = 0, every
// column and the intercept included, with the target y0; the others are
// untouched; errors name the field.
func TestZeroMissingTargets(t *testing.T) {
	x := [][]float64{{0.5, -0.2, 1}, {0.1, 0.3, 1}, {-1, 1, 1}}
	y := []float64{1, math.NaN(), -1}
	k, err := ZeroMissingTargets(x, y, -1)
	if err != nil || k != 1 {
		t.Fatalf("k = %d, %v", k, err)
	}
	if !slices.Equal(x[1], []float64{0, 0, 0}) || y[1] != -1 || !slices.Equal(x[0], []float64{0.5, -0.2, 1}) || y[2] != -1 {
		t.Errorf("x %v, y %v", x, y)
	}
	if _, err := ZeroMissingTargets(x, y[:2], 0); err == nil || !strings.HasPrefix(err.Error(), "y must") {
		t.Errorf("short y: %v", err)
	}
	if _, err := ZeroMissingTargets(x, y, math.NaN()); err == nil || !strings.HasPrefix(err.Error(), "y0 must") {
		t.Errorf("NaN y0: %v", err)
	}
}
