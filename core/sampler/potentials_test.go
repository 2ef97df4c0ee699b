package sampler

import (
	"math"
	"math/rand/v2"
	"sort"
)

// Test potentials: each loss is convex and 1-Lipschitz in x (G = 1). Data are
// stored row-major in one contiguous slice.

// l1Sep is l(x; z) = Σ_j |x_j − z_j| / √d (ℓ1 location; separable).
type l1Sep struct {
	n, d int
	z    []float64
	inv  float64 // 1/√d
}

func newL1Sep(z []float64, n, d int) *l1Sep {
	return &l1Sep{n: n, d: d, z: z, inv: 1 / math.Sqrt(float64(d))}
}
func (p *l1Sep) N() int   { return p.n }
func (p *l1Sep) Dim() int { return p.d }
func (p *l1Sep) Value(i int, x []float64) float64 {
	row := p.z[i*p.d : (i+1)*p.d]
	s := 0.0
	for j, v := range row {
		s += math.Abs(x[j] - v)
	}
	return s * p.inv
}
func (p *l1Sep) Mean(x []float64) float64 {
	s := 0.0
	for i := 0; i < p.n; i++ {
		s += p.Value(i, x)
	}
	return s / float64(p.n)
}

// linear is l(x; z) = ⟨z, x⟩ with ‖z‖ ≤ 1; π = N(−z̄/μ, (ημ)⁻¹I) exactly (§1.8a).
type linear struct {
	n, d int
	z    []float64
	zbar []float64
}

func newLinear(z []float64, n, d int) *linear {
	p := &linear{n: n, d: d, z: z, zbar: make([]float64, d)}
	for i := 0; i < n; i++ {
		for j := 0; j < d; j++ {
			p.zbar[j] += z[i*d+j] / float64(n)
		}
	}
	return p
}
func (p *linear) N() int   { return p.n }
func (p *linear) Dim() int { return p.d }
func (p *linear) Value(i int, x []float64) float64 {
	return dot(p.z[i*p.d:(i+1)*p.d], x)
}
func (p *linear) Mean(x []float64) float64 { return dot(p.zbar, x) }

// glm is a margin loss φ(y·⟨a, x⟩) with ‖a‖ ≤ 1, y = ±1: logistic
// φ(m) = ln(1 + e^{−m}) or hinge φ(m) = max(0, 1 − m).
type glm struct {
	n, d  int
	a     []float64
	y     []float64
	hinge bool
}

func (p *glm) N() int   { return p.n }
func (p *glm) Dim() int { return p.d }
func (p *glm) Value(i int, x []float64) float64 {
	m := p.y[i] * dot(p.a[i*p.d:(i+1)*p.d], x)
	if p.hinge {
		return math.Max(0, 1-m)
	}
	if m > 0 {
		return math.Log1p(math.Exp(-m))
	}
	return -m + math.Log1p(math.Exp(m))
}
func (p *glm) Mean(x []float64) float64 {
	s := 0.0
	for i := 0; i < p.n; i++ {
		s += p.Value(i, x)
	}
	return s / float64(p.n)
}

func dot(a, b []float64) float64 {
	s := 0.0
	b = b[:len(a)]
	for j, v := range a {
		s += v * b[j]
	}
	return s
}

// randomGLM draws n rows uniform in direction with norm ≤ 1 and labels from a
// fixed hyperplane with 10% flips.
func randomGLM(r *rand.Rand, n, d int, hinge bool) *glm {
	p := &glm{n: n, d: d, a: make([]float64, n*d), y: make([]float64, n), hinge: hinge}
	w := make([]float64, d)
	for j := range w {
		w[j] = r.NormFloat64()
	}
	for i := 0; i < n; i++ {
		row := p.a[i*d : (i+1)*d]
		s := 0.0
		for j := range row {
			row[j] = r.NormFloat64()
			s += row[j] * row[j]
		}
		scale := r.Float64() / math.Sqrt(s)
		for j := range row {
			row[j] *= scale
		}
		p.y[i] = 1
		if dot(row, w) < 0 {
			p.y[i] = -1
		}
		if r.Float64() < 0.1 {
			p.y[i] = -p.y[i]
		}
	}
	return p
}

// quadCDF tabulates the CDF of p(t) ∝ exp(−a·Σ_i|t − z_i| − b·t²) on [−R, R]
// (the 1-D ball) by the trapezoid rule on 2·10⁵ cells; error ~1e-9, far below
// the KS resolution used here.
type quadCDF struct {
	t, F []float64
}

func newQuadCDF(z []float64, a, b, R float64) *quadCDF {
	const cells = 200000
	u := func(t float64) float64 {
		s := 0.0
		for _, v := range z {
			s += math.Abs(t - v)
		}
		return a*s + b*t*t
	}
	// Restrict to where U − min U ≤ 60 (mass outside < e⁻⁵⁰).
	lo, hi := -R, R
	umin := math.Inf(1)
	for k := 0; k <= 2000; k++ {
		umin = math.Min(umin, u(lo+(hi-lo)*float64(k)/2000))
	}
	for u(lo) > umin+60 {
		lo += (hi - lo) / 1000
	}
	for u(hi) > umin+60 {
		hi -= (hi - lo) / 1000
	}
	q := &quadCDF{t: make([]float64, cells+1), F: make([]float64, cells+1)}
	h := (hi - lo) / cells
	prev := math.Exp(-(u(lo) - umin))
	q.t[0] = lo
	for k := 1; k <= cells; k++ {
		tk := lo + h*float64(k)
		cur := math.Exp(-(u(tk) - umin))
		q.t[k] = tk
		q.F[k] = q.F[k-1] + h*(prev+cur)/2
		prev = cur
	}
	for k := range q.F {
		q.F[k] /= q.F[cells]
	}
	return q
}

func (q *quadCDF) cdf(x float64) float64 {
	k := sort.SearchFloat64s(q.t, x)
	if k == 0 {
		return 0
	}
	if k >= len(q.t) {
		return 1
	}
	w := (x - q.t[k-1]) / (q.t[k] - q.t[k-1])
	return q.F[k-1] + w*(q.F[k]-q.F[k-1])
}

// ks2Stat is the two-sample Kolmogorov–Smirnov statistic sup|F_m − G_m′|.
func ks2Stat(a, b []float64) float64 {
	x := append([]float64(nil), a...)
	y := append([]float64(nil), b...)
	sort.Float64s(x)
	sort.Float64s(y)
	i, j, d := 0, 0, 0.0
	for i < len(x) && j < len(y) {
		v := math.Min(x[i], y[j])
		for i < len(x) && x[i] == v {
			i++
		}
		for j < len(y) && y[j] == v {
			j++
		}
		d = math.Max(d, math.Abs(float64(i)/float64(len(x))-float64(j)/float64(len(y))))
	}
	return d
}
