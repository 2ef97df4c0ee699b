//go:build !js

package utility

import "testing"

func TestPM(t *testing.T) {
	for _, c := range []struct {
		m, s float64
		want string
	}{{1.11e-16, 0, "0 ± 0"}, {0.0383, 0.0121, "0.0383 ± 0.0121"}, {-2e-13, 3e-14, "0 ± 0"}} {
		if got := PM(c.m, c.s); got != c.want {
			t.Errorf("pm(%g, %g) = %q, want %q", c.m, c.s, got, c.want)
		}
	}
}
