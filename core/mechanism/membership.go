package mechanism

import (
	"context"

	"github.com/dpsample/dpsample/core/checks"
	"github.com/dpsample/dpsample/core/privacy"
	"github.com/dpsample/dpsample/core/rng"
	"github.com/dpsample/dpsample/core/stats"
)

// Membership attack (issue 44 item 3): the hypothesis test of Gaussian DP
// (Dong, Roth & Su 2022, §2) run against the mechanism as shipped —
// prepare, newDrawer, draw, round — so that a page can show that what the
// privacy statement promises is what an attacker gets.
//
// The two tables are the audit's far pair (audit.go): n rows x = 1 whose
// targets sit at ±AuditFar, alternating, the person's row at +AuditFar on the
// table "in" and moved to −AuditFar on the table "out" (replace-one
// neighbours: someone else's extreme row in its place). On the window where
// the output lives the loss is linear, so the two laws are exactly
//
//	π_in = N(m_in, σ²),  π_out = N(m_out, σ²),  m_in − m_out = 2G/(nμ),  σ = 1/√(ημ),
//
// and (m_in − m_out)/σ = 2G√η/(n√μ) = s, the GDP parameter of Lemma E.1:
// the pair attains the trade-off curve, the worst case of every pair.
//
// The attacker knows every other row and sees one release θ. Its test
// accuses "in" when θ > t. For two Gaussians of equal variance the
// likelihood ratio π_in(θ)/π_out(θ) is increasing in θ, so these thresholds
// are the likelihood-ratio tests, the most powerful at each false-alarm rate
// (Neyman–Pearson). The thresholds are fixed before any draw, from the
// public pair and constants: t_j = m_out + σ·Φ̄⁻¹(q_j) for the false-alarm
// levels q_j of MembershipLevels. Each release is drawn afresh (Draws per
// table) and every threshold is scored on the same draws:
//
//	false alarm α̂_j = #{θ_out > t_j}/Draws,   catch β̂_j = #{θ_in > t_j}/Draws,
//
// each with a two-sided Clopper–Pearson interval at level Alpha/(2J), so all
// 2J intervals hold together with probability ≥ 1 − Alpha (Bonferroni). A
// point is above the curve when its catch interval lies wholly above the
// privacy statement's bound at its largest false alarm,
//
//	lo(β_j) > 1 − T_s(hi(α_j)) = Φ̄(Φ̄⁻¹(hi(α_j)) − s)   (privacy.Catch),
//
// and since that bound increases in α, a mechanism that keeps its promise
// shows a point above with probability at most Alpha. Noise < 1 runs a
// deliberately broken mechanism — the noise's scale times Noise (σ' = Noise·σ,
// η' = η/Noise², μ kept, so the means stay and s' = s/Noise) — against the
// promise of the calibrated one (s): at Noise = 0.5 ("noise halved") the
// attack catches it.

// MembershipLevels are the false-alarm levels q_j the thresholds are set at.
var MembershipLevels = []float64{0.01, 0.02, 0.05, 0.1, 0.2, 0.3, 0.5, 0.7}

// Limits of MembershipConfig's fields: Membership refuses a value outside
// them, naming the field (and the JS API reads them with the same limits).
const (
	MembershipMinN, MembershipMaxN         = 2, 1000
	MembershipMinDraws, MembershipMaxDraws = 100, 10_000_000
	MembershipMinAlpha, MembershipMaxAlpha = 1e-9, 0.5
	MembershipMinNoise, MembershipMaxNoise = 0.05, 20
)

// MembershipConfig is one attack. Zero fields take the defaults.
type MembershipConfig struct {
	Epsilon float64 `json:"epsilon"` // the promised ε of each release
	Delta   float64 `json:"delta"`   // the promised δ
	N       int     `json:"n"`       // rows of each table (default 5)
	Draws   int     `json:"draws"`   // releases per table (default 20,000)
	Alpha   float64 `json:"alpha"`   // the intervals hold together with probability ≥ 1 − Alpha (default 0.05)
	Noise   float64 `json:"noise"`   // the noise's scale over the calibrated one (default 1; 0.5: broken, noise halved)
	Seed    uint64  `json:"seed"`    // the draws are seeded: an attack on public tables, not a release
}

// MembershipPoint is one threshold's test.
type MembershipPoint struct {
	Threshold    float64 `json:"threshold"`    // t_j: accuse "in" when θ > t_j
	Level        float64 `json:"level"`        // q_j, the false-alarm rate the threshold was set at (exact law)
	FalseAlarm   float64 `json:"falseAlarm"`   // α̂_j
	FalseAlarmLo float64 `json:"falseAlarmLo"` // its interval
	FalseAlarmHi float64 `json:"falseAlarmHi"`
	Catch        float64 `json:"catch"` // β̂_j
	CatchLo      float64 `json:"catchLo"`
	CatchHi      float64 `json:"catchHi"`
	ExactCatch   float64 `json:"exactCatch"` // P_in(θ > t_j) under the exact law of the mechanism run
	Bound        float64 `json:"bound"`      // the promise at the largest false alarm: privacy.CatchClosed(GDP, FalseAlarmHi)
	Above        bool    `json:"above"`      // CatchLo > Bound: this test refutes the promise
}

// MembershipResult is the outcome of Membership. It is computed from public
// example tables, not from anyone's data; it is not a private release.
type MembershipResult struct {
	MembershipConfig
	GDP     float64           `json:"gdp"`     // s the mechanism promises (the calibrated constants)
	RunGDP  float64           `json:"runGDP"`  // s of the mechanism run (s/Noise)
	Method  string            `json:"method"`  // the sampler (the exact 1-D sampler)
	Points  []MembershipPoint `json:"points"`  // one per MembershipLevels
	Above   bool              `json:"above"`   // some point is above the curve
	Curve   [][2]float64      `json:"curve"`   // (α, 1 − T_s(α)) for α = 0, 0.01, …, 1: the promise drawn
	Private bool              `json:"private"` // always false
}

// Membership runs one attack; progress (may be nil) is called with the
// releases drawn of 2·Draws. Errors name the field.
func Membership(ctx context.Context, c MembershipConfig, progress func(done, total int)) (MembershipResult, error) {
	if c.N == 0 {
		c.N = 5
	}
	if c.Draws == 0 {
		c.Draws = 20_000
	}
	if c.Alpha == 0 {
		c.Alpha = 0.05
	}
	if c.Noise == 0 {
		c.Noise = 1
	}
	res := MembershipResult{MembershipConfig: c}
	for _, err := range []error{
		checks.Epsilon("epsilon", c.Epsilon),
		checks.Delta("delta", c.Delta),
		checks.IntRange("n", c.N, MembershipMinN, MembershipMaxN),
		checks.IntRange("draws", c.Draws, MembershipMinDraws, MembershipMaxDraws),
		checks.InRange("alpha", c.Alpha, MembershipMinAlpha, MembershipMaxAlpha),
		checks.InRange("noise", c.Noise, MembershipMinNoise, MembershipMaxNoise),
	} {
		if err != nil {
			return res, err
		}
	}
	n := c.N
	var ps [2]*prepared // in, out
	for i, side := range []float64{1, -1} {
		p, err := prepare(Request{Loss: "lad", X: auditColumn(n), Y: auditPair(n, side), TargetRange: []float64{-AuditFar, AuditFar},
			Epsilon: c.Epsilon, Delta: c.Delta, Radius: 1, Sampler: SamplerExact})
		if err != nil {
			return res, err
		}
		res.GDP = p.plan.GDP
		if c.Noise != 1 {
			if err := p.setConstants(p.plan.Eta/(c.Noise*c.Noise), p.plan.Mu); err != nil {
				return res, err
			}
		}
		ps[i] = p
	}
	pl := ps[0].plan
	res.RunGDP, res.Method = pl.GDP, pl.Method
	mOut, mIn, sigma, err := farPairLaw(pl, n)
	if err != nil {
		return res, err
	}
	J := len(MembershipLevels)
	ts := make([]float64, J)
	for j, q := range MembershipLevels {
		ts[j] = mOut + sigma*privacy.PhiInvUpper(q)
	}
	// The draws: in, then out, each from its own seeded stream.
	var hits [2][]int
	done, total := 0, 2*c.Draws
	for i, p := range ps {
		hits[i] = make([]int, J)
		dr, err := newDrawer(p)
		if err != nil {
			return res, err
		}
		r := rng.Seeded(c.Seed ^ uint64(i+1)*0x9E3779B97F4A7C15)
		var st Diagnostics
		out := make([]float64, 1)
		for k := 0; k < c.Draws; k++ {
			if k%1024 == 0 {
				if err := ctx.Err(); err != nil {
					return res, err
				}
				if progress != nil && k > 0 {
					progress(done+k, total)
				}
			}
			if err := dr.draw(ctx, r, out, &st, func(int, int) {}); err != nil {
				return res, err
			}
			round(out, p.plan.Grid)
			for j, t := range ts {
				if out[0] > t {
					hits[i][j]++
				}
			}
		}
		done += c.Draws
	}
	if progress != nil {
		progress(total, total)
	}
	level := c.Alpha / float64(2*J)
	for j, t := range ts {
		pt := MembershipPoint{Threshold: t, Level: MembershipLevels[j],
			FalseAlarm: float64(hits[1][j]) / float64(c.Draws), Catch: float64(hits[0][j]) / float64(c.Draws),
			ExactCatch: privacy.Phi((mIn - t) / sigma)}
		pt.FalseAlarmLo, pt.FalseAlarmHi = stats.ClopperPearson(hits[1][j], c.Draws, level)
		pt.CatchLo, pt.CatchHi = stats.ClopperPearson(hits[0][j], c.Draws, level)
		pt.Bound = privacy.CatchClosed(res.GDP, pt.FalseAlarmHi)
		pt.Above = pt.CatchLo > pt.Bound
		res.Above = res.Above || pt.Above
		res.Points = append(res.Points, pt)
	}
	res.Curve = privacy.CatchCurve(res.GDP, 100)
	return res, nil
}
