//go:build js && wasm

package ui

import (
	"math"
	"strings"
	"testing"

	"github.com/dpsample/dpsample/core/dataset"
	"github.com/dpsample/dpsample/wasm/internal/jsio"
)

// The page's pure helpers, run under node (GOOS=js GOARCH=wasm go test
// -exec go_js_wasm_exec): no DOM is touched.

func TestCount(t *testing.T) {
	for _, tc := range []struct {
		n    int
		noun string
		want string
	}{
		{1, "row", "1 row"},
		{0, "row", "0 rows"},
		{2, "trial", "2 trials"},
		{1, "sample", "1 sample"},
		{-1, "point", "-1 point"},
		{12345, "loss evaluation", "12\u202f345 loss evaluations"},
		{1, "entry/entries", "1 entry"},
		{3, "entry/entries", "3 entries"},
		{1000000, "row", "1\u202f000\u202f000 rows"},
	} {
		if got := count(tc.n, tc.noun); got != tc.want {
			t.Errorf("count(%d, %q) = %q, want %q", tc.n, tc.noun, got, tc.want)
		}
	}
}

// TestParseNumberStrict: the page reads a field as the API would — "1,5" is
// an error (fmt.Sscanf read it as 1), and so is trailing text.
func TestParseNumberStrict(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want float64
		err  string
	}{
		{"0.5", 0.5, ""},
		{" 1e-5 ", 1e-5, ""},
		{"1,5", 0, `delta must be a number written with a decimal point (1.5, not 1,5), got "1,5"`},
		{"1.5x", 0, `delta must be a number, got "1.5x"`},
		{"", 0, `delta must be a number, got ""`},
	} {
		got, err := parseNumber("delta", tc.in)
		if tc.err != "" {
			if err == nil || err.Error() != tc.err {
				t.Errorf("parseNumber(%q) error %v, want %q", tc.in, err, tc.err)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("parseNumber(%q) = %v, %v", tc.in, got, err)
		}
	}
	if v, err := parseNumber("x", "NaN"); err != nil || !math.IsNaN(v) {
		t.Errorf("NaN is left to the field's rule: %v %v", v, err)
	}
	if _, err := parseInt("n", "1.5", 1, 100); err == nil || err.Error() != "n must be an integer in [1, 100], got 1.5" {
		t.Errorf("n = 1.5: %v", err)
	}
	if n, err := parseInt("n", "20", 1, 100); err != nil || n != 20 {
		t.Errorf("n = 20: %v %v", n, err)
	}
	if _, err := parseInt("n", "1e3", 1, 100); err == nil || !strings.Contains(err.Error(), "got 1000") {
		t.Errorf("n = 1e3 over the range: %v", err)
	}
}

// TestTimeLeft: the time left is the rate so far applied to the work left,
// said only once 2 % of the work and 1 s have passed.
func TestTimeLeft(t *testing.T) {
	for _, c := range []struct {
		elapsed, f, want float64
		ok               bool
	}{
		{10, 0.5, 10, true},
		{3, 0.25, 9, true},
		{30, 1, 0, true},
		{2, 0.01, 0, false},       // too little work done
		{0.5, 0.5, 0, false},      // too soon
		{5, math.NaN(), 0, false}, // no progress yet
	} {
		got, ok := timeLeft(c.elapsed, c.f)
		if ok != c.ok || math.Abs(got-c.want) > 1e-12 {
			t.Errorf("timeLeft(%g, %g) = %g, %v; want %g, %v", c.elapsed, c.f, got, ok, c.want, c.ok)
		}
	}
}

// TestWorkerSpeed (issue 29 item 5): the workers' speed-up is counted at
// workerGain a worker (none without shared memory, as under node) until a
// run measures it; a run then sets it to what it achieved — the seconds its
// passes would take on one worker at the estimate's pass timing over the
// seconds it took — and the estimate says which. Runs under 2 s and
// one-worker runs are not kept.
func TestWorkerSpeed(t *testing.T) {
	clear(workerSpeeds)
	defer clear(workerSpeeds)
	if s, m := workerSpeed(2); s != 1 || m {
		t.Fatalf("before any run, without shared memory: speed %v measured %v, want 1 false", s, m)
	}
	e := workEstimate{seconds: 10, passes: 100, rows: 1000, d: 4, workers: 2, speed: 1.6, nsPerRow: 3}
	e.ranFor(1.5) // too short to say anything about the workers
	if _, m := workerSpeed(2); m {
		t.Fatal("a run of 1.5 s was kept")
	}
	e.ranFor(20) // 10 s × 1.6 on one worker, done in 20 s: 0.8× one
	s, m := workerSpeed(2)
	if !m || math.Abs(s-0.8) > 1e-12 {
		t.Fatalf("after a 20 s run: speed %v measured %v, want 0.8 true", s, m)
	}
	if _, m := workerSpeed(3); m {
		t.Error("a run on 2 workers measured 3")
	}
	e.speed, e.measured = s, m
	if d := e.describe(); !strings.Contains(d, "on 2 workers (0.8× one in the last run on them)") {
		t.Errorf("describe: %q", d)
	}
	one := workEstimate{seconds: 10, workers: 1, speed: 1}
	one.ranFor(30)
	if _, ok := workerSpeeds[1]; ok {
		t.Error("a one-worker run was kept as a speed-up")
	}
}

// TestPlotStep: a figure draws every row up to plotRows, then every k-th
// with k = ⌈n/plotRows⌉ (at most plotRows dots), and its legend says so.
func TestPlotStep(t *testing.T) {
	for _, c := range []struct {
		n, step int
		name    string
	}{
		{10, 1, "your rows (not private)"},
		{5000, 1, "your rows (not private)"},
		{5001, 2, "your rows (not private; every 2nd of 5\u202f001 rows)"},
		{15000, 3, "your rows (not private; every 3rd of 15\u202f000 rows)"},
		{1000000, 200, "your rows (not private; every 200th of 1\u202f000\u202f000 rows)"},
		{56000, 12, "your rows (not private; every 12th of 56\u202f000 rows)"},
	} {
		if s := plotStep(c.n); s != c.step || (c.n+s-1)/s > plotRows {
			t.Errorf("n = %d: step %d, want %d (at most %d dots)", c.n, s, c.step, plotRows)
		}
		if got := rowsName(c.n); got != c.name {
			t.Errorf("n = %d: %q, want %q", c.n, got, c.name)
		}
	}
	for k, want := range map[int]string{2: "2nd", 3: "3rd", 4: "4th", 11: "11th", 12: "12th", 13: "13th", 21: "21st", 22: "22nd", 101: "101st", 111: "111th"} {
		if got := ordinal(k); got != want {
			t.Errorf("ordinal(%d) = %q, want %q", k, got, want)
		}
	}
}

// TestRemoteParseError: a missing-cells error from the worker (its message:
// dataset.MissingCells.Error) reads as the same error parsed here does —
// naming the checkbox and the rows —, other errors keep their message.
func TestRemoteParseError(t *testing.T) {
	mc := &dataset.MissingCells{Rows: []int{3, 7}}
	got := remoteParseError(&jsio.Rejection{Message: mc.Error(), Name: "Error"}).Error()
	if !strings.Contains(got, "they are in rows 3, 7;") || !strings.Contains(got, "tick “drop rows with missing cells”") {
		t.Errorf("missing cells from the worker: %q", got)
	}
	if got := remoteParseError(&jsio.Rejection{Message: `row 4, column "a" must be a number`}).Error(); got != `row 4, column "a" must be a number` {
		t.Errorf("other error: %q", got)
	}
}

// TestScaleInPieces: a table scaled a piece of rowsPiece rows at a time is
// the table Scale gives in one go — the same cells and clamped count — and
// a missing range is the same error; withIntercept adds a column of ones
// to a copy; plottedOf copies every plotStep-th row.
func TestScaleInPieces(t *testing.T) {
	n := 2*rowsPiece + 77
	mk := func() *dataset.Table {
		tab := &dataset.Table{Columns: []string{"a", "b"}, X: make([][]float64, n)}
		for i := range tab.X {
			tab.X[i] = []float64{math.Sin(float64(i)) * 12, float64(i%7) - 3}
		}
		return tab
	}
	ranges := map[string]dataset.Range{"a": {Lo: -10, Hi: 10}, "b": {Lo: -2, Hi: 3}}
	whole, pieces := mk(), mk()
	if err := whole.Scale(ranges); err != nil {
		t.Fatal(err)
	}
	if err := scaleInPieces(pieces, ranges); err != nil {
		t.Fatal(err)
	}
	if whole.Clamped == 0 || pieces.Clamped != whole.Clamped {
		t.Errorf("clamped %d in pieces, %d whole", pieces.Clamped, whole.Clamped)
	}
	for i := range whole.X {
		if whole.X[i][0] != pieces.X[i][0] || whole.X[i][1] != pieces.X[i][1] {
			t.Fatalf("row %d: %v in pieces, %v whole", i, pieces.X[i], whole.X[i])
		}
	}
	err := scaleInPieces(mk(), map[string]dataset.Range{"a": {Lo: -1, Hi: 1}})
	if want := mk().Scale(map[string]dataset.Range{"a": {Lo: -1, Hi: 1}}); err == nil || err.Error() != want.Error() {
		t.Errorf("missing range: %v, want %v", err, want)
	}
	x := withIntercept(pieces.X)
	if len(x) != n || len(x[n-1]) != 3 || x[n-1][2] != 1 || x[n-1][0] != pieces.X[n-1][0] || cap(x[0]) != 3 {
		t.Errorf("withIntercept: last row %v (cap %d), from %v", x[n-1], cap(x[0]), pieces.X[n-1])
	}
	p := plottedOf(mk().X)
	if p.n != n || p.step != plotStep(n) || len(p.rows) != (n+p.step-1)/p.step || p.rows[1][0] != mk().X[p.step][0] {
		t.Errorf("plottedOf: n %d, step %d, %d rows", p.n, p.step, len(p.rows))
	}
}
