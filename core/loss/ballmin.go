package loss

import "math"

// BallMin is an approximate minimiser of L over the ball ‖θ‖ ≤ C with a
// certified suboptimality. It is the non-private reference of every excess
// risk dpsample reports (LLL Assumption 1.2 puts θ* in that ball); it is
// computed from the raw data and is NOT private.
type BallMin struct {
	Theta []float64 `json:"theta"`
	Loss  float64   `json:"loss"` // L at Theta
	Gap   float64   `json:"gap"`  // certified: Loss − min_{‖θ‖≤C} L ≤ Gap
	// Iters counts the iterations run, each one pass of Mean and one of
	// Subgradient over the n records: always the requested count.
	Iters int `json:"iterations"`
}

// MinimizeInBall minimises L over ‖θ‖ ≤ radius for iters iterations, keeping
// the best iterate. The smooth losses (∇²ℓ ⪯ β·clip²·I: logistic, huber,
// smooth-hinge, smooth-quantile) take projected gradient steps 1/(β·clip²);
// the others take projected subgradient steps C/√t along
// g/‖g‖. The gap is certified by convexity through cutting planes: for any
// subgradients g_t at x_t and weights w_t ≥ 0,
//
//	min_{‖y‖≤C} L(y) ≥ (Σ w_t (L(x_t) − ⟨g_t, x_t⟩) − C‖Σ w_t g_t‖)/Σ w_t,
//
// taken for every single cut and for the step-weighted average of each half
// of the run (the second half's average subgradient is small near the
// optimum, which makes its bound tight).
//
// The work is data-independent (issue 21): exactly iters iterations, each
// one Mean and one Subgradient pass, whatever the data. A zero subgradient
// certifies the current point optimal (the gap closes) but does not stop the
// loop — on main it did, so a table whose gradient vanishes at 0 (n identical
// rows with balanced labels) finished in one pass and a neighbour in
// thousands, and the run time of the call that also releases θ told them
// apart. Callers choose iters from public sizes (mechanism.fit: n, d).
func (s *Set) MinimizeInBall(radius float64, iters int) BallMin {
	return s.MinimizeInBallBy(radius, iters, s.MeanSubgradient, nil)
}

// MeanSubgradient returns L(x) and sets g to a subgradient of L at x: a
// Mean and a Subgradient pass, the ValueGrad of any loss (a smooth one can
// use one Linearize pass instead).
func (s *Set) MeanSubgradient(x, g []float64) float64 {
	f := s.Mean(x)
	s.Subgradient(x, g)
	return f
}

// ValueGrad returns L(x) and sets g to a subgradient of L at x (the gradient
// for a smooth loss): one evaluation of MinimizeInBallBy's loop.
type ValueGrad func(x, g []float64) float64

// MinimizeInBallBy is MinimizeInBall with L and its subgradient evaluated by
// eval — Mean and Subgradient (two passes over the rows), or for a smooth
// loss one Linearize pass, on the caller or on a Sharded's workers — and
// after(t) called when iteration t of iters is done (nil: not called). The
// iterations and the certificate are MinimizeInBall's.
func (s *Set) MinimizeInBallBy(radius float64, iters int, eval ValueGrad, after func(t int)) BallMin {
	d := s.Dim()
	x := make([]float64, d)
	g := make([]float64, d)
	gsum := make([]float64, d)
	best := make([]float64, d)
	fBest, lb := math.Inf(1), math.Inf(-1)
	var aSum, wSum float64
	done := 0
	beta := s.Curvature() // β·clip² for the smooth losses, 0 otherwise
	smooth := beta > 0
	for t := 1; t <= iters; t++ {
		if t == iters/2 {
			lb = math.Max(lb, avgCut(aSum, wSum, gsum, radius))
			aSum, wSum = 0, 0
			clear(gsum)
		}
		f := eval(x, g)
		if f < fBest {
			fBest = f
			copy(best, x)
		}
		gx, gn := dot(g, x), math.Sqrt(dot(g, g))
		lb = math.Max(lb, f-gx-radius*gn)
		w := 1 / math.Sqrt(float64(t))
		aSum += w * (f - gx)
		wSum += w
		for j, v := range g {
			gsum[j] += w * v
		}
		done++
		step := 0.0 // g = 0: x is a minimiser over ℝ^d; the update is a no-op pass
		if gn == 0 {
			lb = math.Max(lb, f)
		} else {
			step = radius * w / gn
		}
		if smooth && beta > 0 {
			step = 1 / beta
		}
		xn := 0.0
		for j := range x {
			x[j] -= step * g[j]
			xn += x[j] * x[j]
		}
		if xn = math.Sqrt(xn); xn > radius {
			for j := range x {
				x[j] *= radius / xn
			}
		}
		if after != nil {
			after(t)
		}
	}
	lb = math.Max(lb, avgCut(aSum, wSum, gsum, radius))
	return BallMin{Theta: best, Loss: fBest, Gap: math.Max(0, fBest-lb), Iters: done}
}

// avgCut is min_{‖y‖≤C} of the weighted average of the cuts.
func avgCut(aSum, wSum float64, gsum []float64, radius float64) float64 {
	if wSum == 0 {
		return math.Inf(-1)
	}
	return (aSum - radius*math.Sqrt(dot(gsum, gsum))) / wSum
}
