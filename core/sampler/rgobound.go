package sampler

import "math"

// Bounds of the zeroth-order RGO (rgo.go) as functions of the scale
//
//	s = √2·G_f·σ,  σ² = λ/(1 + λα),
//
// the Lipschitz constant of Z = f(X′) − f(X) (and of each Z_j = f_j(X′) −
// f_j(X)) as a function of the Gaussian pair (X, X′) ~ N(m, σ²I_{2d}), times σ.
//
// Tail (Gaussian isoperimetry: Sudakov–Tsirelson 1974, Borell 1975; see
// Ledoux, "The concentration of measure phenomenon", 2001, ch. 2): an
// L-Lipschitz function F of N(0, σ²I) satisfies P(F > med F + t) ≤ Φ̄(t/(Lσ)),
// Φ̄ the standard normal tail (the half-space is the extremal set). The pair is
// exchangeable, so Z =ᵈ −Z and 0 is a median of Z (and of each Z_j), hence
//
//	P(Z > z) ≤ Φ̄(z/s)  and  P(−Z > z) ≤ Φ̄(z/s)  for z ≥ 0.       (isoperimetric tail)
//
// This is attained by a linear f (Z ~ N(0, s²)), so every bound below that
// integrates this tail is attained too: it cannot be improved without more
// assumptions on the loss than G-Lipschitz. (The previous planner used the
// sub-Gaussian tail e^{−z²/(2s²)}, larger by the Mills factor ≈ z/s·√(2π) ≈ 18
// at the tails that matter.)

// normTail is Φ̄(x) = P(N(0,1) > x).
func normTail(x float64) float64 { return math.Erfc(x/math.Sqrt2) / 2 }

// normDensity is φ(x).
func normDensity(x float64) float64 { return math.Exp(-x*x/2) / math.Sqrt(2*math.Pi) }

// clampBias bounds E(e^Z − e^c)₊ for Z with the isoperimetric tail:
// (e^Z − e^c)₊ = ∫_c^∞ e^z·1{Z > z} dz, so
//
//	E(e^Z − e^c)₊ ≤ ∫_c^∞ e^z Φ̄(z/s) dz = e^{s²/2}·Φ̄(c/s − s) − e^c·Φ̄(c/s)
//
// (integrate by parts: e^z φ(z/s)/s = e^{s²/2} φ((z − s²)/s)/s). Equality for
// Z ~ N(0, s²).
func clampBias(s, c float64) float64 {
	b := math.Exp(s*s/2)*normTail(c/s-s) - math.Exp(c)*normTail(c/s)
	return math.Max(b, 0)
}

// excess bounds E(Y − a)₊ for Y with the isoperimetric tail and a ≥ 0:
//
//	E(Y − a)₊ = ∫_a^∞ P(Y > z) dz ≤ ∫_a^∞ Φ̄(z/s) dz = s·φ(a/s) − a·Φ̄(a/s).
func excess(s, a float64) float64 {
	return math.Max(s*normDensity(a/s)-a*normTail(a/s), 0)
}

// rgoBias bounds the TV distance between one uncapped RGO call and the
// exact π_y at scale s (derivation in rgo.go), with c = Offset, K = FactoryRate:
//
//	full:        E(e^Z − e^c)₊                                  (clampBias)
//	stochastic:  E(e^Z − e^c)₊ + e^c·(E(Z_J − c)₊ + E(−Z_J − (K − c))₊)
func rgoBias(mode string, s float64) float64 {
	b := clampBias(s, Offset)
	if mode == ModeStochastic {
		b += math.Exp(Offset) * (excess(s, Offset) + excess(s, FactoryRate-Offset))
	}
	return b
}

// scaleFor returns the largest s ≤ Offset with rgoBias(mode, s) ≤ budget
// (bisection; rgoBias increases with s), or 0 if even s = 10⁻³·Offset is
// over budget.
func scaleFor(mode string, budget float64) float64 {
	lo, hi := 1e-3*Offset, Offset
	if rgoBias(mode, hi) <= budget {
		return hi
	}
	if rgoBias(mode, lo) > budget {
		return 0
	}
	for i := 0; i < 200 && hi-lo > 1e-15*hi; i++ {
		mid := (lo + hi) / 2
		if rgoBias(mode, mid) <= budget {
			lo = mid
		} else {
			hi = mid
		}
	}
	return lo
}

// poissonTail returns P(Poisson(k) > m).
func poissonTail(k float64, m int) float64 {
	p := math.Exp(-k) // P(N = i), built up to i = m
	for i := 1; i <= m; i++ {
		p *= k / float64(i)
	}
	// Sum the tail directly: 1 − CDF would round to 0 for the tails we need.
	tail := 0.0
	for i := m + 1; i < m+300; i++ {
		p *= k / float64(i)
		tail += p
	}
	return tail
}

// Draws of the Bernoulli factory per step (stochastic mode). Picture a
// trial as a rate-K Poisson process of draws on the clock interval [0, 1];
// given the pair each draw rejects with probability ũ/K (ũ = E_J w̃_J), so
// rejections are a rate-ũ Poisson process, the trial accepts iff none falls
// in [0, 1] (probability e^{−ũ}), and otherwise ends at the first. Let
// X = e^{−ũ}; the trials of one RGO call are i.i.d. given y, with
// P(accept) = E X ≥ p (p = e^{−c}(1 − rgoBias): E a ≥ E W − E|a − W|, rgo.go).
//
// With β = K(e^θ − 1) and w = ũe^θ, one trial gives E[e^{θD}; accept | ũ] =
// e^{β−w} and E[e^{θD}; reject | ũ] = w∫₀¹ e^{(β−w)t} dt = 1 − e^{β−w} +
// β∫₀¹ e^{(β−w)t} dt (integration by parts). The draws S of a call (a
// geometric number of rejected trials, then an accepted one) therefore have
//
//	E e^{θS} = E[e^{β−w}] / (1 − E[e^{θD}; reject]) = 1 / (1 − β∫₀¹ e^{β(t−1)} φ(t)/φ(1) dt),
//
// φ(t) = E X^{t·e^θ}. By Lyapunov's inequality φ(t) ≤ φ(1)^t (t ≤ 1), and
// φ(1) = E X^{e^θ} ≥ (E X)^{e^θ} ≥ p^{e^θ} (Jensen, e^θ ≥ 1), so with
// ℓ = e^θ·ln(1/p) ≥ −ln φ(1):
//
//	E e^{θS} ≤ M(θ) = 1 / (1 − β·(e^{ℓ−β} − 1)/(ℓ − β))     (while the denominator is > 0),
//	E S ≤ M′(0) = K(1 − p)/(p·ln(1/p)).
//
// The bound depends on the data only through p, which holds for every data
// set and every y; it is attained when ũ is constant (f constant near y).
// The Poisson cap, the trial cap M and an exhausted budget only end a call
// earlier on the same draws, so they do not increase S. Against the
// previous bound (the factory's Poisson(K) per trial times 1/p trials,
// K/p ≈ 13.4 at c = 1.5) the early stop at the first rejection counts:
// K(1 − p)/(p ln(1/p)) = 6.96, i.e. K(e^c − 1)/c at p = e^{−c}.

// stepDrawLogMGF returns ln M(θ) for rate k and acceptance bound p, or +Inf
// where the bound diverges.
func stepDrawLogMGF(theta, k, p float64) float64 {
	beta := k * math.Expm1(theta)
	x := math.Exp(theta)*math.Log(1/p) - beta
	in := 1 + x/2 // (e^x − 1)/x
	if math.Abs(x) > 1e-8 {
		in = math.Expm1(x) / x
	}
	if beta*in >= 1 {
		return math.Inf(1)
	}
	return -math.Log1p(-beta * in)
}

// StepDraws is K(1 − p)/(p·ln(1/p)), the bound on the expected factory
// draws of one RGO call for acceptance bound p.
func StepDraws(k, p float64) float64 { return k * (1 - p) / (p * math.Log(1/p)) }

// DrawBudget returns the least B_f ≤ full with P(the factory draws of steps
// RGO calls exceed B_f) ≤ target, and that bound, for rate k and acceptance
// bound p. Each call's draws S_t satisfy E(e^{θS_t} | past) ≤ M(θ) for every
// y, so exp(θΣS_t)/M(θ)^t is a non-negative supermartingale and
//
//	P(Σ_{t ≤ steps} S_t ≥ B_f + 1) ≤ inf_θ exp(steps·ln M(θ) − θ(B_f + 1))
//
// (any θ gives a valid bound; a golden-section search picks a good one). At
// B_f = full (TrialTotal·cap: no run can draw more) the bound is 0.
func DrawBudget(steps int, k, p float64, full int64, target float64) (int64, float64) {
	thMax := drawThetaMax(k, p)
	bound := func(b int64) float64 { return drawOverrun(steps, k, p, full, b, thMax) }
	start := min(full, int64(float64(steps)*StepDraws(k, p)))
	return leastBudget(start, full, bound, target)
}

// drawThetaMax returns θ_max: M(θ) is finite on [0, θ_max) (the
// denominator of M decreases in θ).
func drawThetaMax(k, p float64) float64 {
	lo, hi := 0.0, 1.0
	for !math.IsInf(stepDrawLogMGF(hi, k, p), 1) && hi < 64 {
		hi *= 2
	}
	for i := 0; i < 100; i++ {
		mid := (lo + hi) / 2
		if math.IsInf(stepDrawLogMGF(mid, k, p), 1) {
			hi = mid
		} else {
			lo = mid
		}
	}
	return lo
}

// drawOverrun is DrawBudget's bound on P(overrun) at budget b, with θ
// searched on [0, thMax].
func drawOverrun(steps int, k, p float64, full, b int64, thMax float64) float64 {
	if b >= full {
		return 0
	}
	f := func(th float64) float64 {
		return float64(steps)*stepDrawLogMGF(th, k, p) - th*float64(b+1)
	}
	lo, hi := 0.0, thMax
	for i := 0; i < 100; i++ {
		m1, m2 := lo+(hi-lo)*0.381966, lo+(hi-lo)*0.618034
		if f(m1) < f(m2) {
			hi = m2
		} else {
			lo = m1
		}
	}
	return math.Exp(math.Min(0, f((lo+hi)/2)))
}
