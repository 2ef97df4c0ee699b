package domain

import (
	"math"
	"sort"
	"strings"
	"testing"

	"github.com/dpsample/dpsample/core/rng"
)

// The tree's rules (tree.go; package doc, "Stage 2"): each test states a rate
// for the default rules and its critical value at a false-failure rate of
// 10⁻⁴ (binomUpper), and checks that the rule switched back (rules) exceeds
// that critical value on the same seeded draws, so that the test can fail.

// treeCase is one statistical claim: col described draws times (n =
// len(col), d columns, ε = 1, δ = 10⁻⁵, the plan NewPlanWith makes with
// opt, seeded) is bad in at most the share claim of the draws under the
// default rules, and in more than the claim's critical value under former.
type treeCase struct {
	col          []float64
	d, draws     int
	seed         uint64
	claim        float64
	opt          Options
	former       rules
	bad          func(c Column) bool
	what, undone string
}

// count returns how many of the draws are bad under ru.
func (tc treeCase) count(t *testing.T, ru rules) int {
	t.Helper()
	p, err := NewPlanWith(len(tc.col), tc.d, 1, 1e-5, tc.opt)
	if err != nil {
		t.Fatal(err)
	}
	r := rng.Seeded(tc.seed)
	k := 0
	for i := 0; i < tc.draws; i++ {
		if tc.bad(describeColumn(tc.col, p, r, ru)) {
			k++
		}
	}
	return k
}

func (tc treeCase) check(t *testing.T) {
	t.Helper()
	crit := binomUpper(tc.draws, tc.claim, 1e-4)
	if k := tc.count(t, rules{}); k > crit {
		t.Errorf("%s in %d of %d draws (> %d, the %g claim's critical value)", tc.what, k, tc.draws, crit, tc.claim)
	}
	if k := tc.count(t, tc.former); k <= crit {
		t.Errorf("%s, %s in only %d of %d draws (≤ %d): the test cannot tell", tc.undone, tc.what, k, tc.draws, crit)
	}
}

// sample returns n values of law (seeded), rounded to the given decimals.
func sample(n int, seed uint64, decimals int, law func(r interface{ NormFloat64() float64 }) float64) []float64 {
	r := rng.Seeded(seed)
	p := math.Pow(10, float64(decimals))
	out := make([]float64, n)
	for i := range out {
		out[i] = math.Round(law(r)*p) / p
	}
	return out
}

// spreadOf is max − min of col.
func spreadOf(col []float64) float64 {
	s := append([]float64(nil), col...)
	sort.Float64s(s)
	return s[len(s)-1] - s[0]
}

// years returns n years cycling through first, first + step, …, last.
func years(n int, first, last, step float64) []float64 {
	out := make([]float64, n)
	k := int((last-first)/step) + 1
	for i := range out {
		out[i] = first + step*float64(i%k)
	}
	return out
}

// thinTail returns 1000 values: 90 % on 100…200 (integers cycling) and
// every tenth spread evenly over 200…1000.
func thinTail() []float64 {
	var col []float64
	for i := 0; i < 1000; i++ {
		if i%10 == 0 {
			col = append(col, math.Round(200+800*float64(i/10)/99))
		} else {
			col = append(col, float64(100+i%101))
		}
	}
	return col
}

// rain returns n values: 90 % zeros and 10 % spread evenly in log scale
// from 0.5 to 40 (one decimal).
func rain(n int) []float64 {
	out := make([]float64, 0, n)
	for i := 0; i < n; i++ {
		if i%10 != 0 {
			out = append(out, 0)
			continue
		}
		out = append(out, math.Round(5*math.Pow(80, float64(i/10%60)/59))/10)
	}
	return out
}

// Years 1990…2020 at n = 1000 and 8 columns: stage 1's window is [256,
// 16384] and the first level's bins are 1008 wide, so without the tree the
// range is that bin with two more a side (0.6.0: 4032, 134 times the
// spread). The tree's fourth level has bins of 15.75. Claim: wider than 6
// times the spread (180) in ≤ 8 % of the draws (measured 6.8 % over 2000);
// with the ends on the first level (rules.noDescent) every draw is.
func TestTreeNarrowsOffsetColumn(t *testing.T) {
	col := years(1000, 1990, 2020, 1)
	treeCase{col: col, d: 8, draws: 2000, seed: 1, claim: 0.08, former: rules{noDescent: true},
		bad:  func(c Column) bool { return c.Hi-c.Lo > 6*spreadOf(col) },
		what: "a range wider than 6 times the spread", undone: "with the ends on the first level"}.check(t)
}

// The quartiles of those years, read at the level the ends were placed on
// and refined down the tree:
// claim, one more than a quarter of the spread (7.5) from the sample's in
// ≤ 8 % of the draws (measured 2.8 %; 5.7 % without the refinement down the
// tree, rules.flatQuartiles); read off the first level's 1008-wide
// bins (rules.noDescent and rules.flatQuartiles: 0.6.0's), every draw. (With
// the ends kept on the first level but the quartiles refined down the tree,
// 57 of 2000.)
func TestTreeQuartiles(t *testing.T) {
	col := years(1000, 1990, 2020, 1)
	s := append([]float64(nil), col...)
	sort.Float64s(s)
	q := func(f float64) float64 { return s[int(f*float64(len(s)-1))] }
	treeCase{col: col, d: 8, draws: 2000, seed: 2, claim: 0.08, former: rules{noDescent: true, flatQuartiles: true},
		bad: func(c Column) bool {
			return math.Abs(c.Q1-q(0.25)) > 7.5 || math.Abs(c.Median-q(0.5)) > 7.5 || math.Abs(c.Q3-q(0.75)) > 7.5 ||
				!(c.Lo <= c.Q1 && c.Q1 <= c.Median && c.Median <= c.Q3 && c.Q3 <= c.Hi) || c.QuartileStep > c.Step
		},
		what: "a quartile more than a quarter of the spread off", undone: "read off the first level"}.check(t)
}

// A normal column, N(170, 9²) at n = 1000 and 8 columns: where the descent
// stops, each end is placed on the outermost bin that may hold rows. Claim:
// more than 5 % of the values clamped in ≤ 7 % of the draws (measured
// 4.4 %); keeping the zoom's ends (rules.noPlace) clamps that much in 35 %.
func TestTreePlacesEnds(t *testing.T) {
	col := sample(1000, 5, 1, func(r interface{ NormFloat64() float64 }) float64 { return 170 + 9*r.NormFloat64() })
	treeCase{col: col, d: 8, draws: 2000, seed: 3, claim: 0.07, former: rules{noPlace: true},
		bad:  func(c Column) bool { return clampedShare(col, c.Lo, c.Hi) > 0.05 },
		what: "more than 5 % clamped", undone: "without placing the ends"}.check(t)
}

// Years 1990…2020 (700 rows) below which 300 rows spread evenly over
// [1895, 1957) (n = 1000, 8 columns): at the third level the lower end's bin
// holds those 300 rows, 75 in each of its finer bins, none of which stands
// clear of the noise, so the end stays on it; the upper end goes on a level
// down. Claim: the top above 2100 (the upper end left at the third level) in
// ≤ 10 % of the draws (measured 5.5 %); stopping both ends with the one that
// cannot go on (rules.noFreeze), 58 %.
func TestTreeFreezesOneEnd(t *testing.T) {
	var col []float64
	for i := 0; i < 1000; i++ {
		if i%10 < 3 {
			col = append(col, 1895+float64(i%300)*62/300)
		} else {
			col = append(col, float64(1990+i%31))
		}
	}
	treeCase{col: col, d: 8, draws: 2000, seed: 4, claim: 0.10, former: rules{noFreeze: true},
		bad:  func(c Column) bool { return c.Hi > 2100 },
		what: "the top above 2100", undone: "stopping both ends with the one that cannot go on"}.check(t)
}

// 90 % of the rows on 100…200 and 10 % spread thin over 200…1000 (n = 1000,
// 4 columns): the tail's first-level bins hold about 13 rows each, below
// the noise, and are trimmed; the rows they hold are unplaced (n − the kept
// counts), so the ends stay on the first level with its margin. Claim: more
// than 5 % clamped in ≤ 15 % of the draws (measured 11.6 %); refining the
// ends whatever rows are unplaced (rules.noPlaced) clamps that much in 71 %.
func TestTreeKeepsUnplacedRows(t *testing.T) {
	col := thinTail()
	treeCase{col: col, d: 4, draws: 2000, seed: 5, claim: 0.15, former: rules{noPlaced: true},
		bad:  func(c Column) bool { return clampedShare(col, c.Lo, c.Hi) > 0.05 },
		what: "more than 5 % clamped", undone: "refining the ends whatever rows are unplaced"}.check(t)
}

// The years of TestTreeNarrowsOffsetColumn: a tree's first level stops its
// trim at a bin alone only from TreeTrimAlone = 4 noise scales, and with its
// inner neighbour from TreeTrim = 2.5: a false stop among the 14 empty bins
// above the years leaves the range thousands wide, which the finer levels
// cannot undo. Claims: the top above 4300 in ≤ 1.3 % of 4000 draws
// (measured 0.75 %; TrimAlone's 3: 2.8 %), and the range reaching a
// neighbouring bin (below 1000 or above 3000) in ≤ 3 % of 4000 (measured
// 1.9 %; Trim's 2: 5 %).
func TestTreeFirstLevelTrim(t *testing.T) {
	col := years(1000, 1990, 2020, 1)
	treeCase{col: col, d: 8, draws: 4000, seed: 6, claim: 0.013, former: rules{treeAlone3: true},
		bad:  func(c Column) bool { return c.Hi > 4300 },
		what: "the top above 4300", undone: "at TrimAlone"}.check(t)
	treeCase{col: col, d: 8, draws: 4000, seed: 7, claim: 0.03, former: rules{treeTrim2: true},
		bad:  func(c Column) bool { return c.Lo < 1000 || c.Hi > 3000 },
		what: "a neighbouring bin kept", undone: "at Trim"}.check(t)
}

// The years again: with a tree the zero bin alone puts 0 in the range only
// at τ_c. Claim: the range pinned at 0 in ≤ 0.5 % of 2000 draws (measured
// none); from τ_g (0.6.0's; rules.zeroGrow), about Φ̄(2) ≈ 2.3 % of them are
// (measured 2.7 %).
func TestTreeZeroNeedsCluster(t *testing.T) {
	treeCase{col: years(1000, 1990, 2020, 1), d: 8, draws: 2000, seed: 8, claim: 0.005, former: rules{zeroGrow: true},
		bad:  func(c Column) bool { return c.Lo == 0 },
		what: "the range pinned at 0", undone: "with zero from τ_g"}.check(t)
}

// A standardised score, N(0, 1) at n = 250 and 8 columns (two stages, one
// level): stage 1 trusts one side of zero, the other half of the rows is
// counted below (or above) the window, and the end at 0 moves out to the
// mirror of the other end. Claim: more than 20 % clamped in ≤ 10 % of the
// draws (measured 7.5 %); moving to the smallest magnitudes past 0 (0.6.0's
// rule, rules.zeroTiny) clamps that much in 99 %.
func TestZeroEndMirrors(t *testing.T) {
	col := sample(250, 6, 2, func(r interface{ NormFloat64() float64 }) float64 { return r.NormFloat64() })
	treeCase{col: col, d: 8, draws: 2000, seed: 9, claim: 0.10, former: rules{zeroTiny: true},
		bad:  func(c Column) bool { return clampedShare(col, c.Lo, c.Hi) > 0.2 },
		what: "more than 20 % clamped", undone: "moving an end at 0 to the smallest magnitudes"}.check(t)
}

// Rain at n = 600 and 4 columns (four levels): 90 % dry days and 10 % over
// 0.5…40, none of whose magnitude bins reaches τ_c, so stage 1's window is
// the unit scale and the wet days are counted above it — by every level,
// whose inverse-variance mean has the noise of the whole stage. Claim: more
// than 5 % clamped in ≤ 58 % of the draws (measured 55 %); testing the
// first level's count alone (rules.pastLevel0), 88 %.
func TestTreePastCombined(t *testing.T) {
	col := rain(600)
	treeCase{col: col, d: 4, draws: 2000, seed: 10, claim: 0.58, former: rules{pastLevel0: true},
		bad:  func(c Column) bool { return clampedShare(col, c.Lo, c.Hi) > 0.05 },
		what: "more than 5 % clamped", undone: "testing the first level's count past the window alone"}.check(t)
}

// The tree's options (for the study) are checked, each error naming its
// field, and Before52 is 0.6.0's plan: one level, half of s² a stage.
func TestTreeOptions(t *testing.T) {
	for _, c := range []struct {
		o     Options
		field string
	}{
		{Options{Levels: MaxLevels + 1}, "options.levels"}, {Options{Level1Share: 1}, "options.level1Share"},
		{Options{Empty: 7}, "options.empty"}, {Options{Ambiguous: -1}, "options.ambiguous"}, {Options{Span: 65}, "options.span"},
		{Options{Placed: 21}, "options.placed"}, {Options{Hold: 1.5}, "options.hold"}, {Options{MarginFine: 65}, "options.marginFine"},
	} {
		if _, err := NewPlanWith(1000, 3, 1, 1e-5, c.o); err == nil || !strings.HasPrefix(err.Error(), c.field+" must") {
			t.Errorf("%+v: %v; want an error naming %s", c.o, err, c.field)
		}
	}
	p, err := NewPlanWith(1000, 3, 1, 1e-5, Options{Before52: true})
	if err != nil || p.Levels != 1 || p.Share1 != Share1 || p.SigmaFine != 0 || !p.valid() {
		t.Errorf("Before52: %+v, %v", p, err)
	}
	q, _ := NewPlan(1000, 3, 1, 1e-5)
	if q.Levels != 4 || q.Share1 != TreeShare1 || q.TrimLevel != TreeTrim*q.Sigma2 {
		t.Errorf("default at n·s/√(2d) ≈ 109: %+v", q)
	}
}

// A 0/1-like column coded 1 and 2 (30 % ones) at n = 1000 and 8 columns:
// its quartiles are 1, 2 and 2. The ends are placed on a level whose bins
// are a unit wide, so that read there the ones spread over [1, 2) and q1
// is about 1.83; refined down the tree (tree.refine) the ones sit in the
// finest bin at 1. Claim: a quartile more than a quarter of the spread
// off, or out of order, in ≤ 10 % of the draws (measured 7.1 % over 2000:
// a child of noise alone past the trim level now and then takes q1 in);
// read at the ends' level (rules.flatQuartiles) every draw (2000 of 2000).
func TestTreeRefinesQuartiles(t *testing.T) {
	col := make([]float64, 1000)
	for i := range col {
		col[i] = 2
		if i%10 < 3 {
			col[i] = 1
		}
	}
	treeCase{col: col, d: 8, draws: 2000, seed: 11, claim: 0.10, former: rules{flatQuartiles: true},
		bad: func(c Column) bool {
			return math.Abs(c.Q1-1) > 0.25 || math.Abs(c.Median-2) > 0.25 || math.Abs(c.Q3-2) > 0.25 ||
				!(c.Lo <= c.Q1 && c.Q1 <= c.Median && c.Median <= c.Q3 && c.Q3 <= c.Hi)
		},
		what: "a quartile more than a quarter of the spread off", undone: "read at the ends' level"}.check(t)
}

// Heights N(170, 9²) at n = 250 and 8 columns: one level of 16 bins 63.75
// wide over stage 1's window [16, 1024], the heights in two or three of
// them. An end whose first trimmed bin looks empty (below z_m·σ₂,
// MarginEmpty) takes Margin − 1 bins of margin. Claims: wider than 6.5
// times the spread in ≤ 18 % of 2000 draws (measured 15.2 %; the width is
// 4.1, 5.5 or 6.9 times it), and no value clamped in any draw; with two
// bins a side always (rules.fullLinearMargin, 0.7.0's), every draw is.
func TestMarginPastEmptyBin(t *testing.T) {
	col := sample(250, 9, 0, func(r interface{ NormFloat64() float64 }) float64 { return 170 + 9*r.NormFloat64() })
	treeCase{col: col, d: 8, draws: 2000, seed: 7, claim: 0.18, former: rules{fullLinearMargin: true},
		bad:  func(c Column) bool { return c.Hi-c.Lo > 6.5*spreadOf(col) || clampedShare(col, c.Lo, c.Hi) > 0 },
		what: "a range wider than 6.5 times the spread, or a value clamped", undone: "with two bins of margin a side"}.check(t)
}

// The thin tail of TestTreeKeepsUnplacedRows: the ends stay on the first
// level, and there the margin past a bin that looks empty stays Margin while
// the kept run leaves rows unplaced (they lie in the trimmed bins). Claim as
// there; taking Margin − 1 whatever rows are unplaced (rules.marginAnyPlaced)
// clamps more than 5 % in 20 % of the draws.
func TestMarginKeepsUnplacedRows(t *testing.T) {
	col := thinTail()
	treeCase{col: col, d: 4, draws: 2000, seed: 5, claim: 0.15, former: rules{marginAnyPlaced: true},
		bad:  func(c Column) bool { return clampedShare(col, c.Lo, c.Hi) > 0.05 },
		what: "more than 5 % clamped", undone: "taking Margin − 1 past an empty-looking bin whatever rows are unplaced"}.check(t)
}
