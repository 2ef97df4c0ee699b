package loss

import "math"

// LinearExtension returns the Lipschitz extension (LLL Lemma 3.2, after
// Cobzaş–Mustăţa 1978) of the linear loss f(u) = −⟨u, z⟩ from the ball
// K = {‖u‖₂ ≤ R} to all of R^d:
//
//	ℓ̃(θ; z) = min_{‖u‖≤R} −⟨u, z⟩ + G·‖θ − u‖₂,
//
// which is convex, G-Lipschitz, and equal to −⟨θ, z⟩ on K whenever
// G ≥ ‖z‖₂ (LLL Appendix D uses R = G = 1, where ℓ̃(θ; 0) = max(0, ‖θ‖ − 1)).
//
// For ‖θ‖ > R the minimiser lies on the sphere ‖u‖ = R in the plane spanned by
// θ and z, on the shorter arc between θ/‖θ‖ (minimising the distance) and
// z/‖z‖ (minimising −⟨u,z⟩): at any point off that arc, the point of the arc
// with no larger angle to either direction is no worse. The arc is searched on
// a 64-point grid and refined by golden section to 1e-13 rad; the cost is O(d)
// plus O(1) trigonometry.
func LinearExtension(theta, z []float64, R, G float64) float64 {
	v, _, _, _ := linExt(theta, z, R, G)
	return v
}

// linExt returns the value and, when ‖θ‖ > R, the minimiser's coordinates in
// the plane basis (e1 = θ/‖θ‖, e2 ⊥ e1 towards z): u = R(cos φ e1 + sin φ e2).
func linExt(theta, z []float64, R, G float64) (val, t, phi, z2 float64) {
	tt, tz := 0.0, 0.0
	for j, v := range theta {
		tt += v * v
		tz += v * z[j]
	}
	t = math.Sqrt(tt)
	if t <= R {
		return -tz, t, 0, 0
	}
	zz := 0.0
	for _, v := range z {
		zz += v * v
	}
	z1 := tz / t
	z2 = math.Sqrt(math.Max(0, zz-z1*z1))
	h := func(p float64) float64 {
		c, s := math.Cos(p), math.Sin(p)
		return -R*(z1*c+z2*s) + G*math.Sqrt(math.Max(0, t*t+R*R-2*t*R*c))
	}
	end := math.Atan2(z2, z1) // angle of z in the plane, in [0, π]
	if zz == 0 {
		end = 0
	}
	if end == 0 {
		return h(0), t, 0, z2
	}
	const grid = 64
	best, bi := math.Inf(1), 0
	for k := 0; k <= grid; k++ {
		if v := h(end * float64(k) / grid); v < best {
			best, bi = v, k
		}
	}
	a := end * float64(max(bi-1, 0)) / grid
	c := end * float64(min(bi+1, grid)) / grid
	const gr = 0.3819660112501051
	x1, x2 := a+gr*(c-a), c-gr*(c-a)
	f1, f2 := h(x1), h(x2)
	for c-a > 1e-13 {
		if f1 <= f2 {
			c, x2, f2 = x2, x1, f1
			x1 = a + gr*(c-a)
			f1 = h(x1)
		} else {
			a, x1, f1 = x1, x2, f2
			x2 = c - gr*(c-a)
			f2 = h(x2)
		}
	}
	phi = x1
	if f2 < f1 {
		phi, f1 = x2, f2
	}
	if best < f1 { // a grid end point
		phi, f1 = end*float64(bi)/grid, best
	}
	return f1, t, phi, z2
}

// linExtGrad adds w·∇ℓ̃(θ; z) to g: −z inside K, G·(θ − u*)/‖θ − u*‖ outside.
func linExtGrad(theta, z []float64, R, G float64, g []float64, w float64) {
	_, t, phi, z2 := linExt(theta, z, R, G)
	if t <= R {
		for j, v := range z {
			g[j] -= w * v
		}
		return
	}
	// u* = R(cos φ e1 + sin φ e2), e1 = θ/t, e2 = (z − z1 e1)/z2.
	z1 := 0.0
	for j, v := range theta {
		z1 += v * z[j]
	}
	z1 /= t
	c, s := R*math.Cos(phi), R*math.Sin(phi)
	// θ − u* componentwise, then normalise.
	diff := 0.0
	for j, v := range theta {
		e1 := v / t
		e2 := 0.0
		if z2 > 0 {
			e2 = (z[j] - z1*e1) / z2
		}
		u := c*e1 + s*e2
		diff += (v - u) * (v - u)
	}
	diff = math.Sqrt(diff)
	if diff == 0 {
		return
	}
	for j, v := range theta {
		e1 := v / t
		e2 := 0.0
		if z2 > 0 {
			e2 = (z[j] - z1*e1) / z2
		}
		g[j] += w * G * (v - (c*e1 + s*e2)) / diff
	}
}
