package mechanism

import (
	"context"
	"math"
	"testing"

	"github.com/dpsample/dpsample/core/loss"
	"github.com/dpsample/dpsample/core/rng"
)

// The first-order sampler in the exact 1-D audit. Its RGO is exact, so the
// law of its output is π (Algorithm 1's density with the plan's η, μ) up to
// the plan's TV, which the calibration charges as (1 + e^ε)·TV to δ. The
// audit integrates π on the Huber far pair — records x = 1, targets at ±A
// (farPair) with one target moved from −A to +A: on the window every
// residual is beyond the threshold, Huber is linear with slope ±h·clip = ±G,
// and the pair attains the GDP curve exactly — and checks
// δ_actual(ε) ≤ DeltaCurve (tight), then KS-tests the mechanism's own
// first-order draws (prepare → newDrawer → draw) against π's CDF.

func huberLogDensity(t *testing.T, z []float64, eta, mu float64) func(float64) float64 {
	return huberLogDensityH(t, z, 0, eta, mu)
}

// huberLogDensityH is log π up to a constant for Huber threshold h (0: the
// default 1) on records x = 1 with targets z.
func huberLogDensityH(t *testing.T, z []float64, h, eta, mu float64) func(float64) float64 {
	set, err := loss.New(loss.Huber, column(ones(len(z))), z, loss.Params{Huber: h})
	if err != nil {
		t.Fatal(err)
	}
	x := []float64{0}
	return func(v float64) float64 { x[0] = v; return -eta * (set.Mean(x) + mu/2*v*v) }
}

func ones(n int) []float64 {
	o := make([]float64, n)
	for i := range o {
		o[i] = 1
	}
	return o
}

func smoothAuditPlan(t *testing.T, n int, eps, delta float64) Plan {
	pl, err := NewPlan(Request{Loss: "huber", X: column(ones(n)), Y: farPair(n, -1), TargetRange: []float64{-farA, farA}, Epsilon: eps, Delta: delta, Radius: 1, Sampler: SamplerSmooth})
	if err != nil {
		t.Fatal(err)
	}
	if pl.Method != MethodFirstOrder || pl.TV <= 0 || pl.TVMix+pl.TVRGO > pl.TV {
		t.Fatalf("plan %+v", pl)
	}
	if want := delta - pl.DeltaSampler; pl.DeltaCurve > want*(1+1e-12) || pl.DeltaSampler < (1+math.Exp(eps))*pl.TV*(1-1e-12) {
		t.Fatalf("δ split: curve %g + sampler %g (TV %g) vs δ %g", pl.DeltaCurve, pl.DeltaSampler, pl.TV, delta)
	}
	return pl
}

func smoothAuditDeltas(t *testing.T, n int, eta, mu, eps float64) float64 {
	uP, uQ := huberLogDensity(t, farPair(n, -1), eta, mu), huberLogDensity(t, farPair(n, 1), eta, mu)
	sigma := 1 / math.Sqrt(eta*mu)
	w := 1/mu + 45*sigma
	if w > farA-1 {
		t.Fatalf("window %g leaves the linear region", w)
	}
	cells := 6000
	if testing.Short() {
		cells = 3000
	}
	return math.Max(hockeyStick(uP, uQ, eps, -w, w, cells), hockeyStick(uQ, uP, eps, -w, w, cells))
}

func TestSmoothAudit1D(t *testing.T) {
	for _, n := range []int{5, 20} {
		for _, delta := range auditDelta {
			for _, eps := range auditEps {
				pl := smoothAuditPlan(t, n, eps, delta)
				got := smoothAuditDeltas(t, n, pl.Eta, pl.Mu, eps)
				t.Logf("n=%d ε=%v δ=%v: δ_actual/δ_curve − 1 = %.3g (TV %.3g, sampler share of δ %.3g)", n, eps, delta, got/pl.DeltaCurve-1, pl.TV, pl.DeltaSampler)
				if got > pl.DeltaCurve*(1+auditTol) {
					t.Errorf("n=%d ε=%v δ=%v: δ_actual %.6g > δ_curve %.6g", n, eps, delta, got, pl.DeltaCurve)
				}
				if got < pl.DeltaCurve*(1-1e-3) {
					t.Errorf("n=%d ε=%v δ=%v: δ_actual %.6g: the far pair should attain the curve %.6g", n, eps, delta, got, pl.DeltaCurve)
				}
			}
		}
	}
}

// curvedRequest is the audit's curved pair (audit.go) as a request.
func curvedRequest(side, eps, delta float64) Request {
	return Request{Loss: "huber", X: column(ones(auditCurvedN)), Y: auditCurvedPair(auditCurvedN, side), Huber: auditCurvedHuber,
		Epsilon: eps, Delta: delta, Radius: auditCurvedRadius, Sampler: SamplerSmooth}
}

// TestSmoothAuditDetectsMiscalibration: μ 1% too small fails the same audit.
func TestSmoothAuditDetectsMiscalibration(t *testing.T) {
	for _, eps := range []float64{0.5, 2} {
		pl := smoothAuditPlan(t, 5, eps, 1e-6)
		if got := smoothAuditDeltas(t, 5, pl.Eta, 0.99*pl.Mu, eps); got <= pl.DeltaCurve*(1+auditTol) {
			t.Errorf("ε=%v: μ·0.99 passed (δ_actual/δ_curve = %.6f)", eps, got/pl.DeltaCurve)
		}
	}
}

// TestSmoothAuditSamplerLaw: the mechanism's first-order draws on each
// dataset of the far pair, on a close Huber pair and on the curved pair
// (audit.go; the oracle rejects there: share of rejected trials > 0.2
// asserted) follow the audited density: KS at α = 1e-3 with critical value
// √(ln(2/α)/2)/√m + TV. The accept-all oracle fails the same test on the
// curved pair. (The exact hockey-stick audit of TestSmoothAudit1D is a
// property of π alone, not of the oracle; on the curved pair δ_actual is 0
// to quadrature precision, so it stays on the far pair, which attains the
// curve.)
func TestSmoothAuditSamplerLaw(t *testing.T) {
	const n, eps, delta = 5, 1.0, 1e-6
	m := 2000
	if testing.Short() {
		m = 700
	}
	close := []float64{-0.3, 0.1, 0.2, 0.5, 0.9}
	reqs := []Request{}
	for _, z := range [][]float64{farPair(n, -1), farPair(n, 1), close} {
		reqs = append(reqs, Request{Loss: "huber", X: column(ones(n)), Y: z, TargetRange: []float64{-farA, farA}, Epsilon: eps, Delta: delta, Radius: 1, Sampler: SamplerSmooth})
	}
	reqs = append(reqs, curvedRequest(1, eps, delta), curvedRequest(1, eps, delta))
	for i, req := range reqs {
		broken := i == len(reqs)-1
		p, err := prepare(req)
		if err != nil {
			t.Fatal(err)
		}
		p.acceptAll = broken
		pl := p.plan
		m := m
		if len(req.Y) == auditCurvedN {
			m = 3000 // the broken oracle's KS distance is ≈ 0.07: crit 0.035 + TV at 3000 draws
		}
		lc, err := exactLaw(p)
		if err != nil {
			t.Fatal(err)
		}
		dr, err := newDrawer(p)
		if err != nil {
			t.Fatal(err)
		}
		r := rng.Seeded(77)
		out := []float64{0}
		xs := make([]float64, m)
		var st Diagnostics
		for i := range xs {
			if err := dr.draw(context.Background(), r, out, &st, func(int, int) {}); err != nil {
				t.Fatal(err)
			}
			round(out, pl.Grid)
			xs[i] = out[0]
		}
		ks := 0.0
		sortFloats(xs)
		for i, v := range xs {
			f := lc.CDF(v)
			ks = math.Max(ks, math.Max(f-float64(i)/float64(m), float64(i+1)/float64(m)-f))
		}
		crit := math.Sqrt(math.Log(2/1e-3)/2)/math.Sqrt(float64(m)) + pl.TV
		rej := 1 - float64(int64(m*pl.Steps)-st.Failures-st.Overruns)/float64(st.Trials-st.Padded)
		t.Logf("targets %v (n=%d, broken %v): T=%d, KS %.4f (crit %.4f), rejection %.3f", req.Y[:2], len(req.Y), broken, pl.Steps, ks, crit, rej)
		switch {
		case broken && ks <= crit:
			t.Errorf("accept-all oracle passed KS on the curved pair (%.4f ≤ %.4f)", ks, crit)
		case !broken && ks > crit:
			t.Errorf("targets %v: first-order draws KS %.4f > %.4f", req.Y, ks, crit)
		case !broken && len(req.Y) == auditCurvedN && rej <= 0.2:
			t.Errorf("curved pair: rejection %.3f ≤ 0.2", rej)
		}
	}
}

func sortFloats(x []float64) {
	for i := 1; i < len(x); i++ {
		for j := i; j > 0 && x[j] < x[j-1]; j-- {
			x[j], x[j-1] = x[j-1], x[j]
		}
	}
}
