package mechanism

import (
	"context"
	"errors"
	"math"
	"testing"

	"github.com/dpsample/dpsample/core/checks"
	"github.com/dpsample/dpsample/core/loss"
)

// TestSampleWorkers: a seeded first-order sample is the same bits with 1, 2
// and 4 workers offered (n = 2,100 and 4,200 rows: loss.Workers gives 1, 2,
// 4 shards); plan.workers and diagnostics.workers say how many
// ran; an executor factory that fails gives the one-worker result and a
// note; workers outside [0, MaxWorkers] is an error naming the field.
func TestSampleWorkers(t *testing.T) {
	for _, n := range []int{2100, 4200} {
		x, y := smallGLM(n, 6, true)
		var first []float64
		for _, w := range []int{0, 2, 4} {
			req := Request{Loss: "logistic", X: x, Y: y, Epsilon: 0.2, Delta: 1e-5, Radius: 1, Seed: seed(9), Workers: w}
			res, err := Sample(context.Background(), req, nil)
			if err != nil {
				t.Fatal(err)
			}
			want := loss.Workers(n, max(1, w))
			if res.Plan.Workers != want || res.Diagnostics.Workers != want || res.Diagnostics.Note != "" {
				t.Errorf("n=%d workers=%d: plan %d, ran %d (want %d), note %q", n, w, res.Plan.Workers, res.Diagnostics.Workers, want, res.Diagnostics.Note)
			}
			t.Logf("n=%d workers=%d: T=%d, %d shards", n, w, res.Plan.Steps, res.Plan.Workers)
			if first == nil {
				first = res.Theta
				continue
			}
			for j := range first {
				if math.Float64bits(first[j]) != math.Float64bits(res.Theta[j]) {
					t.Fatalf("n=%d workers=%d: θ %v, one worker %v", n, w, res.Theta, first)
				}
			}
		}
		req := Request{Loss: "logistic", X: x, Y: y, Epsilon: 0.2, Delta: 1e-5, Radius: 1, Seed: seed(9), Workers: 4}
		res, err := SampleWith(context.Background(), req, nil, Options{Shards: func(*loss.Set, []int) (loss.Executor, error) {
			return nil, errors.New("no Worker constructor")
		}})
		if err != nil || res.Diagnostics.Workers != 1 || res.Diagnostics.Note == "" {
			t.Fatalf("failing pool: %v, diagnostics %+v", err, res.Diagnostics)
		}
		for j := range first {
			if math.Float64bits(first[j]) != math.Float64bits(res.Theta[j]) {
				t.Fatalf("failing pool: θ %v, one worker %v", res.Theta, first)
			}
		}
	}
	x, y := smallGLM(50, 2, true)
	for _, w := range []int{-1, loss.MaxWorkers + 1} {
		_, err := NewPlan(Request{Loss: "logistic", X: x, Y: y, Epsilon: 1, Delta: 1e-5, Radius: 3, Workers: w})
		var ce *checks.Error
		if !errors.As(err, &ce) || ce.Field != "workers" {
			t.Errorf("workers=%d: %v", w, err)
		}
	}
}
