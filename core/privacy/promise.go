package privacy

import (
	"math"
	"strconv"
)

// One number for one promise (issue 53 item 6). The catch probability a
// release promises (Catch at a false-alarm rate of 5 in 100) was printed
// three ways at ε = 1: "8.5 times in 100" in <dp-membership>'s header
// (rounded up to 0.1), "9" on the estimate page (rounded up to 1) and
// "9.2"/"9.4" in the membership verdicts (the promise at the upper end of
// each test's false-alarm interval, not at 5 in 100). Every printed promise
// now goes through FormatPromise, and every measured rate through
// FormatMeasured, which says it is measured.

// PromiseStep is the precision of every printed promise: 0.1 in 100.
const PromiseStep = 0.1

// PromiseRate is a promised catch probability c ∈ [0, 1] as a rate in 100,
// rounded up to PromiseStep, in FormatDown's spirit the other way: the
// printed promise is never more private than the bound (8.48 → 8.5, and
// 8.41 → 8.5 too). A product 1000·c within 10⁻⁹ above a whole number
// counts as that number (the rounding of the product, not of the bound:
// 0.05 is 5.0, not 5.1). NaN stays NaN; the result is in [0, 100].
func PromiseRate(c float64) float64 {
	if math.IsNaN(c) {
		return c
	}
	return math.Min(100, math.Max(0, math.Ceil(1000*c-1e-9)/10))
}

// FormatPromise writes a promised catch probability as "8.5": PromiseRate
// with one decimal ("9.0", "5.0", "100.0"), the number before "times in
// 100" wherever a promise is printed.
func FormatPromise(c float64) string { return strconv.FormatFloat(PromiseRate(c), 'f', 1, 64) }

// FormatMeasured writes a rate measured by an experiment (an attack's catch
// or false-alarm rate, with its interval) labelled as measured, to the
// nearest 0.1 in 100: "measured: 8.6 in 100 [8.1, 9.2]". Only a promise is
// rounded up; a measurement is what it is.
func FormatMeasured(rate, lo, hi float64) string {
	f := func(x float64) string { return strconv.FormatFloat(100*x, 'f', 1, 64) }
	return "measured: " + f(rate) + " in 100 [" + f(lo) + ", " + f(hi) + "]"
}
