package fingerprint

import (
	"math/rand/v2"
)

// Coalition strategies used by the tests. Each sees only the published rows
// of the coalition (all n users, or all but `without`) and respects the
// marking condition: on a column where the coalition is unanimous it outputs
// the common bit.

type attack func(c *Code, without int, r *rand.Rand) Word

// coalitionOnes returns the coalition's ones count and size at column k.
func coalitionOnes(c *Code, k, without int) (ones, size int) {
	ones, size = c.Ones(k), c.N
	if without >= 0 {
		size--
		if c.Bit(without, k) {
			ones--
		}
	}
	return ones, size
}

// majority outputs the majority bit (ties → 1): the rounded non-private minimiser.
func majority(c *Code, without int, _ *rand.Rand) Word {
	w := NewWord(c.Length)
	for k := range c.Length {
		o, s := coalitionOnes(c, k, without)
		w.Set(k, 2*o >= s)
	}
	return w
}

// majorityRandomTies breaks ties with a fair coin: the protocol of an earlier
// design note's reference innocent rates (docs/LOWERBOUND-NOTES.md quotes
// them against the shipped rule). The tie rule
// matters at small n: at n = 4, ξ = .1 the innocent rate is ≈ 5.4e-3 with
// ties → 1 (what rounding the median's θ = ½ gives), 2.5e-3 with fair coins
// and 1.0e-3 with ties → 0 (all three ≪ ξ).
func majorityRandomTies(c *Code, without int, r *rand.Rand) Word {
	w := NewWord(c.Length)
	for k := range c.Length {
		o, s := coalitionOnes(c, k, without)
		w.Set(k, 2*o > s || (2*o == s && r.IntN(2) == 1))
	}
	return w
}

// minority outputs the minority bit on every non-unanimous column.
func minority(c *Code, without int, _ *rand.Rand) Word {
	w := NewWord(c.Length)
	for k := range c.Length {
		o, s := coalitionOnes(c, k, without)
		switch {
		case o == 0:
		case o == s:
			w.Set(k, true)
		default:
			w.Set(k, 2*o < s)
		}
	}
	return w
}

// interleave copies member (k mod coalition size) at published column k.
func interleave(c *Code, without int, _ *rand.Rand) Word {
	members := make([]int, 0, c.N)
	for i := range c.N {
		if i != without {
			members = append(members, i)
		}
	}
	w := NewWord(c.Length)
	for k := range c.Length {
		w.Set(k, c.Bit(members[k%len(members)], k))
	}
	return w
}

// allOnes is the worst case for the asymmetric score's soundness (it ignores marking).
func allOnes(c *Code, _ int, _ *rand.Rand) Word {
	w := NewWord(c.Length)
	for k := range c.Length {
		w.Set(k, true)
	}
	return w
}

// blindFlips returns majority with m marking violations placed on uniformly
// random unanimous published columns (real or dummy: the adversary cannot
// tell them apart).
func blindFlips(m int) attack {
	return func(c *Code, without int, r *rand.Rand) Word {
		w := majority(c, without, r)
		var un []int
		for k := range c.Length {
			if o, s := coalitionOnes(c, k, without); o == 0 || o == s {
				un = append(un, k)
			}
		}
		for i := 0; i < m && i < len(un); i++ { // partial Fisher–Yates
			j := i + r.IntN(len(un)-i)
			un[i], un[j] = un[j], un[i]
			w.Flip(un[i])
		}
		return w
	}
}

// cheatingFlips knows the secret permutation and spends m violations on real
// unanimous columns only (§3's demonstration that Z/2 has finite margin).
func cheatingFlips(m int) attack {
	return func(c *Code, without int, r *rand.Rand) Word {
		w := majority(c, without, r)
		var un []int
		for j, k := range c.pos {
			if o := c.ones[j]; o == 0 || int(o) == c.N {
				un = append(un, int(k))
			}
		}
		for i := 0; i < m && i < len(un); i++ {
			j := i + r.IntN(len(un)-i)
			un[i], un[j] = un[j], un[i]
			w.Flip(un[i])
		}
		return w
	}
}
