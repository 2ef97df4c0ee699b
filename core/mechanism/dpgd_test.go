package mechanism

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/dpsample/dpsample/core/dpgd"
	"github.com/dpsample/dpsample/core/loss"
	"github.com/dpsample/dpsample/core/privacy"
	"github.com/dpsample/dpsample/core/rng"
)

func dpgdData() ([][]float64, []float64) {
	r := rng.Seeded(3)
	var x [][]float64
	var y []float64
	for i := 0; i < 200; i++ {
		a, b := 2*r.Float64()-1, 2*r.Float64()-1
		x = append(x, []float64{a, b, 1})
		if a+0.5*b+0.3*r.NormFloat64() > 0 {
			y = append(y, 1)
		} else {
			y = append(y, -1)
		}
	}
	return x, y
}

// TestDPGDPlanLedgerFields: a dp-gd plan carries its GDP per release, the
// composed GDP and TV = 0 in the same fields as Algorithm 1's, and the whole
// δ on the curve, so a ledger charges both alike; δ_{gdpTotal}(ε) ≤ δ.
func TestDPGDPlanLedgerFields(t *testing.T) {
	x, y := dpgdData()
	for _, m := range []int{1, 4} {
		for _, method := range []Estimator{EstimatorDPGD, EstimatorDPGDProjected} {
			pl, err := NewPlan(Request{Loss: "logistic", X: x, Y: y, Epsilon: 1, Delta: 1e-5, Radius: 2, Samples: m, Method: method, Clip: math.Sqrt(3)})
			if err != nil {
				t.Fatal(err)
			}
			s, _ := privacy.Calibrate(1, 1e-5)
			if pl.Estimator != method || pl.Method != string(method) || pl.Schedule == nil || pl.Schedule.Projected != (method == EstimatorDPGDProjected) {
				t.Errorf("%s: estimator %q method %q schedule %+v", method, pl.Estimator, pl.Method, pl.Schedule)
			}
			if math.Abs(pl.GDPTotal-s) > 1e-12 || math.Abs(pl.GDP-s/math.Sqrt(float64(m))) > 1e-12 || pl.TV != 0 || pl.DeltaSampler != 0 || pl.DeltaCurve != 1e-5 {
				t.Errorf("%s m=%d: gdp %v gdpTotal %v (s = %v) tv %v deltaSampler %v", method, m, pl.GDP, pl.GDPTotal, s, pl.TV, pl.DeltaSampler)
			}
			if dl, _ := privacy.Delta(pl.GDPTotal, 1); dl > 1e-5*(1+1e-9) {
				t.Errorf("δ = %v", dl)
			}
			if !strings.Contains(pl.Why, "DP-GD requested") {
				t.Errorf("why: %q", pl.Why)
			}
		}
	}
	// radius omitted: DefaultRadius, as for Algorithm 1.
	pl, _ := NewPlan(Request{Loss: "logistic", X: x, Y: y, Epsilon: 1, Delta: 1e-5, Method: EstimatorDPGD, Clip: 2})
	if pl.Radius != DefaultRadius(loss.Logistic, 2, nil) || !strings.Contains(pl.Why, "DefaultRadius") {
		t.Errorf("default radius %v, why %q", pl.Radius, pl.Why)
	}
	pl, _ = NewPlan(Request{Loss: "logistic", X: x, Y: y, Epsilon: 1, Delta: 1e-5, Radius: 2})
	if pl.Estimator != EstimatorExponential || pl.Schedule != nil {
		t.Errorf("default estimator %q schedule %v", pl.Estimator, pl.Schedule)
	}
}

// TestDPGDSampleIsTheSchedule: with a seed, mechanism.Sample's dp-gd
// release is dpgd.Run of the plan's schedule on the same generator, rounded
// to the plan's grid; the report's guarantee is the plan's.
func TestDPGDSampleIsTheSchedule(t *testing.T) {
	x, y := dpgdData()
	seed := uint64(11)
	req := Request{Loss: "logistic", X: x, Y: y, Epsilon: 2, Delta: 1e-5, Radius: 2, Method: EstimatorDPGD, Clip: math.Sqrt(3), Seed: &seed}
	res, err := Sample(context.Background(), req, nil)
	if err != nil {
		t.Fatal(err)
	}
	set, _ := loss.New(loss.Logistic, x, y, loss.Params{Clip: math.Sqrt(3)})
	want, err := dpgd.Run(context.Background(), set, *res.Plan.Schedule, rng.Seeded(seed), nil)
	if err != nil {
		t.Fatal(err)
	}
	for j := range want {
		if d := math.Abs(res.Theta[j] - want[j]); d > res.Plan.Grid {
			t.Errorf("θ[%d] = %v, want %v (grid %v)", j, res.Theta[j], want[j], res.Plan.Grid)
		}
	}
	if res.Private || res.Privacy.GDP != res.Plan.GDPTotal || res.Privacy.Delta > 1e-5 || res.Stats.Steps != int64(res.Plan.Steps) {
		t.Errorf("result %+v %+v", res.Privacy, res.Stats)
	}
	// A deliberately different schedule (the old T = 100) does not reproduce it.
	old := *res.Plan.Schedule
	old.Steps = 100
	other, _ := dpgd.Run(context.Background(), set, old, rng.Seeded(seed), nil)
	if math.Abs(other[0]-res.Theta[0]) <= res.Plan.Grid {
		t.Error("the test cannot tell schedules apart")
	}
}

func TestDPGDErrors(t *testing.T) {
	x, y := dpgdData()
	for _, c := range []struct {
		req   Request
		field string
	}{
		{Request{Loss: "logistic", X: x, Y: y, Epsilon: 1, Delta: 1e-5, Radius: 2, Method: "sgd"}, "method"},
		{Request{Loss: "l1", X: x, Epsilon: 1, Delta: 1e-5, Radius: 2, Method: EstimatorDPGD}, "method"},
		{Request{Loss: "logistic", X: x, Y: y, Epsilon: 0, Delta: 1e-5, Radius: 2, Method: EstimatorDPGD}, "epsilon"},
		{Request{Loss: "logistic", X: x, Y: y, Epsilon: 1, Delta: 1e-5, Radius: -1, Method: EstimatorDPGD}, "radius"},
	} {
		if _, err := NewPlan(c.req); err == nil || !strings.HasPrefix(err.Error(), c.field) {
			t.Errorf("%+v: error %v, want one naming %q", c.req.Method, err, c.field)
		}
	}
}

// TestDPGDSchedulePublic: the dp-gd plan's schedule (T, h, σ, s) is a
// function of public inputs only: two data sets with the same n, d, loss and
// declared bounds but different rows and labels (the second drawn with
// another seed and its labels' rule flipped) get the same schedule and the
// same plan; at the default radius T is the same at n = 10⁴ and 5·10⁴
// (issue 43: it no longer grows with n once n·s ≥ dpgd.SmoothNSCap).
func TestDPGDSchedulePublic(t *testing.T) {
	gen := func(n int, seed uint64, flip bool) ([][]float64, []float64) {
		r := rng.Seeded(seed)
		x := make([][]float64, n)
		y := make([]float64, n)
		for i := range x {
			x[i] = []float64{2*r.Float64() - 1, r.NormFloat64(), 1}
			y[i] = 1
			if (x[i][0] > 0) == flip {
				y[i] = -1
			}
		}
		return x, y
	}
	var steps []int
	for _, n := range []int{10_000, 50_000} {
		var plans []Plan
		for k, flip := range []bool{false, true} {
			x, y := gen(n, uint64(k+1), flip)
			pl, err := NewPlan(Request{Loss: "logistic", X: x, Y: y, Epsilon: 1, Delta: 1e-7, Method: EstimatorDPGD, Clip: math.Sqrt(3)})
			if err != nil {
				t.Fatal(err)
			}
			plans = append(plans, pl)
		}
		a, b := plans[0], plans[1]
		if *a.Schedule != *b.Schedule || a.Steps != b.Steps || a.GDP != b.GDP || a.Grid != b.Grid || a.Work != b.Work || a.Workers != b.Workers {
			t.Errorf("n=%d: two data sets of the same shape, schedules %+v and %+v", n, *a.Schedule, *b.Schedule)
		}
		steps = append(steps, a.Steps)
	}
	if steps[0] != steps[1] {
		t.Errorf("T at n = 10⁴ and 5·10⁴: %v, want one value", steps)
	}
	t.Logf("T = %v", steps)
}
