package benchkit

import (
	"math"

	"github.com/dpsample/dpsample/core/mechanism"
)

// The rows-per-tab benchmark (issue 24): one first-order logistic sample on n
// rows of d = 30 features at ε = 1, δ = 1e-5·455/n (breast cancer's δ per row),
// C = 10, clip 1, on W = 1 worker and on all the cores offered.
const (
	RowsD      = 30
	RowsRadius = 10.0
)

// RowsN are the table's row counts.
var RowsN = []int{2000, 10_000, 20_000}

// RowsMinN is the fewest rows a rows-per-tab call takes (two shards of
// loss.MinShardRows).
const RowsMinN = 1024

// RowsData returns n deterministic rows of d features and their ±1 labels:
// uᵢⱼ = sin(1.3·i + 0.7·j²) + cos(0.37·i·(j+1)), scaled to norm 1 (the worst
// case of the curvature bound), label sign⟨u, θ₀⟩ with θ₀ⱼ = cos j, flipped
// for i ≡ 3 (mod 10). wasm/tools/bench generates the same rows in JS for the
// Chromium runs (Math.sin and math.Sin may differ in the last bit; the
// problem's shape and its plan are the same).
func RowsData(n, d int) ([][]float64, []float64) {
	x := make([][]float64, n)
	y := make([]float64, n)
	for i := range x {
		r := make([]float64, d)
		s, dot := 0.0, 0.0
		for j := range r {
			r[j] = math.Sin(1.3*float64(i)+0.7*float64(j*j)) + math.Cos(0.37*float64(i)*float64(j+1))
			s += r[j] * r[j]
		}
		s = math.Sqrt(s)
		for j := range r {
			r[j] /= s
			dot += r[j] * math.Cos(float64(j))
		}
		x[i] = r
		y[i] = 1
		if dot <= 0 {
			y[i] = -1
		}
		if i%10 == 3 {
			y[i] = -y[i]
		}
	}
	return x, y
}

// RowsRequest is the table's request at n rows on w workers (seeded: not
// private; a benchmark).
func RowsRequest(n, w int) mechanism.Request {
	x, y := RowsData(n, RowsD)
	seed := uint64(24)
	return mechanism.Request{Loss: "logistic", X: x, Y: y, Epsilon: 1, Delta: 1e-5 * 455 / float64(n), Radius: RowsRadius,
		Clip: 1, Seed: &seed, Workers: w}
}
