package lowerbound

import (
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
		row("Lee–Liu–Lu (Table 1, ours)", "both", "1≤p≤∞", "general", "lower", "pure", "d/(nε)", d/ne, ""),
		row("Lee–Liu–Lu (Theorem 3.7)", "both", "1≤p≤∞", "general", "lower", "approximate", "min(1, √(d·ln(1/δ))/(nε))",
			math.Min(1, math.Sqrt(d*l)/ne), "requires ε ≤ 1 and 2^−O(n) < δ < o(1/n)"),
		row("Lee–Liu–Lu (Theorem 2.2)", "unconstrained", "p=2", "general (Assumption 2.1)", "upper", "approximate",
			"√(rank·ln(1/δ))/(nε)", math.Sqrt(k*l)/ne, "requires ε, δ < 1/2 and G_rank ≤ G/(nε√d)"),
	}
	if in.D == 1 {
		rows[4].Normalized, rows[4].Value = 0, 0
	}
	return rows, nil
}
