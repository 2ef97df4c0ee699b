package loss

import (
	"math"

	"github.com/dpsample/dpsample/core/checks"
)

// Kind identifies a loss.
type Kind uint8

// The losses of the package documentation.
const (
	L1 Kind = iota
	L2Dist
	LAD
	Quantile
	Hinge
	Logistic
	Huber
	Linear
	LinExt
	SmoothHinge    // Huberised hinge (smooth.go)
	SmoothQuantile // Huberised quantile / LAD (smooth.go)
	numKinds
)

var names = [numKinds]string{"l1", "l2dist", "lad", "quantile", "hinge", "logistic", "huber", "linear", "linext",
	"smooth-hinge", "smooth-quantile"}

// String returns the loss name used by the API ("l1", "hinge", …).
func (k Kind) String() string {
	if k < numKinds {
		return names[k]
	}
	return "unknown"
}

// Names lists the accepted loss names.
func Names() []string { return names[:] }

// ParseKind maps an API loss name to its Kind; the error names the field "loss".
func ParseKind(name string) (Kind, error) {
	for k, s := range names {
		if s == name {
			return Kind(k), nil
		}
	}
	return 0, &checks.Error{Field: "loss", Rule: "one of " + quotedNames(), Got: quote(name)}
}

// quotedNames lists the accepted names as `"l1", "l2dist", …`.
func quotedNames() string {
	out := ""
	for i, s := range names {
		if i > 0 {
			out += ", "
		}
		out += `"` + s + `"`
	}
	return out
}

func quote(s string) string {
	if len(s) > 40 {
		s = s[:40] + "…"
	}
	return `"` + s + `"`
}

// Supervised reports whether the loss needs targets y.
func (k Kind) Supervised() bool {
	switch k {
	case LAD, Quantile, Hinge, Logistic, Huber, SmoothHinge, SmoothQuantile:
		return true
	}
	return false
}

// Classification reports whether y must be a ±1 label.
func (k Kind) Classification() bool { return k == Hinge || k == Logistic || k == SmoothHinge }

// Location reports whether the rows are points z (not features): l1, l2dist.
func (k Kind) Location() bool { return k == L1 || k == L2Dist }

// Params are the declared public bounds and shape parameters of a loss. Zero
// values select the defaults.
type Params struct {
	Clip  float64 // bound on ‖x‖₂ for feature losses; default 1
	Tau   float64 // quantile level in (0,1); default 0.5
	Huber float64 // Huber threshold h > 0 (also the smoothing width of smooth-hinge, smooth-quantile); default 1
	Ball  float64 // radius R of K for linext; default 1
}

// withDefaults validates p and fills in defaults; errors name the API field
// ("clip", "tau", "huber", "ball").
func (p Params) withDefaults() (Params, error) {
	def := func(field string, v *float64, d float64) error {
		if *v == 0 && !math.Signbit(*v) {
			*v = d
			return nil
		}
		return checks.Positive(field, *v)
	}
	if err := def("clip", &p.Clip, 1); err != nil {
		return p, err
	}
	if err := def("huber", &p.Huber, 1); err != nil {
		return p, err
	}
	if err := def("ball", &p.Ball, 1); err != nil {
		return p, err
	}
	if p.Tau == 0 && !math.Signbit(p.Tau) {
		p.Tau = 0.5
	} else if math.IsNaN(p.Tau) || !(p.Tau > 0 && p.Tau < 1) {
		return p, &checks.Error{Field: "tau", Rule: "a number in (0, 1)", Got: checks.Fmt(p.Tau)}
	}
	return p, nil
}

// Lipschitz returns the ℓ2 Lipschitz constant G of ℓ(·; z) over R^d, valid
// for every record allowed by the public bounds p (see the package table).
// It never looks at data. Invalid p gives an error naming the field.
func Lipschitz(k Kind, p Params) (float64, error) {
	p, err := p.withDefaults()
	if err != nil {
		return 0, err
	}
	switch k {
	case L1, L2Dist:
		return 1, nil
	case LAD, Hinge, Logistic, Linear, LinExt, SmoothHinge:
		return p.Clip, nil
	case Quantile, SmoothQuantile:
		return math.Max(p.Tau, 1-p.Tau) * p.Clip, nil
	case Huber:
		return p.Huber * p.Clip, nil
	}
	return 0, checks.Errorf("loss", "a known loss")
}
