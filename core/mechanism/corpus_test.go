package mechanism

import (
	"context"
	"math"
	"slices"
	"testing"

	"github.com/dpsample/dpsample/core/loss"
	"github.com/dpsample/dpsample/core/stats"
)

// corpus are the floating-point extremes of issue 13: huge, 1e16, subnormal,
// −0, the domain edges and just outside them.
var corpus = []float64{
	math.MaxFloat64, -math.MaxFloat64, 1e308, -1e308, 1e200, 1e16, -1e16,
	5e-324, -5e-324, 2.2250738585072014e-308, math.Copysign(0, -1),
	1, -1, math.Nextafter(1, 2), math.Nextafter(-1, -2),
}

// corpusRequest returns n = 6 records in dimension d for loss k with the
// value v placed in record 0 (its first coordinate, and its target for the
// regression losses).
func corpusRequest(k loss.Kind, d int, v float64) Request {
	const n = 6
	x := make([][]float64, n)
	var y []float64
	if k.Supervised() {
		y = make([]float64, n)
	}
	for i := range x {
		x[i] = make([]float64, d)
		for j := range x[i] {
			x[i][j] = 0.6 * math.Sin(float64(3*i+j+1))
		}
		if y != nil {
			y[i] = 0.5 * math.Cos(float64(i))
			if k.Classification() {
				y[i] = float64(2*(i%2) - 1)
			}
		}
	}
	x[0][0] = v
	if y != nil && !k.Classification() {
		y[0] = v
	}
	return Request{Loss: k.String(), X: x, Y: y, Epsilon: 1, Delta: 1e-5, Radius: 1}
}

// clampedData is what the mechanism's loss sees: location points and
// regression targets clamped to the default domain [−1, 1] (feature rows
// are clipped by loss.New itself).
func clampedData(k loss.Kind, req Request) ([][]float64, []float64) {
	x := req.X
	if k.Location() {
		x = make([][]float64, len(req.X))
		for i, row := range req.X {
			x[i] = make([]float64, len(row))
			for j, v := range row {
				x[i][j] = math.Max(-1, math.Min(1, v))
			}
		}
	}
	y := req.Y
	if k.Supervised() && !k.Classification() {
		y = make([]float64, len(req.Y))
		for i, v := range req.Y {
			y[i] = math.Max(-1, math.Min(1, v))
		}
	}
	return x, y
}

// TestFloatCorpusExact (issue 13, item 6): every loss × every corpus value
// through the exact samplers in d = 1 (the ℓ1 mixture for l1, the Gaussian
// for linear, the 1-D rejection sampler for the others): the call succeeds,
// exactly as for the neighbouring dataset with the value replaced by 0.3,
// and its m = 300 samples follow the clamped-domain law (KS against numCDF;
// α = 10⁻⁵ per case, so ≈ 10⁻³ over the 135 cases).
func TestFloatCorpusExact(t *testing.T) {
	const m = 300
	crit := math.Sqrt(-math.Log(1e-5/2)/2) / math.Sqrt(m)
	for _, name := range loss.Names() {
		k, _ := loss.ParseKind(name)
		for ci, v := range corpus {
			req := corpusRequest(k, 1, v)
			req.Sampler, req.Samples, req.Seed = SamplerExact, m, seed(uint64(100+ci))
			nb := corpusRequest(k, 1, 0.3)
			nb.Sampler, nb.Seed = SamplerExact, seed(1)
			res, err := Sample(context.Background(), req, nil)
			_, errN := Sample(context.Background(), nb, nil)
			if err != nil || errN != nil {
				t.Errorf("%s v=%g: error %v, neighbour's %v", name, v, err, errN)
				continue
			}
			xs := make([]float64, m)
			for i, s := range res.Samples {
				xs[i] = s[0]
			}
			cx, cy := clampedData(k, req)
			cdf := numCDF(t, k, cx, cy, res.Plan.Eta, res.Plan.Mu)
			if d := stats.KS(xs, cdf); d > crit || math.IsNaN(d) {
				t.Errorf("%s v=%g (%s): KS %.4f > %.4f against the clamped-domain law", name, v, res.Plan.Method, d, crit)
			}
		}
	}
}

// TestFloatCorpusProximal: every loss × corpus value through the proximal
// sampler in d = 2 (mode auto): the call succeeds with a finite θ, as does
// the neighbour's. The law of the proximal path is tested by
// TestLADHugeTargetFullMode and package sampler.
func TestFloatCorpusProximal(t *testing.T) {
	for _, name := range loss.Names() {
		k, _ := loss.ParseKind(name)
		for ci, v := range corpus {
			req := corpusRequest(k, 2, v)
			nb := corpusRequest(k, 2, 0.3)
			req.Sampler, nb.Sampler = SamplerProximal, SamplerProximal
			req.Seed, nb.Seed = seed(uint64(ci)), seed(uint64(ci))
			res, err := Sample(context.Background(), req, nil)
			resN, errN := Sample(context.Background(), nb, nil)
			if err != nil || errN != nil {
				t.Errorf("%s v=%g: error %v, neighbour's %v", name, v, err, errN)
				continue
			}
			if slices.ContainsFunc(append(res.Theta, resN.Theta...), func(a float64) bool { return math.IsNaN(a) || math.IsInf(a, 0) }) {
				t.Errorf("%s v=%g: θ %v, neighbour's %v", name, v, res.Theta, resN.Theta)
			}
		}
	}
}
