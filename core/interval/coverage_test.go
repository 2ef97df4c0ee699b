package interval_test

import (
	"context"
	"fmt"
	"math"
	"runtime"
	"sync"
	"testing"

	"github.com/dpsample/dpsample/core/interval"
	"github.com/dpsample/dpsample/core/loss"
	"github.com/dpsample/dpsample/core/mechanism"
)

// coverageCell is one cell of the coverage test: runs tables of n rows from
// a design, released at ε (δ = 10⁻⁵) with 95 % intervals.
type coverageCell struct {
	design string
	n      int
	eps    float64
	cclip  float64 // C·clip; 0: the page's rule, mechanism.DefaultRadius
	runs   int
	// heavy cells are skipped under GOOS=js: DP-GD's passes run about four
	// times slower in wasm under node, and the cell would take a minute or
	// more (d8-mixed ≈ 20 s natively, the n = 2·10⁵ cell ≈ 35 s).
	heavy bool
}

// hits runs the cell and returns, for every variant, how many of the runs'
// intervals held θ*_j.
func (c coverageCell) hits(t *testing.T) map[interval.Variant][]int {
	ds, err := interval.LookupDesign(c.design)
	if err != nil {
		t.Fatal(err)
	}
	dim := len(ds.Theta)
	clip := math.Sqrt(float64(dim))
	k, _ := loss.ParseKind(ds.Loss)
	radius := mechanism.DefaultRadius(k, clip, nil)
	if c.cclip > 0 {
		radius = c.cclip / clip
	}
	out := map[interval.Variant][]int{}
	for _, v := range coverageVariants {
		out[v] = make([]int, dim)
	}
	pl, _, err := interval.Simulate(context.Background(), interval.SimConfig{Design: ds, N: c.n, Runs: c.runs, Epsilon: c.eps, Delta: 1e-5,
		Level: 0.95, Radius: radius, Seed: uint64(c.n) * 7919}, func(r interval.SimRun) {
		for _, v := range coverageVariants {
			iv, _ := interval.EstimateVariant(r.Theta, r.Rel, r.Plan, r.Sched, v)
			for j, th := range ds.Theta {
				if iv.Lo[j] <= th && th <= iv.Hi[j] {
					out[v][j]++
				}
			}
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	if !pl.Gate {
		t.Fatalf("%s: below the gate (%s)", c.name(), pl.Reason)
	}
	return out
}

func (c coverageCell) name() string { return fmt.Sprintf("%s n=%d ε=%g", c.design, c.n, c.eps) }

var coverageVariants = []interval.Variant{interval.VariantCombined, interval.VariantPlain, interval.VariantNoPrivacy}

// coverageCells is the coverage test's grid. d8-mixed (8 features and the
// intercept: gauss, skewed, binary 0.2 and a rare binary 0.05, a count,
// latent correlation 0.4) and d3-huber at the gate's bound on n·s at ε = 4
// (few rows, so few seconds), and the one-feature design at n = 2·10⁵ rows
// (C·clip = 2, so T = 201 steps). Expected coverage, from the study's
// 600-run cells: d8-mixed ≈ 0.98 mean, every coordinate ≥ 0.93, so both
// bounds (0.904 a coordinate, 0.93 the mean at R = 200) hold with room;
// d3-huber 0.948 / 0.937 (the non-private sandwich's own 0.943 / 0.935 at
// n = 2,800: its finite-sample deficit is inherited), so a coordinate fails
// its 0.904 with probability ≈ 2 % and the mean its 0.927 (three standard
// errors at R·d = 800) with about as much; d1 at n = 2·10⁵ covered 0.96 /
// 0.95 in 100 runs, against 0.866 and 0.890 at R = 60.
var coverageCells = []coverageCell{
	{design: "d8-mixed", n: 2800, eps: 4, runs: 200, heavy: true},
	{design: "d3-huber", n: 2800, eps: 4, runs: 200},
	{design: "d1", n: 200_000, eps: 1, cclip: 2, runs: 60, heavy: true},
}

// TestCoverage is issue 54's coverage test: on every cell of the grid, over
// R runs at fixed seeds, the 95 % interval of every coordinate held θ* in at
// least 0.95 − 3·√(0.95·0.05/R) of them and their mean reached
// interval.MeanBound (interval.CheckCoverage); and the same check fails the
// deliberately broken variants — the interval without the Newton step and
// the interval without the privacy part of its variance — on at least one
// cell each. θ* is the designs' population minimiser, known exactly
// (interval.Designs). The cells run in parallel.
func TestCoverage(t *testing.T) {
	var mu sync.Mutex
	caught := map[interval.Variant][]string{}
	skipped := 0
	t.Run("cells", func(t *testing.T) {
		for _, c := range coverageCells {
			t.Run(c.name(), func(t *testing.T) {
				if c.heavy && runtime.GOOS == "js" {
					mu.Lock()
					skipped++
					mu.Unlock()
					t.Skip("skipped under GOOS=js: DP-GD's passes run about four times slower in wasm under node (a minute or more for this cell); it runs natively")
				}
				t.Parallel()
				hits := c.hits(t)
				mu.Lock()
				defer mu.Unlock()
				for _, v := range coverageVariants {
					err := interval.CheckCoverage(hits[v], c.runs, 0.95)
					switch {
					case v == interval.VariantCombined && err != nil:
						t.Errorf("%v", err)
					case v != interval.VariantCombined && err != nil:
						caught[v] = append(caught[v], c.name())
					}
				}
				t.Logf("coverage %v of %d runs; no Newton step %v; no privacy part %v", hits[interval.VariantCombined], c.runs,
					hits[interval.VariantPlain], hits[interval.VariantNoPrivacy])
			})
		}
	})
	for _, v := range coverageVariants[1:] {
		switch {
		case len(caught[v]) > 0:
			t.Logf("broken variant %d caught on %v", v, caught[v])
		case skipped == 0:
			t.Errorf("broken variant %d passed the coverage check on every cell: the test cannot see it", v)
		}
	}
}
