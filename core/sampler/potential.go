package sampler

// Potential is the data term of the target: f(x) = η·Mean(x) and
// fᵢ(x) = η·Value(i, x), where Value(i, ·) = l(·; zᵢ) is convex and
// G-Lipschitz and Mean(x) = (1/N)·Σᵢ Value(i, x). It is implemented by
// loss.Set; x has length Dim() and must not be retained or modified.
type Potential interface {
	N() int
	Dim() int
	Value(i int, x []float64) float64
	Mean(x []float64) float64
}
