package rng

import "testing"

var sink float64

// BenchmarkNormals prices one standard normal from the ChaCha8 generator
// three ways, side by side: math/rand/v2's NormFloat64 (the ziggurat no
// private path uses since issue 51), Normal53 (the polar method, one
// normal per accepted pair) and Normals53 (both normals of each pair, 64
// to a call: what DP-GD and the proximal samplers draw).
//
//	go test -run xxx -bench Normals -count 6 ./core/rng/
func BenchmarkNormals(b *testing.B) {
	b.Run("NormFloat64", func(b *testing.B) {
		r := Seeded(1)
		s := 0.0
		for range b.N {
			s += r.NormFloat64()
		}
		sink = s
	})
	b.Run("Normal53", func(b *testing.B) {
		r := Seeded(1)
		s := 0.0
		for range b.N {
			s += Normal53(r)
		}
		sink = s
	})
	b.Run("Normals53", func(b *testing.B) {
		r := Seeded(1)
		var buf [64]float64
		s := 0.0
		for k := 0; k < b.N; k += len(buf) {
			z := buf[:min(len(buf), b.N-k)]
			Normals53(r, z)
			s += z[0]
		}
		sink = s
	})
}
