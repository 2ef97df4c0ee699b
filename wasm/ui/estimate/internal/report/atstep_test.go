//go:build js && wasm

package report

import (
	"math"
	"testing"
)

// TestAtStep: a value read from bins of width step is shown to the power of
// ten at or below the step, no finer and no coarser.
func TestAtStep(t *testing.T) {
	for _, c := range []struct {
		x, step float64
		want    string
	}{
		{41.7312, 10, "40"}, {41.7312, 2.5, "42"}, {41.7312, 0.25, "41.7"}, {0.0371, 0.002, "0.037"},
		{1234567, 50000, "1230000"}, {-0.00001, 0.1, "0.0"}, {3, 0, "3"}, {math.NaN(), 1, "NaN"}, {2.5, math.Inf(1), "2.5"},
	} {
		if got := AtStep(c.x, c.step); got != c.want {
			t.Errorf("AtStep(%v, %v) = %q, want %q", c.x, c.step, got, c.want)
		}
	}
}

// TestInside: a quartile printed at its own step stays inside the printed
// range.
func TestInside(t *testing.T) {
	for _, c := range []struct{ v, lo, hi, want string }{{"260", "0", "256", "256"}, {"-3", "0", "10", "0"}, {"5", "0", "10", "5"}} {
		if got := inside(c.v, c.lo, c.hi); got != c.want {
			t.Errorf("inside(%s, [%s, %s]) = %s, want %s", c.v, c.lo, c.hi, got, c.want)
		}
	}
}
