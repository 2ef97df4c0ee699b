package domain

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/dpsample/dpsample/core/checks"
	"github.com/dpsample/dpsample/core/privacy"
	"github.com/dpsample/dpsample/core/rng"
)

// Resolution says how far the mechanism got for one column. It is computed
// from the noisy counts, so it is as private as the bounds.
const (
	ResolutionLinear    = "linear"    // stage 2 found the values: bounds and quartiles to a linear bin
	ResolutionMagnitude = "magnitude" // only stage 1 did: bounds to a power of two, quartiles coarse
	ResolutionNone      = "none"      // nothing cleared the noise: too few rows for this budget; do not rely on it
)

// Column is one column's private description. Lo < Hi are finite, and
// Lo ≤ Q1 ≤ Median ≤ Q3 ≤ Hi.
type Column struct {
	Lo         float64 `json:"lo"`
	Hi         float64 `json:"hi"`
	Median     float64 `json:"median"`
	Q1         float64 `json:"q1"`
	Q3         float64 `json:"q3"`
	Resolution string  `json:"resolution"`
	// Step is the width of the bins Lo, Hi and the quartiles were read from
	// (stage 2's linear bins, or for Resolution "magnitude" the window): the
	// precision of this column's description.
	Step float64 `json:"step"`
}

// Result is the release: one Column per column of x, and the plan it followed.
type Result struct {
	Columns []Column `json:"columns"`
	Plan    Plan     `json:"plan"`
	// Private is false when the caller fixed the seed (reproducible, not private).
	Private bool `json:"private"`
}

// Describe validates x (a non-empty n×d matrix of finite numbers; errors name
// the cell) against the plan's n and d and releases each column's bounds and
// quartiles (package doc). seed == nil keys the noise from crypto/rand; a
// seed makes the result reproducible and not private.
func Describe(x [][]float64, p Plan, seed *uint64) (Result, error) {
	n, d, err := checks.Matrix("x", x)
	if err != nil {
		return Result{}, err
	}
	if n != p.N || d != p.D {
		return Result{}, &checks.Error{Field: "x", Rule: fmt.Sprintf("a %d×%d matrix like the plan's", p.N, p.D), Got: fmt.Sprintf("%d×%d", n, d)}
	}
	r, private := rng.New(seed)
	out := Result{Columns: make([]Column, d), Plan: p, Private: private}
	col := make([]float64, n)
	for j := 0; j < d; j++ {
		for i := range x {
			col[i] = x[i][j]
		}
		out.Columns[j] = describeColumn(col, p, r)
	}
	return out, nil
}

// noisy returns the counts with independent round(σ·Z) added: the Gaussian
// mechanism, rounded (post-processing). It is a variable so that the tests can
// substitute a broken noise and see the statistical test fail it.
var noisy = func(counts []int, sigma float64, r *rand.Rand) []float64 {
	out := make([]float64, len(counts))
	for i, c := range counts {
		out[i] = float64(c) + math.Round(sigma*r.NormFloat64())
	}
	return out
}

// survivors returns the first and last index whose noisy count reaches
// threshold, or ok = false when none does.
func survivors(c []float64, threshold float64) (first, last int, ok bool) {
	first, last = -1, -1
	for i, v := range c {
		if v >= threshold {
			if first < 0 {
				first = i
			}
			last = i
		}
	}
	return first, last, first >= 0
}

// argmax is the first index of the largest value.
func argmax(c []float64) int {
	best := 0
	for i, v := range c {
		if v > c[best] {
			best = i
		}
	}
	return best
}

func describeColumn(col []float64, p Plan, r *rand.Rand) Column {
	// Stage 1: the magnitude histogram.
	counts1 := make([]int, Bins1)
	for _, v := range col {
		counts1[magnitudeBin(v)]++
	}
	noisy1 := noisy(counts1, p.Sigma1, r)
	a, b, found1 := survivors(noisy1, p.Threshold1)
	if !found1 {
		a = argmax(noisy1)
		b = a
	}
	// Widen by one bin on a side whose neighbour shows some mass (a noisy
	// count ≥ τ₁/3: a tail too thin to survive; an empty neighbour passes with
	// probability Φ̄(z₁/3) ≈ 1 %). Without the test every window would be 4×
	// wider than the survivors, and stage 2's bins 4× coarser.
	if a > 0 && noisy1[a-1] >= p.Threshold1/3 {
		a--
	}
	if b < Bins1-1 && noisy1[b+1] >= p.Threshold1/3 {
		b++
	}
	lo1, _ := magnitudeEdges(a)
	_, hi1 := magnitudeEdges(b)
	w := window{L: lo1, H: hi1, n: p.Bins2}

	// Stage 2: the linear histogram of the window (always drawn, so that the
	// stages' noise, and so the privacy cost, never depend on stage 1's luck).
	counts2 := make([]int, p.Bins2)
	for _, v := range col {
		counts2[w.bin(v)]++
	}
	noisy2 := noisy(counts2, p.Sigma2, r)
	a2, b2, found2 := survivors(noisy2, p.Threshold2)

	var c Column
	switch {
	case found1 && found2:
		c.Lo, c.Hi = w.edge(a2-p.Margin), w.edge(b2+1+p.Margin)
		kept := make([]float64, p.Bins2)
		for i := a2; i <= b2; i++ {
			if noisy2[i] >= p.Threshold2 {
				kept[i] = noisy2[i]
			}
		}
		c.Q1, c.Median, c.Q3 = quantiles(kept, w.edge)
		c.Resolution = ResolutionLinear
		c.Step = w.edge(1) - w.edge(0)
	case found1:
		c.Lo, c.Hi = w.L, w.H
		kept := make([]float64, Bins1)
		for i := a; i <= b; i++ {
			if noisy1[i] >= p.Threshold1 {
				kept[i] = noisy1[i]
			}
		}
		c.Q1, c.Median, c.Q3 = quantiles(kept, magnitudeEdge)
		c.Resolution = ResolutionMagnitude
		c.Step = w.H/2 - w.L/2
	default:
		c.Lo, c.Hi = w.L, w.H
		mid := w.edge(p.Bins2 / 2)
		c.Q1, c.Median, c.Q3 = mid, mid, mid
		c.Resolution = ResolutionNone
		c.Step = w.H/2 - w.L/2
	}
	c.Q1 = min(max(c.Q1, c.Lo), c.Hi)
	c.Median = min(max(c.Median, c.Q1), c.Hi)
	c.Q3 = min(max(c.Q3, c.Median), c.Hi)
	return c
}

// magnitudeEdge is the i-th edge of the stage-1 bins (edge i is bin i's lower
// edge; edge Bins1 is the top).
func magnitudeEdge(i int) float64 {
	if i >= Bins1 {
		_, hi := magnitudeEdges(Bins1 - 1)
		return hi
	}
	lo, _ := magnitudeEdges(i)
	return lo
}

// quantiles reads the 1/4, 1/2 and 3/4 quantiles off a histogram of
// non-negative weights whose bin i is [edge(i), edge(i+1)], interpolating
// linearly within a bin. The weights are post-processed noisy counts.
func quantiles(wt []float64, edge func(int) float64) (q1, med, q3 float64) {
	total := 0.0
	for _, v := range wt {
		total += v
	}
	at := func(q float64) float64 {
		target, cum := q*total, 0.0
		for i, v := range wt {
			if v > 0 && cum+v >= target {
				f := (target - cum) / v
				lo, hi := edge(i), edge(i+1)
				return lo + f*(hi/2-lo/2)*2
			}
			cum += v
		}
		return edge(len(wt))
	}
	return at(0.25), at(0.5), at(0.75)
}

// ChargeTo charges the plan's release to l before anything is drawn: refused
// (an error naming "ledger", nothing charged) when it does not fit, and
// refused naming "ledger.delta" when the ledger's δ is not below 1/n, like
// every release's (checks.DeltaForN).
func (p Plan) ChargeTo(l *privacy.Ledger) (privacy.LedgerState, error) {
	if err := checks.DeltaForN("ledger.delta", l.Budget().Delta, p.N); err != nil {
		return privacy.LedgerState{}, err
	}
	return l.Charge(p.Charge())
}

// Charged releases the description of x under a ledger: the plan is charged
// to l first (Plan.ChargeTo), then drawn with a generator keyed from
// crypto/rand (a seeded release cannot be charged: no budget accounts for a
// reproducible one).
func Charged(x [][]float64, eps, delta float64, l *privacy.Ledger) (Result, privacy.LedgerState, error) {
	n, d, err := checks.Matrix("x", x)
	if err != nil {
		return Result{}, privacy.LedgerState{}, err
	}
	p, err := NewPlan(n, d, eps, delta)
	if err != nil {
		return Result{}, privacy.LedgerState{}, err
	}
	st, err := p.ChargeTo(l)
	if err != nil {
		return Result{}, privacy.LedgerState{}, err
	}
	res, err := Describe(x, p, nil)
	return res, st, err
}
