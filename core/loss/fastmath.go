package loss

import "math"

// The exp and log1p of the logistic pass, written out so that a row costs
// two calls instead of six (Go's math.Exp calls exp → expmulti → Ldexp, and
// math.Log1p one more function; under GOARCH=wasm every call spills its
// arguments to the Go stack in linear memory and returns through a resume
// check). In a node CPU profile of the wasm logistic pass before this file,
// math.log1p, math.expmulti, math.exp and math.ldexp took ≈ 16 % of the time.
//
// Both are the operation-for-operation copies of the pure-Go algorithms of
// package math (math/exp.go, math/log1p.go: FreeBSD's msun, error < 1 ulp),
// restricted to the inputs the pass can produce, with every other input
// handed to math.Exp / math.Log1p:
//
//   - expFast(x), |x| ≤ expFastMax: the same reduction x = k·ln2 + r and the
//     same polynomial; only the final Ldexp(y, k) is replaced by a multiply
//     with 2^k built from its bits, which is exact (and equal to Ldexp)
//     because y ∈ [0.70, 1.42] and |k| ≤ 1022 keep y·2^k normal.
//   - log1p01(x), 0 ≤ x ≤ 1: msun's log1p without the branches for x < 0,
//     x ≥ 2⁵³ and ±Inf, NaN, which cannot occur there.
//
// So under GOARCH=wasm (where math.Exp is the pure-Go exp) both are bit for
// bit math.Exp and math.Log1p, and a pass returns what it returned with
// them. math.Log1p is pure Go on every architecture but s390x. amd64's
// math.Exp is an assembly routine with its own polynomial: there expFast
// equals it on ≈ 92 % of arguments, differs by 1 ulp on ≈ 8 % and by 2 ulp
// on ≈ 0.005 %, where a 150-bit reference shows the assembly routine is the
// one more than 1 ulp off (TestExpFast, 10⁸ points and the edges). The
// passes use expFast on every architecture, so native and wasm passes
// compute the same φ.
//
// The range that can occur: the pass evaluates e^{−|t|} for the margin
// t = y·⟨aᵢ, θ⟩ with ‖aᵢ‖ ≤ clip and y = ±1, so |t| ≤ clip·‖θ‖. θ is a sample of
// a Gaussian-tailed law, not a bounded quantity, so every finite t must work:
// for |t| > expFastMax = 708 the fallback math.Exp gives e^{−|t|} < 3.3·10⁻³⁰⁸
// (subnormal or 0), and log1p01 of it is exact (x < 2⁻⁵⁴ returns x). NaN
// propagates through the fallback.

// expFastMax bounds the argument of expFast's fast path: k = round(x·log2 e)
// stays in [−1022, 1022] and y·2^k is normal.
const expFastMax = 708

// expFast returns e^x, bit for bit the pure-Go math.exp for |x| ≤ expFastMax
// and math.Exp(x) otherwise (including NaN and ±Inf).
func expFast(x float64) float64 {
	const (
		Ln2Hi    = 6.93147180369123816490e-01
		Ln2Lo    = 1.90821492927058770002e-10
		Log2e    = 1.44269504088896338700e+00
		NearZero = 1.0 / (1 << 28) // 2**-28

		P1 = 1.66666666666666657415e-01
		P2 = -2.77777777770155933842e-03
		P3 = 6.61375632143793436117e-05
		P4 = -1.65339022054652515390e-06
		P5 = 4.13813679705723846039e-08
	)
	if !(x >= -expFastMax && x <= expFastMax) {
		return math.Exp(x)
	}
	if -NearZero < x && x < NearZero {
		return 1 + x
	}
	var k int
	if x < 0 {
		k = int(Log2e*x - 0.5)
	} else {
		k = int(Log2e*x + 0.5)
	}
	hi := x - float64(k)*Ln2Hi
	lo := float64(k) * Ln2Lo
	r := hi - lo
	t := r * r
	c := r - t*(P1+t*(P2+t*(P3+t*(P4+t*P5))))
	y := 1 - ((lo - (r*c)/(2-c)) - hi)
	return y * math.Float64frombits(uint64(k+1023)<<52)
}

// log1p01 returns log(1 + x), bit for bit math.Log1p(x), for 0 ≤ x ≤ 1;
// other inputs go to math.Log1p.
func log1p01(x float64) float64 {
	const (
		Sqrt2M1 = 4.142135623730950488017e-01 // Sqrt(2)-1
		Small   = 1.0 / (1 << 29)             // 2**-29
		Tiny    = 1.0 / (1 << 54)             // 2**-54
		Ln2Hi   = 6.93147180369123816490e-01
		Ln2Lo   = 1.90821492927058770002e-10
		Lp1     = 6.666666666666735130e-01
		Lp2     = 3.999999999940941908e-01
		Lp3     = 2.857142874366239149e-01
		Lp4     = 2.222219843214978396e-01
		Lp5     = 1.818357216161805012e-01
		Lp6     = 1.531383769920937332e-01
		Lp7     = 1.479819860511658591e-01
	)
	if !(x >= 0 && x <= 1) {
		return math.Log1p(x)
	}
	if x < Sqrt2M1 {
		if x < Small {
			if x < Tiny {
				return x
			}
			return x - x*x*0.5
		}
		// k = 0, f = x (msun: Sqrt(2)/2−1 < x < Sqrt(2)−1, iu = 1)
		hfsq := 0.5 * x * x
		s := x / (2.0 + x)
		z := s * s
		R := z * (Lp1 + z*(Lp2+z*(Lp3+z*(Lp4+z*(Lp5+z*(Lp6+z*Lp7))))))
		return x - (hfsq - s*(hfsq+R))
	}
	u := 1.0 + x
	iu := math.Float64bits(u)
	k := int((iu >> 52) - 1023)
	var c float64
	if k > 0 {
		c = 1.0 - (u - x)
	} else {
		c = x - (u - 1.0)
	}
	c /= u
	iu &= 0x000fffffffffffff
	if iu < 0x0006a09e667f3bcd {
		u = math.Float64frombits(iu | 0x3ff0000000000000)
	} else {
		k++
		u = math.Float64frombits(iu | 0x3fe0000000000000)
		iu = (0x0010000000000000 - iu) >> 2
	}
	f := u - 1.0
	hfsq := 0.5 * f * f
	fk := float64(k)
	if iu == 0 {
		if f == 0 {
			if k == 0 {
				return 0
			}
			c += fk * Ln2Lo
			return fk*Ln2Hi + c
		}
		R := hfsq * (1.0 - 0.66666666666666666*f)
		if k == 0 {
			return f - R
		}
		return fk*Ln2Hi - ((R - (fk*Ln2Lo + c)) - f)
	}
	s := f / (2.0 + f)
	z := s * s
	R := z * (Lp1 + z*(Lp2+z*(Lp3+z*(Lp4+z*(Lp5+z*(Lp6+z*Lp7))))))
	if k == 0 {
		return f - (hfsq - s*(hfsq+R))
	}
	return fk*Ln2Hi - ((hfsq - (s*(hfsq+R) + (fk*Ln2Lo + c))) - f)
}
