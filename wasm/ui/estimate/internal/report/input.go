//go:build js && wasm

// Package report holds a run's prepared input (Input) and the pieces of its
// report that need no view: sentences, coefficient tables and figures.
package report

import (
	"github.com/dpsample/dpsample/core/dataset"
	"github.com/dpsample/dpsample/core/loss"
	"github.com/dpsample/dpsample/core/mechanism"
	"github.com/dpsample/dpsample/wasm/ui/estimate/internal/form"
)

// Input is the prepared input of one run.
type Input struct {
	Req       mechanism.Request
	Table     *dataset.Table
	Raw       plotted         // the rows the figures draw, in the columns' units
	Ranges    []dataset.Range // declared, one per feature (public)
	Target    *dataset.Range  // declared target range (regression), public
	Plan      mechanism.Plan  // the request's plan (public: its work sets the time estimate)
	Kind      loss.Kind
	Columns   []string // names of θ's coordinates
	Source    string
	TargetCol string
	Positive  string
	Cats      []form.Used     // the text features, one-hot coded (or left out), and where their lists came from
	OneHot    map[string]bool // the one-hot columns (name=label), declared [−1, 1]: the identity
	Spec      *form.RunSpec   // the run the form decided (internal/form)
	Zeroed    int             // rows zeroed for a missing target (dataset.ZeroMissingTargets): not private, for the owner
}

// ToUnits maps one θ (scaled units) to the columns' units: a centre through
// dataset.Point, a linear score through dataset.Coefficients (coefficients
// per unit of each column, then the intercept).
func (in *Input) ToUnits(theta []float64) []float64 {
	if in.Kind.Location() {
		return dataset.Point(theta, in.Ranges)
	}
	out, err := dataset.Coefficients(theta, in.Ranges, in.Target, in.Kind.Supervised())
	if err != nil {
		return theta
	}
	return out
}
