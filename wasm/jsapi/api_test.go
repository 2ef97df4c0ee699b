//go:build js && wasm

package jsapi

import (
	"math"
	"strings"
	"syscall/js"
	"testing"
	"time"

	"github.com/dpsample/dpsample/core/dataset"
	"github.com/dpsample/dpsample/wasm/internal/jsio"
	"github.com/dpsample/dpsample/wasm/internal/version"
)

func init() { Register() }

// await blocks until the JS Promise p settles; it returns the value or the
// rejection's message. It must run on a test goroutine (never inside a js.Func).
func await(t *testing.T, p js.Value) (js.Value, string) {
	t.Helper()
	if p.Type() != js.TypeObject || p.Get("then").Type() != js.TypeFunction {
		t.Fatalf("export returned %s, not a Promise", jsio.Describe(p))
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
	if s := js.Global().Get("dpsample").Get("version"); s.Type() != js.TypeString || s.String() != version.Version {
		t.Fatalf("version is %s, want the release version %q", jsio.Describe(s), version.Version)
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

// TestDefaultRadiusAPI: a request without radius is planned at
// mechanism.DefaultRadius (here ℓ1 location in the default box: 1.5), and
// plan.why says so.
func TestDefaultRadiusAPI(t *testing.T) {
	v, err := await(t, call("mechanism.plan", goodReq("radius", nil)))
	if err != "" {
		t.Fatal(err)
	}
	if r := v.Get("radius").Float(); r != 1.5 || !strings.Contains(v.Get("why").String(), "DefaultRadius") {
		t.Errorf("radius %g, why %q; want 1.5 by DefaultRadius", r, v.Get("why").String())
	}
}

// TestDPGDMethodAPI: method "dp-gd" plans and samples DP-GD at the same
// accountant; the plan names the estimator, carries its schedule and the
// ledger fields (gdp, gdpTotal, tv = 0).
func TestDPGDMethodAPI(t *testing.T) {
	req := supReq("method", "dp-gd", "sampler", nil, "x", arr(arr(0.5, 1), arr(-0.3, 1), arr(0.2, 1)))
	v, err := await(t, call("mechanism.sample", req))
	if err != "" {
		t.Fatal(err)
	}
	pl := v.Get("plan")
	if pl.Get("estimator").String() != "dp-gd" || pl.Get("method").String() != "dp-gd" || pl.Get("tv").Float() != 0 ||
		!(pl.Get("gdpTotal").Float() > 0) || pl.Get("schedule").Get("steps").Int() != pl.Get("steps").Int() {
		t.Errorf("plan %v", js.Global().Get("JSON").Call("stringify", pl).String())
	}
	if v.Get("theta").Length() != 2 || v.Get("privacy").Get("gdp").Float() != pl.Get("gdpTotal").Float() {
		t.Errorf("result %v", js.Global().Get("JSON").Call("stringify", v.Get("privacy")).String())
	}
}

// TestProfileCSVAPI: data.profileCSV answers ProfileText's profile under
// the contract's names, with progress in bytes up to the text's length.
func TestProfileCSVAPI(t *testing.T) {
	txt := "w,site,label\n" + strings.Repeat("1.5,north,yes\n2,south,no\n,north,yes\n", 20000)
	var last js.Value
	onProgress := js.FuncOf(func(_ js.Value, a []js.Value) any { last = a[0]; return nil })
	defer onProgress.Release()
	pr := mustOK(t, "data.profileCSV", txt, obj("header", true), obj("onProgress", onProgress))
	want, err := dataset.ProfileText(txt, dataset.HeaderPresent)
	if err != nil {
		t.Fatal(err)
	}
	if got := jsio.JSON(want, ""); js.Global().Get("JSON").Call("stringify", pr).String() != got {
		t.Errorf("profile %s, want %s", js.Global().Get("JSON").Call("stringify", pr).String(), got)
	}
	if pr.Get("rows").Int() != 60000 || pr.Get("columns").Index(2).Get("labels").Index(1).Get("rows").Int() != 40000 {
		t.Errorf("rows %d, label counts %s", pr.Get("rows").Int(), js.Global().Get("JSON").Call("stringify", pr.Get("columns").Index(2)).String())
	}
	if last.IsUndefined() || last.Get("done").Int() != len(txt) || last.Get("total").Int() != len(txt) || last.Get("fraction").Float() != 1 {
		t.Errorf("last progress %v, want done = total = %d", last, len(txt))
	}
}
