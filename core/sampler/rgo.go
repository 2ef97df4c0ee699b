package sampler

import (
	"math"
	"math/rand/v2"

	"github.com/dpsample/dpsample/core/rng"
)

// Restricted Gaussian oracle (LLL Lemma E.2, after GLL22): sample
//
//	π_y(x) ∝ q_y(x)·e^{−f(x)},  q_y = N(m, σ²I),  m = y/(1+λα),  σ² = λ/(1+λα),
//
// using values of f only. One trial draws X, X′ ~ q_y independently and
// accepts X with probability a(X, X′):
//
//	full:        a = min(1, W),  W = exp(f(X′) − f(X) − c)
//	stochastic:  a = E_N Π_{k≤N} (1 − w̃_{J_k}/K),  N ~ Poisson(K) ∧ cap,
//	             w̃_j = clip(f_j(X) − f_j(X′) + c, 0, K)   (= exp(−E_J w̃_J) without the cap)
//
// Exactness. With a replaced by W, P(accept, X ∈ dx) ∝ q_y(x)e^{−f(x)}·
// E[e^{f(X′)}] and the last factor does not depend on x: accepted X ~ π_y.
// No ball: the pair is a Gaussian vector for every y, so the bounds below are
// uniform in y (f is G_f-Lipschitz on all of ℝ^d). Restricting the proposals
// to a ball B(0, R) would make the acceptance rate ∝ q_y(B)², which has no
// lower bound uniform in y, so the trial cap could not be budgeted.
//
// TV bound. For two rejection samplers with acceptance weights a and W,
// TV ≤ E|a − W| / E W, and E W = e^{−c}·E e^Z ≥ e^{−c} by Jensen (E Z = 0).
// Z = f(X′) − f(X), and each Z_j = f_j(X′) − f_j(X), is a √2·G_f-Lipschitz
// function of the pair, symmetric (the pair is exchangeable), so by Gaussian
// isoperimetry P(Z > z) ≤ Φ̄(z/s) for z ≥ 0, s = √2·G_f·σ (rgobound.go; the
// planner before issue 31 used the weaker sub-Gaussian tail e^{−z²/(2s²)}).
//   - full: E|a − W| = E(W − 1)₊ = e^{−c}E(e^Z − e^c)₊, so
//     TV ≤ E(e^Z − e^c)₊ ≤ e^{s²/2}Φ̄(c/s − s) − e^cΦ̄(c/s) (clampBias; equality
//     for a linear loss).
//   - stochastic: u = E_J w_J = c − Z, ũ = E_J w̃_J = u + R₁ − R₂ with
//     R₁ = E_J(Z_J − c)₊ (w < 0 clipped up to 0), R₂ = E_J(−Z_J − (K − c))₊
//     (w > K clipped down to K). For u ≥ 0, |e^{−ũ} − e^{−u}| ≤ |ũ − u|; for
//     u < 0, |a − W| = (W − 1) + (1 − e^{−ũ}) ≤ (W − 1) + ũ ≤ (W − 1)₊ + |ũ − u|.
//     Either way |a − W| ≤ (W − 1)₊ + R₁ + R₂, and E R₁ ≤ excess(s, c),
//     E R₂ ≤ excess(s, K − c) (E(Y − a)₊ ≤ sφ(a/s) − aΦ̄(a/s)). So
//     TV ≤ clampBias + e^c·(excess(s, c) + excess(s, K − c)). Truncating N at
//     the cap changes a by ≤ P(N > cap), adding e^c·P(N > cap).
//   - the trial cap M adds P(M rejections) ≤ (1 − p)^M, p ≥ e^{−c}(1 − bias)
//     (− P(N > cap)): E a ≥ E W − E|a − W| ≥ e^{−c} − e^{−c}·bias.
//
// Clips (w < 0 or w > K) and clamps (W > 1) are counted in Stats.Clips so that
// the bound can be checked numerically.

// chain is the state of one run; all buffers are allocated once.
type chain struct {
	pot      Potential
	r        *rand.Rand
	n        int
	eta      float64
	shrink   float64 // 1/(1+λα)
	sigma    float64 // √(λ/(1+λα))
	sqrtLam  float64
	d        int64
	trials   int // M
	full     bool
	fixed    bool      // WorkPerStep: the factory always runs to its cap
	pad      bool      // WorkPerStep: always M trials
	budget   int64     // WorkTotal: trials left in the run; −1 without a total budget
	fbudget  int64     // WorkTotal, stochastic: factory draws left; −1 without
	over     bool      // WorkTotal: the factory budget ran out (no more trials)
	poisCDF  []float64 // P(N ≤ k), k < cap
	x, m     []float64
	xa, xb   []float64
	z        []float64 // 2d: the standard normals of one proposal pair
	st       Stats
	nonFinit bool // the potential returned NaN or ±Inf
}

// step performs one alternating step: y ← x + √λ·ξ, then x ← RGO(y).
// On a failed call (M trials, none accepted) x is left unchanged; that event
// is charged to the TV budget (Plan.TauStep). With fixed work (work.go) the
// trials after the accepted one (WorkPerStep) are drawn, evaluated and
// discarded; with a total budget (WorkTotal) a step that finds it spent
// leaves x unchanged (charged to Plan.TauOver).
func (c *chain) step() {
	rng.Normals53(c.r, c.m)
	for j, xj := range c.x {
		c.m[j] = (xj + c.sqrtLam*c.m[j]) * c.shrink
	}
	c.st.Draws += c.d
	c.st.Steps++
	accepted := false
	for k := 0; k < c.trials; k++ {
		if c.budget == 0 || c.over {
			c.st.Overruns++
			return
		}
		ok := c.trial()
		if c.nonFinit {
			return
		}
		if !accepted && ok {
			c.x, c.xa = c.xa, c.x
			accepted = true
			if !c.pad {
				return
			}
		}
	}
	if !accepted {
		c.st.Failures++
	}
}

// trial draws a proposal pair X, X′ ~ q_y into xa, xb and returns the
// acceptance decision for X.
func (c *chain) trial() bool {
	c.propose()
	if c.full {
		return c.acceptFull()
	}
	return c.acceptStochastic()
}

// propose counts a trial and draws its pair: 2d standard normals from
// rng.Normals53 (issue 51: the 53-bit polar method, exact on the output
// grid, instead of NormFloat64's ziggurat), scaled by σ about m.
func (c *chain) propose() {
	c.st.Trials++
	c.st.Draws += 2 * c.d
	if c.budget > 0 {
		c.budget--
	}
	xa, xb := c.xa, c.xb
	xb = xb[:len(xa)]
	z := c.z[:2*len(xa)]
	rng.Normals53(c.r, z)
	za, zb := z[:len(xa)], z[len(xa):]
	for j, mj := range c.m[:len(xa)] {
		xa[j] = mj + c.sigma*za[j]
		xb[j] = mj + c.sigma*zb[j]
	}
}

// padRun spends the rest of the total budgets (WorkTotal) after the last
// step: the trials left, each with its pair and its acceptance work (both
// means and the uniform in full mode; the Poisson uniform in stochastic
// mode), then the factory draws left (stochastic), each with its index,
// two loss values and its uniform — all computed and discarded.
func (c *chain) padRun() {
	for c.budget > 0 {
		c.propose()
		c.st.Padded++
		if c.full {
			c.acceptFull()
		} else {
			c.r.Float64()
			c.st.Draws++
		}
	}
	for c.fbudget > 0 {
		c.fbudget--
		c.factoryDraw()
	}
}

// acceptFull accepts X = xa with probability min(1, exp(f(X′) − f(X) − c)).
func (c *chain) acceptFull() bool {
	fa := c.pot.Mean(c.xa)
	fb := c.pot.Mean(c.xb)
	c.st.LossEvals += 2 * int64(c.n)
	c.st.Draws++
	u := c.r.Float64()
	z := c.eta * (fb - fa)
	if math.IsNaN(z) || math.IsInf(z, 0) {
		c.nonFinit = true
		return false
	}
	if z > Offset {
		c.st.Clips++
	}
	return u < math.Exp(z-Offset)
}

// acceptStochastic is the Poisson/Bernoulli factory: N ~ Poisson(K) (by
// inversion, truncated at the cap), then N independent draws J each reject
// with probability clip(f_J(X) − f_J(X′) + c, 0, K)/K, stopping at the first
// rejection. With WorkPerStep it always makes PoissonCap draws, those after
// the N-th or after a rejection evaluated and discarded; with WorkTotal each
// draw spends one of the run's B_f (an exhausted budget ends the run's
// trials, charged to TV).
func (c *chain) acceptStochastic() bool {
	r := c.r
	u := r.Float64()
	c.st.Draws++
	n := 0
	for n < len(c.poisCDF) && u >= c.poisCDF[n] {
		n++
	}
	iters := n
	if c.fixed {
		iters = len(c.poisCDF)
	}
	ok := true
	for k := 0; k < iters; k++ {
		if c.fbudget == 0 {
			c.over = true
			return false
		}
		if c.fbudget > 0 {
			c.fbudget--
		}
		w, v := c.factoryDraw()
		if c.nonFinit {
			return false
		}
		if k >= n || !ok {
			continue // WorkPerStep padding: drawn, evaluated, discarded
		}
		if !(w >= 0 && w <= FactoryRate) {
			c.st.Clips++
		}
		if v*FactoryRate < math.Max(0, math.Min(FactoryRate, w)) {
			ok = false
			if !c.fixed {
				return false
			}
		}
	}
	return ok
}

// factoryDraw makes one draw of the factory: a record J, the weight
// w = η(f_J(X) − f_J(X′)) + c (unclipped) and a uniform v.
func (c *chain) factoryDraw() (w, v float64) {
	j := c.r.IntN(c.n)
	w = c.eta*(c.pot.Value(j, c.xa)-c.pot.Value(j, c.xb)) + Offset
	c.st.LossEvals += 2
	c.st.Draws += 2
	if w != w || math.IsInf(w, 0) {
		c.nonFinit = true
	}
	return w, c.r.Float64()
}
