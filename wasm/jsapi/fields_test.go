//go:build js && wasm

package jsapi

import (
	"strings"
	"testing"
)

// TestEveryKnownFieldIsRead: the known-field lists come from the core
// types' json tags (jsio.Fields), so a field added to a core type is accepted
// at once; this test fails until the reader also reads (and validates) it:
// each field in turn is set to an object, which no field accepts, and the
// rejection must name that field.
func TestEveryKnownFieldIsRead(t *testing.T) {
	for _, tc := range []struct {
		path, prefix string
		fields       []string
		base         func(kv ...any) any
	}{
		{"mechanism.plan", "req.", requestFields, func(kv ...any) any { return goodReq(kv...) }},
		{"lowerbound.run", "opts.", lowerboundFields, func(kv ...any) any {
			return obj(append([]any{"n", 4, "xi", 0.1, "mechanism", "median", "trials", 1, "seed", 1}, kv...)...)
		}},
		{"demo.dimensionFree", "opts.", dimFreeFields, func(kv ...any) any { return obj(kv...) }},
	} {
		if len(tc.fields) == 0 {
			t.Fatalf("%s: no known fields", tc.path)
		}
		for _, f := range tc.fields {
			_, err := await(t, call(tc.path, tc.base(f, obj())))
			if !strings.HasPrefix(err, tc.prefix+f+" ") {
				t.Errorf("%s with %s = {}: rejection %q does not name %s%s", tc.path, f, err, tc.prefix, f)
			}
		}
	}
}
