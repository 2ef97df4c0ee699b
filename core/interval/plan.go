package interval

import (
	"fmt"
	"math"

	"github.com/dpsample/dpsample/core/checks"
	"github.com/dpsample/dpsample/core/privacy"
)

// Shares split a request's GDP budget s between DP-GD's run and the three
// releases of the interval, as fractions of s² (GDP parameters compose as
// √Σ sᵢ², so s_part = s·√share): Model + Gradient + Hessian + Score = 1.
type Shares struct {
	Model, Gradient, Hessian, Score float64
}

// DefaultShares is the public split (package doc, "The split"): 40 % of s²
// to the model and to the gradient each, 10 % to the curvature and to the
// score covariance each.
var DefaultShares = Shares{Model: 0.4, Gradient: 0.4, Hessian: 0.1, Score: 0.1}

// The gate (package doc, "The gate"): intervals are released when
// n·s ≥ max(MinNS, NSPerCoefficient·d), s the request's whole GDP budget and
// d the number of coefficients (the intercept included), and d ≤ MaxDim.
const (
	MinNS            = 2500
	NSPerCoefficient = MinNS / 9.0
	MaxDim           = 64
)

// GateNS is the gate's bound on n·s for d coefficients.
func GateNS(d int) float64 { return math.Max(MinNS, NSPerCoefficient*float64(d)) }

// Params are the public inputs of an interval's plan.
type Params struct {
	N, D int
	// G is the loss's Lipschitz constant (sup|φ'|·clip) and Curvature its
	// β·clip² (loss.Set.G, loss.Set.Curvature): the bounds of ∇ℓ and ∇²ℓ.
	G, Curvature float64
	Radius       float64 // C: the interval is intersected with [−C, C]
	Level        float64 // in (0, 1)
	// GDP is s, the request's whole budget (privacy.Calibrate(Epsilon,
	// Delta)); Epsilon and Delta only phrase the gate's reason.
	GDP, Epsilon, Delta float64
	// Shares, if non-zero, replaces DefaultShares (the study's comparison).
	Shares Shares
	// MinNS, if > 0, replaces the gate's bound GateNS(D) (the study
	// measures below the gate).
	MinNS float64
}

// Part is one of the three releases: its GDP share, its replace-one L2
// sensitivity and the noise sd added to each coordinate of its released
// vector (for a matrix: the diagonal; off the diagonal the sd is Noise/√2).
type Part struct {
	GDP         float64 `json:"gdp"`
	Sensitivity float64 `json:"sensitivity"`
	Noise       float64 `json:"noise"`
}

// Plan is the public, data-independent plan of an interval: the gate, the
// split of the budget and the noise of every release.
type Plan struct {
	Level float64 `json:"level"`
	// Gate is whether intervals are released; when false Reason says why in
	// words, the model gets the whole budget (Model = GDP) and nothing else
	// is released.
	Gate   bool    `json:"gate"`
	Reason string  `json:"reason,omitempty"`
	NS     float64 `json:"ns"`    // n·s
	MinNS  float64 `json:"minNS"` // the gate's bound on n·s, GateNS(d)
	// GDP is the whole budget s; Model is DP-GD's share s_m (its schedule's
	// GDP); Gradient, Hessian and Score are g̃, H̃ and J̃.
	GDP      float64 `json:"gdp"`
	Model    float64 `json:"model"`
	Gradient Part    `json:"gradient"`
	Hessian  Part    `json:"hessian"`
	Score    Part    `json:"score"`
	// Passes is the releases' work in passes of n·d multiply-adds: one for
	// the margins and g, d + 1 for the upper triangles of H and J (0 below
	// the gate).
	Passes float64 `json:"passes"`
	Why    string  `json:"why"`

	n, d         int
	curv, radius float64
}

// NewPlan fixes the plan from public inputs. Errors name the field
// ("interval" for the level).
func NewPlan(p Params) (Plan, error) {
	if err := checks.First(checks.IntRange("n", p.N, 2, math.MaxInt32), checks.IntRange("d", p.D, 1, math.MaxInt32),
		checks.Positive("G", p.G), checks.Positive("curvature", p.Curvature), checks.Positive("radius", p.Radius),
		checks.Positive("gdp", p.GDP), CheckLevel("interval", p.Level)); err != nil {
		return Plan{}, err
	}
	sh := p.Shares
	if sh == (Shares{}) {
		sh = DefaultShares
	}
	if tot := sh.Model + sh.Gradient + sh.Hessian + sh.Score; !(sh.Model > 0 && sh.Gradient > 0 && sh.Hessian > 0 && sh.Score > 0) || math.Abs(tot-1) > 1e-12 {
		return Plan{}, checks.Errorf("shares", "four positive fractions summing to 1, got %+v", sh)
	}
	if p.MinNS <= 0 {
		p.MinNS = GateNS(p.D)
	}
	n := float64(p.N)
	pl := Plan{Level: p.Level, NS: n * p.GDP, MinNS: p.MinNS, GDP: p.GDP, Model: p.GDP, n: p.N, d: p.D, curv: p.Curvature, radius: p.Radius}
	if reason := gateReason(p); reason != "" {
		pl.Reason = reason
		pl.Why = "no intervals (" + reason + "): the whole budget goes to the model"
		return pl, nil
	}
	pl.Gate = true
	part := func(share, sens float64) Part {
		s := p.GDP * math.Sqrt(share)
		return Part{GDP: s, Sensitivity: sens, Noise: sens / s}
	}
	pl.Model = p.GDP * math.Sqrt(sh.Model)
	pl.Gradient = part(sh.Gradient, 2*p.G/n)
	pl.Hessian = part(sh.Hessian, math.Sqrt2*p.Curvature/n)
	pl.Score = part(sh.Score, math.Sqrt2*p.G*p.G/n)
	pl.Passes = float64(p.D) + 2
	pl.Why = fmt.Sprintf("%g %% intervals: of the budget s = %s, the model (DP-GD) gets s_m = %s and the gradient, curvature and score releases at its θ "+
		"s_g = %s, s_H = %s, s_J = %s (√(s_m² + s_g² + s_H² + s_J²) = s); noise sd %s, %s, %s", 100*p.Level,
		checks.Fmt(p.GDP), fmt3(pl.Model), fmt3(pl.Gradient.GDP), fmt3(pl.Hessian.GDP), fmt3(pl.Score.GDP),
		fmt3(pl.Gradient.Noise), fmt3(pl.Hessian.Noise), fmt3(pl.Score.Noise))
	return pl, nil
}

func fmt3(v float64) string { return fmt.Sprintf("%.3g", v) }

// CheckLevel requires an interval's level to be a number in (0, 1), such
// as 0.95.
func CheckLevel(field string, level float64) error {
	if math.IsNaN(level) || !(level > 0 && level < 1) {
		return &checks.Error{Field: field, Rule: "a level in (0, 1), such as 0.95", Got: checks.Fmt(level)}
	}
	return nil
}

// gateReason returns why no interval is released for p, in words, or "".
func gateReason(p Params) string {
	if p.D > MaxDim {
		return fmt.Sprintf("no intervals: this model has %d coefficients and intervals are released for at most %d", p.D, MaxDim)
	}
	ns := float64(p.N) * p.GDP
	if ns >= p.MinNS {
		return ""
	}
	why := fmt.Sprintf("no intervals: n·s = %s is below the %s that %d coefficients need (n = %s rows, s = %.3g",
		thousands(ns), thousands(p.MinNS), p.D, thousands(float64(p.N)), p.GDP)
	if p.Epsilon > 0 && p.Delta > 0 && p.Delta < 1 {
		why += fmt.Sprintf(" at ε = %g, δ = %g", p.Epsilon, p.Delta)
	}
	why += "); below it the intervals measured either spanned the whole radius or held the true value less often than they said. "
	rows := thousands(math.Ceil(p.MinNS / p.GDP))
	if p.Delta > 0 && p.Delta < 1 {
		if eps, err := privacy.Epsilon(p.MinNS/float64(p.N), p.Delta); err == nil {
			return why + fmt.Sprintf("%s rows at this budget, or ε ≥ %s at these rows, would pass it", rows, roundUp2(eps))
		}
	}
	return why + rows + " rows at this budget would pass it"
}

// thousands formats a non-negative number rounded to an integer with
// thousands separators (12,345).
func thousands(v float64) string {
	s := fmt.Sprintf("%.0f", v)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// roundUp2 formats v > 0 rounded up to two significant digits.
func roundUp2(v float64) string {
	e := math.Pow(10, math.Floor(math.Log10(v))-1)
	return fmt.Sprintf("%g", math.Ceil(v/e-1e-9)*e)
}
