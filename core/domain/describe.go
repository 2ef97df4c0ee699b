package domain

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/dpsample/dpsample/core/checks"
	"github.com/dpsample/dpsample/core/rng"
)

// Resolution says how far the mechanism got for one column. It is computed
// from the noisy counts, so it is as private as the bounds. It is one of the
// three constants below (JSON: the string itself).
type Resolution string

// The resolutions of a column (Column.Resolution).
const (
	ResolutionLinear    Resolution = "linear"    // stage 2 trimmed the window: bounds to a linear bin (Step)
	ResolutionMagnitude Resolution = "magnitude" // stage 2 kept the whole window: bounds to a factor of 4, wide
	ResolutionNone      Resolution = "none"      // the mode did not clear τ_m (n below Plan.MinRows, or a column spread thin): a finite but unreliable range
)

// Column is one column's private description. Lo < Hi are finite, and
// Lo ≤ Q1 ≤ Median ≤ Q3 ≤ Hi.
type Column struct {
	Lo         float64    `json:"lo"`
	Hi         float64    `json:"hi"`
	Median     float64    `json:"median"`
	Q1         float64    `json:"q1"`
	Q3         float64    `json:"q3"`
	Resolution Resolution `json:"resolution"`
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
// seed makes the result reproducible and not private. Describe charges no
// ledger: each call is another release, accounted for by its caller. Under a
// ledger, Charge the plan and draw it once with Charged.Describe (charge.go).
func Describe(x [][]float64, p Plan, seed *uint64) (Result, error) {
	if err := checkDescribe(x, p); err != nil {
		return Result{}, err
	}
	return describe(x, p, seed), nil
}

// checkDescribe validates x against p and p itself (Describe's errors).
func checkDescribe(x [][]float64, p Plan) error {
	n, d, err := checks.Matrix("x", x)
	if err != nil {
		return err
	}
	if n != p.N || d != p.D {
		return &checks.Error{Field: "x", Rule: fmt.Sprintf("a %d×%d matrix like the plan's", p.N, p.D), Got: fmt.Sprintf("%d×%d", n, d)}
	}
	if !p.valid() {
		return errForgedPlan
	}
	return nil
}

// errForgedPlan refuses a plan NewPlan or NewPlanWith did not make.
var errForgedPlan = &checks.Error{Field: "plan", Rule: "a plan made by domain.NewPlan or NewPlanWith, unchanged", Got: "a plan whose fields differ from those its n, d, ε, δ and options give"}

// describe draws the release of x, checked by checkDescribe, with noise keyed
// from seed (crypto/rand when nil).
func describe(x [][]float64, p Plan, seed *uint64) Result {
	r, private := rng.New(seed)
	out := Result{Columns: make([]Column, p.D), Plan: p, Private: private}
	col := make([]float64, p.N)
	for j := 0; j < p.D; j++ {
		for i := range x {
			col[i] = x[i][j]
		}
		out.Columns[j] = describeColumn(col, p, r, rules{})
	}
	return out
}

// noisy returns the counts with independent round(σ·Z) added, Z drawn by
// rng.Normal53 (Marsaglia's polar method on 53-bit uniforms, exact up to its
// 2⁻⁵³ grid, unlike the ziggurat's 10⁻⁷ density error): the Gaussian mechanism,
// rounded (post-processing).
func noisy(counts []int, sigma float64, r *rand.Rand) []float64 {
	out := make([]float64, len(counts))
	for i, c := range counts {
		out[i] = float64(c) + math.Round(sigma*rng.Normal53(r))
	}
	return out
}

// argmaxIn is the first index of the largest value of c[lo:hi].
func argmaxIn(c []float64, lo, hi int) int {
	best := lo
	for i := lo; i < hi; i++ {
		if c[i] > c[best] {
			best = i
		}
	}
	return best
}

// grow extends the run [i, i] of bins to every bin in [lo, hi) whose noisy
// count reaches trust (a cluster apart from the mode's, which a bin that
// holds nothing reaches with probability ≤ FalseCluster/M), then through
// neighbours whose noisy count reaches τ.
func grow(c []float64, i, lo, hi int, trust, tau float64) (a, b int) {
	a, b = i, i
	for k := lo; k < hi; k++ {
		if c[k] >= trust {
			a, b = min(a, k), max(b, k)
		}
	}
	for a-1 >= lo && c[a-1] >= tau {
		a--
	}
	for b+1 < hi && c[b+1] >= tau {
		b++
	}
	return a, b
}

// stage1 is what the magnitude histogram says about one column: the window
// stage 2 refines, which of its ends are pinned at zero, and whether the
// mode cleared τ_m.
type stage1 struct {
	win            window
	pinLo, pinHi   bool // the end is 0 by the zero rule: stage 2 does not trim it
	found          bool
	modeLo, modeHi float64
}

// magnitudeWindow post-processes stage 1's noisy counts (package doc, "Stage
// 1"): the mode's run grown through its neighbours, one bin of margin
// outwards, zero included when it is seen or when the run starts at or below
// 1 in magnitude, a side of zero with no trusted bin given the unit scale.
func magnitudeWindow(c []float64, p Plan, ru rules) stage1 {
	mode := argmaxIn(c, 0, Bins1)
	s := stage1{found: c[mode] >= p.ModeThreshold}
	s.modeLo, s.modeHi = magnitudeEdges(mode)
	// A side's core: the mode if it lies there, else that side's largest bin
	// when it reaches τ_c (a side with no value at all is trusted with
	// probability ≤ FalseCluster).
	core := func(lo, hi int) int {
		if mode >= lo && mode < hi {
			return mode
		}
		if i := argmaxIn(c, lo, hi); c[i] >= p.ClusterThreshold {
			return i
		}
		return -1
	}
	pos, neg := core(zeroBin+1, Bins1), core(0, zeroBin)
	zero := mode == zeroBin || c[zeroBin] >= p.GrowThreshold
	if ru.noZero {
		zero = mode == zeroBin
	}
	var lo, hi float64
	var posLo, negHi float64 // the inner edges of the grown runs
	if pos >= 0 {
		a, b := grow(c, pos, zeroBin+1, Bins1, p.ClusterThreshold, p.GrowThreshold)
		_, hi = magnitudeEdges(min(b+1, Bins1-1))
		posLo, _ = magnitudeEdges(a)
	}
	if neg >= 0 {
		a, b := grow(c, neg, 0, zeroBin, p.ClusterThreshold, p.GrowThreshold)
		lo, _ = magnitudeEdges(max(a-1, 0))
		_, negHi = magnitudeEdges(b)
	}
	switch {
	case pos >= 0:
	case neg >= 0 && !zero && (negHi < -1 || ru.noZero):
		hi = negHi / 4 // an offset negative column: one bin of margin inwards too
	case neg >= 0:
		hi, s.pinHi = 0, true
	default:
		// Only zero: the unit scale, kept whole (a level at 1 held by 10 %
		// of the rows is below the noise at small n; trimming would drop it).
		hi, s.pinHi = 1, true
	}
	switch {
	case neg >= 0:
	case pos >= 0 && !zero && (posLo > 1 || ru.noZero):
		lo = posLo / 4 // an offset positive column: one bin of margin inwards too
	default:
		lo = 0
		s.pinLo = true
	}
	if hi == 0 && lo == 0 {
		hi = 1
	}
	s.win = window{L: lo, H: hi, n: p.Bins2}
	return s
}

// trimmed returns the run [a, b] of stage 2's bins kept: the outermost bins
// of an end that is not pinned are trimmed one by one while each one's noisy
// count stays below TrimLevel = z_t·σ₂, never through the mode. An empty bin
// stops the trimming with probability Φ̄(z_t) (the range is then a little
// wider); a bin holding z_t·σ₂ rows or more always does.
func trimmed(c []float64, p Plan, pinLo, pinHi bool) (a, b int) {
	mode := argmaxIn(c, 0, len(c))
	a, b = 0, len(c)-1
	if !pinHi {
		for b > mode && c[b] < p.TrimLevel {
			b--
		}
	}
	if !pinLo {
		for a < mode && c[a] < p.TrimLevel {
			a++
		}
	}
	return a, b
}

// rules switches off parts of the post-processing, for the tests that show
// a statistical test fails without them; Describe uses the zero value.
type rules struct {
	noZero     bool // never pin an end at zero (a column's zero level is then found only when it clears the noise)
	labelShift int  // added to τ_L (a broken threshold for the tests)
}

func describeColumn(col []float64, p Plan, r *rand.Rand, ru rules) Column {
	// Stage 1: the magnitude histogram.
	counts1 := make([]int, Bins1)
	for _, v := range col {
		counts1[magnitudeBin(v)]++
	}
	s := magnitudeWindow(noisy(counts1, p.Sigma1, r), p, ru)
	w := s.win

	// Stage 2: the linear histogram of the window, when the plan has one (a
	// public choice: Plan.Stages). It is drawn whatever stage 1 found, so
	// that the noise, and so the privacy cost, never depends on stage 1's luck.
	a, b := 0, p.Bins2-1
	noisy2 := make([]float64, p.Bins2)
	if p.Stages == 2 {
		counts2 := make([]int, p.Bins2)
		for _, v := range col {
			counts2[w.bin(v)]++
		}
		noisy2 = noisy(counts2, p.Sigma2, r)
		a, b = trimmed(noisy2, p, s.pinLo, s.pinHi)
	}

	var c Column
	c.Step = w.edge(1)/2 - w.edge(0)/2
	c.Step *= 2
	c.Lo, c.Hi = w.L, w.H
	if a > 0 {
		c.Lo = w.edge(a - p.Margin)
	}
	if b < p.Bins2-1 {
		c.Hi = w.edge(b + 1 + p.Margin)
	}
	// The quartiles: from stage 2's kept bins whose noisy count reaches the
	// trim level (a bin of noise alone rarely does), else from stage 1's
	// mode (its bin's edges, clamped to the range).
	kept := make([]float64, p.Bins2)
	for i := a; i <= b; i++ {
		if noisy2[i] >= p.TrimLevel {
			kept[i] = noisy2[i]
		}
	}
	c.Q1, c.Median, c.Q3 = quantiles(kept, w.edge)
	if p.Stages == 1 || c.Q1 == c.Q3 {
		c.Q1, c.Median, c.Q3 = s.modeLo, (s.modeLo+s.modeHi)/2, s.modeHi
	}
	switch {
	case !s.found:
		c.Resolution = ResolutionNone
	case a > 0 || b < p.Bins2-1:
		c.Resolution = ResolutionLinear
	default:
		c.Resolution = ResolutionMagnitude
	}
	if !(c.Step > 0) || math.IsInf(c.Step, 0) {
		c.Step = w.H/2 - w.L/2
	}
	c.Q1 = min(max(c.Q1, c.Lo), c.Hi)
	c.Median = min(max(c.Median, c.Q1), c.Hi)
	c.Q3 = min(max(c.Q3, c.Median), c.Hi)
	return c
}

// quantiles reads the 1/4, 1/2 and 3/4 quantiles off a histogram of
// non-negative weights whose bin i is [edge(i), edge(i+1)], interpolating
// linearly within a bin. The weights are post-processed noisy counts.
func quantiles(wt []float64, edge func(int) float64) (q1, med, q3 float64) {
	total := 0.0
	for _, v := range wt {
		total += v
	}
	if !(total > 0) {
		mid := edge(len(wt) / 2)
		return mid, mid, mid
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
