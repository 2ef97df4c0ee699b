//go:build js && wasm

package report

import (
	"testing"
)

// TestPlotStep: a figure draws every row up to plotRows, then every k-th
// with k = ⌈n/plotRows⌉ (at most plotRows dots), and its legend says so.
func TestPlotStep(t *testing.T) {
	for _, c := range []struct {
		n, step int
		name    string
	}{
		{10, 1, "your rows (not private)"},
		{5000, 1, "your rows (not private)"},
		{5001, 2, "your rows (not private; every 2nd of 5\u202f001 rows)"},
		{15000, 3, "your rows (not private; every 3rd of 15\u202f000 rows)"},
		{1000000, 200, "your rows (not private; every 200th of 1\u202f000\u202f000 rows)"},
		{56000, 12, "your rows (not private; every 12th of 56\u202f000 rows)"},
	} {
		if s := PlotStep(c.n); s != c.step || (c.n+s-1)/s > plotRows {
			t.Errorf("n = %d: step %d, want %d (at most %d dots)", c.n, s, c.step, plotRows)
		}
		if got := RowsName(c.n); got != c.name {
			t.Errorf("n = %d: %q, want %q", c.n, got, c.name)
		}
	}
	for k, want := range map[int]string{2: "2nd", 3: "3rd", 4: "4th", 11: "11th", 12: "12th", 13: "13th", 21: "21st", 22: "22nd", 101: "101st", 111: "111th"} {
		if got := ordinal(k); got != want {
			t.Errorf("ordinal(%d) = %q, want %q", k, got, want)
		}
	}
}
