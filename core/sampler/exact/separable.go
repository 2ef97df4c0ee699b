package exact

import (
	"math"
	"math/rand/v2"
	"slices"
)

// L1Separable samples the d-dimensional target of LLL Algorithm 1 for the
// normalised ℓ1-location loss ℓ(θ;z) = ‖θ − z‖₁/√d (1-Lipschitz in ℓ2):
//
//	π(θ) ∝ exp(−η·(1/n)Σ_i ‖θ − z_i‖₁/√d − ημ/2·‖θ‖²) = Π_j p_j(θ_j),
//	p_j(t) ∝ exp(−a·Σ_i |t − z_ij| − b·t²),  a = η/(n√d),  b = ημ/2,
//
// so the coordinates are independent and each is drawn by L1Coord.
type L1Separable struct {
	n, d int
	a, b float64
	cols []float64 // d sorted columns of length n, contiguous
}

// NewL1Separable copies the n×d row-major data x, sorts each column and
// returns the sampler with per-coordinate parameters a ≥ 0 and b > 0. It
// returns nil if the sizes do not match or a, b are invalid.
func NewL1Separable(x []float64, n, d int, a, b float64) *L1Separable {
	if n < 1 || d < 1 || len(x) != n*d || !(a >= 0) || !(b > 0) || math.IsInf(a, 0) || math.IsInf(b, 0) {
		return nil
	}
	cols := make([]float64, n*d)
	for j := 0; j < d; j++ {
		col := cols[j*n : (j+1)*n]
		for i := 0; i < n; i++ {
			col[i] = x[i*d+j]
		}
		slices.Sort(col)
	}
	return &L1Separable{n: n, d: d, a: a, b: b, cols: cols}
}

// L1Params returns the per-coordinate (a, b) of the normalised ℓ1-location
// target with temperature η, regulariser μ, n points in dimension d.
func L1Params(eta, mu float64, n, d int) (a, b float64) {
	return eta / (float64(n) * math.Sqrt(float64(d))), eta * mu / 2
}

// Dim returns d.
func (s *L1Separable) Dim() int { return s.d }

// Column returns the sorted points of coordinate j (do not modify).
func (s *L1Separable) Column(j int) []float64 { return s.cols[j*s.n : (j+1)*s.n] }

// SampleRange fills out[j] for j0 ≤ j < j1 with independent exact draws;
// len(out) must be d. Callers chunk a large d through it to report progress.
func (s *L1Separable) SampleRange(r *rand.Rand, out []float64, j0, j1 int) {
	for j := j0; j < j1; j++ {
		out[j] = L1Coord(r, s.Column(j), s.a, s.b)
	}
}

// Sample fills out (length d) with one exact draw of θ.
func (s *L1Separable) Sample(r *rand.Rand, out []float64) { s.SampleRange(r, out, 0, s.d) }

// CDF returns the marginal CDF of coordinate j at t.
func (s *L1Separable) CDF(j int, t float64) float64 { return L1CDF(s.Column(j), s.a, s.b, t) }
