//go:build !js

package main

import "testing"

// TestMoved: the old command lines of the moved modes are recognised in
// every flag spelling and sent to their command; the bench's own flags,
// including -study-results (which begins like -study), are not.
func TestMoved(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-ranges", "development"}, "wasm/tools/ranges"},
		{[]string{"-root", ".", "--ranges-model=development", "-ranges-model-splits", "3"}, "wasm/tools/ranges"},
		{[]string{"-categories-model"}, "wasm/tools/ranges"},
		{[]string{"-study", "docs/study/runs.jsonl", "-study-datasets", "diabetes"}, "wasm/tools/study"},
		{[]string{"-dpgd-schedule=development"}, "wasm/tools/study"},
		{[]string{"-compare-load", "a.wasm,b.wasm", "-loads", "3"}, "wasm/tools/compareload"},
		{[]string{"-render"}, ""},
		{[]string{"-study-results", "x.jsonl.gz", "-only", "study"}, ""},
		{[]string{"-root", "-ranges"}, "wasm/tools/ranges"}, // a value that looks like a flag is read as one
	} {
		got, ok := moved(c.args)
		if got != c.want || ok != (c.want != "") {
			t.Errorf("moved(%q) = %q, %v, want %q", c.args, got, ok, c.want)
		}
	}
}
