package dataset

import (
	"errors"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/dpsample/dpsample/core/checks"
)

// Fuzz targets for the parsers of untrusted text (issue 41 item 7): a CSV a
// person drops on the page (Parse, ProfileText, ColumnsWith, TableKey) and
// the ranges line they paste (ParseRanges). Each checks properties, not only
// the absence of a panic. A short run is part of ./build.sh test
// (test_fuzz); a crasher the fuzzer finds is kept under
// testdata/fuzz/FuzzName/ and runs with every go test from then on.

// fuzzCSVSeeds are inputs of the package's tests: every dialect, quoted
// cells, missing markers, ragged rows, headers that may or may not be.
var fuzzCSVSeeds = []string{
	"x,y,label\n1.0,2.5,yes\n3,-0.25,no\n1.0,2.5,yes\n,4,no\n",
	"x,y,label,\n1.0,2.5,yes,\n3,-0.25,no,\n,,,\n",
	"a,b,label\n1,2,yes\n3,4,no\n5,6,yes\n",
	"1,2,0.5\n3,4,1.5\n5,6,2.5\n",
	"a,b\n1,2\n3\n",
	"a,b\n1,x\n",
	"a,b\n1,\n3,4\nNA,5\n6,7\n",
	"a,b,y\n1,2,p\n1,2,q\n1,2,r\n",
	"sepal length;sepal width;species\n5,1;3,5;setosa\n4,9;3;setosa\n6,3;2,5;virginica\n",
	"sepal length\tsepal width\tspecies\r\n5.1\t3.5\tsetosa\r\n4.9\t3\tsetosa\r\n6.3\t2.5\tvirginica\r\n",
	"\"sepal;length\",sepal width,species\n5.1,3.5,setosa\n4.9,3,setosa\n6.3,2.5,virginica\n",
	"\n\nsepal length;sepal width;species\n5,1;3,5;setosa\n",
	"x;y\n1;1,0\n2;0\n",
	"a\tb\n\t2\n1\t3\n",
	"a;b\n5,0;3\n8,5;2\n4,3;4,4\n",
	"NA,,yes\n1.2,3,no\n4,5,yes\n",
	"?;yes\n1,5;no\n",
	"id,1,2\n7,3,4\n",
	"\"\",x,label\n1,2,yes\n2,3,no\n",
	"a,a,\n1,2,3\n",
	"x,species,y\n1,virginica,1\n2,setosa,0\n3,virginica,1.0\n4,versicolor,0\n",
	"\ufeffa,b\n1e308,-1e-308\n0x1p-2,+.5\n",
	"a,b\n\"1,2\",3\n",
	"a\n\"p\nq\"\n",
	"\"unterminated\n1,2\n",
	"a,b\nInf,NaN\n1e400,2\n",
	"",
}

// fuzzOptions turns a fuzzed byte into Parse's options: the header mode,
// the missing-cell policy (drop, fill — with an indicator on the first
// feature —, or both, an error), a target (none, the last or the first
// column) and its declared coding.
func fuzzOptions(text string, mode uint8) Options {
	opt := Options{Header: []string{HeaderAuto, HeaderPresent, HeaderAbsent, ""}[mode%4]}
	if mode&4 != 0 {
		opt.Drop = "missing"
	}
	if mode&128 != 0 {
		opt.Missing = MissingFill
	}
	names, err := ColumnsWith(text, opt.Header)
	if err == nil && mode&24 != 0 {
		if mode&8 != 0 {
			opt.Target = names[len(names)-1]
		} else {
			opt.Target = names[0]
		}
		switch {
		case mode&32 != 0:
			opt.TargetType = TargetNumeric
		case mode&64 != 0:
			opt.Positive = "yes"
		}
	}
	if err == nil && opt.Missing == MissingFill && len(names) > 1 {
		if names[0] != opt.Target {
			opt.Indicators = []string{names[0]}
		} else {
			opt.Indicators = []string{names[1]}
		}
	}
	return opt
}

// namesTheField fails t unless err is a *checks.Error with a Field (or
// Parse's *MissingCells, which names "text" and lists rows).
func namesTheField(t *testing.T, what string, err error) {
	t.Helper()
	var ce *checks.Error
	var mc *MissingCells
	switch {
	case errors.As(err, &ce):
		if ce.Field == "" {
			t.Fatalf("%s: error %q names no field", what, err)
		}
	case errors.As(err, &mc):
		if len(mc.Rows) == 0 {
			t.Fatalf("%s: MissingCells lists no row", what)
		}
	default:
		t.Fatalf("%s: error %T %q is not a *checks.Error", what, err, err)
	}
}

// FuzzParse: on success x is a non-empty n×d matrix of finite numbers with d
// the number of feature columns, y (when there is a target) has n finite
// entries, ±1 under a label coding; the column names are ColumnsWith's,
// ProfileText reads the file too, with n + dropped data rows and no
// blocking problem; TableKey reads it, and a row of missing cells only
// appended does not change the key (issue 41 item 3). Under missing "fill"
// (issue 51) n is the profile's row count, x's NaN cells are the missing
// cells (MissingCells of them, each with its indicator at 1), y's NaN the
// missing targets, and after Scale and ZeroMissingTargets every entry is
// finite and in [−1, 1]. Every error names its field.
func FuzzParse(f *testing.F) {
	for _, s := range fuzzCSVSeeds {
		for _, mode := range []uint8{0, 4 | 8 | 64, 4 | 8 | 32, 2 | 4 | 16, 128 | 8 | 32, 128 | 16 | 64, 128 | 4} {
			f.Add(s, mode)
		}
	}
	f.Fuzz(func(t *testing.T, text string, mode uint8) {
		opt := fuzzOptions(text, mode)
		tab, err := Parse(text, opt)
		if err != nil {
			namesTheField(t, "Parse", err)
			var mc *MissingCells
			if errors.As(err, &mc) && opt.Drop == "missing" {
				t.Fatalf("MissingCells with drop: \"missing\": %v", err)
			}
			return
		}
		if opt.Missing == MissingFill && opt.Drop != "" {
			t.Fatalf("fill and drop together accepted")
		}
		fill := opt.Missing == MissingFill
		if len(tab.X) == 0 || len(tab.Columns) == 0 {
			t.Fatalf("success with x %v, columns %q", tab.X, tab.Columns)
		}
		nan := 0
		for i, row := range tab.X {
			if len(row) != len(tab.Columns) {
				t.Fatalf("row %d has %d entries for %d columns", i, len(row), len(tab.Columns))
			}
			for j, v := range row {
				if math.IsNaN(v) && fill {
					nan++
					if k := j + 1; k < len(row) && slices.Contains(tab.Indicators, tab.Columns[k]) && row[k] != 1 { // an indicator follows its feature
						t.Fatalf("row %d: %q missing, its indicator %v", i, tab.Columns[j], row[k])
					}
					continue
				}
				if math.IsNaN(v) || math.IsInf(v, 0) {
					t.Fatalf("x[%d][%d] = %v", i, j, v)
				}
			}
		}
		if nan != tab.MissingCells {
			t.Fatalf("%d NaN cells, MissingCells %d", nan, tab.MissingCells)
		}
		if opt.Target != "" {
			if len(tab.Y) != len(tab.X) {
				t.Fatalf("%d targets for %d rows", len(tab.Y), len(tab.X))
			}
			nan := 0
			for i, v := range tab.Y {
				if math.IsNaN(v) && fill {
					nan++
					continue
				}
				if math.IsNaN(v) || math.IsInf(v, 0) || tab.Coding != CodingNumeric && v != 1 && v != -1 {
					t.Fatalf("y[%d] = %v (coding %q)", i, v, tab.Coding)
				}
			}
			if nan != tab.MissingTargets {
				t.Fatalf("%d NaN targets, MissingTargets %d", nan, tab.MissingTargets)
			}
		} else if tab.Y != nil {
			t.Fatalf("y %v without a target", tab.Y)
		}
		defer func() { // after the profile's checks: Scale changes x in place
			ranges := map[string]Range{}
			for _, c := range tab.Columns {
				if !slices.Contains(tab.Indicators, c) {
					ranges[c] = Range{Lo: -1e6, Hi: 1e6}
				}
			}
			if err := tab.Scale(ranges); err != nil {
				t.Fatalf("Scale: %v", err)
			}
			y := tab.Y
			if y == nil {
				y = make([]float64, len(tab.X))
			}
			if _, err := ZeroMissingTargets(tab.X, y, 0); err != nil {
				t.Fatalf("ZeroMissingTargets: %v", err)
			}
			for i, row := range tab.X {
				for j, v := range row {
					if !(v >= -1 && v <= 1) || math.IsNaN(y[i]) {
						t.Fatalf("after Scale and ZeroMissingTargets: x[%d][%d] = %v, y = %v", i, j, v, y[i])
					}
				}
			}
		}()
		if tab.Dropped < 0 || tab.Dropped > 0 && opt.Drop != "missing" {
			t.Fatalf("dropped %d with drop %q", tab.Dropped, opt.Drop)
		}
		names, err := ColumnsWith(text, opt.Header)
		if err != nil || !slices.Equal(names, tab.AllNames) {
			t.Fatalf("ColumnsWith = %q, %v; Parse's columns %q", names, err, tab.AllNames)
		}
		p, err := ProfileText(text, opt.Header)
		if err != nil {
			t.Fatalf("Parse reads the file, ProfileText does not: %v", err)
		}
		if p.Rows != len(tab.X)+tab.Dropped || fill && tab.Dropped != 0 || p.Header != tab.Header || p.Delimiter != tab.Delimiter {
			t.Fatalf("profile: %d rows, header %v, %s; Parse: %d + %d dropped, header %v, %s",
				p.Rows, p.Header, p.Delimiter, len(tab.X), tab.Dropped, tab.Header, tab.Delimiter)
		}
		for _, pr := range p.Problems {
			if pr.Blocking {
				t.Fatalf("Parse reads the file, the profile blocks it: %+v", pr)
			}
		}
		key, err := TableKey(text)
		if err != nil {
			t.Fatalf("Parse reads the file, TableKey does not: %v", err)
		}
		d := map[string]string{"comma": ",", "semicolon": ";", "tab": "\t"}[tab.Delimiter]
		if k2, err := TableKey(text + "\n" + d + d + "\n"); err != nil || k2 != key {
			c1, _ := CanonicalForm(text)
			c2, _ := CanonicalForm(text + "\n" + d + d + "\n")
			t.Fatalf("a row of missing cells changed the key (%v):\n%q\n%q", err, c1, c2)
		}
	})
}

// FuzzProfile: on success the columns are ColumnsWith's names, each of a
// known kind, with missing cells and label counts that add up to at most
// the rows; labels are distinct, sorted and at most MaxLabels; the header
// hash is set exactly when there is a header; problems name rows that
// exist. Every error names its field.
func FuzzProfile(f *testing.F) {
	for _, s := range fuzzCSVSeeds {
		for _, mode := range []uint8{0, 1, 2} {
			f.Add(s, mode)
		}
	}
	f.Fuzz(func(t *testing.T, text string, mode uint8) {
		header := []string{HeaderAuto, HeaderPresent, HeaderAbsent, "", "yes"}[mode%5]
		p, err := ProfileText(text, header)
		if err != nil {
			namesTheField(t, "ProfileText", err)
			return
		}
		names, err := ColumnsWith(text, header)
		if err != nil {
			t.Fatalf("ProfileText reads the file, ColumnsWith does not: %v", err)
		}
		if len(names) != len(p.Columns) {
			t.Fatalf("ColumnsWith %q, profile %d columns", names, len(p.Columns))
		}
		for j, c := range p.Columns {
			if c.Name != names[j] {
				t.Fatalf("column %d: profile %q, ColumnsWith %q", j, c.Name, names[j])
			}
			switch c.Kind {
			case KindNumeric, KindText, KindMixed, KindEmpty:
			default:
				t.Fatalf("column %q: kind %q", c.Name, c.Kind)
			}
			if c.Missing < 0 || c.Missing > p.Rows || (c.Kind == KindEmpty) != (len(c.Labels) == 0 && !c.ManyLabels) {
				t.Fatalf("column %q: kind %s, %d missing of %d rows, labels %v", c.Name, c.Kind, c.Missing, p.Rows, c.Labels)
			}
			if c.ManyLabels && c.Labels != nil || len(c.Labels) > MaxLabels {
				t.Fatalf("column %q: %d labels, many %v", c.Name, len(c.Labels), c.ManyLabels)
			}
			tokens := 0
			for k, tk := range c.MissingTokens {
				if tk.Rows < 1 || tk.Label == "" || !isMissing(tk.Label) || k > 0 && !(c.MissingTokens[k-1].Label < tk.Label) {
					t.Fatalf("column %q: missing tokens %v", c.Name, c.MissingTokens)
				}
				tokens += tk.Rows
			}
			if tokens > c.Missing {
				t.Fatalf("column %q: %d token cells of %d missing", c.Name, tokens, c.Missing)
			}
			total := c.Missing
			for k, l := range c.Labels {
				if l.Rows < 1 || k > 0 && !(c.Labels[k-1].Label < l.Label) {
					t.Fatalf("column %q: labels %v not distinct, sorted and counted", c.Name, c.Labels)
				}
				total += l.Rows
			}
			if total > p.Rows {
				t.Fatalf("column %q: %d missing and %d labelled cells in %d rows", c.Name, c.Missing, total-c.Missing, p.Rows)
			}
		}
		if (p.HeaderHash != "") != p.Header {
			t.Fatalf("header %v, hash %q", p.Header, p.HeaderHash)
		}
		for _, pr := range p.Problems {
			if pr.Row < 0 || pr.Row > p.Rows || pr.Text == "" {
				t.Fatalf("problem %+v in %d rows", pr, p.Rows)
			}
		}
	})
}

// FuzzParseRanges: on success every range is valid (finite, lo < hi, within
// ±MaxRange), each name is declared once, and FormatRanges writes a line
// that ParseRanges reads back to the same names and ranges, bit for bit.
// Every error names its field.
func FuzzParseRanges(f *testing.F) {
	for _, s := range []string{
		`sepal_length: 4..8, "width, cm": -0.5..3.25, "say ""hi""": 1e-09..2e+09, " padded": 0..1, tiny: 0.1..0.30000000000000004`,
		"a: 0..1; b:-2 .. 2\n c : 1e3..2e3,",
		"a 0..1", "a: 0..1, b: 0-1", "a: 0..1, b: 1,5..2", "a: 2..1", "a: x..1", "a: 0..1, a: 0..2",
		`"open: 0..1`, "  ", `"": 0..1`, "a: -1e300..1e300", "a: 0x1p-3..Inf", "a: NaN..1",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		names, r, err := ParseRanges(line)
		if err != nil {
			namesTheField(t, "ParseRanges", err)
			return
		}
		if len(names) != len(r) {
			t.Fatalf("%d names, %d ranges (a name twice?)", len(names), len(r))
		}
		for _, n := range names {
			rg, ok := r[n]
			if !ok {
				t.Fatalf("%q has no range", n)
			}
			if err := rg.Valid("ranges"); err != nil {
				t.Fatalf("%q: %v", n, err)
			}
		}
		again := FormatRanges(names, r)
		names2, r2, err := ParseRanges(again)
		if err != nil || !slices.Equal(names, names2) {
			t.Fatalf("FormatRanges wrote %q; read back %q, %v; want %q", again, names2, err, names)
		}
		for _, n := range names {
			if math.Float64bits(r[n].Lo) != math.Float64bits(r2[n].Lo) || math.Float64bits(r[n].Hi) != math.Float64bits(r2[n].Hi) {
				t.Fatalf("%q: %v read back as %v from %q", n, r[n], r2[n], again)
			}
		}
		if strings.Count(again, "\n") > 0 && !strings.Contains(line, "\n") {
			t.Fatalf("FormatRanges wrote a line break: %q", again)
		}
	})
}

// FuzzReadCells: describe({csv})'s reader (issue 42). Numbers are finite, a
// column never holds more cells than n, labels are trimmed and never empty
// (a non-empty missing token is a label candidate: issue 51 item 3), n is
// ProfileText's row count, the columns are ColumnsWith's, and an error names
// its field.
func FuzzReadCells(f *testing.F) {
	for _, s := range fuzzCSVSeeds {
		f.Add(s, HeaderAuto)
	}
	f.Add("island,mass\nBiscoe,1\n Dream ,NA\n,3\n", HeaderPresent)
	f.Fuzz(func(t *testing.T, text, header string) {
		cols, n, err := ReadCells(text, header)
		if err != nil {
			var ce *checks.Error
			if !errors.As(err, &ce) || ce.Field == "" {
				t.Fatalf("ReadCells: an error that names no field: %v", err)
			}
			return
		}
		names, err := ColumnsWith(text, header)
		if err != nil || len(names) != len(cols) {
			t.Fatalf("ReadCells gave %d columns, ColumnsWith %v (%v)", len(cols), names, err)
		}
		for j, c := range cols {
			if c.Name != names[j] || len(c.Nums)+len(c.Labels) > n {
				t.Fatalf("column %d %q: %d numbers and %d labels of n = %d", j, c.Name, len(c.Nums), len(c.Labels), n)
			}
			for _, v := range c.Nums {
				if math.IsNaN(v) || math.IsInf(v, 0) {
					t.Fatalf("column %q: a number %g", c.Name, v)
				}
			}
			for _, l := range c.Labels {
				if l != strings.TrimSpace(l) || l == "" {
					t.Fatalf("column %q: label %q", c.Name, l)
				}
			}
		}
		if p, err := ProfileText(text, header); err == nil && p.Rows != n {
			t.Fatalf("ReadCells n = %d, the profile's rows %d", n, p.Rows)
		}
	})
}
