package mechanism

import (
	"math"
	"sort"
)

// Trivial is a released θ set beside the trivial answer — the one that needs
// no model and no privacy budget — on the rows it was fitted on. Like Fit it
// is computed from the raw data on the owner's device for display only and
// is NOT private (issue 29: a person without DP training must see when the
// private model is worse than always guessing).
//
//   - Classification: Model is the share of rows whose ±1 label sign(⟨θ, x⟩)
//     predicts; Trivial the majority class's share, max(n₊, n₋)/n, the
//     accuracy of always answering the more frequent label (Majority, ±1).
//   - Regression: Model is the mean absolute error of the prediction
//     toUnits(⟨θ, x⟩) in the target's units; Trivial the MAE of predicting
//     the median of the targets (the constant that minimises the MAE);
//     ModelRMSE and TrivialRMSE the root mean squared errors of the same two.
//
// NoBetter is true when the model does not beat the trivial answer: accuracy
// ≤ the majority share, or MAE ≥ the median's MAE.
//
// Both compare the rows with a target only (Rows of them): a row whose
// features are all zero — dataset.ZeroMissingTargets' form for a missing
// target, whose score is 0 for every θ — or whose target is NaN (a missing
// target in units) is no data row and is left out of every share and of the
// majority and the median (issue 51 item 1).
type Trivial struct {
	Regression  bool    `json:"regression"`
	Model       float64 `json:"model"`
	Trivial     float64 `json:"trivial"`
	ModelRMSE   float64 `json:"modelRMSE,omitempty"`
	TrivialRMSE float64 `json:"trivialRMSE,omitempty"`
	Majority    float64 `json:"majority,omitempty"` // classification: the majority label (±1)
	Median      float64 `json:"median,omitempty"`   // regression: the targets' median (units)
	NoBetter    bool    `json:"noBetter"`
	Rows        int     `json:"rows"` // the rows compared
}

func score(theta, x []float64) float64 {
	s := 0.0
	for j := range theta {
		s += theta[j] * x[j]
	}
	return s
}

// CompareClassifier compares θ with the majority class on rows x with labels
// y ∈ {−1, +1} (a score of 0 predicts +1, as loss.Set.Accuracy does).
func CompareClassifier(x [][]float64, y, theta []float64) Trivial {
	pos, hit, rows := 0, 0, 0
	for i, row := range x {
		if noData(row, y[i]) {
			continue
		}
		rows++
		if y[i] > 0 {
			pos++
		}
		pred := 1.0
		if score(theta, row) < 0 {
			pred = -1
		}
		if pred == y[i] {
			hit++
		}
	}
	t := Trivial{Majority: 1, Rows: rows}
	if rows > 0 {
		n := float64(rows)
		t.Model, t.Trivial = float64(hit)/n, math.Max(float64(pos), n-float64(pos))/n
	}
	if 2*pos < rows {
		t.Majority = -1
	}
	t.NoBetter = t.Model <= t.Trivial
	return t
}

// noData reports whether a row is no data row for the comparisons: all its
// features zero (ZeroMissingTargets' form) or its target NaN.
func noData(row []float64, y float64) bool {
	if math.IsNaN(y) {
		return true
	}
	for _, v := range row {
		if v != 0 {
			return false
		}
	}
	return true
}

// CompareRegression compares θ with the median on rows x with targets y in
// the target's units; toUnits maps a score ⟨θ, x⟩ (scaled units) to them.
func CompareRegression(x [][]float64, y, theta []float64, toUnits func(float64) float64) Trivial {
	var s []float64
	for i, row := range x {
		if !noData(row, y[i]) {
			s = append(s, y[i])
		}
	}
	n := len(s)
	t := Trivial{Regression: true, Rows: n}
	if n == 0 {
		t.NoBetter = true
		return t
	}
	sort.Float64s(s)
	med := s[n/2]
	if n%2 == 0 {
		med = (s[n/2-1] + s[n/2]) / 2
	}
	t.Median = med
	for i, row := range x {
		if noData(row, y[i]) {
			continue
		}
		e, e0 := toUnits(score(theta, row))-y[i], med-y[i]
		t.Model += math.Abs(e)
		t.Trivial += math.Abs(e0)
		t.ModelRMSE += e * e
		t.TrivialRMSE += e0 * e0
	}
	t.Model, t.Trivial = t.Model/float64(n), t.Trivial/float64(n)
	t.ModelRMSE, t.TrivialRMSE = math.Sqrt(t.ModelRMSE/float64(n)), math.Sqrt(t.TrivialRMSE/float64(n))
	t.NoBetter = t.Model >= t.Trivial
	return t
}
