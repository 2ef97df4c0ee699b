package domain

import "math"

// The magnitude bins of stage 1 (package doc): two binary orders of magnitude
// per bin, |x| ∈ [4^k, 4^(k+1)) for MinExp ≤ k ≤ MaxExp on each side, an
// overflow bin |x| ≥ 4^(MaxExp+1) on each side, and a zero bin |x| < 4^MinExp.
//
// The span is public and fixed: 4^−16 ≈ 2.3·10⁻¹⁰ to 4^32 ≈ 1.8·10¹⁹ covers
// the columns people bring by many orders on each side, and fewer bins mean
// fewer places for the noise to put a false mode (the largest of B pure-noise
// counts is about σ·√(2 ln B)). A value below 4^−16 in magnitude is counted as
// zero: stage 2 sees it as it is.
const (
	MinExp = -10 // |x| < 4^−10 ≈ 9.5·10⁻⁷ shares the zero bin
	MaxExp = 21  // |x| ≥ 4^22 ≈ 1.8·10¹³ shares an overflow bin up to ±math.MaxFloat64
	// sideBins is M, the number of magnitude bins on one side of zero
	// (overflow included).
	sideBins = MaxExp - MinExp + 2
	// Bins1 is the number of magnitude bins: M negative, the zero bin, M positive.
	Bins1   = 2*sideBins + 1
	zeroBin = sideBins
	// plausibleBins is the public window of plausible magnitudes a side,
	// |x| < 4^(MinExp+plausibleBins−1) = 4^10 ≈ 10⁶ (and zero): where a
	// column whose mode the noise hides is guessed to lie.
	plausibleBins = 20
)

// magnitudeBin returns the stage-1 bin of a finite x. Bins are ordered as the
// reals: 0 is the negative overflow bin [−MaxFloat64, −4^(MaxExp+1)],
// zeroBin holds (−4^MinExp, 4^MinExp), Bins1 − 1 is the positive overflow
// bin. Exact: math.Frexp reads the exponent, no arithmetic on the value.
func magnitudeBin(x float64) int {
	a := math.Abs(x)
	if a < math.Ldexp(1, 2*MinExp) {
		return zeroBin
	}
	_, e := math.Frexp(a) // a ∈ [2^(e−1), 2^e), so a ∈ [4^k, 4^(k+1)) with k = ⌊(e−1)/2⌋
	k := (e - 1) >> 1     // an arithmetic shift: the floor for negative e − 1 too
	off := min(k-MinExp, sideBins-1) + 1
	if x > 0 {
		return zeroBin + off
	}
	return zeroBin - off
}

// magnitudeEdges returns the closure [lo, hi] of stage-1 bin i. The overflow
// bins end at ±math.MaxFloat64.
func magnitudeEdges(i int) (lo, hi float64) {
	if i == zeroBin {
		return -math.Ldexp(1, 2*MinExp), math.Ldexp(1, 2*MinExp)
	}
	off := i - zeroBin
	if off < 0 {
		lo, hi = magnitudeEdges(zeroBin - off)
		return -hi, -lo
	}
	k := MinExp + off - 1
	if off == sideBins {
		return math.Ldexp(1, 2*k), math.MaxFloat64
	}
	return math.Ldexp(1, 2*k), math.Ldexp(1, 2*k+2)
}

// window is stage 2's interval [L, H], cut into n equal bins.
type window struct {
	L, H float64
	n    int
}

// bin returns the linear bin of x clamped to the window. The arithmetic is on
// halves (H/2 − L/2 is finite even for the window [−MaxFloat64, MaxFloat64]).
func (w window) bin(x float64) int {
	if !(x > w.L) {
		return 0
	}
	if !(x < w.H) {
		return w.n - 1
	}
	t := (x/2 - w.L/2) / (w.H/2 - w.L/2)
	i := int(t * float64(w.n))
	return min(max(i, 0), w.n-1)
}

// edge returns the i-th edge of the window, 0 ≤ i ≤ n: L, …, H, increasing.
func (w window) edge(i int) float64 {
	switch {
	case i <= 0:
		return w.L
	case i >= w.n:
		return w.H
	}
	e := 2 * (w.L/2 + (w.H/2-w.L/2)*(float64(i)/float64(w.n)))
	return min(max(e, w.L), w.H)
}
