package domain

import (
	"math"
	"math/rand/v2"
	"sort"
	"strings"
	"testing"

	"github.com/dpsample/dpsample/core/privacy"
	"github.com/dpsample/dpsample/core/rng"
)

// Every finite value falls in the bin whose closed edges contain it, the bins
// are ordered as the reals and tile them without gaps.
func TestMagnitudeBinsTile(t *testing.T) {
	vals := []float64{0, math.Copysign(0, -1), 1, -1, 0.75, -0.75, 2, 3.999, 1e300, -1e300, math.MaxFloat64, -math.MaxFloat64,
		math.SmallestNonzeroFloat64, -math.SmallestNonzeroFloat64, math.Ldexp(1, 2*MinExp), -math.Ldexp(1, 2*MinExp),
		math.Ldexp(1, 2*MinExp) * 0.999, math.Ldexp(1, 2*MaxExp+2), math.Ldexp(1, 2*MaxExp+2) * 0.999, 12345.678, -0.001, 0.5, 0.25, 0.2499, 4, 3.9999}
	for _, v := range vals {
		i := magnitudeBin(v)
		if i < 0 || i >= Bins1 {
			t.Fatalf("magnitudeBin(%g) = %d outside [0, %d)", v, i, Bins1)
		}
		lo, hi := magnitudeEdges(i)
		if !(lo <= v && v <= hi) || !(lo < hi) || math.IsInf(lo, 0) || math.IsInf(hi, 0) {
			t.Errorf("magnitudeBin(%g) = %d with edges [%g, %g]", v, i, lo, hi)
		}
	}
	for i := 0; i+1 < Bins1; i++ {
		_, hi := magnitudeEdges(i)
		lo, _ := magnitudeEdges(i + 1)
		if hi != lo {
			t.Fatalf("bins %d and %d do not meet: %g ≠ %g", i, i+1, hi, lo)
		}
	}
	if magnitudeBin(-5) >= magnitudeBin(-2) || magnitudeBin(-2) >= magnitudeBin(0) || magnitudeBin(0) >= magnitudeBin(1) {
		t.Error("bins are not ordered as the reals")
	}
	// Two binary orders per bin: [1, 4) is one bin, 4 starts the next, 0.25 the one below.
	if magnitudeBin(1) != magnitudeBin(3.999) || magnitudeBin(4) != magnitudeBin(1)+1 || magnitudeBin(0.25) != magnitudeBin(1)-1 || magnitudeBin(0.2499) != magnitudeBin(1)-2 {
		t.Error("the bins are not [4^k, 4^(k+1))")
	}
}

// The linear window's bins contain their values, even across the whole range
// of float64 (where H − L overflows).
func TestWindowBins(t *testing.T) {
	for _, w := range []window{{-math.MaxFloat64, math.MaxFloat64, 8}, {1024, 2048, 8}, {-math.Ldexp(1, 2*MinExp), math.Ldexp(1, 2*MinExp), 32}, {-3, -2, 5}} {
		for i := 0; i < w.n; i++ {
			if !(w.edge(i) < w.edge(i+1)) {
				t.Fatalf("%+v: edges %d, %d not increasing: %g, %g", w, i, i+1, w.edge(i), w.edge(i+1))
			}
		}
		r := rng.Seeded(1)
		for k := 0; k < 1000; k++ {
			v := w.L + (w.H/2-w.L/2)*2*r.Float64()
			if math.IsInf(v, 0) {
				v = w.H * (2*r.Float64() - 1)
			}
			i := w.bin(v)
			if v < w.edge(i)*(1+1e-12)-1e-300 && v > w.edge(i) || v > w.edge(i+1) && i < w.n-1 {
				t.Fatalf("%+v: %g in bin %d = [%g, %g]", w, v, i, w.edge(i), w.edge(i+1))
			}
		}
		if w.bin(math.Inf(-1)) != 0 || w.bin(-math.MaxFloat64) != 0 || w.bin(math.MaxFloat64) != w.n-1 {
			t.Errorf("%+v: values outside the window are not clamped to its end bins", w)
		}
	}
}

// The plan is the Gaussian mechanism's calibration: s = Calibrate(ε, δ),
// μ₁² + μ₂² = s², σ_k = √(2d)/μ_k (Dong–Roth–Su Theorem 2.7); one stage
// (μ₁ = s) below TwoStages, and the thresholds are the least integers whose
// rounded-noise tails are within their rates (issue 41 item 4).
func TestPlanCalibration(t *testing.T) {
	for _, c := range []struct {
		n, d       int
		eps, delta float64
		stages     int
	}{{189, 9, 1, 1e-6, 1}, {569, 30, 0.5, 1e-7, 1}, {944, 9, 1, 1e-5, 2}, {10, 1, 3, 1e-3, 1}, {20000, 1, 1, 1e-6, 2}, {300, 5, 1, 1e-5, 2}, {250, 9, 1, 1e-5, 2}} {
		p, err := NewPlan(c.n, c.d, c.eps, c.delta)
		if err != nil {
			t.Fatal(err)
		}
		s, _ := privacy.Calibrate(c.eps, c.delta)
		if p.GDP != s || math.Abs(math.Hypot(p.GDP1, p.GDP2)-s) > 1e-15*s {
			t.Errorf("%+v: s = %g, μ₁ = %g, μ₂ = %g; want s = %g = hypot(μ₁, μ₂)", c, p.GDP, p.GDP1, p.GDP2, s)
		}
		sens := math.Sqrt(2 * float64(c.d))
		if p.Stages != c.stages || (float64(c.n)*s/sens >= TwoStages) != (p.Stages == 2) {
			t.Errorf("%+v: %d stages at n·s/√(2d) = %g", c, p.Stages, float64(c.n)*s/sens)
		}
		// Stage 2's levels each move by √(2d) and share μ₂²: Σ 2d/σ_k² = μ₂².
		mu2 := 0.0
		if p.Stages == 2 {
			mu2 = 2 * float64(c.d) / (p.Sigma2 * p.Sigma2)
			for k := 1; k < p.Levels; k++ {
				mu2 += 2 * float64(c.d) / (p.SigmaFine * p.SigmaFine)
			}
		}
		if math.Abs(p.Sigma1*p.GDP1-sens) > 1e-12*sens || math.Abs(mu2-p.GDP2*p.GDP2) > 1e-12*s*s {
			t.Errorf("%+v: σ₁·μ₁ = %g, want √(2d) = %g; Σ 2d/σ² over stage 2's %d levels = %g, want μ₂² = %g", c, p.Sigma1*p.GDP1, sens, p.Levels, mu2, p.GDP2*p.GDP2)
		}
		if lv, _, _ := treeFor(float64(c.n) * s / sens); p.Stages == 2 && p.Levels != lv || p.Stages == 1 && p.Levels != 0 {
			t.Errorf("%+v: %d levels at n·s/√(2d) = %g", c, p.Levels, float64(c.n)*s/sens)
		}
		// Levels 1 is 0.6.0's stage 2: half of s², one histogram.
		if p.Stages == 2 {
			q, _ := NewPlanWith(c.n, c.d, c.eps, c.delta, Options{Levels: 1})
			if q.Levels != 1 || math.Abs(q.Sigma2*q.GDP2-sens) > 1e-12*sens || q.Share1 != Share1 {
				t.Errorf("%+v: one level: %+v", c, q)
			}
		}
		if p.Stages == 1 && (p.GDP2 != 0 || p.Sigma2 != 0 || p.GDP1 != s) {
			t.Errorf("%+v: one stage spends μ₂ = %g", c, p.GDP2)
		}
		// An empty bin's noisy count round(σZ) reaches τ iff σZ ≥ τ − ½:
		// probability Φ̄((τ − ½)/σ) ≤ the rate, and τ − 1 would exceed it.
		rate := FalseMode / sideBins
		if !(privacy.Phi(-(p.ModeThreshold-0.5)/p.Sigma1) <= rate) || !(privacy.Phi(-(p.ModeThreshold-1.5)/p.Sigma1) > rate) {
			t.Errorf("%+v: τ_m = %g is not the least integer threshold at rate %g", c, p.ModeThreshold, rate)
		}
		if g := privacy.Phi(-Grow); !(privacy.Phi(-(p.GrowThreshold-0.5)/p.Sigma1) <= g) || !(privacy.Phi(-(p.GrowThreshold-1.5)/p.Sigma1) > g) {
			t.Errorf("%+v: τ_g = %g is not the least integer threshold at rate %g", c, p.GrowThreshold, g)
		}
		if p.MinRows() != int(p.ModeThreshold) {
			t.Errorf("%+v: MinRows %d, τ_m %g", c, p.MinRows(), p.ModeThreshold)
		}
		if r := p.Charge(); r.GDP != s || r.TV != 0 {
			t.Errorf("%+v: charge %+v, want GDP %g and no TV", c, r, s)
		}
	}
}

// Describe refuses a plan NewPlan did not make (issue 46 item 1): a hand-made
// one, and a made one with its noise turned down, would release the exact
// range labelled private.
func TestDescribeRefusesForgedPlans(t *testing.T) {
	x := [][]float64{{1}, {2}, {3}}
	seed := uint64(1)
	good, err := NewPlan(3, 1, 1, 1e-3)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Describe(x, good, &seed); err != nil {
		t.Fatalf("a made plan: %v", err)
	}
	quiet := good
	quiet.Sigma1 = 1e-9
	for name, p := range map[string]Plan{
		"hand-made": {N: 3, D: 1, Bins2: 8, ModeThreshold: 1, GrowThreshold: 1, Stages: 1},
		"quieted":   quiet,
	} {
		if _, err := Describe(x, p, &seed); err == nil || !strings.HasPrefix(err.Error(), "plan must") {
			t.Errorf("%s plan: %v; want an error naming plan", name, err)
		}
	}
}

func TestPlanErrorsNameTheField(t *testing.T) {
	for _, c := range []struct {
		n, d       int
		eps, delta float64
		field      string
	}{
		{0, 3, 1, 1e-6, "x"}, {10, 0, 1, 1e-6, "x[0]"}, {10, MaxColumns + 1, 1, 1e-6, "x[0]"}, {MaxCells, 2, 1, 1e-9, "x"},
		{10, 2, 0, 1e-6, "epsilon"}, {10, 2, math.NaN(), 1e-6, "epsilon"}, {10, 2, math.Inf(1), 1e-6, "epsilon"},
		{10, 2, 1, 0, "delta"}, {10, 2, 1, 1, "delta"}, {10, 2, 1, 0.2, "delta"},
	} {
		_, err := NewPlan(c.n, c.d, c.eps, c.delta)
		if err == nil || !strings.HasPrefix(err.Error(), c.field+" must") {
			t.Errorf("NewPlan(%d, %d, %g, %g) = %v; want an error naming %q", c.n, c.d, c.eps, c.delta, err, c.field)
		}
	}
	p, _ := NewPlan(2, 2, 1, 1e-3)
	for _, c := range []struct {
		x     [][]float64
		field string
	}{
		{[][]float64{{1, 2}, {3}}, "x[1]"}, {[][]float64{{1, 2}, {math.NaN(), 1}}, "x[1][0]"},
		{[][]float64{{1, math.Inf(1)}, {1, 2}}, "x[0][1]"}, {[][]float64{{1, 2}}, "x"}, {nil, "x"},
	} {
		_, err := Describe(c.x, p, nil)
		if err == nil || !strings.HasPrefix(err.Error(), c.field+" must") {
			t.Errorf("Describe(%v) = %v; want an error naming %q", c.x, err, c.field)
		}
	}
}

// histograms returns the exact counts of stage 1 and of stage 2's levels
// for all columns, with stage 2's windows fixed (as they are when stage 2
// counts), as describeColumn and drawTree count them: every count of every
// level, the tree's counts below and above the window scaled by 1/√(L − 1)
// (drawTree returns their sums over its L − 1 finer levels, each of which
// moves by 1 when a row crosses the window's edge).
func histograms(x [][]float64, wins []window, levels int) []float64 {
	var out []float64
	p := Plan{Levels: levels, Branch: Branch}
	for j := range x[0] {
		c1 := make([]float64, Bins1)
		c2 := make([]float64, wins[j].n+2)
		col := make([]float64, len(x))
		for i, row := range x {
			col[i] = row[j]
			c1[magnitudeBin(row[j])]++
			switch w := wins[j]; {
			case row[j] < w.L:
				c2[0]++
			case row[j] > w.H:
				c2[w.n+1]++
			default:
				c2[1+w.bin(row[j])]++
			}
		}
		out = append(append(out, c1...), c2...)
		// the tree's counts, with no noise (σ_f = 0)
		tr := drawTree(col, wins[j], p, rng.Seeded(0))
		for _, f := range tr.fine {
			out = append(out, f...)
		}
		if levels > 1 {
			sc := 1 / math.Sqrt(float64(levels-1))
			out = append(out, tr.under*sc, tr.over*sc)
		}
	}
	return out
}

// The sensitivity the calibration assumes: replacing one row (by anything,
// extreme values included) moves each stage's vector of all d histograms by
// at most √(2d) in ℓ2, and each level of stage 2's tree by √(2d) too, so
// stage 1 and L levels together by at most √((1 + L)·2d) (each is
// calibrated to its own √(2d)). The tree's counts below and above the window
// are summed over its levels here (tree.under, tree.over), which moves them
// by up to L − 1 each: the bound below counts them as one level more.
func TestReplaceOneSensitivity(t *testing.T) {
	r := rng.Seeded(7)
	extremes := []float64{0, 1e300, -1e300, math.MaxFloat64, -math.SmallestNonzeroFloat64, 3, -7.5}
	for trial := 0; trial < 200; trial++ {
		n, d := 1+r.IntN(20), 1+r.IntN(5)
		x := make([][]float64, n)
		for i := range x {
			x[i] = make([]float64, d)
			for j := range x[i] {
				x[i][j] = math.Ldexp(r.NormFloat64(), r.IntN(40)-20)
			}
		}
		wins := make([]window, d)
		for j := range wins {
			wins[j] = window{L: -r.Float64() * 100, H: r.Float64() * 100, n: 2 + r.IntN(30)}
		}
		y := make([][]float64, n)
		copy(y, x)
		k := r.IntN(n)
		y[k] = make([]float64, d)
		for j := range y[k] {
			y[k][j] = extremes[r.IntN(len(extremes))]
		}
		for _, levels := range []int{1, 2, 4} {
			a, b := histograms(x, wins, levels), histograms(y, wins, levels)
			ss := 0.0
			for i := range a {
				ss += (a[i] - b[i]) * (a[i] - b[i])
			}
			if want := float64((1+levels)*2*d) + 1e-9; ss > want {
				t.Fatalf("trial %d, %d levels: ‖Δ‖² = %g > (1 + L)·2d = %g", trial, levels, ss, want)
			}
		}
	}
}

// noiseChi2 is the χ² statistic of m draws of round(σZ) against the law of the
// rounded N(0, σ²), pooled into cells k ∈ {≤ −K, …, ≥ K}.
func noiseChi2(draw func([]int, float64, *rand.Rand) []float64, sigma float64, m int) (chi2 float64, dof int) {
	const K = 40
	obs := make([]float64, 2*K+1)
	r := rng.Seeded(11)
	zero := make([]int, 1000)
	for done := 0; done < m; done += len(zero) {
		for _, v := range draw(zero, sigma, r) {
			k := int(math.Max(-K, math.Min(K, v)))
			obs[k+K]++
		}
	}
	for i := range obs {
		k := float64(i - K)
		lo, hi := (k-0.5)/sigma, (k+0.5)/sigma
		p := privacy.Phi(hi) - privacy.Phi(lo)
		if i == 0 {
			p = privacy.Phi(hi)
		} else if i == 2*K {
			p = privacy.Phi(-lo)
		}
		e := p * float64(m)
		chi2 += (obs[i] - e) * (obs[i] - e) / e
	}
	return chi2, 2 * K
}

// The noise added to a count is round(σZ): χ² against its exact law, 80
// degrees of freedom, critical value at a false-failure rate of 10⁻³ (the
// upper 10⁻³ quantile of χ²₈₀ is 124.8). A broken noise at 0.97σ must fail.
func TestNoiseIsRoundedGaussian(t *testing.T) {
	const crit = 124.8
	const m = 200_000
	sigma := 12.3
	if c, dof := noiseChi2(noisy, sigma, m); c > crit {
		t.Errorf("χ²(%d) = %.1f > %.1f: the noise is not round(σZ)", dof, c, crit)
	}
	broken := func(c []int, s float64, r *rand.Rand) []float64 { return noisy(c, 0.97*s, r) }
	if c, _ := noiseChi2(broken, sigma, m); c <= crit {
		t.Errorf("χ² = %.1f ≤ %.1f for noise at 0.97σ: the test cannot tell", c, crit)
	}
}

// Columns of any magnitude or shape give finite Lo < Hi with the quartiles in
// between, at every n, including when nothing clears the noise.
func TestAnyColumnGivesFiniteRange(t *testing.T) {
	cols := map[string]func(i int) float64{
		"1e300":       func(i int) float64 { return 1e300 * (1 + float64(i%7)/10) },
		"-1e300":      func(i int) float64 { return -1e300 },
		"maxfloat":    func(i int) float64 { return math.MaxFloat64 * float64(1-2*(i%2)) },
		"negative":    func(i int) float64 { return -float64(i%50) - 3 },
		"integers":    func(i int) float64 { return float64(i % 5) },
		"constant":    func(i int) float64 { return 42 },
		"zero":        func(i int) float64 { return 0 },
		"subnormal":   func(i int) float64 { return math.SmallestNonzeroFloat64 * float64(i%3) },
		"tiny":        func(i int) float64 { return 1e-30 * float64(i%9) },
		"mixed signs": func(i int) float64 { return float64(i%21) - 10 },
	}
	for name, f := range cols {
		for _, n := range []int{1, 5, 60, 5000} {
			x := make([][]float64, n)
			for i := range x {
				x[i] = []float64{f(i)}
			}
			p, err := NewPlan(n, 1, 1, 0.5/float64(n))
			if err != nil {
				t.Fatal(err)
			}
			for seed := uint64(0); seed < 5; seed++ {
				res, err := Describe(x, p, &seed)
				if err != nil {
					t.Fatal(err)
				}
				c := res.Columns[0]
				ok := !math.IsInf(c.Lo, 0) && !math.IsInf(c.Hi, 0) && c.Lo < c.Hi && c.Lo <= c.Q1 && c.Q1 <= c.Median && c.Median <= c.Q3 && c.Q3 <= c.Hi &&
					c.Step > 0 && !math.IsInf(c.Step, 0) && c.QuartileStep > 0 && !math.IsInf(c.QuartileStep, 0) &&
					(c.Quartiles == ResolutionLinear && p.Stages == 2 || c.Quartiles == ResolutionMagnitude)
				if !ok || res.Private {
					t.Fatalf("%s, n = %d, seed %d: %+v (private %v)", name, n, seed, c, res.Private)
				}
			}
			if n == 5000 && name != "maxfloat" {
				// With 5000 rows the bulk is found: every value of these columns lies in [Lo, Hi].
				seed := uint64(99)
				res, _ := Describe(x, p, &seed)
				c := res.Columns[0]
				for i := range x {
					if v := x[i][0]; v < c.Lo || v > c.Hi {
						t.Errorf("%s, n = 5000: %g outside [%g, %g] (%s)", name, v, c.Lo, c.Hi, c.Resolution)
						break
					}
				}
			}
		}
	}
}

// At n = 20,000 one column at ε = 1 is described to a linear bin: σ₂ ≈ 8 is
// negligible against the counts, so the deterministic tolerances below hold
// for every seed (here 20 of them): at most 1 % of the values clamped, the
// range no wider than the data's central 99 % plus 2·(1 + Margin) bins plus
// at most a neighbouring magnitude window's worth (the widening of stage 1,
// taken by chance with probability ≈ 1 % a side), and the quartiles within
// one bin (Step) of the sample's.
func TestLargeNAccuracy(t *testing.T) {
	r := rng.Seeded(3)
	const n = 20000
	// In a fixed order: the laws share r (a map's order made the data, and
	// so the test, differ from run to run).
	laws := []struct {
		name string
		draw func() float64
	}{
		{"normal(50, 10)", func() float64 { return 50 + 10*r.NormFloat64() }},
		{"lognormal", func() float64 { return math.Exp(r.NormFloat64()) }},
		{"years", func() float64 { return float64(1990 + r.IntN(31)) }},
	}
	for _, lw := range laws {
		name, law := lw.name, lw.draw
		x := make([][]float64, n)
		v := make([]float64, n)
		for i := range x {
			v[i] = law()
			x[i] = []float64{v[i]}
		}
		sort.Float64s(v)
		p, _ := NewPlan(n, 1, 1, 1e-6)
		wide := 0
		for seed := uint64(0); seed < 20; seed++ {
			res, _ := Describe(x, p, &seed)
			c := res.Columns[0]
			if c.Resolution != ResolutionLinear {
				t.Fatalf("%s seed %d: resolution %q", name, seed, c.Resolution)
			}
			out := 0
			for _, y := range v {
				if y < c.Lo || y > c.Hi {
					out++
				}
			}
			if out > n/100 {
				t.Errorf("%s seed %d: %d of %d values outside [%g, %g]", name, seed, out, n, c.Lo, c.Hi)
			}
			// each end: its bin, the margin, and with a tree up to Branch − 1
			// bins the conservative placing may keep past the data (an empty
			// one with probability Φ̄(Ambiguous))
			central := v[n*995/1000] - v[n*5/1000]
			slack := float64(1 + p.Margin)
			if p.Levels > 1 {
				slack = float64(p.MarginFine + p.Branch)
			}
			if c.Hi-c.Lo > central+2*slack*c.Step {
				wide++
			}
			for _, q := range []struct {
				got, want float64
				what      string
			}{{c.Q1, v[n/4], "q1"}, {c.Median, v[n/2], "median"}, {c.Q3, v[3*n/4], "q3"}} {
				if math.Abs(q.got-q.want) > c.Step {
					t.Errorf("%s seed %d: %s = %g, sample's %g, more than a bin (%g) apart", name, seed, q.what, q.got, q.want, c.Step)
				}
			}
		}
		// A wider range needs a widened window: how often depends on the
		// data (how near the threshold the count of the next magnitude window
		// is), not on the noise alone — over 40 lognormal data sets of this
		// size, 6 gave ≥ 4 wide ranges of 20 (the former claim, P(≥ 4) <
		// 10⁻³ from a 2 % widening rate, was wrong, and the laws' map order
		// made the data differ from run to run). The data here are fixed; the
		// limit keeps the widening occasional for them (with a tree: a first
		// level that keeps a bin of noise beside the data, which its finer
		// levels cannot tell from a thin tail, Φ̄(TreeTrim) an end).
		if wide >= 4 {
			t.Errorf("%s: %d of 20 ranges wider than the central 99 %% + 2·(1 + Margin) bins", name, wide)
		}
	}
}

// Under a ledger the release is charged s before anything is drawn; a charge
// that does not fit is refused naming "ledger" and spends nothing.
func TestDescribeChargedUnderLedger(t *testing.T) {
	x := make([][]float64, 300)
	for i := range x {
		x[i] = []float64{float64(i), float64(i % 7)}
	}
	l, err := privacy.NewLedger(3, 1e-5)
	if err != nil {
		t.Fatal(err)
	}
	res, st, err := DescribeCharged(x, 1, 1e-6, l)
	if err != nil {
		t.Fatal(err)
	}
	s, _ := privacy.Calibrate(1, 1e-6)
	if !res.Private || st.Spent.Releases != 1 || math.Abs(st.Spent.GDP-s) > 1e-12 || st.History[0].TV != 0 {
		t.Errorf("charged %+v (private %v); want one release of %g GDP and no TV", st.Spent, res.Private, s)
	}
	if _, _, err := DescribeCharged(x, 50, 1e-6, l); err == nil || !strings.HasPrefix(err.Error(), "ledger") {
		t.Errorf("an over-budget describe: %v; want a refusal naming the ledger", err)
	}
	if got := l.State().Spent.Releases; got != 1 {
		t.Errorf("a refused describe was charged: %d releases", got)
	}
	if _, _, err := DescribeCharged(x, 1, 1e-2, l); err == nil || !strings.HasPrefix(err.Error(), "delta") {
		t.Errorf("δ ≥ 1/n under a ledger: %v; want an error naming delta", err)
	}
}

// binomUpper is the least c with P(Binomial(k, p) > c) ≤ alpha.
func binomUpper(k int, p, alpha float64) int {
	tail := 1.0 // P(X > c − 1) = P(X ≥ c)
	for c := 0; c <= k; c++ {
		lp, _ := math.Lgamma(float64(k + 1))
		a, _ := math.Lgamma(float64(c + 1))
		b, _ := math.Lgamma(float64(k - c + 1))
		tail -= math.Exp(lp - a - b + float64(c)*math.Log(p) + float64(k-c)*math.Log1p(-p))
		if tail <= alpha {
			return c
		}
	}
	return k
}

// levelsTable is n rows of five level columns, each level held by at least
// 10 % of the rows (issue 40 item 2): 0/1 at 10 %, 50 % and 90 % ones, 1…5
// and 0…3 in equal shares; rows shuffled.
func levelsTable(n int, r *rand.Rand) ([][]float64, [][]float64) {
	levels := [][]float64{{0, 1}, {0, 1}, {0, 1}, {1, 2, 3, 4, 5}, {0, 1, 2, 3}}
	share := func(j, i int) float64 {
		switch j {
		case 0:
			return levels[0][b2i(i < n/10)]
		case 1:
			return levels[1][b2i(i < n/2)]
		case 2:
			return levels[2][b2i(i >= n/10)]
		}
		return levels[j][i*len(levels[j])/n]
	}
	x := make([][]float64, n)
	for i := range x {
		x[i] = make([]float64, len(levels))
		for j := range levels {
			x[i][j] = share(j, i)
		}
	}
	r.Shuffle(n, func(a, b int) { x[a], x[b] = x[b], x[a] })
	return x, levels
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// levelFailures counts, per column, the draws whose range misses a level.
func levelFailures(t *testing.T, n, draws int, ru rules) []int {
	t.Helper()
	x, levels := levelsTable(n, rng.Seeded(uint64(n)))
	p, err := NewPlan(n, len(levels), 1, 1e-5)
	if err != nil {
		t.Fatal(err)
	}
	fails := make([]int, len(levels))
	r := rng.Seeded(uint64(7 * n))
	col := make([]float64, n)
	for k := 0; k < draws; k++ {
		for j, lv := range levels {
			for i := range x {
				col[i] = x[i][j]
			}
			c := describeColumn(col, p, r, ru)
			if !(c.Lo <= lv[0] && lv[len(lv)-1] <= c.Hi) {
				fails[j]++
			}
		}
	}
	return fails
}

// 0/1 and small-integer columns keep every level with probability ≥ 0.95
// whenever each level holds ≥ 10 % of the rows (issue 40 item 2), at n = 100
// and 250 (ε = 1, δ = 10⁻⁵, five columns). Each column's misses over 300
// draws are Binomial(300, q); the test fails a column when they exceed the
// critical value of q = 0.05 at a false-failure rate of 10⁻³/10 (ten
// column-sizes). Without the zero rule (a column's zero found only when it
// clears the noise) the 90 %-ones column misses its zeros and must fail.
func TestLevelsKept(t *testing.T) {
	const draws = 300
	crit := binomUpper(draws, 0.05, 1e-4)
	for _, n := range []int{100, 250} {
		for j, f := range levelFailures(t, n, draws, rules{}) {
			if f > crit {
				t.Errorf("n = %d, column %d: a level missed in %d of %d draws (> %d, the 0.95 claim's critical value)", n, j, f, draws, crit)
			}
		}
	}
	broken := levelFailures(t, 100, draws, rules{noZero: true})
	if broken[2] <= crit {
		t.Errorf("without the zero rule the 90 %%-ones column missed a level in %d of %d draws (≤ %d): the test cannot tell", broken[2], draws, crit)
	}
}

// A column in clusters orders of magnitude apart (100, 1,100 and 11,100, a
// third of the rows each, with nothing between): every cluster is in the
// range, although the bins between them are empty (the mode's run alone
// would keep one cluster and clamp a third of the rows).
func TestClustersKept(t *testing.T) {
	const n = 1200
	x := make([][]float64, n)
	for i := range x {
		x[i] = []float64{[]float64{100, 1100, 11100}[i%3]}
	}
	p, _ := NewPlan(n, 1, 1, 1e-5)
	for seed := uint64(0); seed < 20; seed++ {
		res, _ := Describe(x, p, &seed)
		if c := res.Columns[0]; !(c.Lo <= 100 && c.Hi >= 11100) {
			t.Fatalf("seed %d: [%g, %g] drops a cluster", seed, c.Lo, c.Hi)
		}
	}
}

// The noise is drawn by rng.Normal53, not the ziggurat (issue 41 item 4):
// with a seeded generator, noisy adds exactly round(σ·Normal53) in order.
func TestNoiseDrawsNormal53(t *testing.T) {
	counts := []int{0, 5, 100, 7}
	a := noisy(counts, 3.7, rng.Seeded(42))
	r := rng.Seeded(42)
	for i, c := range counts {
		if want := float64(c) + math.Round(3.7*rng.Normal53(r)); a[i] != want {
			t.Fatalf("count %d: %g, want %g (round(σ·Normal53))", i, a[i], want)
		}
	}
}

// Quartiles says what the quartiles were read from. With one stage they are
// stage 1's mode bin — its edges and middle, a factor 4 apart — and say
// "magnitude"; where stage 2 places them, "linear", read at QuartileStep ≤
// Step. Years 1990–2020 at 100 rows and 8 columns (one stage: n·s/√(2d) =
// 6.7) and at 2000 rows (a tree), 20 seeds each.
func TestQuartilesSayWhatTheyAre(t *testing.T) {
	for _, n := range []int{100, 2000} {
		col := years(n, 1990, 2020, 1)
		x := make([][]float64, n)
		for i := range x {
			x[i] = []float64{col[i], 0, 0, 0, 0, 0, 0, 0}
		}
		p, err := NewPlan(n, 8, 1, 1e-5)
		if err != nil {
			t.Fatal(err)
		}
		for seed := uint64(0); seed < 20; seed++ {
			res, err := Describe(x, p, &seed)
			if err != nil {
				t.Fatal(err)
			}
			c := res.Columns[0]
			switch {
			case p.Stages == 1:
				// stage 1's mode bin, [1024, 4096), read as quartiles
				if c.Quartiles != ResolutionMagnitude || c.QuartileStep != c.Q3-c.Q1 || c.Q3 != 4*c.Q1 {
					t.Fatalf("n = %d, seed %d, one stage: %+v", n, seed, c)
				}
			case c.Quartiles != ResolutionLinear || c.QuartileStep > c.Step || math.Abs(c.Median-2005) > 30:
				t.Fatalf("n = %d, seed %d, %d levels: %+v", n, seed, p.Levels, c)
			}
		}
	}
}
