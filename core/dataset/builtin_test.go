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
		if len(tab.Mapping) != 2 {
			t.Errorf("%s: target %q is not binary: %v", b.Key, b.Target, tab.Mapping)
		}
	}
	if _, ok := LookupBuiltin("nope"); ok {
		t.Error(`LookupBuiltin("nope") found something`)
	}
}
