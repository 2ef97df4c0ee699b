package mechanism

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/dpsample/dpsample/core/checks"
	"github.com/dpsample/dpsample/core/dpgd"
	"github.com/dpsample/dpsample/core/interval"
	"github.com/dpsample/dpsample/core/loss"
	"github.com/dpsample/dpsample/core/privacy"
	"github.com/dpsample/dpsample/core/rng"
)

// ivRequest is a logistic dp-gd request with 95 % intervals on n rows of
// interval design d3-corr (3 features and the intercept in [−1, 1], clip 2),
// drawn with the given seed.
func ivRequest(n int, eps float64, dataSeed uint64) Request {
	ds, _ := interval.LookupDesign("d3-corr")
	x, y := ds.Draw(rng.Seeded(dataSeed), n)
	return Request{Loss: "logistic", X: x, Y: y, Epsilon: eps, Delta: 1e-6, Clip: 2, Method: EstimatorDPGD, Interval: 0.95}
}

// TestIntervalPlan: above the gate the plan splits the request's budget s =
// Calibrate(ε, δ) — the schedule runs at the model's share, the three
// releases take the rest, √(s_m² + s_g² + s_H² + s_J²) = s = GDPTotal — the
// ledger is charged s once, and plan.work counts the releases' d + 2 passes.
func TestIntervalPlan(t *testing.T) {
	req := ivRequest(20000, 1, 1) // n·s = 4,734
	pl, err := NewPlan(req)
	if err != nil {
		t.Fatal(err)
	}
	s, _ := privacy.Calibrate(1, 1e-6)
	ip := pl.Interval
	if ip == nil || !ip.Gate || ip.Level != 0.95 || ip.Reason != "" {
		t.Fatalf("interval plan %+v", ip)
	}
	parts := []float64{ip.Model, ip.Gradient.GDP, ip.Hessian.GDP, ip.Score.GDP}
	sum := 0.0
	for _, v := range parts {
		sum += v * v
	}
	if math.Abs(math.Sqrt(sum)-s) > 1e-12*s || pl.GDPTotal != s || ip.GDP != s {
		t.Errorf("split %v composes to %v, gdpTotal %v, s = %v", parts, math.Sqrt(sum), pl.GDPTotal, s)
	}
	if pl.Schedule.GDP != ip.Model || pl.GDP != ip.Model || !(ip.Model < s) {
		t.Errorf("schedule GDP %v, plan gdp %v, model share %v", pl.Schedule.GDP, pl.GDP, ip.Model)
	}
	want, _ := dpgd.NewSchedule(dpgd.Params{N: 20000, D: 4, G: 2, Curvature: 1, Radius: pl.Radius, GDP: ip.Model})
	if *pl.Schedule != want {
		t.Errorf("schedule %+v, want the model share's %+v", *pl.Schedule, want)
	}
	if c := pl.Charge(); c.GDP != s || c.TV != 0 || !strings.Contains(c.Label, "95 % intervals") {
		t.Errorf("charge %+v", c)
	}
	if pl.Work.Interval != 6 || pl.Work.Passes != float64(pl.Steps)+6 || pl.Work.PassesMax != pl.Work.Passes {
		t.Errorf("work %+v, steps %d", pl.Work, pl.Steps)
	}
	if !strings.Contains(pl.Why, "95 % intervals") || !strings.Contains(pl.Why, "s_m =") {
		t.Errorf("why %q", pl.Why)
	}
	// Δ_g = 2G/n, Δ_H = √2·β·clip²/n, Δ_J = √2·G²/n with G = clip = 2, β = ¼.
	for _, c := range []struct {
		p    interval.Part
		sens float64
	}{{ip.Gradient, 4.0 / 20000}, {ip.Hessian, math.Sqrt2 / 20000}, {ip.Score, 4 * math.Sqrt2 / 20000}} {
		if math.Abs(c.p.Sensitivity-c.sens) > 1e-15 || math.Abs(c.p.Noise-c.sens/c.p.GDP) > 1e-15 {
			t.Errorf("part %+v, want sensitivity %v", c.p, c.sens)
		}
	}
}

// TestIntervalPlanDataIndependent: with intervals, two tables of the same
// shape get the same plan (split, gate, noise, work), and PlanShape — which
// reads no row — gives it too, above and below the gate.
func TestIntervalPlanDataIndependent(t *testing.T) {
	for _, n := range []int{500, 20000} { // below and above the gate at ε = 1
		a, err := NewPlan(ivRequest(n, 1, 1))
		if err != nil {
			t.Fatal(err)
		}
		b, err := NewPlan(ivRequest(n, 1, 2))
		if err != nil {
			t.Fatal(err)
		}
		req := ivRequest(n, 1, 3)
		c, err := PlanShape(req, n, 4)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(a, b) || !reflect.DeepEqual(a, c) {
			t.Errorf("n=%d: the plans differ:\n%+v\n%+v\n%+v", n, a.Interval, b.Interval, c.Interval)
		}
	}
}

// TestIntervalGate: below the gate no interval is released — the plan says
// why in words (n·s, the bound, what would pass it), the model gets the
// whole budget, the ledger's charge is the plain model's and the result's
// intervals are the level and the reason only, with nothing computed from
// the data. Above it the result carries the intervals.
func TestIntervalGate(t *testing.T) {
	req := ivRequest(2000, 1, 1)
	req.Seed = seedOf(1)
	pl, err := NewPlan(req)
	if err != nil {
		t.Fatal(err)
	}
	s, _ := privacy.Calibrate(1, 1e-6)
	ip := pl.Interval
	if ip.Gate || ip.Model != s || pl.Schedule.GDP != s || ip.Passes != 0 || pl.Work.Interval != 0 {
		t.Errorf("below the gate: %+v, schedule GDP %v", ip, pl.Schedule.GDP)
	}
	for _, want := range []string{"no intervals: n·s = 473 is below the 2,500 that 4 coefficients need", "n = 2,000 rows", "ε = 1, δ = 1e-06", "10,562 rows at this budget", "ε ≥ 6.4 at these rows"} {
		if !strings.Contains(ip.Reason, want) {
			t.Errorf("reason %q lacks %q", ip.Reason, want)
		}
	}
	plain := req
	plain.Interval = 0
	pp, _ := NewPlan(plain)
	if pl.Charge().GDP != pp.Charge().GDP || *pl.Schedule != *pp.Schedule {
		t.Errorf("below the gate the model differs from the plain run: %+v vs %+v", *pl.Schedule, *pp.Schedule)
	}
	res, err := Sample(context.Background(), req, nil)
	if err != nil {
		t.Fatal(err)
	}
	plainRes, _ := Sample(context.Background(), plain, nil)
	if iv := res.Intervals; iv == nil || iv.Reason != ip.Reason || iv.Level != 0.95 || iv.Lo != nil || iv.Estimate != nil {
		t.Errorf("intervals below the gate: %+v", res.Intervals)
	}
	if !reflect.DeepEqual(res.Theta, plainRes.Theta) {
		t.Error("below the gate θ differs from the plain run's")
	}
	b, _ := json.Marshal(res.Intervals)
	if got := string(b); !strings.HasPrefix(got, `{"level":0.95,"reason":"no intervals: n·s`) {
		t.Errorf("JSON %s", got)
	}
	above := ivRequest(3000, 4, 1) // n·s = 2,514
	above.Seed = seedOf(1)
	res, err = Sample(context.Background(), above, nil)
	if err != nil {
		t.Fatal(err)
	}
	if iv := res.Intervals; iv == nil || len(iv.Lo) != 4 || len(iv.Hi) != 4 || len(iv.Estimate) != 4 || len(iv.SE) != 4 || iv.Reason != "" {
		t.Fatalf("intervals above the gate: %+v", res.Intervals)
	}
	if rel := res.Release(); rel.Intervals != res.Intervals {
		t.Error("the release (the export) lacks the intervals")
	}
	for j := range 4 {
		iv := res.Intervals
		if !(iv.Lo[j] <= iv.Estimate[j] && iv.Estimate[j] <= iv.Hi[j] && iv.Hi[j]-iv.Lo[j] > 0 && iv.Hi[j] <= pl.Radius && iv.Lo[j] >= -pl.Radius) {
			t.Errorf("coordinate %d: [%v, %v] around %v", j, iv.Lo[j], iv.Hi[j], iv.Estimate[j])
		}
	}
}

func seedOf(v uint64) *uint64 { return &v }

// TestIntervalErrors: an interval level outside (0, 1) or NaN, or a request
// that cannot have intervals (not "dp-gd", a loss without a curvature bound,
// several samples), is an error naming "interval"; a valid level with a
// valid request is not.
func TestIntervalErrors(t *testing.T) {
	base := ivRequest(300, 1, 1)
	hx := make([]float64, len(base.Y))
	for i, v := range base.Y {
		hx[i] = 0.3 * v
	}
	for _, c := range []struct {
		name string
		edit func(*Request)
	}{
		{"NaN", func(r *Request) { r.Interval = math.NaN() }},
		{"1", func(r *Request) { r.Interval = 1 }},
		{"95", func(r *Request) { r.Interval = 95 }},
		{"negative", func(r *Request) { r.Interval = -0.95 }},
		{"−0", func(r *Request) { r.Interval = math.Copysign(0, -1) }},
		{"+Inf", func(r *Request) { r.Interval = math.Inf(1) }},
		{"exponential", func(r *Request) { r.Method = EstimatorExponential }},
		{"default method", func(r *Request) { r.Method = "" }},
		{"projected", func(r *Request) { r.Method = EstimatorDPGDProjected }},
		{"hinge", func(r *Request) { r.Loss = "hinge" }},
		{"lad", func(r *Request) { r.Loss, r.Y = "lad", hx }},
		{"quantile", func(r *Request) { r.Loss, r.Y = "quantile", hx }},
		{"2 samples", func(r *Request) { r.Samples = 2 }},
	} {
		req := base
		c.edit(&req)
		_, err := NewPlan(req)
		var ce *checks.Error
		if !errors.As(err, &ce) || ce.Field != "interval" {
			t.Errorf("%s: %v, want an error naming interval", c.name, err)
		}
		if _, err := PlanShape(req, 300, 4); !errors.As(err, &ce) || ce.Field != "interval" {
			t.Errorf("%s: PlanShape %v, want an error naming interval", c.name, err)
		}
	}
	for _, k := range []string{"logistic", "huber", "smooth-hinge", "smooth-quantile"} {
		req := base
		req.Loss = k
		if k == "huber" || k == "smooth-quantile" {
			req.Y = hx
		}
		if _, err := NewPlan(req); err != nil {
			t.Errorf("%s: %v", k, err)
		}
	}
}

// TestIntervalLedger: under a ledger, a release with intervals is one
// charge of the request's s (the model and the three releases together),
// labelled with the intervals, equal to result.privacy.gdp; the ledger's
// history holds that one release; composedOver is 1.
func TestIntervalLedger(t *testing.T) {
	l, _ := privacy.NewLedger(8, 1e-6)
	req := ivRequest(3000, 4, 1)
	res, err := SampleCharged(context.Background(), req, l, nil)
	if err != nil {
		t.Fatal(err)
	}
	s, _ := privacy.Calibrate(4, 1e-6)
	st := l.State()
	if st.Spent.Releases != 1 || len(st.History) != 1 || st.History[0].GDP != s || !strings.Contains(st.History[0].Label, "dp-gd + 95 % intervals") {
		t.Errorf("ledger %+v", st)
	}
	if res.Privacy.GDP != s || res.Privacy.ComposedOver != 1 || res.Privacy.Ledger == nil || res.Intervals == nil || len(res.Intervals.Lo) != 4 {
		t.Errorf("privacy %+v, intervals %+v", res.Privacy, res.Intervals)
	}
	// The model's share alone is less than what was charged: the charge
	// covers the releases too.
	if !(res.Plan.Schedule.GDP < st.Spent.GDP) || math.Abs(st.Spent.GDP-s) > 1e-12 {
		t.Errorf("model %v, spent %v", res.Plan.Schedule.GDP, st.Spent.GDP)
	}
}

// TestIntervalSampleIsThePipeline: a seeded sample with intervals is, bit for
// bit, DP-GD's run at the model's share on rng.New(seed), θ̃ rounded to the
// plan's grid, then interval.Stats at θ̃, interval.Release on the same
// generator and interval.Estimate — and the same with the passes on 2
// workers.
func TestIntervalSampleIsThePipeline(t *testing.T) {
	req := ivRequest(3000, 4, 4)
	req.Seed = seedOf(9)
	res, err := Sample(context.Background(), req, nil)
	if err != nil {
		t.Fatal(err)
	}
	pl := res.Plan
	set, err := loss.New(loss.Logistic, req.X, req.Y, loss.Params{Clip: 2})
	if err != nil {
		t.Fatal(err)
	}
	r, _ := rng.New(req.Seed)
	theta, err := dpgd.Run(context.Background(), set, *pl.Schedule, r, nil)
	if err != nil {
		t.Fatal(err)
	}
	round(theta, pl.Grid)
	rel := interval.Release(interval.Stats(set, theta), *pl.Interval, r)
	want := interval.Estimate(theta, rel, *pl.Interval, *pl.Schedule)
	if !reflect.DeepEqual(res.Theta, theta) || !reflect.DeepEqual(*res.Intervals, want) {
		t.Errorf("sample %v %+v\npipeline %v %+v", res.Theta, *res.Intervals, theta, want)
	}
	req.Workers = 2
	two, err := Sample(context.Background(), req, nil)
	if err != nil {
		t.Fatal(err)
	}
	if two.Plan.Workers != 2 || !reflect.DeepEqual(*two.Intervals, want) {
		t.Errorf("2 workers: %d, %+v", two.Plan.Workers, *two.Intervals)
	}
}

// TestIntervalProgress: the progress callback's total covers DP-GD's steps,
// the releases' passes and the reference fit, and ends at it.
func TestIntervalProgress(t *testing.T) {
	req := ivRequest(3000, 4, 5)
	var last, total, calls int
	_, err := Sample(context.Background(), req, func(done, tot int) { last, total = done, tot; calls++ })
	if err != nil {
		t.Fatal(err)
	}
	pl, _ := NewPlan(req)
	if last != total || total <= pl.Steps+int(pl.Work.Interval) {
		t.Errorf("progress ended at %d of %d (steps %d, interval passes %v)", last, total, pl.Steps, pl.Work.Interval)
	}
}
