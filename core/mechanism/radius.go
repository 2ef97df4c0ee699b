package mechanism

import (
	"math"

	"github.com/dpsample/dpsample/core/loss"
)

// DefaultRadius is the public rule for the radius C (Assumption 1.2: a bound
// on ‖θ*‖) used when a request leaves radius unset (0), and by the page for
// the form's default (docs/DEFAULTS.md). It reads only the loss, the clipping
// norm and the declared domain (targetRange for the regression losses,
// pointBox for the location losses; nil means DefaultDomain), never the data.
// With m = max(|lo|, |hi|) the largest declared magnitude, a θ of norm C has
// scores |⟨θ, x⟩| ≤ C·clip, and the rule sets
//
//   - classification (hinge, logistic, smooth-hinge): C·clip = 4 logits
//     (probabilities 0.018 / 0.982; a hinge loss is flat beyond margin 1),
//     C = 4/clip;
//   - regression (lad, quantile, huber, smooth-quantile): C·clip = 2m, a
//     score that spans the declared target range, C = 2m/clip;
//   - the others (location l1, l2dist; linear, linext): C = 1.5·m — a centre
//     of points in the box [lo, hi]^d lies in it (the page's box is [−1, 1],
//     so C = 1.5).
//
// The page clips rows to √dim (dim the checked features, plus the intercept
// of a supervised loss), so there C = 4/√dim and 2/√dim.
func DefaultRadius(k loss.Kind, clip float64, domain []float64) float64 {
	m := math.Max(math.Abs(DefaultDomain[0]), math.Abs(DefaultDomain[1]))
	if len(domain) == 2 {
		m = math.Max(math.Abs(domain[0]), math.Abs(domain[1]))
	}
	if !(clip > 0) {
		clip = 1
	}
	switch {
	case k.Classification():
		return 4 / clip
	case k.Supervised():
		return 2 * m / clip
	default:
		return 1.5 * m
	}
}
