package fingerprint_test

import (
	"fmt"
	"slices"

	"github.com/dpsample/dpsample/core/fingerprint"
	"github.com/dpsample/dpsample/core/rng"
)

// Algorithm 2 end to end: a code for 4 users, a coalition {1, 2} that
// publishes a word consistent with its rows (here user 1's own row), and
// Trace, which accuses a coalition member and, with probability ≥ 1 − ξ,
// no innocent user. The seed makes the example reproducible; a real code is
// drawn from the crypto-seeded generator (rng.New(nil)).
func Example() {
	code, err := fingerprint.New(fingerprint.Params{N: 4, Xi: 0.1, Mode: fingerprint.Symmetric}, rng.Seeded(1))
	if err != nil {
		panic(err)
	}
	fmt.Println("users:", code.N, "columns:", code.Length) // 5·⌈10·n²·ln(n/ξ)⌉

	row := code.Row(1)
	out := make([]float64, len(row))
	for k, b := range row {
		out[k] = float64(b)
	}
	tr, err := code.Trace(out)
	if err != nil {
		panic(err)
	}
	fmt.Println("accused:", tr.Accused)
	fmt.Println("a coalition member returned:", tr.Returned != nil && slices.Contains([]int{1, 2}, *tr.Returned))

	_, err = code.Trace(out[:10])
	fmt.Println(err)
	// Output:
	// users: 4 columns: 2955
	// accused: [1]
	// a coalition member returned: true
	// output must be an array of length 2955 (the code length), got length 10
}
