package mechanism_test

import (
	"context"
	"fmt"

	"github.com/dpsample/dpsample/core/mechanism"
)

// A private coordinate median (ℓ1 loss, Algorithm 1) of six points in the
// plane. The seed makes the run reproducible, so the result says
// private: false; without a seed the draw uses the crypto-seeded generator.
// Bad input is an error naming the field.
func ExampleSample() {
	x := [][]float64{{0.1, 0.2}, {0.3, -0.1}, {-0.2, 0.4}, {0.0, 0.1}, {0.2, 0.2}, {0.1, 0.0}}
	seed := uint64(7)
	res, err := mechanism.Sample(context.Background(), mechanism.Request{
		Loss: "l1", X: x, Epsilon: 1, Delta: 1e-5, Radius: 1, Samples: 3, Seed: &seed,
	}, nil)
	if err != nil {
		panic(err)
	}
	fmt.Println("samples:", len(res.Samples), "of dimension", len(res.Theta))
	fmt.Println("private:", res.Private)
	fmt.Printf("composed over %d samples: (ε, δ) = (%g, ≤ %g)\n", res.Privacy.ComposedOver, res.Privacy.Epsilon, 1e-5)

	_, err = mechanism.Sample(context.Background(), mechanism.Request{Loss: "l1", X: x, Epsilon: -1, Delta: 1e-5, Radius: 1}, nil)
	fmt.Println(err)
	// Output:
	// samples: 3 of dimension 2
	// private: false
	// composed over 3 samples: (ε, δ) = (1, ≤ 1e-05)
	// epsilon must be a finite number > 0, got -1
}

// NewPlan validates a request and derives the sampler's parameters from
// public quantities only (ε, δ, the radius C, the clip bound, n and d);
// nothing is sampled.
func ExampleNewPlan() {
	x := [][]float64{{0.5}, {-0.3}, {0.2}, {0.9}}
	pl, err := mechanism.NewPlan(mechanism.Request{Loss: "logistic", X: x, Y: []float64{1, -1, 1, 1},
		Epsilon: 1, Delta: 1e-5, Radius: 2})
	if err != nil {
		panic(err)
	}
	fmt.Println("n, d:", pl.N, pl.D)
	fmt.Println("sampler:", pl.Sampler)
	// Output:
	// n, d: 4 1
	// sampler: exact
}
