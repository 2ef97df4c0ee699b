package dataset

import (
	"math"
	"os"
	"testing"
)

func TestScale(t *testing.T) {
	tab := &Table{Columns: []string{"a"}, X: [][]float64{{0}, {5}, {10}, {20}, {-3}}}
	if err := tab.Scale(map[string]Range{"a": {0, 10}}); err != nil {
		t.Fatal(err)
	}
	want := []float64{-1, 0, 1, 1, -1}
	for i, w := range want {
		if math.Abs(tab.X[i][0]-w) > 1e-15 {
			t.Errorf("row %d: %g, want %g", i, tab.X[i][0], w)
		}
	}
	for _, bad := range []map[string]Range{{}, {"a": {1, 1}}, {"a": {math.NaN(), 1}}, {"a": {0, math.Inf(1)}}} {
		if err := tab.Scale(bad); err == nil {
			t.Errorf("Scale(%v): no error", bad)
		}
	}
}

// TestBuiltinRanges: every feature of the shipped datasets has a declared
// range, and the ranges are wide enough that (almost) no value is clamped.
func TestBuiltinRanges(t *testing.T) {
	for _, tc := range []struct {
		file, target string
		features     []string
		ranges       map[string]Range
	}{
		{"palmer-penguins.csv", "sex", []string{"beak_length_mm", "beak_depth_mm", "flipper_length_mm", "body_mass_g"}, PenguinRanges},
		{"breast-cancer-wisconsin.csv", "malignant", nil, BreastCancerRanges},
	} {
		b, err := os.ReadFile("../../site/data/" + tc.file)
		if err != nil {
			t.Fatal(err)
		}
		tab, err := Parse(string(b), Options{Target: tc.target, Features: tc.features, Drop: "missing"})
		if err != nil {
			t.Fatal(err)
		}
		clamped := 0
		for _, r := range tab.X {
			for j, v := range r {
				if rg := tc.ranges[tab.Columns[j]]; v < rg.Lo || v > rg.Hi {
					clamped++
				}
			}
		}
		if err := tab.Scale(tc.ranges); err != nil {
			t.Fatal(err)
		}
		for _, r := range tab.X {
			for _, v := range r {
				if math.Abs(v) > 1 {
					t.Fatalf("%s: scaled value %g outside [-1, 1]", tc.file, v)
				}
			}
		}
		if clamped > 0 {
			t.Errorf("%s: %d values outside their declared range", tc.file, clamped)
		}
	}
}
