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
	// Step is the width of the bins Lo and Hi were read from (stage 2's
	// linear bins at the level of its tree the ends were placed on, or for
	// Resolution "magnitude" the window's sixteenth): the precision of the
	// range.
	Step float64 `json:"step"`
	// QuartileStep is the width of the bins the quartiles were read from:
	// with a tree, the finest level the three got down to (at most Step);
	// Step when stage 2 has one level; the width of stage 1's mode bin (a
	// factor 4 of magnitude) when the plan has one stage or stage 2 found no
	// bin clear of the noise. It is their resolution, not a bound on their
	// error.
	QuartileStep float64 `json:"quartileStep"`
	// Quartiles says what Q1, Median and Q3 were read from: "linear", stage
	// 2's linear bins (at QuartileStep); "magnitude", stage 1's mode bin —
	// its edges and middle — when the plan has one stage or stage 2 found no
	// bin clear of the noise: the release places no quartile of the data
	// then, and a page should not show them as such (issue 52: within a
	// quarter of the spread in 9–36 % of the column-draws at 100–250 rows on
	// five of the six development tables).
	Quartiles Resolution `json:"quartiles"`
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

// coarseMode returns the first bin i of the pair (i, i+1) of neighbouring
// magnitude bins in [lo, hi) on one side of zero (both below zeroBin or both
// above) whose noisy counts have the largest sum, and that sum.
func coarseMode(c []float64, lo, hi int) (int, float64) {
	best, sum := -1, math.Inf(-1)
	for i := lo; i+1 < hi; i++ {
		if i+1 == zeroBin || i == zeroBin {
			continue
		}
		if v := c[i] + c[i+1]; v > sum {
			best, sum = i, v
		}
	}
	return best, sum
}

// coarseThreshold is τ_16 = ⌈σ₁√2·z + 1⌉ with z = Φ̄⁻¹(FalseMode/(2M)) (pairThreshold).
func coarseThreshold(p Plan) float64 { return pairThreshold(p, FalseMode) }

// coarseClusterThreshold is τ_16 at FalseCluster: the strength a pair beyond
// the plausible window needs on its own (pairThreshold).
func coarseClusterThreshold(p Plan) float64 { return pairThreshold(p, FalseCluster) }

// pairThreshold is ⌈σ₁√2·z + 1⌉ with z = Φ̄⁻¹(β/(2M)). Two empty bins' noisy
// counts sum to round(σ₁Z₁) + round(σ₁Z₂) ≤ σ₁(Z₁ + Z₂) + 1 with
// Z₁ + Z₂ ~ N(0, 2), so the sum reaches it only if σ₁√2·Z ≥ σ₁√2·z: with
// probability ≤ Φ̄(z) = β/(2M), and some pair of the 2(M − 1) with no rows
// does with probability < β.
func pairThreshold(p Plan, beta float64) float64 {
	return math.Ceil(p.Sigma1*math.Sqrt2*privacy.PhiInvUpper(beta/(2*sideBins)) + 1)
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

// grow extends the run [i, j] of bins (i ≤ j, the mode or the coarse mode's
// pair) to every bin in [lo, hi) whose noisy count reaches trust (a cluster
// apart from the mode's, which a bin that holds nothing reaches with
// probability ≤ FalseCluster/M), then through neighbours whose noisy count
// reaches τ.
func grow(c []float64, i, j, lo, hi int, trust, tau float64) (a, b int) {
	a, b = i, j
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
	guess          bool // the mode is the coarse guess of a column the noise hides
	modeLo, modeHi float64
	// beyondLo, beyondHi are where an end moves when stage 2 counts rows
	// past it (beyond).
	beyondLo, beyondHi float64
}

// beyondBins is how many magnitude bins past an end beyond looks.
const beyondBins = 3

// beyond returns where the ends of the window [lo, hi] move when stage 2
// counts rows past them: for an end on its own side of zero (hi ≥ 0, lo ≤ 0)
// the outer edge, one bin further out, of the largest pair of neighbouring
// stage-1 bins among the beyondBins bins wholly past it (the noisy counts
// say where the hidden rows most likely are), at most a factor 4^beyondBins
// past the end; where there are not beyondBins bins past it (the overflow
// bins), or for an end across zero (an offset negative column's hi < 0, an
// offset positive column's lo > 0), the end ∓ 3·|end| (1 or −1 for an end at
// 0). Post-processing of stage 1's noisy counts.
func beyond(c []float64, lo, hi float64, zeroTiny bool) (bl, bh float64) {
	bl, bh = lo-3*math.Abs(lo), hi+3*math.Abs(hi)
	if lo == 0 {
		bl = -1
	}
	if hi == 0 {
		bh = 1
	}
	if start := max(magnitudeBin(hi), zeroBin+1); hi >= 0 && start+beyondBins <= Bins1 {
		end := start + beyondBins
		i, _ := coarseMode(c, start, end)
		_, bh = magnitudeEdges(min(i+2, Bins1-1))
	}
	if end := min(magnitudeBin(lo), zeroBin-1) + 1; lo <= 0 && end-beyondBins >= 0 {
		start := end - beyondBins
		i, _ := coarseMode(c, start, end)
		bl, _ = magnitudeEdges(max(i-1, 0))
	}
	// An end at 0 with the other side's run past it: the bins wholly past
	// 0 are the smallest magnitudes, where a side the noise hid (a score
	// centred on 0, its negative half below τ_c) does not lie; it mirrors
	// the other end.
	if lo == 0 && hi > 0 && !zeroTiny {
		bl = -hi
	}
	if hi == 0 && lo < 0 && !zeroTiny {
		bh = -lo
	}
	return max(bl, -math.MaxFloat64), min(bh, math.MaxFloat64)
}

// magnitudeWindow post-processes stage 1's noisy counts (package doc, "Stage
// 1"): the mode's run grown through its neighbours, zero included when it is
// seen or when the run starts at or below 1 in magnitude, a side of zero with
// no trusted bin given the unit scale; with one stage, a guess reaches past
// its run when the table's rows are not all accounted for.
func magnitudeWindow(c []float64, p Plan, ru rules) stage1 {
	n := float64(p.N)
	one := p.Stages == 1
	unit := zeroBin + 1 - MinExp // the bin [1, 4)
	wlo, whi := zeroBin-plausibleBins, zeroBin+plausibleBins+1
	mode := argmaxIn(c, 0, Bins1)
	if w := argmaxIn(c, wlo, whi); !ru.anyMode && (mode < wlo || mode >= whi) && c[mode] < p.ClusterThreshold && (ru.clusterOnly || c[mode] < c[w]+FarMargin*p.Sigma1*math.Sqrt2) {
		// A mode beyond the plausible window must stand as clear of the
		// noise as a cluster, or outscore the window's best bin by
		// FarMargin noise scales of the difference: one of the 24 bins out
		// there reaches τ_m by noise alone in about one column-draw in a
		// thousand, and its range is then orders of magnitude off, while
		// a column that is out there leaves the window to the noise.
		mode = w
	}
	s := stage1{found: c[mode] >= p.ModeThreshold}
	run := mode // the other end of the mode's run: the coarse mode's pair
	zeroOne := false
	if !s.found && !ru.noCoarse {
		// The coarse fallback: the same noisy counts summed over every pair
		// of neighbouring bins of one side (a factor 16; post-processing),
		// whose noise is σ₁√2 while a column spread over two bins counts
		// all of its rows once. The largest pair is found when it reaches
		// τ_16 (coarseThreshold); it is the mode's run either way (its sum
		// is a better guess than one bin of noise), its larger bin the mode.
		i, sum := coarseMode(c, 0, Bins1)
		if w, ws := coarseMode(c, wlo, whi); !ru.anyMode && (i < wlo || i+1 >= whi) && sum < coarseClusterThreshold(p) && (ru.clusterOnly || sum < ws+FarMargin*2*p.Sigma1) {
			i, sum = w, ws
		}
		s.found = sum >= coarseThreshold(p)
		if !s.found && !ru.noPlausible {
			// Not found: the guess is kept to the public window of likely
			// magnitudes, so that a column the noise hides gets a range of
			// its likely scale, not one at 10³⁰⁰.
			i, sum = guessPair(c, p, ru)
		}
		s.guess = !s.found
		zo := c[zeroBin] + c[unit]
		switch {
		case !ru.noZeroOne && zo > sum && zo >= n-ZeroOne*p.Sigma1*math.Sqrt2:
			// The zero bin and the unit bin hold the table between them (a
			// 0/1 or small-integer column): they are its run, zero included.
			s.found, s.guess, zeroOne = zo >= coarseThreshold(p), false, true
			mode, run = unit, unit
			if c[zeroBin] > c[unit] {
				mode, run = zeroBin, zeroBin
			}
		case !s.found && c[zeroBin]*math.Sqrt2 >= sum && !ru.noZeroGuess:
			// The zero bin stands as many noise scales clear as any pair
			// (c₀/σ₁ ≥ sum/(σ₁√2)): a mostly-zero column keeps its zero
			// mode (a 0/1 column with 50–70 % zeros at 100 rows and 9
			// columns: a pair of noise would take the guess away from its
			// ones in a fifth of the draws).
			mode, run = zeroBin, zeroBin
		default:
			if c[i+1] > c[i] {
				mode, run = i+1, i
			} else {
				mode, run = i, i+1
			}
			if s.guess && !ru.noTie {
				run = tieEnd(c, p, i, sum, run)
			}
		}
	}
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
	if one && !ru.noHidden && mode == zeroBin && pos < 0 && neg < 0 && !zeroOne {
		// A zero mode, no other bin trusted, but rows the zero and unit
		// bins do not hold, u = n − c₀ − c₁ ≥ z_0·σ₁√2 (the sum's noise
		// scale): they lie past the unit bin, and the range reaches the top
		// of the largest pair of the beyondBins bins from it.
		if u := n - c[zeroBin] - math.Max(c[unit], 0); u >= HiddenZero*p.Sigma1*math.Sqrt2 {
			i, _ := coarseMode(c, unit, unit+beyondBins)
			pos = i + 1
		}
	}
	// The zero bin seen on its own: from τ_g, or with a tree from τ_c (a
	// tree's n is large, so a level at 0 worth keeping stands a cluster's
	// height clear, and an offset column's window pinned at 0 by the noise —
	// Φ̄(Grow) ≈ 2.3 % of the draws at τ_g — was 100 times its spread wide;
	// zeros below τ_c are still counted below the window, and Beyond moves
	// the end out to them).
	seen := p.GrowThreshold
	if p.Levels >= 2 && !ru.zeroGrow {
		seen = p.ClusterThreshold
	}
	zero := mode == zeroBin || c[zeroBin] >= seen || zeroOne
	if ru.noZero {
		zero = mode == zeroBin
	}
	var lo, hi float64
	var posLo, negHi float64 // the inner edges of the grown runs
	first, last := min(mode, run), max(mode, run)
	seed := func(core int) (int, int) {
		if core == mode {
			return first, last
		}
		return core, core
	}
	// The outer edge of a run ending at bin b: with two stages one bin
	// further (stage 2 trims what is empty). With one stage nothing would
	// trim a margin, and half a bin (a factor 2) on every column cost more
	// width than the thin tails it kept: the edge moves out by a factor √2
	// when the next bin's noisy count is positive (an empty one is, half
	// the time) and by a whole bin when it reaches ⌈σ₁ + ½⌉ (a tail too thin
	// to grow into).
	outer := func(b, next int) float64 {
		lo, hi := magnitudeEdges(b)
		inside := next >= 0 && next < Bins1
		step := 1.0
		switch {
		case p.Stages == 2 || ru.fullMargin || !inside || c[next] >= roundedThreshold(p.Sigma1, 1) && !zeroOne:
			if !inside {
				next = b
			}
			lo, hi = magnitudeEdges(next)
		case zeroOne:
			// the 0/1 pair's rows are in its two bins (ZeroOne's test)
		case ru.halfMargin:
			step = 2
		case c[next] >= roundedThreshold(p.Sigma1, MarginLevel):
			step = math.Sqrt2
		}
		if b < zeroBin {
			return step * lo
		}
		return step * hi
	}
	if pos >= 0 {
		i, j := seed(pos)
		a, b := grow(c, i, j, zeroBin+1, Bins1, p.ClusterThreshold, p.GrowThreshold)
		if one && s.guess && !ru.noHidden && neg < 0 && b+1 < Bins1 {
			// Hidden rows: a guess whose run (from the unit bin up) and
			// zero bin leave u = n − Σ c̃ ≥ z_h·σ₁√k rows unexplained (k
			// counts summed, the noise of u) reaches one bin further.
			u, k := n, 0.0
			for q := max(a, unit); q <= b; q++ {
				u -= c[q]
				k++
			}
			if zero {
				u -= c[zeroBin]
				k++
			}
			if u >= Hidden*p.Sigma1*math.Sqrt(k) {
				b++
			}
		}
		hi = outer(b, b+1)
		posLo, _ = magnitudeEdges(a)
	}
	if neg >= 0 {
		i, j := seed(neg)
		a, b := grow(c, i, j, 0, zeroBin, p.ClusterThreshold, p.GrowThreshold)
		lo = outer(a, a-1)
		_, negHi = magnitudeEdges(b)
	}
	// With one stage an offset column's inner end is pinned at 0 too: one bin
	// inwards is within a fifteenth of the width, and nothing trims it.
	offset := p.Stages == 2 || ru.offsetOneStage
	switch {
	case pos >= 0:
	case neg >= 0 && !zero && (offset || ru.noZero) && (negHi < -1 || ru.noZero):
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
	case pos >= 0 && !zero && (offset || ru.noZero) && (posLo > 1 || ru.noZero):
		lo = posLo / 4 // an offset positive column: one bin of margin inwards too
	default:
		lo = 0
		s.pinLo = true
	}
	if hi == 0 && lo == 0 {
		hi = 1
	}
	s.win = window{L: lo, H: hi, n: p.Bins2}
	s.beyondLo, s.beyondHi = beyond(c, lo, hi, ru.zeroTiny || p.opt.Before52)
	return s
}

// guessPair returns the first bin of the pair of neighbouring bins, within
// the window of likely magnitudes 4^GuessLo ≤ |x| < 4^GuessHi, with the
// largest noisy sum, and that sum: the positive side's unless the negative
// side's best outscores it by SignMargin·σ₁.
func guessPair(c []float64, p Plan, ru rules) (int, float64) {
	lo, hi := GuessLo-MinExp+1, GuessHi-MinExp+1 // offsets from the zero bin
	if ru.wideGuess {
		lo, hi = 1, plausibleBins+1
	}
	ip, sp := coarseMode(c, zeroBin+lo, zeroBin+hi)
	in, sn := coarseMode(c, zeroBin-hi+1, zeroBin-lo+1)
	margin := SignMargin * p.Sigma1
	if ru.noSignPrior {
		margin = 0
	}
	if sn > sp && sn >= sp+margin {
		return in, sn
	}
	return ip, sp
}

// tieEnd returns the other end of a guessed run: the guess is the pair
// (i, i+1) with noisy sum sum, and run its end; the run reaches to the far
// end of the outermost pair, at most TieBins bins further from zero and
// within the likely window, whose sum is within Tie·2σ₁ of the guess's.
func tieEnd(c []float64, p Plan, i int, sum float64, run int) int {
	near := sum - Tie*2*p.Sigma1
	top := GuessHi - MinExp + 1 // the likely window's end, an offset from zero
	if i > zeroBin {
		for j := i + 2; j <= i+TieBins && j+1 < zeroBin+top; j++ {
			if c[j]+c[j+1] >= near {
				run = max(run, j+1)
			}
		}
		return run
	}
	for j := i - 2; j >= i-TieBins && j >= zeroBin-top+1; j-- {
		if c[j]+c[j+1] >= near {
			run = min(run, j)
		}
	}
	return run
}

// trimmed returns the run [a, b] of stage 2's bins kept: the outermost bins
// of an end that is not pinned are trimmed one by one while each one's noisy
// count stays below TrimLevel = z_t·σ₂, never through the mode. An empty bin
// stops the trimming with probability Φ̄(z_t) (the range is then a little
// wider); a bin holding z_t·σ₂ rows or more always does.
func trimmed(c []float64, p Plan, pinLo, pinHi bool, ru rules) (a, b int) {
	mode := argmaxIn(c, 0, len(c))
	a, b = 0, len(c)-1
	za := TrimAlone
	if p.Levels >= 2 && !ru.treeAlone3 {
		za = TreeTrimAlone
	}
	level := p.TrimLevel
	if ru.treeTrim2 && p.Levels >= 2 {
		level = Trim * p.Sigma2
	}
	alone := math.Max(level, za*p.Sigma2)
	if ru.trimSingly {
		alone = level
	}
	// keeps says bin i (inner neighbour k) stops the trimming.
	keeps := func(i, k int) bool { return c[i] >= alone || c[i] >= level && c[k] >= level }
	if !pinHi {
		for b > mode && !keeps(b, b-1) {
			b--
		}
	}
	if !pinLo {
		for a < mode && !keeps(a, a+1) {
			a++
		}
	}
	return a, b
}

func describeColumn(col []float64, p Plan, r *rand.Rand, ru rules) Column {
	// Stage 1: the magnitude histogram.
	counts1 := make([]int, Bins1)
	for _, v := range col {
		counts1[magnitudeBin(v)]++
	}
	s := magnitudeWindow(noisy(counts1, p.Sigma1, r), p, ru)
	w := s.win

	// Stage 2: the linear histograms of the window, when the plan has them
	// (a public choice: Plan.Stages, Plan.Levels). They are drawn whatever
	// stage 1 found, so that the noise, and so the privacy cost, never
	// depends on stage 1's luck.
	a, b := 0, p.Bins2-1
	noisy2 := make([]float64, p.Bins2)
	var under, over float64
	var keepLo, keepHi bool
	var tr tree
	if p.Stages == 2 {
		// Bins2 bins of [L, H], and two more for the rows below L and above
		// H: each row is still counted once per column.
		counts2 := make([]int, p.Bins2+2)
		for _, v := range col {
			switch {
			case v < w.L:
				counts2[0]++
			case v > w.H:
				counts2[p.Bins2+1]++
			default:
				counts2[1+w.bin(v)]++
			}
		}
		all := noisy(counts2, p.Sigma2, r)
		under, over = all[0], all[p.Bins2+1]
		noisy2 = all[1 : p.Bins2+1]
		tr = drawTree(col, w, p, r)
		if p.Levels >= 2 && !ru.pastLevel0 {
			under, over = tr.past(p, under, over)
		}
		// A guess's outer end is kept: the noise hid the column's spread in
		// stage 1, and stage 2's linear bins thin it further (a column over
		// four orders of magnitude has a few rows in each of its top bins).
		keepLo, keepHi = s.pinLo, s.pinHi
		if !s.found && !ru.trimGuess {
			keepHi, keepLo = keepHi || w.H > 0, keepLo || w.H <= 0 // the end away from zero
		}
		a, b = trimmed(noisy2, p, keepLo, keepHi, ru)
	}

	var c Column
	c.Step = w.edge(1)/2 - w.edge(0)/2
	c.Step *= 2
	c.Lo, c.Hi = w.L, w.H
	// The ends: the first level's trimmed bins with Margin bins more, or,
	// where the tree places an end on a finer level (descend), that level's
	// bin with MarginFine more.
	loEnd, hiEnd, level := end{0, a}, end{0, b}, 0
	allPlaced := placed(noisy2, a, b, under, over, p)
	if p.Levels >= 2 && (ru.noPlaced || allPlaced) {
		loEnd, hiEnd, level = tr.descend(p, noisy2, a, b, keepLo, keepHi, ru)
	}
	switch {
	case keepLo:
	case loEnd.level > 0:
		c.Lo = tr.edge(loEnd.level, loEnd.bin-p.MarginFine)
	case a > 0:
		c.Lo = w.edge(a - p.marginPast(noisy2[a-1], allPlaced, ru))
	}
	switch {
	case keepHi:
	case hiEnd.level > 0:
		c.Hi = tr.edge(hiEnd.level, hiEnd.bin+1+p.MarginFine)
	case b < p.Bins2-1:
		c.Hi = w.edge(b + 1 + p.marginPast(noisy2[b+1], allPlaced, ru))
	}
	if level > 0 {
		c.Step = tr.width(max(loEnd.level, hiEnd.level))
		if !keepLo && !keepHi {
			c.Step = tr.width(min(loEnd.level, hiEnd.level))
		}
	}
	// Rows past an end: when the noisy count of the rows below L (above H)
	// reaches ⌈Beyond·σ + ½⌉ (σ the noise of that count: σ₂, or with a tree
	// the levels' combined σ_past), which no row reaches with probability
	// ≤ Φ̄(Beyond) ≈ 3.2·10⁻⁵, the end moves to beyond's bound (a zero mode's
	// unit scale [0, 1] whose side the noise hid in stage 1, or a tail too
	// thin to grow into).
	sigmaPast := p.sigmaPast()
	if ru.pastLevel0 {
		sigmaPast = p.Sigma2
	}
	if past := roundedThreshold(sigmaPast, Beyond); p.Stages == 2 && !ru.noBeyond {
		if over >= past {
			c.Hi = math.Max(c.Hi, s.beyondHi)
		}
		if under >= past {
			c.Lo = math.Min(c.Lo, s.beyondLo)
		}
	}
	// The quartiles: from the kept bins, at the level the ends were placed
	// on, whose noisy count reaches that level's trim level (a bin of noise
	// alone rarely does), else from stage 1's mode (its bin's edges and
	// middle). QuartileStep is the width of the bins they were read from.
	counts, trim, edge := noisy2, p.TrimLevel, w.edge
	first, last := a, b
	if level > 0 {
		// at the level the run got to, between the ends mapped there
		counts, trim = tr.fine[level-1], p.TrimFine
		edge = func(i int) float64 { return tr.edge(level, i) }
		first = loEnd.bin * (tr.bins(level) / tr.bins(loEnd.level))
		last = (hiEnd.bin+1)*(tr.bins(level)/tr.bins(hiEnd.level)) - 1
	}
	kept := make([]float64, len(counts))
	for i := first; i <= last; i++ {
		if counts[i] >= trim {
			kept[i] = counts[i]
		}
	}
	c.Q1, c.Median, c.Q3 = quantiles(kept, edge)
	c.QuartileStep, c.Quartiles = c.Step, ResolutionLinear
	if p.Stages == 2 && level+1 < p.Levels && !ru.flatQuartiles {
		// Each quartile goes on down the tree from the bin it fell in
		// (quartileIn), while the finer counts under that bin hold rows
		// clear of the noise; its resolution is the coarsest level the
		// three got to.
		qs := [3]float64{}
		step := 0.0
		for k, q := range [3]float64{0.25, 0.5, 0.75} {
			i, f, ok := quartileIn(kept, q)
			if !ok {
				step = math.Inf(1)
				break
			}
			qs[k], step = tr.refine(level, i, f, kept[i], p.TrimFine, step)
		}
		if step < c.QuartileStep {
			c.Q1, c.Median, c.Q3, c.QuartileStep = qs[0], qs[1], qs[2], step
		}
	}
	if p.Stages == 1 || c.Q1 == c.Q3 {
		c.Q1, c.Median, c.Q3 = s.modeLo, (s.modeLo+s.modeHi)/2, s.modeHi
		c.QuartileStep = s.modeHi/2 - s.modeLo/2
		c.QuartileStep *= 2
		c.Quartiles = ResolutionMagnitude
	}
	switch {
	case !s.found:
		c.Resolution = ResolutionNone
	case a > 0 || b < p.Bins2-1 || level > 0:
		c.Resolution = ResolutionLinear
	default:
		c.Resolution = ResolutionMagnitude
	}
	if !(c.Step > 0) || math.IsInf(c.Step, 0) {
		c.Step = w.H/2 - w.L/2
	}
	if !(c.QuartileStep > 0) || math.IsInf(c.QuartileStep, 0) {
		c.QuartileStep = c.Step
	}
	c.Q1 = min(max(c.Q1, c.Lo), c.Hi)
	c.Median = min(max(c.Median, c.Q1), c.Hi)
	c.Q3 = min(max(c.Q3, c.Median), c.Hi)
	return c
}
