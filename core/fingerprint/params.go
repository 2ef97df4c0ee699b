package fingerprint

import (
	"fmt"
	"math"

	"github.com/dpsample/dpsample/core/checks"
)

// Mode selects the code construction.
type Mode string

const (
	// Tardos is the proven construction of the paper's Algorithm 2: Tardos'
	// code [T08] of length d₀ = ⌈100n²ln(n/ξ)⌉ with the Bun–Ullman–Vadhan
	// padding, asymmetric score and accusation at S_i ≥ Z/2.
	Tardos Mode = "tardos"
	// Symmetric is the "practical length" mode. It is NOT the proven
	// construction: length ℓ = ⌈10n²ln(n/ξ)⌉ (10× shorter), Škorić's symmetric
	// score Σ_j (2c_j−1)U_ij and the Gaussian-heuristic threshold
	// √(2ℓ ln(n/ξ)). Same bias law, same 5× padding and permutation.
	Symmetric Mode = "symmetric"
)

// MaxBytes is the memory budget for one code: the bit-packed codebook, the
// permutation and the per-column weights. Parameters needing more are
// rejected with an error that states the size they would need.
const MaxBytes = 256 << 20

// MaxN bounds the number of users (the codebook length grows as n²).
const MaxN = 1 << 16

// Params are the public inputs of Gen.
type Params struct {
	N    int     `json:"n"`    // number of users (rows), n ≥ 2
	Xi   float64 `json:"xi"`   // security ξ ∈ (0,1)
	Mode Mode    `json:"mode"` // Tardos (default when empty) or Symmetric
}

// Lengths are the constants of Algorithm 2 derived from (n, ξ, mode).
//
//	K  = ln(n/ξ)                       (natural log; "log" in the paper)
//	D0 = ⌈100·n²·K⌉  (tardos)  or  ⌈10·n²·K⌉ (symmetric)   real columns
//	D  = 5·D0                           published columns (2·D0 all-0, 2·D0 all-1 dummies)
//	Z  = 20·n·K                         Tardos' threshold parameter
//	Threshold = Z/2 (tardos)  or  √(2·D0·K) (symmetric)
//	T  = 1/(300n), T′ = asin(√T)        bias cutoff: p ∈ [T, 1−T]
type Lengths struct {
	K         float64 `json:"k"`
	D0        int     `json:"d0"`
	Length    int     `json:"length"`
	Z         float64 `json:"Z"`
	Threshold float64 `json:"threshold"`
	T         float64 `json:"t"`
	TPrime    float64 `json:"tPrime"`
	Bytes     int64   `json:"bytes"` // memory New would allocate
}

// Normalize validates p and fills in the default mode.
func (p Params) Normalize() (Params, error) {
	if err := checks.IntRange("n", p.N, 2, MaxN); err != nil {
		return p, err
	}
	if err := checks.Probability("xi", p.Xi); err != nil {
		return p, err
	}
	switch p.Mode {
	case "":
		p.Mode = Tardos
	case Tardos, Symmetric:
	default:
		return p, &checks.Error{Field: "mode", Rule: `"tardos" or "symmetric"`, Got: fmt.Sprintf("%q", string(p.Mode))}
	}
	return p, nil
}

// Compute returns the Lengths for p, or an error naming the field if p is
// invalid or the code would exceed MaxBytes.
func Compute(p Params) (Lengths, error) {
	p, err := p.Normalize()
	if err != nil {
		return Lengths{}, err
	}
	l := lengths(p, math.Log)
	if l.Bytes > MaxBytes {
		return l, &checks.Error{Field: "n",
			Rule: fmt.Sprintf("small enough for the memory budget of %s (n=%d, xi=%s needs %s for %d published columns)",
				human(MaxBytes), p.N, checks.Fmt(p.Xi), human(l.Bytes), l.Length),
			Got: fmt.Sprint(p.N)}
	}
	return l, nil
}

// lengths computes the constants with the given logarithm (a parameter only
// so that a test can show the log-base slip changes every constant).
func lengths(p Params, log func(float64) float64) Lengths {
	n := float64(p.N)
	k := log(n / p.Xi)
	a := 100.0
	if p.Mode == Symmetric {
		a = 10
	}
	d0f := math.Ceil(a * n * n * k)
	l := Lengths{K: k, Z: 20 * n * k, T: 1 / (300 * n)}
	l.TPrime = math.Asin(math.Sqrt(l.T))
	if d0f > math.MaxInt32/5 {
		// Far beyond any budget; report the size without overflowing.
		l.D0, l.Length = math.MaxInt32/5, math.MaxInt32/5*5
		l.Bytes = clampBytes(bytesFor(n, d0f))
		return l
	}
	l.D0 = int(d0f)
	l.Length = 5 * l.D0
	l.Bytes = clampBytes(bytesFor(n, d0f))
	if p.Mode == Symmetric {
		l.Threshold = math.Sqrt(2 * d0f * k)
	} else {
		l.Threshold = l.Z / 2
	}
	return l
}

// bytesFor is the memory of a Code: n·d₀ bits of codebook, two int32 maps
// (published→source over 5d₀, real→published over d₀), three float64 weight
// arrays, one uint64 Bernoulli threshold and one int32 count per real column.
func bytesFor(n, d0 float64) float64 {
	words := math.Ceil(d0 / 64)
	return n*words*8 + 4*5*d0 + 4*d0 + 3*8*d0 + 8*d0 + 4*d0
}

func clampBytes(b float64) int64 {
	if b >= math.MaxInt64/2 {
		return math.MaxInt64 / 2
	}
	return int64(b)
}

func human(b int64) string {
	switch {
	case b >= 1<<30:
		return fmt.Sprintf("%.1f GiB", float64(b)/(1<<30))
	case b >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(b)/(1<<20))
	}
	return fmt.Sprintf("%.1f KiB", float64(b)/(1<<10))
}
