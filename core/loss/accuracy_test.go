package loss

import (
	"math/rand/v2"
	"testing"
)

// TestAccuracyTable: hand-checked rows, a score of 0 predicting −1, and a
// label 0 counting as −1.
func TestAccuracyTable(t *testing.T) {
	x := [][]float64{{1, 0}, {0, 1}, {-1, 0}, {1, -1}, {0, 0}}
	theta := []float64{1, 1}
	for _, c := range []struct {
		y    []float64
		want float64
	}{
		{[]float64{1, 1, -1, -1, -1}, 1},    // scores 1, 1, −1, 0, 0: the zeros predict −1
		{[]float64{1, 1, -1, 1, 1}, 0.6},    // the two zero scores are wrong for +1
		{[]float64{-1, -1, 1, 1, 1}, 0},     // every sign flipped
		{[]float64{1, 1, 0, 0, 0}, 1},       // 0 labels are −1
		{[]float64{1, -1, -1, -1, -1}, 0.8}, // one wrong
	} {
		if got := Accuracy(x, c.y, theta); got != c.want {
			t.Errorf("Accuracy(y = %v) = %g, want %g", c.y, got, c.want)
		}
	}
}

// TestSetAccuracyClipInvariant: Set.Accuracy on rows clipped to a small
// norm equals Accuracy on the raw rows (clipping keeps each score's sign),
// and is 0 for a loss that does not classify.
func TestSetAccuracyClipInvariant(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	var x [][]float64
	var y []float64
	for range 200 {
		row := []float64{4 * r.NormFloat64(), 4 * r.NormFloat64(), 1}
		x = append(x, row)
		if row[0]+0.5*row[1]+0.3*r.NormFloat64() > 0 {
			y = append(y, 1)
		} else {
			y = append(y, -1)
		}
	}
	theta := []float64{0.8, 0.2, -0.1}
	s, err := New(Logistic, x, y, Params{Clip: 0.5})
	if err != nil {
		t.Fatal(err)
	}
	if s.Clipped() < 150 {
		t.Fatalf("only %d rows clipped; the test needs most clipped", s.Clipped())
	}
	if got, want := s.Accuracy(theta), Accuracy(x, y, theta); got != want || want < 0.6 {
		t.Errorf("Set.Accuracy = %g, Accuracy on raw rows = %g", got, want)
	}
	h, err := New(Huber, x, y, Params{Clip: 0.5})
	if err != nil {
		t.Fatal(err)
	}
	if a := h.Accuracy(theta); a != 0 {
		t.Errorf("Huber accuracy %g, want 0", a)
	}
}
