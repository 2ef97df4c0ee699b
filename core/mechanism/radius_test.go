package mechanism

import (
	"math"
	"strings"
	"testing"

	"github.com/dpsample/dpsample/core/loss"
)

func TestDefaultRadius(t *testing.T) {
	for _, c := range []struct {
		kind loss.Kind
		clip float64
		box  []float64
		want float64
	}{
		{loss.Logistic, 1, nil, 16},
		{loss.Hinge, 2, nil, 8},
		{loss.SmoothHinge, math.Sqrt(5), nil, 16 / math.Sqrt(5)}, // the page: clip = √dim
		{loss.LAD, 1, nil, 1},
		{loss.Huber, 3, []float64{-10, 5}, 10.0 / 3},
		{loss.SmoothQuantile, 2, []float64{0, 1}, 0.5},
		{loss.L1, 1, nil, 1.5},
		{loss.L2Dist, 7, []float64{-2, 2}, 3}, // a centre does not grow with the clip
		{loss.Linear, 1, nil, 1.5},
		{loss.Logistic, 0, nil, 16}, // clip unset: the loss's default, 1
	} {
		if got := DefaultRadius(c.kind, c.clip, c.box); math.Abs(got-c.want) > 1e-15*c.want {
			t.Errorf("DefaultRadius(%v, %g, %v) = %g, want %g", c.kind, c.clip, c.box, got, c.want)
		}
	}
}

// TestPlanDefaultRadius: a request without radius is planned at
// DefaultRadius of its public inputs, says so in why, and equals the same
// request with that radius given.
func TestPlanDefaultRadius(t *testing.T) {
	x := [][]float64{{0.1, 0.2}, {-0.3, 0.4}, {0.5, -0.6}, {0.7, 0.1}}
	for _, req := range []Request{
		{Loss: "logistic", X: x, Y: []float64{1, -1, 1, -1}, Epsilon: 1, Delta: 1e-3, Clip: 2},
		{Loss: "huber", X: x, Y: []float64{3, -1, 2, 0}, Epsilon: 1, Delta: 1e-3, TargetRange: []float64{-4, 4}},
		{Loss: "l2dist", X: x, Epsilon: 1, Delta: 1e-3, PointBox: []float64{-3, 2}},
	} {
		pl, err := NewPlan(req)
		if err != nil {
			t.Fatalf("%s: %v", req.Loss, err)
		}
		k, _ := loss.ParseKind(req.Loss)
		dom := req.TargetRange
		if k.Location() {
			dom = req.PointBox
		}
		want := DefaultRadius(k, pl.Clip, dom)
		if pl.Radius != want || !strings.Contains(pl.Why, "DefaultRadius") {
			t.Errorf("%s: radius %g (want %g), why %q", req.Loss, pl.Radius, want, pl.Why)
		}
		req.Radius = want
		given, err := NewPlan(req)
		if err != nil {
			t.Fatal(err)
		}
		if given.Eta != pl.Eta || given.Mu != pl.Mu || strings.Contains(given.Why, "DefaultRadius") {
			t.Errorf("%s: given radius plans η=%g μ=%g, default %g %g; why %q", req.Loss, given.Eta, given.Mu, pl.Eta, pl.Mu, given.Why)
		}
	}
}
