package loss

import "math"

// Smooth losses (design note smooth-sampler.md §4). A GLM loss is
// ℓ(θ; x, y) = φ(⟨θ, x⟩; y) with φ convex in the scalar margin/residual m.
// It is β-smooth when 0 ≤ φ''(m) ≤ β for every m ∈ ℝ (φ' is β-Lipschitz on
// all of ℝ, not just near the data); then ∇²ℓ ⪯ β·xxᵀ ⪯ β·clip²·I. The
// curvature bounds, from public parameters only:
//
//	loss             φ(m; y)                                           G                    β
//	logistic         log(1 + e^{−ym})                                  clip                 1/4
//	huber            H_h(m − y) = r²/2 (|r| ≤ h), h(|r| − h/2) else    h·clip               1
//	smooth-hinge     S_h(1 − ym), S_h(u) = 0 (u ≤ 0), u²/(2h) (u ≤ h),  clip                 1/h
//	                 u − h/2 (u > h)
//	smooth-quantile  Q_{τ,h}(y − m), Q = r²/(2h) on [−(1−τ)h, τh],      max(τ,1−τ)·clip      1/h
//	                 τr − τ²h/2 above, (τ−1)r − (1−τ)²h/2 below
//
// Huber's normalisation here is H_h(r) = r²/2 near 0 (so H'' = 1 and H' is
// clipped at ±h: G = h·clip, β = 1); smooth-sampler.md §4 says β = 1/h, which
// is the curvature of the other normalisation H_h/h (G = clip).
//
// smooth-hinge is the Huberised hinge: it equals the hinge max(0, 1 − ym)
// up to h/2 (0 ≤ hinge − S_h ≤ h/2), with derivative in [−1, 0]·y.
// smooth-quantile is the Huberised pinball loss ρ_τ: 0 ≤ ρ_τ − Q_{τ,h} ≤
// max(τ², (1−τ)²)·h/2, derivative in [τ − 1, τ]; at τ = ½ it is H_{h/2}(r)/h,
// half of the absolute deviation |r| Huberised at width h/2 (a smooth LAD).
// Both take the width h from Params.Huber (API field "huber", default 1).
// The non-smooth losses (l1, l2dist, lad, quantile, hinge, linext) have no β;
// linear has φ'' = 0 but its exact Gaussian sampler is used instead.

// huber returns H_h(r).
func huber(r, h float64) float64 {
	a := math.Abs(r)
	if a <= h {
		return 0.5 * a * a
	}
	return h * (a - 0.5*h)
}

// huberDeriv returns H_h'(r) = clamp(r, −h, h). (The builtin min and max
// are math.Min and math.Max — NaN wins, −0 < +0 — but inlined.)
func huberDeriv(r, h float64) float64 { return max(-h, min(h, r)) }

// smoothHinge returns S_h(u).
func smoothHinge(u, h float64) float64 {
	switch {
	case u <= 0:
		return 0
	case u <= h:
		return u * u / (2 * h)
	}
	return u - h/2
}

// smoothHingeDeriv returns S_h'(u) = clamp(u/h, 0, 1).
func smoothHingeDeriv(u, h float64) float64 { return max(0, min(1, u/h)) }

// smoothQuantile returns Q_{τ,h}(r).
func smoothQuantile(r, tau, h float64) float64 {
	switch {
	case r > tau*h:
		return tau * (r - tau*h/2)
	case r < -(1-tau)*h:
		return (tau-1)*r - (1-tau)*(1-tau)*h/2
	}
	return r * r / (2 * h)
}

// smoothQuantileDeriv returns Q'_{τ,h}(r) = clamp(r/h, τ − 1, τ).
func smoothQuantileDeriv(r, tau, h float64) float64 {
	return max(tau-1, min(tau, r/h))
}

// Smooth returns the curvature bound β of the scalar loss φ (0 ≤ φ” ≤ β on
// ℝ, table above) for the public parameters p, and ok = false for a loss that
// is not smooth. Invalid p gives an error naming the field.
func Smooth(k Kind, p Params) (beta float64, ok bool, err error) {
	p, err = p.withDefaults()
	if err != nil {
		return 0, false, err
	}
	switch k {
	case Logistic:
		return 0.25, true, nil
	case Huber:
		return 1, true, nil
	case SmoothHinge, SmoothQuantile:
		return 1 / p.Huber, true, nil
	}
	return 0, false, nil
}

// Smooth returns the scalar curvature bound β of the set's loss (see the
// package function Smooth); ok is false when the loss is not smooth.
func (s *Set) Smooth() (beta float64, ok bool) {
	beta, ok, _ = Smooth(s.kind, s.p)
	return beta, ok
}

// Curvature returns β·clip², a public bound on the Hessian of every record's
// loss in θ (∇²ℓ(·; zᵢ) ⪯ β·clip²·I), or 0 when the loss is not smooth.
func (s *Set) Curvature() float64 {
	beta, ok := s.Smooth()
	if !ok {
		return 0
	}
	return beta * s.p.Clip * s.p.Clip
}

// GradSpread returns a public bound on ‖∇ℓ(θ; zᵢ) − ∇ℓ(θ'; zᵢ)‖ over all θ,
// θ' and records, (sup φ' − inf φ')·clip, or 0 when the loss is not smooth:
// ∇ℓ = φ'(⟨aᵢ, θ⟩)·aᵢ with ‖aᵢ‖ ≤ clip, and φ' ranges over an interval of
// length 1 for logistic (−y/(1 + e^{yv}) keeps the sign of −y, y = ±1),
// smooth-hinge (−y·clamp(u/h, 0, 1)) and smooth-quantile ([τ − 1, τ]), 2h for
// Huber (clamp(r, −h, h)). It is ≤ 2G, and G for logistic and smooth-hinge:
// the first-order sampler's warm start is that much closer (firstorder.go).
func (s *Set) GradSpread() float64 {
	if _, ok := s.Smooth(); !ok {
		return 0
	}
	if s.kind == Huber {
		return 2 * s.p.Huber * s.p.Clip
	}
	return s.p.Clip
}

// deriv returns φ'(m; y) for the GLM losses (a subgradient for the
// non-smooth ones is in Subgradient).
func (s *Set) deriv(m, y float64) float64 {
	switch s.kind {
	case Logistic:
		return -y / (1 + math.Exp(y*m))
	case Huber:
		return huberDeriv(m-y, s.p.Huber)
	case SmoothHinge:
		return -y * smoothHingeDeriv(1-y*m, s.p.Huber)
	case SmoothQuantile:
		return -smoothQuantileDeriv(y-m, s.p.Tau, s.p.Huber)
	}
	return math.NaN()
}

// Deriv returns the scalar derivative φ'(m; y) of a smooth loss at margin
// (or prediction) m and target y; NaN for a loss that is not smooth.
func (s *Set) Deriv(m, y float64) float64 {
	if _, ok := s.Smooth(); !ok {
		return math.NaN()
	}
	return s.deriv(m, y)
}

// Deriv2 returns the scalar second derivative φ”(m; y) of a smooth loss
// (NaN for a loss that is not smooth), a value in [0, β] (the package
// table's β, Smooth) at every m:
//
//	logistic         φ'' = p(1 − p), p = 1/(1 + e^{−ym})      ≤ 1/4
//	huber            φ'' = 1{|m − y| ≤ h}                       ≤ 1
//	smooth-hinge     φ'' = 1{0 < 1 − ym < h}/h                  ≤ 1/h
//	smooth-quantile  φ'' = 1{−(1−τ)h < y − m < τh}/h            ≤ 1/h
//
// At the kinks of the piecewise losses φ' is continuous and φ” jumps; the
// value taken there is one of its one-sided limits, so the bound holds at
// every m (core/interval releases (1/n)Σφ”ᵢaᵢaᵢᵀ with that bound).
func (s *Set) Deriv2(m, y float64) float64 {
	switch s.kind {
	case Logistic:
		e := math.Exp(-math.Abs(y * m))   // p(1−p) = e/(1+e)² for e = e^{−|ym|}
		return min(0.25, e/((1+e)*(1+e))) // rounding reached 0.25 + 1 ulp at m ≈ 0
	case Huber:
		if math.Abs(m-y) <= s.p.Huber {
			return 1
		}
		return 0
	case SmoothHinge:
		if u := 1 - y*m; u > 0 && u < s.p.Huber {
			return 1 / s.p.Huber
		}
		return 0
	case SmoothQuantile:
		if r := y - m; r > -(1-s.p.Tau)*s.p.Huber && r < s.p.Tau*s.p.Huber {
			return 1 / s.p.Huber
		}
		return 0
	}
	return math.NaN()
}
