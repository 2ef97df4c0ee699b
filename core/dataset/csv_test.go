package dataset

import (
	"context"
	"errors"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"
)

func TestParseHeaderAndTarget(t *testing.T) {
	tab, err := Parse("a,b,label\n1,2,yes\n3,4,no\n5,6,yes\n", Options{Target: "label"})
	if err != nil {
		t.Fatal(err)
	}
	if !tab.Header || len(tab.X) != 3 || len(tab.Columns) != 2 || tab.Columns[1] != "b" {
		t.Fatalf("table %+v", tab)
	}
	if tab.Mapping["no"] != -1 || tab.Mapping["yes"] != 1 || tab.Y[0] != 1 || tab.Y[1] != -1 {
		t.Fatalf("mapping %v y %v", tab.Mapping, tab.Y)
	}
	if tab.X[2][0] != 5 || tab.X[2][1] != 6 {
		t.Fatalf("x %v", tab.X)
	}
}

func TestParseNoHeaderNumericTarget(t *testing.T) {
	tab, err := Parse("1,2,0.5\n3,4,1.5\n5,6,2.5\n", Options{Target: "c3"})
	if err != nil {
		t.Fatal(err)
	}
	if tab.Header || tab.Y[2] != 2.5 || tab.Mapping != nil || tab.AllNames[0] != "c1" {
		t.Fatalf("table %+v", tab)
	}
}

func TestParseErrors(t *testing.T) {
	cases := []struct {
		text string
		opt  Options
		want string
	}{
		{"", Options{}, "text must be CSV with at least one data row"},
		{"a,b\n", Options{}, "only a header"},
		{"a,b\n1,2\n3\n", Options{}, "row 2 must be 2 cells like the header (ragged rows), got 1 cells"},
		{"a,b\n1,x\n", Options{}, `row 1, column "b" must be a finite number, got "x"`},
		{"a,b\n1,\n3,4\nNA,5\n", Options{}, "missing cells in rows 1, 3"},
		{"a,b\n1,2\n", Options{Target: "z"}, `target must be one of the columns a, b, got "z"`},
		{"a,b\n1,2\n", Options{Drop: "all"}, `drop must be "missing" or absent`},
		{"a,b,y\n1,2,p\n1,2,q\n1,2,r\n", Options{Target: "y"}, "target must be a numeric column, or a declared positive label"},
		{"a,b\n1,2\n", Options{Target: "a", Features: []string{"a"}}, "features must be columns other than the target"},
	}
	for _, c := range cases {
		_, err := Parse(c.text, c.opt)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Parse(%q, %+v) = %v, want %q", c.text, c.opt, err, c.want)
		}
	}
}

func TestDropMissing(t *testing.T) {
	tab, err := Parse("a,b\n1,\n3,4\nNA,5\n6,7\n", Options{Drop: "missing"})
	if err != nil {
		t.Fatal(err)
	}
	if tab.Dropped != 2 || len(tab.X) != 2 || tab.X[1][0] != 6 {
		t.Fatalf("%+v", tab)
	}
}

// TestRealDatasets parses the two shipped datasets (site/data) with their
// natural targets: breast cancer's 0/1 "malignant" becomes ±1 with a reported
// mapping; penguins' numeric measurements with target "sex" need
// drop: "missing" (the file has empty cells on purpose).
func TestRealDatasets(t *testing.T) {
	bc, err := os.ReadFile("../../site/data/breast-cancer-wisconsin.csv")
	if err != nil {
		t.Fatal(err)
	}
	tab, err := Parse(string(bc), Options{Target: "malignant"})
	if err != nil {
		t.Fatal(err)
	}
	pos := 0
	for _, y := range tab.Y {
		if y == 1 {
			pos++
		}
	}
	if len(tab.X) != 569 || len(tab.Columns) != 30 || pos != 212 || tab.Coding != CodingNumeric {
		t.Fatalf("breast cancer: %d rows, %d columns, %d positive, mapping %v", len(tab.X), len(tab.Columns), pos, tab.Mapping)
	}
	pg, err := os.ReadFile("../../site/data/palmer-penguins.csv")
	if err != nil {
		t.Fatal(err)
	}
	feats := []string{"beak_length_mm", "beak_depth_mm", "flipper_length_mm", "body_mass_g"}
	if _, err := Parse(string(pg), Options{Target: "sex", Features: feats}); err == nil || !strings.Contains(err.Error(), "missing cells in rows") {
		t.Fatalf("penguins without drop: %v", err)
	}
	tab, err = Parse(string(pg), Options{Target: "sex", Features: feats, Drop: "missing"})
	if err != nil {
		t.Fatal(err)
	}
	if tab.Dropped == 0 || len(tab.X)+tab.Dropped != 344 || len(tab.Mapping) != 2 || tab.Coding != CodingInferred {
		t.Fatalf("penguins: %d rows, %d dropped, mapping %v", len(tab.X), tab.Dropped, tab.Mapping)
	}
	inferred := tab.Y
	tab, err = Parse(string(pg), Options{Target: "sex", Features: feats, Drop: "missing", Positive: "MALE"})
	if err != nil || tab.Coding != CodingPositive || !slices.Equal(tab.Y, inferred) {
		t.Fatalf("penguins with positive \"MALE\": %v, coding %q", err, tab.Coding)
	}
}

// TestParseContext: the progress reports bytes read, increasing, ending
// once at len(text); the table is Parse's; a cancelled context stops the
// read with its error (and no table).
func TestParseContext(t *testing.T) {
	txt := megabyteCSV()
	opt := Options{Target: "label", Positive: "yes", TargetType: TargetLabel}
	var done []int
	tab, err := ParseContext(context.Background(), txt, opt, func(d, total int) {
		if total != len(txt) {
			t.Fatalf("progress total %d, want len(text) = %d", total, len(txt))
		}
		done = append(done, d)
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(done) < 5 || done[len(done)-1] != len(txt) {
		t.Fatalf("progress %v: want several reports ending at %d", done, len(txt))
	}
	for i := 1; i < len(done); i++ {
		if done[i] < done[i-1] || (done[i] == done[i-1] && i != len(done)-1) {
			t.Fatalf("progress not increasing: %v", done)
		}
	}
	want, err := Parse(txt, opt)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(tab, want) {
		t.Errorf("ParseContext's table differs from Parse's")
	}
	ctx, cancel := context.WithCancel(context.Background())
	calls := 0
	tab, err = ParseContext(ctx, txt, opt, func(int, int) {
		if calls++; calls == 2 {
			cancel()
		}
	})
	if !errors.Is(err, context.Canceled) || tab != nil {
		t.Errorf("cancelled: table %v, error %v; want context.Canceled", tab != nil, err)
	}
}
