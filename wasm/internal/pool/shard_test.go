//go:build js && wasm

package pool

import (
	"math"
	"strings"
	"syscall/js"
	"testing"

	"github.com/dpsample/dpsample/core/loss"
	"github.com/dpsample/dpsample/core/rng"
	"github.com/dpsample/dpsample/wasm/internal/jsio"
)

// TestShardProtocol: what site/shard.js calls — dpsampleShard.load with a
// shard's rows, then run(op, v, out) — returns the block sums the Set's own
// LinearizeBlocks / BregmanBlocks return, bit for bit, also into a Float64Array
// on a SharedArrayBuffer-sized buffer; bad input is an error message, not a
// throw; and Start refuses where no Worker exists (node), naming why.
func TestShardProtocol(t *testing.T) {
	RegisterShard()
	api := js.Global().Get("dpsampleShard")
	r := rng.Seeded(3)
	n, d := 300, 5
	x := make([][]float64, n)
	y := make([]float64, n)
	for i := range x {
		x[i] = make([]float64, d)
		for j := range x[i] {
			x[i][j] = r.NormFloat64() / 3
		}
		y[i] = float64(2*r.IntN(2) - 1)
	}
	set, err := loss.New(loss.Logistic, x, y, loss.Params{})
	if err != nil {
		t.Fatal(err)
	}
	p := set.Params()
	if msg := api.Call("load", "logistic", p.Clip, p.Tau, p.Huber, p.Ball, d, jsio.Float64Array(set.Data()), jsio.Float64Array(y)).String(); msg != "" {
		t.Fatal(msg)
	}
	lin := make([]float64, 3*n)
	for _, op := range []loss.Op{loss.OpLinearize, loss.OpBregman} {
		v := []float64{0.3, -1, 2, 0.1, -0.7}
		want := make([]float64, loss.Blocks(n)*(d+1))
		if op == loss.OpLinearize {
			set.LinearizeBlocks(v, lin, want)
		} else {
			want = want[:loss.Blocks(n)]
			set.BregmanBlocks(v, lin, want)
		}
		out := js.Global().Get("Float64Array").New(api.Call("partLength", int(op)).Int())
		if msg := api.Call("run", int(op), jsio.Float64Array(v), out).String(); msg != "" {
			t.Fatal(msg)
		}
		got := make([]float64, len(want))
		if jsio.CopyFromFloat64Array(got, out) != len(want) {
			t.Fatalf("op %d: %d values, want %d", op, out.Length(), len(want))
		}
		for i := range want {
			if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
				t.Fatalf("op %d: block sums %v, want %v", op, got, want)
			}
		}
	}
	if msg := api.Call("load", "logistic", p.Clip, p.Tau, p.Huber, p.Ball, d, jsio.Float64Array([]float64{3, 0, 0, 0, 0}), jsio.Float64Array([]float64{1})).String(); !strings.Contains(msg, "x[0]") {
		t.Errorf("unclipped row: %q", msg)
	}
	if msg := api.Call("run", 1, jsio.Float64Array([]float64{1}), js.Global().Get("Float64Array").New(1)).String(); msg == "" {
		t.Errorf("a point of the wrong length was accepted")
	}
	if _, err := Start(set, loss.Partition(n, 2)); err == nil || !strings.Contains(err.Error(), "Worker") {
		t.Errorf("Start under node: %v", err)
	}
}
