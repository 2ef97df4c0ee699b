package mechanism

import (
	"math"
	"math/rand/v2"
	"slices"
	"strconv"

	"github.com/dpsample/dpsample/core/checks"
	"github.com/dpsample/dpsample/core/privacy"
	"github.com/dpsample/dpsample/core/sampler/exact"
)

// MedianInput is the lesson's private median (the page's <dp-median>):
// Algorithm 1 in one dimension for the loss ℓ(θ; x) = |x − θ| (G = 1), whose
// minimiser is a median of the points,
//
//	π_D(θ) ∝ exp(−η·(Σ_i |x_i − θ|/n + μθ²/2)),
//
// beside the law π_D′ of the neighbouring table D′, which is D with row
// Moved replaced by MovedTo.
type MedianInput struct {
	Points  []float64 // the table D: n ≥ 2 finite numbers, clamped to [−Bound, Bound]
	Bound   float64   // public range of a number; also the radius C (|θ*| ≤ Bound)
	Epsilon float64
	Delta   float64 // < 1/n
	Moved   int     // the row (0-based) that differs in D′
	MovedTo float64 // its value in D′, in [−Bound, Bound]
	Lo, Hi  float64 // the grid's range (Lo < Hi); both 0: from the 0.1 % to the 99.9 % quantile of either law
	Cells   int     // grid intervals, 2 … 100000
}

// MedianCurves are the two laws on a grid and what the pair says about ε.
// They are computed from the data and are NOT private: only a draw is.
type MedianCurves struct {
	Eta, Mu float64 // Algorithm 1's parameters, from Calibrate (exact sampler)
	GDP     float64 // s of the release: s = 2G√η/(n√μ) (Lemma E.1)
	A, B    float64 // the density is ∝ exp(−A·Σ|θ − x_i| − B·θ²): A = η/n, B = ημ/2
	Theta   []float64
	// Density and Neighbour are π_D and π_D′ (normalised) at Theta.
	Density, Neighbour []float64
	// LogRatio is ln(π_D(θ)/π_D′(θ)) at Theta: the privacy loss of the
	// output θ for this pair of tables.
	LogRatio []float64
	// DeltaPair = ∫ max(0, π_D − e^ε·π_D′) dθ, in closed form: the smallest δ
	// for which this pair meets the (ε, δ) inequality in that direction. It is
	// ≤ δ_s(ε) ≤ Delta for every pair (the guarantee).
	DeltaPair float64
	// MaxLogRatio is the largest |ln(π_D(θ)/π_D′(θ))| over all θ, in closed
	// form (the log ratio is constant beyond the two values of the moved row).
	MaxLogRatio float64
	Clamped     int // points brought into [−Bound, Bound]
	sorted      []float64
}

// Median computes the curves of in, with η and μ calibrated by Calibrate
// exactly as a release through NewPlan with loss "l1" in d = 1 (exact sampler:
// the whole δ goes to the GDP curve). Errors name the field ("points",
// "points[i]", "bound", "moved", "movedTo", "lo", "cells", and Calibrate's).
func Median(in MedianInput) (MedianCurves, error) {
	var c MedianCurves
	if err := checks.Positive("bound", in.Bound); err != nil {
		return MedianCurves{}, err
	}
	n := len(in.Points)
	if n < 2 {
		return MedianCurves{}, &checks.Error{Field: "points", Rule: "at least 2 numbers", Got: strconv.Itoa(n)}
	}
	// A finite number outside the public range is clamped into it, as a
	// release clamps points to its pointBox: whether the call errors does not
	// depend on where one row lies.
	pts := make([]float64, n)
	for i, x := range in.Points {
		if err := checks.Finite("points["+strconv.Itoa(i)+"]", x); err != nil {
			return MedianCurves{}, err
		}
		pts[i] = math.Max(-in.Bound, math.Min(in.Bound, x))
		if pts[i] != x {
			c.Clamped++
		}
	}
	if err := checks.IntRange("moved", in.Moved, 0, n-1); err != nil {
		return MedianCurves{}, err
	}
	if err := checks.InRange("movedTo", in.MovedTo, -in.Bound, in.Bound); err != nil {
		return MedianCurves{}, err
	}
	auto := in.Lo == 0 && in.Hi == 0
	if err := checks.Finite("lo", in.Lo); err != nil {
		return MedianCurves{}, err
	}
	if !auto && (!(in.Hi > in.Lo) || math.IsInf(in.Hi, 0)) {
		return MedianCurves{}, checks.Errorf("hi", "a finite number > lo = %s, got %s", checks.Fmt(in.Lo), checks.Fmt(in.Hi))
	}
	if err := checks.IntRange("cells", in.Cells, 2, 100000); err != nil {
		return MedianCurves{}, err
	}
	cal, err := Calibrate(Calibration{N: n, D: 1, Rank: 1, G: 1, Radius: in.Bound,
		Epsilon: in.Epsilon, Delta: in.Delta, Exact: true})
	if err != nil {
		return MedianCurves{}, err
	}
	a, b := exact.L1Params(cal.Eta, cal.Mu, n, 1)
	c.Eta, c.Mu, c.GDP, c.A, c.B = cal.Eta, cal.Mu, cal.GDP, a, b
	c.sorted = slices.Clone(pts)
	slices.Sort(c.sorted)
	nb := slices.Clone(pts)
	nb[in.Moved] = in.MovedTo
	slices.Sort(nb)
	logZ, logZ2 := exact.L1LogNorm(c.sorted, a, b), exact.L1LogNorm(nb, a, b)
	if auto {
		// The quantiles by bisection on L1CDF, inside ±(Bound + 10 prior
		// standard deviations 1/√(2B)), which hold all but e^−50 of either law.
		wide := in.Bound + 10/math.Sqrt(2*b)
		quantile := func(z []float64, q float64) float64 {
			lo, hi := -wide, wide
			for range 60 {
				mid := (lo + hi) / 2
				if exact.L1CDF(z, a, b, mid) < q {
					lo = mid
				} else {
					hi = mid
				}
			}
			return (lo + hi) / 2
		}
		in.Lo = math.Min(quantile(c.sorted, 1e-3), quantile(nb, 1e-3))
		in.Hi = math.Max(quantile(c.sorted, 1-1e-3), quantile(nb, 1-1e-3))
		pad := (in.Hi - in.Lo) * 0.05
		in.Lo, in.Hi = in.Lo-pad, in.Hi+pad
	}
	for i := 0; i <= in.Cells; i++ {
		t := in.Lo + (in.Hi-in.Lo)*float64(i)/float64(in.Cells)
		lp := exact.L1LogDensity(c.sorted, a, b, t) - logZ
		lq := exact.L1LogDensity(nb, a, b, t) - logZ2
		c.Theta = append(c.Theta, t)
		c.Density = append(c.Density, math.Exp(lp))
		c.Neighbour = append(c.Neighbour, math.Exp(lq))
		c.LogRatio = append(c.LogRatio, lp-lq)
	}
	x, y, dl := pts[in.Moved], in.MovedTo, logZ2-logZ
	c.DeltaPair = deltaPair(c.sorted, nb, x, y, a, b, dl, in.Epsilon)
	c.MaxLogRatio = math.Max(math.Abs(a*math.Abs(y-x)+dl), math.Abs(-a*math.Abs(y-x)+dl))
	return c, nil
}

// deltaPair is ∫ max(0, p − e^ε·q) for p, q the laws of the sorted points
// zp and zq, which differ in one point: x in zp, y in zq; dl = log Z_q − log Z_p.
// The log ratio r(t) = ln p(t)/q(t) = −a(|t − x| − |t − y|) + dl is monotone,
// constant outside [min(x,y), max(x,y)] and linear inside, so {r > ε} is a
// half-line (−∞, t*) when x < y, (t*, ∞) when x > y, and the integral is
// F_p − e^ε·F_q over it, from L1CDF.
func deltaPair(zp, zq []float64, x, y, a, b, dl, eps float64) float64 {
	if x == y || a == 0 { // r ≡ 0 < ε
		return 0
	}
	lo, hi := math.Min(x, y), math.Max(x, y)
	// Inside [lo, hi]: r(t) = −a·sgn(y−x)·(2t − x − y) + dl; solve r = ε.
	t := (x + y + math.Copysign(1, y-x)*(dl-eps)/a) / 2
	t = math.Min(hi, math.Max(lo, t))
	var mp, mq float64 // the masses of {r > ε} under p and q
	if x < y {
		if a*(y-x)+dl <= eps { // r's largest value, left of x, is ≤ ε
			return 0
		}
		mp, mq = exact.L1CDF(zp, a, b, t), exact.L1CDF(zq, a, b, t)
	} else {
		if a*(x-y)+dl <= eps {
			return 0
		}
		mp, mq = 1-exact.L1CDF(zp, a, b, t), 1-exact.L1CDF(zq, a, b, t)
	}
	return math.Max(0, mp-math.Exp(eps)*mq)
}

// Draw returns m independent exact draws of θ from π_D (exact.L1Coord, the
// sampler a release with loss "l1" in d = 1 uses). Each draw is one
// (ε, δ)-DP release; m draws together are √m·s-GDP, not (ε, δ)-DP.
func (c *MedianCurves) Draw(r *rand.Rand, m int) []float64 {
	out := make([]float64, m)
	for i := range out {
		out[i] = exact.L1Coord(r, c.sorted, c.A, c.B)
	}
	return out
}

// GDPDelta is δ_s(ε) of the release at the input's ε: the bound DeltaPair
// stays under, whichever row moves and wherever it goes.
func (c *MedianCurves) GDPDelta(eps float64) float64 {
	d, err := privacy.Delta(c.GDP, eps)
	if err != nil {
		return math.NaN()
	}
	return d
}
