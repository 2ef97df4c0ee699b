package fingerprint

import (
	"fmt"
	"math/bits"

	"github.com/dpsample/dpsample/core/checks"
)

// Word is a binary word c ∈ {0,1}^Len, bit-packed: the adversary's output
// after rounding, indexed by published column.
type Word struct {
	Len  int
	bits []uint64
}

// NewWord returns the all-zero word of the given length.
func NewWord(length int) Word { return Word{Len: length, bits: make([]uint64, (length+63)/64)} }

// Get returns bit k.
func (w Word) Get(k int) bool { return w.bits[k>>6]>>(k&63)&1 == 1 }

// Set sets bit k to b.
func (w Word) Set(k int, b bool) {
	if b {
		w.bits[k>>6] |= 1 << (k & 63)
	} else {
		w.bits[k>>6] &^= 1 << (k & 63)
	}
}

// Flip inverts bit k.
func (w Word) Flip(k int) { w.bits[k>>6] ^= 1 << (k & 63) }

// Ones is the number of 1 bits.
func (w Word) Ones() int {
	s := 0
	for _, x := range w.bits {
		s += bits.OnesCount64(x)
	}
	return s
}

// Round is the rounding adversary A_FP of Theorem 3.7's proof: c_k = 1 iff
// θ_k ≥ ½ ("rounding those coordinates with values no less than 1/2 to 1").
// It rejects NaN and ±Inf entries, naming the field "output[k]".
func Round(output []float64) (Word, error) {
	w := NewWord(len(output))
	for k, v := range output {
		if err := checks.Finite(fmt.Sprintf("output[%d]", k), v); err != nil {
			return Word{}, err
		}
		if v >= 0.5 {
			w.bits[k>>6] |= 1 << (k & 63)
		}
	}
	return w, nil
}
