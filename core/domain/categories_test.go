package domain

import (
	"math"
	"strings"
	"testing"

	"github.com/dpsample/dpsample/core/privacy"
	"github.com/dpsample/dpsample/core/rng"
)

// survivals counts, over draws, how often the one-row label "a" of a column
// a, b, b, b is released.
func survivals(t *testing.T, p Plan, draws int, ru rules) int {
	t.Helper()
	c := Cells{Name: "c", Labels: []string{"a", "b", "b", "b"}}
	r := rng.Seeded(uint64(draws) + uint64(ru.labelShift+10))
	got := 0
	for k := 0; k < draws; k++ {
		for _, l := range describeCellColumn(c, p, r, ru).Categories {
			if l == "a" {
				got++
			}
		}
	}
	return got
}

// A label that occurs in one row is released with probability exactly
// Φ̄((τ_L − 1.5)/σ₁), at most the TV/d charged for it (issue 42 item 1). At
// n = 4, ε = 1, δ = 0.2 the rate is large enough to measure: 20,000 draws,
// two-sided binomial test at a false-failure rate of 10⁻⁴ (z = 3.89). A
// threshold one count lower must fail it.
func TestOneRowLabelSurvival(t *testing.T) {
	p, err := NewCellsPlan(4, 1, 1, 0.2)
	if err != nil {
		t.Fatal(err)
	}
	exact := privacy.Phi(-(p.LabelThreshold - 1.5) / p.Sigma1)
	if !(exact <= p.TV/float64(p.D)) {
		t.Fatalf("τ_L = %g: a one-row label survives with probability %g > TV/d = %g", p.LabelThreshold, exact, p.TV)
	}
	if zero := privacy.Phi(-(p.LabelThreshold - 0.5) / p.Sigma1); !(zero <= p.TV/float64(p.D)) {
		t.Fatalf("a zero count passes τ_L with probability %g > TV/d", zero)
	}
	const draws = 20000
	within := func(got int, q float64) bool {
		mean, sd := draws*q, math.Sqrt(draws*q*(1-q))
		return math.Abs(float64(got)-mean) <= 3.89*sd
	}
	if got := survivals(t, p, draws, rules{}); !within(got, exact) {
		t.Errorf("the one-row label survived %d of %d draws; exact rate %g (expected %.0f)", got, draws, exact, draws*exact)
	}
	if got := survivals(t, p, draws, rules{labelShift: -1}); within(got, exact) {
		t.Errorf("τ_L − 1: %d survivals, within the test's band for τ_L: the test cannot tell", got)
	}
}

// The plan: s at δ/2, TV = δ/(2(1 + e^ε)) charged with it, capped by a
// ledger's share; a Describe plan is refused by DescribeCells and the
// reverse.
func TestCellsPlan(t *testing.T) {
	p, err := NewCellsPlan(500, 3, 1, 1e-5)
	if err != nil {
		t.Fatal(err)
	}
	s, _ := privacy.Calibrate(1, 0.5e-5)
	if p.GDP != s || math.Abs(p.TV-0.5e-5/(1+math.E)) > 1e-18 {
		t.Errorf("s = %g (want %g), TV = %g", p.GDP, s, p.TV)
	}
	if c := p.Charge(); c.TV != p.TV || c.GDP != s {
		t.Errorf("charge %+v", c)
	}
	l, _ := privacy.NewLedger(3, 1e-5)
	q, err := PlanCellsFor(500, 3, 1, 1e-5, l)
	if err != nil {
		t.Fatal(err)
	}
	if !(q.TV <= l.TVAllowance(q.GDP)) || !(q.LabelThreshold > p.LabelThreshold) {
		t.Errorf("under a ledger: TV %g (allowance %g), τ_L %g vs %g", q.TV, l.TVAllowance(q.GDP), q.LabelThreshold, p.LabelThreshold)
	}
	if _, err := l.Charge(q.Charge()); err != nil {
		t.Errorf("the ledger refuses its own share: %v", err)
	}
	num, _ := NewPlan(500, 3, 1, 1e-5)
	seed := uint64(1)
	if _, err := DescribeCells(make([]Cells, 3), num, &seed); err == nil || !strings.HasPrefix(err.Error(), "plan must") {
		t.Errorf("DescribeCells with a numeric plan: %v", err)
	}
}

// A table of a text column, a numeric one and a mixed one: the frequent
// labels are found, most frequent first, the rare one and an ID-like column's
// labels are not, the kinds follow, and every range is finite.
func TestDescribeCells(t *testing.T) {
	n := 3000
	var island, id []string
	var mass []float64
	mixed := Cells{Name: "mixed"}
	for i := 0; i < n; i++ {
		switch {
		case i%10 < 6:
			island = append(island, "Biscoe")
		case i%10 < 9:
			island = append(island, " Dream ")
		case i == 5:
			island = append(island, "Rare")
		default:
			island = append(island, "Torgersen")
		}
		id = append(id, strings.Repeat("x", 1+i%7)+string(rune('A'+i%26))+string(rune('a'+i/26%26)))
		mass = append(mass, 3000+float64(i%1000))
		if i%2 == 0 {
			mixed.Nums = append(mixed.Nums, float64(i%5))
		} else {
			mixed.Labels = append(mixed.Labels, "NA-ish")
		}
	}
	cols := []Cells{{Name: "island", Labels: island}, {Name: "mass", Nums: mass}, {Name: "id", Labels: id}, mixed}
	p, err := NewCellsPlan(n, len(cols), 1, 1e-5)
	if err != nil {
		t.Fatal(err)
	}
	for seed := uint64(1); seed <= 5; seed++ {
		res, err := DescribeCells(cols, p, &seed)
		if err != nil {
			t.Fatal(err)
		}
		is := res.Columns[0]
		if is.Kind != KindText || len(is.Categories) != 3 || is.Categories[0] != "Biscoe" || is.Categories[1] != "Dream" || is.Categories[2] != "Torgersen" || is.Other {
			t.Errorf("seed %d: island %+v", seed, is)
		}
		if m := res.Columns[1]; m.Kind != KindNumeric || len(m.Categories) != 0 || !(m.Lo <= 3000 && m.Hi >= 3999) || !m.Other {
			t.Errorf("seed %d: mass %+v", seed, m)
		}
		if c := res.Columns[2]; len(c.Categories) != 0 || c.Kind != KindNumeric || !c.Other {
			t.Errorf("seed %d: an ID column released %d categories", seed, len(c.Categories))
		}
		if c := res.Columns[3]; len(c.Categories) != 1 || !c.Other {
			t.Errorf("seed %d: mixed %+v", seed, c)
		}
		for _, c := range res.Columns {
			if !(c.Lo < c.Hi) || math.IsInf(c.Lo, 0) || math.IsInf(c.Hi, 0) {
				t.Errorf("seed %d: %s's range [%g, %g]", seed, c.Name, c.Lo, c.Hi)
			}
		}
	}
	if _, err := DescribeCells([]Cells{{Name: "bad", Nums: []float64{math.NaN()}}}, mustCells(t, 1), nil); err == nil || !strings.HasPrefix(err.Error(), `column "bad" must`) {
		t.Errorf("NaN: %v", err)
	}
}

func mustCells(t *testing.T, d int) Plan {
	p, err := NewCellsPlan(10, d, 1, 1e-3)
	if err != nil {
		t.Fatal(err)
	}
	return p
}
