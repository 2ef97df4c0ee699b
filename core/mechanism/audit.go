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
	"github.com/dpsample/dpsample/core/sampler/exact"
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
//
// The far pair never exercises the first-order oracle: on the window Huber is
// linear, its Bregman term is 0 and every proposal is accepted, so an oracle
// that accepts everything passes (issue 21 item 4). The curved pair
// (Pair = "curved") is one whose oracle rejects: n = 40 records x = 1 with
// Huber threshold h = 2 and in-range targets ±0.3 (alternating), one of them
// moved from −1 to +1 (the ends of the default targetRange), radius C = 2.
// There the posterior (sd ≈ 0.7) lies in Huber's quadratic region, the
// Bregman term is the full (κ/2)‖x − z‖²/σ² with κ ≈ 0.76, and ≈ 25 % of the
// first-order trials reject (AuditResult.Rejection). Its exact law is not
// Gaussian: the tails come from the exact 1-D sampler's CDF
// (exact.LogConcave) at the plan's η, μ.
//
// Besides the DP bound, every audit checks the law: with exact tail P and
// k hits in m draws, the two-sided Clopper–Pearson interval at level α must
// meet [P − TV, P + TV] on both datasets (LawOK); a correct sampler fails
// this with probability ≤ 2α. A mechanism fails the audit (Failed) when it
// is caught or its law is off. Oracle = "accept-all" replaces the
// first-order oracle by a deliberately broken one that accepts every
// proposal (the tangent-plane Gaussian taken for the target): on the curved
// pair its law is off and the audit fails it.

// AuditFar is A, the distance of the far pair's targets.
const AuditFar = 1000

// AuditPair is the audit's pair of neighbouring datasets (AuditConfig.Pair):
// AuditPairFar or AuditPairCurved. JSON: the string itself.
type AuditPair string

// Audit pairs.
const (
	AuditPairFar    AuditPair = "far"    // the default: targets ±AuditFar, Gaussian law, the GDP curve attained
	AuditPairCurved AuditPair = "curved" // Huber in its quadratic region: the first-order oracle rejects
)

// AuditOracle is the first-order oracle audited (AuditConfig.Oracle): ""
// (the shipped one) or OracleAcceptAll. JSON: the string itself.
type AuditOracle string

// OracleAcceptAll is a broken first-order oracle, the audit's negative
// control.
const OracleAcceptAll AuditOracle = "accept-all"

// The curved pair's public constants.
const (
	auditCurvedN      = 40
	auditCurvedHuber  = 2.0
	auditCurvedRadius = 2.0
	auditCurvedTarget = 0.3
)

// AuditConstants are the η, μ audited (AuditConfig.Constants):
// AuditCalibrated or AuditPaper. JSON: the string itself.
type AuditConstants string

// Audit constants.
const (
	AuditPaper      AuditConstants = "paper"      // LLL's literal η, μ (PaperConstants)
	AuditCalibrated AuditConstants = "calibrated" // the plan's η, μ (Calibrate)
)

// AuditConfig is one audit.
type AuditConfig struct {
	Sampler   Sampler        `json:"sampler"`   // "exact", "proximal" (zeroth-order) or "smooth" (first-order)
	Constants AuditConstants `json:"constants"` // "calibrated" (default) or "paper"
	N         int            `json:"n"`         // records (default 5)
	Epsilon   float64        `json:"epsilon"`   // claimed ε
	Delta     float64        `json:"delta"`     // claimed δ
	Draws     int            `json:"draws"`     // per dataset
	Alpha     float64        `json:"alpha"`     // the bound fails with probability ≤ α (default 1e-3)
	Seed      uint64         `json:"seed"`      // the draws are seeded: the audit is a test, not a release
	Pair      AuditPair      `json:"pair"`      // "far" (default) or "curved"; "curved" fixes n = 40
	Oracle    AuditOracle    `json:"oracle"`    // "" or "accept-all" (sampler "smooth" only: a broken oracle)
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
	// Rejection is the measured share of rejected RGO trials (padding
	// excluded) over both datasets; 0 for an exact sampler.
	Rejection float64 `json:"rejection"`
	LawOK     bool    `json:"lawOK"`  // both hit counts agree with the exact tails within TV (Clopper–Pearson, level α)
	Failed    bool    `json:"failed"` // Caught or not LawOK
	Seconds   float64 `json:"-"`
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
	switch c.Oracle {
	case "":
	case OracleAcceptAll:
		if c.Sampler != SamplerSmooth {
			return res, checks.Errorf("oracle", `"accept-all" only with sampler "smooth" (the first-order oracle)`)
		}
	default:
		return res, &checks.Error{Field: "oracle", Rule: `"" or "accept-all"`, Got: fmt.Sprintf("%q", c.Oracle)}
	}
	curved := false
	switch c.Pair {
	case "", AuditPairFar:
		res.Pair = AuditPairFar
	case AuditPairCurved:
		curved, lossName = true, "huber"
		res.N, res.Pair = auditCurvedN, AuditPairCurved
	default:
		return res, &checks.Error{Field: "pair", Rule: `"far" or "curved"`, Got: fmt.Sprintf("%q", c.Pair)}
	}
	n := res.N
	res.Loss = lossName
	ys := [2][]float64{auditPair(n, -1), auditPair(n, 1)}
	if curved {
		ys = [2][]float64{auditCurvedPair(n, -1), auditCurvedPair(n, 1)}
	}
	var ps [2]*prepared
	for i, y := range ys {
		req := Request{Loss: lossName, X: auditColumn(n), Y: y, TargetRange: []float64{-AuditFar, AuditFar},
			Epsilon: c.Epsilon, Delta: c.Delta, Radius: 1, Sampler: c.Sampler}
		if curved {
			req.TargetRange, req.Huber, req.Radius = nil, auditCurvedHuber, auditCurvedRadius
		}
		p, err := prepare(req)
		if err != nil {
			return res, err
		}
		switch c.Constants {
		case AuditCalibrated:
		case AuditPaper:
			eta, mu := PaperConstants(n, 1, p.plan.G, req.Radius, c.Epsilon, c.Delta)
			if err := p.setConstants(eta, mu); err != nil {
				return res, err
			}
		default:
			return res, &checks.Error{Field: "constants", Rule: `"calibrated" or "paper"`, Got: fmt.Sprintf("%q", c.Constants)}
		}
		p.acceptAll = c.Oracle == OracleAcceptAll
		ps[i] = p
	}
	pl := ps[0].plan
	res.Method, res.Eta, res.Mu, res.TV, res.Steps = pl.Method, pl.Eta, pl.Mu, pl.TV, pl.Steps
	res.GDP = 2 * pl.G * math.Sqrt(pl.Eta) / (float64(n) * math.Sqrt(pl.Mu))
	// The exact tails P_D(θ > t), P_D′(θ > t) and the quantile of P_D.
	var tail [2]func(t float64) float64
	var quantile func(q float64) float64
	if curved {
		for i, p := range ps {
			lc, err := exactLaw(p)
			if err != nil {
				return res, err
			}
			tail[i] = func(t float64) float64 { return 1 - lc.CDF(t) }
		}
		quantile = func(q float64) float64 { return tailQuantile(tail[0], q, 1/math.Sqrt(pl.Eta*pl.Mu)) }
	} else {
		mD, mD2, sigma, err := farPairLaw(pl, n)
		if err != nil {
			return res, err
		}
		tail[0] = func(t float64) float64 { return privacy.Phi((mD - t) / sigma) }
		tail[1] = func(t float64) float64 { return privacy.Phi((mD2 - t) / sigma) }
		quantile = func(q float64) float64 { return mD + sigma*privacy.PhiInvUpper(q) }
	}
	// The threshold: the tail level with the best expected bound.
	zc := privacy.PhiInvUpper(c.Alpha / 2)
	best := math.Inf(-1)
	for _, q := range auditTails {
		t := quantile(q)
		q = tail[0](t)
		p := tail[1](t)
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
	var diags [2]Diagnostics
	var wg sync.WaitGroup
	for i := range ps {
		wg.Add(1)
		go func() {
			defer wg.Done()
			hits[i], diags[i], errs[i] = auditHits(ctx, ps[i], res.Threshold, c.Draws, rng.Seeded(c.Seed^uint64(i+1)*0x9E3779B97F4A7C15))
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return res, err
		}
	}
	res.HitsD, res.HitsD2 = hits[0], hits[1]
	qLo, qHi := stats.ClopperPearson(res.HitsD, c.Draws, c.Alpha)
	pLo, pHi := stats.ClopperPearson(res.HitsD2, c.Draws, c.Alpha)
	res.EpsLower = math.Inf(-1)
	if pLo > c.Delta {
		res.EpsLower = math.Log((pLo - c.Delta) / qHi)
	}
	res.Caught = res.EpsLower > c.Epsilon
	res.LawOK = qLo <= res.TailD+res.TV && qHi >= res.TailD-res.TV && pLo <= res.TailD2+res.TV && pHi >= res.TailD2-res.TV
	res.Failed = res.Caught || !res.LawOK
	var acc, trials int64
	for i, d := range diags {
		acc += int64(c.Draws)*int64(ps[i].plan.Steps) - d.Failures - d.Overruns
		trials += d.Trials - d.Padded
	}
	if trials > 0 {
		res.Rejection = 1 - float64(acc)/float64(trials)
	}
	return res, nil
}

// AuditGrid is the full audit's configurations at the given draws per
// dataset: every sampler, calibrated and paper constants, δ = 1e-6, at n = 2
// for ε ∈ {0.5, 1, 2} and at n = 5 for ε ∈ {0.5, 1} (the zeroth-order
// sampler's T grows like n²s², ≈ 24 000 steps per draw for the paper's
// constants at n = 5, ε = 2; that row is left out) on the far pair; then the
// first-order sampler on the curved pair at ε ∈ {1, 2}, and its accept-all
// oracle at ε = 1 (the negative control, which must fail).
func AuditGrid(draws int) []AuditConfig {
	var out []AuditConfig
	for _, smp := range []Sampler{SamplerExact, SamplerProximal, SamplerSmooth} {
		for _, n := range []int{2, 5} {
			for _, eps := range []float64{0.5, 1, 2} {
				if n == 5 && eps == 2 {
					continue
				}
				for _, cons := range []AuditConstants{AuditCalibrated, AuditPaper} {
					out = append(out, AuditConfig{Sampler: smp, Constants: cons, N: n, Epsilon: eps, Delta: 1e-6, Draws: draws,
						Seed: uint64(1000*eps) + uint64(100*n) + uint64(len(smp)+len(cons))})
				}
			}
		}
	}
	for _, eps := range []float64{1, 2} {
		out = append(out, AuditConfig{Sampler: SamplerSmooth, Pair: AuditPairCurved, Epsilon: eps, Delta: 1e-6, Draws: draws, Seed: uint64(7000 * eps)})
	}
	return append(out, AuditConfig{Sampler: SamplerSmooth, Pair: AuditPairCurved, Oracle: OracleAcceptAll, Epsilon: 1, Delta: 1e-6, Draws: draws, Seed: 7001})
}

// auditHits counts, among m outputs of the mechanism on p, those above c,
// and returns the samplers' diagnostics summed over the m draws.
func auditHits(ctx context.Context, p *prepared, c float64, m int, r *rand.Rand) (int, Diagnostics, error) {
	var st Diagnostics
	dr, err := newDrawer(p)
	if err != nil {
		return 0, st, err
	}
	out := make([]float64, p.plan.D)
	k := 0
	for i := 0; i < m; i++ {
		if i%256 == 0 {
			if err := ctx.Err(); err != nil {
				return 0, st, err
			}
		}
		if err := dr.draw(ctx, r, out, &st, func(int, int) {}); err != nil {
			return 0, st, err
		}
		round(out, p.plan.Grid)
		if out[0] > c {
			k++
		}
	}
	return k, st, nil
}

// exactLaw is the exact 1-D sampler of p's law π ∝ exp(−η(L + μθ²/2)) (its
// CDF is the audit's reference).
func exactLaw(p *prepared) (*exact.LogConcave, error) {
	eta, mu := p.plan.Eta, p.plan.Mu
	x := []float64{0}
	return exact.NewLogConcave(func(t float64) float64 { x[0] = t; return eta * (p.set.Mean(x) + mu/2*t*t) }, 1/math.Sqrt(eta*mu))
}

// tailQuantile returns t with tail(t) = q for a decreasing tail function, by
// bisection from a bracket grown in steps of scale.
func tailQuantile(tail func(float64) float64, q, scale float64) float64 {
	lo, hi := -scale, scale
	for tail(lo) < q {
		lo -= 2 * (hi - lo)
	}
	for tail(hi) > q {
		hi += 2 * (hi - lo)
	}
	for i := 0; i < 200 && hi-lo > 1e-12*scale; i++ {
		mid := (lo + hi) / 2
		if tail(mid) > q {
			lo = mid
		} else {
			hi = mid
		}
	}
	return (lo + hi) / 2
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

// farPairLaw is the far pair's exact law under the plan pl of n rows:
// π = N(m, σ²) for the targets auditPair(n, side), with
// m(side) = G·Σᵢ sign(yᵢ)/(nμ) and σ = 1/√(ημ), for side −1 (mMinus) and
// +1 (mPlus). It is refused, naming epsilon, when |m| + 40σ would leave the
// window |θ| < AuditFar where the loss is linear (and the law Gaussian).
func farPairLaw(pl Plan, n int) (mMinus, mPlus, sigma float64, err error) {
	sigma = 1 / math.Sqrt(pl.Eta*pl.Mu)
	mean := func(side float64) float64 {
		s := 0.0
		for _, v := range auditPair(n, side) {
			s += math.Copysign(1, v)
		}
		return pl.G * s / (float64(n) * pl.Mu)
	}
	mMinus, mPlus = mean(-1), mean(1)
	if w := math.Max(math.Abs(mMinus), math.Abs(mPlus)) + 40*sigma; w > AuditFar-2 {
		return 0, 0, 0, checks.Errorf("epsilon", "such that the output lies in the far pair's linear window (|m| + 40σ = %s > %d)", checks.Fmt(w), AuditFar-2)
	}
	return mMinus, mPlus, sigma, nil
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

// auditCurvedPair returns the curved pair's targets: one at side·1 (an end
// of the default targetRange), the others alternating ∓auditCurvedTarget.
func auditCurvedPair(n int, side float64) []float64 {
	y := make([]float64, n)
	y[0] = side
	for i := 1; i < n; i++ {
		y[i] = auditCurvedTarget * float64(2*(i%2)-1)
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
