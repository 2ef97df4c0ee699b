package mechanism

import (
	"fmt"
	"math"
	"testing"
)

// Output grid against the generators' resolution (issue 21 item 3,
// docs/PRIVACY.md §6). A released coordinate of a proximal sampler is its
// last accepted proposal c + σ_RGO·Z, rounded to the grid h (plan.grid,
// ≥ 2⁻²¹/√(ημ)). A cell of width h then holds h/(σ_RGO·w) points of the
// generator's lattice of spacing w (standard units) around Z, so the cell's
// probability is off by up to one point in that many, depending on where
// the cell sits. NormFloat64 (the 32-bit ziggurat) has w ≤ 3.4426/2³¹ ≈
// 1.6·10⁻⁹ in its widest layer; rng.Normal53 (polar method on 53-bit
// uniforms) w ≲ 7·10⁻¹⁶·(|Z| + 3), ≤ 2.8·10⁻¹⁵ for |Z| ≤ 1, per slice of
// its second uniform.
const (
	zigSpacing = 3.4426 / (1 << 31)
	n53Spacing = 2.8e-15
)

// cellPoints returns the lattice points per output cell for the plan's last
// proposal (σ_RGO) under a generator of spacing w.
func cellPoints(p *prepared, w float64) float64 {
	sigma := math.Sqrt(p.prox.Lambda / (1 + p.prox.Lambda*p.prox.Alpha))
	if p.firstOrder {
		sigma = math.Sqrt(p.fo.Sigma2)
	}
	return p.plan.Grid / (sigma * w)
}

// TestOutputGridResolution measures, at the page's and the benchmark's
// settings, how many generator outputs an output cell holds for each
// proximal sampler, and requires ≥ 10⁹ points of the 53-bit source per cell
// for both: the first-order sampler draws from rng.Normal53 (issue 21), the
// zeroth-order one from rng.Normals53 since issue 51 (before, NormFloat64:
// the log's NormFloat64 column, ≥ 10⁴ per cell).
func TestOutputGridResolution(t *testing.T) {
	type setting struct {
		name        string
		loss        string
		n, d        int
		clip, c     float64
		sampler     Sampler
		targetRange []float64
	}
	settings := []setting{
		{"page: breast cancer, 3 features + intercept, clip 2, C 2", "logistic", 569, 4, 2, 2, "", nil},
		{"bench: breast cancer, 30 features, clip 1, C 10", "logistic", 455, 30, 1, 10, "", nil},
		{"page: penguins, 4 features + intercept, clip √5, C 4/√5", "logistic", 333, 5, math.Sqrt(5), 4 / math.Sqrt(5), "", nil},
		{"page: breast cancer hinge, clip 2, C 2", "hinge", 569, 4, 2, 2, "", nil},
		{"page: penguins LAD, 2 features + intercept, clip √3, C 2/√3", "lad", 333, 3, math.Sqrt(3), 2 / math.Sqrt(3), "", nil},
	}
	for _, s := range settings {
		for _, eps := range []float64{0.5, 1, 2, 5} {
			x, y := smallGLM(s.n, s.d, s.loss != "lad")
			p, err := prepare(Request{Loss: s.loss, X: x, Y: y, Epsilon: eps, Delta: 1e-5, Radius: s.c, Clip: s.clip, Sampler: s.sampler})
			if err != nil {
				t.Fatal(err)
			}
			zig, n53 := cellPoints(p, zigSpacing), cellPoints(p, n53Spacing)
			t.Logf("%-62s ε=%-3v %-19s grid/σ_out = 2^%.0f, σ_out/σ_RGO = %8.1f: points per cell NormFloat64 %s, Normal53 %s",
				s.name, eps, p.plan.Method, math.Log2(p.plan.Grid*math.Sqrt(p.plan.Eta*p.plan.Mu)),
				1/math.Sqrt(p.plan.Eta*p.plan.Mu)/(p.plan.Grid/cellPoints(p, 1)), sci(zig), sci(n53))
			if n53 < 1e9 {
				t.Errorf("%s ε=%v: a %s output cell holds %.3g points of the 53-bit source", s.name, eps, p.plan.Method, n53)
			}
		}
	}
}

func sci(v float64) string { return fmt.Sprintf("%.3g", v) }
