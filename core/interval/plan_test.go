package interval

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/dpsample/dpsample/core/checks"
	"github.com/dpsample/dpsample/core/privacy"
)

func logisticParams(n, d int, eps float64) Params {
	s, _ := privacy.Calibrate(eps, 1e-5)
	clip := math.Sqrt(float64(d))
	return Params{N: n, D: d, G: clip, Curvature: clip * clip / 4, Radius: 16 / clip, Level: 0.95, GDP: s, Epsilon: eps, Delta: 1e-5}
}

// TestGate: the gate is n·s ≥ max(2500, 2500·d/9) and d ≤ MaxDim; below it
// the reason names n·s, the bound, the rows and the budget, and the rows
// and the ε it proposes pass the gate (one row fewer, or ε one unit of its
// second digit lower, does not); the model
// then gets the whole budget and no release is planned.
func TestGate(t *testing.T) {
	for _, c := range []struct {
		n, d int
		eps  float64
	}{{2000, 4, 1}, {9000, 4, 1}, {400, 2, 5}, {9400, 9, 1}, {20000, 17, 1}, {500, 31, 2}, {100000, 65, 1}} {
		p := logisticParams(c.n, c.d, c.eps)
		pl, err := NewPlan(p)
		if err != nil {
			t.Fatal(err)
		}
		bound := math.Max(2500, 2500*float64(c.d)/9)
		want := float64(c.n)*p.GDP >= bound && c.d <= MaxDim
		where := fmt.Sprintf("n=%d d=%d ε=%g", c.n, c.d, c.eps)
		if pl.Gate != want || (pl.Reason == "") != want || math.Abs(pl.MinNS-bound) > 1e-9*bound {
			t.Errorf("%s: gate %v (want %v), bound %v, reason %q", where, pl.Gate, want, pl.MinNS, pl.Reason)
		}
		if want {
			continue
		}
		if pl.Model != p.GDP || pl.Passes != 0 || pl.Gradient != (Part{}) || !strings.HasPrefix(pl.Reason, "no intervals: ") {
			t.Errorf("%s: below the gate the plan is %+v", where, pl)
		}
		if c.d > MaxDim {
			if !strings.Contains(pl.Reason, fmt.Sprintf("at most %d", MaxDim)) {
				t.Errorf("%s: reason %q", where, pl.Reason)
			}
			continue
		}
		var rows int
		var eps float64
		tail := pl.Reason[strings.Index(pl.Reason, "said. ")+len("said. "):]
		fmt.Sscanf(strings.ReplaceAll(tail, ",", ""), "%d", &rows) // thousands separators
		fmt.Sscanf(pl.Reason[strings.Index(pl.Reason, "ε ≥ ")+len("ε ≥ "):], "%g", &eps)
		if float64(rows)*p.GDP < bound || float64(rows-1)*p.GDP >= bound {
			t.Errorf("%s: proposes %d rows, n·s then %v (bound %v)", where, rows, float64(rows)*p.GDP, bound)
		}
		s, _ := privacy.Calibrate(eps, 1e-5)
		if float64(c.n)*s < bound {
			t.Errorf("%s: proposes ε ≥ %v, n·s then %v < %v", where, eps, float64(c.n)*s, bound)
		}
		unit := math.Pow(10, math.Floor(math.Log10(eps))-1) // ε is rounded up to two digits
		if s2, _ := privacy.Calibrate(eps-unit, 1e-5); float64(c.n)*s2 >= bound {
			t.Errorf("%s: proposes ε ≥ %v but %v passes too", where, eps, eps-unit)
		}
	}
}

// TestPlanSplit: above the gate the four shares compose to s, each release's
// noise is its sensitivity over its share, and the plan is the same for the
// same public inputs; a bad level is an error naming "interval".
func TestPlanSplit(t *testing.T) {
	p := logisticParams(50000, 5, 1)
	pl, err := NewPlan(p)
	if err != nil {
		t.Fatal(err)
	}
	sum := pl.Model*pl.Model + pl.Gradient.GDP*pl.Gradient.GDP + pl.Hessian.GDP*pl.Hessian.GDP + pl.Score.GDP*pl.Score.GDP
	if !pl.Gate || math.Abs(math.Sqrt(sum)-p.GDP) > 1e-12*p.GDP {
		t.Errorf("split composes to %v, s = %v", math.Sqrt(sum), p.GDP)
	}
	n := 50000.0
	for _, c := range []struct {
		part       Part
		sens, frac float64
	}{{pl.Gradient, 2 * p.G / n, DefaultShares.Gradient}, {pl.Hessian, math.Sqrt2 * p.Curvature / n, DefaultShares.Hessian},
		{pl.Score, math.Sqrt2 * p.G * p.G / n, DefaultShares.Score}} {
		if math.Abs(c.part.Sensitivity-c.sens) > 1e-15*c.sens || math.Abs(c.part.GDP-p.GDP*math.Sqrt(c.frac)) > 1e-15 || c.part.Noise != c.part.Sensitivity/c.part.GDP {
			t.Errorf("part %+v, want sensitivity %v at share %v", c.part, c.sens, c.frac)
		}
	}
	if pl.Passes != 7 {
		t.Errorf("passes %v, want d + 2 = 7", pl.Passes)
	}
	for _, lv := range []float64{0, 1, -0.5, 1.5, math.NaN(), math.Inf(1), 95} {
		q := p
		q.Level = lv
		var ce *checks.Error
		if _, err := NewPlan(q); !errors.As(err, &ce) || ce.Field != "interval" {
			t.Errorf("level %v: %v", lv, err)
		}
	}
}
