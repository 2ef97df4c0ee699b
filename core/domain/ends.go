package domain

import "math"

// The first level's ends after the trim: whether its kept run accounts for
// the table's rows, and the margin an end takes past its first trimmed bin.

// marginPast is the margin, in first-level bins, of an end whose first
// trimmed bin (just past it) has the noisy count next: Margin, or Margin − 1
// when next is below z_m·σ₂ (MarginEmpty: that bin looks empty) and the kept
// run places the table's rows (placed: rows left unplaced lie in trimmed
// bins, a thin tail the second bin is for). Post-processing of the noisy
// counts.
func (p Plan) marginPast(next float64, allPlaced bool, ru rules) int {
	if next < p.MarginEmpty && (allPlaced || ru.marginAnyPlaced) && p.Margin > 0 && !ru.fullLinearMargin {
		return p.Margin - 1
	}
	return p.Margin
}

// placed says the kept run [a, b] of the first level, with the rows below
// and above the window, accounts for the table's rows: u = n − Σ c̃ (n is
// public; noise σ₂√(b − a + 1) and σ_past for each count past the window)
// stays below Placed noise scales. Rows it leaves unplaced lie in the
// trimmed bins — a thin tail spread below the noise, which the finer
// levels see even less (a tree refining that end would clamp it) — so the
// ends stay on the first level with its Margin.
func placed(c []float64, a, b int, under, over float64, p Plan) bool {
	u := float64(p.N) - under - over
	for i := a; i <= b; i++ {
		u -= c[i]
	}
	sp := p.sigmaPast()
	return u < p.Placed*math.Sqrt(float64(b-a+1)*p.Sigma2*p.Sigma2+2*sp*sp)
}
