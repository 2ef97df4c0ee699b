package mechanism

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/dpsample/dpsample/core/checks"
	"github.com/dpsample/dpsample/core/loss"
	"github.com/dpsample/dpsample/core/privacy"
	"github.com/dpsample/dpsample/core/rng"
)

// shapeCase is a request of n rows of d features, its rows drawn from r.
func shapeCase(r *rand.Rand, k loss.Kind, n, d int) Request {
	x := make([][]float64, n)
	var y []float64
	if k.Supervised() {
		y = make([]float64, n)
	}
	for i := range x {
		x[i] = make([]float64, d)
		for j := range x[i] {
			x[i][j] = 3 * r.NormFloat64()
		}
		if y != nil {
			y[i] = 2 * r.NormFloat64()
			if k.Classification() {
				y[i] = float64(2*r.IntN(2) - 1)
			}
		}
	}
	return Request{Loss: k.String(), X: x, Y: y, Epsilon: 1, Delta: 1e-6}
}

// PlanShape(req, n, d) is NewPlan(req) — the same plan or the same error —
// over every loss, the estimators, the samplers, the work modes, ranks,
// radii, declared domains and an invalid field, on rows of every kind
// (large values, clamped targets, points outside the box).
func TestPlanShape(t *testing.T) {
	r := rng.Seeded(7)
	no := false
	vary := []struct {
		name string
		edit func(*Request)
	}{
		{"default", func(*Request) {}},
		{"m=3 ε=0.5", func(q *Request) { q.Samples, q.Epsilon = 3, 0.5 }},
		{"adaptive", func(q *Request) { q.FixedWork = &no }},
		{"rank 1, radius 2", func(q *Request) { q.Rank, q.Radius = 1, 2 }},
		{"dp-gd", func(q *Request) { q.Method = EstimatorDPGD }},
		{"dp-gd-projected", func(q *Request) { q.Method = EstimatorDPGDProjected }},
		{"proximal", func(q *Request) { q.Sampler = SamplerProximal }},
		{"stochastic", func(q *Request) { q.Sampler, q.Mode = SamplerProximal, "stochastic" }},
		{"4 workers", func(q *Request) { q.Workers = 4 }},
		{"clip 2, paper η", func(q *Request) { q.Clip, q.EtaRule = 2, "paper" }},
		{"domains", func(q *Request) {
			if k, _ := loss.ParseKind(q.Loss); k.Location() {
				q.PointBox = []float64{0.5, 4}
			} else if k.Supervised() && !k.Classification() {
				q.TargetRange = []float64{-0.5, 1}
			}
		}},
		{"ε = 0 (an error)", func(q *Request) { q.Epsilon = 0 }},
		{"rank > d (an error)", func(q *Request) { q.Rank = 9 }},
		{"δ ≥ 1/n (an error)", func(q *Request) { q.Delta = 0.3 }},
	}
	cases, plans := 0, 0
	for _, name := range loss.Names() {
		k, _ := loss.ParseKind(name)
		for _, nd := range [][2]int{{2, 1}, {40, 1}, {300, 3}} {
			for _, v := range vary {
				req := shapeCase(r, k, nd[0], nd[1])
				v.edit(&req)
				want, werr := NewPlan(req)
				got, gerr := PlanShape(req, nd[0], nd[1])
				where := fmt.Sprintf("%s n=%d d=%d %s", name, nd[0], nd[1], v.name)
				if fmt.Sprint(werr) != fmt.Sprint(gerr) {
					t.Errorf("%s: NewPlan error %v, PlanShape error %v", where, werr, gerr)
					continue
				}
				if werr == nil {
					plans++
				}
				if !reflect.DeepEqual(want, got) {
					t.Errorf("%s: plans differ:\nNewPlan   %+v\nPlanShape %+v", where, want, got)
				}
				// Under a ledger with a release already charged: the same
				// check, fits or not, as PlanCharged on the rows.
				if req.Seed == nil {
					l, _ := privacy.NewLedger(1.5, 1e-5)
					l.Charge(privacy.Release{Label: "before", GDP: 0.3})
					wc, wcerr := PlanCharged(req, l)
					gc, gcerr := PlanChargedShape(req, nd[0], nd[1], l)
					if fmt.Sprint(wcerr) != fmt.Sprint(gcerr) || (wcerr == nil && (wc.Ledger.Fits != gc.Ledger.Fits || !reflect.DeepEqual(wc.Ledger.Cost, gc.Ledger.Cost))) {
						t.Errorf("%s: under a ledger, PlanCharged %+v %v, PlanChargedShape %+v %v", where, wc.Ledger, wcerr, gc.Ledger, gcerr)
					}
				}
				cases++
			}
		}
	}
	if cases < 400 || plans < 300 {
		t.Errorf("only %d cases compared, %d of them plans", cases, plans)
	}
	t.Logf("%d cases, %d plans and %d errors, alike", cases, plans, cases-plans)
}

// A deliberately broken PlanShape — one that plans its two stand-in rows
// instead of n — gives other plans: the comparison above can fail.
func TestPlanShapeBroken(t *testing.T) {
	req := shapeCase(rng.Seeded(8), loss.Logistic, 300, 3)
	want, err := NewPlan(req)
	if err != nil {
		t.Fatal(err)
	}
	stand := req
	stand.X, stand.Y = req.X[:2], req.Y[:2]
	broken, err := NewPlan(stand)
	if err == nil && reflect.DeepEqual(want, broken) {
		t.Error("the plan of 2 rows equals the plan of 300: TestPlanShape could not see a PlanShape that ignores n")
	}
}

// PlanShape refuses shapes no request has, naming the field.
func TestPlanShapeBadShape(t *testing.T) {
	req := Request{Loss: "logistic", Epsilon: 1, Delta: 1e-6}
	for _, c := range []struct {
		n, d  int
		field string
	}{{0, 3, "x"}, {-1, 3, "x"}, {10, 0, "x[0]"}, {1, 3, "x"}, {maxN + 1, 1, "x"}, {10, maxD + 1, "x[0]"}} {
		_, err := PlanShape(req, c.n, c.d)
		var ce *checks.Error
		if !errors.As(err, &ce) || ce.Field != c.field {
			t.Errorf("PlanShape(n=%d, d=%d): %v, want an error naming %q", c.n, c.d, err, c.field)
		}
	}
}
