package plot

import (
	"math"
	"strings"
	"testing"
)

// TestContoursCircle: the level sets of z = x² + y² are circles; every
// contour point must lie on the circle of radius √level up to the grid's
// linear-interpolation error (≤ h²/(4r) for spacing h, plus slack).
func TestContoursCircle(t *testing.T) {
	const m = 41
	xs := make([]float64, m)
	for i := range xs {
		xs[i] = -2 + 4*float64(i)/(m-1)
	}
	h := xs[1] - xs[0]
	z := make([][]float64, m)
	for i := range z {
		z[i] = make([]float64, m)
		for j := range z[i] {
			z[i][j] = xs[j]*xs[j] + xs[i]*xs[i]
		}
	}
	levels := []float64{0.25, 1, 2.25}
	cs := Contours(xs, xs, z, levels, "#999")
	if len(cs) != len(levels) {
		t.Fatalf("%d series, want %d", len(cs), len(levels))
	}
	for k, s := range cs {
		r := math.Sqrt(levels[k])
		pts := 0
		for i := range s.X {
			if math.IsNaN(s.X[i]) {
				continue
			}
			pts++
			if got := math.Hypot(s.X[i], s.Y[i]); math.Abs(got-r) > h*h/r+1e-12 {
				t.Errorf("level %g: point at radius %g, want %g ± %g", levels[k], got, r, h*h/r)
			}
		}
		// A circle of radius r crosses about 4·(2r/h)·… cells; at least 2πr/h points.
		if float64(pts) < 2*math.Pi*r/h {
			t.Errorf("level %g: only %d points", levels[k], pts)
		}
	}
	svg := (&Plot{Title: "c", Series: cs}).SVG()
	if !strings.Contains(svg, "polyline") {
		t.Error("contours are not drawn")
	}
	// A level outside the range gives no points.
	if s := Contours(xs, xs, z, []float64{100}, "")[0]; len(s.X) != 0 {
		t.Errorf("level above the max produced %d points", len(s.X))
	}
}
