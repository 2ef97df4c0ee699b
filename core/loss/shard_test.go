package loss

import (
	"errors"
	"math"
	"slices"
	"testing"

	"github.com/dpsample/dpsample/core/checks"
	"github.com/dpsample/dpsample/core/rng"
)

// TestPartition: shards are contiguous, cover [0, n), start on block
// boundaries and differ in size by at most one block; Workers respects n,
// the cores offered and MinShardRows; two data sets with the same n get the
// same partition from NewSharded (it never looks at the data).
func TestPartition(t *testing.T) {
	for _, n := range []int{1, 127, 128, 129, 455, 1000, 2000, 10_000, 20_001} {
		nb := Blocks(n)
		for w := 1; w <= min(nb, 9); w++ {
			b := Partition(n, w)
			if len(b) != w+1 || b[0] != 0 || b[w] != n {
				t.Fatalf("n=%d W=%d: bounds %v", n, w, b)
			}
			lo, hi := nb, 0
			for s := 0; s < w; s++ {
				if b[s]%PassBlock != 0 || b[s+1] <= b[s] {
					t.Fatalf("n=%d W=%d: bounds %v", n, w, b)
				}
				blocks := Blocks(b[s+1]) - b[s]/PassBlock
				lo, hi = min(lo, blocks), max(hi, blocks)
			}
			if hi-lo > 1 {
				t.Errorf("n=%d W=%d: shard sizes %d..%d blocks", n, w, lo, hi)
			}
		}
		for _, cores := range []int{0, 1, 2, 4, 8, 1000} {
			w := Workers(n, cores)
			if w < 1 || w > max(1, cores) || (w > 1 && n/w < MinShardRows) || w > MaxWorkers {
				t.Errorf("Workers(%d, %d) = %d", n, cores, w)
			}
		}
	}
	r := rng.Seeded(40)
	x1, y1 := data(r, Logistic, 3000, 4)
	x2, y2 := data(r, Logistic, 3000, 9)
	s1, _ := New(Logistic, x1, y1, Params{})
	s2, _ := New(Logistic, x2, y2, Params{Clip: 3})
	w := Workers(3000, 8)
	a, b := NewSharded(s1, w), NewSharded(s2, w)
	defer a.Close()
	defer b.Close()
	if w < 2 || !slices.Equal(a.bounds, b.bounds) {
		t.Errorf("W=%d: partitions %v and %v for two data sets of n = 3000", w, a.bounds, b.bounds)
	}
}

// shardSet returns a set of n random records for the sharded tests.
func shardSet(t *testing.T, k Kind, n, d int, seed uint64) *Set {
	t.Helper()
	x, y := data(rng.Seeded(seed), k, n, d)
	s, err := New(k, x, y, Params{Huber: 0.4, Tau: 0.3})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func sameBits(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if math.Float64bits(a[i]) != math.Float64bits(b[i]) {
			return false
		}
	}
	return true
}

// TestShardedSameBits: for every smooth loss, n from 1 to 5000 rows and
// every W up to 8 (goroutines), Sharded's Linearize (value, gradient, lin)
// and Bregman are the Set's bit for bit (tolerance 0: the block sums are
// added in the same order), at points up to ‖z‖ ≈ 30.
func TestShardedSameBits(t *testing.T) {
	for ki, k := range smoothKinds {
		for _, n := range []int{1, 200, 1000, 5000} {
			d := 3 + ki*4
			s := shardSet(t, k, n, d, uint64(50+n+ki))
			r := rng.Seeded(uint64(n))
			g1, g2 := make([]float64, d), make([]float64, d)
			l1, l2 := make([]float64, 3*n), make([]float64, 3*n)
			for w := 1; w <= min(8, Blocks(n)); w++ {
				sh := NewSharded(s, w)
				for trial := 0; trial < 5; trial++ {
					z, x := randVec(r, d, 10), randVec(r, d, 10)
					v1, v2 := s.Linearize(z, g1, l1), sh.Linearize(z, g2, l2)
					if math.Float64bits(v1) != math.Float64bits(v2) || !sameBits(g1, g2) || !sameBits(l1, l2) {
						t.Fatalf("%v n=%d W=%d: Linearize %v vs %v, grad %v vs %v", k, n, w, v1, v2, g1, g2)
					}
					if b1, b2 := s.Bregman(x, l1), sh.Bregman(x, l2); math.Float64bits(b1) != math.Float64bits(b2) {
						t.Fatalf("%v n=%d W=%d: Bregman %v vs %v", k, n, w, b1, b2)
					}
				}
				sh.Close()
			}
		}
	}
}

// copyExec is an Executor whose shards are separate Sets built by NewShard
// from copies of their rows, each with its own lin (what a Web Worker
// holds); shard fail fails at its failAt-th op (0: never).
type copyExec struct {
	sets   []*Set
	b0     []int
	lins   [][]float64
	d      int
	ops    int
	failAt map[int]int
	dead   map[int]bool
	begun  []int
	part   []float64
}

func newCopyExec(t *testing.T, s *Set, bounds []int, failAt map[int]int) *copyExec {
	e := &copyExec{d: s.d, failAt: failAt, dead: map[int]bool{}}
	e.sets, e.b0, e.lins = make([]*Set, len(bounds)-1), make([]int, len(bounds)-1), make([][]float64, len(bounds)-1)
	for i := 1; i < len(bounds)-1; i++ {
		lo, hi := bounds[i], bounds[i+1]
		x := append([]float64(nil), s.x[lo*s.d:hi*s.d]...)
		y := append([]float64(nil), s.y[lo:hi]...)
		set, err := NewShard(s.kind, s.p, x, y, s.d)
		if err != nil {
			t.Fatal(err)
		}
		e.sets[i], e.b0[i], e.lins[i] = set, lo/PassBlock, make([]float64, 3*(hi-lo))
	}
	return e
}

func (e *copyExec) Begin(op Op, v, _, part []float64) {
	e.ops++
	e.begun = e.begun[:0]
	e.part = part
	for i := 1; i < len(e.sets); i++ {
		if e.dead[i] {
			continue
		}
		e.begun = append(e.begun, i)
		if e.failAt[i] == e.ops {
			e.dead[i] = true
			continue
		}
		switch op {
		case OpLinearize:
			e.sets[i].LinearizeBlocks(v, e.lins[i], part[e.b0[i]*(e.d+1):])
		case OpBregman:
			e.sets[i].BregmanBlocks(v, e.lins[i], part[e.b0[i]:])
		}
	}
}

func (e *copyExec) Wait() ([]int, error) {
	var failed []int
	for _, i := range e.begun {
		if e.dead[i] && e.failAt[i] == e.ops {
			failed = append(failed, i)
		}
	}
	if len(failed) > 0 {
		return failed, errors.New("worker stopped")
	}
	return nil, nil
}

func (e *copyExec) Close() {}

// TestShardedRemoteFailure: with shards on separate copies of their rows
// (NewShard, own lin), Sharded returns the Set's bits; when a shard fails
// in a Linearize or in a Bregman (its lin then rebuilt on the caller at the
// last Linearize point) the passes still return the Set's bits, and note is
// called once.
func TestShardedRemoteFailure(t *testing.T) {
	for _, k := range smoothKinds {
		n, d := 2000, 6
		s := shardSet(t, k, n, d, 77)
		for _, failAt := range []map[int]int{nil, {1: 3}, {2: 4, 3: 4}, {1: 1, 3: 8}} {
			bounds := Partition(n, 4)
			notes := 0
			sh := NewShardedWith(s, bounds, newCopyExec(t, s, bounds, failAt), func(error) { notes++ })
			r := rng.Seeded(5)
			g1, g2 := make([]float64, d), make([]float64, d)
			l1, l2 := make([]float64, 3*n), make([]float64, 3*n)
			for step := 0; step < 6; step++ {
				z, x := randVec(r, d, 5), randVec(r, d, 5)
				v1, v2 := s.Linearize(z, g1, l1), sh.Linearize(z, g2, l2)
				if math.Float64bits(v1) != math.Float64bits(v2) || !sameBits(g1, g2) {
					t.Fatalf("%v fail %v step %d: Linearize %v vs %v", k, failAt, step, v1, v2)
				}
				if b1, b2 := s.Bregman(x, l1), sh.Bregman(x, l2); math.Float64bits(b1) != math.Float64bits(b2) {
					t.Fatalf("%v fail %v step %d: Bregman %v vs %v", k, failAt, step, b1, b2)
				}
			}
			if want := min(1, len(failAt)); notes != want || (want == 1) != (sh.Failure() != nil) {
				t.Errorf("%v fail %v: %d notes, failure %v", k, failAt, notes, sh.Failure())
			}
		}
	}
}

// TestNewShard: a shard accepts New's output unchanged and rejects what New
// would have changed (an unclipped row, a 0/1 label) or bad values, naming
// the field.
func TestNewShard(t *testing.T) {
	s := shardSet(t, Logistic, 300, 4, 3)
	if _, err := NewShard(Logistic, s.p, s.x, s.y, 4); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		field string
		x, y  []float64
	}{
		{"x[0]", []float64{2, 0}, []float64{1}},
		{"y[0]", []float64{0.5, 0}, []float64{0}},
		{"x[0]", []float64{math.NaN(), 0}, []float64{1}},
		{"y", []float64{0.5, 0}, nil},
		{"x", []float64{0.5}, []float64{1}},
	} {
		_, err := NewShard(Logistic, Params{}, c.x, c.y, 2)
		var ce *checks.Error
		if !errors.As(err, &ce) || ce.Field != c.field {
			t.Errorf("x=%v y=%v: %v, want field %q", c.x, c.y, err, c.field)
		}
	}
}

// TestShardedNoAllocs: a Linearize and a Bregman pass on W = 3 goroutine
// shards allocate nothing (the first-order sampler's step must not).
func TestShardedNoAllocs(t *testing.T) {
	s := shardSet(t, Logistic, 1000, 5, 8)
	sh := NewSharded(s, 3)
	defer sh.Close()
	r := rng.Seeded(1)
	z, x := randVec(r, 5, 1), randVec(r, 5, 1)
	g, lin := make([]float64, 5), make([]float64, 3000)
	if a := testing.AllocsPerRun(100, func() { sh.Linearize(z, g, lin); sh.Bregman(x, lin) }); a != 0 {
		t.Errorf("a pass pair allocates %v times", a)
	}
}

// TestNewShardAcceptsNewClip: every row New clips is accepted by NewShard
// unchanged, at d up to 10⁴ (issue 30: the clipped norm recomputed exceeded
// clip by 13 / 40 / 102 ulp at d = 100 / 1,000 / 10,000, and 10 of 2,000 rows
// of the shape [a, 3, 3, …] at d = 100 were refused, so a multi-worker run
// fell back depending on one record). Rows of random directions and lengths
// and of the shape [a, 3, 3, …] with a spread over a range; after New, every
// stored row has Norm ≤ clip exactly (the invariant NewShard checks).
func TestNewShardAcceptsNewClip(t *testing.T) {
	r := rng.Seeded(30)
	for _, d := range []int{1, 2, 3, 10, 100, 1000, 10_000} {
		n := max(2000, 20_000/d) // rows: ≥ 2,000 of each shape
		if d >= 1000 {
			n = 200_000 / d
		}
		for _, clip := range []float64{1, 0.3, 7} {
			x := make([][]float64, 2*n)
			for i := range n {
				row := make([]float64, d)
				for j := range row {
					row[j] = r.NormFloat64() * math.Exp(3*r.NormFloat64())
				}
				x[i] = row
				sh := make([]float64, d) // [a, 3, 3, …]
				sh[0] = 0.37 + 0.61*float64(i)
				for j := 1; j < d; j++ {
					sh[j] = 3
				}
				x[n+i] = sh
			}
			y := make([]float64, 2*n)
			for i := range y {
				y[i] = float64(i%2*2 - 1)
			}
			s, err := New(Logistic, x, y, Params{Clip: clip})
			if err != nil {
				t.Fatal(err)
			}
			bad := 0
			for i := range 2 * n {
				if Norm(s.Row(i)) > clip {
					bad++
				}
			}
			if bad > 0 {
				t.Errorf("d=%d clip=%v: %d of %d stored rows have Norm > clip", d, clip, bad, 2*n)
			}
			if _, err := NewShard(Logistic, s.p, s.x, s.y, d); err != nil {
				t.Errorf("d=%d clip=%v: NewShard refuses New's rows: %v", d, clip, err)
			}
		}
	}
}
