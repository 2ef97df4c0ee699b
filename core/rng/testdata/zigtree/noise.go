// Package zigtree is a deliberately broken tree for TestNoZigguratNoiseCatches:
// release noise drawn from math/rand/v2's ziggurats, three ways.
package zigtree

import "math/rand/v2"

// Noisy adds a ziggurat normal (a call).
func Noisy(r *rand.Rand, x float64) float64 {
	return x + r.NormFloat64()
}

// Gen is a method expression of the ziggurat normal.
var Gen = (*rand.Rand).NormFloat64

// Laplace draws from the package-level ziggurat exponential.
func Laplace() float64 {
	return rand.ExpFloat64()
}
