package loss

import (
	"math"
	"slices"
)

// The converged comparison (issue 53 item 3). MinimizeInBall is the
// reference of the paper's excess risk, min over ‖θ‖ ≤ C; as the
// comparison a person reads beside a released model it was wrong: C is
// small on purpose (it sets the mechanism's noise), so on a regression
// whose target sits far from the centre of its declared range the best θ
// in the ball could not even reach the median, and the "best model fitted
// without privacy" was worse than predicting the median. Minimize finds
// the minimiser over all of ℝ^d instead, and checks that it converged.
//
// Certificate. Every loss here is convex, so any subgradient-like vector
// bounds L from below. For the linear-model losses L(θ) = (1/n)Σᵢ φᵢ(⟨θ, xᵢ⟩)
// take uᵢ ∈ ∂φᵢ(κᵢ) at some point κᵢ; then for every θ',
//
//	L(θ') ≥ (1/n)Σᵢ [φᵢ(κᵢ) + uᵢ(⟨θ', xᵢ⟩ − κᵢ)] = L(θ̂) − ε + ⟨ḡ, θ' − θ̂⟩,
//	ḡ = (1/n)Σᵢ uᵢxᵢ,  ε = (1/n)Σᵢ [φᵢ(vᵢ) − φᵢ(κᵢ) − uᵢ(vᵢ − κᵢ)] ≥ 0,  vᵢ = ⟨θ̂, xᵢ⟩,
//
// and with the metric M = S + λI, S = (1/n)Σᵢ xᵢxᵢᵀ (so ‖δ‖_M is about the
// root mean square change ⟨δ, xᵢ⟩ of the predictions), Cauchy–Schwarz
// gives, for every θ' with ‖θ' − θ̂‖_M ≤ D,
//
//	L(θ̂) − L(θ') ≤ Gap = ε + D·‖ḡ‖_{M⁻¹},
//
// and L(θ̂) − L(θ') ≤ Gap·‖θ' − θ̂‖_M/D beyond (convexity along the segment).
// A smooth loss takes κᵢ = vᵢ, uᵢ = φ'(vᵢ): ε = 0 and ḡ = ∇L(θ̂). The
// kinked ones (lad, quantile, hinge) are minimised through their Huberised
// versions of width h (smooth.go: smooth-quantile, smooth-hinge), whose
// derivative uᵢ is a subgradient of φᵢ at its kink κᵢ (y for lad and
// quantile, the margin 1 for hinge, where φᵢ(κᵢ) = 0): ε ≤ h/4 is the
// smoothing's slack, computed row by row, and h shrinks by 4 until Gap is
// small. D, the reach, is public (mechanism.fit: the target range's width
// for a regression, 16 logits for a classifier).
//
// The location losses have exact answers or a global certificate: l1's
// minimiser is the coordinate-wise median (Gap = 0), l2dist's (the
// geometric median) is found by Weiszfeld's iteration and lies in the
// rows' bounding box, as does every iterate, so with D the box's diagonal
// the certificate is global.
//
// Stopping rule: Gap ≤ Tol·max(L(0), MinTolFloor) — relative to the loss
// of θ = 0 — or MaxPasses passes over the rows, whichever comes first
// (then Converged is false and Gap says how far it got). Work: with
// MinOptions.Fixed (mechanism.fit's default, docs/PRIVACY.md §7.1) the
// passes after the stop are made anyway, at θ̂, so that the call's work is
// MaxPasses, a public function of n, d and the loss, whatever the rows
// (the covariance, the Newton systems and the factorisations are counted
// as passes of n·d multiply-adds, so it is fixed to within one pass);
// without it Minimize returns at the stop, and the work depends on the
// data, never above MaxPasses. The result is computed from the raw rows
// for display on the owner's device: NOT private.

// MinTol is the default relative tolerance of Minimize: Gap ≤ MinTol·L(0).
const MinTol = 1e-4

// MinTolFloor keeps the tolerance positive when L(0) = 0.
const MinTolFloor = 1e-12

// MinOptions are the public settings of Minimize.
type MinOptions struct {
	Reach     float64   // D (see above); ≤ 0: 1
	Tol       float64   // relative tolerance; 0: MinTol
	MaxPasses int       // cap on the passes over the rows; ≤ 0: MinPassesMax(n, d, kind)
	Ball      float64   // linear, linext: the radius of the ball they are minimised over
	Eval      ValueGrad // a smooth loss's value and gradient (the sampler's shards); nil: Linearize
	// Fixed makes the work MaxPasses passes whatever the data (see above).
	Fixed bool
	// After, if not nil, is called with the passes done so far and MaxPasses.
	After func(done, total int)
	// noSlack drops ε from the kinked losses' certificate: a deliberately
	// broken version for the tests (TestMinimizeCertificate).
	noSlack bool
}

// Min is Minimize's answer: θ̂ and its certificate.
type Min struct {
	Theta     []float64 `json:"theta"`
	Loss      float64   `json:"loss"`            // L(θ̂)
	Gap       float64   `json:"gap"`             // L(θ̂) − L(θ') ≤ Gap whenever ‖θ' − θ̂‖_M ≤ Reach (every θ' if Global)
	Reach     float64   `json:"reach,omitempty"` // D
	Global    bool      `json:"global,omitempty"`
	Tolerance float64   `json:"tolerance"`           // the absolute stopping tolerance, Tol·max(L(0), MinTolFloor)
	Converged bool      `json:"converged"`           // Gap ≤ Tolerance
	Passes    int       `json:"passes"`              // passes over the rows made, ≤ MaxPasses (= with Fixed)
	Iters     int       `json:"iterations"`          // iterations until the stop (the rest of Passes is padding)
	Smoothing float64   `json:"smoothing,omitempty"` // the last width h (lad, quantile, hinge)
	Exact     bool      `json:"exact,omitempty"`     // l1: the coordinate medians, exact
	Ball      float64   `json:"ball,omitempty"`      // linear, linext: minimised over ‖θ‖ ≤ Ball only
}

// The iterations of Minimize: iterations·n·d ≤ minBudget, between a floor
// (minItersSmooth for a smooth loss, minItersKinked for the others, which
// go through several Huberisations) and minItersMax.
const (
	minBudget      = 3e7
	minItersSmooth = 150
	minItersKinked = 300
	minItersMax    = 3000
)

// MinPassesMax is Minimize's default cap on the passes over the rows, a
// function of public sizes and the loss only: one for L(0) (the
// tolerance), the covariance S of a linear-model loss (n·d²/2
// multiply-adds: ⌈d/2⌉ passes of n·d) and the iterations,
// clamp(minBudget/(n·d), floor, minItersMax), one pass each — for lad,
// quantile and hinge 1 + d²/(6n), a pass and the factorisation of a d×d
// Newton system (d³/6 multiply-adds) —; for l1 ⌈log₂ n⌉ + 1 (the sorts of
// the coordinate medians and the loss).
func MinPassesMax(n, d int, k Kind) int {
	floor := minItersKinked
	if _, smooth, _ := Smooth(k, Params{}); smooth {
		floor = minItersSmooth
	}
	iters := int(math.Max(float64(floor), math.Min(minItersMax, minBudget/float64(max(1, n*d)))))
	switch k {
	case L1:
		return 1 + int(math.Ceil(math.Log2(float64(max(2, n)))))
	case L2Dist:
		return 1 + iters
	case LAD, Quantile, Hinge:
		return 1 + covPasses(d) + int(math.Ceil(float64(iters)*(1+newtonPasses(n, d))))
	}
	return 1 + covPasses(d) + iters
}

// newtonPasses is the factorisation of a d×d Newton system, d³/6
// multiply-adds, in passes of n·d.
func newtonPasses(n, d int) float64 { return float64(d) * float64(d) / 6 / float64(max(1, n)) }

// covPasses counts the covariance as passes of n·d.
func covPasses(d int) int { return (d + 1) / 2 }

// Minimize minimises L over ℝ^d (see above); linear and linext, which have
// no minimiser or are defined on a ball, are minimised over ‖θ‖ ≤ o.Ball
// by MinimizeInBall (its gap, over that ball; its work is always fixed).
func (s *Set) Minimize(o MinOptions) Min {
	if o.Reach <= 0 {
		o.Reach = 1
	}
	if o.Tol <= 0 {
		o.Tol = MinTol
	}
	if o.MaxPasses <= 0 {
		o.MaxPasses = MinPassesMax(s.n, s.d, s.kind)
	}
	tol := o.Tol * math.Max(math.Abs(s.Mean(make([]float64, s.d))), MinTolFloor)
	if s.kind == Linear || s.kind == LinExt {
		b := s.MinimizeInBall(o.Ball, max(1, (o.MaxPasses-1)/2))
		if o.After != nil {
			o.After(o.MaxPasses, o.MaxPasses)
		}
		return Min{Theta: b.Theta, Loss: b.Loss, Gap: b.Gap, Passes: 1 + 2*b.Iters, Iters: b.Iters, Ball: o.Ball,
			Tolerance: tol, Converged: b.Gap <= tol}
	}
	w := &budget{max: float64(o.MaxPasses), done: 1, after: o.After}
	var m Min
	switch s.kind {
	case L1:
		m = s.coordinateMedian()
		w.done = float64(o.MaxPasses)
	case L2Dist:
		m = s.weiszfeld(tol, o, w)
	default:
		m = s.minimizeGLM(tol, o, w)
	}
	if m.Theta == nil { // a cap below one iteration: θ = 0
		m.Theta, m.Loss, m.Gap = make([]float64, s.d), s.Mean(make([]float64, s.d)), math.Inf(1)
	}
	// Every loss here is ≥ 0, so L(θ̂) − L(θ') ≤ L(θ̂) for every θ'.
	m.Gap = math.Min(m.Gap, m.Loss)
	m.Tolerance, m.Converged = tol, m.Gap <= tol
	m.Passes = int(math.Ceil(w.done))
	if o.After != nil {
		o.After(o.MaxPasses, o.MaxPasses)
	}
	return m
}

// budget counts Minimize's work in passes of n·d multiply-adds.
type budget struct {
	max, done float64
	after     func(done, total int)
}

// add counts passes and reports them.
func (b *budget) add(passes float64) {
	b.done += passes
	if b.after != nil {
		b.after(min(int(b.done), int(b.max)), int(b.max))
	}
}

// left reports whether passes more fit in the budget.
func (b *budget) left(passes float64) bool { return b.done+passes <= b.max }

// pad makes the whole passes left by calling pass (one pass over the rows
// each).
func (b *budget) pad(pass func()) {
	for b.left(1) {
		pass()
		b.add(1)
	}
}

// coordinateMedian is l1's exact minimiser: the median of each coordinate
// (the mean of the two middle values for even n), certified by its
// definition (Gap = 0 over all of ℝ^d).
func (s *Set) coordinateMedian() Min {
	n, d := s.n, s.d
	theta := make([]float64, d)
	col := make([]float64, n)
	for j := range theta {
		for i := range col {
			col[i] = s.x[i*d+j]
		}
		slices.Sort(col)
		theta[j] = col[n/2]
		if n%2 == 0 {
			theta[j] = col[n/2-1]/2 + col[n/2]/2
		}
	}
	return Min{Theta: theta, Loss: s.Mean(theta), Exact: true, Global: true}
}

// weiszfeld is l2dist's minimiser, the geometric median, by Weiszfeld's
// iteration θ ← Σᵢ wᵢzᵢ/Σᵢ wᵢ, wᵢ = 1/‖θ − zᵢ‖, from the mean. Its
// certificate is the smallest subgradient at θ (rows at θ contribute any
// vector of the unit ball, divided by n) times the diagonal of the rows'
// bounding box, which holds θ and the minimiser: a global certificate.
// With o.Fixed it iterates on after the stop, keeping the point it
// stopped at unless a later one is certified with a lower loss.
func (s *Set) weiszfeld(tol float64, o MinOptions, w *budget) Min {
	n, d := s.n, s.d
	lo, hi := make([]float64, d), make([]float64, d)
	theta := make([]float64, d)
	for j := range lo {
		lo[j], hi[j] = math.Inf(1), math.Inf(-1)
	}
	for i := 0; i < n; i++ {
		for j, v := range s.x[i*d : (i+1)*d] {
			lo[j], hi[j] = math.Min(lo[j], v), math.Max(hi[j], v)
			theta[j] += v / float64(n)
		}
	}
	w.add(1)
	diag := 0.0
	for j := range lo {
		diag += (hi[j] - lo[j]) * (hi[j] - lo[j])
	}
	diag = math.Sqrt(diag)
	best := Min{Loss: math.Inf(1), Gap: math.Inf(1), Global: true}
	num, g := make([]float64, d), make([]float64, d)
	for w.left(1) {
		clear(num)
		clear(g)
		f, wsum, at := 0.0, 0.0, 0
		for i := 0; i < n; i++ {
			row := s.x[i*d : (i+1)*d]
			r := 0.0
			for j, v := range row {
				r += (theta[j] - v) * (theta[j] - v)
			}
			r = math.Sqrt(r)
			f += r
			if r == 0 {
				at++
				continue
			}
			wsum += 1 / r
			for j, v := range row {
				num[j] += v / r
				g[j] += (theta[j] - v) / r
			}
		}
		w.add(1)
		gap := math.Max(0, Norm(g)-float64(at)) / float64(n) * diag
		if best.keep(theta, f/float64(n), gap, tol, 0) {
			best.Iters++
		}
		if best.Gap <= tol && !o.Fixed {
			break
		}
		if wsum > 0 {
			for j := range theta {
				theta[j] = num[j] / wsum
			}
		}
	}
	return best
}

// keep makes x (loss f, certified within gap) the answer if it is the first
// point certified within tol, or, once one is, a certified point of lower
// loss, or, until one is, a point of smaller gap (the best guarantee; the
// iterates lower both); it reports whether the answer had not converged
// before.
func (m *Min) keep(x []float64, f, gap, tol, h float64) bool {
	was := m.Gap <= tol
	if now := gap <= tol; now && !was || now && f < m.Loss || !now && !was && gap < m.Gap {
		m.Theta, m.Loss, m.Gap, m.Smoothing = slices.Clone(x), f, gap, h
	}
	return !was
}

// kinkedAs returns, for a kinked linear-model loss, the smooth loss whose
// Huberised form stands for it (lad = 2·smooth-quantile at τ = ½), the
// factor c (φ_h = c·φ_smooth) and the open interval (lo, hi) of the
// derivative φ_h'/c inside the width, where φ_h” = c/h.
func kinkedAs(k Kind, p Params) (Kind, Params, float64, func(d float64) bool) {
	switch k {
	case LAD:
		p.Tau = 0.5
		return SmoothQuantile, p, 2, func(d float64) bool { return d > -0.5 && d < 0.5 }
	case Quantile:
		tau := p.Tau
		return SmoothQuantile, p, 1, func(d float64) bool { return d > -tau && d < 1-tau }
	}
	return SmoothHinge, p, 1, func(d float64) bool { return d != 0 && d > -1 && d < 1 }
}

// minimizeGLM minimises a linear-model loss over ℝ^d: a smooth loss by
// accelerated gradient descent in the metric M, a kinked one by damped
// Newton steps on its Huberised forms.
func (s *Set) minimizeGLM(tol float64, o MinOptions, w *budget) Min {
	ch := s.metric()
	w.add(float64(covPasses(s.d)))
	if _, smooth := s.Smooth(); smooth {
		return s.fista(ch, tol, o, w)
	}
	return s.newtonKinked(ch, tol, o, w)
}

// fista minimises a smooth loss by FISTA in the metric M — steps
// θ ← y − M⁻¹∇L(y)/β, which descend because ∇²L ⪯ β·S ⪯ β·M — with the
// momentum restarted whenever the gradient points against the last step
// (O'Donoghue and Candès 2015). One pass (o.Eval or Linearize) an
// iteration; the certificate is checked at every point evaluated. With
// o.Fixed the passes left after the stop evaluate θ̂ again.
func (s *Set) fista(ch chol, tol float64, o MinOptions, w *budget) Min {
	n, d := s.n, s.d
	beta, _ := s.Smooth()
	lin := make([]float64, 3*n)
	eval := o.Eval
	if eval == nil {
		eval = func(x, g []float64) float64 { return s.Linearize(x, g, lin) }
	}
	theta, prev, yv := make([]float64, d), make([]float64, d), make([]float64, d)
	g, q := make([]float64, d), make([]float64, d)
	best := Min{Loss: math.Inf(1), Gap: math.Inf(1), Reach: o.Reach}
	t := 1.0
	for w.left(1 + float64(d)/float64(n)) {
		f := eval(yv, g)
		w.add(1 + float64(d)/float64(n)) // the pass and M⁻¹g (d² multiply-adds)
		ch.solve(g, q)
		gap := o.Reach * math.Sqrt(math.Max(0, dot(g, q)))
		best.Iters++
		best.keep(yv, f, gap, tol, 0)
		if gap <= tol || math.IsNaN(gap) {
			break
		}
		copy(prev, theta)
		up := 0.0
		for j := range theta {
			theta[j] = yv[j] - q[j]/beta
			up += g[j] * (theta[j] - prev[j])
		}
		tn := (1 + math.Sqrt(1+4*t*t)) / 2
		mom := (t - 1) / tn
		if up > 0 { // uphill for the gradient at yv: restart
			tn, mom = 1, 0
		}
		for j := range yv {
			yv[j] = theta[j] + mom*(theta[j]-prev[j])
		}
		t = tn
	}
	if o.Fixed && best.Theta != nil {
		w.pad(func() { eval(best.Theta, g) })
	}
	return best
}

// newtonKinked minimises lad, quantile or hinge through their Huberised
// forms φ_h (width h, from half the reach, 1 for hinge), each by damped
// Newton steps θ ← θ − (H + ρM)⁻¹∇L_h(θ) with H = (c/h)·(1/n)Σ xᵢxᵢᵀ over
// the rows inside the width (the Hessian of L_h there): a step that lowers
// L_h (Armijo, 10⁻⁴) is kept and ρ quartered, down to 10⁻⁹·c/h; one that
// does not is retried with ρ four times larger — at ρ ≥ c/h the step
// descends whatever H is, because ∇²L_h ⪯ (c/h)·M. When the slack ε is
// most of the gap and the gradient part has fallen below it, h narrows.
// Every point evaluated is certified for the kinked loss itself (top of
// the file). H costs n_in·d²/2 multiply-adds and a system d³/3: both are
// counted as passes. With o.Fixed the passes left after the stop
// evaluate θ̂ again.
func (s *Set) newtonKinked(ch chol, tol float64, o MinOptions, w *budget) Min {
	n, d := s.n, s.d
	sm := *s
	var c float64
	var inside func(float64) bool
	sm.kind, sm.p, c, inside = kinkedAs(s.kind, s.p)
	h := o.Reach / 2
	if s.kind == Hinge {
		h = 1
	}
	lin := make([]float64, 3*n)
	// eval sets g = ∇L_h(x) and returns L_h(x), L(x) and the slack ε.
	eval := func(x, g []float64) (fh, f, eps float64) {
		sm.p.Huber = h
		fh = c * sm.Linearize(x, g, lin)
		for j := range g {
			g[j] *= c
		}
		for i := 0; i < n; i++ {
			v, u := lin[3*i], c*lin[3*i+2]
			fi := s.scalar(v, s.y[i])
			f += fi
			eps += math.Max(0, fi-u*(v-s.y[i]))
		}
		w.add(1)
		return fh, f / float64(n), eps / float64(n)
	}
	hess := make([]float64, d*d)
	// zone builds H from lin (the rows inside the width at the point of
	// the last eval).
	//
	// Building H costs n_in·d²/2, a lot at large d, so it is rebuilt only
	// when h changed or the rows inside moved by more than a tenth since
	// it was built (counting them is O(n)); in between the old H is used,
	// which is safe: the ρ safeguard needs no H in particular. With every
	// row inside, H = (c/h)·S, already at hand in M (no pass).
	builtIn, builtH := -1, 0.0
	step := 1 + newtonPasses(n, d) // an iteration's pass and system; rebuilding H is checked on its own
	zone := func() {
		in := 0
		for i := 0; i < n; i++ {
			if inside(lin[3*i+2]) {
				in++
			}
		}
		cost := float64(in) * float64(d) / 2 / float64(n)
		if h == builtH && math.Abs(float64(in-builtIn)) <= 0.1*float64(builtIn) || in < n && builtIn >= 0 && !w.left(cost+step) {
			return // the old H (or, short of budget, keep it for the last iterations)
		}
		builtIn, builtH = in, h
		if in == n {
			copy(hess, ch.s)
			scaleLower(hess, d, c/h)
			return
		}
		clear(hess)
		for i := 0; i < n; i++ {
			if inside(lin[3*i+2]) {
				addOuter(hess, s.x[i*d:(i+1)*d])
			}
		}
		scaleLower(hess, d, c/h/float64(n))
		w.add(cost)
	}
	theta, trial := make([]float64, d), make([]float64, d)
	g, gt, p, q := make([]float64, d), make([]float64, d), make([]float64, d), make([]float64, d)
	best := Min{Loss: math.Inf(1), Gap: math.Inf(1), Reach: o.Reach}
	var rho float64
	// certify returns the gap of x and keeps it if it is the best so far.
	certify := func(x, g []float64, f, eps float64) float64 {
		ch.solve(g, q)
		if o.noSlack {
			eps = 0
		}
		gap := eps + o.Reach*math.Sqrt(math.Max(0, dot(g, q)))
		best.Iters++
		best.keep(x, f, gap, tol, h)
		return gap
	}
	fh, f, eps := eval(theta, g)
	zone()
	rho = c / h * 1e-3
	for gap := certify(theta, g, f, eps); gap > tol && w.left(step) && !math.IsNaN(gap); gap = certify(theta, g, f, eps) {
		if eps > tol/2 && gap-eps <= eps {
			// The slack is most of the gap and the gradient part is
			// below it: narrower. ε shrinks about as h² (the rows
			// inside the width and each one's slack both scale with
			// h): aim at tol/8, at most ×16 and at least ×2 narrower;
			// then L_h, its gradient and H again at θ.
			h *= math.Max(1.0/16, math.Min(0.5, math.Sqrt(tol/(8*eps))))
			fh, f, eps = eval(theta, g)
			zone()
			rho = c / h * 1e-3
			continue
		}
		ok := ch.damped(hess, rho, g, p) // (H + ρM)p = g
		w.add(newtonPasses(n, d))
		for j := range trial {
			trial[j] = theta[j] - p[j]
		}
		fht, ft, epst := eval(trial, gt)
		if !ok || !(fht <= fh-1e-4*dot(g, p)) {
			certify(trial, gt, ft, epst) // every point evaluated is a candidate
			if rho >= c/h*4 {
				break // even the majorising step fails: rounding, no progress left
			}
			rho = math.Min(rho*4, c/h*4)
			continue
		}
		copy(theta, trial)
		copy(g, gt)
		fh, f, eps = fht, ft, epst
		rho = math.Max(rho/4, c/h*1e-9)
		zone()
	}
	if o.Fixed && best.Theta != nil {
		sm.p.Huber = best.Smoothing
		w.pad(func() { sm.Linearize(best.Theta, g, lin) })
	}
	return best
}

// chol is the Cholesky factor of the metric M = S + λI.
type chol struct {
	d   int
	l   []float64 // lower triangle, row-major d×d
	s   []float64 // S's lower triangle (without λ), row-major d×d
	lam float64   // λ: M = S + λI
}

// metric returns the Cholesky factor of M = S + λI, S = (1/n)Σᵢ xᵢxᵢᵀ, λ =
// 10⁻¹⁰·tr(S)/d (at least 10⁻³⁰⁰): S is singular when columns are
// collinear (a one-hot block beside the intercept), and λ only matters in
// the directions where ⟨δ, xᵢ⟩ = 0 for every row, in which the gradient
// has no component.
func (s *Set) metric() chol {
	n, d := s.n, s.d
	m := make([]float64, d*d)
	for i := 0; i < n; i++ {
		addOuter(m, s.x[i*d:(i+1)*d])
	}
	scaleLower(m, d, 1/float64(n))
	sm := slices.Clone(m)
	tr := 0.0
	for j := 0; j < d; j++ {
		tr += m[j*d+j]
	}
	lam := math.Max(1e-10*tr/float64(d), 1e-300)
	for j := 0; j < d; j++ {
		m[j*d+j] += lam
	}
	// In place: L with M = LLᵀ (M positive definite: S ⪰ 0 plus λI).
	for j := 0; j < d; j++ {
		for k := 0; k <= j; k++ {
			v := m[j*d+k]
			for p := 0; p < k; p++ {
				v -= m[j*d+p] * m[k*d+p]
			}
			if k == j {
				m[j*d+j] = math.Sqrt(math.Max(v, lam*1e-6))
			} else {
				m[j*d+k] = v / m[k*d+k]
			}
		}
	}
	return chol{d, m, sm, lam}
}

// addOuter adds the lower triangle of row·rowᵀ to m (row-major d×d, d =
// len(row)).
func addOuter(m, row []float64) {
	d := len(row)
	for j, a := range row {
		if a == 0 {
			continue
		}
		mj := m[j*d : j*d+j+1]
		for k, b := range row[:j+1] {
			mj[k] += a * b
		}
	}
}

// scaleLower multiplies the lower triangle of m (row-major d×d) by f.
func scaleLower(m []float64, d int, f float64) {
	for j := 0; j < d; j++ {
		for k := 0; k <= j; k++ {
			m[j*d+k] *= f
		}
	}
}

// damped solves (H + ρM)p = g for the lower triangle hess of H (row-major
// d×d), M = S + λI; false when H + ρM is not numerically positive
// definite. Its factorisation costs d³/6 multiply-adds.
func (c chol) damped(hess []float64, rho float64, g, p []float64) bool {
	d := c.d
	a := make([]float64, d*d)
	for j := 0; j < d; j++ {
		for k := 0; k <= j; k++ {
			a[j*d+k] = hess[j*d+k] + rho*c.s[j*d+k]
		}
		a[j*d+j] += rho * c.lam
	}
	for j := 0; j < d; j++ {
		for k := 0; k <= j; k++ {
			v := a[j*d+k]
			for q := 0; q < k; q++ {
				v -= a[j*d+q] * a[k*d+q]
			}
			if k == j {
				if !(v > 0) {
					return false
				}
				a[j*d+j] = math.Sqrt(v)
			} else {
				a[j*d+k] = v / a[k*d+k]
			}
		}
	}
	chol{d: d, l: a}.solve(g, p)
	return true
}

// solve sets q = M⁻¹g.
func (c chol) solve(g, q []float64) {
	d, l := c.d, c.l
	for j := 0; j < d; j++ {
		v := g[j]
		for p := 0; p < j; p++ {
			v -= l[j*d+p] * q[p]
		}
		q[j] = v / l[j*d+j]
	}
	for j := d - 1; j >= 0; j-- {
		v := q[j]
		for p := j + 1; p < d; p++ {
			v -= l[p*d+j] * q[p]
		}
		q[j] = v / l[j*d+j]
	}
}
