package mechanism

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/dpsample/dpsample/core/rng"
	"github.com/dpsample/dpsample/core/sampler/exact"
)

func repeatTo(pts []float64, n int) []float64 {
	out := make([]float64, n)
	for i := range out {
		out[i] = pts[i%len(pts)]
	}
	return out
}

// The curves are Algorithm 1's law at Calibrate's η, μ for loss l1 in d = 1:
// normalised (trapezoid over a grid holding all but e^−20 of the mass: 1e-4,
// the rule's error at the kinks), A = η/n, B = ημ/2, and LogRatio = ln(p/q).
func TestMedianCurves(t *testing.T) {
	pts := []float64{1, 2, 3, 3.5, 5, 7, 8}
	for _, n := range []int{7, 70} {
		in := MedianInput{Points: repeatTo(pts, n), Bound: 10, Epsilon: 1, Delta: 1e-5, Moved: 0, MovedTo: -10, Lo: -60, Hi: 60, Cells: 24000}
		c, err := Median(in)
		if err != nil {
			t.Fatal(err)
		}
		cal, _ := Calibrate(Calibration{N: n, D: 1, Rank: 1, G: 1, Radius: 10, Epsilon: 1, Delta: 1e-5, Exact: true})
		if c.Eta != cal.Eta || c.Mu != cal.Mu || c.GDP != cal.GDP {
			t.Errorf("n=%d: η, μ, s = %g, %g, %g; Calibrate gives %g, %g, %g", n, c.Eta, c.Mu, c.GDP, cal.Eta, cal.Mu, cal.GDP)
		}
		if math.Abs(c.A-cal.Eta/float64(n)) > 1e-15 || math.Abs(c.B-cal.Eta*cal.Mu/2) > 1e-15 {
			t.Errorf("n=%d: A, B = %g, %g; want η/n, ημ/2", n, c.A, c.B)
		}
		h := c.Theta[1] - c.Theta[0]
		var mp, mq float64
		for i := 1; i < len(c.Theta); i++ {
			mp += h * (c.Density[i] + c.Density[i-1]) / 2
			mq += h * (c.Neighbour[i] + c.Neighbour[i-1]) / 2
			if r := math.Log(c.Density[i] / c.Neighbour[i]); math.Abs(r-c.LogRatio[i]) > 1e-9 {
				t.Fatalf("n=%d θ=%g: LogRatio %g, ln(p/q) %g", n, c.Theta[i], c.LogRatio[i], r)
			}
		}
		largest := 0.0
		for _, r := range c.LogRatio {
			largest = math.Max(largest, math.Abs(r))
		}
		if math.Abs(largest-c.MaxLogRatio) > 1e-9 { // the grid reaches beyond both values of the moved row
			t.Errorf("n=%d: MaxLogRatio %g, largest on the grid %g", n, c.MaxLogRatio, largest)
		}
		if math.Abs(mp-1) > 1e-4 || math.Abs(mq-1) > 1e-4 {
			t.Errorf("n=%d: the curves integrate to %g and %g, want 1 ± 1e-4", n, mp, mq)
		}
	}
}

// deltaPair in closed form against quadrature of max(0, p − e^ε·q) (8000
// Gauss points split at the crossing's neighbourhood; tolerance 1e-6 absolute),
// for the paper's printed constants, where it is far from 0.
func TestMedianDeltaPairQuadrature(t *testing.T) {
	largest := 0.0
	for _, tc := range []struct {
		pts []float64
		mv  int
		to  float64
		eps float64
		n   int
	}{
		{[]float64{1, 2, 3, 3.5, 5, 7, 8}, 0, 10, 1, 7},
		{[]float64{1, 2, 3, 3.5, 5, 7, 8}, 6, -10, 1, 7},
		{[]float64{-4, 0, 9}, 1, 6, 0.5, 12},
		{[]float64{-4, 0, 9}, 2, -9, 2, 3},
	} {
		p := repeatTo(tc.pts, tc.n)
		eta, mu := PaperConstants(tc.n, 1, 1, 10, tc.eps, 1e-5)
		a, b := exact.L1Params(eta, mu, tc.n, 1)
		zp := slices.Sorted(slices.Values(p))
		q := slices.Clone(p)
		q[tc.mv] = tc.to
		zq := slices.Sorted(slices.Values(q))
		lp, lq := exact.L1LogNorm(zp, a, b), exact.L1LogNorm(zq, a, b)
		got := deltaPair(zp, zq, p[tc.mv], tc.to, a, b, lq-lp, tc.eps)
		const lo, hi, cells = -80.0, 80.0, 160000
		ref, h := 0.0, (hi-lo)/cells
		for i := 0; i < cells; i++ { // midpoint rule: the integrand is continuous, piecewise smooth
			x := lo + (float64(i)+0.5)*h
			ref += h * math.Max(0, math.Exp(exact.L1LogDensity(zp, a, b, x)-lp)-math.Exp(tc.eps+exact.L1LogDensity(zq, a, b, x)-lq))
		}
		if math.Abs(got-ref) > 1e-6 {
			t.Errorf("%+v: deltaPair = %.9g, quadrature %.9g", tc, got, ref)
		}
		largest = math.Max(largest, ref)
	}
	if largest < 1e-3 {
		t.Errorf("every case has δ ≈ 0 (largest %g): the comparison tests nothing", largest)
	}
}

// The guarantee, pair by pair: for every row moved anywhere in the public
// range, in both directions, DeltaPair ≤ δ_s(ε) ≤ δ. The broken calibration
// (the paper's printed μ = 8ηG²/(n²ε²)) must fail the same check.
func TestMedianPairsWithinDelta(t *testing.T) {
	const delta = 1e-5
	pts := []float64{1, 2, 3, 3.5, 5, 7, 8}
	worstPaper := 0.0
	for _, eps := range []float64{0.5, 1, 2} {
		for _, n := range []int{2, 7, 50} {
			p := repeatTo(pts, n)
			for mv := 0; mv < min(n, len(pts)); mv++ {
				for _, to := range []float64{-10, -3, 0, 4.5, 10} {
					c, err := Median(MedianInput{Points: p, Bound: 10, Epsilon: eps, Delta: delta, Moved: mv, MovedTo: to, Lo: -1, Hi: 1, Cells: 2})
					if err != nil {
						t.Fatal(err)
					}
					// the other direction: D′ → D
					q := slices.Clone(p)
					q[mv] = to
					back, err := Median(MedianInput{Points: q, Bound: 10, Epsilon: eps, Delta: delta, Moved: mv, MovedTo: p[mv], Lo: -1, Hi: 1, Cells: 2})
					if err != nil {
						t.Fatal(err)
					}
					bound := c.GDPDelta(eps)
					if bound > delta*(1+1e-9) {
						t.Fatalf("ε=%g n=%d: δ_s(ε) = %g > δ", eps, n, bound)
					}
					for _, d := range []float64{c.DeltaPair, back.DeltaPair} {
						if d > bound*(1+1e-9) {
							t.Errorf("ε=%g n=%d row %d → %g: DeltaPair %g > δ_s(ε) = %g", eps, n, mv, to, d, bound)
						}
					}
					eta, mu := PaperConstants(n, 1, 1, 10, eps, delta)
					a, b := exact.L1Params(eta, mu, n, 1)
					zp, zq := slices.Sorted(slices.Values(p)), slices.Sorted(slices.Values(q))
					dl := exact.L1LogNorm(zq, a, b) - exact.L1LogNorm(zp, a, b)
					worstPaper = math.Max(worstPaper, math.Max(deltaPair(zp, zq, p[mv], to, a, b, dl, eps), deltaPair(zq, zp, to, p[mv], a, b, -dl, eps)))
				}
			}
		}
	}
	if worstPaper <= delta {
		t.Errorf("the paper's constants pass the check (worst pair δ = %g ≤ %g): the check cannot fail", worstPaper, delta)
	}
}

// Draw samples the plotted curve: a KS test of 4000 draws against the CDF
// integrated (trapezoid) from Density, at a false-failure rate of 10⁻³
// (critical value 1.949/√m); the same test must reject draws from a law with
// B × 4 (a deliberately broken sampler).
func TestMedianDrawMatchesCurve(t *testing.T) {
	const m = 4000
	crit := math.Sqrt(-math.Log(1e-3/2)/2) / math.Sqrt(m)
	for _, n := range []int{7, 70} {
		c, err := Median(MedianInput{Points: repeatTo([]float64{1, 2, 3, 3.5, 5, 7, 8}, n), Bound: 10, Epsilon: 1, Delta: 1e-5,
			Moved: 0, MovedTo: 10, Lo: -60, Hi: 60, Cells: 24000})
		if err != nil {
			t.Fatal(err)
		}
		cdf := make([]float64, len(c.Theta))
		for i := 1; i < len(cdf); i++ {
			cdf[i] = cdf[i-1] + (c.Theta[i]-c.Theta[i-1])*(c.Density[i]+c.Density[i-1])/2
		}
		ks := func(x []float64) float64 {
			slices.Sort(x)
			d := 0.0
			for i, v := range x {
				j := min(max(0, int((v-c.Theta[0])/(c.Theta[1]-c.Theta[0]))), len(cdf)-2)
				f := cdf[j] + (cdf[j+1]-cdf[j])*(v-c.Theta[j])/(c.Theta[j+1]-c.Theta[j])
				d = math.Max(d, math.Max(math.Abs(float64(i+1)/m-f), math.Abs(f-float64(i)/m)))
			}
			return d
		}
		if d := ks(c.Draw(rng.Seeded(uint64(n)), m)); d > crit {
			t.Errorf("n=%d: KS distance %.4f > %.4f", n, d, crit)
		}
		broken := c
		broken.B *= 4
		if d := ks(broken.Draw(rng.Seeded(uint64(n)), m)); d <= crit {
			t.Errorf("n=%d: a sampler with B × 4 passes (KS %.4f ≤ %.4f)", n, d, crit)
		}
	}
}

func TestMedianErrors(t *testing.T) {
	ok := MedianInput{Points: []float64{1, 2, 3}, Bound: 10, Epsilon: 1, Delta: 1e-5, Moved: 0, MovedTo: 5, Lo: -15, Hi: 15, Cells: 100}
	for _, tc := range []struct {
		field string
		edit  func(*MedianInput)
	}{
		{"bound", func(in *MedianInput) { in.Bound = 0 }},
		{"points", func(in *MedianInput) { in.Points = []float64{1} }},
		{"points[1]", func(in *MedianInput) { in.Points = []float64{1, math.NaN(), 2} }},
		{"moved", func(in *MedianInput) { in.Moved = 3 }},
		{"movedTo", func(in *MedianInput) { in.MovedTo = 11 }},
		{"hi", func(in *MedianInput) { in.Hi = in.Lo }},
		{"cells", func(in *MedianInput) { in.Cells = 1 }},
		{"epsilon", func(in *MedianInput) { in.Epsilon = -1 }},
		{"delta", func(in *MedianInput) { in.Delta = 0.5 }},
	} {
		in := ok
		in.Points = slices.Clone(ok.Points)
		tc.edit(&in)
		_, err := Median(in)
		if err == nil || !strings.HasPrefix(err.Error(), tc.field+" ") {
			t.Errorf("%s: error %v, want one naming %q", tc.field, err, tc.field)
		}
	}
	// A point outside the public range is clamped, not an error: whether
	// the call fails does not depend on one row.
	in := ok
	in.Points = []float64{1, 2, 300}
	c, err := Median(in)
	if err != nil || c.Clamped != 1 {
		t.Errorf("a point at 300 with bound 10: err %v, clamped %d; want nil, 1", err, c.Clamped)
	}
	in.Points = []float64{1, 2, 10}
	c2, _ := Median(in)
	for i := range c.Density {
		if c.Density[i] != c2.Density[i] {
			t.Fatal("the clamped table's curve differs from the table with the point at the bound")
		}
	}
}

// With Lo = Hi = 0 the grid holds both laws but for 0.1 % on either side.
func TestMedianAutoRange(t *testing.T) {
	for _, n := range []int{7, 500} {
		p := repeatTo([]float64{1, 2, 3, 3.5, 5, 7, 8}, n)
		q := slices.Clone(p)
		q[6] = -10
		c, err := Median(MedianInput{Points: p, Bound: 10, Epsilon: 1, Delta: 1e-5, Moved: 6, MovedTo: -10, Cells: 400})
		if err != nil {
			t.Fatal(err)
		}
		// At n = 500 the law is a few units wide: the grid follows it, not ±(Bound + …).
		if w := c.Theta[len(c.Theta)-1] - c.Theta[0]; n == 500 && w > 8 {
			t.Errorf("n=500: grid %g wide, want < 8", w)
		}
		lo, hi := c.Theta[0], c.Theta[len(c.Theta)-1]
		for _, z := range [][]float64{slices.Sorted(slices.Values(p)), slices.Sorted(slices.Values(q))} {
			if f := exact.L1CDF(z, c.A, c.B, lo); f > 1e-3 {
				t.Errorf("n=%d: %g of the law below the grid's start %g", n, f, lo)
			}
			if f := 1 - exact.L1CDF(z, c.A, c.B, hi); f > 1e-3 {
				t.Errorf("n=%d: %g of the law above the grid's end %g", n, f, hi)
			}
		}
	}
}
