package fingerprint

import (
	"math"
	"math/bits"
	"math/rand/v2"

	"github.com/dpsample/dpsample/core/rng"
)

// Code is one draw of Gen from Algorithm 2 together with its secret key.
//
// The exported fields are public parameters. The key — the biases p_j, the
// real codebook X ∈ {0,1}^{n×d₀} and the column permutation π — stays
// unexported; Trace uses it. The published codebook has Length = 5·d₀
// columns: published column k holds source column src[k], where sources
// 0…d₀−1 are the real Tardos columns, d₀…3d₀−1 the all-0 dummies and
// 3d₀…5d₀−1 the all-1 dummies. Rows are never stored as floats: X is
// bit-packed (n·⌈d₀/64⌉ words) and a published bit is computed on demand.
//
// A Code is not safe for concurrent Trace calls (Trace draws from the code's
// own random stream to pick the returned user).
type Code struct {
	Params
	Lengths

	words int      // uint64 words per real row
	x     []uint64 // real codebook, row-major, bit j of row i = X_ij
	p     []float64
	q     []float64 // q_j = √((1−p_j)/p_j)
	invq  []float64 // 1/q_j
	w     []float64 // q_j + 1/q_j: the step of U_ij from a 0 to a 1
	thr   []uint64  // ⌊p_j·2³²⌋, for Bernoulli(p_j) draws from 32 random bits
	ones  []int32   // number of users with X_ij = 1
	rowW  []float64 // Σ_{j: X_ij=1} w_j, for the symmetric score
	src   []int32   // published column k → source column (the secret π⁻¹)
	pos   []int32   // real column j → its published column
	trace *rand.Rand
}

// New runs Gen (Algorithm 2, main procedure) with randomness from r:
//
//	r_j ~ U[t′, π/2−t′],  p_j = sin²r_j,  X_ij ~ Bernoulli(p_j)   (Gen′, j < d₀)
//	append 2d₀ all-0 and 2d₀ all-1 columns; permute all 5d₀ columns uniformly.
//
// Four independent ChaCha8 streams are keyed from r, one per role (biases,
// codebook, permutation, trace coins), so a seeded r reproduces everything.
// A nil r means a generator keyed from crypto/rand (rng.New(nil)).
func New(p Params, r *rand.Rand) (*Code, error) {
	l, err := Compute(p)
	if err != nil {
		return nil, err
	}
	if r == nil {
		r, _ = rng.New(nil)
	}
	p, _ = p.Normalize()
	c := &Code{Params: p, Lengths: l}
	bias, rows, perm := rng.Split(r), rng.Split(r), rng.Split(r)
	c.trace = rng.Split(r)
	c.genBiases(bias)
	c.genRows(rows)
	c.genPerm(perm)
	return c, nil
}

// sampleBias draws p = sin²(t′ + (π/2 − 2t′)·u), i.e. r uniform on
// [t′, π/2−t′] (Algorithm 2, Gen′). Then p ∈ [t, 1−t].
func sampleBias(r *rand.Rand, tPrime float64) float64 {
	s := math.Sin(tPrime + (math.Pi/2-2*tPrime)*r.Float64())
	return s * s
}

func (c *Code) genBiases(r *rand.Rand) {
	d0 := c.D0
	c.p = make([]float64, d0)
	c.q = make([]float64, d0)
	c.invq = make([]float64, d0)
	c.w = make([]float64, d0)
	c.thr = make([]uint64, d0)
	for j := range d0 {
		pj := sampleBias(r, c.TPrime)
		c.p[j] = pj
		c.q[j] = math.Sqrt((1 - pj) / pj)
		c.invq[j] = 1 / c.q[j]
		c.w[j] = c.q[j] + c.invq[j]
		c.thr[j] = bernoulliThreshold(pj)
	}
}

// bernoulliThreshold returns ⌊p·2³²⌋ so that [u < thr] for a uniform 32-bit
// u is Bernoulli(p') with |p' − p| < 2⁻³² (p ≥ t = 1/(300n) ≥ 5e-8, so the
// relative error is below 1e-2 even at n = 2¹⁶ and below 2e-6 for n ≤ 32).
func bernoulliThreshold(p float64) uint64 {
	return uint64(math.Ldexp(p, 32)) // p < 1, so < 2³²
}

func (c *Code) genRows(r *rand.Rand) {
	c.words = (c.D0 + 63) / 64
	c.x, c.rowW = c.drawRows(r, c.N)
	c.ones = make([]int32, c.D0)
	for i := range c.N {
		row := c.x[i*c.words : (i+1)*c.words]
		for wi, m := range row {
			for m != 0 {
				b := bits.TrailingZeros64(m)
				m &= m - 1
				c.ones[wi<<6|b]++
			}
		}
	}
}

// genPerm draws the secret uniform permutation with Fisher–Yates.
func (c *Code) genPerm(r *rand.Rand) {
	D, d0 := c.Length, c.D0
	c.src = make([]int32, D)
	for k := range c.src {
		c.src[k] = int32(k)
	}
	for k := D - 1; k > 0; k-- {
		m := r.IntN(k + 1)
		c.src[k], c.src[m] = c.src[m], c.src[k]
	}
	c.pos = make([]int32, d0)
	for k, s := range c.src {
		if int(s) < d0 {
			c.pos[s] = int32(k)
		}
	}
}

// Source returns the source column of published column k: 0 ≤ s < d₀ for a
// real Tardos column, d₀ ≤ s < 3d₀ for an all-0 dummy and 3d₀ ≤ s < 5d₀ for an
// all-1 dummy. It reveals the secret permutation π and exists for teaching
// views that show the key on purpose; Trace does not need it exported.
func (c *Code) Source(k int) int { return int(c.src[k]) }

// Bit returns the published bit of user i at column k: X_{i,src(k)} for a
// real column, 0 or 1 for a dummy.
func (c *Code) Bit(i, k int) bool {
	s := int(c.src[k])
	if s < c.D0 {
		return c.x[i*c.words+s>>6]>>(s&63)&1 == 1
	}
	return s >= 3*c.D0
}

// Ones returns how many of the n users have a 1 in published column k (0 or n
// for a dummy column).
func (c *Code) Ones(k int) int {
	s := int(c.src[k])
	switch {
	case s < c.D0:
		return int(c.ones[s])
	case s >= 3*c.D0:
		return c.N
	}
	return 0
}

// Row returns user i's published row z_i ∈ {0,1}^Length (one byte per bit).
func (c *Code) Row(i int) []uint8 {
	out := make([]uint8, c.Length)
	for k := range out {
		if c.Bit(i, k) {
			out[k] = 1
		}
	}
	return out
}

// Rows returns the n published rows; they need n·Length bytes.
func (c *Code) Rows() [][]uint8 {
	out := make([][]uint8, c.N)
	for i := range out {
		out[i] = c.Row(i)
	}
	return out
}

// RealUnanimous returns the number of real columns on which all n users
// agree (these look exactly like dummy columns to an adversary).
func (c *Code) RealUnanimous() int {
	u := 0
	for _, o := range c.ones {
		if o == 0 || int(o) == c.N {
			u++
		}
	}
	return u
}
