package rng

import (
	"go/ast"
	"go/parser"
	"go/token"
	"math"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// zigTables are math/rand/v2's NormFloat64 tables, read from the Go source
// of the toolchain running the test (`go env GOROOT`/src/math/rand/v2/normal.go).
type zigTables struct {
	kn [128]uint32
	wn [128]float32
	fn [128]float32
	rn float64
}

func readZigTables(t *testing.T) zigTables {
	t.Helper()
	root, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		t.Skipf("no go command here (%v): the ziggurat's law is computed where there is one (natively)", err)
	}
	path := filepath.Join(strings.TrimSpace(string(root)), "src", "math", "rand", "v2", "normal.go")
	f, err := parser.ParseFile(token.NewFileSet(), path, nil, 0)
	if err != nil {
		t.Skipf("math/rand/v2's source is not readable here (%v): the ziggurat's law is computed where it is (natively)", err)
	}
	var z zigTables
	got := map[string]int{}
	ast.Inspect(f, func(n ast.Node) bool {
		vs, ok := n.(*ast.ValueSpec)
		if !ok || len(vs.Names) != 1 || len(vs.Values) != 1 {
			return true
		}
		name := vs.Names[0].Name
		if lit, ok := vs.Values[0].(*ast.BasicLit); ok && name == "rn" {
			z.rn, err = strconv.ParseFloat(lit.Value, 64)
			got[name]++
			return true
		}
		cl, ok := vs.Values[0].(*ast.CompositeLit)
		if !ok || len(cl.Elts) != 128 {
			return true
		}
		for i, e := range cl.Elts {
			lit, ok := e.(*ast.BasicLit)
			if !ok {
				t.Fatalf("%s[%d] is not a literal", name, i)
			}
			switch name {
			case "kn":
				v, err := strconv.ParseUint(lit.Value, 0, 32)
				if err != nil {
					t.Fatal(err)
				}
				z.kn[i] = uint32(v)
			case "wn", "fn":
				v, err := strconv.ParseFloat(lit.Value, 32)
				if err != nil {
					t.Fatal(err)
				}
				if name == "wn" {
					z.wn[i] = float32(v)
				} else {
					z.fn[i] = float32(v)
				}
			default:
				return true
			}
		}
		got[name]++
		return true
	})
	for _, name := range []string{"kn", "wn", "fn", "rn"} {
		if got[name] != 1 {
			t.Fatalf("%s: found %d definitions of %s", path, got[name], name)
		}
	}
	return z
}

// wedge is P(fn[i] + float32(U)·(fn[i−1] − fn[i]) < float32(e^{−x²/2})) in
// float32 arithmetic, U = Float64(), as NormFloat64 computes it: the largest
// float32 u passing (the test is monotone in u), then P(float32(U) ≤ u).
func (z *zigTables) wedge(i int, x float64) float64 {
	c := float32(math.Exp(-.5 * x * x))
	pass := func(b uint32) bool {
		d := z.fn[i-1] - z.fn[i]
		p := math.Float32frombits(b) * d
		return z.fn[i]+p < c
	}
	one := math.Float32bits(1)
	if !pass(0) {
		return 0
	}
	if pass(one) {
		return 1
	}
	lo, hi := uint32(0), one
	for hi-lo > 1 {
		if m := lo + (hi-lo)/2; pass(m) {
			lo = m
		} else {
			hi = m
		}
	}
	return (float64(math.Float32frombits(lo)) + float64(math.Float32frombits(lo+1))) / 2
}

// density is NormFloat64's density at x ∈ [0, r) per loop iteration and per
// sign, averaged over a few lattice points: every strip i reaching past x
// puts 2⁻³⁹ on each of its points j·wn[i] (7 bits choose i, 32 bits j),
// accepted below kn[i]·wn[i] and by the wedge test above (strip 0 sends
// its points above kn[0]·wn[0] to the tail).
func (z *zigTables) density(x float64) float64 {
	s := 0.0
	for i := range 128 {
		w := float64(z.wn[i])
		if x >= w*(1<<31) {
			continue
		}
		switch {
		case x < float64(z.kn[i])*w:
			s += math.Ldexp(1, -39) / w
		case i > 0:
			s += math.Ldexp(1, -39) / w * z.wedge(i, x)
		}
	}
	return s
}

// TestZigguratLaw computes the law of math/rand/v2's NormFloat64 from its
// own tables (issue 51: why no private path draws from it). The line [0, r)
// splits at the strips' widths 2³¹·wn[i], their fast bounds kn[i]·wn[i] and
// r into 255 pieces; each is sampled at 2,000 evenly spaced points (101 on
// the pieces narrower than 10⁻⁵), normalised by the total acceptance (the
// tail's share is (2³¹ − kn[0])·2⁻³⁹ per sign). It finds, relative to φ:
//   - e = density/φ − 1 between −1.85·10⁻⁷ and +3.03·10⁻⁷ (within about
//     ±1.4·10⁻⁷ on the wide pieces; the extremes are on pieces ≲ 1.4·10⁻⁷
//     wide at strip boundaries);
//   - a hole: no output in [2³¹·wn[127], r) = [3.4426198006, 3.4426198559)
//     (strip 0 sends its points there to the tail, no other strip reaches
//     it) and almost none in [kn[0]·wn[0], 2³¹·wn[127]) (strip 127's wedge
//     near its bottom); together 2.35·10⁻¹⁰ of normal mass per draw.
//
// docs/PRIVACY.md §6 turns these into the privacy cost of k such draws.
// The test fails if the tables no longer show an error above 10⁻⁷ or the
// hole (a Go release that fixed both would make the note stale).
func TestZigguratLaw(t *testing.T) {
	if testing.Short() {
		t.Skip("5·10⁵ evaluations of the ziggurat's density")
	}
	z := readZigTables(t)
	bounds := []float64{0, z.rn}
	for i := range 128 {
		w := float64(z.wn[i])
		bounds = append(bounds, w*(1<<31), float64(z.kn[i])*w)
	}
	slices.Sort(bounds)
	bounds = slices.Compact(bounds)
	type piece struct{ a, b float64 }
	var pieces []piece
	for k := 0; k+1 < len(bounds) && bounds[k] < z.rn; k++ {
		pieces = append(pieces, piece{bounds[k], bounds[k+1]})
	}
	// Normalisation: total acceptance per sign = ∫₀^r density + the tail's share.
	half := float64(1<<31-z.kn[0]) * math.Ldexp(1, -39)
	type point struct{ x, g float64 }
	var pts [][]point
	for _, p := range pieces {
		n := 2000
		if p.b-p.a < 1e-5 {
			n = 101
		}
		h := (p.b - p.a) / float64(n)
		ps := make([]point, n)
		for s := range ps {
			x := p.a + (float64(s)+0.5)*h
			ps[s] = point{x, z.density(x)}
			half += ps[s].g * h
		}
		pts = append(pts, ps)
	}
	phi := func(x float64) float64 { return math.Exp(-.5*x*x) / math.Sqrt(2*math.Pi) }
	lo, hi, holeMass := 0.0, 0.0, 0.0
	var holes []string
	for k, p := range pieces {
		mn, mx := math.Inf(1), math.Inf(-1)
		for _, q := range pts[k] {
			e := q.g/(2*half)/phi(q.x) - 1
			mn, mx = math.Min(mn, e), math.Max(mx, e)
		}
		if mn < -0.5 {
			holes = append(holes, strconv.FormatFloat(p.a, 'f', 10, 64)+"–"+strconv.FormatFloat(p.b, 'f', 10, 64))
			holeMass += 2 * (p.b - p.a) * phi(p.a)
			continue
		}
		lo, hi = math.Min(lo, mn), math.Max(hi, mx)
	}
	tail := float64(1<<31-z.kn[0]) * math.Ldexp(1, -39) / (2 * half) / (math.Erfc(z.rn/math.Sqrt2) / 2)
	t.Logf("%d pieces of [0, r = %.10f): e in [%.3g, %.3g] outside the hole, log((1+max)/(1+min)) = %.3g; tail |x| > r: e = %.2g; hole %s (both signs: normal mass %.3g per draw)",
		len(pieces), z.rn, lo, hi, math.Log((1+hi)/(1+lo)), tail-1, strings.Join(holes, ", "), holeMass)
	if hi-lo < 1e-7 {
		t.Errorf("NormFloat64's density varies by only %.3g relative: the issue-51 note in docs/PRIVACY.md §6 is stale", hi-lo)
	}
	if len(holes) == 0 || holeMass < 1e-10 {
		t.Errorf("no hole below r (mass %.3g): the issue-51 note in docs/PRIVACY.md §6 is stale", holeMass)
	}
}
