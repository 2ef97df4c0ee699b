package words

import (
	"math"
	"strings"
	"testing"
)

func TestCount(t *testing.T) {
	for _, tc := range []struct {
		n    int
		noun string
		want string
	}{
		{1, "row", "1 row"},
		{0, "row", "0 rows"},
		{2, "trial", "2 trials"},
		{1, "sample", "1 sample"},
		{-1, "point", "-1 point"},
		{12345, "loss evaluation", "12\u202f345 loss evaluations"},
		{1, "entry/entries", "1 entry"},
		{3, "entry/entries", "3 entries"},
		{1000000, "row", "1\u202f000\u202f000 rows"},
	} {
		if got := Count(tc.n, tc.noun); got != tc.want {
			t.Errorf("count(%d, %q) = %q, want %q", tc.n, tc.noun, got, tc.want)
		}
	}
}

// TestParseNumberStrict: the page reads a field as the API would — "1,5" is
// an error (fmt.Sscanf read it as 1), and so is trailing text.
func TestParseNumberStrict(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want float64
		err  string
	}{
		{"0.5", 0.5, ""},
		{" 1e-5 ", 1e-5, ""},
		{"1,5", 0, `delta must be a number written with a decimal point (1.5, not 1,5), got "1,5"`},
		{"1.5x", 0, `delta must be a number, got "1.5x"`},
		{"", 0, `delta must be a number, got ""`},
	} {
		got, err := ParseNumber("delta", tc.in)
		if tc.err != "" {
			if err == nil || err.Error() != tc.err {
				t.Errorf("parseNumber(%q) error %v, want %q", tc.in, err, tc.err)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("parseNumber(%q) = %v, %v", tc.in, got, err)
		}
	}
	if v, err := ParseNumber("x", "NaN"); err != nil || !math.IsNaN(v) {
		t.Errorf("NaN is left to the field's rule: %v %v", v, err)
	}
	if _, err := ParseInt("n", "1.5", 1, 100); err == nil || err.Error() != "n must be an integer in [1, 100], got 1.5" {
		t.Errorf("n = 1.5: %v", err)
	}
	if n, err := ParseInt("n", "20", 1, 100); err != nil || n != 20 {
		t.Errorf("n = 20: %v %v", n, err)
	}
	if _, err := ParseInt("n", "1e3", 1, 100); err == nil || !strings.Contains(err.Error(), "got 1000") {
		t.Errorf("n = 1e3 over the range: %v", err)
	}
}
