//go:build !js

package main

import (
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestSignTestCIOrderStatistics: the interval's ends are the order
// statistics the binomial table gives (n = 21: the 6th and 16th, coverage
// 0.973; n = 10: the 2nd and 9th, 0.979; n = 5: too few, the range, 0.9375).
func TestSignTestCIOrderStatistics(t *testing.T) {
	for _, c := range []struct {
		n, lo, hi int
		level     float64
	}{{21, 6, 16, 0.9734}, {10, 2, 9, 0.9785}, {5, 1, 5, 0.9375}, {1, 1, 1, 0}} {
		d := make([]float64, c.n)
		for i := range d {
			d[i] = float64(c.n - i) // reversed: the function sorts
		}
		lo, hi, level := signTestCI(d, 0.05)
		if lo != float64(c.lo) || hi != float64(c.hi) || math.Abs(level-c.level) > 5e-4 {
			t.Errorf("n = %d: [%g, %g] at %.4f, want [%d, %d] at %.4f", c.n, lo, hi, level, c.lo, c.hi, c.level)
		}
	}
}

// TestSignTestCICoverage: over 4,000 samples of n = 21 paired differences
// from a skewed law (exponential minus its median, shifted by 30), the
// interval holds the true median 30 in a share consistent with its stated
// coverage 0.9734: the test fails when the share is below 0.9734 − 4 standard
// errors (0.0025 each; false failure < 1e-4). The same check fails for an
// interval one order statistic narrower on each side (coverage 0.922).
func TestSignTestCICoverage(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 31))
	const reps, n, truth = 4000, 21, 30.0
	narrow := func(d []float64) (float64, float64) { // the deliberately broken interval
		s := append([]float64(nil), d...)
		slices.Sort(s)
		return s[6], s[n-7]
	}
	hit, hitNarrow := 0, 0
	var level float64
	for range reps {
		d := make([]float64, n)
		for i := range d {
			d[i] = truth + 40*(rng.ExpFloat64()-math.Ln2)
		}
		lo, hi, l := signTestCI(d, 0.05)
		level = l
		if lo <= truth && truth <= hi {
			hit++
		}
		if a, b := narrow(d); a <= truth && truth <= b {
			hitNarrow++
		}
	}
	se := math.Sqrt(level * (1 - level) / reps)
	if got := float64(hit) / reps; got < level-4*se {
		t.Errorf("coverage %.4f, stated %.4f (4 SE = %.4f)", got, level, 4*se)
	}
	if got := float64(hitNarrow) / reps; got >= level-4*se {
		t.Errorf("the narrowed interval covered %.4f: the check cannot tell it from %.4f", got, level)
	}
}

// TestMirrorRoot: the mirror links every entry of the root and of site/
// except the module and its siblings, which it leaves to compareLoad.
func TestMirrorRoot(t *testing.T) {
	root, dst := t.TempDir(), t.TempDir()
	for _, f := range []string{"index.html", "site/app.js", "site/dpsample.wasm", "site/dpsample.wasm.br", "site/dpsample-api.wasm"} {
		p := filepath.Join(root, filepath.FromSlash(f))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(f), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := mirrorRoot(root, dst); err != nil {
		t.Fatal(err)
	}
	for f, want := range map[string]bool{"index.html": true, "site/app.js": true, "site/dpsample-api.wasm": true, "site/dpsample.wasm": false, "site/dpsample.wasm.br": false} {
		b, err := os.ReadFile(filepath.Join(dst, filepath.FromSlash(f)))
		if (err == nil) != want || (want && string(b) != f) {
			t.Errorf("%s in the mirror: %q, %v; want present %v", f, b, err, want)
		}
	}
	if fi, err := os.Lstat(filepath.Join(dst, "site")); err != nil || !fi.IsDir() {
		t.Errorf("site/ in the mirror is not its own directory: %v", err)
	}
}
