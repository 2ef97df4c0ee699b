package loss

// Accuracy of a linear classifier: the share of rows whose label y_i = ±1 the
// sign of the score ⟨θ, x_i⟩ predicts, a score of 0 predicting −1 (a label 0
// counts as −1, as in New). For the logistic loss the score is the log-odds
// of y = +1. Computed on the data it is a statistic of the data: NOT private.
func Accuracy(x [][]float64, y, theta []float64) float64 {
	if len(x) == 0 {
		return 0
	}
	ok := 0
	for i, xi := range x {
		if predicts(theta, xi, y[i]) {
			ok++
		}
	}
	return float64(ok) / float64(len(x))
}

// Accuracy is the classifier's accuracy on the set's own (clipped) rows:
// clipping shrinks a row and keeps the sign of its score. A row whose
// features are all zero — the form dataset.ZeroMissingTargets gives a row
// whose target is missing, with a score of 0 for every θ — predicts nothing
// and is left out (issue 51 item 1). It is 0 for a loss that is not a
// classification loss, or when no row is left. NOT private.
func (s *Set) Accuracy(theta []float64) float64 {
	if !s.kind.Classification() || s.n == 0 {
		return 0
	}
	ok, rows := 0, 0
	for i := range s.n {
		if zeroRow(s.Row(i)) {
			continue
		}
		rows++
		if predicts(theta, s.Row(i), s.y[i]) {
			ok++
		}
	}
	if rows == 0 {
		return 0
	}
	return float64(ok) / float64(rows)
}

// zeroRow reports whether every entry of x is zero.
func zeroRow(x []float64) bool {
	for _, v := range x {
		if v != 0 {
			return false
		}
	}
	return true
}

// predicts reports whether sign⟨θ, x⟩ is the label y (0 predicts −1).
func predicts(theta, x []float64, y float64) bool {
	pred := -1.0
	if dot(theta, x) > 0 {
		pred = 1
	}
	return pred == y || (y == 0 && pred == -1)
}
