package fingerprint

import (
	"fmt"
	"math/bits"
	"math/rand/v2"

	"github.com/dpsample/dpsample/core/checks"
)

// Trace is the result of Algorithm 2's Trace on one output.
type Trace struct {
	// Scores[i] is user i's score: S_i = Σ_{j<d₀} c_j·U_ij over the real
	// columns after undoing π (tardos), or Σ_j (2c_j−1)·U_ij (symmetric), with
	// U_ij = q_j if X_ij = 1 and −1/q_j otherwise, q_j = √((1−p_j)/p_j).
	Scores    []float64 `json:"scores"`
	Threshold float64   `json:"threshold"`
	// Accused is Trace′'s set A = {i : S_i ≥ threshold}, in increasing order.
	Accused []int `json:"accused"`
	// Returned is a uniformly random member of Accused, or nil (⊥) when
	// Accused is empty — the paper's "Return: i randomly from Trace′(C,c)".
	Returned *int `json:"returned"`
}

// Trace rounds output ∈ R^Length at ½ (Round) and runs TraceWord.
// Errors name the field: "output" for a wrong length, "output[k]" for NaN/±Inf.
func (c *Code) Trace(output []float64) (Trace, error) {
	if len(output) != c.Length {
		return Trace{}, &checks.Error{Field: "output", Rule: fmt.Sprintf("an array of length %d (the code length)", c.Length),
			Got: fmt.Sprintf("length %d", len(output))}
	}
	w, err := Round(output)
	if err != nil {
		return Trace{}, err
	}
	return c.TraceWord(w)
}

// TraceWord runs Algorithm 2's main Trace on a published word: undo π, drop
// the 4d₀ dummy columns, score every user on the d₀ real columns and return
// a uniformly random user over the threshold (or ⊥).
func (c *Code) TraceWord(w Word) (Trace, error) {
	if w.Len != c.Length {
		return Trace{}, &checks.Error{Field: "output", Rule: fmt.Sprintf("a word of length %d (the code length)", c.Length),
			Got: fmt.Sprintf("length %d", w.Len)}
	}
	return c.trace1(w, traceConfig{}, c.trace), nil
}

// traceConfig exists only so that tests can run deliberately broken variants
// of Trace (the classic mistakes) through the same statistical tests and see
// them fail. The zero value is the correct algorithm.
type traceConfig struct {
	flipSign     bool // U = −q_j for a 1, +1/q_j for a 0
	noUnpermute  bool // read real column j at published position j
	scoreDummies bool // also score the 4d₀ dummy columns, with biases from the law
	threshold    float64
}

func (c *Code) trace1(w Word, cfg traceConfig, r *rand.Rand) Trace {
	y := c.unpermute(w, cfg)
	t := Trace{Scores: c.scores(y, cfg), Threshold: c.Threshold}
	if cfg.threshold != 0 {
		t.Threshold = cfg.threshold
	}
	if cfg.scoreDummies {
		c.addDummyScores(w, t.Scores)
	}
	for i, s := range t.Scores {
		if s >= t.Threshold {
			t.Accused = append(t.Accused, i)
		}
	}
	if len(t.Accused) > 0 {
		i := t.Accused[r.IntN(len(t.Accused))]
		t.Returned = &i
	}
	return t
}

// unpermute returns y ∈ {0,1}^{d₀}: y_j = c_{π(j)}, the output bit at the
// published position of real column j. Dummy positions are never read.
func (c *Code) unpermute(w Word, cfg traceConfig) []uint64 {
	y := make([]uint64, c.words)
	for j, k := range c.pos {
		if cfg.noUnpermute {
			k = int32(j)
		}
		if w.bits[k>>6]>>(k&63)&1 == 1 {
			y[j>>6] |= 1 << (j & 63)
		}
	}
	return y
}

// scores computes every member's score (scoreRows on the codebook).
func (c *Code) scores(y []uint64, cfg traceConfig) []float64 {
	return c.scoreRows(c.x, c.rowW, y, cfg)
}

// scoreRows scores bit-packed rows x (⌈d₀/64⌉ words each) against y with one
// pass over X_i ∧ y:
//
//	tardos:    S_i = Σ_{j: y_j=1, X_ij=1} w_j − Σ_{j: y_j=1} 1/q_j
//	symmetric: S_i = 2·Σ_{j: y_j=1, X_ij=1} w_j − Σ_{j: X_ij=1} w_j + Σ_j (1−2y_j)/q_j
//
// where w_j = q_j + 1/q_j; these equal Σ_j y_j·U_ij and Σ_j (2y_j−1)·U_ij.
func (c *Code) scoreRows(x []uint64, rowW []float64, y []uint64, cfg traceConfig) []float64 {
	base := 0.0 // Σ_{y_j=1} 1/q_j
	all := 0.0  // Σ_j 1/q_j
	for j, iq := range c.invq {
		all += iq
		if y[j>>6]>>(j&63)&1 == 1 {
			base += iq
		}
	}
	out := make([]float64, len(rowW))
	for i := range out {
		row := x[i*c.words : (i+1)*c.words]
		a := 0.0
		for wi, yw := range y {
			m := row[wi] & yw
			for m != 0 {
				b := bits.TrailingZeros64(m)
				m &= m - 1
				a += c.w[wi<<6|b]
			}
		}
		var s float64
		if c.Mode == Symmetric {
			s = 2*a - rowW[i] + (all - 2*base)
		} else {
			s = a - base
		}
		if cfg.flipSign {
			s = -s
		}
		out[i] = s
	}
	return out
}

// addDummyScores implements the "scoring dummy columns" mistake: each dummy
// column is given the weights of a real column (as if Gen′ had drawn a bias
// for it) and scored like a real one.
func (c *Code) addDummyScores(w Word, s []float64) {
	for k, src := range c.src {
		if int(src) < c.D0 || !w.Get(k) {
			continue
		}
		j := int(src) % c.D0
		u := -c.invq[j]
		if int(src) >= 3*c.D0 {
			u = c.q[j]
		}
		for i := range s {
			s[i] += u
		}
	}
}

// GhostScores draws g fresh users from the code's biases — rows the
// mechanism never saw, each with the law of an innocent (of a removed row) —
// and returns their scores against the published word w, computed exactly as
// Trace scores members (a ghost's dummy bits match every user's, so the
// dummies, which Trace drops, play no role).
func (c *Code) GhostScores(r *rand.Rand, g int, w Word) ([]float64, error) {
	if w.Len != c.Length {
		return nil, &checks.Error{Field: "output", Rule: fmt.Sprintf("a word of length %d (the code length)", c.Length),
			Got: fmt.Sprintf("length %d", w.Len)}
	}
	if err := checks.IntRange("ghosts", g, 0, 1<<20); err != nil {
		return nil, err
	}
	return c.ghostScores(r, g, w, traceConfig{}), nil
}

func (c *Code) ghostScores(r *rand.Rand, g int, w Word, cfg traceConfig) []float64 {
	x, rowW := c.drawRows(r, g)
	s := c.scoreRows(x, rowW, c.unpermute(w, cfg), cfg)
	if cfg.scoreDummies {
		c.addDummyScores(w, s)
	}
	return s
}

// drawRows draws g rows X_hj ~ Bernoulli(p_j) over the real columns, two
// columns per 64 random bits, without data-dependent branches.
func (c *Code) drawRows(r *rand.Rand, g int) (x []uint64, rowW []float64) {
	x = make([]uint64, g*c.words)
	rowW = make([]float64, g)
	d0 := len(c.thr)
	for h := range g {
		row := x[h*c.words : (h+1)*c.words]
		var u uint64
		for j := range d0 {
			if j&1 == 0 {
				u = r.Uint64()
			} else {
				u >>= 32
			}
			_, b := bits.Sub64(u&0xffffffff, c.thr[j], 0) // b = 1 iff u < thr
			row[j>>6] |= b << (j & 63)
		}
		if c.Mode == Symmetric { // Σ_{j: X_hj=1} w_j, needed by the symmetric score only
			for wi, m := range row {
				for m != 0 {
					rowW[h] += c.w[wi<<6|bits.TrailingZeros64(m)]
					m &= m - 1
				}
			}
		}
	}
	return x, rowW
}
