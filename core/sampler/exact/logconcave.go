package exact

import (
	"errors"
	"math"
	"math/rand/v2"
	"sort"
	"sync"

	"gonum.org/v1/gonum/integrate/quad"
)

// LogConcave draws exact samples from a one-dimensional density
// p(t) ∝ exp(−U(t)) with U convex and U(t) → ∞ as |t| → ∞ (for Algorithm 1 in
// d = 1, U(t) = η(L(t;D) + μt²/2) for any of dpsample's losses).
//
// Construction (derivative-free adaptive-rejection envelope, after Gilks 1992):
//  1. the mode m by golden-section search after bracket expansion;
//  2. lo < m < hi with U − U(m) ≥ 50 at both ends;
//  3. a grid of cells on [lo, hi] with m as a node. For convex U the secant of
//     a neighbouring cell, extended, lies below U (convexity), so on each cell
//     U ≥ max(left secant, right secant); its minimum on the cell gives a
//     constant envelope exp(−min) ≥ p. Beyond lo and hi the extended secant of
//     the outermost cell gives an exponential envelope.
//
// A draw picks a piece of the envelope by its mass, proposes from it and
// accepts with probability exp(−U(x))/envelope(x) ≤ 1, so the output law is
// exactly p (up to the floating-point evaluation of U). Acceptance is ≳ 0.9
// with the default 1024 cells.
//
// The grid is built from U alone, so if U depends on private data the grid
// does too; only the sample is released.
type LogConcave struct {
	u     func(float64) float64
	mode  float64
	umin  float64
	t     []float64 // cell nodes, len N+1
	ut    []float64 // U(t) − umin at the nodes
	lmin  []float64 // lower bound of U − umin on each cell
	cum   []float64 // cumulative envelope mass: [left tail, cells..., right tail]
	kl    float64   // slope of the left tail envelope (< 0)
	kr    float64   // slope of the right tail envelope (> 0)
	total float64

	cdfOnce sync.Once
	cdfCum  []float64 // cumulative ∫ exp(−(U−umin)) over cells, for CDF
}

// DefaultCells is the number of envelope cells used by NewLogConcave.
const DefaultCells = 1024

// NewLogConcave builds the sampler for exp(−U). scale > 0 is a data-independent
// length scale for the bracket search (for Algorithm 1, 1/√(ημ)).
func NewLogConcave(u func(float64) float64, scale float64) (*LogConcave, error) {
	return newLogConcave(u, scale, DefaultCells)
}

func newLogConcave(u func(float64) float64, scale float64, cells int) (*LogConcave, error) {
	if !(scale > 0) || math.IsInf(scale, 0) {
		return nil, errors.New("exact: scale must be a finite number > 0")
	}
	bad := errors.New("exact: U is not finite, or not convex and coercive")
	eval := func(t float64) (float64, bool) {
		v := u(t)
		return v, !math.IsNaN(v) && !math.IsInf(v, 0)
	}
	// 1. Bracket the minimum: a < b < c with U(b) ≤ U(a), U(c).
	a, b, c := -scale, 0.0, scale
	ua, ok1 := eval(a)
	ub, ok2 := eval(b)
	uc, ok3 := eval(c)
	if !ok1 || !ok2 || !ok3 {
		return nil, bad
	}
	for i := 0; ub > ua || ub > uc; i++ {
		if i > 200 {
			return nil, bad
		}
		if ua < uc { // move left
			c, uc = b, ub
			b, ub = a, ua
			a = b - 2*(c-b)
			if ua, ok1 = eval(a); !ok1 {
				return nil, bad
			}
		} else {
			a, ua = b, ub
			b, ub = c, uc
			c = b + 2*(b-a)
			if uc, ok3 = eval(c); !ok3 {
				return nil, bad
			}
		}
	}
	// Golden-section search on [a, c].
	const gr = 0.3819660112501051 // 2 − φ
	x1, x2 := a+gr*(c-a), c-gr*(c-a)
	f1, _ := eval(x1)
	f2, _ := eval(x2)
	for i := 0; i < 200 && c-a > 1e-12*(math.Abs(a)+math.Abs(c)+scale); i++ {
		if f1 <= f2 {
			c, x2, f2 = x2, x1, f1
			x1 = a + gr*(c-a)
			f1, _ = eval(x1)
		} else {
			a, x1, f1 = x1, x2, f2
			x2 = c - gr*(c-a)
			f2, _ = eval(x2)
		}
	}
	mode := x1
	umin := f1
	if f2 < f1 {
		mode, umin = x2, f2
	}
	// 2. Ends where U − umin ≥ 50.
	const rise = 50
	end := func(dir float64) (float64, bool) {
		h := scale
		for i := 0; i < 200; i++ {
			t := mode + dir*h
			v, ok := eval(t)
			if !ok {
				return 0, false
			}
			if v-umin >= rise {
				return t, true
			}
			h *= 2
		}
		return 0, false
	}
	lo, okl := end(-1)
	hi, okh := end(1)
	if !okl || !okh {
		return nil, bad
	}
	// 3. Grid with the mode as a node, half the cells on each side.
	half := cells / 2
	nodes := make([]float64, 0, 2*half+1)
	for i := 0; i < half; i++ {
		nodes = append(nodes, lo+(mode-lo)*float64(i)/float64(half))
	}
	for i := 0; i <= half; i++ {
		nodes = append(nodes, mode+(hi-mode)*float64(i)/float64(half))
	}
	lc := &LogConcave{u: u, mode: mode, umin: umin, t: nodes}
	lc.ut = make([]float64, len(nodes))
	for i, t := range nodes {
		v, ok := eval(t)
		if !ok {
			return nil, bad
		}
		lc.ut[i] = v - umin
	}
	if err := lc.envelope(); err != nil {
		return nil, err
	}
	return lc, nil
}

// secant returns the line through nodes i and i+1 as (value at x).
func (lc *LogConcave) secant(i int, x float64) float64 {
	t0, t1 := lc.t[i], lc.t[i+1]
	u0, u1 := lc.ut[i], lc.ut[i+1]
	return u0 + (u1-u0)/(t1-t0)*(x-t0)
}

func (lc *LogConcave) envelope() error {
	nc := len(lc.t) - 1
	lc.lmin = make([]float64, nc)
	lc.cum = make([]float64, nc+2)
	// Tails: extended secants of the outermost cells.
	lc.kl = (lc.ut[1] - lc.ut[0]) / (lc.t[1] - lc.t[0])
	lc.kr = (lc.ut[nc] - lc.ut[nc-1]) / (lc.t[nc] - lc.t[nc-1])
	if !(lc.kl < 0) || !(lc.kr > 0) {
		return errors.New("exact: U is not convex and coercive (tail slopes)")
	}
	acc := math.Exp(-lc.ut[0]) / -lc.kl
	lc.cum[0] = acc
	for j := 0; j < nc; j++ {
		p, q := lc.t[j], lc.t[j+1]
		// Lower bound of U on [p, q]: max of the neighbouring secants,
		// minimised over the cell (candidates: ends and the crossing point).
		lb := func(x float64) float64 {
			v := math.Inf(-1)
			if j > 0 {
				v = math.Max(v, lc.secant(j-1, x))
			}
			if j < nc-1 {
				v = math.Max(v, lc.secant(j+1, x))
			}
			return v
		}
		m := math.Min(lb(p), lb(q))
		if j > 0 && j < nc-1 {
			// crossing of two lines
			s1 := (lc.ut[j] - lc.ut[j-1]) / (lc.t[j] - lc.t[j-1])
			s2 := (lc.ut[j+2] - lc.ut[j+1]) / (lc.t[j+2] - lc.t[j+1])
			if s2 != s1 {
				x := (lc.ut[j+1] - s2*lc.t[j+1] - lc.ut[j] + s1*lc.t[j]) / (s1 - s2)
				if x > p && x < q {
					m = math.Min(m, lb(x))
				}
			}
		}
		// The node values themselves are exact, so never above them.
		m = math.Min(m, math.Min(lc.ut[j], lc.ut[j+1]))
		lc.lmin[j] = m
		acc += (q - p) * math.Exp(-m)
		lc.cum[j+1] = acc
	}
	acc += math.Exp(-lc.ut[nc]) / lc.kr
	lc.cum[nc+1] = acc
	lc.total = acc
	return nil
}

// logEnvelope returns the log of the envelope at x, relative to exp(−U(m)).
func (lc *LogConcave) logEnvelope(x float64) float64 {
	nc := len(lc.t) - 1
	switch {
	case x < lc.t[0]:
		return -(lc.ut[0] + lc.kl*(x-lc.t[0]))
	case x > lc.t[nc]:
		return -(lc.ut[nc] + lc.kr*(x-lc.t[nc]))
	}
	j := sort.SearchFloat64s(lc.t, x) - 1
	j = max(0, min(j, nc-1))
	return -lc.lmin[j]
}

// Mode returns the numerical minimiser of U.
func (lc *LogConcave) Mode() float64 { return lc.mode }

// Sample returns one exact draw. The rejection loop is bounded by
// maxRejectTrials (never reached for a valid envelope; then the mode is
// returned).
func (lc *LogConcave) Sample(r *rand.Rand) float64 {
	nc := len(lc.t) - 1
	for range maxRejectTrials {
		v := r.Float64() * lc.total
		k := sort.SearchFloat64s(lc.cum, v) // first piece with cum > v (or =)
		var x, logEnv float64
		switch {
		case k == 0: // left tail: U ≥ ut0 + kl(x − t0), x < t0
			e := -math.Log1p(-r.Float64()) / -lc.kl
			x = lc.t[0] - e
			logEnv = -(lc.ut[0] + lc.kl*(x-lc.t[0]))
		case k >= nc+1:
			e := -math.Log1p(-r.Float64()) / lc.kr
			x = lc.t[nc] + e
			logEnv = -(lc.ut[nc] + lc.kr*(x-lc.t[nc]))
		default:
			j := k - 1
			x = lc.t[j] + r.Float64()*(lc.t[j+1]-lc.t[j])
			logEnv = -lc.lmin[j]
		}
		ux := lc.u(x) - lc.umin
		if math.Log(r.Float64()) < -ux-logEnv {
			return x
		}
	}
	return lc.mode
}

// CDF returns P(T ≤ t), computed independently of the envelope by 16-point
// Gauss–Legendre quadrature of exp(−(U−U(m))) on every cell; the mass outside
// [lo, hi] (< e^{−50}·width) is neglected. For tests.
func (lc *LogConcave) CDF(t float64) float64 {
	f := func(x float64) float64 { return math.Exp(-(lc.u(x) - lc.umin)) }
	lc.cdfOnce.Do(func() {
		nc := len(lc.t) - 1
		lc.cdfCum = make([]float64, nc+1)
		for j := 0; j < nc; j++ {
			lc.cdfCum[j+1] = lc.cdfCum[j] + quad.Fixed(f, lc.t[j], lc.t[j+1], 16, quad.Legendre{}, 0)
		}
	})
	nc := len(lc.t) - 1
	switch {
	case t <= lc.t[0]:
		return 0
	case t >= lc.t[nc]:
		return 1
	}
	j := sort.SearchFloat64s(lc.t, t) - 1
	if j < 0 {
		j = 0
	}
	part := quad.Fixed(f, lc.t[j], t, 16, quad.Legendre{}, 0)
	return (lc.cdfCum[j] + part) / lc.cdfCum[nc]
}
