package domain

import (
	"errors"
	"sync/atomic"

	"github.com/dpsample/dpsample/core/checks"
	"github.com/dpsample/dpsample/core/privacy"
)

// Releasing a description under a ledger (privacy.Ledger, one per table):
// charge, then draw once, as core/mechanism's Charged does for samples.
//
// Order. Charge validates the plan (one NewPlan, NewPlanWith, NewCellsPlan or
// PlanCellsFor made, unchanged) and charges its release (Plan.Charge) to the
// ledger before anything is drawn: a charge that does not fit is refused,
// naming "ledger", and spends nothing. Only then may the charge be drawn, by
// Charged.Describe or Charged.DescribeCells, once, with noise keyed from
// crypto/rand (a seeded release cannot be charged: no budget accounts for a
// reproducible one).
//
// Once. One charge pays for one release: a second draw from the same charge,
// by either method, returns ErrChargedTwice and draws nothing. A draw refused
// for its input (x or the columns not matching the plan, an error naming
// them) draws nothing either, so it does not use the charge.
//
// A charge without a draw stays spent: a charge is never refunded (as
// mechanism's: a refund would let a person cancel releases they dislike for
// free). A draw without a charge — a Charged that Charge did not return —
// is refused, naming "charge". Describe and DescribeCells, which take a plan
// and no ledger, remain the unledgered release: each call is one more
// release, accounted for by its caller.

// Charged is a description whose release has been charged to a ledger and
// may now be drawn, once.
type Charged struct {
	p       Plan
	state   privacy.LedgerState
	charged bool        // made by Charge
	used    atomic.Bool // drawn (or being drawn)
}

// ErrChargedTwice is returned by a second draw from one Charged: one charge
// pays for one release.
var ErrChargedTwice = errors.New("domain: a charged description was drawn twice (one charge pays for one release)")

// errNotCharged refuses a draw from a Charged that Charge did not return.
var errNotCharged = &checks.Error{Field: "charge", Rule: "a charge returned by domain.Charge", Got: "a Charged that Charge did not make"}

// Charge validates p and charges its release to l before anything is drawn:
// refused naming "ledger" (nothing charged) when l is nil or the release does
// not fit, naming "ledger.delta" when the ledger's δ is not below 1/n like
// every release's (checks.DeltaForN), and naming "plan" for a plan that
// NewPlan, NewPlanWith, NewCellsPlan or PlanCellsFor did not make.
func Charge(p Plan, l *privacy.Ledger) (*Charged, error) {
	if l == nil {
		return nil, checks.Errorf("ledger", "a ledger (privacy.Ledger)")
	}
	if !p.valid() {
		return nil, errForgedPlan
	}
	if err := checks.DeltaForN("ledger.delta", l.Budget().Delta, p.N); err != nil {
		return nil, err
	}
	st, err := l.Charge(p.Charge())
	if err != nil {
		return nil, err
	}
	return &Charged{p: p, state: st, charged: true}, nil
}

// State is the ledger right after the charge.
func (c *Charged) State() privacy.LedgerState { return c.state }

// Plan is the plan that was charged.
func (c *Charged) Plan() Plan { return c.p }

// take marks the charge used, or says why it cannot be drawn.
func (c *Charged) take() error {
	if !c.used.CompareAndSwap(false, true) {
		return ErrChargedTwice
	}
	return nil
}

// ready refuses a Charged that Charge did not make, or one already drawn.
func (c *Charged) ready() error {
	if c == nil || !c.charged {
		return errNotCharged
	}
	if c.used.Load() {
		return ErrChargedTwice
	}
	return nil
}

// Describe draws the charged release of x, as Describe(x, plan, nil) does
// (crypto/rand). It may be called once, and not after DescribeCells.
func (c *Charged) Describe(x [][]float64) (Result, error) {
	if err := c.ready(); err != nil {
		return Result{}, err
	}
	if err := checkDescribe(x, c.p); err != nil {
		return Result{}, err
	}
	if err := c.take(); err != nil {
		return Result{}, err
	}
	return describe(x, c.p, nil), nil
}

// DescribeCells draws the charged release of cols, as DescribeCells(cols,
// plan, nil) does (the plan must count labels: NewCellsPlan, PlanCellsFor).
// It may be called once, and not after Describe.
func (c *Charged) DescribeCells(cols []Cells) (CellsResult, error) {
	if err := c.ready(); err != nil {
		return CellsResult{}, err
	}
	if err := checkCells(cols, c.p); err != nil {
		return CellsResult{}, err
	}
	if err := c.take(); err != nil {
		return CellsResult{}, err
	}
	return drawCells(cols, c.p, nil, rules{}), nil
}

// DescribeCharged is Charge followed by Charged.Describe: the plan of x at
// (ε, δ) is charged to l before anything is drawn (or refused, with nothing
// drawn), then drawn.
func DescribeCharged(x [][]float64, eps, delta float64, l *privacy.Ledger) (Result, privacy.LedgerState, error) {
	n, d, err := checks.Matrix("x", x)
	if err != nil {
		return Result{}, privacy.LedgerState{}, err
	}
	p, err := NewPlan(n, d, eps, delta)
	if err != nil {
		return Result{}, privacy.LedgerState{}, err
	}
	c, err := Charge(p, l)
	if err != nil {
		return Result{}, privacy.LedgerState{}, err
	}
	res, err := c.Describe(x)
	return res, c.State(), err
}
