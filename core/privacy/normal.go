package privacy

import "math"

// Phi is the standard normal CDF Φ(x) = ½·erfc(−x/√2). The erfc form keeps
// full relative accuracy in the lower tail, where ½(1+erf(x/√2)) cancels to 0.
func Phi(x float64) float64 { return 0.5 * math.Erfc(-x/math.Sqrt2) }

// LogPhi is log Φ(x), accurate for every finite x. For x < −37, where erfc
// underflows, it uses the asymptotic series
//
//	log Φ(x) = −x²/2 − log(−x) − ½·log(2π) + log(1 − x⁻² + 3x⁻⁴ − 15x⁻⁶ + 105x⁻⁸),
//
// whose truncation error there is below 1e-14 relative.
func LogPhi(x float64) float64 {
	switch {
	case math.IsNaN(x):
		return math.NaN()
	case x > 0:
		// Φ(x) = 1 − Φ(−x); log1p keeps the tiny upper tail exact.
		return math.Log1p(-0.5 * math.Erfc(x/math.Sqrt2))
	case x > -37:
		return math.Log(0.5 * math.Erfc(-x/math.Sqrt2))
	case math.IsInf(x, -1):
		return math.Inf(-1)
	}
	r := 1 / (x * x)
	series := 1 - r*(1-r*(3-r*(15-105*r)))
	return -x*x/2 - math.Log(-x) - 0.5*math.Log(2*math.Pi) + math.Log(series)
}

// PhiInvUpper returns z = Φ⁻¹(1−p) for p ∈ (0, 1): √2·erfcinv(2p) for
// p ≥ 10⁻¹⁵, and below the root of log Φ(−z) = log p. Go's erfcinv(x) is
// erfinv(1 − x), which loses p in the rounding of 1 − 2p (2.8 % of it at
// p = 10⁻¹⁵) and returns +Inf for p < 2⁻⁵⁵ ≈ 2.8·10⁻¹⁷, where Calibrate
// then returned NaN for δ and ComposedEpsilon +Inf for a total variation
// (issue 41). The root is found by Newton's method from z₀ = √(2·log(1/p)),
// which is above it (Φ(−z₀) ≤ e^(−z₀²/2)/2 = p/2); log Φ(−z) is concave and
// decreasing in z, so the iterates decrease to the root, quadratically. At
// p = 0 it is +Inf.
func PhiInvUpper(p float64) float64 {
	if !(p < 1e-15) || p <= 0 {
		return math.Sqrt2 * math.Erfcinv(2*p)
	}
	lp := math.Log(p)
	z := math.Sqrt(-2 * lp)
	halfLog2Pi := 0.5 * math.Log(2*math.Pi)
	for range 100 {
		l := LogPhi(-z)
		// h(z) = log Φ(−z) − log p, h′(z) = −φ(z)/Φ(−z).
		step := (l - lp) * math.Exp(l+z*z/2+halfLog2Pi)
		z += step
		if math.Abs(step) <= 1e-15*z {
			break
		}
	}
	return z
}
