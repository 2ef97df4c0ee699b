//go:build js && wasm

package pool

import (
	"fmt"
	"syscall/js"

	"github.com/dpsample/dpsample/core/loss"
	"github.com/dpsample/dpsample/wasm/internal/jsio"
)

// The shard side: what a shard worker (site/shard.js) calls, synchronously,
// on its own module instance. One shard per worker.
var shard struct {
	set     *loss.Set
	v, lin  []float64
	partLin []float64 // LinearizeBlocks' output
	partBr  []float64 // BregmanBlocks' output
}

// RegisterShard installs globalThis.dpsampleShard = {load, run, partLength}
// (site/shard.js documents the protocol). The functions return an error
// message ("" for none) instead of throwing.
func RegisterShard() {
	js.Global().Set("dpsampleShard", js.ValueOf(map[string]any{
		"load":       js.FuncOf(shardLoad),
		"run":        js.FuncOf(shardRun),
		"partLength": js.FuncOf(func(_ js.Value, a []js.Value) any { return len(shardPart(jsio.Arg(a, 0).Int())) }),
	}))
}

// shardLoad(loss, clip, tau, huber, ball, d, x, y): builds the shard's set
// with loss.NewShard (which validates rows that New already clipped).
func shardLoad(_ js.Value, a []js.Value) (out any) {
	defer func() {
		if r := recover(); r != nil {
			out = fmt.Sprintf("shard load: internal error (panic: %v)", r)
		}
	}()
	k, err := loss.ParseKind(jsio.Arg(a, 0).String())
	if err != nil {
		return err.Error()
	}
	p := loss.Params{Clip: jsio.Arg(a, 1).Float(), Tau: jsio.Arg(a, 2).Float(), Huber: jsio.Arg(a, 3).Float(), Ball: jsio.Arg(a, 4).Float()}
	d := jsio.Arg(a, 5).Int()
	xv, yv := jsio.Arg(a, 6), jsio.Arg(a, 7)
	x := make([]float64, xv.Length())
	jsio.CopyFromFloat64Array(x, xv)
	var y []float64
	if yv.Truthy() && yv.Length() > 0 {
		y = make([]float64, yv.Length())
		jsio.CopyFromFloat64Array(y, yv)
	}
	set, err := loss.NewShard(k, p, x, y, d)
	if err != nil {
		return err.Error()
	}
	n := set.N()
	shard.set, shard.v, shard.lin = set, make([]float64, d), make([]float64, 3*n)
	shard.partLin, shard.partBr = make([]float64, loss.Blocks(n)*(d+1)), make([]float64, loss.Blocks(n))
	return ""
}

func shardPart(op int) []float64 {
	if loss.Op(op) == loss.OpLinearize {
		return shard.partLin
	}
	return shard.partBr
}

// shardRun(op, v, out): runs op at v (a Float64Array of length d) and copies
// the shard's block sums into out.
func shardRun(_ js.Value, a []js.Value) (out any) {
	defer func() {
		if r := recover(); r != nil {
			out = fmt.Sprintf("shard pass: internal error (panic: %v)", r)
		}
	}()
	if shard.set == nil {
		return "shard pass before load"
	}
	op := loss.Op(jsio.Arg(a, 0).Int())
	if jsio.CopyFromFloat64Array(shard.v, jsio.Arg(a, 1)) != len(shard.v) {
		return "shard pass: v has the wrong length"
	}
	switch op {
	case loss.OpLinearize:
		shard.set.LinearizeBlocks(shard.v, shard.lin, shard.partLin)
	case loss.OpBregman:
		shard.set.BregmanBlocks(shard.v, shard.lin, shard.partBr)
	default:
		return fmt.Sprintf("shard pass: unknown op %d", op)
	}
	jsio.CopyToFloat64Array(jsio.Arg(a, 2), shardPart(int(op)))
	return ""
}
