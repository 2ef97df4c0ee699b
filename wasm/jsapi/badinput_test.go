//go:build js && wasm

package jsapi

import (
	"math"
	"strings"
	"syscall/js"
	"testing"

	"github.com/dpsample/dpsample/wasm/internal/jsio"
)

// jsv builds JS values for the corpus: plain Go values convert with
// js.ValueOf; jsNaN etc. are the JS specials.
var (
	jsNaN    = js.Global().Get("NaN")
	jsInf    = js.Global().Get("Infinity")
	jsNegInf = math.Inf(-1)
)

func obj(kv ...any) js.Value {
	o := js.Global().Get("Object").New()
	for i := 0; i+1 < len(kv); i += 2 {
		o.Set(kv[i].(string), kv[i+1])
	}
	return o
}

func arr(vs ...any) js.Value { return js.ValueOf(vs) }

// goodReq is a valid ℓ1-location request; with(k, v) replaces one field
// (v == nil deletes it).
func goodReq(kv ...any) js.Value {
	o := obj("loss", "l1", "x", arr(arr(0.1, 0.2), arr(0.3, -0.1), arr(-0.2, 0.4)), "epsilon", 1, "delta", 1e-5, "radius", 1, "seed", 1)
	for i := 0; i+1 < len(kv); i += 2 {
		if kv[i+1] == nil {
			js.Global().Get("Reflect").Call("deleteProperty", o, kv[i])
			continue
		}
		o.Set(kv[i].(string), kv[i+1])
	}
	return o
}

func supReq(kv ...any) js.Value {
	base := []any{"loss", "logistic", "y", arr(1, -1, 1), "sampler", "exact", "x", arr(arr(0.5), arr(-0.3), arr(0.2))}
	return goodReq(append(base, kv...)...)
}

// gdReq is a valid dp-gd request on a smooth loss (intervals allowed).
func gdReq(kv ...any) js.Value {
	return supReq(append([]any{"method", "dp-gd", "sampler", nil}, kv...)...)
}

func TestBadInputCorpus(t *testing.T) {
	f64 := func(vs ...float64) js.Value {
		a := js.Global().Get("Float64Array").New(len(vs))
		for i, v := range vs {
			a.SetIndex(i, v)
		}
		return a
	}
	code := func() js.Value {
		v, err := await(t, call("fingerprint.code", obj("n", 3, "xi", 0.1, "seed", 1)))
		if err != "" {
			t.Fatal(err)
		}
		return v
	}()
	cases := []struct {
		name string
		fn   string
		args []any
		want string // prefix of the rejection message
	}{
		// privacy
		{"delta string", "privacy.delta", []any{"1", 1}, `gdp must be a finite number > 0, got string "1"`},
		{"delta NaN eps", "privacy.delta", []any{1, jsNaN}, "epsilon must be a finite number, got NaN"},
		{"calibrate Inf", "privacy.calibrate", []any{jsInf, 1e-5}, "epsilon must be a finite number > 0, got +Inf"},
		{"calibrate delta null", "privacy.calibrate", []any{1, nil}, "delta must be a number in (0, 1), got null"},
		{"calibrate delta 1", "privacy.calibrate", []any{1, 1}, "delta must be a number in (0, 1), got 1"},
		{"epsilon no args", "privacy.epsilon", []any{}, "gdp must be a finite number > 0, got undefined"},
		// mechanism: the request object
		{"req missing", "mechanism.plan", []any{}, "req must be an object, got undefined"},
		{"req array", "mechanism.plan", []any{arr(1, 2)}, "req must be an object, got an array"},
		{"req string", "mechanism.sample", []any{"{}"}, `req must be an object, got string "{}"`},
		{"unknown field", "mechanism.plan", []any{goodReq("epsion", 1)}, "req.epsion must be a known field"},
		{"loss missing", "mechanism.plan", []any{goodReq("loss", nil)}, "req.loss must be a loss name"},
		{"loss number", "mechanism.plan", []any{goodReq("loss", 3)}, "req.loss must be a loss name"},
		{"loss unknown", "mechanism.plan", []any{goodReq("loss", "squared")}, "loss must be"},
		{"x missing", "mechanism.plan", []any{goodReq("x", nil)}, "req.x must be an array of rows"},
		{"x empty", "mechanism.plan", []any{goodReq("x", arr())}, "req.x must be a non-empty array of rows"},
		{"x empty row", "mechanism.plan", []any{goodReq("x", arr(arr()))}, "req.x[0] must be a non-empty row"},
		{"x ragged", "mechanism.plan", []any{goodReq("x", arr(arr(1, 2), arr(1)))}, "req.x[1] must be of length 2, got length 1"},
		{"x null hole", "mechanism.plan", []any{goodReq("x", arr(arr(1, 2), arr(1, nil)))}, "req.x[1][1] must be a finite number, got null"},
		{"x NaN", "mechanism.plan", []any{goodReq("x", arr(arr(1, 2), arr(jsNaN, 0)))}, "req.x[1][0] must be a finite number, got NaN"},
		{"x Inf", "mechanism.plan", []any{goodReq("x", arr(arr(1, jsInf), arr(0, 0)))}, "req.x[0][1] must be a finite number, got +Inf"},
		{"x -Inf", "mechanism.plan", []any{goodReq("x", arr(arr(1, jsNegInf), arr(0, 0)))}, "req.x[0][1] must be a finite number, got -Inf"},
		{"x string cell", "mechanism.plan", []any{goodReq("x", arr(arr(1, "2"), arr(0, 0)))}, `req.x[0][1] must be a finite number, got string "2"`},
		{"x row string", "mechanism.plan", []any{goodReq("x", arr("12", "34"))}, "req.x[0] must be an array of numbers or a Float64Array"},
		{"x typed NaN", "mechanism.plan", []any{goodReq("x", arr(f64(1, 2), f64(3, math.NaN())))}, "req.x[1][1] must be a finite number, got NaN"},
		{"x typed ragged", "mechanism.plan", []any{goodReq("x", arr(f64(1, 2), f64(3)))}, "req.x[1] must be of length 2"},
		{"x not array", "mechanism.plan", []any{goodReq("x", obj("0", arr(1)))}, "req.x must be an array of rows"},
		{"x one row", "mechanism.plan", []any{goodReq("x", arr(arr(1, 2)))}, "x must be at least 2 rows, got 1 row"},
		{"epsilon 0", "mechanism.plan", []any{goodReq("epsilon", 0)}, "req.epsilon must be a finite number > 0, got 0"},
		{"epsilon negative", "mechanism.plan", []any{goodReq("epsilon", -1)}, "req.epsilon must be a finite number > 0, got -1"},
		{"epsilon NaN", "mechanism.plan", []any{goodReq("epsilon", jsNaN)}, "req.epsilon must be a finite number > 0, got NaN"},
		{"epsilon string", "mechanism.plan", []any{goodReq("epsilon", "1")}, `req.epsilon must be a finite number > 0, got string "1"`},
		{"epsilon missing", "mechanism.plan", []any{goodReq("epsilon", nil)}, "req.epsilon must be a finite number > 0, got undefined"},
		{"delta 0", "mechanism.plan", []any{goodReq("delta", 0)}, "req.delta must be a number in (0, 1), got 0"},
		{"delta 1", "mechanism.plan", []any{goodReq("delta", 1)}, "req.delta must be a number in (0, 1), got 1"},
		{"delta negative", "mechanism.plan", []any{goodReq("delta", -0.5)}, "req.delta must be a number in (0, 1)"},
		{"delta Inf", "mechanism.plan", []any{goodReq("delta", jsInf)}, "req.delta must be a number in (0, 1), got +Inf"},
		{"delta ≥ 1/n", "mechanism.plan", []any{goodReq("delta", 0.5)}, "delta must be below 1/n = 0.3333 for n = 3 rows, since a δ ≥ 1/n permits publishing one row outright"},
		{"fixedWork string", "mechanism.plan", []any{goodReq("fixedWork", "yes")}, `req.fixedWork must be a boolean (true or false), got string "yes"`},
		{"fixedWork false", "mechanism.plan", []any{goodReq("fixedWork", false)}, ""},
		{"radius 0", "mechanism.plan", []any{goodReq("radius", 0)}, "req.radius must be a finite number > 0, got 0"},
		{"radius null", "mechanism.plan", []any{goodReq("radius", js.Null())}, "req.radius must be a finite number > 0, got null"}, // absent: DefaultRadius (api_test.go)
		{"radius bool", "mechanism.plan", []any{goodReq("radius", true)}, "req.radius must be a finite number > 0, got boolean true"},
		{"rank 0", "mechanism.plan", []any{goodReq("rank", 0)}, "req.rank must be an integer in [1, 2], got 0"},
		{"rank too big", "mechanism.plan", []any{goodReq("rank", 3)}, "req.rank must be an integer in [1, 2], got 3"},
		{"rank fractional", "mechanism.plan", []any{goodReq("rank", 1.5)}, "req.rank must be an integer in [1, 2], got 1.5"},
		{"clip negative", "mechanism.plan", []any{goodReq("clip", -1)}, "req.clip must be a finite number > 0"},
		{"tau 1", "mechanism.plan", []any{goodReq("tau", 1)}, "req.tau must be a number in (0, 1), got 1"},
		{"huber 0", "mechanism.plan", []any{goodReq("huber", 0)}, "req.huber must be a finite number > 0"},
		{"samples 0", "mechanism.plan", []any{goodReq("samples", 0)}, "req.samples must be an integer in [1, 10000], got 0"},
		{"samples huge", "mechanism.plan", []any{goodReq("samples", 1e9)}, "req.samples must be an integer in [1, 10000]"},
		{"sampler unknown", "mechanism.plan", []any{goodReq("sampler", "mcmc")}, `req.sampler must be one of "auto", "proximal", "smooth", "exact", got "mcmc"`},
		{"sampler null", "mechanism.plan", []any{goodReq("sampler", nil)}, ""}, // deleting an optional field is fine
		{"method unknown", "mechanism.plan", []any{goodReq("method", "sgd")}, `req.method must be one of "exponential", "dp-gd", "dp-gd-projected", got "sgd"`},
		{"method dp-gd for l1", "mechanism.plan", []any{goodReq("method", "dp-gd")}, "method must be"},
		// interval: the level, and a request that allows intervals (dp-gd on a smooth loss, one sample)
		{"interval 0", "mechanism.plan", []any{gdReq("interval", 0)}, "req.interval must be a level in (0, 1), such as 0.95, got 0"},
		{"interval 1", "mechanism.plan", []any{gdReq("interval", 1)}, "req.interval must be a level in (0, 1), such as 0.95, got 1"},
		{"interval percent string", "mechanism.plan", []any{gdReq("interval", "95 %")}, `req.interval must be a level in (0, 1), such as 0.95, got string "95 %"`},
		{"interval NaN", "mechanism.plan", []any{gdReq("interval", jsNaN)}, "req.interval must be a level in (0, 1), such as 0.95, got NaN"},
		{"interval negative", "mechanism.plan", []any{gdReq("interval", -0.95)}, "req.interval must be a level in (0, 1), such as 0.95, got -0.95"},
		{"interval 95", "mechanism.plan", []any{gdReq("interval", 95)}, "req.interval must be a level in (0, 1), such as 0.95, got 95"},
		{"interval Inf", "mechanism.plan", []any{gdReq("interval", jsInf)}, "req.interval must be a level in (0, 1), such as 0.95, got +Inf"},
		{"interval null", "mechanism.plan", []any{gdReq("interval", js.Null())}, "req.interval must be a level in (0, 1), such as 0.95, got null"},
		{"interval true", "mechanism.plan", []any{gdReq("interval", true)}, "req.interval must be a level in (0, 1), such as 0.95, got boolean true"},
		{"interval exponential", "mechanism.plan", []any{gdReq("interval", 0.95, "method", "exponential")}, `interval must be absent for method`},
		{"interval no method", "mechanism.plan", []any{gdReq("interval", 0.95, "method", nil)}, `interval must be absent for method`},
		{"interval projected", "mechanism.plan", []any{gdReq("interval", 0.95, "method", "dp-gd-projected")}, `interval must be absent for method`},
		{"interval hinge", "mechanism.plan", []any{gdReq("interval", 0.95, "loss", "hinge")}, `interval must be absent for the "hinge" loss`},
		{"interval samples", "mechanism.plan", []any{gdReq("interval", 0.95, "samples", 2)}, "interval must be absent when samples > 1"},
		{"interval 0.95", "mechanism.plan", []any{gdReq("interval", 0.95)}, ""},
		{"etaRule unknown", "mechanism.plan", []any{goodReq("etaRule", "best")}, `req.etaRule must be one of "optimal", "paper"`},
		{"mode unknown", "mechanism.plan", []any{goodReq("mode", "fast")}, `req.mode must be one of "auto", "full", "stochastic"`},
		{"seed negative", "mechanism.plan", []any{goodReq("seed", -1)}, "req.seed must be an integer in [0, 9007199254740992], got -1"},
		{"seed string", "mechanism.plan", []any{goodReq("seed", "7")}, `req.seed must be an integer`},
		{"y for location", "mechanism.plan", []any{goodReq("y", arr(1, 2, 3))}, "y must be"},
		{"y missing supervised", "mechanism.plan", []any{supReq("y", nil)}, "y must be"},
		{"y wrong length", "mechanism.plan", []any{supReq("y", arr(1, -1))}, "req.y must be of length 3, got length 2"},
		{"y null hole", "mechanism.plan", []any{supReq("y", arr(1, nil, -1))}, "req.y[1] must be a finite number, got null"},
		{"y label range", "mechanism.plan", []any{supReq("y", arr(1, 2, -1))}, "y[1] must be"},
		{"y string", "mechanism.plan", []any{supReq("y", "1,-1,1")}, "req.y must be an array of numbers"},
		{"exact for logistic d=2", "mechanism.plan", []any{supReq("x", arr(arr(0.1, 0.2), arr(0.3, 0.1), arr(0.2, 0.2)))}, "sampler must be"},
		{"opts not object", "mechanism.sample", []any{goodReq(), 5}, "opts must be an object, got 5"},
		{"onProgress not fn", "mechanism.sample", []any{goodReq(), obj("onProgress", 3)}, "opts.onProgress must be a function, got 3"},
		{"signal not signal", "mechanism.sample", []any{goodReq(), obj("signal", "stop")}, `opts.signal must be an AbortSignal, got string "stop"`},
		{"opts unknown", "mechanism.sample", []any{goodReq(), obj("progress", 1)}, "opts.progress must be a known field"},
		// fingerprint
		{"code no opts", "fingerprint.code", []any{}, "opts must be an object, got undefined"},
		{"code n 1", "fingerprint.code", []any{obj("n", 1, "xi", 0.1)}, "opts.n must be an integer in [2, 1048576], got 1"},
		{"code n fractional", "fingerprint.code", []any{obj("n", 2.5, "xi", 0.1)}, "opts.n must be an integer"},
		{"code xi 0", "fingerprint.code", []any{obj("n", 4, "xi", 0)}, "opts.xi must be a number in (0, 1), got 0"},
		{"code xi 1", "fingerprint.code", []any{obj("n", 4, "xi", 1)}, "opts.xi must be a number in (0, 1), got 1"},
		{"code mode", "fingerprint.code", []any{obj("n", 4, "xi", 0.1, "mode", "fast")}, `opts.mode must be one of "tardos", "symmetric"`},
		{"code too long", "fingerprint.code", []any{obj("n", 5000, "xi", 0.01)}, "n must be small enough"},
		{"rows bad code", "fingerprint.rows", []any{obj("n", 3)}, "code must be a Code returned by fingerprint.code"},
		{"rows unknown id", "fingerprint.rows", []any{obj("id", 99999)}, "code must be a live Code"},
		{"trace wrong length", "fingerprint.trace", []any{code, arr(0.5, 0.5)}, "output must be of length"},
		{"trace NaN", "fingerprint.trace", []any{code, js.Global().Get("Float64Array").New(code.Get("length").Int()).Call("fill", jsNaN)}, "output[0] must be a finite number, got NaN"},
		{"trace not array", "fingerprint.trace", []any{code, "0101"}, "output must be an array of numbers"},
		// lowerbound
		{"run no opts", "lowerbound.run", []any{}, "opts must be an object"},
		{"run mechanism unknown", "lowerbound.run", []any{obj("n", 4, "xi", 0.1, "mechanism", "laplace")}, `opts.mechanism must be one of "median", "exponential", "box-exponential", "gaussian", got "laplace"`},
		{"run n 1", "lowerbound.run", []any{obj("n", 1, "xi", 0.1, "mechanism", "median")}, "opts.n must be an integer in [2, 4096], got 1"},
		{"run trials 0", "lowerbound.run", []any{obj("n", 4, "xi", 0.1, "mechanism", "median", "trials", 0)}, "opts.trials must be an integer in [1, 100000], got 0"},
		{"run remove out of range", "lowerbound.run", []any{obj("n", 4, "xi", 0.1, "mechanism", "median", "remove", 4)}, "opts.remove must be an integer in [0, 3], got 4"},
		{"run epsilon string", "lowerbound.run", []any{obj("n", 4, "xi", 0.1, "mechanism", "exponential", "epsilon", "1")}, `opts.epsilon must be a finite number > 0, got string "1"`},
		{"run exponential no delta", "lowerbound.run", []any{obj("n", 4, "xi", 0.1, "mechanism", "exponential", "epsilon", 1)}, "delta must be"},
		{"run s negative", "lowerbound.run", []any{obj("n", 4, "xi", 0.1, "mechanism", "box-exponential", "s", -1)}, "opts.s must be a finite number ≥ 0, got -1"},
		{"run extra field", "lowerbound.run", []any{obj("n", 4, "xi", 0.1, "mechanism", "median", "users", 4)}, "opts.users must be a known field"},
		{"run onProgress not fn", "lowerbound.run", []any{obj("n", 4, "xi", 0.1, "mechanism", "median"), 7}, "onProgress must be an object, got 7"},
		// bounds
		{"bounds no opts", "bounds.table", []any{}, "opts must be an object"},
		{"bounds n 0", "bounds.table", []any{obj("n", 0, "d", 10, "epsilon", 1, "delta", 1e-5)}, "opts.n must be an integer"},
		{"bounds rank > d", "bounds.table", []any{obj("n", 100, "d", 10, "rank", 11, "epsilon", 1, "delta", 1e-5)}, "opts.rank must be an integer in [1, 10], got 11"},
		{"bounds G 0", "bounds.table", []any{obj("n", 100, "d", 10, "epsilon", 1, "delta", 1e-5, "G", 0)}, "opts.G must be a finite number > 0, got 0"},
		{"bounds delta string", "bounds.table", []any{obj("n", 100, "d", 10, "epsilon", 1, "delta", "small")}, `opts.delta must be a number in (0, 1), got string "small"`},
		// data
		{"csv not string", "data.parseCSV", []any{arr("a,b")}, "text must be a string of CSV, got an array"},
		{"csv empty", "data.parseCSV", []any{""}, "text must be CSV with at least one data row"},
		{"csv ragged", "data.parseCSV", []any{"a,b\n1,2\n3\n"}, "row 2 must be 2 cells like the header"},
		{"csv non-numeric", "data.parseCSV", []any{"a,b\n1,x\n"}, `row 1, column "b" must be a finite number, got "x"`},
		{"csv missing", "data.parseCSV", []any{"a,b\n1,\n2,3\n"}, "text must be free of missing cells"},
		{"csv target unknown", "data.parseCSV", []any{"a,b\n1,2\n", obj("target", "c")}, `target must be one of the columns a, b, got "c"`},
		{"csv drop bad", "data.parseCSV", []any{"a,b\n1,2\n", obj("drop", "rows")}, `opts.drop must be one of "missing", got "rows"`},
		{"demo dims not array", "demo.dimensionFree", []any{obj("dims", 8)}, "opts.dims must be a non-empty array of at most 64 integers, got 8"},
		{"demo dims fractional", "demo.dimensionFree", []any{obj("dims", arr(2, 2.5))}, "opts.dims[1] must be an integer in [1, 100000], got 2.5"},
		{"demo epsilon 0", "demo.dimensionFree", []any{obj("epsilon", 0)}, "opts.epsilon must be a finite number > 0, got 0"},
		{"demo unknown", "demo.dimensionFree", []any{obj("d", 3)}, "opts.d must be a known field"},
		{"csv target number", "data.parseCSV", []any{"a,b\n1,2\n", obj("target", 1)}, "opts.target must be a column name, got 1"},
		{"csv header bad", "data.parseCSV", []any{"a,b\n1,2\n", obj("header", "yes")}, `opts.header must be true, false or "auto", got string "yes"`},
		{"csv header ambiguous", "data.parseCSV", []any{"1,abc\n2,3\n"}, `header must be declared for this file (a header row, or none): its first row "1,abc" mixes numbers and text`},
		{"profile not string", "data.profileCSV", []any{arr("a,b")}, "text must be a string of CSV, got an array"},
		{"profile empty", "data.profileCSV", []any{""}, "text must be CSV with at least one data row"},
		{"profile header bad", "data.profileCSV", []any{"a,b\n1,2\n", obj("header", "yes")}, `opts.header must be true, false or "auto", got string "yes"`},
		{"profile opts unknown", "data.profileCSV", []any{"a,b\n1,2\n", obj("target", "b")}, "opts.target must be a known field"},
		{"profile onProgress not fn", "data.profileCSV", []any{"a,b\n1,2\n", obj(), obj("onProgress", 3)}, "run.onProgress must be a function, got 3"},
	}
	if len(cases) < 60 {
		t.Fatalf("corpus has %d cases, want ≥ 60", len(cases))
	}
	for _, c := range cases {
		_, err := await(t, call(c.fn, c.args...))
		switch {
		case c.want == "" && err != "":
			t.Errorf("%s: %s rejected a valid call: %q", c.name, c.fn, err)
		case c.want != "" && !strings.HasPrefix(err, c.want) && !strings.Contains(err, c.want):
			t.Errorf("%s: %s rejection %q, want %q", c.name, c.fn, err, c.want)
		}
		// The module keeps working after every error.
		if v, err := await(t, call("mechanism.sample", goodReq())); err != "" || v.Get("theta").Length() != 2 {
			t.Fatalf("%s: valid call afterwards failed: %q", c.name, err)
		}
	}
}

// TestFixedWorkJS (issue 21): fixedWork reaches the core (plan.fixedWork,
// default on), the diagnostics carry the TV events (failures, anchorMisses,
// overruns) and the work counters, and with fixedWork two tables of the same
// shape give the same counters.
func TestFixedWorkJS(t *testing.T) {
	lr := func(kv ...any) js.Value {
		base := []any{"loss", "logistic", "x", arr(arr(0, 0), arr(0, 0), arr(0, 0), arr(0, 0)), "y", arr(1, -1, 1, -1), "sampler", "smooth", "epsilon", 2}
		return goodReq(append(base, kv...)...)
	}
	var trials []int
	for _, req := range []js.Value{lr(), lr("x", arr(arr(1, 0), arr(0, 0), arr(0, 0), arr(0, 0))), lr("fixedWork", false)} {
		v, err := await(t, call("mechanism.sample", req))
		if err != "" {
			t.Fatal(err)
		}
		d := v.Get("diagnostics")
		for _, f := range []string{"failures", "anchorMisses", "overruns", "draws", "trials", "anchorPasses"} {
			if d.Get(f).Type() != js.TypeNumber {
				t.Errorf("diagnostics.%s is %s", f, jsio.Describe(d.Get(f)))
			}
		}
		trials = append(trials, d.Get("trials").Int())
		pl := v.Get("plan")
		if fixed := req.Get("fixedWork").IsUndefined(); pl.Get("fixedWork").Bool() != fixed || (fixed && pl.Get("trialTotal").Int() != trials[len(trials)-1]) {
			t.Errorf("plan.fixedWork %v, trialTotal %v, trials %d", pl.Get("fixedWork"), pl.Get("trialTotal"), trials[len(trials)-1])
		}
	}
	if trials[0] != trials[1] || trials[2] >= trials[0] {
		t.Errorf("trials: fixed %d and %d (want equal), adaptive %d (want fewer)", trials[0], trials[1], trials[2])
	}
}

// TestParseCSVHeaderJS: header true/false/"auto" reach dataset.Parse.
func TestParseCSVHeaderJS(t *testing.T) {
	for _, c := range []struct {
		header any
		rows   int
		first  string
	}{{true, 1, "1"}, {false, 2, "c1"}, {"auto", 0, ""}} {
		v, err := await(t, call("data.parseCSV", "1,abc\n2,3\n", obj("header", c.header, "features", arr(map[bool]string{true: "1", false: "c1"}[c.header == true]))))
		if c.rows == 0 {
			if !strings.HasPrefix(err, "header must be declared") {
				t.Errorf("header %v: %q", c.header, err)
			}
			continue
		}
		if err != "" || v.Get("x").Length() != c.rows || v.Get("allColumns").Index(0).String() != c.first || v.Get("header").Bool() != (c.header == true) {
			t.Errorf("header %v: %q rows %v", c.header, err, v)
		}
	}
}

// TestMechanismSampleJS: a valid sample through the JS API has the contract's
// fields, and a seeded result says it is not private.
func TestMechanismSampleJS(t *testing.T) {
	v, err := await(t, call("mechanism.sample", goodReq("samples", 3)))
	if err != "" {
		t.Fatal(err)
	}
	for _, f := range []string{"theta", "samples", "private", "plan", "privacy", "stats", "fit"} {
		if v.Get(f).IsUndefined() {
			t.Errorf("result lacks %q", f)
		}
	}
	if v.Get("private").Bool() || v.Get("samples").Length() != 3 || v.Get("privacy").Get("composedOver").Int() != 3 {
		t.Errorf("result: private=%v samples=%d composedOver=%v", v.Get("private").Bool(), v.Get("samples").Length(), v.Get("privacy").Get("composedOver"))
	}
	if v.Get("plan").Get("neighbours").String() != "replace-one" {
		t.Errorf("plan.neighbours = %v", v.Get("plan").Get("neighbours"))
	}
	un, err := await(t, call("mechanism.sample", goodReq("seed", nil)))
	if err != "" || !un.Get("private").Bool() {
		t.Errorf("unseeded sample: private=%v err=%q", un.Get("private"), err)
	}
}

// TestPlanWorkJS: plan.work reaches JS (passes ≤ passesMax, rowsTimesD = n·d)
// and is what a first-order sample then reports in its plan.
func TestPlanWorkJS(t *testing.T) {
	x := make([]any, 60)
	y := make([]any, 60)
	for i := range x {
		x[i] = arr(math.Sin(float64(i))/2, math.Cos(float64(3*i))/2)
		y[i] = float64(2*(i%2) - 1)
	}
	req := goodReq("loss", "logistic", "x", arr(x...), "y", arr(y...))
	pl, err := await(t, call("mechanism.plan", req))
	if err != "" {
		t.Fatal(err)
	}
	w := pl.Get("work")
	steps, k := pl.Get("steps").Float(), pl.Get("anchorMax").Float()
	// fixedWork (the default): exactly T·(K+1) anchor passes and B trials.
	if exact := steps*(k+1) + pl.Get("trialTotal").Float(); pl.Get("method").String() != "first-order" ||
		w.Get("rowsTimesD").Float() != 120 || w.Get("passes").Float() != exact || w.Get("passesMax").Float() != exact {
		t.Errorf("plan %s, work %s", js.Global().Get("JSON").Call("stringify", pl), js.Global().Get("JSON").Call("stringify", w))
	}
	adaptive := goodReq("loss", "logistic", "x", arr(x...), "y", arr(y...), "fixedWork", false)
	apl, err := await(t, call("mechanism.plan", adaptive))
	if err != "" {
		t.Fatal(err)
	}
	// Adaptive work has its own K and p_min (the worst case of the residual
	// stop; fixed work chooses K for the fewest passes).
	steps, k = apl.Get("steps").Float(), apl.Get("anchorMax").Float()
	pmin := apl.Get("acceptMin").Float()
	if aw := apl.Get("work"); math.Abs(aw.Get("passes").Float()-steps*(1+1/pmin)) > 1e-9*steps ||
		math.Abs(aw.Get("passesMax").Float()-steps*(k+1+1/pmin)) > 1e-9*steps {
		t.Errorf("fixedWork false: work %s", js.Global().Get("JSON").Call("stringify", aw))
	}
	res, err := await(t, call("mechanism.sample", req))
	if err != "" || res.Get("plan").Get("work").Get("passes").Float() != w.Get("passes").Float() {
		t.Errorf("sample: %q, plan.work %v", err, res.Get("plan").Get("work"))
	}
}

// TestWorkersFallbackJS: under node no shard worker can start, so a run with
// workers: 4 uses one worker, says so in diagnostics.note, and returns the
// one-worker θ (same seed).
func TestWorkersFallbackJS(t *testing.T) {
	x := make([]any, 1100)
	y := make([]any, 1100)
	for i := range x {
		x[i] = arr(math.Sin(float64(i))/2, math.Cos(float64(3*i))/2)
		y[i] = float64(2*(i%2) - 1)
	}
	one, err := await(t, call("mechanism.sample", goodReq("loss", "logistic", "x", arr(x...), "y", arr(y...), "epsilon", 0.3)))
	if err != "" {
		t.Fatal(err)
	}
	four, err := await(t, call("mechanism.sample", goodReq("loss", "logistic", "x", arr(x...), "y", arr(y...), "epsilon", 0.3, "workers", 4)))
	if err != "" {
		t.Fatal(err)
	}
	d := four.Get("diagnostics")
	if four.Get("plan").Get("workers").Int() != 2 || d.Get("workers").Int() != 1 || !strings.Contains(d.Get("note").String(), "could not start") {
		t.Errorf("plan.workers %v, diagnostics %s", four.Get("plan").Get("workers"), js.Global().Get("JSON").Call("stringify", d))
	}
	for j := 0; j < 2; j++ {
		if a, b := one.Get("theta").Index(j).Float(), four.Get("theta").Index(j).Float(); a != b {
			t.Errorf("θ[%d]: %v with one worker, %v after the fallback", j, a, b)
		}
	}
}
