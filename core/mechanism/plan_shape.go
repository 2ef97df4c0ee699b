package mechanism

import (
	"fmt"

	"github.com/dpsample/dpsample/core/checks"
	"github.com/dpsample/dpsample/core/loss"
	"github.com/dpsample/dpsample/core/privacy"
)

// PlanShape is NewPlan for a request whose rows are not read: the plan of
// req as if req.X held n rows of d features (req.X and req.Y are ignored).
//
// A plan depends on the rows only through n and d (Plan: "data-independent
// parameters"; TestPlanDataIndependent): G, the curvature and the gradient
// spread are public bounds from the loss, the clip and the declared domain,
// and the calibration and the samplers' plans take n and d. So for every
// request NewPlan accepts, PlanShape(req, len(req.X), len(req.X[0])) is the
// same plan (TestPlanShape), without a pass over the rows — the page plans a
// million-row table on its main thread in microseconds instead of ≈ 0.4 s
// (issue 29 item 4). What it does not check is the rows' values (finite,
// ±1 labels, equal lengths): NewPlan and Sample do, where the rows are.
func PlanShape(req Request, n, d int) (Plan, error) {
	req, err := shapeRequest(req, n, d)
	if err != nil {
		return Plan{}, err
	}
	p, err := prepare(req)
	if err != nil {
		return Plan{}, err
	}
	return p.plan, nil
}

// PlanChargedShape is PlanCharged for a request whose rows are not read:
// the plan of req as if req.X held n rows of d features, as it would run
// under l (Plan.Ledger says whether it fits). Nothing is charged. The page
// checks a run against the table's budget with it before anything is
// spent, at the width the run will have.
func PlanChargedShape(req Request, n, d int, l *privacy.Ledger) (Plan, error) {
	req, err := shapeRequest(req, n, d)
	if err != nil {
		return Plan{}, err
	}
	return PlanCharged(req, l)
}

// shapeRequest is req with a stand-in of two rows of d zeros (inside every
// declared domain once clamped), with a valid target for the loss, planned
// for n rows: only its shape is read.
func shapeRequest(req Request, n, d int) (Request, error) {
	if n < 1 {
		return req, &checks.Error{Field: "x", Rule: "a non-empty array of rows", Got: fmt.Sprintf("%d rows", n)}
	}
	if d < 1 {
		return req, &checks.Error{Field: "x[0]", Rule: "a row of at least 1 feature", Got: fmt.Sprintf("%d features", d)}
	}
	k, err := loss.ParseKind(req.Loss)
	if err != nil {
		return req, err
	}
	rows := min(n, 2)
	req.X = make([][]float64, rows)
	for i := range req.X {
		req.X[i] = make([]float64, d)
	}
	req.Y = nil
	if k.Supervised() {
		req.Y = make([]float64, rows)
		if k.Classification() {
			for i := range req.Y {
				req.Y[i] = 1
			}
		}
	}
	req.shapeN = n
	return req, nil
}
