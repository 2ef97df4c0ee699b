package domain

import (
	"encoding/binary"
	"errors"
	"math"
	"testing"

	"github.com/dpsample/dpsample/core/checks"
)

// FuzzDescribe (issue 41 item 7): describe's inputs as the JS API passes
// them (dpsample.describe({x, epsilon, delta})): any n, d, ε, δ and any
// float64 cells, NaN, ±Inf, subnormals and ±MaxFloat64 included. Only the
// public API is used: NewPlan(n, d, ε, δ) and Describe(x, plan, &seed).
// A plan has finite, positive s, σ's and thresholds (issue 41: at δ below
// 2.8·10⁻¹⁷ they were NaN, without an error, until privacy.Calibrate was
// fixed; the seed with δ = 10⁻³⁰⁰ below keeps that case).
// On success every Column has finite Lo < Hi and Lo ≤ Q1 ≤ Median ≤ Q3 ≤
// Hi and a known Resolution, one per column, and the result is marked not
// private (a seed was given); every error is a *checks.Error naming its
// field. The cells are built from data: in mode&1 each 8 bytes are a
// float64's bits, otherwise each byte is a small integer (−128 … 127)
// scaled by 2^scale, so that columns with many equal values and columns
// spanning magnitudes both occur.
func FuzzDescribe(f *testing.F) {
	bits := func(v ...float64) []byte {
		b := make([]byte, 8*len(v))
		for i, x := range v {
			binary.LittleEndian.PutUint64(b[8*i:], math.Float64bits(x))
		}
		return b
	}
	// From the package's tests: magnitudes, constants, subnormals, mixed
	// signs, NaN and ±Inf cells, a ragged plan, bad ε and δ.
	f.Add([]byte{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}, uint8(0), uint8(1), int8(0), 1.0, 1e-3, uint64(0))
	f.Add([]byte{42, 42, 42, 42, 42, 42}, uint8(0), uint8(0), int8(0), 1.0, 1e-3, uint64(1))
	f.Add(bits(1e300, 1.1e300, 1.2e300, 1.3e300), uint8(1), uint8(0), int8(0), 1.0, 0.1, uint64(2))
	f.Add(bits(math.MaxFloat64, -math.MaxFloat64, math.MaxFloat64, -math.MaxFloat64), uint8(1), uint8(1), int8(0), 1.0, 0.1, uint64(3))
	f.Add(bits(math.SmallestNonzeroFloat64, 0, 2*math.SmallestNonzeroFloat64), uint8(1), uint8(0), int8(0), 1.0, 0.1, uint64(4))
	f.Add(bits(1, math.NaN(), 2, 3), uint8(1), uint8(1), int8(0), 1.0, 0.1, uint64(5))
	f.Add(bits(1, math.Inf(1), 2, 3), uint8(1), uint8(0), int8(0), 1.0, 0.1, uint64(6))
	f.Add([]byte{0x80, 0x7f, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9}, uint8(2), uint8(2), int8(-100), 1.0, 1e-3, uint64(7))
	f.Add([]byte{1, 2, 3, 4}, uint8(0), uint8(0), int8(100), 0.0, 1e-3, uint64(8))
	f.Add([]byte{1, 2, 3, 4}, uint8(0), uint8(0), int8(0), math.Inf(1), 1e-3, uint64(9))
	f.Add([]byte{1, 2, 3, 4}, uint8(0), uint8(0), int8(0), 1.0, 0.5, uint64(10))
	f.Add([]byte{1, 2, 3, 4}, uint8(4), uint8(0), int8(0), 1.0, 1e-3, uint64(11))
	f.Add([]byte{1, 2, 3, 4, 5, 6}, uint8(0), uint8(0), int8(0), 1.0, 1e-300, uint64(12))
	f.Add([]byte{1, 2, 3, 4, 5, 6}, uint8(0), uint8(0), int8(0), 1e-300, 5e-324, uint64(13))
	f.Fuzz(func(t *testing.T, data []byte, mode, dsel uint8, scale int8, eps, delta float64, seed uint64) {
		var cells []float64
		if mode&1 != 0 {
			for i := 0; i+8 <= len(data); i += 8 {
				cells = append(cells, math.Float64frombits(binary.LittleEndian.Uint64(data[i:])))
			}
		} else {
			for _, b := range data {
				cells = append(cells, math.Ldexp(float64(int8(b)), int(scale)*8))
			}
		}
		d := 1 + int(dsel%4)
		n := len(cells) / d
		x := make([][]float64, n)
		for i := range x {
			x[i] = cells[i*d : (i+1)*d]
		}
		pn, pd := n, d
		switch (mode >> 1) % 4 { // now and then a plan that does not fit x
		case 2:
			pn++
		case 3:
			pd = d%3 + 1
		}
		p, err := NewPlan(pn, pd, eps, delta)
		if err != nil {
			namesItsField(t, "NewPlan", err)
			return
		}
		params := []float64{p.GDP, p.GDP1, p.Sigma1, p.ModeThreshold, p.GrowThreshold}
		if p.Stages == 2 {
			params = append(params, p.GDP2, p.Sigma2, p.TrimLevel)
		}
		for _, v := range params {
			if !(v > 0) || math.IsInf(v, 0) {
				t.Fatalf("NewPlan(%d, %d, %g, %g) = %+v: a parameter not finite and > 0", pn, pd, eps, delta, p)
			}
		}
		res, err := Describe(x, p, &seed)
		if err != nil {
			namesItsField(t, "Describe", err)
			return
		}
		if pn != n || pd != d {
			t.Fatalf("a %d×%d plan described a %d×%d x", pn, pd, n, d)
		}
		if len(res.Columns) != d || res.Private {
			t.Fatalf("%d columns for d = %d, private %v with a seed", len(res.Columns), d, res.Private)
		}
		for j, c := range res.Columns {
			ok := !math.IsInf(c.Lo, 0) && !math.IsInf(c.Hi, 0) && c.Lo < c.Hi &&
				c.Lo <= c.Q1 && c.Q1 <= c.Median && c.Median <= c.Q3 && c.Q3 <= c.Hi
			switch c.Resolution {
			case ResolutionLinear, ResolutionMagnitude, ResolutionNone:
			default:
				ok = false
			}
			if !ok {
				t.Fatalf("column %d of %d×%d, ε %g, δ %g, seed %d: %+v", j, n, d, eps, delta, seed, c)
			}
		}
	})
}

// namesItsField fails t unless err is a *checks.Error with a Field.
func namesItsField(t *testing.T, what string, err error) {
	t.Helper()
	var ce *checks.Error
	if !errors.As(err, &ce) || ce.Field == "" {
		t.Fatalf("%s: error %T %q does not name its field", what, err, err)
	}
}
