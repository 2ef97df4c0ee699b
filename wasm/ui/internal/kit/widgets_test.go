//go:build js && wasm

package kit

import (
	"math"
	"testing"
)

// The page's pure helpers, run under node (GOOS=js GOARCH=wasm go test
// -exec go_js_wasm_exec): no DOM is touched.

// TestTimeLeft: the time left is the rate so far applied to the work left,
// said only once 2 % of the work and 1 s have passed.
func TestTimeLeft(t *testing.T) {
	for _, c := range []struct {
		elapsed, f, want float64
		ok               bool
	}{
		{10, 0.5, 10, true},
		{3, 0.25, 9, true},
		{30, 1, 0, true},
		{2, 0.01, 0, false},       // too little work done
		{0.5, 0.5, 0, false},      // too soon
		{5, math.NaN(), 0, false}, // no progress yet
	} {
		got, ok := timeLeft(c.elapsed, c.f)
		if ok != c.ok || math.Abs(got-c.want) > 1e-12 {
			t.Errorf("timeLeft(%g, %g) = %g, %v; want %g, %v", c.elapsed, c.f, got, ok, c.want, c.ok)
		}
	}
}
