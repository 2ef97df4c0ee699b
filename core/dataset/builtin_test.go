package dataset

import (
	"os"
	"path/filepath"
	"testing"
)

// TestBuiltins: every shipped dataset parses with its options, has a
// declared range for each feature it yields, and scales.
func TestBuiltins(t *testing.T) {
	for _, b := range Builtins {
		if got, ok := LookupBuiltin(b.Key); !ok || got.File != b.File {
			t.Fatalf("LookupBuiltin(%q) = %v, %v", b.Key, got, ok)
		}
		text, err := os.ReadFile(filepath.Join("..", "..", "site", "data", b.File))
		if err != nil {
			t.Fatal(err)
		}
		tab, err := Parse(string(text), b.Options())
		if err != nil {
			t.Fatalf("%s: %v", b.Key, err)
		}
		for _, c := range tab.Columns {
			if _, ok := b.Ranges[c]; !ok {
				t.Errorf("%s: feature %q has no declared range", b.Key, c)
			}
		}
		if err := tab.Scale(b.Ranges); err != nil {
			t.Errorf("%s: Scale: %v", b.Key, err)
		}
		if tab.Coding != CodingPositive || tab.Mapping[b.Positive] != 1 {
			t.Errorf("%s: target %q coded %q %v, want %q → +1 declared", b.Key, b.Target, tab.Coding, tab.Mapping, b.Positive)
		}
		var pos, neg int
		for _, y := range tab.Y {
			switch y {
			case 1:
				pos++
			case -1:
				neg++
			default:
				t.Fatalf("%s: label %v is not ±1", b.Key, y)
			}
		}
		if pos == 0 || neg == 0 {
			t.Errorf("%s: %d positive and %d negative rows: the declared positive label %q matches no row or every row", b.Key, pos, neg, b.Positive)
		}
	}
	if _, ok := LookupBuiltin("nope"); ok {
		t.Error(`LookupBuiltin("nope") found something`)
	}
}
