package loss

import (
	"math"
	"testing"

	"github.com/dpsample/dpsample/core/rng"
)

// TestKernelsMatchGo: margins and grad (the assembly kernels under
// GOARCH=wasm) return the same bits as marginsGo and gradGo for every d in
// 1..13 and row counts 0..9, on entries that include ±0, ±Inf, NaN,
// subnormals and huge values. Natively the two are the same code; under
// node this is the check of kernel_wasm.s.
func TestKernelsMatchGo(t *testing.T) {
	r := rng.Seeded(21)
	special := []float64{0, math.Copysign(0, -1), math.Inf(1), math.Inf(-1), math.NaN(), 5e-324, -1e-310, 1e300, -1e300}
	draw := func(p float64) float64 {
		if r.Float64() < p {
			return special[r.IntN(len(special))]
		}
		return r.NormFloat64() * math.Exp(4*r.NormFloat64())
	}
	same := func(a, b float64) bool { return math.Float64bits(a) == math.Float64bits(b) || (a != a && b != b) }
	for trial := 0; trial < 400; trial++ {
		d, m := 1+trial%13, trial%10
		p := 0.0
		if trial%4 == 3 {
			p = 0.1
		}
		theta, x := make([]float64, d), make([]float64, m*d)
		for j := range theta {
			theta[j] = draw(p)
		}
		for j := range x {
			x[j] = draw(p)
		}
		u1, u2 := make([]float64, m), make([]float64, m)
		margins(theta, x, u1)
		marginsGo(theta, x, u2)
		for k := range u1 {
			if !same(u1[k], u2[k]) {
				t.Fatalf("d=%d m=%d: margins[%d] = %v, Go %v", d, m, k, u1[k], u2[k])
			}
		}
		l := make([]float64, 3*m)
		for k := range l {
			l[k] = draw(p)
		}
		g1, g2 := make([]float64, d), make([]float64, d)
		for j := range g1 {
			g1[j] = draw(p)
			g2[j] = g1[j]
		}
		grad(l, x, g1)
		gradGo(l, x, g2)
		for j := range g1 {
			if !same(g1[j], g2[j]) {
				t.Fatalf("d=%d m=%d: grad[%d] = %v, Go %v", d, m, j, g1[j], g2[j])
			}
		}
	}
}

// TestDot4Order: dot4 adds the four residue classes mod 4 separately and
// then the tail, i.e. it is the documented order, not left to right: on a
// vector built so that the two orders round differently they differ, and
// dot4 equals the documented expression.
func TestDot4Order(t *testing.T) {
	a := []float64{1e16, 1, -1e16, 1, 1, 0, 0, 0, 3}
	b := []float64{1, 1, 1, 1, 1, 1, 1, 1, 1}
	p0, p1, p2, p3 := a[0]+a[4], a[1]+a[5], a[2]+a[6], a[3]+a[7]
	want := (p0 + p1) + (p2 + p3) + a[8]
	if got := dot4(a, b); got != want {
		t.Errorf("dot4 = %v, documented order %v", got, want)
	}
	if dot(a, b) == want {
		t.Errorf("test vector does not tell the orders apart (left to right %v)", dot(a, b))
	}
}

// TestPassMatchesReference: Linearize and Bregman (blocked sums, dot4, the
// inlined exp and log1p) agree with the row-by-row reference loops they
// replaced (pass_ref_test.go) to 1e-12 relative, for every smooth loss, on
// n = 1000 rows (8 blocks, the last partial) of d = 7 and 30, with targets
// and margins up to ±40; the per-record lin entries agree to the same
// tolerance.
func TestPassMatchesReference(t *testing.T) {
	r := rng.Seeded(22)
	close := func(a, b float64) bool { return math.Abs(a-b) <= 1e-12*math.Max(1, math.Abs(b)) }
	for _, k := range smoothKinds {
		for _, d := range []int{7, 30} {
			n := 1000
			x, y := data(r, k, n, d)
			s, err := New(k, x, y, Params{Huber: 0.7, Tau: 0.2})
			if err != nil {
				t.Fatal(err)
			}
			g1, g2 := make([]float64, d), make([]float64, d)
			l1, l2 := make([]float64, 3*n), make([]float64, 3*n)
			for trial := 0; trial < 20; trial++ {
				z, u := randVec(r, d, 10), randVec(r, d, 10)
				v1, v2 := s.Linearize(z, g1, l1), s.refLinearize(z, g2, l2)
				if !close(v1, v2) {
					t.Fatalf("%v d=%d: Linearize %v, reference %v", k, d, v1, v2)
				}
				for j := range g1 {
					if !close(g1[j], g2[j]) {
						t.Fatalf("%v d=%d: grad[%d] %v, reference %v", k, d, j, g1[j], g2[j])
					}
				}
				for i := range l1 {
					if !close(l1[i], l2[i]) {
						t.Fatalf("%v d=%d: lin[%d] %v, reference %v", k, d, i, l1[i], l2[i])
					}
				}
				if b1, b2 := s.Bregman(u, l1), s.refBregman(u, l2); !close(b1, b2) {
					t.Fatalf("%v d=%d: Bregman %v, reference %v", k, d, b1, b2)
				}
			}
		}
	}
}
