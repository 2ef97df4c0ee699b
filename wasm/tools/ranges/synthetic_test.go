//go:build !js

package main

import (
	"testing"

	"github.com/dpsample/dpsample/core/dataset"
)

// The synthetic offset table is the same every run, 1000 rows of eight
// columns and a 0/1 label, every value inside its declared range (so that
// the model check's declared ranges clamp nothing), and its columns are
// narrow beside their distance from zero, as issue 52 asks of it (but the
// standardised score, centred on 0).
func TestSyntheticTable(t *testing.T) {
	text := syntheticCSV()
	if text != syntheticCSV() {
		t.Fatal("the synthetic table differs between two calls")
	}
	tb, err := dataset.Parse(text, dataset.Options{Target: "high", TargetType: dataset.TargetLabel, Positive: "1"})
	if err != nil {
		t.Fatal(err)
	}
	if len(tb.X) != syntheticRows || len(tb.Columns) != 8 {
		t.Fatalf("%d rows, columns %v", len(tb.X), tb.Columns)
	}
	ones := 0
	for _, y := range tb.Y {
		if y == 1 {
			ones++
		}
	}
	if ones < 300 || ones > 700 {
		t.Errorf("%d of %d labels are 1", ones, len(tb.Y))
	}
	for j, name := range tb.Columns {
		r, ok := syntheticOffsets.Ranges[name]
		if !ok {
			t.Fatalf("no declared range for %s", name)
		}
		lo, hi := tb.X[0][j], tb.X[0][j]
		for _, row := range tb.X {
			lo, hi = min(lo, row[j]), max(hi, row[j])
		}
		if lo < r.Lo || hi > r.Hi {
			t.Errorf("%s spans [%g, %g], outside its declared [%g, %g]", name, lo, hi, r.Lo, r.Hi)
		}
		if mid := (lo + hi) / 2; name != "score" && !(hi-lo < 1.2*max(mid, -mid)) {
			t.Errorf("%s spans [%g, %g]: not narrow beside its distance from zero", name, lo, hi)
		}
	}
}
