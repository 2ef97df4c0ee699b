package dataset

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

// TestDelimiters: the same table written with commas, semicolons (with and
// without decimal commas) and tabs parses to the same numbers and names, by
// Parse and by Columns.
func TestDelimiters(t *testing.T) {
	wantX := [][]float64{{5.1, 3.5}, {4.9, 3}, {6.3, 2.5}}
	wantY := []float64{1, 1, -1}
	for _, tc := range []struct {
		name, text, delim string
	}{
		{"comma", "sepal length,sepal width,species\n5.1,3.5,setosa\n4.9,3,setosa\n6.3,2.5,virginica\n", "comma"},
		{"semicolon", "sepal length;sepal width;species\n5.1;3.5;setosa\n4.9;3;setosa\n6.3;2.5;virginica\n", "semicolon"},
		{"semicolon, decimal comma", "sepal length;sepal width;species\n5,1;3,5;setosa\n4,9;3;setosa\n6,3;2,5;virginica\n", "semicolon"},
		{"tab", "sepal length\tsepal width\tspecies\n5.1\t3.5\tsetosa\n4.9\t 3\tsetosa\n6.3\t2.5\tvirginica\n", "tab"},
		{"tab, CRLF", "sepal length\tsepal width\tspecies\r\n5.1\t3.5\tsetosa\r\n4.9\t3\tsetosa\r\n6.3\t2.5\tvirginica\r\n", "tab"},
		{"quoted semicolon in a comma file", "\"sepal;length\",sepal width,species\n5.1,3.5,setosa\n4.9,3,setosa\n6.3,2.5,virginica\n", "comma"},
		{"leading blank line", "\n\nsepal length;sepal width;species\n5,1;3,5;setosa\n4,9;3;setosa\n6,3;2,5;virginica\n", "semicolon"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tab, err := Parse(tc.text, Options{Target: "species", Positive: "setosa"})
			if err != nil {
				t.Fatal(err)
			}
			if tab.Delimiter != tc.delim {
				t.Errorf("delimiter %q, want %q", tab.Delimiter, tc.delim)
			}
			if len(tab.X) != len(wantX) {
				t.Fatalf("x = %v", tab.X)
			}
			for i := range wantX {
				if !slices.Equal(tab.X[i], wantX[i]) {
					t.Errorf("row %d = %v, want %v", i+1, tab.X[i], wantX[i])
				}
			}
			if !slices.Equal(tab.Y, wantY) {
				t.Errorf("y = %v, want %v", tab.Y, wantY)
			}
			cols, err := Columns(tc.text)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(cols, tab.AllNames) || len(cols) != 3 || !strings.HasSuffix(cols[1], "width") {
				t.Errorf("Columns %q, Parse %q", cols, tab.AllNames)
			}
		})
	}
}

// TestDecimalCommaNeverReadAsInteger: "1,5" is 1.5 in a semicolon file and an
// error naming the cell elsewhere — never 1 (the old UI) or 15.
func TestDecimalCommaNeverReadAsInteger(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		want       float64 // the cell's value, or 0 with an error
		err        string
	}{
		{"semicolon", "a;b\n1,5;2\n3;4\n", 1.5, ""},
		{"semicolon, negative exponent", "a;b\n-1,5e-1;2\n3;4\n", -0.15, ""},
		{"tab", "a\tb\n1,5\t2\n3\t4\n", 0, `row 1, column "a" must be a finite number (a decimal comma is read only in a semicolon-separated file; write 1.5, not 1,5), got "1,5"`},
		{"semicolon, thousands and decimal", "a;b\n1.000,5;2\n3;4\n", 0, `row 1, column "a" must be a finite number, got "1.000,5"`},
		{"semicolon, two commas", "a;b\n1,0,5;2\n3;4\n", 0, `row 1, column "a" must be a finite number, got "1,0,5"`},
		// In a comma file a decimal comma splits the cell: a ragged row, reported.
		{"comma", "a,b\n1,5,2\n3,4\n", 0, "row 1 must be 2 cells like the header (ragged rows), got 3 cells"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tab, err := Parse(tc.text, Options{})
			if tc.err != "" {
				if err == nil || err.Error() != tc.err {
					t.Fatalf("error %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := tab.X[0][0]; got != tc.want {
				t.Errorf("cell = %v, want %v", got, tc.want)
			}
		})
	}
	// The header rule reads decimal commas too: "1,5;2" has no header.
	if cols, _ := Columns("1,5;2\n3;4\n"); !slices.Equal(cols, []string{"c1", "c2"}) {
		t.Errorf("Columns of a headerless semicolon file = %q", cols)
	}
	// A declared positive label compares as a number in the file's dialect.
	tab, err := Parse("x;y\n1;1,0\n2;0\n", Options{Target: "y", Positive: "1"})
	if err != nil || !slices.Equal(tab.Y, []float64{1, -1}) {
		t.Errorf("positive 1 vs 1,0: %v %v", tab, err)
	}
}

// TestMissingCellsError: the typed error names one row in the singular and
// lets a caller name its own control; its message is the checks sentence.
func TestMissingCellsError(t *testing.T) {
	_, err := Parse("a,b\n1,2\n3,NaN\n", Options{})
	var mc *MissingCells
	if !errors.As(err, &mc) || mc.Where() != "row 2" {
		t.Fatalf("error %v", err)
	}
	if want := `text must be free of missing cells, or parsed with drop: "missing" (missing cells in row 2)`; err.Error() != want {
		t.Errorf("%q, want %q", err, want)
	}
	if _, err := Parse("a,b\n1,\n", Options{Drop: "missing"}); err == nil || !strings.HasSuffix(err.Error(), "(the only row has missing cells)") {
		t.Errorf("one incomplete row: %v", err)
	}
}

// TestTabEmptyFirstCell: in a tab-separated file a row whose first cell is
// empty keeps it (encoding/csv's TrimLeadingSpace would trim the tab too and
// report the row as ragged).
func TestTabEmptyFirstCell(t *testing.T) {
	tab, err := Parse("a\tb\n\t2\n1\t3\n", Options{Drop: "missing"})
	if err != nil || tab.Dropped != 1 || len(tab.X) != 1 || tab.X[0][1] != 3 {
		t.Fatalf("%+v, %v", tab, err)
	}
}
