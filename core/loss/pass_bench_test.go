package loss

import (
	"testing"
	"time"

	"github.com/dpsample/dpsample/core/rng"
)

// BenchmarkPass times, side by side in one benchmark, b.N Linearize passes
// and b.N Bregman passes of each smooth loss over n = 10,000 rows, d = 30
// (the first-order sampler's two kinds of data pass), with pass.go and with
// the reference loops it replaced (pass_ref_test.go), and reports ns per row
// of each and their ratio:
//
//	go test -run xxx -bench Pass ./core/loss/
//	GOOS=js GOARCH=wasm go test -run xxx -bench Pass -exec="$(go env GOROOT)/lib/wasm/go_js_wasm_exec" ./core/loss/
func BenchmarkPass(b *testing.B) {
	const n, d = 10_000, 30
	for _, k := range smoothKinds {
		r := rng.Seeded(11)
		x, y := data(r, k, n, d)
		s, err := New(k, x, y, Params{Huber: 0.5, Tau: 0.3})
		if err != nil {
			b.Fatal(err)
		}
		z, u := randVec(r, d, 1), randVec(r, d, 1)
		g, lin := make([]float64, d), make([]float64, 3*n)
		perRow := func(t time.Duration, m int) float64 { return float64(t.Nanoseconds()) / float64(m) / n }
		b.Run(k.String(), func(b *testing.B) {
			s.Linearize(z, g, lin) // warm up (V8 tiers up between calls)
			s.refLinearize(z, g, lin)
			s.Bregman(u, lin)
			s.refBregman(u, lin)
			var wall, cpu [4]time.Duration
			timed := func(i int, f func()) {
				t0, c0 := time.Now(), cpuTime()
				for range b.N {
					f()
				}
				wall[i], cpu[i] = time.Since(t0), cpuTime()-c0
			}
			timed(0, func() { s.refLinearize(z, g, lin) })
			timed(1, func() { s.Linearize(z, g, lin) })
			timed(2, func() { s.refBregman(u, lin) })
			timed(3, func() { s.Bregman(u, lin) })
			for i, name := range []string{"lin-ref", "lin", "breg-ref", "breg"} {
				b.ReportMetric(perRow(wall[i], b.N), name+"-ns/row")
				if cpu[i] > 0 {
					b.ReportMetric(perRow(cpu[i], b.N), name+"-cpu-ns/row")
				}
			}
			b.ReportMetric(float64(wall[0]+wall[2])/float64(wall[1]+wall[3]), "speedup")
		})
	}
}

// BenchmarkSharded times, side by side in one benchmark, b.N logistic passes
// (one Linearize and one Bregman: the first-order sampler's step without its
// trials) on W = 1 (the Set) and on W = 2, 4 shards (goroutines), for n =
// 256 (the hand-off overhead: two blocks), 2,000, 10,000 and 20,000 rows of
// d = 30, and reports µs per pass pair (wall clock, and the process's CPU
// time: its excess over W = 1 is the cost of the hand-offs) and the
// wall-clock speed-up of each W. On a machine with fewer than W free cores
// the speed-up is capped by the cores, and on a loaded one it is meaningless
// (each runnable thread gets a share of the cores).
func BenchmarkSharded(b *testing.B) {
	const d = 30
	for _, n := range []int{256, 2000, 10_000, 20_000} {
		r := rng.Seeded(12)
		x, y := data(r, Logistic, n, d)
		s, err := New(Logistic, x, y, Params{})
		if err != nil {
			b.Fatal(err)
		}
		z, u := randVec(r, d, 1), randVec(r, d, 1)
		g, lin := make([]float64, d), make([]float64, 3*n)
		b.Run("n="+itoa(n), func(b *testing.B) {
			ws := []int{1, 2, 4}
			times := make([]time.Duration, len(ws))
			for wi, w := range ws {
				if w > Blocks(n) {
					continue
				}
				var pot interface {
					Linearize(z, grad, lin []float64) float64
					Bregman(x, lin []float64) float64
				} = s
				if w > 1 {
					sh := NewSharded(s, w)
					defer sh.Close()
					pot = sh
				}
				pot.Linearize(z, g, lin)
				t0, c0 := time.Now(), cpuTime()
				for i := 0; i < b.N; i++ {
					pot.Linearize(z, g, lin)
					pot.Bregman(u, lin)
				}
				times[wi] = time.Since(t0)
				b.ReportMetric(float64(times[wi].Microseconds())/float64(b.N), "W"+itoa(w)+"-µs/pass-pair")
				if c := cpuTime() - c0; c > 0 {
					b.ReportMetric(float64(c.Microseconds())/float64(b.N), "W"+itoa(w)+"-cpu-µs/pass-pair")
				}
				if wi > 0 {
					b.ReportMetric(float64(times[0])/float64(times[wi]), "W"+itoa(w)+"-speedup")
				}
			}
		})
	}
}

func itoa(v int) string {
	s := ""
	for {
		s = string(rune('0'+v%10)) + s
		v /= 10
		if v == 0 {
			return s
		}
	}
}
