package lowerbound

import (
	"context"
	"testing"
)

// TestSpecimenReplaysRun: for every mechanism (and a group-privacy dataset),
// the specimen's code has Run's first-trial column counts, its excess equals
// Run's exactly, and a different seed gives a different code.
func TestSpecimenReplaysRun(t *testing.T) {
	seed := uint64(11)
	s := 30.0
	for _, o := range []Options{
		{N: 4, Xi: 0.1, Mechanism: Median, Seed: &seed},
		{N: 4, Xi: 0.1, Mechanism: Exponential, Epsilon: 1e8, Delta: 1e-6, Seed: &seed},
		{N: 4, Xi: 0.1, Mechanism: BoxExponential, S: &s, Seed: &seed},
		{N: 3, Xi: 0.1, Mechanism: Gaussian, Epsilon: 1e4, Delta: 1e-6, Seed: &seed, Copies: 2, Pad: 1},
	} {
		ex, err := Run(context.Background(), o, nil)
		if err != nil {
			t.Fatal(err)
		}
		sp, err := NewSpecimen(o)
		if err != nil {
			t.Fatal(err)
		}
		got, err := sp.ExcessOverD(o)
		if err != nil || got != ex.ExcessOverD[0] {
			t.Errorf("%s: specimen excess/D %v (%v), Run %v", o.Mechanism, got, err, ex.ExcessOverD[0])
		}
		th, err := sp.Theta(o, 50)
		if err != nil || len(th) != 50 {
			t.Fatalf("%s: Theta: %v %d", o.Mechanism, err, len(th))
		}
		d0 := sp.Code.D0
		for k := 0; k < sp.Code.Length; k++ {
			src, ones := sp.Code.Source(k), sp.Code.Ones(k)
			if (src >= 3*d0 && ones != o.N) || (src >= d0 && src < 3*d0 && ones != 0) {
				t.Fatalf("%s: column %d has source %d but %d ones", o.Mechanism, k, src, ones)
			}
		}
	}
	other := uint64(12)
	a, _ := NewSpecimen(Options{N: 4, Xi: 0.1, Seed: &seed})
	b, _ := NewSpecimen(Options{N: 4, Xi: 0.1, Seed: &other})
	same := true
	for k := 0; k < 200; k++ {
		same = same && a.Code.Source(k) == b.Code.Source(k)
	}
	if same {
		t.Error("seeds 11 and 12 gave the same permutation")
	}
	if _, err := NewSpecimen(Options{N: 4, Xi: 0.1}); err == nil {
		t.Error("an unseeded specimen was accepted")
	}
	sp, _ := NewSpecimen(Options{N: 4, Xi: 0.1, Seed: &seed})
	if _, err := sp.Theta(Options{N: 4, Xi: 0.1, Mechanism: Median, Seed: &other}, 5); err == nil {
		t.Error("Theta accepted options of another seed")
	}
}
