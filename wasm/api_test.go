//go:build js && wasm

package main

import (
	"math"
	"strings"
	"syscall/js"
	"testing"
	"time"
)

func init() { register() }

// await blocks until the JS Promise p settles; it returns the value or the
// rejection's message. It must run on a test goroutine (never inside a js.Func).
func await(t *testing.T, p js.Value) (js.Value, string) {
	t.Helper()
	if p.Type() != js.TypeObject || p.Get("then").Type() != js.TypeFunction {
		t.Fatalf("export returned %s, not a Promise", describe(p))
	}
	type res struct {
		v   js.Value
		err string
	}
	ch := make(chan res, 1)
	ok := js.FuncOf(func(_ js.Value, a []js.Value) any { ch <- res{v: a[0]}; return nil })
	fail := js.FuncOf(func(_ js.Value, a []js.Value) any {
		msg := "rejected with a non-Error"
		if a[0].InstanceOf(js.Global().Get("Error")) {
			msg = a[0].Get("message").String()
		}
		ch <- res{err: msg}
		return nil
	})
	defer ok.Release()
	defer fail.Release()
	p.Call("then", ok, fail)
	select {
	case r := <-ch:
		return r.v, r.err
	case <-time.After(20 * time.Second):
		t.Fatal("promise did not settle")
	}
	return js.Undefined(), ""
}

func call(path string, args ...any) js.Value {
	v := js.Global().Get("dpsample")
	parts := strings.Split(path, ".")
	for _, p := range parts[:len(parts)-1] {
		v = v.Get(p)
	}
	return v.Call(parts[len(parts)-1], args...)
}

func TestPrivacyAPI(t *testing.T) {
	v, err := await(t, call("privacy.delta", 0.1, 1))
	if err != "" || math.Abs(v.Float()-1.2308359836427112e-25)/1.23e-25 > 1e-10 {
		t.Fatalf("delta(0.1, 1) = %v, %q", v, err)
	}
	v, err = await(t, call("privacy.calibrate", 1, 1e-5))
	if err != "" || math.Abs(v.Float()-0.2680511232) > 1e-9 {
		t.Fatalf("calibrate(1, 1e-5) = %v, %q", v, err)
	}
	v, err = await(t, call("privacy.epsilon", v.Float(), 1e-5))
	if err != "" || math.Abs(v.Float()-1) > 1e-8 {
		t.Fatalf("epsilon(s*, 1e-5) = %v, %q", v, err)
	}
	if s := js.Global().Get("dpsample").Get("version"); s.Type() != js.TypeString {
		t.Fatalf("version is %s", describe(s))
	}
}

// TestPrivacyBadInput: every bad argument is a rejection with an Error that
// names the field, and a valid call succeeds right after each one.
func TestPrivacyBadInput(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	cases := []struct {
		fn    string
		args  []any
		field string
	}{
		{"privacy.delta", []any{nan, 1}, "gdp must be"},
		{"privacy.delta", []any{"0.1", 1}, `gdp must be a finite number > 0, got string "0.1"`},
		{"privacy.delta", []any{0.1, nil}, "epsilon must be a finite number, got null"},
		{"privacy.delta", []any{0.1}, "epsilon must be a finite number, got undefined"},
		{"privacy.delta", []any{-1, 1}, "gdp must be"},
		{"privacy.delta", []any{0.1, inf}, "epsilon must be"},
		{"privacy.calibrate", []any{0, 1e-5}, "epsilon must be a finite number > 0, got 0"},
		{"privacy.calibrate", []any{1, 0}, "delta must be a number in (0, 1), got 0"},
		{"privacy.calibrate", []any{1, 1}, "delta must be"},
		{"privacy.calibrate", []any{1, true}, "delta must be a number in (0, 1), got boolean true"},
		{"privacy.calibrate", []any{map[string]any{}, 1e-5}, "epsilon must be a finite number > 0, got an object"},
		{"privacy.calibrate", []any{[]any{1}, 1e-5}, "epsilon must be a finite number > 0, got an array"},
		{"privacy.calibrate", []any{-inf, 1e-5}, "epsilon must be"},
		{"privacy.epsilon", []any{0.5, 2}, "delta must be"},
		{"privacy.epsilon", []any{math.Copysign(0, -1), 1e-5}, "gdp must be a finite number > 0, got "}, // syscall/js sends Go's −0 as +0
	}
	for _, c := range cases {
		_, err := await(t, call(c.fn, c.args...))
		if !strings.HasPrefix(err, c.field) {
			t.Errorf("%s(%v): rejection %q, want prefix %q", c.fn, c.args, err, c.field)
		}
		if _, err := await(t, call("privacy.calibrate", 1, 1e-5)); err != "" {
			t.Fatalf("valid call after %s(%v) failed: %s", c.fn, c.args, err)
		}
	}
}

// TestPanicIsRecovered: a Go panic inside an export becomes a rejection and
// the runtime keeps serving calls.
func TestPanicIsRecovered(t *testing.T) {
	_, err := await(t, call("_test.panic"))
	if !strings.Contains(err, "panic") {
		t.Fatalf("forced panic gave %q", err)
	}
	if v, err := await(t, call("privacy.delta", 1, 1)); err != "" || math.Abs(v.Float()-0.1269367375066439) > 1e-12 {
		t.Fatalf("call after panic: %v %q", v, err)
	}
}

// TestToJS: results keep their JSON names, flatten embedded structs, turn
// nil pointers into null and keep NaN (which JSON cannot carry).
func TestToJS(t *testing.T) {
	type inner struct {
		A int `json:"a"`
	}
	type named string
	var nilp *float64
	v, _ := toJS(struct {
		inner
		X    float64   `json:"x"`
		N    named     `json:"mode"`
		P    *float64  `json:"p"`
		E    []int     `json:"e,omitempty"`
		S    []float64 `json:"s"`
		Skip int       `json:"-"`
	}{inner{7}, math.NaN(), "tardos", nilp, nil, []float64{1, 2}, 3})
	if v.Get("a").Int() != 7 || !math.IsNaN(v.Get("x").Float()) || v.Get("mode").String() != "tardos" ||
		!v.Get("p").IsNull() || !v.Get("e").IsUndefined() || v.Get("s").Length() != 2 || !v.Get("Skip").IsUndefined() {
		t.Fatalf("toJS: %v", js.Global().Get("JSON").Call("stringify", v))
	}
}
