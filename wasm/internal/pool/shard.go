//go:build js && wasm

package pool

import (
	"fmt"
	"syscall/js"
	"time"

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
		"serve":      js.FuncOf(shardServe),
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

// shardPass runs op at shard.v and returns the shard's block sums, or an
// error message for an unknown op.
func shardPass(op loss.Op) ([]float64, string) {
	switch op {
	case loss.OpLinearize:
		shard.set.LinearizeBlocks(shard.v, shard.lin, shard.partLin)
	case loss.OpBregman:
		shard.set.BregmanBlocks(shard.v, shard.lin, shard.partBr)
	default:
		return nil, fmt.Sprintf("shard pass: unknown op %d", op)
	}
	return shardPart(int(op)), ""
}

// recoverPass turns a panic in a shard call into its error message.
func recoverPass(out *any) {
	if r := recover(); r != nil {
		*out = fmt.Sprintf("shard pass: internal error (panic: %v)", r)
	}
}

// shardRun(op, v, out): runs op at v (a Float64Array of length d) and copies
// the shard's block sums into out.
func shardRun(_ js.Value, a []js.Value) (out any) {
	defer recoverPass(&out)
	if shard.set == nil {
		return "shard pass before load"
	}
	op := loss.Op(jsio.Arg(a, 0).Int())
	if jsio.CopyFromFloat64Array(shard.v, jsio.Arg(a, 1)) != len(shard.v) {
		return "shard pass: v has the wrong length"
	}
	part, msg := shardPass(op)
	if msg == "" {
		jsio.CopyToFloat64Array(jsio.Arg(a, 2), part)
	}
	return msg
}

// shardServe(ctl, vec, part, slot, seen, crashAfter, slowMs) serves passes from
// shared memory until op 0 and returns "" (or an error message, which
// shard.js throws: the owner then sees the worker fail). It is the loop of
// site/shard.js's shared mode, in Go so that a pass costs no call from JS
// into Go (each of which runs the Go scheduler: ≈ 90 µs a pass in
// Chromium, as much as the shard's own rows at n = 2,000 on 2 workers).
// Between passes it polls ctl[0] for up to SpinMs before it sleeps in
// Atomics.wait (waking a sleeping thread costs about as much again).
// seen is ctl[0] as read before "loaded" was posted; with crashAfter > 0
// (a test hook) it fails after that many passes, as a crashed worker would;
// with slowMs > 0 (a test hook) it busy-waits that long after each pass, as
// a shard on a busy core would.
func shardServe(_ js.Value, a []js.Value) (out any) {
	defer recoverPass(&out)
	if shard.set == nil {
		return "shard serve before load"
	}
	ctl, vec, part := jsio.Arg(a, 0), jsio.Arg(a, 1), jsio.Arg(a, 2)
	slot, seen, crashAfter := jsio.Arg(a, 3).Int(), jsio.Arg(a, 4).Int(), jsio.Arg(a, 5).Int()
	var slow time.Duration
	if s := jsio.Arg(a, 6); s.Type() == js.TypeNumber {
		slow = time.Duration(s.Float() * float64(time.Millisecond))
	}
	at := loadAtomics()
	if vec.Length() != len(shard.v) {
		return "shard serve: vec has the wrong length"
	}
	vecV, partV := jsio.NewFloat64View(vec), jsio.NewFloat64View(part)
	for ops := 1; ; ops++ {
		cur := at.load.Invoke(ctl, 0).Int()
		t0 := time.Now()
		for i := 1; cur == seen; i++ {
			if i%64 == 0 && time.Since(t0) > SpinMs*time.Millisecond {
				at.wait.Invoke(ctl, 0, seen)
			}
			cur = at.load.Invoke(ctl, 0).Int()
		}
		seen = cur
		op := loss.Op(at.load.Invoke(ctl, 1).Int())
		if op == 0 {
			return ""
		}
		if crashAfter > 0 && ops >= crashAfter {
			return fmt.Sprintf("shard worker crashed after %d passes (test hook)", ops)
		}
		vecV.CopyFrom(shard.v)
		part, msg := shardPass(op)
		if msg != "" {
			return msg
		}
		partV.CopyTo(part)
		for end := time.Now().Add(slow); time.Now().Before(end); {
		}
		at.store.Invoke(ctl, 2+slot, seen)
		at.notify.Invoke(ctl, 2+slot)
	}
}
