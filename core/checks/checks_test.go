package checks

import (
	"math"
	"testing"
)

func TestMessages(t *testing.T) {
	negZero := math.Copysign(0, -1)
	cases := []struct {
		err  error
		want string
	}{
		{Epsilon("epsilon", math.NaN()), "epsilon must be a finite number > 0, got NaN"},
		{Epsilon("epsilon", 0), "epsilon must be a finite number > 0, got 0"},
		{Epsilon("epsilon", negZero), "epsilon must be a finite number > 0, got -0"},
		{Epsilon("epsilon", math.Inf(1)), "epsilon must be a finite number > 0, got +Inf"},
		{Delta("delta", 1), "delta must be a number in (0, 1), got 1"},
		{Delta("delta", math.Inf(-1)), "delta must be a number in (0, 1), got -Inf"},
		{NonNegative("s", negZero), "s must be a finite number ≥ 0, got -0"},
		{InRange("tau", 2, 0, 1), "tau must be a finite number in [0, 1], got 2"},
		{IntRange("rank", 0, 1, 5), "rank must be an integer in [1, 5], got 0"},
		{Vector("y", []float64{1}, 2), "y must be an array of length 2, got length 1"},
		{Vector("y", []float64{1, math.NaN()}, 2), "y[1] must be a finite number, got NaN"},
	}
	for _, c := range cases {
		if c.err == nil || c.err.Error() != c.want {
			t.Errorf("got %v, want %q", c.err, c.want)
		}
	}
	for _, ok := range []error{Epsilon("e", 1e-300), Delta("d", 0.5), NonNegative("s", 0), Finite("x", -3), InRange("t", 0, 0, 1)} {
		if ok != nil {
			t.Errorf("valid value rejected: %v", ok)
		}
	}
}

func TestMatrix(t *testing.T) {
	if _, _, err := Matrix("x", nil); err == nil || err.Error() != "x must be a non-empty array of rows" {
		t.Errorf("empty: %v", err)
	}
	if _, _, err := Matrix("x", [][]float64{{1, 2}, {3}}); err == nil || err.Error() != "x[1] must be a row of length 2 like x[0] (ragged rows), got length 1" {
		t.Errorf("ragged: %v", err)
	}
	if _, _, err := Matrix("x", [][]float64{{1, 2}, {3, math.Inf(1)}}); err == nil || err.Error() != "x[1][1] must be a finite number, got +Inf" {
		t.Errorf("inf: %v", err)
	}
	if n, d, err := Matrix("x", [][]float64{{1, 2}, {3, 4}, {5, 6}}); err != nil || n != 3 || d != 2 {
		t.Errorf("valid: %d %d %v", n, d, err)
	}
}

func TestFirst(t *testing.T) {
	if err := First(nil, Epsilon("epsilon", 0), Delta("delta", 2)); err == nil || err.Error() != "epsilon must be a finite number > 0, got 0" {
		t.Errorf("First: %v", err)
	}
	if err := First(nil, nil); err != nil {
		t.Errorf("First of nils: %v", err)
	}
}
