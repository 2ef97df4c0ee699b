package dataset

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// TestProfileKinds: numeric, text, mixed and empty columns, missing cells,
// the labels of each column, and Profile agreeing with Columns on the names.
func TestProfileKinds(t *testing.T) {
	text := "x,site,mix,none,species\n1.5,north,1,NA,virginica\n2,south,x,,setosa\n,north,3,?,virginica\n"
	p, err := ProfileText(text, HeaderAuto)
	if err != nil {
		t.Fatal(err)
	}
	cols, _ := Columns(text)
	if len(p.Columns) != len(cols) || !p.Header || p.Rows != 3 || p.Delimiter != "comma" {
		t.Fatalf("profile %+v, columns %v", p, cols)
	}
	want := map[string]string{"x": KindNumeric, "site": KindText, "mix": KindMixed, "none": KindEmpty, "species": KindText}
	for i, c := range p.Columns {
		if c.Name != cols[i] || c.Kind != want[c.Name] {
			t.Errorf("column %d: %q kind %s, want %q %s", i, c.Name, c.Kind, cols[i], want[c.Name])
		}
	}
	if c, _ := p.Column("mix"); c.FirstText != "x" || c.FirstTextRow != 2 {
		t.Errorf("mixed column's first text cell %q in row %d, want \"x\" in row 2", c.FirstText, c.FirstTextRow)
	}
	if c, _ := p.Column("x"); c.Missing != 1 {
		t.Errorf("x: %d missing, want 1", c.Missing)
	}
	if c, _ := p.Column("species"); len(c.Labels) != 2 || c.Labels[0] != (LabelCount{"setosa", 1}) || c.Labels[1] != (LabelCount{"virginica", 2}) {
		t.Errorf("species labels %v", c.Labels)
	}
	var mixed bool
	for _, pr := range p.Problems {
		if pr.Column == "mix" && pr.Row == 2 && strings.Contains(pr.Text, `"x"`) && !pr.Blocking {
			mixed = true
		}
	}
	if !mixed {
		t.Errorf("no problem names row 2 of column mix: %+v", p.Problems)
	}
}

// TestProfileHeaderProblems: scikit-learn's iris and wine header lines
// ("150,4,setosa,…" over 5 cells; "178,13,class_0,…" over 14) must be
// declared in auto mode (ColumnsWith's error); declared as a header, wine's
// is found not to describe its rows (blocking, as Parse is); a first row of
// numbers read as data says how to declare a header; a duplicate and an
// empty name, and ragged rows named by row.
func TestProfileHeaderProblems(t *testing.T) {
	iris := "150,4,setosa,versicolor,virginica\n5.1,3.5,1.4,0.2,0\n4.9,3.0,1.4,0.2,0\n"
	wine := "178,13,class_0,class_1,class_2\n" + strings.Repeat("14.23,1.71,2.43,15.6,127,2.8,3.06,.28,2.29,5.64,1.04,3.92,1065,0\n", 3)
	for _, text := range []string{iris, wine} {
		_, perr := ProfileText(text, HeaderAuto)
		_, cerr := ColumnsWith(text, HeaderAuto)
		if perr == nil || cerr == nil || perr.Error() != cerr.Error() || !strings.HasPrefix(perr.Error(), "header must be declared") {
			t.Errorf("auto header on %q: profile %v, columns %v", text[:20], perr, cerr)
		}
	}
	for _, c := range []struct {
		name, text, header string
		want               []string // each must be in some problem's text
		blocking           bool
	}{
		{"sklearn wine, declared a header", wine, HeaderPresent,
			[]string{"Every row has 14 cells, but the header names 5", "Replace it with 14 column names"}, true},
		{"numbers only", "1,2\n3,4\n", HeaderAuto, []string{"read as data", "first row is a header: yes"}, false},
		{"ragged", "a,b\n1,2\n3\n5,6\n7,8,9\n", HeaderAuto, []string{"Row 2 has 1 cell, but the header names 2", "differs: rows 2, 4."}, true},
		{"names", "a,a,\n1,2,3\n", HeaderAuto, []string{`The name "a" is used by columns 1 and 2`, "Column 3 has no name"}, false},
	} {
		p, err := ProfileText(c.text, c.header)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		var all []string
		blocking := false
		for _, pr := range p.Problems {
			all = append(all, pr.Text)
			blocking = blocking || pr.Blocking
		}
		joined := strings.Join(all, " | ")
		for _, w := range c.want {
			if !strings.Contains(joined, w) {
				t.Errorf("%s: problems %q lack %q", c.name, joined, w)
			}
		}
		if c.blocking {
			if _, err := Parse(c.text, Options{Header: c.header}); err == nil {
				t.Errorf("%s: a blocking problem, but Parse reads the file", c.name)
			}
		}
		if blocking != c.blocking {
			t.Errorf("%s: blocking %v, want %v (%q)", c.name, blocking, c.blocking, joined)
		}
	}
	p, err := ProfileText("a;b\n1,5;2\n3;4\n", "")
	if err != nil || len(p.Problems) != 0 || p.Columns[0].Kind != KindNumeric || p.HeaderHash == "" {
		t.Errorf("clean semicolon file: %v, %+v", err, p)
	}
}

// TestProfileHeaderHash: the hash depends on the column names only (not on
// the delimiter or the data), and a file without a header has none.
func TestProfileHeaderHash(t *testing.T) {
	h := func(text string) string {
		p, err := ProfileText(text, HeaderAuto)
		if err != nil {
			t.Fatal(err)
		}
		return p.HeaderHash
	}
	a, b, c := h("x,y,label\n1,2,a\n"), h("x;y;label\n7;8;b\n9;1;c\n"), h("x,y,class\n1,2,a\n")
	if a == "" || a != b || a == c {
		t.Errorf("hashes %q %q %q: want the first two equal (same names) and the third different", a, b, c)
	}
	if h("1,2\n3,4\n") != "" {
		t.Error("a file without a header got a header hash")
	}
}

// TestPositiveCheck: a declared label that matches no row is found, with
// the close match suggested (case, spacing, one typo); numbers compare as
// numbers; a label far from all gets no suggestion.
func TestPositiveCheck(t *testing.T) {
	p, err := ProfileText("x,species,y\n1,virginica,1\n2,setosa,0\n3,virginica,1.0\n4,versicolor,0\n", HeaderAuto)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		col, label, close string
		rows              int
	}{
		{"species", "virginica", "", 2},
		{"species", "Virginica", "virginica", 0},
		{"species", " VIRGINICA ", "virginica", 0},
		{"species", "virginca", "virginica", 0},
		{"species", "dog", "", 0},
		{"y", "1", "", 2},
		{"y", "1e0", "", 2},
	} {
		got := p.Positive(c.col, c.label)
		if got.Rows != c.rows || got.Close != c.close || got.Of != 4 || !got.Known {
			t.Errorf("Positive(%q, %q) = %+v, want %d rows, close %q, of 4", c.col, c.label, got, c.rows, c.close)
		}
	}
}

// TestProfileTextContext: the progress reports bytes read, increasing, up to
// len(text) once at the end; the profile is ProfileText's; a cancelled
// context stops the read with its error.
func TestProfileTextContext(t *testing.T) {
	txt := megabyteCSV()
	var done []int
	p, err := ProfileTextContext(context.Background(), txt, HeaderAuto, func(d, total int) {
		if total != len(txt) {
			t.Fatalf("progress total %d, want len(text) = %d", total, len(txt))
		}
		done = append(done, d)
	})
	if err != nil {
		t.Fatal(err)
	}
	// About 55,000 rows: a report every tickRecords (8192) rows, and the last.
	if len(done) < 5 || done[len(done)-1] != len(txt) {
		t.Fatalf("progress %v: want several reports ending at %d", done, len(txt))
	}
	for i := 1; i < len(done); i++ {
		if done[i] <= done[i-1] {
			t.Fatalf("progress not increasing: %v", done)
		}
	}
	want, err := ProfileText(txt, HeaderAuto)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(p, want) {
		t.Errorf("ProfileTextContext's profile differs from ProfileText's")
	}
	ctx, cancel := context.WithCancel(context.Background())
	calls := 0
	_, err = ProfileTextContext(ctx, txt, HeaderAuto, func(int, int) {
		if calls++; calls == 2 {
			cancel()
		}
	})
	if !errors.Is(err, context.Canceled) || calls != 2 {
		t.Errorf("cancelled after the 2nd report: err %v after %d reports, want context.Canceled after 2", err, calls)
	}
}

// megabyteCSV is a table of about 1 MB (55,000 rows: x, y, label), for the
// progress and cancel tests of ProfileTextContext and ParseContext.
func megabyteCSV() string {
	var b strings.Builder
	b.WriteString("x,y,label\n")
	for i := 0; b.Len() < 1<<20; i++ {
		fmt.Fprintf(&b, "%d.5,%d,%s\n", i%97, i%13, []string{"yes", "no"}[i%2])
	}
	return b.String()
}
