package mechanism

import (
	"context"
	"encoding/json"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/dpsample/dpsample/core/dataset"
	"github.com/dpsample/dpsample/core/loss"
	"github.com/dpsample/dpsample/core/sampler/exact"
	"github.com/dpsample/dpsample/core/stats"
)

// numCDF returns the CDF of the 1-D density ∝ exp(−η(L(θ; D) + μ/2·θ²)) for
// the (already domain-clamped) data x, y, by the trapezoid rule on 2·10⁴
// cells over a window where the log density is within 60 of its maximum.
// It is independent of every sampler.
func numCDF(t *testing.T, k loss.Kind, x [][]float64, y []float64, eta, mu float64) func(float64) float64 {
	t.Helper()
	set, err := loss.New(k, x, y, loss.Params{})
	if err != nil {
		t.Fatal(err)
	}
	th := []float64{0}
	logp := func(v float64) float64 { th[0] = v; return -eta * (set.Mean(th) + mu/2*v*v) }
	sd := 1 / math.Sqrt(eta*mu)
	reach := set.G()/mu + 40*sd
	// Coarse scan for the maximum, then the window where logp ≥ max − 60.
	best, bx := math.Inf(-1), 0.0
	for i := 0; i <= 4000; i++ {
		v := -reach + 2*reach*float64(i)/4000
		if l := logp(v); l > best {
			best, bx = l, v
		}
	}
	lo, hi := bx, bx
	for step := sd / 16; logp(lo) > best-60; lo -= step {
	}
	for step := sd / 16; logp(hi) > best-60; hi += step {
	}
	const cells = 20000
	h := (hi - lo) / cells
	cum := make([]float64, cells+1)
	prev := math.Exp(logp(lo) - best)
	for i := 1; i <= cells; i++ {
		cur := math.Exp(logp(lo+float64(i)*h) - best)
		cum[i] = cum[i-1] + h*(prev+cur)/2
		prev = cur
	}
	total := cum[cells]
	return func(v float64) float64 {
		switch {
		case v <= lo:
			return 0
		case v >= hi:
			return 1
		}
		f := (v - lo) / h
		i := int(f)
		if i >= cells {
			return 1
		}
		return (cum[i] + (f-float64(i))*(cum[i+1]-cum[i])) / total
	}
}

// ladData is the LAD example: n = 20, d = 1, x_i = 1, targets in
// [−0.8, 0.8] and the last one replaced by big.
func ladData(big float64) ([][]float64, []float64) {
	x := make([][]float64, 20)
	y := make([]float64, 20)
	for i := range x {
		x[i] = []float64{1}
		y[i] = 0.5 + 0.4*math.Sin(float64(i))
	}
	y[19] = big
	return x, y
}

// TestLADHugeTargetFullMode (issue 13, item 1): LAD, n = 20, mode "full", one
// y = 1e300. On main the huge term absorbed every other record and the
// samples came out ≈ N(0, ·) (KS far above the critical value); with the
// target domain [−1, 1] (the default) y is clamped to 1 first and the samples
// follow the clamped-domain law. KS at α = 0.001 against numCDF of the clamped
// data, for the proximal sampler in mode "full" and for the exact 1-D
// sampler.
func TestLADHugeTargetFullMode(t *testing.T) {
	x, y := ladData(1e300)
	_, yc := ladData(1) // the clamped data
	// ε = 1: the proximal sampler takes ≈ 8.5·10³ steps per sample.
	for _, s := range []struct {
		sampler Sampler
		mode    string
		m       int
	}{{"proximal", "full", 300}, {"exact", "", 400}} {
		m := s.m
		// m independent single-sample requests (m samples in one request
		// would compose and flatten the law).
		xs := make([]float64, m)
		var pl Plan
		var err error
		for k := range xs {
			req := Request{Loss: "lad", X: x, Y: y, Epsilon: 1, Delta: 1e-5, Radius: 1,
				Sampler: s.sampler, Mode: s.mode, Seed: seed(uint64(1300 + k))}
			var res Result
			if res, err = Sample(context.Background(), req, nil); err != nil {
				break
			}
			xs[k], pl = res.Theta[0], res.Plan
		}
		if err != nil {
			t.Errorf("%s: %v", s.sampler, err)
			continue
		}
		cdf := numCDF(t, loss.LAD, x, yc, pl.Eta, pl.Mu)
		if d := stats.KS(xs, cdf); d > ksCrit(m) {
			mean, sd := meanSD(xs)
			t.Errorf("%s %s: KS %.4f > %.4f against the clamped-domain law (samples: mean %.3f, sd %.3f)", s.sampler, s.mode, d, ksCrit(m), mean, sd)
		}
	}
}

// TestL1FarPointMechanism (issue 13, item 1): l1 with n ≥ 16 and one point at
// 1e16 hung on main (exact.l1Reject); with the point box [−1, 1] (default)
// it is clamped to 1 and the samples follow the clamped-domain law (KS,
// α = 0.001, against exact.L1CDF of the clamped column). n = 8 exercises the
// mixture path.
func TestL1FarPointMechanism(t *testing.T) {
	const m = 2000
	for _, n := range []int{20, 8} {
		z := make([]float64, n)
		zc := make([]float64, n)
		for i := range z {
			z[i] = 0.9 * math.Sin(float64(2*i+1))
			zc[i] = z[i]
		}
		z[n-1], zc[n-1] = 1e300, 1
		req := Request{Loss: "l1", X: column(z), Epsilon: 1, Delta: 1e-5, Radius: 2, Samples: m, Seed: seed(16)}
		res, err := Sample(context.Background(), req, nil)
		if err != nil {
			t.Fatal(err)
		}
		a, b := exact.L1Params(res.Plan.Eta, res.Plan.Mu, n, 1)
		sorted := slices.Clone(zc)
		xs := make([]float64, m)
		for i, v := range res.Samples {
			xs[i] = v[0]
		}
		slices.Sort(sorted)
		if d := stats.KS(xs, func(v float64) float64 { return exact.L1CDF(sorted, a, b, v) }); d > ksCrit(m) {
			t.Errorf("n=%d: KS %.4f > %.4f against the clamped-domain law", n, d, ksCrit(m))
		}
	}
}

// TestExtremeErrorsAreNeighbourFree (issue 13, item 1): l2dist with a point
// (1e200, 0) and LAD with y = 1e308 returned errors on main while the
// neighbouring dataset with that record replaced by a benign one did not.
// Both must now give a sample (the same kind of result).
func TestExtremeErrorsAreNeighbourFree(t *testing.T) {
	pts := [][]float64{{0.1, 0.2}, {-0.3, 0.5}, {0.7, -0.1}, {0, 0}, {1e200, 0}}
	benign := [][]float64{{0.1, 0.2}, {-0.3, 0.5}, {0.7, -0.1}, {0, 0}, {0.5, 0}}
	xl, yl := ladData(1e308)
	_, yb := ladData(0.5)
	for _, c := range []struct {
		name    string
		a, b    Request
		sampler Sampler
	}{
		{"l2dist z=(1e200,0)", Request{Loss: "l2dist", X: pts}, Request{Loss: "l2dist", X: benign}, ""},
		{"lad y=1e308", Request{Loss: "lad", X: xl, Y: yl}, Request{Loss: "lad", X: xl, Y: yb}, ""},
		{"lad y=1e308 full", Request{Loss: "lad", X: xl, Y: yl, Mode: "full", Sampler: "proximal"}, Request{Loss: "lad", X: xl, Y: yb, Mode: "full", Sampler: "proximal"}, ""},
	} {
		for _, r := range []*Request{&c.a, &c.b} {
			r.Epsilon, r.Delta, r.Radius, r.Seed = 1, 1e-5, 2, seed(5)
		}
		ra, ea := Sample(context.Background(), c.a, nil)
		rb, eb := Sample(context.Background(), c.b, nil)
		if (ea == nil) != (eb == nil) {
			t.Errorf("%s: error %v, neighbour's %v", c.name, ea, eb)
			continue
		}
		if ea != nil {
			t.Errorf("%s: both fail: %v", c.name, ea)
			continue
		}
		for _, v := range append(ra.Theta, rb.Theta...) {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				t.Errorf("%s: θ %v / %v not finite", c.name, ra.Theta, rb.Theta)
			}
		}
	}
}

// TestStatsArePublic (issue 13, item 2): the "stats" of the released result
// hold no data-dependent counters or timings (trials, loss evaluations,
// seconds); on main they did.
func TestStatsArePublic(t *testing.T) {
	req := goodRequest()
	req.Sampler, req.Seed = "proximal", seed(1)
	res, err := Sample(context.Background(), req, nil)
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(res.Stats)
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"trials", "lossEvals", "seconds"} {
		if strings.Contains(string(b), `"`+k+`"`) {
			t.Errorf("stats %s carries the data-dependent %q", b, k)
		}
	}
}

func meanSD(xs []float64) (float64, float64) {
	m, v := 0.0, 0.0
	for _, x := range xs {
		m += x
	}
	m /= float64(len(xs))
	for _, x := range xs {
		v += (x - m) * (x - m)
	}
	return m, math.Sqrt(v / float64(len(xs)-1))
}

// TestReleaseOmitsDiagnostics: the private part of a result marshals
// without the diagnostics and the non-private fit, and the diagnostics carry
// the counters, the clamp counts and the private:false label.
func TestReleaseOmitsDiagnostics(t *testing.T) {
	x, y := ladData(1e300)
	y[3] = -7
	res, err := Sample(context.Background(), Request{Loss: "lad", X: x, Y: y, Epsilon: 1, Delta: 1e-5, Radius: 1, Sampler: "proximal", Seed: seed(2)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(res.Release())
	for _, k := range []string{"diagnostics", "fit", "trials", "lossEvals", "seconds", "clamped"} {
		if strings.Contains(string(b), k) {
			t.Errorf("release carries %q: %s", k, b)
		}
	}
	d := res.Diagnostics
	if d.Private || d.ClampedTargets != 2 || d.Trials <= 0 || d.LossEvals <= 0 || d.Seconds <= 0 {
		t.Errorf("diagnostics %+v", d)
	}
	if res.Stats != (Stats{Steps: int64(res.Plan.Steps), Samples: 1}) {
		t.Errorf("stats %+v, plan steps %d", res.Stats, res.Plan.Steps)
	}
	if !slices.Equal(res.Plan.TargetRange, []float64{-1, 1}) || res.Plan.PointBox != nil {
		t.Errorf("plan domain %v %v", res.Plan.TargetRange, res.Plan.PointBox)
	}
}

// TestDomainValidation: declared bounds are validated in one place and the
// errors name the field; a declared box is used as given.
func TestDomainValidation(t *testing.T) {
	x, y := ladData(3)
	pts := [][]float64{{0, 5}, {2, -9}, {0.1, 0.1}}
	for _, c := range []struct {
		req   Request
		field string
	}{
		{Request{Loss: "lad", X: x, Y: y, TargetRange: []float64{1}}, "targetRange"},
		{Request{Loss: "lad", X: x, Y: y, TargetRange: []float64{1, 1}}, "targetRange"},
		{Request{Loss: "lad", X: x, Y: y, TargetRange: []float64{math.NaN(), 1}}, "targetRange[0]"},
		{Request{Loss: "lad", X: x, Y: y, TargetRange: []float64{0, 1e10}}, "targetRange[1]"},
		{Request{Loss: "lad", X: x, Y: y, PointBox: []float64{0, 1}}, "pointBox"},
		{Request{Loss: "hinge", X: x, Y: y, TargetRange: []float64{0, 1}}, "targetRange"},
		{Request{Loss: "l1", X: pts, PointBox: []float64{2, -2}}, "pointBox"},
		{Request{Loss: "l2dist", X: pts, TargetRange: []float64{0, 1}}, "targetRange"},
	} {
		c.req.Epsilon, c.req.Delta, c.req.Radius = 1, 1e-5, 1
		_, err := NewPlan(c.req)
		if err == nil || !strings.HasPrefix(err.Error(), c.field+" ") {
			t.Errorf("%s %v/%v: error %v, want one naming %q", c.req.Loss, c.req.TargetRange, c.req.PointBox, err, c.field)
		}
	}
	res, err := Sample(context.Background(), Request{Loss: "l1", X: pts, PointBox: []float64{-3, 3}, Epsilon: 1, Delta: 1e-5, Radius: 1, Seed: seed(1)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Diagnostics.ClampedPoints != 2 || !slices.Equal(res.Plan.PointBox, []float64{-3, 3}) {
		t.Errorf("clamped %d, box %v", res.Diagnostics.ClampedPoints, res.Plan.PointBox)
	}
}

// TestHugeTargetCellLikeClampedNeighbour (issue 21 item 6): a target cell of
// ±10³⁰⁸ (and ±MaxFloat64) in a CSV, scaled through its declared range the
// page's way (dataset.Range.ToScaled, then targetRange [−1, 1] in the
// mechanism), gives — same seed — the sample of its clamped neighbour, the
// table with that cell at the range's end. On main 2x overflowed to +Inf
// first and the call failed with "y[5] must be a finite number, got +Inf".
func TestHugeTargetCellLikeClampedNeighbour(t *testing.T) {
	xr, yr := dataset.Range{Lo: 0, Hi: 10}, dataset.Range{Lo: -50, Hi: 150}
	run := func(cell string) []float64 {
		t.Helper()
		text := "x,y\n1,20\n2,40\n3,-10\n4,70\n5,90\n6," + cell + "\n7,60\n8,100\n"
		tab, err := dataset.Parse(text, dataset.Options{Target: "y", TargetType: dataset.TargetNumeric})
		if err != nil {
			t.Fatal(err)
		}
		if err := tab.Scale(map[string]dataset.Range{"x": xr}); err != nil {
			t.Fatal(err)
		}
		y := make([]float64, len(tab.Y))
		for i, v := range tab.Y {
			y[i] = yr.ToScaled(v)
		}
		res, err := Sample(context.Background(), Request{Loss: "huber", X: tab.X, Y: y, TargetRange: []float64{-1, 1},
			Epsilon: 1, Delta: 1e-3, Radius: 2, Seed: seed(9)}, nil)
		if err != nil {
			t.Fatalf("cell %s: %v", cell, err)
		}
		return res.Theta
	}
	for _, c := range []struct{ cell, neighbour string }{
		{"1e308", "150"}, {"-1e308", "-50"}, {"1.7976931348623157e308", "150"}, {"-1.7976931348623157e308", "-50"}, {"1e20", "150"},
	} {
		got, want := run(c.cell), run(c.neighbour)
		if !slices.Equal(got, want) {
			t.Errorf("target cell %s: θ = %v, its clamped neighbour (%s) gives %v", c.cell, got, c.neighbour, want)
		}
	}
}
