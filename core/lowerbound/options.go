package lowerbound

import (
	"fmt"

	"github.com/dpsample/dpsample/core/checks"
	"github.com/dpsample/dpsample/core/fingerprint"
)

// Options configure one lower-bound experiment (JS: dpsample.lowerbound.run).
type Options struct {
	N         int              `json:"n"`              // distinct users (code rows), n ≥ 2
	Xi        float64          `json:"xi"`             // code security ξ ∈ (0,1)
	Mode      fingerprint.Mode `json:"mode,omitempty"` // "tardos" (default) or "symmetric"
	Mechanism Mechanism        `json:"mechanism"`
	Epsilon   float64          `json:"epsilon,omitempty"` // exponential, gaussian; box-exponential if S is nil
	Delta     float64          `json:"delta,omitempty"`   // exponential, gaussian
	S         *float64         `json:"s,omitempty"`       // box-exponential: s = εn/(2D) ≥ 0
	// Remove, if set, is the user i of the soundness run: every trial also
	// runs the mechanism on the dataset without user i's rows and traces it.
	Remove *int `json:"remove,omitempty"`
	Ghosts int  `json:"ghosts,omitempty"` // fresh innocent rows scored per trial
	Trials int  `json:"trials,omitempty"` // default 1
	// Copies and Pad build Lemma 3.6's group-privacy dataset: each of the n
	// code rows repeated Copies times (default 1), then Pad all-zero rows.
	Copies int     `json:"copies,omitempty"`
	Pad    int     `json:"pad,omitempty"`
	Seed   *uint64 `json:"seed,omitempty"` // reproducible, NOT private

	// dropCopies is a test hook: how many of user Remove's copies the
	// removal pass drops (0: all of them, the correct experiment).
	dropCopies int
}

// Limits on the sizes an experiment accepts.
const (
	MaxTrials = 1_000_000
	MaxGhosts = 100_000
	MaxCopies = 100_000
)

func (o Options) normalize() (Options, fingerprint.Lengths, error) {
	l, err := fingerprint.Compute(fingerprint.Params{N: o.N, Xi: o.Xi, Mode: o.Mode})
	if err != nil {
		return o, l, err
	}
	if o.Mode == "" {
		o.Mode = fingerprint.Tardos
	}
	if o.Trials == 0 {
		o.Trials = 1
	}
	if o.Copies == 0 {
		o.Copies = 1
	}
	for _, c := range []struct {
		field   string
		v, a, b int
	}{{"trials", o.Trials, 1, MaxTrials}, {"ghosts", o.Ghosts, 0, MaxGhosts},
		{"copies", o.Copies, 1, MaxCopies}, {"pad", o.Pad, 0, MaxCopies}} {
		if err := checks.IntRange(c.field, c.v, c.a, c.b); err != nil {
			return o, l, err
		}
	}
	if o.Remove != nil {
		if err := checks.IntRange("remove", *o.Remove, 0, o.N-1); err != nil {
			return o, l, err
		}
	}
	switch o.Mechanism {
	case Median:
	case Exponential, Gaussian:
		if err := checks.Epsilon("epsilon", o.Epsilon); err != nil {
			return o, l, err
		}
		if err := checks.DeltaForN("delta", o.Delta, o.rows(0)); err != nil {
			return o, l, err
		}
	case BoxExponential:
		if o.S != nil {
			if err := checks.NonNegative("s", *o.S); err != nil {
				return o, l, err
			}
		} else if err := checks.Epsilon("epsilon", o.Epsilon); err != nil {
			return o, l, checks.Errorf("epsilon", "a finite number > 0 (or give s) for box-exponential, got %s", checks.Fmt(o.Epsilon))
		}
	default:
		return o, l, &checks.Error{Field: "mechanism", Rule: `one of "median", "exponential", "box-exponential", "gaussian"`,
			Got: fmt.Sprintf("%q", string(o.Mechanism))}
	}
	return o, l, nil
}

// rows is the number of rows the mechanism sees when `removed` users are left out.
func (o Options) rows(removed int) int { return o.Copies*(o.N-removed) + o.Pad }

// dropped is the number of user Remove's rows the removal pass leaves out.
func (o Options) dropped() int {
	if o.dropCopies > 0 {
		return o.dropCopies
	}
	return o.Copies
}

// law builds the per-column law for a dataset of `rows` rows in dimension D.
// Every data-independent parameter is fixed by the full dataset (full): the
// removal pass runs the same mechanism on one person fewer, which is what a
// neighbour is (see Claim) — not a mechanism re-calibrated for the smaller
// size. (For Algorithm 1, a = s/√(2D) and b = 1 do not depend on N anyway.)
func (o Options) law(rows, D int, full MechanismInfo) (columnLaw, MechanismInfo, error) {
	switch o.Mechanism {
	case Median:
		return medianLaw{rows}, MechanismInfo{Name: Median}, nil
	case BoxExponential:
		lambda := full.Epsilon / (2 * float64(D))
		return boxLaw{lambda: lambda, rows: rows}, full, nil
	case Gaussian:
		return gaussLaw{sigma: full.Sigma, rows: rows}, full, nil
	}
	return newBinaryLaw(rows, full)
}
