//go:build js && wasm

package timing

import (
	"context"
	"fmt"
	"maps"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
	"syscall/js"
	"testing"
	"time"

	"github.com/dpsample/dpsample/core/dataset/gen"
	"github.com/dpsample/dpsample/core/loss"
	"github.com/dpsample/dpsample/core/mechanism"
	"github.com/dpsample/dpsample/core/rng"
)

// BenchmarkEstimateRatio (issue 53 item 7b): the page's time estimate
// against the run, for Algorithm 1, under node (one worker: no shards, so
// the cost model alone is measured). Two estimates, from costs measured
// just before the run: the page's until issue 53 (wasm/ui/estimate/work.go:
// (passes + referencePasses)·rowsTimesD·PassCost(loss, d, value), value
// for every method but the first-order sampler) and ForPlan's (the
// zeroth-order stochastic mode's passes at its random-row cost, plus
// plan.work.draws at DrawCost). Reported per case: old-s, new-s, run-s and
// the ratios run/old and run/new. Rows: ESTIMATE_ROWS (2000); cases whose
// name contains ESTIMATE_CASES.
// Run: GOOS=js GOARCH=wasm go test -run - -bench EstimateRatio -benchtime 1x
// -exec $(go env GOROOT)/lib/wasm/go_js_wasm_exec ./wasm/ui/estimate/internal/timing
func BenchmarkEstimateRatio(b *testing.B) {
	n := 2000
	if v, err := strconv.Atoi(os.Getenv("ESTIMATE_ROWS")); err == nil {
		n = v
	}
	price := gen.PriceList(n, 7).Code([]string{"carat", "cut", "color", "clarity"}, "price",
		map[string][2]float64{"carat": {0, 5}, "price": {0, 32768}}, "")
	pass := gen.Passengers(n, 7).Code([]string{"sex", "age", "class"}, "survived", map[string][2]float64{"age": {0, 100}}, "yes")
	for _, c := range []struct {
		name string
		d    gen.Design
		loss string
		eps  float64
	}{
		{"first-order/logistic", pass, "logistic", 0.3},
		{"first-order/smooth-quantile", price, "smooth-quantile", 0.3},
		{"zeroth-order/lad", price, "lad", 0.3},
		{"zeroth-order/hinge", pass, "hinge", 0.3},
	} {
		if m := os.Getenv("ESTIMATE_CASES"); m != "" && !strings.Contains(c.name, m) {
			continue
		}
		b.Run(c.name, func(b *testing.B) {
			for range b.N {
				k, _ := loss.ParseKind(c.loss)
				req := mechanism.Request{Loss: c.loss, X: c.d.X, Y: c.d.Y, Clip: c.d.Clip, Epsilon: c.eps, Delta: 1e-5,
					Radius: mechanism.DefaultRadius(k, c.d.Clip, nil), Method: mechanism.EstimatorExponential}
				pl, err := mechanism.NewPlan(req)
				if err != nil {
					b.Fatal(err)
				}
				noYield := func() {}
				mode := passValue
				if pl.Method == mechanism.MethodFirstOrder {
					mode = passLinearize
				}
				w := pl.Work
				old := (w.Passes + w.Reference) * w.RowsTimesD * passCost(k, pl.D, mode, noYield)
				est := forPlan(pl, func(m passMode) float64 { return passCost(k, pl.D, m, noYield) },
					func(fo bool) float64 { return drawCost(fo, noYield) })
				fmt.Fprintf(os.Stderr, "%s: %s, n %d d %d, T %d: estimate %.1f s (before: %.1f s)\n", c.name, pl.Method, pl.N, pl.D, pl.Steps, est.Seconds, old)
				if est.Seconds > 240 {
					b.Skipf("estimate %.0f s: too long for this benchmark", est.Seconds)
				}
				t0, c0 := time.Now(), cpuSeconds()
				res, err := mechanism.Sample(context.Background(), req, nil)
				if err != nil {
					b.Fatal(err)
				}
				run, cpu := time.Since(t0).Seconds(), cpuSeconds()-c0
				b.ReportMetric(cpu, "cpu-s")
				b.ReportMetric(cpu/est.Seconds, "cpu/new")
				b.ReportMetric(old, "old-s")
				b.ReportMetric(est.Seconds, "new-s")
				b.ReportMetric(run, "run-s")
				b.ReportMetric(run/old, "run/old")
				b.ReportMetric(run/est.Seconds, "run/new")
				b.Logf("%s: %s, n %d d %d, %d steps; passes %.0f + reference %.0f, %.3g ns per row·column·pass, %.3g draws at %.3g ns; "+
					"estimate %.1f s (before issue 53: %.1f s), run %.1f s (%.2f×; %.2f× the old), its CPU time %.1f s (%.2f×); trials %d, loss evals %d",
					c.name, pl.Method, pl.N, pl.D, pl.Steps, w.Passes, w.Reference, est.NsPerRow, w.Draws, est.NsPerDraw, est.Seconds, old, run,
					run/est.Seconds, run/old, cpu, cpu/est.Seconds, res.Diagnostics.Trials, res.Diagnostics.LossEvals)
			}
		})
	}
}

// BenchmarkPassKinds (issue 53 item 7b): what the samplers' work costs under
// node, side by side with passCost's measured pass (Linearize, or Mean for
// a value pass) on passCost's own 2048 rows: the first-order sampler's
// Gradient and Bregman passes; the zeroth-order sampler's single-row
// evaluations at random rows (Value, its Poisson factory); and the random
// draws of both (rng.Normals53 for the zeroth-order proposals, 32 normals a
// call, rng.Normal53 for the first-order ones, Float64 for the
// acceptances), in ns per call.
// Reported as ns per row·column and ratios to the measured pass.
func BenchmarkPassKinds(b *testing.B) {
	for _, c := range []struct {
		k loss.Kind
		d int
	}{{loss.Logistic, 7}, {loss.SmoothQuantile, 22}, {loss.LAD, 22}, {loss.Hinge, 7}} {
		b.Run(fmt.Sprintf("%s/d=%d", c.k, c.d), func(b *testing.B) {
			x, y := costData(c.k, c.d)
			set, err := loss.New(c.k, x, y, loss.Params{})
			if err != nil {
				b.Fatal(err)
			}
			z := make([]float64, c.d)
			for j := range z {
				z[j] = 0.1 * math.Cos(float64(j))
			}
			grad, lin := make([]float64, c.d), make([]float64, 3*costRows)
			_, smooth := set.Smooth()
			kinds := map[string]func(){"mean": func() { set.Mean(z) }}
			if smooth {
				kinds["linearize"] = func() { set.Linearize(z, grad, lin) }
				kinds["gradient"] = func() { set.Gradient(z, grad) }
				set.Linearize(z, grad, lin)
				kinds["bregman"] = func() { set.Bregman(z, lin) }
			}
			r := rng.Seeded(1)
			kinds["value-random-rows"] = func() { // costRows single-row evaluations at random rows: one pass's worth
				for range costRows {
					set.Value(r.IntN(costRows), z)
				}
			}
			// V8 compiles in tiers: each kind runs 300 ms first; then 9
			// interleaved rounds of ≥ 30 ms each, the median per kind.
			names := slices.Sorted(maps.Keys(kinds))
			for _, name := range names {
				for t0 := time.Now(); time.Since(t0) < 300*time.Millisecond; {
					kinds[name]()
				}
			}
			per := map[string]float64{}
			for round := range 9 {
				for _, name := range names {
					f, k := kinds[name], 0
					t0 := time.Now()
					for ; time.Since(t0) < 30*time.Millisecond; k++ {
						f()
					}
					per[fmt.Sprint(name, "#", round)] = time.Since(t0).Seconds() / float64(k) / float64(costRows*c.d)
				}
			}
			ref := "mean"
			if smooth {
				ref = "linearize"
			}
			med := func(name string) float64 {
				var v []float64
				for k, s := range per {
					if strings.HasPrefix(k, name+"#") {
						v = append(v, s)
					}
				}
				slices.Sort(v)
				return v[len(v)/2]
			}
			for name := range kinds {
				b.ReportMetric(med(name)*1e9, name+"-ns/rc")
				b.ReportMetric(med(name)/med(ref), name+"/"+ref)
			}
			vec := make([]float64, 32)
			for name, draw := range map[string]func(){"normals53-per32": func() { rng.Normals53(r, vec) }, "normal53": func() { rng.Normal53(r) },
				"float64": func() { r.Float64() }} {
				var v []float64
				for range 9 {
					t0 := time.Now()
					for range 1 << 17 {
						draw()
					}
					v = append(v, time.Since(t0).Seconds()/(1<<17)*1e9)
				}
				slices.Sort(v)
				ns := v[4]
				b.ReportMetric(ns, name+"-ns")
				b.ReportMetric(ns/(med(ref)*1e9*float64(c.d)), name+"/row")
			}
		})
	}
}

// cpuSeconds is node's process CPU time (user + system), in seconds: under
// load the run's wall time includes the time the machine gave others.
func cpuSeconds() float64 {
	u := js.Global().Get("process").Call("cpuUsage")
	return (u.Get("user").Float() + u.Get("system").Float()) / 1e6
}
