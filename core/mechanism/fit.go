package mechanism

import (
	"math"

	"github.com/dpsample/dpsample/core/loss"
)

// Fit compares the released θ with a non-private reference fit. It is
// computed from the raw data on the data owner's device for display only and
// is NOT private.
type Fit struct {
	Loss           float64   `json:"loss"`           // L(θ; D) at the released θ (the first sample)
	NonPrivateLoss float64   `json:"nonPrivateLoss"` // ≈ min_{‖θ‖≤C} L(θ; D), within Gap
	Excess         float64   `json:"excess"`         // Loss − NonPrivateLoss
	Gap            float64   `json:"gap"`            // certified: NonPrivateLoss − min ≤ Gap
	Theta          []float64 `json:"theta"`          // the non-private minimiser found
	Iterations     int       `json:"iterations"`
	Clipped        int       `json:"clipped"` // feature rows shrunk to the clip bound
	Private        bool      `json:"private"` // always false
}

// fitBudget bounds the work of the reference fit: iterations·n·d ≤ fitBudget.
const fitBudget = 2e7

// fit minimises L over the ball ‖θ‖ ≤ C (LLL Assumption 1.2 says θ* lies
// there) by the projected subgradient method with steps C/√t along g/‖g‖,
// keeping the best iterate. Its suboptimality is certified by convexity: for
// any weights w_t ≥ 0 and every y in the ball,
// L(y) ≥ Σ w_t (L(x_t) + ⟨g_t, y − x_t⟩)/Σ w_t ≥ (Σ w_t(L(x_t) − ⟨g_t,x_t⟩) − C‖Σ w_t g_t‖)/Σ w_t,
// evaluated for the step weights over each half of the run and for each
// single cut; Gap is the best
// value minus the best such lower bound.
func fit(set *loss.Set, theta []float64, radius float64) Fit {
	n, d := set.N(), set.Dim()
	iters := int(math.Max(100, math.Min(2000, fitBudget/float64(n*d))))
	x := make([]float64, d)
	g := make([]float64, d)
	gsum := make([]float64, d)
	best := make([]float64, d)
	fBest, lb := math.Inf(1), math.Inf(-1)
	var aSum, wSum float64
	for t := 1; t <= iters; t++ {
		if t == iters/2 { // certify with the second half's cuts (its average subgradient is small near the optimum)
			lb = math.Max(lb, avgCut(aSum, wSum, gsum, radius))
			aSum, wSum = 0, 0
			clear(gsum)
		}
		f := set.Mean(x)
		if f < fBest {
			fBest = f
			copy(best, x)
		}
		set.Subgradient(x, g)
		gx, gn := 0.0, 0.0
		for j, v := range g {
			gx += v * x[j]
			gn += v * v
		}
		gn = math.Sqrt(gn)
		lb = math.Max(lb, f-gx-radius*gn)
		w := 1 / math.Sqrt(float64(t))
		aSum += w * (f - gx)
		wSum += w
		for j, v := range g {
			gsum[j] += w * v
		}
		if gn == 0 {
			lb = math.Max(lb, f)
			break
		}
		step := radius * w / gn
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
	}
	lb = math.Max(lb, avgCut(aSum, wSum, gsum, radius))
	l := set.Mean(theta)
	return Fit{Loss: l, NonPrivateLoss: fBest, Excess: l - fBest, Gap: math.Max(0, fBest-lb), Theta: best,
		Iterations: iters, Clipped: set.Clipped()}
}

// avgCut is the lower bound min_{‖y‖≤C} of the weighted average of the cuts.
func avgCut(aSum, wSum float64, gsum []float64, radius float64) float64 {
	if wSum == 0 {
		return math.Inf(-1)
	}
	gs := 0.0
	for _, v := range gsum {
		gs += v * v
	}
	return (aSum - radius*math.Sqrt(gs)) / wSum
}
