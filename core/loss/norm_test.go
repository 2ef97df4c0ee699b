package loss

import (
	"math"
	"math/big"
	"slices"
	"testing"

	"github.com/dpsample/dpsample/core/rng"
)

// bigNorm is ‖v‖ computed in 200-bit floating point, rounded to float64 only
// at the end (+Inf when it exceeds MaxFloat64): the reference of the tests
// below.
func bigNorm(v []float64) *big.Float {
	s := new(big.Float).SetPrec(200)
	for _, a := range v {
		x := new(big.Float).SetPrec(200).SetFloat64(a)
		s.Add(s, x.Mul(x, x))
	}
	return s.Sqrt(s)
}

// unitDir is v/‖v‖, computed in 200-bit floating point.
func unitDir(v []float64) []float64 {
	n := bigNorm(v)
	u := make([]float64, len(v))
	for j, a := range v {
		x := new(big.Float).SetPrec(200).SetFloat64(a)
		u[j], _ = x.Quo(x, n).Float64()
	}
	return u
}

// TestClipHugeRow (issue 41 item 6): a finite row whose norm overflows
// float64 is clipped to norm clip in its own direction. [MaxFloat64,
// MaxFloat64] clipped to C is [C/√2, C/√2] within 10⁻¹⁵ relative; rows of
// other huge shapes (mixed signs, a zero, d = 1000 entries of 10³⁰⁶) are
// within 10⁻¹⁵·C of C·v/‖v‖ (‖v‖ in 200-bit arithmetic), with Norm ≤ C
// exactly, counted as clipped, and accepted by NewShard, for C from 10⁻³⁰⁰
// to MaxFloat64 (a row not longer than C is kept as it is). Before, the factor
// clip/Norm(v) = clip/+Inf = 0 stored each of them as zeros (this test
// failed: "stored [0 0]").
func TestClipHugeRow(t *testing.T) {
	mx := math.MaxFloat64
	big1000 := make([]float64, 1000)
	for j := range big1000 {
		big1000[j] = 1e306 * float64(j%7-3)
	}
	rows := map[string][]float64{
		"[Max, Max]":                             {mx, mx},
		"[Max, −Max/2, 0, Max/4]":                {mx, -mx / 2, 0, mx / 4},
		"[−Max, Max, Max]":                       {-mx, mx, mx},
		"[Max, 1]":                               {mx, 1},
		"[1e308, 1e308]":                         {1e308, 1e308},
		"d = 1000, entries ±3e306":               big1000,
		"[1e200, 1e-200] (factor below 2^−1022)": {1e200, 1e-200},
	}
	for _, clip := range []float64{1, 0.3, 7, 1e-300, 1e300, mx} {
		for name, row := range rows {
			s, err := New(Logistic, [][]float64{row}, []float64{1}, Params{Clip: clip})
			if err != nil {
				t.Fatalf("%s clip %g: %v", name, clip, err)
			}
			got := s.Row(0)
			if bigNorm(row).Cmp(new(big.Float).SetFloat64(clip)) <= 0 { // not longer than clip: kept
				if s.Clipped() != 0 || !slices.Equal(got, row) {
					t.Errorf("%s clip %g: stored %v (clipped %d), want the row unchanged", name, clip, got, s.Clipped())
				}
				continue
			}
			if s.Clipped() != 1 {
				t.Errorf("%s clip %g: Clipped() = %d, want 1", name, clip, s.Clipped())
			}
			if n := Norm(got); !(n <= clip) {
				t.Errorf("%s clip %g: stored %v, Norm %g > clip", name, clip, got, n)
			}
			u := unitDir(row)
			diff := make([]float64, len(got))
			for j := range got {
				diff[j] = got[j]/clip - u[j] // relative to clip, so clip = Max does not overflow
			}
			if e := Norm(diff); !(e <= 1e-15) {
				t.Errorf("%s clip %g: stored %v, off clip·v/‖v‖ by %.3g·clip", name, clip, got[:min(4, len(got))], e)
			}
			if _, err := NewShard(Logistic, s.p, s.x, s.y, len(row)); err != nil {
				t.Errorf("%s clip %g: NewShard refuses the stored row: %v", name, clip, err)
			}
		}
		s, _ := New(Logistic, [][]float64{{mx, mx}}, []float64{1}, Params{Clip: clip})
		want := clip / math.Sqrt2
		if clip == mx {
			want = mx / math.Sqrt2
		}
		for j, v := range s.Row(0) {
			if math.Abs(v-want) > 1e-15*want {
				t.Errorf("[Max, Max] clip %g: entry %d = %v, want C/√2 = %v", clip, j, v, want)
			}
		}
	}
}

// TestNormAccuracy (issue 41 item 6): Norm stays the naive √(Σ vⱼ²) to 10⁻¹⁵
// relative on 3,000 random vectors of ordinary entries (d = 1 to 20, entries
// of magnitude e^(±3Z)), and is within (d/2 + 3) ulp of the norm in 200-bit
// arithmetic for d up to 1000; it is finite where the naive formula
// overflows or underflows ([Max/2, Max/2], d = 100 entries of 10³⁰⁰, 10⁻³²⁰
// and 3·10⁻³²⁴ / 4·10⁻³²⁴ subnormals), and +Inf only where ‖v‖ exceeds
// MaxFloat64 ([Max, Max]). This part passed before issue 41 too: Norm
// already scaled by the largest entry; what failed was the clip.
func TestNormAccuracy(t *testing.T) {
	r := rng.Seeded(41)
	naive := func(v []float64) float64 {
		s := 0.0
		for _, a := range v {
			s += a * a
		}
		return math.Sqrt(s)
	}
	for k := range 3000 {
		d := 1 + k%20
		v := make([]float64, d)
		for j := range v {
			v[j] = r.NormFloat64() * math.Exp(3*r.NormFloat64())
		}
		got, want := Norm(v), naive(v)
		if math.Abs(got-want) > 1e-15*want {
			t.Fatalf("Norm(%v) = %v, naive %v: relative %.3g", v, got, want, math.Abs(got-want)/want)
		}
	}
	for _, d := range []int{1, 2, 10, 100, 1000} {
		for range 50 {
			v := make([]float64, d)
			for j := range v {
				v[j] = r.NormFloat64() * math.Exp(3*r.NormFloat64())
			}
			ref, _ := bigNorm(v).Float64()
			if got := Norm(v); math.Abs(got-ref) > (float64(d)/2+3)*0x1p-52*ref {
				t.Fatalf("d=%d: Norm = %v, exact %v: %.3g ulp", d, got, ref, math.Abs(got-ref)/ref/0x1p-52)
			}
		}
	}
	fill := func(d int, a float64) []float64 {
		v := make([]float64, d)
		for j := range v {
			v[j] = a
		}
		return v
	}
	for name, tc := range map[string]struct {
		v    []float64
		want float64
	}{
		"[Max/2, Max/2]":       {[]float64{math.MaxFloat64 / 2, math.MaxFloat64 / 2}, math.MaxFloat64 / 2 * math.Sqrt2},
		"100 × 1e300":          {fill(100, 1e300), 1e301},
		"100 × 1e-320":         {fill(100, 1e-320), 1e-319},
		"[3, 4]·5e-324":        {[]float64{3 * 5e-324, 4 * 5e-324}, 5 * 5e-324},
		"[Max, Max] overflows": {[]float64{math.MaxFloat64, math.MaxFloat64}, math.Inf(1)},
		"zero":                 {[]float64{0, 0}, 0},
		"empty":                {nil, 0},
	} {
		got := Norm(tc.v)
		if got != tc.want && !(math.Abs(got-tc.want) <= 1e-15*tc.want) {
			t.Errorf("Norm(%s) = %v, want %v", name, got, tc.want)
		}
	}
}
