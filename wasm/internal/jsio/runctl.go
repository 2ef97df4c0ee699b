//go:build js && wasm

package jsio

import (
	"context"
	"errors"
	"syscall/js"
	"time"

	"github.com/dpsample/dpsample/core/checks"
)

// Long runs (the sampler, lower-bound trials) execute in chunks; between
// chunks the core calls a progress function. Here that function (1) forwards
// progress to the caller's onProgress, at most every 50 ms, (2) yields to the
// JS event loop so timers, messages and the abort signal get through, and
// (3) lets cancellation end the run. time.Sleep(0) and runtime.Gosched() do
// not yield to JS (golang/go#39620); blocking on a MessageChannel round trip
// does, for ≈0.25 ms.

// yielder is a MessageChannel whose messages wake goroutines parked in yield.
var yielder struct {
	ready   bool
	port    js.Value
	waiters []chan struct{}
	onmsg   js.Func
}

// Yield parks the calling goroutine until the event loop has run once.
func Yield() {
	if !yielder.ready {
		mc := js.Global().Get("MessageChannel")
		if !mc.Truthy() {
			time.Sleep(time.Millisecond) // a setTimeout: slower, but yields
			return
		}
		ch := mc.New()
		yielder.onmsg = js.FuncOf(func(js.Value, []js.Value) any {
			if len(yielder.waiters) > 0 {
				w := yielder.waiters[0]
				yielder.waiters = yielder.waiters[1:]
				close(w)
			}
			return nil
		})
		ch.Get("port1").Set("onmessage", yielder.onmsg)
		if u := ch.Get("port1").Get("unref"); u.Type() == js.TypeFunction { // node: don't keep the process alive
			ch.Get("port1").Call("unref")
		}
		yielder.port = ch.Get("port2")
		yielder.ready = true
	}
	w := make(chan struct{})
	yielder.waiters = append(yielder.waiters, w)
	yielder.port.Call("postMessage", 0)
	<-w
}

// ErrAborted is the rejection of a cancelled call; its JS Error has name "AbortError".
var ErrAborted = errors.New("the run was cancelled (AbortSignal)")

// RunControl holds a call's progress callback and cancellation.
type RunControl struct {
	Ctx        context.Context
	cancel     context.CancelFunc
	onProgress js.Value
	lastPost   time.Time
	lastYield  time.Time
	release    []js.Func
}

// NewRunControl reads {onProgress?, signal?} (the names of the JS contract)
// from opts, which may be undefined, a function (taken as onProgress), or an
// object. field names the argument in errors. extra are further fields the
// caller reads from opts itself (mechanism.sample's ledger, onLedger); any
// other field is an error.
func NewRunControl(opts js.Value, field string, extra ...string) (*RunControl, error) {
	rc := &RunControl{}
	rc.Ctx, rc.cancel = context.WithCancel(context.Background())
	switch {
	case opts.Type() == js.TypeUndefined || opts.Type() == js.TypeNull:
		return rc, nil
	case opts.Type() == js.TypeFunction:
		rc.onProgress = opts
		return rc, nil
	}
	o, err := ReadObject(opts, field, true, append([]string{"onProgress", "signal"}, extra...)...)
	if err != nil {
		return nil, err
	}
	if p := o.Get("onProgress"); p.Type() != js.TypeUndefined {
		if p.Type() != js.TypeFunction {
			return nil, &checks.Error{Field: field + ".onProgress", Rule: "a function", Got: Describe(p)}
		}
		rc.onProgress = p
	}
	if s := o.Get("signal"); s.Type() != js.TypeUndefined {
		if s.Type() != js.TypeObject || s.Get("aborted").Type() != js.TypeBoolean {
			return nil, &checks.Error{Field: field + ".signal", Rule: "an AbortSignal", Got: Describe(s)}
		}
		if s.Get("aborted").Bool() {
			rc.cancel()
		}
		f := js.FuncOf(func(js.Value, []js.Value) any { rc.cancel(); return nil })
		rc.release = append(rc.release, f)
		s.Call("addEventListener", "abort", f)
	}
	return rc, nil
}

// Progress is the callback handed to core: it posts progress, yields to the
// event loop every ~15 ms of work, and returns nothing — cancellation reaches
// core through rc.Ctx, which the abort listener cancels while we are yielded.
func (rc *RunControl) Progress(done, total int) {
	now := time.Now()
	if rc.onProgress.Type() == js.TypeFunction && (done >= total || now.Sub(rc.lastPost) >= 50*time.Millisecond) {
		rc.lastPost = now
		p := js.Global().Get("Object").New()
		p.Set("done", done)
		p.Set("total", total)
		p.Set("fraction", float64(done)/float64(max(total, 1)))
		rc.onProgress.Invoke(p)
	}
	if now.Sub(rc.lastYield) >= 15*time.Millisecond {
		Yield()
		rc.lastYield = time.Now()
	}
}

// Finish releases the listeners and maps a cancellation to ErrAborted.
func (rc *RunControl) Finish(err error) error {
	for _, f := range rc.release {
		f.Release()
	}
	cancelled := rc.Ctx.Err() != nil
	rc.cancel()
	if err != nil && cancelled {
		return ErrAborted
	}
	return err
}
