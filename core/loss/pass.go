package loss

import "math"

// The data passes of the first-order sampler (Linearize, Bregman) in blocks.
//
// Summation order. A pass forms its sums block by block: block b holds rows
// [b·PassBlock, min((b+1)·PassBlock, n)); within a block the rows are added
// in order starting from 0, and the block sums are added in block order,
// again starting from 0:
//
//	S = (((0 + S₀) + S₁) + S₂) + …,   S_b = ((0 + s_{b,0}) + s_{b,1}) + …
//
// The margins ⟨aᵢ, θ⟩ are dot4: four partial sums over j ≡ 0, 1, 2, 3 (mod 4),
// combined as (p₀ + p₁) + (p₂ + p₃), then the last d mod 4 products in order.
// This order depends on n and d only, so a sharded pass (Sharded), which
// hands whole blocks to its workers and adds their block sums in block
// order, returns the same bits as this single-worker pass for every number
// of workers. It differs in the last bits from the plain left-to-right sums
// of Mean and Value (≈ d·2⁻⁵³ relative in a margin).
//
// Why the first-order RGO stays exact. One oracle call proposes x from
// N(m − σ²η·ĝ, σ²I), ĝ the computed gradient of Linearize at the anchor z,
// and accepts it with probability e^{−B̂(x)}, B̂ = η·Bregman(x, lin) as
// computed. (1) Bregman clamps every record's term at 0, so B̂ ≥ 0 and
// e^{−B̂} ∈ (0, 1] is a probability whatever the rounding. (2) The accepted
// point then has density ∝ exp(−η⟨ĝ, x⟩ − B̂(x) − ‖x − m‖²/(2σ²)): the call
// is an exact draw from the oracle of the computed potential
// f̂_z(x) = η·(L̂(z) + ⟨ĝ, x − z⟩) + B̂(x), whatever ĝ, L̂ and B̂ are. They
// differ from η·L and its derivatives only by the rounding of the sums
// (each margin to ≈ d·2⁻⁵³·Σⱼ|aᵢⱼxⱼ|, each term to a few ulps, a clamped
// term by at most its rounding), so f̂_z = η·L to that accuracy. A different
// summation order (dot4, blocks) is a different rounding of the same sums:
// it changes which f̂_z is sampled exactly, by the same order of magnitude,
// and not the argument.

// PassBlock is the number of rows per block of a pass (see above).
const PassBlock = 128

// Blocks returns the number of blocks of a pass over n rows.
func Blocks(n int) int { return (n + PassBlock - 1) / PassBlock }

// dot4 returns ⟨a, b⟩ (len(b) ≥ len(a)) in the fixed order described above.
func dot4(a, b []float64) float64 {
	b = b[:len(a)]
	var p0, p1, p2, p3 float64
	for len(a) >= 4 {
		p0 += a[0] * b[0]
		p1 += a[1] * b[1]
		p2 += a[2] * b[2]
		p3 += a[3] * b[3]
		a, b = a[4:], b[4:len(a)]
	}
	t := (p0 + p1) + (p2 + p3)
	for j, v := range a {
		t += v * b[j]
	}
	return t
}

// blockRows returns the first row and the row count of block b.
func (s *Set) blockRows(b int) (i0, m int) {
	i0 = b * PassBlock
	return i0, min(PassBlock, s.n-i0)
}

// linBlock is block b of Linearize: it stores vᵢ, φ(vᵢ), φ'(vᵢ) in lin for
// the block's rows, adds Σ_{i∈b} φ'(vᵢ)·aᵢ (formed from 0, rows in order)
// into g (length d) and returns Σ_{i∈b} φ(vᵢ).
func (s *Set) linBlock(b int, z, lin, g []float64) float64 {
	i0, m := s.blockRows(b)
	return s.tangentBlock(b, z, lin[3*i0:3*(i0+m)], g, true)
}

// gradBlock is block b of Gradient: it adds Σ_{i∈b} φ'(vᵢ)·aᵢ into g as
// linBlock does, bit for bit, with the block's lin in a scratch buffer and
// without the logistic loss values (no log1p).
func (s *Set) gradBlock(b int, z, g []float64) {
	_, m := s.blockRows(b)
	var lbuf [3 * PassBlock]float64
	s.tangentBlock(b, z, lbuf[:3*m], g, false)
}

// tangentBlock is linBlock with the block's lin l (length 3m); with vals
// false the logistic values are left out of l and of the returned sum (the
// other losses' values cost no transcendental and are formed anyway).
func (s *Set) tangentBlock(b int, z, l, g []float64, vals bool) float64 {
	i0, m := s.blockRows(b)
	var ubuf [PassBlock]float64
	u := ubuf[:m]
	x := s.x[i0*s.d : (i0+m)*s.d]
	margins(z[:s.d], x, u)
	y := s.y[i0 : i0+m]
	tot := 0.0
	h, tau := s.p.Huber, s.p.Tau
	switch s.kind {
	case Logistic:
		if !vals {
			for k, v := range u {
				l[3*k+2] = logisticDeriv(y[k], v)
			}
			break
		}
		for k, v := range u {
			val, c := logisticValDeriv(y[k], v)
			l[3*k], l[3*k+1], l[3*k+2] = v, val, c
			tot += val
		}
	case Huber:
		for k, v := range u {
			r := v - y[k]
			val, c := huber(r, h), huberDeriv(r, h)
			l[3*k], l[3*k+1], l[3*k+2] = v, val, c
			tot += val
		}
	case SmoothHinge:
		for k, v := range u {
			w := 1 - y[k]*v
			val, c := smoothHinge(w, h), -y[k]*smoothHingeDeriv(w, h)
			l[3*k], l[3*k+1], l[3*k+2] = v, val, c
			tot += val
		}
	case SmoothQuantile:
		for k, v := range u {
			r := y[k] - v
			val, c := smoothQuantile(r, tau, h), -smoothQuantileDeriv(r, tau, h)
			l[3*k], l[3*k+1], l[3*k+2] = v, val, c
			tot += val
		}
	default:
		panic("loss: linBlock on a loss that is not smooth: " + s.kind.String())
	}
	grad(l, x, g[:s.d])
	return tot
}

// bregBlock is block b of Bregman: Σ_{i∈b} max(0, D_φ(uᵢ, vᵢ)) formed from
// 0, rows in order; NaN if a term is NaN.
func (s *Set) bregBlock(b int, x, lin []float64) float64 {
	i0, m := s.blockRows(b)
	var ubuf, fbuf [PassBlock]float64
	u, f := ubuf[:m], fbuf[:m]
	margins(x[:s.d], s.x[i0*s.d:(i0+m)*s.d], u)
	y := s.y[i0 : i0+m]
	h, tau := s.p.Huber, s.p.Tau
	switch s.kind {
	case Logistic:
		for k, uk := range u {
			f[k] = softplus(-(uk * y[k]))
		}
	case Huber:
		for k, uk := range u {
			f[k] = huber(uk-y[k], h)
		}
	case SmoothHinge:
		for k, uk := range u {
			f[k] = smoothHinge(1-y[k]*uk, h)
		}
	case SmoothQuantile:
		for k, uk := range u {
			f[k] = smoothQuantile(y[k]-uk, tau, h)
		}
	default:
		panic("loss: bregBlock on a loss that is not smooth: " + s.kind.String())
	}
	return bregTerms(u, f, lin[3*i0:3*(i0+m)])
}

// bregTerms returns Σ_k max(0, f_k − φ(v_k) − φ'(v_k)(u_k − v_k)) formed from 0
// in order, with (v_k, φ(v_k), φ'(v_k)) = l[3k], l[3k+1], l[3k+2]; NaN if a
// term is NaN.
func bregTerms(u, f, l []float64) float64 {
	f = f[:len(u)]
	l = l[:3*len(u)]
	tot := 0.0
	for k, uk := range u {
		b := f[k] - l[3*k+1] - l[3*k+2]*(uk-l[3*k])
		if b > 0 {
			tot += b
		} else if b != b {
			return math.NaN()
		}
	}
	return tot
}
