// Package gen generates tables for tests and studies: seeded, synthetic,
// nothing private and nothing reserved (R's datasets stay out of
// development). Each table is a CSV text with a header row, as a person
// would paste it into the page, and the same rows as numbers.
package gen

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
)

// Table is a generated table: its columns (numeric ones as numbers, text
// ones as labels) and its CSV text.
type Table struct {
	Names  []string
	Num    map[string][]float64 // numeric columns
	Labels map[string][]string  // text columns
	Levels map[string][]string  // each text column's labels, in order
	n      int
}

// Rows returns the number of rows.
func (t *Table) Rows() int { return t.n }

// CSV writes the table as comma-separated text with a header row; numbers
// with up to 4 decimals.
func (t *Table) CSV() string {
	var b strings.Builder
	b.WriteString(strings.Join(t.Names, ",") + "\n")
	for i := range t.n {
		for j, c := range t.Names {
			if j > 0 {
				b.WriteByte(',')
			}
			if v, ok := t.Num[c]; ok {
				b.WriteString(fmt.Sprint(math.Round(v[i]*1e4) / 1e4))
			} else {
				b.WriteString(t.Labels[c][i])
			}
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// PriceList is a regression table shaped like a price list, the failure of
// issue 53 item 3: price ≈ e^(8.4 + 1.7·ln carat + effects + 0.25·noise),
// kept in [300, 19000], a skewed target on a large scale; carat lognormal
// in [0.2, 5]; cut (5 labels), color (7) and clarity (8) text columns
// drawn with falling frequencies, each label with its own effect on the
// log price. Columns: carat, cut, color, clarity, price.
func PriceList(n int, seed uint64) *Table {
	r := rand.New(rand.NewPCG(seed, 53))
	t := &Table{Names: []string{"carat", "cut", "color", "clarity", "price"}, n: n,
		Num: map[string][]float64{}, Labels: map[string][]string{}, Levels: map[string][]string{
			"cut":     {"Fair", "Good", "VeryGood", "Premium", "Ideal"},
			"color":   {"D", "E", "F", "G", "H", "I", "J"},
			"clarity": {"I1", "SI2", "SI1", "VS2", "VS1", "VVS2", "VVS1", "IF"},
		}}
	effect := map[string][]float64{"cut": {-0.3, -0.1, 0, 0.05, 0.1}, "color": {0.2, 0.15, 0.1, 0, -0.1, -0.25, -0.4},
		"clarity": {-0.8, -0.4, -0.2, 0, 0.1, 0.2, 0.35, 0.5}}
	for range n {
		carat := math.Min(5, math.Max(0.2, math.Exp(-0.4+0.6*r.NormFloat64())))
		lp := 8.4 + 1.7*math.Log(carat) + 0.25*r.NormFloat64()
		t.Num["carat"] = append(t.Num["carat"], carat)
		for _, c := range []string{"cut", "color", "clarity"} {
			k := len(t.Levels[c])
			l := min(k-1, int(math.Abs(r.NormFloat64())*float64(k)/2.5))
			t.Labels[c] = append(t.Labels[c], t.Levels[c][l])
			lp += effect[c][l]
		}
		t.Num["price"] = append(t.Num["price"], math.Round(math.Min(19000, math.Max(300, math.Exp(lp)))))
	}
	return t
}

// Passengers is a classification table shaped like a passenger list:
// survived ("yes"/"no") drawn from a logistic model of sex (64 % "male",
// −2.4 logits), age (normal around 30, sd 14, in [0.5, 80], −0.03 a year)
// and class ("first", "second", "third": −1 logit a class).
// Columns: sex, age, class, survived.
func Passengers(n int, seed uint64) *Table {
	r := rand.New(rand.NewPCG(seed, 54))
	t := &Table{Names: []string{"sex", "age", "class", "survived"}, n: n, Num: map[string][]float64{},
		Labels: map[string][]string{}, Levels: map[string][]string{
			"sex": {"female", "male"}, "class": {"first", "second", "third"}, "survived": {"no", "yes"}}}
	for range n {
		male := r.Float64() < 0.64
		age := math.Round(math.Min(80, math.Max(0.5, 30+14*r.NormFloat64())))
		class := min(2, int(r.Float64()*3.3))
		z := 1.1 - 0.03*(age-30) - float64(class)
		sex := "female"
		if male {
			z -= 2.4
			sex = "male"
		}
		surv := "no"
		if r.Float64() < 1/(1+math.Exp(-z)) {
			surv = "yes"
		}
		t.Num["age"] = append(t.Num["age"], age)
		t.Labels["sex"] = append(t.Labels["sex"], sex)
		t.Labels["class"] = append(t.Labels["class"], t.Levels["class"][class])
		t.Labels["survived"] = append(t.Labels["survived"], surv)
	}
	return t
}

// Design is a table coded as the page codes it: each numeric feature
// mapped from its declared range [lo, hi] to [−1, 1] (clamped), each text
// feature one-hot (one 0/1 column a label, declared [−1, 1]: the
// identity), then the intercept; the target scaled from its declared range
// (regression) or ±1 with positive the +1 label (classification). clip is
// the page's √(numeric features + text features + 1).
type Design struct {
	X    [][]float64
	Y    []float64 // scaled targets or ±1 labels
	Raw  []float64 // the targets in their units (regression)
	Clip float64
	// Lo, Hi: the target's declared range (regression).
	Lo, Hi float64
}

// Code codes t for the page's model of target from features; ranges holds
// each numeric feature's and the target's declared range; positive is the
// +1 label of a text target ("" for a numeric one).
func (t *Table) Code(features []string, target string, ranges map[string][2]float64, positive string) Design {
	var d Design
	d.Clip = math.Sqrt(float64(len(features) + 1)) // a text feature counts once (docs/DEFAULTS.md)
	for i := range t.n {
		var row []float64
		for _, f := range features {
			if v, ok := t.Num[f]; ok {
				r := ranges[f]
				row = append(row, math.Max(-1, math.Min(1, (2*v[i]-r[0]-r[1])/(r[1]-r[0]))))
				continue
			}
			for _, l := range t.Levels[f] {
				b := 0.0
				if t.Labels[f][i] == l {
					b = 1
				}
				row = append(row, b)
			}
		}
		d.X = append(d.X, append(row, 1))
		if positive != "" {
			y := -1.0
			if t.Labels[target][i] == positive {
				y = 1
			}
			d.Y = append(d.Y, y)
			continue
		}
		r, v := ranges[target], t.Num[target][i]
		d.Lo, d.Hi = r[0], r[1]
		d.Raw = append(d.Raw, v)
		d.Y = append(d.Y, math.Max(-1, math.Min(1, (2*v-r[0]-r[1])/(r[1]-r[0]))))
	}
	return d
}

// Units maps a scaled prediction to the target's units.
func (d Design) Units(s float64) float64 { return (d.Lo+d.Hi)/2 + (d.Hi-d.Lo)/2*s }
