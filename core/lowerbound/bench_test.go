package lowerbound

import (
	"context"
	"fmt"
	"testing"
)

// BenchmarkTrial measures one full trial (Gen, mechanism over D columns,
// trace, 100 ghosts) at ξ = 0.01.
func BenchmarkTrial(b *testing.B) {
	for _, n := range []int{4, 8, 16, 32} {
		for _, m := range []Mechanism{Median, Exponential} {
			b.Run(fmt.Sprintf("n=%d/%s", n, m), func(b *testing.B) {
				o := Options{N: n, Xi: .01, Mechanism: m, Epsilon: 1, Delta: 1e-6, Ghosts: 100, Seed: seed(1)}
				for b.Loop() {
					if _, err := Run(context.Background(), o, nil); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
