// Package rng provides the random generators used for private outputs.
//
// A private release must use randomness the adversary cannot predict, so New
// with no seed returns a math/rand/v2 ChaCha8 generator keyed from crypto/rand
// (which is crypto.getRandomValues under GOOS=js). A caller-supplied seed gives
// a reproducible generator for demos and tests, and New reports that the
// result is then not private.
package rng

import (
	crand "crypto/rand"
	"encoding/binary"
	"math/rand/v2"
)

// New returns a ChaCha8 generator. With seed == nil the 32-byte key comes from
// crypto/rand and private is true; otherwise the key is derived from *seed and
// private is false.
func New(seed *uint64) (r *rand.Rand, private bool) {
	var key [32]byte
	if seed == nil {
		crand.Read(key[:]) // never returns an error since Go 1.24; it crashes the program instead
		return rand.New(rand.NewChaCha8(key)), true
	}
	binary.LittleEndian.PutUint64(key[:8], *seed)
	copy(key[8:], "dpsample-seeded-NOT-PRIVATE")
	return rand.New(rand.NewChaCha8(key)), false
}

// Seeded is New(&seed) without the flag; for tests.
func Seeded(seed uint64) *rand.Rand {
	r, _ := New(&seed)
	return r
}

// Split derives an independent ChaCha8 generator keyed by four outputs of r.
// A seeded r therefore reproduces every stream split from it; the fingerprint
// code and the lower-bound runs use it to give each role (biases, codebook,
// permutation, mechanism, ghosts) its own stream.
func Split(r *rand.Rand) *rand.Rand {
	var key [32]byte
	for i := 0; i < 4; i++ {
		binary.LittleEndian.PutUint64(key[8*i:], r.Uint64())
	}
	return rand.New(rand.NewChaCha8(key))
}
