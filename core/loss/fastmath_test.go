package loss

import (
	"math"
	"math/big"
	"runtime"
	"testing"

	"github.com/dpsample/dpsample/core/rng"
)

// ulps returns the distance in units in the last place between a and b
// (0 when both are NaN or they are equal, including ±Inf; MaxUint64 when
// exactly one is NaN or the signs differ and they are not both zero).
func ulps(a, b float64) uint64 {
	switch {
	case a == b || (a != a && b != b):
		return 0
	case a != a || b != b || math.Signbit(a) != math.Signbit(b):
		return math.MaxUint64
	}
	x, y := math.Float64bits(math.Abs(a)), math.Float64bits(math.Abs(b))
	if x > y {
		return x - y
	}
	return y - x
}

// fastmathPoints is 10⁸ points natively and 10⁶ in -short mode and under
// GOARCH=wasm (node runs the wasm test binary ≈ 5× slower).
func fastmathPoints() int {
	if testing.Short() || runtime.GOARCH == "wasm" {
		return 1_000_000
	}
	return 100_000_000
}

// expExact reports whether math.Exp is the pure-Go exp on this GOARCH (the
// architectures of math/exp_asm.go have an assembly one).
func expExact() bool {
	switch runtime.GOARCH {
	case "amd64", "arm64", "loong64", "s390x":
		return false
	}
	return true
}

// The edges: 0, ±tiny, subnormals, the NearZero and fast-range thresholds
// of expFast, math.Exp's overflow and underflow thresholds, ±Inf, NaN.
var expEdges = func() []float64 {
	v := []float64{0, math.Copysign(0, -1), 5e-324, -5e-324, 2.2250738585072014e-308, -2.2250738585072014e-308,
		1e-310, 1.0 / (1 << 28), -1.0 / (1 << 28), 1.0 / (1 << 29), 1.0 / (1 << 54), 1e-20, -1e-20, 0.5, -0.5,
		math.Ln2 / 2, -math.Ln2 / 2, 1, -1, expFastMax, -expFastMax, 7.09782712893383973096e+02, -7.45133219101941108420e+02,
		709.8, -745.2, -746, 1000, -1000, math.MaxFloat64, -math.MaxFloat64, math.Inf(1), math.Inf(-1), math.NaN()}
	out := append([]float64(nil), v...)
	for _, x := range v {
		out = append(out, math.Nextafter(x, math.Inf(1)), math.Nextafter(x, math.Inf(-1)))
	}
	for k := -1030; k <= 1030; k++ { // the reduction's rounding boundaries (k ± ½)·ln 2
		c := (float64(k) + 0.5) * math.Ln2
		out = append(out, c, math.Nextafter(c, 0), math.Nextafter(c, math.Inf(1)))
	}
	return out
}()

// expBig returns e^x to ≈ 150 bits: x = k·ln2 + r with a 63-digit ln 2
// and |r| ≤ ln2/2, e^r by its Taylor series, times 2^k.
func expBig(x float64) *big.Float {
	const prec = 200
	ln2, _ := new(big.Float).SetPrec(prec).SetString("0.693147180559945309417232121458176568075500134360255254120680009")
	k := math.Round(x / math.Ln2)
	r := new(big.Float).SetPrec(prec).SetFloat64(x)
	r.Sub(r, new(big.Float).SetPrec(prec).Mul(ln2, new(big.Float).SetFloat64(k)))
	sum := new(big.Float).SetPrec(prec).SetInt64(1)
	term := new(big.Float).SetPrec(prec).SetInt64(1)
	for n := 1; n < 60; n++ {
		term.Mul(term, r)
		term.Quo(term, new(big.Float).SetInt64(int64(n)))
		sum.Add(sum, term)
	}
	return sum.SetMantExp(sum, int(k))
}

// faithful reports whether f is within one ulp of e^x: |f − e^x| < ulp(f).
func faithful(f, x float64) bool {
	ulp := math.Nextafter(f, math.Inf(1)) - f
	d := new(big.Float).SetPrec(200).SetFloat64(f)
	d.Sub(d, expBig(x))
	return d.Abs(d).Cmp(new(big.Float).SetFloat64(ulp)) < 0
}

// TestExpFast: expFast against math.Exp on 10⁸ points (uniform on
// [−746, 710], and ±2^u·(1+v) with u uniform on [−1074, 10] for tiny and
// moderate arguments) and on the edges. Where math.Exp is the pure-Go
// routine (GOARCH=wasm among them) they are equal bit for bit. amd64's
// assembly math.Exp uses another polynomial: there ≈ 16 % of points differ
// by 1 ulp and ≈ 0.01 % by 2 ulp; at every one of the latter expFast is
// checked against e^x computed to 150 bits (expBig) and must be within 1 ulp
// of it (it is: the 2-ulp gaps are the assembly routine's error, e.g. at
// x = −603.3846206774323 e^x = 8.98232520221663011…e−263, expFast gives the
// nearest double …631e−263, math.Exp …628e−263). No point may differ by more
// than 2 ulp.
func TestExpFast(t *testing.T) {
	r := rng.Seeded(31)
	var hist [3]int
	check := func(x float64) {
		got, want := expFast(x), math.Exp(x)
		u := ulps(got, want)
		switch {
		case u == 0:
		case expExact():
			t.Fatalf("expFast(%v) = %v, math.Exp %v: %d ulp on %s (want bit for bit)", x, got, want, u, runtime.GOARCH)
		case u > 2:
			t.Fatalf("expFast(%v) = %v, math.Exp %v: %d ulp", x, got, want, u)
		case u == 2 && !faithful(got, x):
			t.Fatalf("expFast(%v) = %v is not within 1 ulp of e^x = %s (math.Exp %v)", x, got, expBig(x).Text('g', 25), want)
		}
		hist[min(u, 2)]++
	}
	for _, x := range expEdges {
		check(x)
	}
	m := fastmathPoints()
	for i := 0; i < m; i++ {
		var x float64
		if i%2 == 0 {
			x = -746 + 1456*r.Float64()
		} else {
			x = math.Ldexp(1+r.Float64(), -1074+r.IntN(1085))
			if r.IntN(2) == 0 {
				x = -x
			}
		}
		check(x)
	}
	t.Logf("%s: %d points + %d edges: %d equal to math.Exp, %d at 1 ulp, %d at 2 ulp (each within 1 ulp of e^x)",
		runtime.GOARCH, m, len(expEdges), hist[0], hist[1], hist[2])
}

// TestExpBigFindsError: the 150-bit reference has the power to reject a
// value 2 ulp off e^x (the check above is not vacuous).
func TestExpBigFindsError(t *testing.T) {
	x := -603.3846206774323
	f := expFast(x)
	if !faithful(f, x) {
		t.Fatalf("expFast(%v) = %v not faithful", x, f)
	}
	if faithful(math.Nextafter(math.Nextafter(f, 0), 0), x) {
		t.Errorf("a value 2 ulp below e^x passed the 150-bit check")
	}
}

// TestLog1p01: log1p01 is math.Log1p bit for bit on [0, 1] (10⁸ points,
// half uniform, half 2^u·(1+v) down to the subnormals) and at the edges,
// and hands every other input to math.Log1p.
func TestLog1p01(t *testing.T) {
	r := rng.Seeded(32)
	check := func(x float64) {
		if got, want := log1p01(x), math.Log1p(x); ulps(got, want) != 0 {
			t.Fatalf("log1p01(%v) = %v, math.Log1p %v", x, got, want)
		}
	}
	edges := []float64{0, math.Copysign(0, -1), 5e-324, 1e-310, 2.2250738585072014e-308, 1.0 / (1 << 54), 1.0 / (1 << 29),
		1e-10, 4.142135623730950488017e-01, math.Sqrt2 - 1, 0.5, 1, -0.5, -1, -2, 2, 1e300, math.Inf(1), math.Inf(-1), math.NaN()}
	for _, x := range edges {
		check(x)
		check(math.Nextafter(x, math.Inf(1)))
		check(math.Nextafter(x, math.Inf(-1)))
	}
	m := fastmathPoints()
	for i := 0; i < m; i++ {
		if i%2 == 0 {
			check(r.Float64())
		} else {
			check(math.Ldexp(1+r.Float64(), -1074+r.IntN(1074)))
		}
	}
}

// TestLogisticValDeriv: the pass's logistic value and derivative (one
// expFast, one log1p01) against the same formulas with math.Exp and
// math.Log1p (refValDeriv): within 2 ulp natively (e^{−|t|} may differ by
// 1 ulp from the assembly math.Exp), bit for bit where math.Exp is pure Go;
// finite and with |φ'| ≤ 1 for every finite margin up to ±10³⁰⁰.
func TestLogisticValDeriv(t *testing.T) {
	s := oneRecord(t, Logistic, 1, Params{})
	r := rng.Seeded(33)
	tol := uint64(2)
	if expExact() {
		tol = 0
	}
	for i := 0; i < 1_000_000; i++ {
		v := 40 * r.NormFloat64()
		if i%10 == 0 {
			v = math.Ldexp(r.NormFloat64(), r.IntN(2000)-1000)
		}
		y := float64(2*r.IntN(2) - 1)
		val, c := logisticValDeriv(y, v)
		rv, rc := s.refValDeriv(v, y)
		if ulps(val, rv) > tol || ulps(c, rc) > tol {
			t.Fatalf("v=%v y=%v: (%v, %v), reference (%v, %v)", v, y, val, c, rv, rc)
		}
		if math.IsNaN(val) || math.IsInf(val, 0) || !(math.Abs(c) <= 1) {
			t.Fatalf("v=%v: (%v, %v)", v, val, c)
		}
	}
}
