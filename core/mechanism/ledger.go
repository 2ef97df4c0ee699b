package mechanism

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/dpsample/dpsample/core/checks"
	"github.com/dpsample/dpsample/core/privacy"
)

// Running the mechanism under a ledger (privacy.Ledger, one per table).
//
// Order. The charge is decided from the plan — n, d, the declared bounds,
// ε, δ, m: public inputs — and committed before the sampler starts: prepare
// validates the records and maps them into their declared box (it
// releases nothing and draws nothing), then the ledger is charged, and only
// then are the exact samplers' tables built, the random generator keyed and
// the samples drawn. A refused charge returns before any of that: no
// progress callback, no diagnostics, no random draw.
//
// Failures. A charge is never refunded: if the run is cancelled or fails
// after the charge, the budget stays spent. A cancelled run may already have
// shown progress and taken a data-dependent time (docs/PRIVACY.md §5), and a
// refund would let a person cancel a run whose first samples they dislike
// for free — so the conservative rule is the only one that keeps the
// ledger's total a bound.
//
// Total variation. Under a ledger the approximate samplers get at most the
// ledger's proportional share of its TV budget (privacy.Ledger.TVAllowance):
// the plan under a ledger can have more steps than without one, and its own
// δ is smaller than requested (DeltaSampler shrinks with TV).
//
// Seeds. A seeded run is reproducible, not private: no budget can account
// for it, so a request with a seed is refused under a ledger.
//
// The ledger's δ must be below 1/n, like every release's (checks.DeltaForN).

// Charge is what releasing this plan's samples costs a ledger: the GDP of all
// m samples together (√m·s) and their total variation m·TV (0 for an exact
// sampler), with the plan's own (ε, δ) for basic composition.
func (pl Plan) Charge() privacy.Release {
	d, err := privacy.Delta(pl.GDPTotal, pl.Epsilon)
	if err != nil {
		d = pl.DeltaCurve
	}
	label := pl.Loss + " (" + pl.Method + ")"
	if pl.Interval != nil && pl.Interval.Gate {
		label = fmt.Sprintf("%s (%s + %g %% intervals)", pl.Loss, pl.Method, 100*pl.Interval.Level)
	}
	return privacy.Release{
		Label:   label,
		GDP:     pl.GDPTotal,
		TV:      pl.TV * float64(pl.Samples),
		Epsilon: pl.Epsilon,
		Delta:   d + pl.DeltaSampler,
	}
}

// errSeeded is the refusal of a seeded request under a ledger.
var errSeeded = &checks.Error{Field: "seed", Rule: "absent under a ledger (a seeded run is reproducible, not private, so no budget can account for it)", Got: "a seed"}

// prepareCharged prepares req under l: the plan with the sampler's TV capped
// at the ledger's share. It errors on invalid requests (naming the field),
// on a nil ledger and on a seeded request.
func prepareCharged(req Request, l *privacy.Ledger) (*prepared, error) {
	if l == nil {
		return nil, checks.Errorf("ledger", "a ledger (privacy.Ledger)")
	}
	if req.Seed != nil {
		return nil, errSeeded
	}
	p, err := prepare(req)
	if err != nil {
		return nil, err
	}
	// The table's total δ answers to the same rule as a release's: below 1/n.
	if err := checks.DeltaForN("ledger.delta", l.Budget().Delta, p.plan.N); err != nil {
		return nil, err
	}
	if p.plan.TV == 0 {
		return p, nil
	}
	allow := l.TVAllowance(p.plan.GDPTotal)
	if allow <= 0 {
		// The TV side is spent: charge the uncapped plan so that the
		// refusal names total variation and the numbers.
		return p, nil
	}
	if p.plan.TV*float64(p.plan.Samples) <= allow {
		return p, nil
	}
	req.maxTV = allow
	return prepare(req)
}

// PlanCharged returns the plan of req as it would run under l, with
// Plan.Ledger saying whether it fits, what it costs and the ledger before and
// after. Nothing is charged. An invalid request is an error; a request that
// does not fit is not (Ledger.Fits is false and Ledger.Reason says why).
func PlanCharged(req Request, l *privacy.Ledger) (Plan, error) {
	if req.Seed != nil && l != nil {
		pl, err := NewPlan(req)
		if err != nil {
			return Plan{}, err
		}
		c, err := l.Check(pl.Charge())
		if err != nil {
			return Plan{}, err
		}
		c.Fits, c.After, c.Reason = false, nil, errSeeded.Error()
		pl.Ledger = &c
		return pl, nil
	}
	p, err := prepareCharged(req, l)
	if err != nil {
		return Plan{}, err
	}
	c, err := l.Check(p.plan.Charge())
	if err != nil {
		return Plan{}, err
	}
	pl := p.plan
	pl.Ledger = &c
	return pl, nil
}

// Charged is a request whose release has been charged to a ledger and may
// now be sampled, once.
type Charged struct {
	p     *prepared
	state privacy.LedgerState
	start time.Time
	used  bool
}

// ErrChargedTwice is returned by a second Charged.Sample: one charge pays for
// one release.
var ErrChargedTwice = errors.New("mechanism: a charged request was sampled twice (one charge pays for one release)")

// Charge validates req, plans it under l and charges l for its release. A
// release that does not fit is refused here, with an error naming "ledger"
// that says what it costs and what is left, before any data is sampled.
func Charge(req Request, l *privacy.Ledger) (*Charged, error) {
	start := time.Now()
	p, err := prepareCharged(req, l)
	if err != nil {
		return nil, err
	}
	st, err := l.Charge(p.plan.Charge())
	if err != nil {
		return nil, err
	}
	return &Charged{p: p, state: st, start: start}, nil
}

// State is the ledger right after the charge.
func (c *Charged) State() privacy.LedgerState { return c.state }

// Plan is the plan that was charged.
func (c *Charged) Plan() Plan { return c.p.plan }

// Sample draws the charged release, as Sample does, and reports the ledger
// after the charge in Result.Privacy.Ledger. It may be called once. The
// charge stands whether or not sampling succeeds.
func (c *Charged) Sample(ctx context.Context, progress func(done, total int)) (Result, error) {
	return c.SampleWith(ctx, progress, Options{})
}

// SampleWith is Sample with run-time options (Options: the shards of a
// multi-core run).
func (c *Charged) SampleWith(ctx context.Context, progress func(done, total int), opt Options) (Result, error) {
	if c.used {
		return Result{}, ErrChargedTwice
	}
	c.used = true
	res, err := c.p.sample(ctx, c.start, nil, progress, opt)
	if err != nil {
		return Result{}, err
	}
	st := c.state
	res.Privacy.Ledger = &st
	return res, nil
}

// SampleCharged is Charge followed by Sample: the release is charged to l
// before the sampler starts (or refused, with nothing run), then drawn.
func SampleCharged(ctx context.Context, req Request, l *privacy.Ledger, progress func(done, total int)) (Result, error) {
	c, err := Charge(req, l)
	if err != nil {
		return Result{}, err
	}
	return c.Sample(ctx, progress)
}
