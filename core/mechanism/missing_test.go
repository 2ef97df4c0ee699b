package mechanism

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/dpsample/dpsample/core/dataset"
	"github.com/dpsample/dpsample/core/loss"
)

// Missing cells (issue 51 item 1): the page's pipeline — parse with missing
// "fill", scale by declared ranges (a missing number becomes the range's
// middle, 0), add the intercept, zero the rows whose target is missing — and
// what the mechanism makes of it.

// missingTable is a generated table of 60 rows: two numbers, a text column
// and a numeric target y and a label target c.
func missingTable() string {
	var b strings.Builder
	b.WriteString("a,b,site,y,c\n")
	for i := range 60 {
		fmt.Fprintf(&b, "%d,%.1f,%s,%d,%s\n", i%11, float64(i%7)/2, []string{"north", "south", "east"}[i%3], 3*(i%5)+i%11, []string{"yes", "no"}[i%2])
	}
	return b.String()
}

// emptyCell returns text with the cell of data row `row` (1-based) and
// column col emptied.
func emptyCell(text string, row, col int) string {
	lines := strings.Split(text, "\n")
	cells := strings.Split(lines[row], ",")
	cells[col] = ""
	lines[row] = strings.Join(cells, ",")
	return strings.Join(lines, "\n")
}

// pagePipeline turns CSV text into a request the page's way under opt:
// Scale by the declared ranges, an intercept column, and (supervised) the
// target scaled and the rows without a target zeroed.
func pagePipeline(t *testing.T, text string, l string, opt dataset.Options) Request {
	t.Helper()
	k, _ := loss.ParseKind(l)
	opt.Categories = map[string][]string{"site": {"north", "south", "east"}}
	opt.Reference = map[string]string{"site": "north"}
	opt.Features = []string{"a", "b", "site"}
	switch {
	case k.Classification():
		opt.Target, opt.Positive = "c", "yes"
	case k.Supervised():
		opt.Target, opt.TargetType = "y", dataset.TargetNumeric
	}
	tab, err := dataset.Parse(text, opt)
	if err != nil {
		t.Fatal(err)
	}
	ranges := map[string]dataset.Range{"a": {Lo: 0, Hi: 10}, "b": {Lo: 0, Hi: 4}}
	for _, c := range tab.Columns {
		if strings.HasPrefix(c, "site=") {
			ranges[c] = dataset.Range{Lo: -1, Hi: 1}
		}
	}
	if err := tab.Scale(ranges); err != nil {
		t.Fatal(err)
	}
	req := Request{Loss: l, X: tab.X, Epsilon: 1, Delta: 1e-5, Radius: 2, Seed: seed(3)}
	if !k.Supervised() {
		return req
	}
	x := make([][]float64, len(tab.X))
	for i, r := range tab.X {
		x[i] = append(slices.Clone(r), 1)
	}
	y, y0 := tab.Y, -1.0
	if !k.Classification() {
		yr := dataset.Range{Lo: 0, Hi: 30}
		y = make([]float64, len(tab.Y))
		for i, v := range tab.Y {
			y[i] = yr.ToScaled(v)
		}
		y0 = 0
		req.TargetRange = []float64{-1, 1}
	}
	if _, err := dataset.ZeroMissingTargets(x, y, y0); err != nil {
		t.Fatal(err)
	}
	req.X, req.Y = x, y
	return req
}

// TestMissingCellNeighbourSamePlan (failing-first: with drop: "missing",
// main's only policy for a file with empty cells, the plan's n was 60 and
// 59): a table and its neighbour with one cell emptied — a number, a text
// cell, the target — release the same n and the same plan for every kind of
// loss, and the neighbour samples (its rows are valid records).
func TestMissingCellNeighbourSamePlan(t *testing.T) {
	d := missingTable()
	for _, l := range []string{"logistic", "hinge", "huber", "lad", "l2dist"} {
		k, _ := loss.ParseKind(l)
		cols := map[string]int{"number": 0, "text": 2}
		if k.Classification() {
			cols["target"] = 4
		} else if k.Supervised() {
			cols["target"] = 3
		}
		for what, col := range cols {
			d2 := emptyCell(d, 17, col)
			for _, pol := range []dataset.Options{{Missing: dataset.MissingFill}, {Drop: "missing"}} {
				r1, r2 := pagePipeline(t, d, l, pol), pagePipeline(t, d2, l, pol)
				p1, err1 := NewPlan(r1)
				p2, err2 := NewPlan(r2)
				if err1 != nil || err2 != nil {
					t.Fatalf("%s, %s emptied: %v, %v", l, what, err1, err2)
				}
				j1, _ := json.Marshal(p1)
				j2, _ := json.Marshal(p2)
				fill := pol.Missing == dataset.MissingFill
				if same := string(j1) == string(j2); same != fill {
					t.Errorf("%s, %s cell emptied, policy %+v: n %d and %d, same plan %v", l, what, pol, p1.N, p2.N, same)
				}
				if fill && p2.N != 60 {
					t.Errorf("%s: n = %d, want the file's 60 rows", l, p2.N)
				}
				if fill && what == "target" {
					if _, err := Sample(context.Background(), r2, nil); err != nil {
						t.Errorf("%s: the neighbour does not sample: %v", l, err)
					}
				}
			}
		}
	}
}

// TestZeroRowIsConstant: the argument of dataset.ZeroMissingTargets, loss by
// loss — a row a = 0 with a valid target has a loss ℓ(0, y0) that does not
// depend on θ, a zero subgradient and (smooth losses) a zero gradient and
// Bregman term, so it adds nothing to Algorithm 1's density, the
// first-order sampler's terms or DP-GD's steps.
func TestZeroRowIsConstant(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, k := range []loss.Kind{loss.LAD, loss.Quantile, loss.Hinge, loss.Logistic, loss.Huber, loss.SmoothHinge, loss.SmoothQuantile} {
		y0 := 0.0
		if k.Classification() {
			y0 = -1
		}
		set, err := loss.New(k, [][]float64{{0, 0, 0, 0}}, []float64{y0}, loss.Params{Clip: 2, Tau: 0.3})
		if err != nil {
			t.Fatal(err)
		}
		theta := make([]float64, 4)
		c := set.Mean(theta)
		g := make([]float64, 4)
		for range 50 {
			for j := range theta {
				theta[j] = 10 * r.NormFloat64()
			}
			if v := set.Mean(theta); v != c {
				t.Fatalf("%v: ℓ(0, y0) = %v at θ = %v, %v at 0", k, v, theta, c)
			}
			set.Subgradient(theta, g)
			if slices.ContainsFunc(g, func(v float64) bool { return v != 0 }) {
				t.Fatalf("%v: subgradient %v", k, g)
			}
			if _, smooth := set.Smooth(); smooth {
				lin := make([]float64, 3)
				set.Linearize(theta, g, lin)
				if slices.ContainsFunc(g, func(v float64) bool { return v != 0 }) {
					t.Fatalf("%v: gradient %v", k, g)
				}
				x := make([]float64, 4)
				for j := range x {
					x[j] = r.NormFloat64()
				}
				if b := set.Bregman(x, lin); b != 0 {
					t.Fatalf("%v: Bregman term %v", k, b)
				}
			}
		}
	}
}

// TestComparisonsLeaveOutZeroRows (failing-first: on main the zero rows
// counted, −1 labels predicted by a score of 0): the owner's comparisons
// — the trivial answer and the fit's accuracy — are those of the rows with
// a target; a row zeroed for a missing target (or a NaN target in units)
// is no data row.
func TestComparisonsLeaveOutZeroRows(t *testing.T) {
	x := [][]float64{{1, 1}, {2, 1}, {-1, 1}, {-2, 1}, {3, 1}}
	y := []float64{1, 1, -1, 1, 1}
	theta := []float64{1, -0.5}
	xz := append(slices.Clone(x), []float64{0, 0}, []float64{0, 0}, []float64{0, 0})
	yz := append(slices.Clone(y), -1, -1, -1)
	want, got := CompareClassifier(x, y, theta), CompareClassifier(xz, yz, theta)
	if want != got || got.Rows != 5 {
		t.Errorf("classifier with zero rows %+v, without %+v", got, want)
	}
	yu := []float64{10, 12, 14, 100, 16}
	yuz := append(slices.Clone(yu), math.NaN(), 13, math.NaN())
	toUnits := func(s float64) float64 { return 10 + 5*s }
	wr, gr := CompareRegression(x, yu, theta, toUnits), CompareRegression(xz, yuz, theta, toUnits)
	if wr != gr || gr.Rows != 5 {
		t.Errorf("regression with zero rows %+v, without %+v", gr, wr)
	}
	s1, _ := loss.New(loss.Logistic, x, y, loss.Params{Clip: 2})
	s2, _ := loss.New(loss.Logistic, xz, yz, loss.Params{Clip: 2})
	if a, b := s1.Accuracy(theta), s2.Accuracy(theta); a != b {
		t.Errorf("fit accuracy %v with zero rows, %v without", b, a)
	}
}
