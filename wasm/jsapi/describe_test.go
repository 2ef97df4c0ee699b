//go:build js && wasm

package jsapi

import (
	"math"
	"strings"
	"syscall/js"
	"testing"

	"github.com/dpsample/dpsample/core/privacy"
)

// describeRows is 300 rows of three columns at very different scales: a
// count, a price at 1e6, and a negative-only column.
func describeRows() js.Value {
	rows := make([]any, 300)
	for i := range rows {
		rows[i] = arr(float64(i%40), 1e6+float64(i%17)*1e4, -float64(i%9)-1)
	}
	return arr(rows...)
}

// TestDescribe: columns with finite lo < hi and ordered quartiles, the plan
// and guarantee, a seed marked not private, and under a ledger the charge of
// exactly s = calibrate(ε, δ) (refused naming the ledger when it does not
// fit, with the ledger unchanged).
func TestDescribe(t *testing.T) {
	res := mustOK(t, "describe", obj("x", describeRows(), "epsilon", 1, "delta", 1e-6, "seed", 3))
	cols := res.Get("columns")
	if cols.Length() != 3 || res.Get("privacy").Get("private").Bool() || !strings.Contains(res.Get("privacy").Get("note").String(), "NOT private") {
		t.Fatalf("describe: %s", js.Global().Get("JSON").Call("stringify", res).String())
	}
	for j := 0; j < 3; j++ {
		c := cols.Index(j)
		lo, hi, q1, m, q3 := c.Get("lo").Float(), c.Get("hi").Float(), c.Get("q1").Float(), c.Get("median").Float(), c.Get("q3").Float()
		if qs := c.Get("quartileStep").Float(); !(lo < hi) || math.IsInf(lo, 0) || math.IsInf(hi, 0) || !(lo <= q1 && q1 <= m && m <= q3 && q3 <= hi) || c.Get("resolution").Type() != js.TypeString || !(qs > 0) || math.IsInf(qs, 0) ||
			c.Get("quartiles").String() != "linear" && c.Get("quartiles").String() != "magnitude" {
			t.Errorf("column %d: %s", j, js.Global().Get("JSON").Call("stringify", c).String())
		}
	}
	s, _ := privacy.Calibrate(1, 1e-6)
	if res.Get("plan").Get("gdp").Float() != s || res.Get("privacy").Get("gdp").Float() != s {
		t.Errorf("gdp %v, want %v", res.Get("plan").Get("gdp"), s)
	}

	mustOK(t, "ledger.open", obj("key", "describe-t1", "epsilon", 3, "delta", 1e-5))
	var got []string
	onLedger := js.FuncOf(func(_ js.Value, a []js.Value) any {
		got = append(got, a[0].Get("key").String())
		return nil
	})
	defer onLedger.Release()
	res = mustOK(t, "describe", obj("x", describeRows(), "epsilon", 1, "delta", 1e-6), obj("ledger", "describe-t1", "onLedger", onLedger))
	st := res.Get("privacy").Get("ledger")
	if !res.Get("privacy").Get("private").Bool() || st.Get("spent").Get("releases").Int() != 1 || math.Abs(st.Get("spent").Get("gdp").Float()-s) > 1e-12 ||
		st.Get("history").Index(0).Get("tv").Float() != 0 || len(got) != 1 || got[0] != "describe-t1" {
		t.Fatalf("charged: %s, onLedger %v", js.Global().Get("JSON").Call("stringify", st).String(), got)
	}
	// Over budget: refused naming the ledger, nothing charged.
	if _, err := await(t, call("describe", obj("x", describeRows(), "epsilon", 40, "delta", 1e-6), obj("ledger", "describe-t1"))); !strings.HasPrefix(err, "ledger") {
		t.Errorf("over budget: %q", err)
	}
	if n := mustOK(t, "ledger.get", "describe-t1").Get("spent").Get("releases").Int(); n != 1 {
		t.Errorf("a refused describe was charged: %d releases", n)
	}
	// A seed under a ledger is refused.
	if _, err := await(t, call("describe", obj("x", describeRows(), "epsilon", 1, "delta", 1e-6, "seed", 1), obj("ledger", "describe-t1"))); !strings.HasPrefix(err, "req.seed must be absent under a ledger") {
		t.Errorf("seed under a ledger: %q", err)
	}
}

// TestDescribeBadInput: every bad input rejects naming its field, and the
// module keeps working.
func TestDescribeBadInput(t *testing.T) {
	good := func(kv ...any) js.Value {
		base := []any{"x", arr(arr(1, 2), arr(3, 4), arr(5, 6)), "epsilon", 1, "delta", 1e-3}
		o := obj(base...)
		for i := 0; i+1 < len(kv); i += 2 {
			o.Set(kv[i].(string), kv[i+1])
		}
		return o
	}
	for _, c := range []struct {
		req, opts js.Value
		want      string
	}{
		{js.Undefined(), js.Undefined(), "req must be an object"},
		{good("x", "rows"), js.Undefined(), "req.x must be an array of rows"},
		{good("x", arr()), js.Undefined(), "req.x must be a non-empty array of rows"},
		{good("x", arr(arr(1, 2), arr(3))), js.Undefined(), "req.x[1] must"},
		{good("x", arr(arr(1, 2), arr(math.NaN(), 3))), js.Undefined(), "req.x[1][0] must be a finite number"},
		{good("x", arr(arr(1, math.Inf(1)))), js.Undefined(), "req.x[0][1] must be a finite number"},
		{good("epsilon", 0), js.Undefined(), "req.epsilon must be a finite number > 0"},
		{good("epsilon", "1"), js.Undefined(), "req.epsilon must be"},
		{good("delta", 1), js.Undefined(), "req.delta must be a number in (0, 1)"},
		{good("delta", 0.5), js.Undefined(), "delta must be below 1/n = 0.3333"},
		{good("target", 1), js.Undefined(), "req.target must be a known field"},
		{good(), obj("ledgr", "k"), "opts.ledgr must be a known field"},
		{good(), obj("ledger", 5), "opts.ledger must be a non-empty string"},
		{good(), obj("ledger", "no-such-table"), "opts.ledger"},
	} {
		if _, err := await(t, call("describe", c.req, c.opts)); !strings.HasPrefix(err, c.want) {
			t.Errorf("describe(%s): %q; want a rejection starting %q", js.Global().Get("JSON").Call("stringify", c.req).String(), err, c.want)
		}
	}
	mustOK(t, "describe", good())
}

// describeCSV is a 1,200-row CSV with a text column of three labels, a
// numeric one, a 0/1 one and an ID column.
func describeCSV() string {
	var b strings.Builder
	b.WriteString("island,mass,flag,id\n")
	for i := 0; i < 1200; i++ {
		isl := []string{"Biscoe", "Dream", "Torgersen"}[i%3]
		b.WriteString(isl + "," + strings.Repeat("1", 1+i%3) + "00," + []string{"0", "1"}[i%2] + ",row" + strings.Repeat("x", i%5) + string(rune('a'+i%26)) + string(rune('a'+i/26%26)) + "\n")
	}
	return b.String()
}

// TestDescribeCSV (issue 42 item 2): describe({csv}) names every column,
// finds the text column's categories and the numbers' ranges in one charge
// (gdp at δ/2 and a stated TV), releases nothing of an ID column, and
// rejects bad input naming the field before anything is charged.
func TestDescribeCSV(t *testing.T) {
	// What is found: seeded (reproducible, not private), so the test is too.
	res := mustOK(t, "describe", obj("csv", describeCSV(), "epsilon", 1, "delta", 1e-5, "seed", 7))
	cols := res.Get("columns")
	js1 := func(v js.Value) string { return js.Global().Get("JSON").Call("stringify", v).String() }
	if cols.Length() != 4 || cols.Index(0).Get("name").String() != "island" || cols.Index(0).Get("kind").String() != "text" ||
		cols.Index(0).Get("categories").Length() != 3 || cols.Index(0).Get("other").Bool() {
		t.Fatalf("columns: %s", js1(cols))
	}
	if m := cols.Index(1); m.Get("kind").String() != "numeric" || !(m.Get("lo").Float() <= 100 && m.Get("hi").Float() >= 111) {
		t.Errorf("mass: %s", js1(m))
	}
	if c := cols.Index(3); c.Get("categories").Length() != 0 {
		t.Errorf("the ID column released categories: %s", js1(c))
	}
	// What it costs: under a ledger (no seed), one charge of gdp at δ/2 with its tv.
	mustOK(t, "ledger.open", obj("key", "describe-csv", "epsilon", 3, "delta", 1e-5))
	res = mustOK(t, "describe", obj("csv", describeCSV(), "epsilon", 1, "delta", 1e-5), obj("ledger", "describe-csv"))
	st := res.Get("privacy").Get("ledger")
	s, _ := privacy.Calibrate(1, 0.5e-5)
	if st.Get("spent").Get("releases").Int() != 1 || math.Abs(st.Get("spent").Get("gdp").Float()-s) > 1e-12 || !(st.Get("history").Index(0).Get("tv").Float() > 0) ||
		res.Get("privacy").Get("tv").Float() != st.Get("history").Index(0).Get("tv").Float() {
		t.Errorf("charge: %s", js1(res.Get("privacy")))
	}
	for _, c := range []struct {
		req  js.Value
		want string
	}{
		{obj("csv", 5, "epsilon", 1, "delta", 1e-5), "req.csv must be a string of CSV"},
		{obj("csv", "a,b\n1,2\n", "x", arr(arr(1)), "epsilon", 1, "delta", 1e-5), "req.csv must be left out beside req.x"},
		{obj("csv", "a,b\n1,2\n3\n", "epsilon", 1, "delta", 1e-5), "row 2 must"},
		{obj("csv", describeCSV(), "epsilon", -1, "delta", 1e-5), "req.epsilon must"},
		{obj("csv", describeCSV(), "epsilon", 1, "delta", 1e-5, "header", "yes"), "opts.header must"},
		{obj("x", arr(arr(1)), "epsilon", 1, "delta", 1e-5, "header", true), "req.header must be given only with req.csv"},
	} {
		if _, err := await(t, call("describe", c.req, obj("ledger", "describe-csv"))); !strings.HasPrefix(err, c.want) {
			t.Errorf("describe(%s): %q; want %q", js1(c.req), err, c.want)
		}
	}
	if n := mustOK(t, "ledger.get", "describe-csv").Get("spent").Get("releases").Int(); n != 1 {
		t.Errorf("a rejected describe was charged: %d releases", n)
	}
}

// TestParseCSVCategories (issue 42 item 3): declared categories one-hot code
// a text feature as name=label columns; an empty list rejects naming
// categories.
func TestParseCSVCategories(t *testing.T) {
	res := mustOK(t, "data.parseCSV", describeCSV(), obj("features", arr("island", "mass"), "categories", obj("island", arr("Dream", "Biscoe"))))
	cols := res.Get("columns")
	if cols.Length() != 3 || cols.Index(0).String() != "island=Dream" || cols.Index(1).String() != "island=Biscoe" || cols.Index(2).String() != "mass" {
		t.Fatalf("columns %s", js.Global().Get("JSON").Call("stringify", cols).String())
	}
	x := res.Get("x")
	if r := x.Index(0); r.Index(0).Float() != 0 || r.Index(1).Float() != 1 { // Biscoe
		t.Errorf("row 0: %v %v", r.Index(0), r.Index(1))
	}
	if r := x.Index(2); r.Index(0).Float() != 0 || r.Index(1).Float() != 0 { // Torgersen: not listed, all zeros
		t.Errorf("row 2: %v %v", r.Index(0), r.Index(1))
	}
	for _, c := range []struct {
		opts js.Value
		want string
	}{
		{obj("categories", obj("island", arr())), "categories.island must be a non-empty list"},
		{obj("categories", arr()), "opts.categories must be an object"},
		{obj("categories", obj("island", "Dream")), "opts.categories.island must be an array of labels"},
		{obj("categories", obj("island", arr(1))), "opts.categories.island must be an array of labels (strings)"},
	} {
		if _, err := await(t, call("data.parseCSV", describeCSV(), c.opts)); !strings.HasPrefix(err, c.want) {
			t.Errorf("parseCSV %s: %q; want %q", js.Global().Get("JSON").Call("stringify", c.opts).String(), err, c.want)
		}
	}
}

// TestTradeoffAPI (issue 44 item 1): privacy.tradeoff and privacy.catch
// resolve to core/privacy's values and reject bad input naming the field.
func TestTradeoffAPI(t *testing.T) {
	want, _ := privacy.Tradeoff(0.5, 0.05)
	if got := mustOK(t, "privacy.tradeoff", 0.5, 0.05).Float(); got != want {
		t.Errorf("tradeoff %v, want %v", got, want)
	}
	wantC, _ := privacy.Catch(0.5, 0.05, 1e-3)
	if got := mustOK(t, "privacy.catch", 0.5, 0.05, 1e-3).Float(); got != wantC {
		t.Errorf("catch %v, want %v", got, wantC)
	}
	if got := mustOK(t, "privacy.catch", 0.5, 0.05).Float(); math.Abs(got-(1-want)) > 1e-15 {
		t.Errorf("catch without tv %v, want 1 − T = %v", got, 1-want)
	}
	for _, c := range []struct {
		fn   string
		args []any
		want string
	}{
		{"privacy.tradeoff", []any{-1, 0.05}, "gdp must be"},
		{"privacy.tradeoff", []any{"1", 0.05}, "gdp must be a finite number"},
		{"privacy.tradeoff", []any{1, 0}, "alpha must be"},
		{"privacy.tradeoff", []any{1}, "alpha must be a finite number, got undefined"},
		{"privacy.catch", []any{1, 0.05, 2}, "tv must be"},
		{"privacy.catch", []any{1, 0.05, "x"}, "tv must be a finite number"},
	} {
		if _, err := await(t, call(c.fn, c.args...)); !strings.HasPrefix(err, c.want) {
			t.Errorf("%s%v: %q; want %q", c.fn, c.args, err, c.want)
		}
	}
}
