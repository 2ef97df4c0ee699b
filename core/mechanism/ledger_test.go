package mechanism

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/dpsample/dpsample/core/privacy"
)

// sampleFn is a way of running a request under a ledger: SampleCharged, or
// a broken variant written in the test.
type sampleFn func(ctx context.Context, req Request, l *privacy.Ledger, progress func(done, total int)) (Result, error)

// logisticReq is a small request for the first-order sampler (approximate:
// TV > 0), with progress callbacks.
func logisticReq(eps float64) Request {
	x, y := smallGLM(40, 3, true)
	return Request{Loss: "logistic", X: x, Y: y, Epsilon: eps, Delta: 1e-5, Radius: 2}
}

// orderViolations checks the ledger's contract on run: (1) when the sampler
// first reports progress the release is already charged; (2) a release that
// does not fit is refused with an error naming "ledger", before any progress
// and with the ledger unchanged; (3) a cancelled run stays charged (no
// refund).
func orderViolations(run sampleFn) []string {
	var bad []string
	// (1) charged before the sampler runs.
	l, _ := privacy.NewLedger(3, 1e-5)
	calls, chargedAtFirst := 0, false
	res, err := run(context.Background(), logisticReq(1), l, func(done, total int) {
		if calls == 0 {
			chargedAtFirst = l.State().Spent.Releases == 1
		}
		calls++
	})
	switch {
	case err != nil:
		bad = append(bad, "a fitting release failed: "+err.Error())
	case calls == 0:
		bad = append(bad, "no progress reported")
	case !chargedAtFirst:
		bad = append(bad, "the sampler ran before the release was charged")
	case res.Privacy.Ledger == nil || res.Privacy.Ledger.Spent.Releases != 1:
		bad = append(bad, fmt.Sprintf("result.privacy.ledger = %+v, want the state after one charge", res.Privacy.Ledger))
	}
	// (2) refused before anything runs: the budget holds 3 releases at ε = 1.5.
	l, _ = privacy.NewLedger(3, 1e-5)
	for i := 0; i < 3; i++ {
		if _, err := run(context.Background(), logisticReq(1.5), l, nil); err != nil {
			return append(bad, fmt.Sprintf("release %d of 3 at ε = 1.5 in (3, 1e-5): %v", i+1, err))
		}
	}
	before := l.State().Spent
	calls = 0
	_, err = run(context.Background(), logisticReq(1.5), l, func(int, int) { calls++ })
	if err == nil || !strings.HasPrefix(err.Error(), "ledger must be") {
		bad = append(bad, fmt.Sprintf("the 4th release at ε = 1.5 was not refused by the ledger: %v", err))
	}
	if calls != 0 {
		bad = append(bad, fmt.Sprintf("a refused release reported progress %d times (it sampled)", calls))
	}
	if after := l.State().Spent; after != before {
		bad = append(bad, fmt.Sprintf("a refused release changed the ledger: %+v → %+v", before, after))
	}
	// (3) cancelled: the charge stays.
	l, _ = privacy.NewLedger(3, 1e-5)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := run(ctx, logisticReq(1), l, nil); !errors.Is(err, context.Canceled) {
		bad = append(bad, fmt.Sprintf("a cancelled run returned %v", err))
	}
	if n := l.State().Spent.Releases; n != 1 {
		bad = append(bad, fmt.Sprintf("a cancelled run left %d charges, want 1 (no refund)", n))
	}
	return bad
}

func TestChargeBeforeSampling(t *testing.T) {
	for _, v := range orderViolations(SampleCharged) {
		t.Error(v)
	}
}

// TestChargingAfterSamplingIsCaught: the same checks fail a ledger that
// samples first and charges the result's plan afterwards.
func TestChargingAfterSamplingIsCaught(t *testing.T) {
	after := func(ctx context.Context, req Request, l *privacy.Ledger, progress func(done, total int)) (Result, error) {
		p, err := prepareCharged(req, l) // the same capped plan: only the order differs
		if err != nil {
			return Result{}, err
		}
		res, err := p.sample(ctx, time.Now(), nil, progress, Options{})
		if err != nil {
			return Result{}, err
		}
		st, err := l.Charge(p.plan.Charge())
		if err != nil {
			return Result{}, err
		}
		res.Privacy.Ledger = &st
		return res, nil
	}
	v := orderViolations(after)
	if len(v) == 0 {
		t.Fatal("charging after sampling passes the ledger's checks")
	}
	t.Logf("caught: %s", strings.Join(v, "; "))
}

// TestChargedSamplesOnce: one charge pays for one release.
func TestChargedSamplesOnce(t *testing.T) {
	l, _ := privacy.NewLedger(3, 1e-5)
	c, err := Charge(Request{Loss: "l1", X: [][]float64{{0.1}, {0.4}, {-0.2}}, Epsilon: 1, Delta: 1e-5, Radius: 1}, l)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Sample(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Sample(context.Background(), nil); !errors.Is(err, ErrChargedTwice) {
		t.Fatalf("second Sample: %v", err)
	}
	if n := l.State().Spent.Releases; n != 1 {
		t.Fatalf("%d charges", n)
	}
}

// TestLedgerCapsTV: under a ledger an approximate sampler's TV is its
// proportional share of the ledger's TV budget (smaller than its own split),
// its δ shrinks accordingly and the charge uses the capped TV; an exact
// sampler is unchanged; the GDP never changes.
func TestLedgerCapsTV(t *testing.T) {
	l, _ := privacy.NewLedger(3, 1e-5)
	req := logisticReq(1)
	free, err := NewPlan(req)
	if err != nil {
		t.Fatal(err)
	}
	pl, err := PlanCharged(req, l)
	if err != nil {
		t.Fatal(err)
	}
	b := l.Budget()
	share := b.TV * (pl.GDPTotal / b.GDP) * (pl.GDPTotal / b.GDP)
	if pl.GDPTotal != free.GDPTotal || pl.Mu != free.Mu || !(pl.TV < free.TV) || pl.TV > share || pl.TV < share*(1-1e-8) {
		t.Fatalf("capped plan: gdp %g/%g, tv %g (free %g, share %g)", pl.GDPTotal, free.GDPTotal, pl.TV, free.TV, share)
	}
	if !(pl.DeltaSampler < free.DeltaSampler) || pl.Steps < free.Steps {
		t.Errorf("δ_sampler %g (free %g), steps %d (free %d)", pl.DeltaSampler, free.DeltaSampler, pl.Steps, free.Steps)
	}
	t.Logf("first-order steps: %d free, %d under the ledger (TV %.3g → %.3g)", free.Steps, pl.Steps, free.TV, pl.TV)
	if c := pl.Ledger; c == nil || !c.Fits || c.Cost.TV != pl.TV || c.After == nil || c.After.Spent.Releases != 1 || l.State().Spent.Releases != 0 {
		t.Fatalf("plan.ledger = %+v; plan must not charge", pl.Ledger)
	}
	res, err := SampleCharged(context.Background(), req, l, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Privacy.Delta > req.Delta || res.Plan.TV != pl.TV || l.State().History[0].TV != pl.TV {
		t.Errorf("result δ %g, tv %g, charged %+v", res.Privacy.Delta, res.Plan.TV, l.State().History[0])
	}
	// Exact sampler: no TV, same plan.
	ex := Request{Loss: "l1", X: [][]float64{{0.1}, {0.4}, {-0.2}}, Epsilon: 1, Delta: 1e-5, Radius: 1, Samples: 4}
	a, _ := NewPlan(ex)
	c, err := PlanCharged(ex, l)
	if err != nil || c.TV != 0 || c.GDPTotal != a.GDPTotal || c.Ledger.Cost.GDP != a.GDPTotal || c.Ledger.Cost.TV != 0 {
		t.Errorf("exact under a ledger: %+v %v", c, err)
	}
}

// TestLedgerRunsOut: runs at ε = 1 (δ = 1e-5) in the page's default budget
// (3, 1e-5): the exact sampler fits 6 (docs/PRIVACY.md's table); the 7th is
// refused by the plan and by the sample call; the total never exceeds the
// budget; a seeded request is refused.
func TestLedgerRunsOut(t *testing.T) {
	l, _ := privacy.NewLedger(3, 1e-5)
	req := Request{Loss: "l1", X: [][]float64{{0.1}, {0.4}, {-0.2}, {0.3}}, Epsilon: 1, Delta: 1e-5, Radius: 1}
	for i := 0; i < 6; i++ {
		res, err := SampleCharged(context.Background(), req, l, nil)
		if err != nil {
			t.Fatalf("release %d: %v", i+1, err)
		}
		if st := res.Privacy.Ledger; st.Spent.Releases != i+1 || st.Spent.OverBudget || st.Spent.Epsilon > 3 {
			t.Fatalf("after release %d: %+v", i+1, st.Spent)
		}
	}
	pl, err := PlanCharged(req, l)
	if err != nil || pl.Ledger.Fits || !strings.HasPrefix(pl.Ledger.Reason, "ledger must be") || pl.Ledger.After != nil {
		t.Fatalf("plan of the 7th: %+v, %v", pl.Ledger, err)
	}
	if _, err := SampleCharged(context.Background(), req, l, nil); err == nil || err.Error() != pl.Ledger.Reason {
		t.Fatalf("7th release: %v, plan said %q", err, pl.Ledger.Reason)
	}
	st := l.State()
	if st.Spent.Releases != 6 || math.Abs(st.Spent.Epsilon-2.71) > 0.005 {
		t.Errorf("spent %+v", st.Spent)
	}
	big, _ := privacy.NewLedger(30, 1e-5)
	req.Seed = seed(1)
	if _, err := SampleCharged(context.Background(), req, big, nil); err == nil || !strings.HasPrefix(err.Error(), "seed must be absent under a ledger") {
		t.Errorf("seeded: %v", err)
	}
	if pl, err := PlanCharged(req, big); err != nil || pl.Ledger.Fits || !strings.HasPrefix(pl.Ledger.Reason, "seed must be") {
		t.Errorf("seeded plan: %+v %v", pl.Ledger, err)
	}
	if big.State().Spent.Releases != 0 {
		t.Error("a seeded request was charged")
	}
	// A table's total δ must be below 1/n too (here n = 4).
	loose, _ := privacy.NewLedger(3, 0.3)
	req.Seed = nil
	if _, err := SampleCharged(context.Background(), req, loose, nil); err == nil || !strings.HasPrefix(err.Error(), "ledger.delta must be below 1/n = 0.25 for n = 4 rows") {
		t.Errorf("ledger δ ≥ 1/n: %v", err)
	}
}
