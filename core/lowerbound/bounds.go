package lowerbound

import (
	"fmt"
	"math"

	"github.com/dpsample/dpsample/core/checks"
)

// BoundsInput are the problem sizes at which Table 1 and Theorem 2.2 are
// evaluated (JS: dpsample.bounds.table).
type BoundsInput struct {
	N       int     `json:"n"`
	D       int     `json:"d"`
	Rank    int     `json:"rank"`
	Epsilon float64 `json:"epsilon"`
	Delta   float64 `json:"delta"`
	G       float64 `json:"G"`
	C       float64 `json:"C"`
}

// Row is one bound evaluated with every hidden constant set to 1 and ln for
// log. Normalized is the table's expression; Value = G·C·Normalized (Table 1
// prints the bounds for G·C = 1; Theorems 2.2 and 3.7 carry the factor GC).
type Row struct {
	Source      string  `json:"source"`
	Constrained string  `json:"constrained"` // "constrained", "unconstrained", "both"
	Geometry    string  `json:"geometry"`    // ℓp range
	Loss        string  `json:"loss"`
	Kind        string  `json:"kind"`    // "lower" or "upper"
	Privacy     string  `json:"privacy"` // "pure" or "approximate"
	Formula     string  `json:"formula"`
	Normalized  float64 `json:"normalized"`
	Value       float64 `json:"value"`
	Note        string  `json:"note,omitempty"`
	// Rank is the rank condition of the bound: "k" (stated at rank k, Assumption
	// 2.1 with G_k small), "full" (its hard instance uses all d directions, so
	// it speaks about k = d only) or "any" (constrained GLM bounds: the paper's
	// §1, footnote 3, reads them as holding under low-rank gradients too).
	Rank string `json:"rank"`
	// Applies reports whether the bound speaks about the given inputs (its
	// rank condition and its stated ranges of ε, δ, d); Why says, in words,
	// to which problems it applies, or why not here.
	Applies bool   `json:"applies"`
	Why     string `json:"why"`
}

// Table evaluates Table 1's rows (lower bounds for private convex ERM) and
// Theorem 2.2's upper bound GC·√(k·ln(1/δ))/(nε) for the given sizes.
func Table(in BoundsInput) ([]Row, error) {
	if err := checks.IntRange("n", in.N, 1, math.MaxInt32); err != nil {
		return nil, err
	}
	if err := checks.IntRange("d", in.D, 1, math.MaxInt32); err != nil {
		return nil, err
	}
	if err := checks.IntRange("rank", in.Rank, 1, in.D); err != nil {
		return nil, err
	}
	if err := checks.Epsilon("epsilon", in.Epsilon); err != nil {
		return nil, err
	}
	if err := checks.DeltaForN("delta", in.Delta, in.N); err != nil {
		return nil, err
	}
	if err := checks.Positive("G", in.G); err != nil {
		return nil, err
	}
	if err := checks.Positive("C", in.C); err != nil {
		return nil, err
	}
	n, d, k := float64(in.N), float64(in.D), float64(in.Rank)
	ne := n * in.Epsilon
	l := math.Log(1 / in.Delta)
	gc := in.G * in.C
	row := func(src, con, geo, loss, kind, priv, f string, v float64, note string) Row {
		return Row{Source: src, Constrained: con, Geometry: geo, Loss: loss, Kind: kind, Privacy: priv,
			Formula: f, Normalized: v, Value: gc * v, Note: note}
	}
	rows := []Row{
		row("Bassily et al. (2014)", "constrained", "p=2", "GLM", "lower", "pure", "d/(nε)", d/ne, ""),
		row("Bassily et al. (2014)", "constrained", "p=2", "GLM", "lower", "approximate", "√d/(nε)", math.Sqrt(d)/ne, ""),
		row("Steinke and Ullman (2016)", "constrained", "p=2", "GLM", "lower", "approximate", "√(d·ln(1/δ))/(nε)", math.Sqrt(d*l)/ne, ""),
		row("Song et al. (2021)", "unconstrained", "p=2", "GLM", "lower", "approximate", "√rank/(nε)", math.Sqrt(k)/ne, ""),
		row("Asi et al. (2021)", "both", "p=1", "general", "lower", "approximate", "√d/(nε·ln d)", math.Sqrt(d)/(ne*math.Log(d)),
			"undefined at d = 1 (ln d = 0); reported as 0"),
		row("Bassily et al. (2021b)", "constrained", "1<p≤2", "GLM", "lower", "approximate", "(p−1)·√(d·ln(1/δ))/(nε)", math.Sqrt(d*l)/ne,
			"evaluated at p = 2"),
		row("Lee–Liu–Lu (Table 1)", "both", "1≤p≤∞", "general", "lower", "pure", "d/(nε)", d/ne, ""),
		row("Lee–Liu–Lu (Theorem 3.7)", "both", "1≤p≤∞", "general", "lower", "approximate", "min(1, √(d·ln(1/δ))/(nε))",
			math.Min(1, math.Sqrt(d*l)/ne), "requires ε ≤ 1 and 2^−O(n) < δ < o(1/n)"),
		row("Lee–Liu–Lu (Theorem 2.2)", "unconstrained", "p=2", "general (Assumption 2.1)", "upper", "approximate",
			"√(rank·ln(1/δ))/(nε)", math.Sqrt(k*l)/ne, "requires ε, δ < 1/2 and G_rank ≤ G/(nε√d)"),
	}
	if in.D == 1 {
		rows[4].Normalized, rows[4].Value = 0, 0
	}
	ranks := []string{"any", "any", "any", "k", "full", "any", "full", "full", "k"}
	for i := range rows {
		rows[i].Rank = ranks[i]
		rows[i].Applies, rows[i].Why = applies(rows[i], in)
	}
	// Stated parameter ranges.
	if in.D == 1 {
		rows[4].Applies, rows[4].Why = false, "no: undefined at d = 1 (ln d = 0)"
	}
	if rows[7].Applies && in.Epsilon > 1 {
		rows[7].Applies, rows[7].Why = false, "no: stated for ε ≤ 1"
	}
	if in.Epsilon >= 0.5 || in.Delta >= 0.5 {
		rows[8].Applies, rows[8].Why = false, "no: stated for ε, δ < 1/2 (the rate is shown for comparison)"
	}
	// A pure-DP lower bound (δ = 0) constrains only algorithms with δ = 0: an
	// (ε, δ)-DP algorithm with δ > 0 may beat it (Table 1's two columns; at
	// k = d = 500, n = 2000, ε = 1 its d/(nε) = 0.25 lies above Theorem 2.2's
	// √(k·ln(1/δ))/(nε) ≈ 0.038). checks.DeltaForN admits no δ = 0, so these rows
	// never apply here; they are listed beside their (ε, δ) counterparts.
	for i := range rows {
		if rows[i].Privacy == "pure" && in.Delta > 0 {
			rows[i].Applies, rows[i].Why = false, fmt.Sprintf("no: a pure-DP bound (δ = 0) says nothing about (ε, δ)-DP algorithms with δ > 0; here δ = %s", checks.Fmt(in.Delta))
		}
	}
	return rows, nil
}

// applies reports whether r's rank condition holds at in, and to which
// problems r speaks (its domain and privacy), in words.
func applies(r Row, in BoundsInput) (bool, string) {
	dom := map[string]string{"constrained": "constrained problems (‖θ‖ ≤ C)", "unconstrained": "unconstrained problems",
		"both": "constrained and unconstrained problems"}[r.Constrained]
	priv := map[string]string{"pure": "pure DP (δ = 0)", "approximate": "(ε, δ)-DP"}[r.Privacy]
	switch r.Rank {
	case "k":
		return true, fmt.Sprintf("yes: %s of rank k = %d, %s", dom, in.Rank, priv)
	case "full":
		if in.Rank < in.D {
			return false, fmt.Sprintf("no: its hard instance has full rank (k = d); here k = %d < d = %d", in.Rank, in.D)
		}
		return true, fmt.Sprintf("yes: %s of full rank k = d, %s", dom, priv)
	}
	return true, fmt.Sprintf("yes: %s of any rank, %s", dom, priv)
}
