// Package checks validates the parameters of dpsample's mechanisms in one place.
//
// Every function returns nil or an error whose message names the field and the
// rule it broke, in the form
//
//	epsilon must be a finite number > 0, got NaN
//
// so that the message can be shown to a user unchanged (the JS API rejects its
// Promise with exactly this text). Following google/differential-privacy's Go
// checks package, NaN, ±Inf and −0 are handled explicitly rather than left to
// fall through comparisons.
package checks

import (
	"fmt"
	"math"
	"strconv"
)

// Error is a validation error for one named field.
type Error struct {
	Field string // the field as the caller spelled it, e.g. "epsilon" or "x[12][3]"
	Rule  string // what the value must be, e.g. "a finite number > 0"
	Got   string // the offending value, formatted
}

func (e *Error) Error() string {
	if e.Got == "" {
		return e.Field + " must be " + e.Rule
	}
	return e.Field + " must be " + e.Rule + ", got " + e.Got
}

// Errorf returns an *Error for field with a formatted rule and no value.
func Errorf(field, format string, args ...any) error {
	return &Error{Field: field, Rule: fmt.Sprintf(format, args...)}
}

// Fmt formats a float64 for an error message: NaN, +Inf, -Inf, -0 spelled out,
// otherwise the shortest representation that round-trips.
func Fmt(v float64) string {
	switch {
	case math.IsNaN(v):
		return "NaN"
	case math.IsInf(v, 1):
		return "+Inf"
	case math.IsInf(v, -1):
		return "-Inf"
	case v == 0 && math.Signbit(v):
		return "-0"
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}

func bad(field, rule string, v float64) error {
	return &Error{Field: field, Rule: rule, Got: Fmt(v)}
}

// Finite requires v to be a finite number (not NaN, not ±Inf).
func Finite(field string, v float64) error {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return bad(field, "a finite number", v)
	}
	return nil
}

// Positive requires v to be finite and > 0. −0 is rejected.
func Positive(field string, v float64) error {
	if math.IsNaN(v) || math.IsInf(v, 0) || !(v > 0) {
		return bad(field, "a finite number > 0", v)
	}
	return nil
}

// NonNegative requires v to be finite and ≥ 0. −0 is rejected, following
// OpenDP, because a signed zero in a privacy parameter signals a bug upstream.
func NonNegative(field string, v float64) error {
	if math.IsNaN(v) || math.IsInf(v, 0) || v < 0 || (v == 0 && math.Signbit(v)) {
		return bad(field, "a finite number ≥ 0", v)
	}
	return nil
}

// Epsilon requires the privacy parameter ε to be finite and > 0.
func Epsilon(field string, eps float64) error { return Positive(field, eps) }

// Delta requires the privacy parameter δ to lie in the open interval (0, 1).
func Delta(field string, delta float64) error {
	if math.IsNaN(delta) || !(delta > 0 && delta < 1) {
		return bad(field, "a number in (0, 1)", delta)
	}
	return nil
}

// DeltaForN requires δ < 1/n for a mechanism over n records. The mechanism
// that publishes one record chosen uniformly at random is (0, 1/n)-DP under
// replace-one (a record is released with probability 1/n), so a δ ≥ 1/n
// admits releasing a row outright and certifies nothing (Dwork–Roth, The
// Algorithmic Foundations of Differential Privacy, §2.3: δ should be much
// smaller than 1/n).
func DeltaForN(field string, delta float64, n int) error {
	if err := Delta(field, delta); err != nil {
		return err
	}
	if n > 0 && !(delta < 1/float64(n)) {
		return &Error{Field: field, Rule: fmt.Sprintf("below 1/n = %.4g for n = %d rows, since a δ ≥ 1/n permits publishing one row outright (pick δ well below 1/n, e.g. %s)",
			1/float64(n), n, Fmt(suggestDelta(n))), Got: Fmt(delta)}
	}
	return nil
}

// suggestDelta is the power of ten at or below 1/n²: a δ much smaller than 1/n.
func suggestDelta(n int) float64 {
	return math.Pow(10, math.Floor(math.Log10(1/(float64(n)*float64(n)))))
}

// Probability requires p to lie in the open interval (0, 1).
func Probability(field string, p float64) error { return Delta(field, p) }

// InRange requires lo ≤ v ≤ hi with v finite.
func InRange(field string, v, lo, hi float64) error {
	if math.IsNaN(v) || math.IsInf(v, 0) || v < lo || v > hi {
		return bad(field, fmt.Sprintf("a finite number in [%s, %s]", Fmt(lo), Fmt(hi)), v)
	}
	return nil
}

// IntRange requires lo ≤ v ≤ hi for an integer field.
func IntRange(field string, v, lo, hi int) error {
	if v < lo || v > hi {
		return &Error{Field: field, Rule: fmt.Sprintf("an integer in [%d, %d]", lo, hi), Got: strconv.Itoa(v)}
	}
	return nil
}

// Matrix requires x to be a non-empty n×d matrix (d ≥ 1, all rows of equal
// length) of finite numbers. Errors name the first offending cell, e.g.
// "x[12][3] must be a finite number, got NaN".
func Matrix(field string, x [][]float64) (n, d int, err error) {
	if len(x) == 0 {
		return 0, 0, Errorf(field, "a non-empty array of rows")
	}
	d = len(x[0])
	if d == 0 {
		return 0, 0, Errorf(field+"[0]", "a non-empty row")
	}
	for i, row := range x {
		if len(row) != d {
			return 0, 0, &Error{Field: fmt.Sprintf("%s[%d]", field, i),
				Rule: fmt.Sprintf("a row of length %d like %s[0] (ragged rows)", d, field), Got: fmt.Sprintf("length %d", len(row))}
		}
		for j, v := range row {
			if !finite(v) { // the field's name only for the error: a cell's Sprintf costs more than the check
				return 0, 0, Finite(fmt.Sprintf("%s[%d][%d]", field, i, j), v)
			}
		}
	}
	return len(x), d, nil
}

// Vector requires y to have length n and finite entries.
func Vector(field string, y []float64, n int) error {
	if len(y) != n {
		return &Error{Field: field, Rule: fmt.Sprintf("an array of length %d", n), Got: fmt.Sprintf("length %d", len(y))}
	}
	for i, v := range y {
		if !finite(v) {
			return Finite(fmt.Sprintf("%s[%d]", field, i), v)
		}
	}
	return nil
}

func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

// First returns the first non-nil error, so that a validation reads as one
// list of rules in the order their messages should be reported:
//
//	return checks.First(checks.Epsilon("epsilon", eps), checks.Delta("delta", delta))
func First(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}
