package loss

import "math"

// Linearize prepares the tangent-plane envelope of the first-order proximal
// sampler (smooth-sampler.md §2) at z for a smooth loss: it returns
// L(z) = (1/n)Σᵢ φ(⟨aᵢ, z⟩; yᵢ), sets grad = ∇L(z) = (1/n)Σᵢ φ'(⟨aᵢ, z⟩; yᵢ)·aᵢ,
// and stores per record i the margin vᵢ = ⟨aᵢ, z⟩, φ(vᵢ) and φ'(vᵢ) in
// lin[3i], lin[3i+1], lin[3i+2] for Bregman. One pass over the data.
// grad has length Dim(), lin length ≥ 3·N(). It panics for a loss that is not
// smooth (callers check Smooth first).
func (s *Set) Linearize(z, grad, lin []float64) float64 {
	if _, ok := s.Smooth(); !ok {
		panic("loss: Linearize on a loss that is not smooth: " + s.kind.String())
	}
	clear(grad)
	lin = lin[:3*s.n]
	tot := 0.0
	for b := range Blocks(s.n) {
		tot += s.linBlock(b, z, lin, grad)
	}
	inv := 1 / float64(s.n)
	for j := range grad {
		grad[j] *= inv
	}
	return tot * inv
}

// Gradient sets grad = ∇L(z), bit for bit the grad of Linearize(z, grad, ·)
// (the same blocks, sums and φ'), without L(z) and the per-record lin: the
// first-order sampler's anchor iterations before the last need only the
// gradient, and the logistic pass then skips its log1p. One pass over the
// data. It panics for a loss that is not smooth.
func (s *Set) Gradient(z, grad []float64) {
	if _, ok := s.Smooth(); !ok {
		panic("loss: Gradient on a loss that is not smooth: " + s.kind.String())
	}
	clear(grad)
	for b := range Blocks(s.n) {
		s.gradBlock(b, z, grad)
	}
	inv := 1 / float64(s.n)
	for j := range grad {
		grad[j] *= inv
	}
}

// Bregman returns the Bregman divergence of L between x and the point z of
// the Linearize call that filled lin:
//
//	D_L(x, z) = L(x) − L(z) − ⟨∇L(z), x − z⟩ = (1/n)·Σᵢ D_φ(⟨aᵢ, x⟩, vᵢ),
//	D_φ(u, v) = φ(u) − φ(v) − φ'(v)(u − v) ≥ 0,
//
// summed per record (each term is formed from O(1) quantities and clamped at
// 0 against rounding), never as the difference of two large sums. For a
// β-smooth loss D_φ(u, v) ≤ β(u − v)²/2. One pass over the data, summed in
// blocks (pass.go; the doc there says why the clamp keeps the first-order
// RGO exact).
func (s *Set) Bregman(x, lin []float64) float64 {
	lin = lin[:3*s.n]
	tot := 0.0
	for b := range Blocks(s.n) {
		tot += s.bregBlock(b, x, lin)
	}
	return tot / float64(s.n)
}

// logisticValDeriv returns φ(v) = log(1 + e^{−yv}) and φ'(v) = −y/(1 + e^{yv})
// with one exp and one log1p (fastmath.go), stable for every v.
func logisticValDeriv(y, v float64) (val, deriv float64) {
	// The derivative's operations are logisticDeriv's, in the same order.
	t := y * v
	e := expFast(-math.Abs(t))
	l := log1p01(e)
	if t > 0 {
		return l, -y * e / (1 + e)
	}
	return l - t, -y / (1 + e)
}

// logisticDeriv returns φ'(v) of logisticValDeriv, bit for bit, with one exp
// and no log1p.
func logisticDeriv(y, v float64) float64 {
	t := y * v
	e := expFast(-math.Abs(t))
	if t > 0 {
		return -y * e / (1 + e)
	}
	return -y / (1 + e)
}
