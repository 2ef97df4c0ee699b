package exact

import (
	"math"
	"math/rand/v2"
	"sync/atomic"
)

// Binary samples the ℓ1 target of L1Coord for n points of which `ones` equal 1
// and the rest 0: p(t) ∝ exp(−a·(ones·|t−1| + (n−ones)·|t|) − b·t²). This is
// the per-coordinate law of Algorithm 1 on the fingerprinting-code datasets of
// the lower bound (LLL §3.2). Only three pieces of the mixture are non-empty,
// (−∞, 0], [0, 1] and [1, ∞), so a Binary tabulates, for every count
// ones = 0..n, the three pieces and their cumulative probabilities; a draw is
// then one uniform, a comparison and one truncated-normal draw.
type Binary struct {
	n    int
	a, b float64
	s    float64
	tab  []binaryRow // len n+1
}

type binaryRow struct {
	m, lo, hi [3]float64 // piece means and standardised bounds
	tn        [3]trunc   // prepared truncated-normal samplers
	cum       [2]float64 // P(piece 0), P(piece 0 or 1)
}

// NewBinary tabulates the law for n ≥ 1 points, a ≥ 0, b > 0 (finite). It
// returns nil for invalid arguments.
func NewBinary(n int, a, b float64) *Binary {
	if n < 1 || !(a >= 0) || !(b > 0) || math.IsInf(a, 0) || math.IsInf(b, 0) {
		return nil
	}
	bt := &Binary{n: n, a: a, b: b, s: 1 / math.Sqrt(2*b), tab: make([]binaryRow, n+1)}
	for ones := 0; ones <= n; ones++ {
		bt.tab[ones] = bt.row(ones)
	}
	return bt
}

// row computes the three pieces for one count. The piece index k of L1Coord
// is the number of points below the piece: 0, n−ones and n.
func (bt *Binary) row(ones int) binaryRow {
	n, a, b, s := bt.n, bt.a, bt.b, bt.s
	zeros := n - ones
	total := float64(ones)
	ks := [3]int{0, zeros, n}
	bounds := [3][2]float64{{math.Inf(-1), 0}, {0, 1}, {1, math.Inf(1)}}
	if zeros == 0 { // all points at 1: (−∞,1], empty, [1,∞)
		bounds[0][1] = 1
	}
	if ones == 0 { // all points at 0: (−∞,0], empty, [0,∞)
		bounds[2][0] = 0
	}
	var row binaryRow
	var lw [3]float64
	mx := math.Inf(-1)
	for p, k := range ks {
		sk := 0.0 // S_k = number of ones among the k smallest points
		if k > zeros {
			sk = float64(k - zeros)
		}
		m := -a * float64(2*k-n) / (2 * b)
		c := b*m*m - a*(total-2*sk)
		lo, hi := (bounds[p][0]-m)/s, (bounds[p][1]-m)/s
		if p == 1 && (zeros == 0 || ones == 0) {
			lo, hi = 0, 0 // empty middle piece
		}
		row.m[p], row.lo[p], row.hi[p] = m, lo, hi
		if lo < hi {
			row.tn[p] = newTrunc(lo, hi)
		}
		lw[p] = c + logPhiDiff(lo, hi)
		mx = math.Max(mx, lw[p])
	}
	var w [3]float64
	for p := range w {
		w[p] = math.Exp(lw[p] - mx)
	}
	tot := w[0] + w[1] + w[2]
	row.cum[0] = w[0] / tot
	row.cum[1] = (w[0] + w[1]) / tot
	return row
}

// Sample returns one exact draw for the given count of ones (0 ≤ ones ≤ n;
// NaN otherwise).
func (bt *Binary) Sample(r *rand.Rand, ones int) float64 {
	if ones < 0 || ones > bt.n {
		return math.NaN()
	}
	row := &bt.tab[ones]
	u := r.Float64()
	p := 2
	if u < row.cum[0] {
		p = 0
	} else if u < row.cum[1] {
		p = 1
	}
	m, s := row.m[p], bt.s
	return clampPiece(m+s*row.tn[p].draw(r), m+s*row.lo[p], m+s*row.hi[p])
}

// CDF returns P(T ≤ t) for the given count of ones (closed form, as L1CDF).
func (bt *Binary) CDF(ones int, t float64) float64 {
	return L1CDF(binaryPoints(bt.n, ones), bt.a, bt.b, t)
}

func binaryPoints(n, ones int) []float64 {
	z := make([]float64, n)
	for i := n - ones; i < n; i++ {
		z[i] = 1
	}
	return z
}

// binaryCache holds the most recently used table so that L1Binary, which the
// lower-bound engine calls once per coordinate with fixed (n, a, b), costs a
// table lookup. Safe for concurrent use.
var binaryCache atomic.Pointer[Binary]

// L1Binary returns one exact draw of t ∝ exp(−a·Σ_i|t−z_i| − b·t²) for n
// points of which `ones` equal 1 and the rest 0 (a ≥ 0, b > 0, 0 ≤ ones ≤ n;
// NaN for invalid arguments). The table for (n, a, b) is built on first use
// (O(n)) and cached.
func L1Binary(r *rand.Rand, n, ones int, a, b float64) float64 {
	bt := binaryCache.Load()
	if bt == nil || bt.n != n || bt.a != a || bt.b != b {
		bt = NewBinary(n, a, b)
		if bt == nil {
			return math.NaN()
		}
		binaryCache.Store(bt)
	}
	return bt.Sample(r, ones)
}
