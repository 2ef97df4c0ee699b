package dataset

import (
	"slices"
	"strings"
	"testing"
)

// targetY parses a two-column CSV (x, y) with the given target cells.
func targetY(t *testing.T, cells []string, opt Options) ([]float64, error) {
	t.Helper()
	var b strings.Builder
	b.WriteString("x,y\n")
	for i, c := range cells {
		b.WriteString(strings.Repeat("1", 1+i%2) + "," + c + "\n")
	}
	opt.Target = "y"
	tab, err := Parse(b.String(), opt)
	if err != nil {
		return nil, err
	}
	return tab.Y, nil
}

// TestTargetCodingUndeclared (issue 13, item 3) uses only the former Options,
// so it ran on main too, where it failed: "1" and "1.0" were coded −1 and +1,
// "10" sorted before "9" (10 → −1, 9 → +1), a single-label column was an
// error, and replacing one row of a two-valued numeric column recoded every y.
func TestTargetCodingUndeclared(t *testing.T) {
	for _, c := range []struct {
		cells []string
		want  []float64
	}{
		{[]string{"1", "1.0", "1", "1.0"}, []float64{1, 1, 1, 1}},
		{[]string{"10", "9", "10"}, []float64{10, 9, 10}},
		{[]string{"3", "3", "3"}, []float64{3, 3, 3}},
		// neighbours: the third row replaced; the other rows keep their y
		{[]string{"0", "5", "0", "5"}, []float64{0, 5, 0, 5}},
		{[]string{"0", "5", "7", "5"}, []float64{0, 5, 7, 5}},
	} {
		y, err := targetY(t, c.cells, Options{})
		if err != nil || !slices.Equal(y, c.want) {
			t.Errorf("cells %v: y = %v (%v), want %v", c.cells, y, err, c.want)
		}
	}
}

// TestTargetCodingDeclared: with a declared positive label the coding is
// positive vs rest, labels compare as numbers when both are numbers, and no
// set of labels causes an error.
func TestTargetCodingDeclared(t *testing.T) {
	for _, c := range []struct {
		cells []string
		opt   Options
		want  []float64
	}{
		{[]string{"1", "1.0", "0", "1e0"}, Options{Positive: "1"}, []float64{1, 1, -1, 1}},
		{[]string{"10", "9", "10.0"}, Options{Positive: "10", TargetType: "label"}, []float64{1, -1, 1}},
		{[]string{"yes", "yes", "yes"}, Options{Positive: "yes"}, []float64{1, 1, 1}},                    // one label
		{[]string{"no", "no"}, Options{Positive: "yes"}, []float64{-1, -1}},                              // positive absent
		{[]string{"a", "b", "c", "Yes", "yes"}, Options{Positive: " yes"}, []float64{-1, -1, -1, -1, 1}}, // rest → −1
		{[]string{"2", "-4.5"}, Options{TargetType: "numeric"}, []float64{2, -4.5}},
	} {
		y, err := targetY(t, c.cells, c.opt)
		if err != nil || !slices.Equal(y, c.want) {
			t.Errorf("cells %v %+v: y = %v (%v), want %v", c.cells, c.opt, y, err, c.want)
		}
	}
	// Neighbours differing in one row: every other row keeps its code.
	a, _ := targetY(t, []string{"p", "q", "p", "q"}, Options{Positive: "q"})
	b, _ := targetY(t, []string{"p", "q", "r", "q"}, Options{Positive: "q"})
	if a[0] != b[0] || a[1] != b[1] || a[3] != b[3] {
		t.Errorf("one row changed the coding of others: %v vs %v", a, b)
	}
}

// TestTargetSchemaErrors: schema errors name the field and depend on the
// declaration only, except a non-number cell under "numeric", which is a
// malformed file (named by its row).
func TestTargetSchemaErrors(t *testing.T) {
	for _, c := range []struct {
		opt  Options
		want string
	}{
		{Options{TargetType: "bool"}, "targetType must be"},
		{Options{TargetType: "label"}, "positive must be the positive label"},
		{Options{TargetType: "numeric", Positive: "1"}, "positive must be absent"},
		{Options{Positive: " "}, "positive must be a label that is not empty"},
		{Options{TargetType: "numeric"}, `row 2, column "y" must be a finite number`},
	} {
		_, err := targetY(t, []string{"1", "x"}, c.opt)
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%+v: error %v, want %q", c.opt, err, c.want)
		}
	}
}
