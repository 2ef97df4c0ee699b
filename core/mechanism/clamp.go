package mechanism

import (
	"fmt"
	"math"

	"github.com/dpsample/dpsample/core/checks"
	"github.com/dpsample/dpsample/core/loss"
)

// Clamping records to their declared box (issue 13). Every coordinate of a
// record z of the loss ℓ(θ; z) lives in a declared public box before any loss
// is evaluated (not to be confused with core/domain, which finds the bounds
// of a table's columns privately):
//
//   - features x of the feature losses (lad, quantile, huber, hinge,
//     logistic, linear, linext): the ball ‖x‖₂ ≤ clip (loss.New shrinks longer
//     rows onto it);
//   - targets y of the regression losses (lad, quantile, huber): the interval
//     targetRange = [lo, hi], default [−1, 1] (data scaled to [−1, 1] by
//     declared public ranges); each y_i is clamped to it;
//   - targets of hinge and logistic: the labels {−1, +1} (0 is read as −1);
//   - points z of the location losses (l1, l2dist): the box pointBox = [lo, hi]
//     applied to every coordinate, default [−1, 1]; each coordinate is clamped.
//
// Clamping is a fixed per-record map z ↦ c(z) chosen from public inputs
// only, so the mechanism run on c(D) is as private as on any dataset: if D
// and D′ differ in one record, c(D) and c(D′) differ in at most that record
// (replace-one is preserved), and G is unchanged — for every loss here G
// bounds the θ-gradient of ℓ(θ; z) uniformly in z: l1 and l2dist are
// 1-Lipschitz in θ for every point z, and lad/quantile/huber have
// |∂ℓ/∂m| ≤ max(τ, 1−τ) (lad: 1, huber: h) for every y, so their G = clip·that
// does not involve y (loss.Lipschitz). Bounding y and z therefore costs
// nothing in ε; it removes the floating-point failures of unbounded inputs
// (a term 1e300 absorbing the other records of L, a point 1e16 hanging the
// exact ℓ1 sampler, (1e200)² overflowing) and makes every later step see
// numbers of a public magnitude. How many records were clamped is a statistic
// of the data: it is reported in Diagnostics (not private).
//
// Bounds are validated here: two finite numbers lo < hi with |lo|, |hi| ≤
// MaxBound, so that sums of n terms and their squares stay far from
// overflow and from losing the other records' contributions.

// MaxBound bounds the magnitude of an end of a declared box (targetRange,
// pointBox). 10⁹ leaves ≥ 7 significant digits for unit-size terms in a sum
// that also holds one term of 10⁹, and 10¹⁸ squares far below overflow.
const MaxBound = 1e9

// DefaultBox is the target range and point box used when none is given:
// data on the scale [−1, 1] (what declared feature ranges produce).
var DefaultBox = [2]float64{-1, 1}

// clamping is the resolved declared box of a loss's records (targetRange,
// pointBox) and what clamping to it did.
type clamping struct {
	target, box    []float64 // nil when the loss has none
	clampedTargets int       // records whose y was clamped
	clampedPoints  int       // records with at least one coordinate clamped
}

// parseRange validates a declared [lo, hi] or returns the default; field
// names the request field.
func parseRange(field string, v []float64) ([]float64, error) {
	if v == nil {
		return []float64{DefaultBox[0], DefaultBox[1]}, nil
	}
	if len(v) != 2 {
		return nil, &checks.Error{Field: field, Rule: "two numbers [lo, hi]", Got: fmt.Sprintf("%d numbers", len(v))}
	}
	for i, b := range v {
		if err := checks.InRange(fmt.Sprintf("%s[%d]", field, i), b, -MaxBound, MaxBound); err != nil {
			return nil, err
		}
	}
	if !(v[0] < v[1]) {
		return nil, &checks.Error{Field: field, Rule: "[lo, hi] with lo < hi", Got: fmt.Sprintf("[%s, %s]", checks.Fmt(v[0]), checks.Fmt(v[1]))}
	}
	return []float64{v[0], v[1]}, nil
}

// clampRecords validates the declared box of loss k and returns copies of x
// and y clamped into it (x is returned as is for the feature losses, whose
// rows loss.New clips). A finite value is clamped by min(hi, max(lo, v)).
func clampRecords(k loss.Kind, req Request) ([][]float64, []float64, clamping, error) {
	var cl clamping
	regression := k.Supervised() && !k.Classification()
	if !regression && req.TargetRange != nil {
		return nil, nil, cl, checks.Errorf("targetRange", "absent: loss %q has no numeric target", k.String())
	}
	if !k.Location() && req.PointBox != nil {
		return nil, nil, cl, checks.Errorf("pointBox", "absent: loss %q has feature rows (bounded by clip), not points", k.String())
	}
	x, y := req.X, req.Y
	if regression {
		r, err := parseRange("targetRange", req.TargetRange)
		if err != nil {
			return nil, nil, cl, err
		}
		cl.target = r
		y = make([]float64, len(req.Y))
		for i, v := range req.Y {
			y[i] = clamp(v, r)
			if y[i] != v {
				cl.clampedTargets++
			}
		}
	}
	if k.Location() {
		r, err := parseRange("pointBox", req.PointBox)
		if err != nil {
			return nil, nil, cl, err
		}
		cl.box = r
		x = make([][]float64, len(req.X))
		for i, row := range req.X {
			c := make([]float64, len(row))
			hit := false
			for j, v := range row {
				c[j] = clamp(v, r)
				hit = hit || c[j] != v
			}
			x[i] = c
			if hit {
				cl.clampedPoints++
			}
		}
	}
	return x, y, cl, nil
}

// clamp returns v clamped to [r[0], r[1]]. NaN and ±Inf are left for
// loss.New to reject: they are malformed cells (JSON cannot even carry
// them), not values of the declared box.
func clamp(v float64, r []float64) float64 {
	switch {
	case math.IsNaN(v) || math.IsInf(v, 0):
		return v
	case v < r[0]:
		return r[0]
	case v > r[1]:
		return r[1]
	}
	return v
}
