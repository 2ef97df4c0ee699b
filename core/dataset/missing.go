package dataset

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/dpsample/dpsample/core/checks"
)

// Missing cells without changing n (issue 51 item 1). Under the policy
// Options.Missing = MissingFill every data row is kept, so the n a model or a
// description releases is the file's data-row count: replacing one person's
// row by any other possible record — complete or not — leaves it unchanged
// (before, with Drop = "missing", n was the count of complete rows and
// emptying one cell moved it by one with certainty). Each missing cell takes
// a public value inside its column's declared domain:
//
//   - a numeric feature cell is NaN in Table.X until Scale maps it to 0, the
//     middle of the declared (or privately found) range in scaled units;
//   - a text feature cell codes like an unlisted label: all zeros;
//   - Options.Indicators adds, for the features the caller names, a 0/1
//     column "<name> missing" (public domain [0, 1], kept 0/1 by Scale);
//   - a missing target is NaN in Table.Y. After scaling and adding the
//     intercept, ZeroMissingTargets sets such a row to a = 0 (every column,
//     the intercept included) with a valid target y₀. Every supervised loss
//     here is ℓ(⟨θ, a⟩, y), so the row's loss ℓ(0, y₀) is a constant in θ:
//     its gradient is zero, it leaves the Gibbs density ∝ exp(−η·L) and
//     DP-GD's steps unchanged, and it is a possible record (‖a‖ = 0 ≤ clip,
//     y₀ in the target's box), so every sensitivity argument stands as it is.
//
// Each rule maps a row on its own from public inputs, like Scale's clamp: a
// table and its neighbour map to tables that differ in at most that row. How
// many cells were missing is a statistic of the data (Table.MissingCells,
// MissingTargets): for the data owner, NOT private, never released.

// MissingFill is Options.Missing's value that keeps every row (see above).
const MissingFill = "fill"

// IndicatorSuffix ends the name of a "was missing" column: "age missing".
const IndicatorSuffix = " missing"

// IndicatorRange is the scaling range of a "was missing" column (and of a
// one-hot column): [−1, 1], the identity, so that its 0/1 values stay 0/1
// (Scale uses it for an indicator column the ranges leave out).
var IndicatorRange = Range{Lo: -1, Hi: 1}

// IsMissingToken reports whether a cell is one of the missing-cell tokens
// (empty, NA, N/A, NaN, null, none, ?, ., in any case, spaces trimmed). A
// token is a missing cell unless it is declared a level of its column
// (Options.Levels, Categories, Positive).
func IsMissingToken(s string) bool { return isMissing(s) }

// levels holds, per column index, the tokens that are values of it.
type levels map[int]map[string]bool

// missing reports whether cell is a missing cell of column j: a missing
// token that is not one of the column's declared levels (compared trimmed).
func (lv levels) missing(j int, cell string) bool {
	return isMissing(cell) && !lv[j][strings.TrimSpace(cell)]
}

// levelSets gathers the declared levels per column: Options.Levels, the
// labels of Categories and, in the target column, Positive. Errors name
// levels.<column>.
func (o Options) levelSets(names []string, cats map[int]categoryCode, target int) (levels, error) {
	lv := levels{}
	add := func(j int, l string) {
		if lv[j] == nil {
			lv[j] = map[string]bool{}
		}
		lv[j][strings.TrimSpace(l)] = true
	}
	for name, ls := range o.Levels {
		field := "levels." + name
		j := indexOf(names, name)
		if j < 0 {
			return nil, &checks.Error{Field: field, Rule: "a column of the file (" + strings.Join(names, ", ") + ")", Got: strconv.Quote(name)}
		}
		for _, l := range ls {
			if strings.TrimSpace(l) == "" {
				return nil, &checks.Error{Field: field, Rule: "labels that are not empty (an empty cell is always missing)", Got: strconv.Quote(l)}
			}
			add(j, l)
		}
	}
	for j, c := range cats {
		for _, l := range c.labels {
			add(j, l)
		}
	}
	if target >= 0 && strings.TrimSpace(o.Positive) != "" {
		add(target, o.Positive)
	}
	return lv, nil
}

func indexOf(names []string, name string) int {
	for k, c := range names {
		if c == name {
			return k
		}
	}
	return -1
}

// validMissing checks the policy options (public) before any row is read.
func (o Options) validMissing() error {
	switch o.Missing {
	case "", MissingFill:
	default:
		return &checks.Error{Field: "missing", Rule: `"fill" or absent`, Got: strconv.Quote(o.Missing)}
	}
	if o.Missing == MissingFill && o.Drop != "" {
		return &checks.Error{Field: "missing", Rule: `absent beside drop: "missing" (fill keeps every row, drop leaves some out)`, Got: strconv.Quote(o.Missing)}
	}
	if len(o.Indicators) > 0 && o.Missing != MissingFill {
		return checks.Errorf("indicators", `given only with missing: "fill" (without it no kept row has a missing cell)`)
	}
	return nil
}

// indicatorSet checks Options.Indicators against the features and returns
// the columns that get one. Errors name indicators.
func (o Options) indicatorSet(names []string, feats []int, target int) (map[int]bool, error) {
	out := map[int]bool{}
	for _, name := range o.Indicators {
		j := indexOf(names, name)
		switch {
		case j < 0:
			return nil, &checks.Error{Field: "indicators", Rule: "feature columns of the file (" + strings.Join(names, ", ") + ")", Got: strconv.Quote(name)}
		case j == target:
			return nil, &checks.Error{Field: "indicators", Rule: "feature columns (a missing target adds nothing to the loss: ZeroMissingTargets)", Got: "the target " + strconv.Quote(name)}
		case out[j]:
			return nil, &checks.Error{Field: "indicators", Rule: "columns named once", Got: fmt.Sprintf("%q twice", name)}
		}
		isFeat := false
		for _, f := range feats {
			isFeat = isFeat || f == j
		}
		if !isFeat {
			return nil, &checks.Error{Field: "indicators", Rule: "feature columns (add it to features)", Got: strconv.Quote(name)}
		}
		out[j] = true
	}
	return out, nil
}

// ZeroMissingTargets makes each row whose target is missing (y[i] NaN, as
// Parse leaves it under Missing "fill") contribute nothing to a model: it
// sets every entry of x[i] to 0 — call it on the rows the mechanism will
// receive, after Scale and after the intercept column is added, so that the
// intercept is 0 too — and y[i] to y0, a valid target (0 for a regression in
// scaled units, the middle of targetRange; −1 for a classifier). It returns
// the number of such rows (NOT private: for the data owner).
//
// Why this is private and changes nothing else: every supervised loss of
// package loss is ℓ(⟨θ, a⟩, y), so a row with a = 0 adds ℓ(0, y0) to n·L(θ),
// a constant: its gradient is zero, Algorithm 1's density
// ∝ exp(−η(L(θ) + μ‖θ‖²/2)) and every DP-GD step are those of the other
// rows with n unchanged, and (0, y0) lies in every declared record box
// (‖a‖ = 0 ≤ clip, y0 ∈ targetRange or {−1, +1}). A zero row is thus one
// more possible record of the replace-one relation, and the sensitivity
// bounds (G, the curvature bound, DP-GD's clip) hold for it as for any row.
// The non-private displays leave such rows out of their per-row shares
// (mechanism.CompareClassifier, CompareRegression, loss.Set.Accuracy).
func ZeroMissingTargets(x [][]float64, y []float64, y0 float64) (int, error) {
	if len(x) != len(y) {
		return 0, &checks.Error{Field: "y", Rule: fmt.Sprintf("one target per row (%d rows)", len(x)), Got: fmt.Sprintf("%d targets", len(y))}
	}
	if err := checks.Finite("y0", y0); err != nil {
		return 0, err
	}
	k := 0
	for i, v := range y {
		if !math.IsNaN(v) {
			continue
		}
		for j := range x[i] {
			x[i][j] = 0
		}
		y[i] = y0
		k++
	}
	return k, nil
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}
