//go:build js && wasm && dpsample_hooks

package jsapi

import (
	"math"
	"strings"
	"testing"
)

// TestPanicIsRecovered: a Go panic inside an export becomes a rejection and
// the runtime keeps serving calls.
func TestPanicIsRecovered(t *testing.T) {
	_, err := await(t, call("_test.panic"))
	if !strings.Contains(err, "panic") {
		t.Fatalf("forced panic gave %q", err)
	}
	if v, err := await(t, call("privacy.delta", 1, 1)); err != "" || math.Abs(v.Float()-0.1269367375066439) > 1e-12 {
		t.Fatalf("call after panic: %v %q", v, err)
	}
}
