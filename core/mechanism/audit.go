package mechanism

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"sync"

	"github.com/dpsample/dpsample/core/checks"
	"github.com/dpsample/dpsample/core/privacy"
	"github.com/dpsample/dpsample/core/rng"
	"github.com/dpsample/dpsample/core/stats"
)

// Empirical privacy audit (issue 16 item 4) of the mechanism as shipped —
// prepare, newDrawer, draw, round — with each of its samplers on the 1-D
// worst-case pair of neighbouring datasets, by Monte Carlo with
// Clopper–Pearson bounds.
//
// The pair (the "far pair" of the exact audit, audit_test.go): n records
// with x = 1 and targets ±A, A = AuditFar, beyond all the output mass; one
// target moves from −A to +A. On the window |θ| ≤ A every residual θ − y_i
// has the sign of −y_i, so LAD (|r|) and Huber (slope ±1 beyond the
// threshold 1) are linear there: Algorithm 1's density is exactly Gaussian,
// π_D = N(m_D, 1/(ημ)), m_D = Σ sign(y_i)/(nμ), and the two means differ by
// 2G/(nμ) = s/√(ημ) — the pair attains the GDP curve δ_s(ε), the worst case
// of Lemma E.1. LAD (non-smooth) is the zeroth-order sampler's loss, Huber
// (smooth) the first-order sampler's; "exact" runs LAD through the exact 1-D
// sampler as the reference.
//
// The rejection set S = {θ > c} is fixed before any draw from the exact law
// (no data-dependent choice): c is the one of a grid of tail levels
// q = P_D(S) that maximises the audit's expected lower bound at the given
// number of draws. With k_D, k_D′ hits in m draws per side, two-sided
// Clopper–Pearson intervals at level 1 − α for P_D(S) and P_D′(S) give, with
// probability ≥ 1 − α (each interval fails with ≤ α/2 on its side),
//
//	ε ≥ ε_lower = ln((lo(P_D′(S)) − δ)/hi(P_D(S))),
//
// since (ε, δ)-DP demands P_D′(S) ≤ e^ε·P_D(S) + δ. A correctly calibrated
// mechanism gives ε_lower ≤ ε except with probability ≤ α; the paper's
// literal constants (PaperConstants: s = ε/√2 whatever δ) are caught when
// ε_lower > ε.

// AuditFar is A, the distance of the far pair's targets.
const AuditFar = 1000

// Audit constants.
const (
	AuditPaper      = "paper"      // LLL's literal η, μ (PaperConstants)
	AuditCalibrated = "calibrated" // the plan's η, μ (Calibrate)
)

// AuditConfig is one audit.
type AuditConfig struct {
	Sampler   string  `json:"sampler"`   // "exact", "proximal" (zeroth-order) or "smooth" (first-order)
	Constants string  `json:"constants"` // "calibrated" (default) or "paper"
	N         int     `json:"n"`         // records (default 5)
	Epsilon   float64 `json:"epsilon"`   // claimed ε
	Delta     float64 `json:"delta"`     // claimed δ
	Draws     int     `json:"draws"`     // per dataset
	Alpha     float64 `json:"alpha"`     // the bound fails with probability ≤ α (default 1e-3)
	Seed      uint64  `json:"seed"`      // the draws are seeded: the audit is a test, not a release
}

// AuditResult is the outcome of Audit.
type AuditResult struct {
	AuditConfig
	Loss       string  `json:"loss"`
	Method     string  `json:"method"`
	Eta        float64 `json:"eta"`
	Mu         float64 `json:"mu"`
	GDP        float64 `json:"gdp"`   // s of the constants used (2G√η/(n√μ))
	TV         float64 `json:"tv"`    // the sampler's TV budget (0: exact)
	Steps      int     `json:"steps"` // T (0: exact)
	Threshold  float64 `json:"threshold"`
	TailD      float64 `json:"tailD"`      // exact P_D(S)
	TailD2     float64 `json:"tailD2"`     // exact P_D′(S)
	HitsD      int     `json:"hitsD"`      // draws in S on D
	HitsD2     int     `json:"hitsD2"`     // draws in S on D′
	IdealLower float64 `json:"idealLower"` // ln((P_D′(S) − δ)/P_D(S)) under the exact law: what infinitely many draws would show
	EpsLower   float64 `json:"epsLower"`   // the Clopper–Pearson lower bound on ε (−Inf when lo(P_D′) ≤ δ)
	Caught     bool    `json:"caught"`     // EpsLower > Epsilon: the claim (ε, δ) is refuted at level α
	Seconds    float64 `json:"-"`
}

// auditTails are the candidate levels q = P_D(S).
var auditTails = []float64{0.1, 0.03, 0.01, 3e-3, 1e-3, 3e-4, 1e-4}

// Audit runs one audit. Errors name the field.
func Audit(ctx context.Context, c AuditConfig) (AuditResult, error) {
	if c.N == 0 {
		c.N = 5
	}
	if c.Alpha == 0 {
		c.Alpha = 1e-3
	}
	if c.Constants == "" {
		c.Constants = AuditCalibrated
	}
	res := AuditResult{AuditConfig: c}
	if err := checks.IntRange("n", c.N, 2, 1000); err != nil {
		return res, err
	}
	if err := checks.IntRange("draws", c.Draws, 100, 100_000_000); err != nil {
		return res, err
	}
	if err := checks.InRange("alpha", c.Alpha, 1e-12, 0.5); err != nil {
		return res, err
	}
	lossName := "lad"
	switch c.Sampler {
	case SamplerExact, SamplerProximal:
	case SamplerSmooth:
		lossName = "huber"
	default:
		return res, &checks.Error{Field: "sampler", Rule: `one of "exact", "proximal", "smooth"`, Got: fmt.Sprintf("%q", c.Sampler)}
	}
	res.Loss = lossName
	ys := [2][]float64{auditPair(c.N, -1), auditPair(c.N, 1)}
	var ps [2]*prepared
	for i, y := range ys {
		p, err := prepare(Request{Loss: lossName, X: auditColumn(c.N), Y: y, TargetRange: []float64{-AuditFar, AuditFar},
			Epsilon: c.Epsilon, Delta: c.Delta, Radius: 1, Sampler: c.Sampler})
		if err != nil {
			return res, err
		}
		switch c.Constants {
		case AuditCalibrated:
		case AuditPaper:
			eta, mu := PaperConstants(c.N, 1, p.plan.G, 1, c.Epsilon, c.Delta)
			if err := p.setConstants(eta, mu); err != nil {
				return res, err
			}
		default:
			return res, &checks.Error{Field: "constants", Rule: `"calibrated" or "paper"`, Got: fmt.Sprintf("%q", c.Constants)}
		}
		ps[i] = p
	}
	pl := ps[0].plan
	res.Method, res.Eta, res.Mu, res.TV, res.Steps = pl.Method, pl.Eta, pl.Mu, pl.TV, pl.Steps
	res.GDP = 2 * pl.G * math.Sqrt(pl.Eta) / (float64(c.N) * math.Sqrt(pl.Mu))
	sigma := 1 / math.Sqrt(pl.Eta*pl.Mu)
	mean := func(y []float64) float64 {
		s := 0.0
		for _, v := range y {
			s += math.Copysign(1, v)
		}
		return pl.G * s / (float64(c.N) * pl.Mu)
	}
	mD, mD2 := mean(ys[0]), mean(ys[1])
	if w := math.Max(math.Abs(mD), math.Abs(mD2)) + 40*sigma; w > AuditFar-2 {
		return res, checks.Errorf("epsilon", "small enough that the output lies in the linear window (|m| + 40σ = %s > %d)", checks.Fmt(w), AuditFar-2)
	}
	// The threshold: the tail level with the best expected bound.
	zc := privacy.PhiInvUpper(c.Alpha / 2)
	best := math.Inf(-1)
	for _, q := range auditTails {
		t := mD + sigma*privacy.PhiInvUpper(q)
		p := privacy.Phi((mD2 - t) / sigma)
		m := float64(c.Draws)
		pLo := p - zc*math.Sqrt(p*(1-p)/m)
		qHi := q + zc*math.Sqrt(q*(1-q)/m)
		if v := math.Log((pLo - c.Delta) / qHi); pLo > c.Delta && v > best {
			best, res.Threshold, res.TailD, res.TailD2 = v, t, q, p
		}
	}
	if math.IsInf(best, -1) {
		return res, checks.Errorf("draws", "enough for a threshold with P_D′(S) above δ = %s", checks.Fmt(c.Delta))
	}
	res.IdealLower = math.Log((res.TailD2 - c.Delta) / res.TailD)
	var hits [2]int
	var errs [2]error
	var wg sync.WaitGroup
	for i := range ps {
		wg.Add(1)
		go func() {
			defer wg.Done()
			hits[i], errs[i] = auditHits(ctx, ps[i], res.Threshold, c.Draws, rng.Seeded(c.Seed^uint64(i+1)*0x9E3779B97F4A7C15))
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return res, err
		}
	}
	res.HitsD, res.HitsD2 = hits[0], hits[1]
	_, qHi := stats.ClopperPearson(res.HitsD, c.Draws, c.Alpha)
	pLo, _ := stats.ClopperPearson(res.HitsD2, c.Draws, c.Alpha)
	res.EpsLower = math.Inf(-1)
	if pLo > c.Delta {
		res.EpsLower = math.Log((pLo - c.Delta) / qHi)
	}
	res.Caught = res.EpsLower > c.Epsilon
	return res, nil
}

// AuditGrid is the full audit's configurations at the given draws per
// dataset: every sampler, calibrated and paper constants, δ = 1e-6, at n = 2
// for ε ∈ {0.5, 1, 2} and at n = 5 for ε ∈ {0.5, 1} (the zeroth-order
// sampler's T grows like n²s², ≈ 24 000 steps per draw for the paper's
// constants at n = 5, ε = 2; that row is left out).
func AuditGrid(draws int) []AuditConfig {
	var out []AuditConfig
	for _, smp := range []string{SamplerExact, SamplerProximal, SamplerSmooth} {
		for _, n := range []int{2, 5} {
			for _, eps := range []float64{0.5, 1, 2} {
				if n == 5 && eps == 2 {
					continue
				}
				for _, cons := range []string{AuditCalibrated, AuditPaper} {
					out = append(out, AuditConfig{Sampler: smp, Constants: cons, N: n, Epsilon: eps, Delta: 1e-6, Draws: draws,
						Seed: uint64(1000*eps) + uint64(100*n) + uint64(len(smp)+len(cons))})
				}
			}
		}
	}
	return out
}

// auditHits counts, among m outputs of the mechanism on p, those above c.
func auditHits(ctx context.Context, p *prepared, c float64, m int, r *rand.Rand) (int, error) {
	dr, err := newDrawer(p)
	if err != nil {
		return 0, err
	}
	out := make([]float64, p.plan.D)
	var st Diagnostics
	k := 0
	for i := 0; i < m; i++ {
		if i%256 == 0 {
			if err := ctx.Err(); err != nil {
				return 0, err
			}
		}
		if err := dr.draw(ctx, r, out, &st, func(int, int) {}); err != nil {
			return 0, err
		}
		round(out, p.plan.Grid)
		if out[0] > c {
			k++
		}
	}
	return k, nil
}

// setConstants replaces the calibrated η, μ of p by others (the audit of
// the paper's constants) and re-plans the sampler with them, at the same TV
// budget.
func (p *prepared) setConstants(eta, mu float64) error {
	pl := &p.plan
	pl.Eta, pl.Mu = eta, mu
	pl.GDP = 2 * pl.G * math.Sqrt(eta) / (float64(pl.N) * math.Sqrt(mu))
	switch {
	case pl.Sampler == SamplerExact:
	case p.firstOrder:
		if err := planFirstOrder(pl, p, Calibrated{Eta: eta, Mu: mu, TV: pl.TV}); err != nil {
			return err
		}
	default:
		if err := planZerothOrder(pl, p, Calibrated{Eta: eta, Mu: mu, TV: pl.TV}); err != nil {
			return err
		}
	}
	pl.Grid = grid(*pl)
	return nil
}

// auditPair returns the far pair's targets: one at side·A, the others
// alternating −A, +A.
func auditPair(n int, side float64) []float64 {
	y := make([]float64, n)
	y[0] = side * AuditFar
	for i := 1; i < n; i++ {
		y[i] = AuditFar * float64(2*(i%2)-1)
	}
	return y
}

func auditColumn(n int) [][]float64 {
	x := make([][]float64, n)
	for i := range x {
		x[i] = []float64{1}
	}
	return x
}
