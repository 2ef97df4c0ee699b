package dataset

import (
	"strings"
	"testing"
)

// TestRangesLineRoundTrip: FormatRanges then ParseRanges gives back the
// names in order and the ranges bit for bit, quoted names included.
func TestRangesLineRoundTrip(t *testing.T) {
	cols := []string{"sepal_length", "width, cm", `say "hi"`, " padded", "absent", "tiny"}
	r := map[string]Range{"sepal_length": {4, 8}, "width, cm": {-0.5, 3.25}, `say "hi"`: {1e-9, 2e9}, " padded": {0, 1}, "tiny": {0.1, 0.30000000000000004}}
	line := FormatRanges(cols, r)
	if want := `sepal_length: 4..8, "width, cm": -0.5..3.25, "say ""hi""": 1e-09..2e+09, " padded": 0..1, tiny: 0.1..0.30000000000000004`; line != want {
		t.Errorf("FormatRanges = %s\nwant          %s", line, want)
	}
	names, got, err := ParseRanges(line)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(names, "|") != strings.Join([]string{"sepal_length", "width, cm", `say "hi"`, " padded", "tiny"}, "|") {
		t.Errorf("names %q", names)
	}
	for n, want := range r {
		if got[n] != want {
			t.Errorf("%q: %v, want %v", n, got[n], want)
		}
	}
}

// TestParseRangesForms: the separators a person types, and errors naming
// the item.
func TestParseRangesForms(t *testing.T) {
	names, r, err := ParseRanges("a: 0..1; b:-2 .. 2\n c : 1e3..2e3,")
	if err != nil || len(names) != 3 || r["b"] != (Range{-2, 2}) || r["c"] != (Range{1000, 2000}) {
		t.Errorf("ParseRanges: %v %v %v", names, r, err)
	}
	for _, c := range []struct{ line, want string }{
		{"a 0..1", `ranges line, item 1 must be name: lo..hi, got "a 0..1"`},
		{"a: 0..1, b: 0-1", `ranges line, item 2 must be b: lo..hi (two numbers joined by two dots), got "0-1"`},
		{"a: 0..1, b: 1,5..2", `ranges line, item 2 must be b: lo..hi`},
		{"a: 2..1", `ranges.a must be [lo, hi] with lo < hi`},
		{"a: x..1", `ranges line, item 1 (a).lo must be a number written with a decimal point, got "x"`},
		{"a: 0..1, a: 0..2", `declared twice`},
		{`"open: 0..1`, `closed by a quote`},
	} {
		_, _, err := ParseRanges(c.line)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("ParseRanges(%q) error %v, want it to contain %q", c.line, err, c.want)
		}
	}
	if n, _, err := ParseRanges("  "); err != nil || len(n) != 0 {
		t.Errorf("an empty line: %v %v", n, err)
	}
}
