package exact

import (
	"testing"

	"github.com/dpsample/dpsample/core/rng"
)

// BenchmarkLinearGaussianD1000: one draw of the linear-loss Gaussian in
// d = 1000 (the exact samplers' normal source dominates).
func BenchmarkLinearGaussianD1000(b *testing.B) {
	z := make([]float64, 1000)
	g := NewLinearGaussian(z, 2, 3)
	out := make([]float64, 1000)
	r := rng.Seeded(1)
	for b.Loop() {
		g.Sample(r, out)
	}
}
