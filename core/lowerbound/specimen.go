package lowerbound

import (
	"github.com/dpsample/dpsample/core/checks"
	"github.com/dpsample/dpsample/core/fingerprint"
	"github.com/dpsample/dpsample/core/rng"
)

// Specimen replays the first trial of a seeded Run on another thread or
// machine: the same code (and so its secret permutation, through
// Code.Source) and the same mechanism output θ, bit for bit. The site's
// attack walk-through uses it to draw the worker's trial without shipping
// the D-column output across.
type Specimen struct {
	Code *fingerprint.Code
	opts Options // normalised; the code-defining fields
}

// NewSpecimen rebuilds the code of the first trial of Run(o). o.Seed must be
// set (an unseeded run cannot be replayed); the mechanism fields are ignored.
func NewSpecimen(o Options) (*Specimen, error) {
	if o.Seed == nil {
		return nil, checks.Errorf("seed", "set: only a seeded run can be replayed")
	}
	if o.Mechanism == "" {
		o.Mechanism = Median // any valid mechanism: the code does not depend on it
	}
	o, _, err := o.normalize()
	if err != nil {
		return nil, err
	}
	rCode := rng.Split(rng.Seeded(*o.Seed))
	code, err := fingerprint.New(fingerprint.Params{N: o.N, Xi: o.Xi, Mode: o.Mode}, rCode)
	if err != nil {
		return nil, err
	}
	return &Specimen{Code: code, opts: o}, nil
}

// pass replays the first trial's full-data pass of the mechanism in o (which
// must define the same code as the specimen) and calls visit for each of the
// first cols columns with θ_k; it returns the pass's excess over all D columns
// when all is true.
func (sp *Specimen) pass(o Options, cols int, all bool, visit func(k int, theta float64)) (float64, error) {
	o, _, err := o.normalize()
	if err != nil {
		return 0, err
	}
	if o.Seed == nil || *o.Seed != *sp.opts.Seed || o.N != sp.opts.N || o.Xi != sp.opts.Xi || o.Mode != sp.opts.Mode ||
		o.Copies != sp.opts.Copies || o.Pad != sp.opts.Pad {
		return 0, checks.Errorf("options", "the seed, n, xi, mode, copies and pad the specimen was built with")
	}
	root := rng.Seeded(*o.Seed)
	rng.Split(root) // the code's stream
	rMech := rng.Split(root)
	D := sp.Code.Length
	full, err := fullInfo(o, D)
	if err != nil {
		return 0, err
	}
	rows := o.rows(0)
	law, _, err := o.law(rows, D, full)
	if err != nil {
		return 0, err
	}
	last := min(cols, D)
	if all {
		last = D
	}
	total := 0.0
	for k := 0; k < last; k++ {
		ones := sp.Code.Ones(k) * o.Copies
		theta := law.sample(rMech, ones)
		total += excess(theta, ones, rows)
		if k < cols {
			visit(k, theta)
		}
	}
	return total, nil
}

// Theta returns the first trial's θ on the first cols published columns for
// the mechanism in o (same seed and code fields as the specimen).
func (sp *Specimen) Theta(o Options, cols int) ([]float64, error) {
	out := make([]float64, min(cols, sp.Code.Length))
	_, err := sp.pass(o, len(out), false, func(k int, t float64) { out[k] = t })
	return out, err
}

// ExcessOverD returns the first trial's excess/D for the mechanism in o; it
// equals Run(o).ExcessOverD[0] exactly.
func (sp *Specimen) ExcessOverD(o Options) (float64, error) {
	total, err := sp.pass(o, 0, true, func(int, float64) {})
	return total / float64(sp.Code.Length), err
}
