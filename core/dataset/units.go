package dataset

import (
	"fmt"

	"github.com/dpsample/dpsample/core/checks"
)

// Results in the user's units (issue 15). Scale maps a declared range
// [lo, hi] to [−1, 1] by the affine map
//
//	x_s = (x − c)/h,  c = (lo + hi)/2,  h = (hi − lo)/2,
//
// so everything the mechanism returns in scaled units maps back through the
// declared ranges alone (public), never through the data.

// Centre is c = (lo + hi)/2.
func (r Range) Centre() float64 { return (r.Lo + r.Hi) / 2 }

// Half is h = (hi − lo)/2.
func (r Range) Half() float64 { return (r.Hi - r.Lo) / 2 }

// ToScaled is x ↦ (x − c)/h = (2x − lo − hi)/(hi − lo), not clamped to
// [−1, 1] (Scale clamps features to [−1, 1]; the regression losses clamp the
// scaled target to targetRange [−1, 1] inside the mechanism, which counts the
// clamps) but saturated at ±3 — the images of lo − w and hi + w, w = hi − lo —
// before any arithmetic on x (issue 21): on main a target cell of 10³⁰⁸
// overflowed 2x to +Inf and the call failed with "y[5] must be a finite
// number"; now it maps to 3 and is clamped to 1 like any value above hi, so
// the sample is the one its clamped neighbour gives. In the range, and up
// to w beyond it, the value is the formula's bit for bit. For a valid range
// (|lo|, |hi| ≤ MaxRange) no intermediate overflows.
func (r Range) ToScaled(x float64) float64 {
	w := r.Hi - r.Lo
	switch {
	case x > r.Hi+w:
		return 3
	case x < r.Lo-w:
		return -3
	}
	return (2*x - r.Lo - r.Hi) / w
}

// MaxRange bounds the ends of a declared range: with |lo|, |hi| ≤ 10³⁰⁰ the
// width, the saturation points lo − w, hi + w and 2x − lo − hi are finite.
const MaxRange = 1e300

// FromScaled is the inverse map x_s ↦ c + h·x_s.
func (r Range) FromScaled(xs float64) float64 { return r.Centre() + r.Half()*xs }

// Valid checks a declared range: finite lo < hi, both at most MaxRange in
// magnitude. field names it in errors.
func (r Range) Valid(field string) error {
	if err := checks.Finite(field+".lo", r.Lo); err != nil {
		return err
	}
	if err := checks.Finite(field+".hi", r.Hi); err != nil {
		return err
	}
	if !(r.Hi > r.Lo) {
		return &checks.Error{Field: field, Rule: "[lo, hi] with lo < hi", Got: fmt.Sprintf("[%s, %s]", checks.Fmt(r.Lo), checks.Fmt(r.Hi))}
	}
	if err := checks.InRange(field+".lo", r.Lo, -MaxRange, MaxRange); err != nil {
		return err
	}
	return checks.InRange(field+".hi", r.Hi, -MaxRange, MaxRange)
}

// Coefficients maps the coefficients θ of a linear score fitted on scaled
// features (θ_1 … θ_d, then θ_0 for an intercept column of ones when
// intercept is set) back to the columns' units. With x_s,j = (x_j − c_j)/h_j
// and, when target is non-nil, y = c_y + h_y·y_s (regression), the score
//
//	c_y + h_y·(Σ_j θ_j·x_s,j + θ_0) = Σ_j β_j·x_j + β_0
//
// holds for every x with β_j = h_y·θ_j/h_j and β_0 = c_y + h_y·(θ_0 − Σ_j θ_j·c_j/h_j)
// (c_y = 0, h_y = 1 for a classifier's score). Without an intercept the shift
// cannot be absorbed and β_0 is returned as an extra last entry.
func Coefficients(theta []float64, features []Range, target *Range, intercept bool) ([]float64, error) {
	d := len(features)
	if want := d + btoi(intercept); len(theta) != want {
		return nil, &checks.Error{Field: "theta", Rule: fmt.Sprintf("an array of length %d (features + intercept)", want), Got: fmt.Sprintf("length %d", len(theta))}
	}
	cy, hy := 0.0, 1.0
	if target != nil {
		cy, hy = target.Centre(), target.Half()
	}
	out := make([]float64, d+1)
	shift := 0.0
	if intercept {
		shift = theta[d]
	}
	for j, r := range features {
		out[j] = hy * theta[j] / r.Half()
		shift -= theta[j] * r.Centre() / r.Half()
	}
	out[d] = cy + hy*shift
	return out, nil
}

// Point maps a point θ in scaled coordinates (a centre of the location
// losses) back to the columns' units: θ_j ↦ c_j + h_j·θ_j.
func Point(theta []float64, features []Range) []float64 {
	out := make([]float64, len(theta))
	for j, v := range theta {
		out[j] = features[j].FromScaled(v)
	}
	return out
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// RangeEffects are the coefficients of a linear score on one common scale:
// the change in the score when feature j goes from the bottom to the top of
// its declared range, β_j·(hi_j − lo_j) = 2·h_y·θ_j (β_j as in Coefficients;
// h_y = 1 for a classifier's score, whose unit is then the logit for the
// logistic loss). Per-unit coefficients of columns in different units cannot
// be compared (a column measured in small numbers gets a large β); these
// can, because every declared range is one unit. The intercept, if any, is
// not among them.
func RangeEffects(theta []float64, features []Range, target *Range) []float64 {
	hy := 1.0
	if target != nil {
		hy = target.Half()
	}
	out := make([]float64, min(len(theta), len(features)))
	for j := range out {
		out[j] = 2 * hy * theta[j]
	}
	return out
}
