package exact

import (
	"math"
	"math/rand/v2"

	"github.com/dpsample/dpsample/core/rng"
)

const (
	sqrt2     = math.Sqrt2
	logSqrt2π = 0.9189385332046727 // ½·log(2π)
)

// logPhi returns log Φ(x) for the standard normal CDF Φ, stable in both tails:
// Φ(x) = ½·erfc(−x/√2) for x > −37, and below that the asymptotic series
// log Φ(x) = −x²/2 − log(−x) − ½log(2π) + log(1 − x⁻² + 3x⁻⁴ − 15x⁻⁶)
// (relative error < 1e-14 there).
func logPhi(x float64) float64 {
	switch {
	case math.IsNaN(x):
		return math.NaN()
	case x > 5:
		return math.Log1p(-0.5 * math.Erfc(x/sqrt2))
	case x > -37:
		return math.Log(0.5 * math.Erfc(-x/sqrt2))
	case math.IsInf(x, -1):
		return math.Inf(-1)
	}
	x2 := 1 / (x * x)
	return -0.5*x*x - math.Log(-x) - logSqrt2π + math.Log1p(x2*(-1+x2*(3-15*x2)))
}

// phi returns Φ(x) = ½·erfc(−x/√2).
func phi(x float64) float64 { return 0.5 * math.Erfc(-x/sqrt2) }

// logPhiDiff returns log(Φ(hi) − Φ(lo)) for lo ≤ hi (either may be infinite),
// and −Inf for an empty interval. Intervals on the positive side are reflected,
// (lo, hi) → (−hi, −lo), so the subtraction is always between lower-tail values.
func logPhiDiff(lo, hi float64) float64 {
	if !(lo < hi) {
		return math.Inf(-1)
	}
	if lo > 0 {
		lo, hi = -hi, -lo
	}
	if hi > 0 { // lo ≤ 0 < hi: mass = 1 − Φ(lo) − Φ(−hi), both tails ≤ ½
		return math.Log1p(-phi(lo) - phi(-hi))
	}
	a, b := logPhi(hi), logPhi(lo)
	if b == math.Inf(-1) {
		return a
	}
	return a + math.Log1p(-math.Exp(b-a))
}

// truncStdNormal returns a draw of Z ~ N(0,1) conditioned on lo ≤ Z ≤ hi
// (lo < hi, either may be infinite); see newTrunc for the method.
func truncStdNormal(r *rand.Rand, lo, hi float64) float64 {
	p := newTrunc(lo, hi)
	return p.draw(r)
}

// trunc is a prepared exact rejection sampler for N(0,1) truncated to
// [lo, hi]. Intervals with lo + hi < 0 are reflected (sign = −1), so that
// hi > 0 and hi ≥ |lo|. Then:
//
//   - lo ≤ 0 (the interval contains 0): a uniform proposal on narrow intervals
//     (width < 2.5, acceptance ≥ 0.49), otherwise normal draws kept when inside
//     (acceptance ≥ 0.39);
//   - 0 < lo < 0.5: the same two proposals, the uniform one accepted with
//     probability exp((lo² − x²)/2) (acceptance ≥ 0.30);
//   - lo ≥ 0.5: Robert's (1995) translated exponential proposal with rate
//     λ = (lo + √(lo²+4))/2, truncated to [lo, hi], accepted with probability
//     exp(−(x−λ)²/2).
//
// Every acceptance test first tries the squeeze u ≤ 1 − y ≤ e^{−y}, so most
// draws need no exp; the law is unchanged.
type trunc struct {
	lo, hi, w float64
	sign      float64
	kind      uint8
	lam, mass float64 // exponential proposal
}

const (
	truncNormal uint8 = iota
	truncUniform0
	truncUniformPos
	truncExp
)

func newTrunc(lo, hi float64) trunc {
	p := trunc{lo: lo, hi: hi, sign: 1}
	if math.IsInf(lo, -1) && math.IsInf(hi, 1) {
		p.kind = truncNormal
		return p
	}
	if lo+hi < 0 {
		p.lo, p.hi, p.sign = -hi, -lo, -1
	}
	const narrow = 2.5
	p.w = p.hi - p.lo
	switch {
	case p.lo <= 0:
		p.kind = truncNormal
		if p.w < narrow {
			p.kind = truncUniform0
		}
	case p.lo < 0.5:
		p.kind = truncNormal
		if p.w < narrow {
			p.kind = truncUniformPos
		}
	default:
		p.kind = truncExp
		p.lam = 0.5 * (p.lo + math.Sqrt(p.lo*p.lo+4))
		p.mass = -math.Expm1(-p.lam * p.w) // P(Exp(λ) ≤ w); 1 when w = +Inf
	}
	return p
}

// acceptExp reports u < e^{−y} for y ≥ 0, using the squeeze e^{−y} ≥ 1 − y.
func acceptExp(u, y float64) bool {
	return u <= 1-y || u < math.Exp(-y)
}

func (p *trunc) draw(r *rand.Rand) float64 {
	switch p.kind {
	case truncUniform0:
		for range maxRejectTrials {
			x := p.lo + r.Float64()*p.w
			if acceptExp(r.Float64(), 0.5*x*x) {
				return p.sign * x
			}
		}
		return p.fallback()
	case truncUniformPos:
		for range maxRejectTrials {
			x := p.lo + r.Float64()*p.w
			if acceptExp(r.Float64(), 0.5*(x-p.lo)*(x+p.lo)) {
				return p.sign * x
			}
		}
		return p.fallback()
	case truncExp:
		for range maxRejectTrials {
			var e float64
			if p.mass > 0.5 {
				e = rng.Exp53(r) / p.lam
				if e > p.w {
					continue
				}
			} else {
				e = -math.Log1p(-r.Float64()*p.mass) / p.lam
			}
			x := p.lo + e
			if x > p.hi { // rounding only
				x = p.hi
			}
			d := x - p.lam
			if acceptExp(r.Float64(), 0.5*d*d) {
				return p.sign * x
			}
		}
		return p.fallback()
	}
	for range maxRejectTrials {
		x := rng.Normal53(r)
		if x >= p.lo && x <= p.hi {
			return p.sign * x
		}
	}
	return p.fallback()
}

// fallback is returned only when a rejection loop reaches maxRejectTrials,
// which for valid bounds happens with probability < 0.7^(2²⁰): the point of
// [lo, hi] nearest 0.
func (p *trunc) fallback() float64 {
	return p.sign * math.Max(p.lo, math.Min(p.hi, 0))
}
