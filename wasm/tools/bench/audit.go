//go:build !js

package main

import (
	"context"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/dpsample/dpsample/core/mechanism"
	"github.com/dpsample/dpsample/wasm/tools/internal/md"
)

// AuditReport is the Monte-Carlo privacy audit of the samplers (issue 16
// item 4; mechanism.Audit on mechanism.AuditGrid).
type AuditReport struct {
	Draws   int                     `json:"draws"` // per dataset
	Alpha   float64                 `json:"alpha"`
	Rows    []mechanism.AuditResult `json:"rows"`
	Seconds float64                 `json:"seconds"`
}

// privacyAudit runs mechanism.AuditGrid at 10⁵ draws per dataset (BENCH_QUICK:
// 5·10³).
func privacyAudit() (AuditReport, error) {
	start := time.Now()
	draws := 100_000
	if quick {
		draws = 5_000
	}
	rep := AuditReport{Draws: draws, Alpha: 1e-3}
	for _, c := range mechanism.AuditGrid(draws) {
		c.Alpha = rep.Alpha
		r, err := mechanism.Audit(context.Background(), c)
		if err != nil {
			return rep, fmt.Errorf("audit %s/%s n=%d ε=%g: %w", c.Sampler, c.Constants, c.N, c.Epsilon, err)
		}
		rep.Rows = append(rep.Rows, r)
	}
	rep.Seconds = time.Since(start).Seconds()
	return rep, nil
}

// auditMarkdown is the report's audit section.
func auditMarkdown(a AuditReport) string {
	if len(a.Rows) == 0 {
		return ""
	}
	var b strings.Builder
	p := func(format string, v ...any) { fmt.Fprintf(&b, format, v...) }
	p("## 6. Privacy audit of the samplers (Monte Carlo)\n\n")
	p("The mechanism as shipped (request validation, η and μ, the sampler, output rounding) on the worst-case pair of neighbouring datasets in d = 1: n records with x = 1 and targets ±%d, one target moved from −%d to +%d. On the output window LAD and Huber are linear, so Algorithm 1's law is exactly Gaussian and the pair attains the GDP curve (Lemma E.1's worst case). Samplers forced with `sampler`: \"exact\" (1-D rejection, LAD), \"proximal\" (zeroth-order proximal sampler, LAD), \"smooth\" (first-order proximal sampler, Huber). The rejection set S = {θ > c} is fixed before any draw from the exact law (the tail level q = P_D(S) of a grid with the best expected bound); with %d draws per dataset and two-sided Clopper–Pearson intervals at level 1 − α, α = %g, ε_lower = ln((lo P_D′(S) − δ)/hi P_D(S)) holds with probability ≥ 1 − α. \"ideal\" is the same quantity under the exact law (infinitely many draws): the most this set can show. \"paper\" rows use LLL's literal constants η = nε√(ln(1/δ))/(GC), μ = 8ηG²/(n²ε²) (s = ε/√2 whatever δ), at the samplers' TV budget. A claim is refuted when ε_lower > ε. Every row also checks the law: the exact tail of each dataset must lie in its Clopper–Pearson interval widened by the sampler's TV (\"law off\" otherwise). On the far pair Huber is linear, the first-order oracle's Bregman term is 0 and it never rejects, so the last rows use the *curved* pair (issue 21): n = 40 records x = 1, Huber threshold 2, targets ±0.3 and one target moved from −1 to +1, C = 2, where the posterior lies in Huber's quadratic region and the oracle rejects ≈ 25 %% of its trials (column \"rejected\"); \"accept-all\" is a deliberately broken oracle that takes every proposal, which the audit must fail. %.0f s.\n\n",
		mechanism.AuditFar, mechanism.AuditFar, mechanism.AuditFar, a.Draws, a.Alpha, a.Seconds)
	var rows [][]string
	for _, r := range a.Rows {
		verdict := "consistent"
		switch {
		case r.Caught:
			verdict = "**refuted**"
		case !r.LawOK:
			verdict = "**law off**"
		}
		lower := "—"
		if !math.IsInf(r.EpsLower, -1) {
			lower = fmt.Sprintf("%.3f", r.EpsLower)
		}
		pair := string(r.Pair)
		if r.Oracle != "" {
			pair += ", " + string(r.Oracle)
		}
		rows = append(rows, []string{string(r.Sampler), r.Method, pair, string(r.Constants), fmt.Sprint(r.N), md.Sig(r.Epsilon), fmt.Sprintf("%g", r.Delta),
			fmt.Sprintf("%.4f", r.GDP), fmt.Sprint(r.Steps), md.Sig(r.TailD), fmt.Sprintf("%d / %d", r.HitsD, r.HitsD2),
			lower, fmt.Sprintf("%.3f", r.IdealLower), fmt.Sprintf("%.3f", r.Rejection), verdict})
	}
	p("%s\n", md.Table([]string{"sampler", "method", "pair", "constants", "n", "claimed ε", "δ", "s", "T", "q", "hits D / D′", "ε_lower", "ideal", "rejected", "claim"}, rows))
	return b.String()
}
