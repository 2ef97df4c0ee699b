package sampler

import (
	"math"
	"math/rand/v2"
	"testing"
)

// simpson integrates g over [a, b] with n (even) intervals.
func simpson(g func(float64) float64, a, b float64, n int) float64 {
	h := (b - a) / float64(n)
	sum := g(a) + g(b)
	for i := 1; i < n; i++ {
		w := 2.0
		if i%2 == 1 {
			w = 4
		}
		sum += w * g(a+float64(i)*h)
	}
	return sum * h / 3
}

// TestIsoperimetricBoundsExact: for Z ~ N(0, s²) (a linear loss) the closed
// forms of clampBias and excess are equalities, so they must match a
// numerical integral of (e^z − e^c)₊ and (z − a)₊ against the normal
// density to 10⁻⁶; the sub-Gaussian tail the planner used before (no Mills
// factor) and a clampBias without its e^{s²/2} factor must not.
func TestIsoperimetricBoundsExact(t *testing.T) {
	for _, s := range []float64{0.1, 0.2, 0.3, 0.5} {
		c := Offset
		dens := func(z float64) float64 { return normDensity(z/s) / s }
		clamp := simpson(func(z float64) float64 { return (math.Exp(z) - math.Exp(c)) * dens(z) }, c, c+14*s, 20000)
		if got := clampBias(s, c); math.Abs(got-clamp) > 1e-6*clamp {
			t.Errorf("s=%g: clampBias %g, integral %g", s, got, clamp)
		}
		if broken := math.Exp(c) * math.Exp(-c*c/(2*s*s)) / (c/(s*s) - 1); math.Abs(broken-clamp) <= 1e-3*clamp {
			t.Errorf("s=%g: the sub-Gaussian bound %g also matched %g", s, broken, clamp)
		}
		if broken := normTail(c/s-s) - math.Exp(c)*normTail(c/s); math.Abs(broken-clamp) <= 1e-3*clamp {
			t.Errorf("s=%g: clampBias without e^{s²/2} (%g) also matched %g", s, broken, clamp)
		}
		for _, a := range []float64{c, FactoryRate - c, 0.5} {
			ex := simpson(func(z float64) float64 { return (z - a) * dens(z) }, a, a+14*s, 20000)
			if got := excess(s, a); math.Abs(got-ex) > 1e-6*ex {
				t.Errorf("s=%g a=%g: excess %g, integral %g", s, a, got, ex)
			}
		}
	}
}

// callDraws simulates the factory draws of one RGO call whose trials have
// rejection rate u() each (the clock picture of rgobound.go: N ~ Poisson(K)
// draws, each rejecting with probability u/K, until the first rejection).
func callDraws(r *rand.Rand, u func() float64) int {
	draws := 0
	for {
		v := u()
		n := 0
		for p, l := r.Float64(), math.Exp(-FactoryRate); p > l; p *= r.Float64() {
			n++
		}
		rejected := false
		for k := 0; k < n; k++ {
			draws++
			if r.Float64()*FactoryRate < v {
				rejected = true
				break
			}
		}
		if !rejected {
			return draws
		}
	}
}

// TestStepDrawsBound: the mean factory draws per RGO call, simulated with
// 2·10⁵ calls, must be ≤ StepDraws(K, p) + 4 SE for laws of ũ with
// E e^{−ũ} = p (constant ũ = c, where the bound is attained, and a two-point
// law); at constant ũ it must also be ≥ StepDraws − 4 SE, and a bound that
// forgets the rejecting draw of each rejected trial (1/p − 1 fewer) must
// fail there. SE from the sample variance; false-failure rate ≈ 10⁻⁴ per check.
func TestStepDrawsBound(t *testing.T) {
	const calls = 200000
	r := rand.New(rand.NewPCG(31, 2))
	cases := []struct {
		name string
		u    func() float64
		p    float64
	}{
		{"constant c", func() float64 { return Offset }, math.Exp(-Offset)},
		{"two-point", func() float64 {
			if r.IntN(2) == 0 {
				return 0.5
			}
			return 2.5
		}, (math.Exp(-0.5) + math.Exp(-2.5)) / 2},
	}
	for _, c := range cases {
		var sum, sum2 float64
		for i := 0; i < calls; i++ {
			x := float64(callDraws(r, c.u))
			sum += x
			sum2 += x * x
		}
		mean := sum / calls
		se := math.Sqrt((sum2/calls - mean*mean) / calls)
		bound := StepDraws(FactoryRate, c.p)
		t.Logf("%s: mean draws per call %.4f ± %.4f, bound %.4f", c.name, mean, se, bound)
		if mean > bound+4*se {
			t.Errorf("%s: mean draws %.4f > bound %.4f + 4·%.4f", c.name, mean, bound, se)
		}
		if c.name == "constant c" {
			if mean < bound-4*se {
				t.Errorf("%s: mean draws %.4f well below the attained bound %.4f", c.name, mean, bound)
			}
			if broken := bound - (1/c.p - 1); mean <= broken+4*se {
				t.Errorf("%s: the broken bound %.4f was not exceeded (%.4f)", c.name, broken, mean)
			}
		}
	}
}

// TestDrawBudgetHolds: 4000 simulated runs of 200 calls at constant ũ = c
// (the bound's worst case): the frequency of Σ draws > B_f must be ≤
// target + 4 SE at target = 0.05, while a budget without slack (the mean,
// T·StepDraws) must be overrun in ≥ 40 % of the runs.
func TestDrawBudgetHolds(t *testing.T) {
	const runs, steps, target = 4000, 200, 0.05
	p := math.Exp(-Offset)
	bf, bound := DrawBudget(steps, FactoryRate, p, 1<<40, target)
	if bound > target {
		t.Fatalf("DrawBudget bound %g > target %g", bound, target)
	}
	naive := int64(steps * StepDraws(FactoryRate, p))
	r := rand.New(rand.NewPCG(31, 3))
	over, overNaive := 0, 0
	for i := 0; i < runs; i++ {
		tot := int64(0)
		for s := 0; s < steps; s++ {
			tot += int64(callDraws(r, func() float64 { return Offset }))
		}
		if tot > bf {
			over++
		}
		if tot > naive {
			overNaive++
		}
	}
	se := math.Sqrt(target * (1 - target) / runs)
	t.Logf("B_f = %d (mean %d): overrun in %d of %d runs; the mean as budget: %d", bf, naive, over, runs, overNaive)
	if float64(over)/runs > target+4*se {
		t.Errorf("B_f = %d overrun in %d of %d runs, bound %g", bf, over, runs, bound)
	}
	if float64(overNaive)/runs < 0.4 {
		t.Errorf("the no-slack budget %d was overrun in only %d of %d runs", naive, overNaive, runs)
	}
}
