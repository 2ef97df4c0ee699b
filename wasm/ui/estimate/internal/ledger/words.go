//go:build js && wasm

// What the ledger shows: the meter's line, the result's statement about
// the table, the chart of what was spent, and the export.

package ledger

import (
	"fmt"
	"math"

	"github.com/dpsample/dpsample/core/plot"
	"github.com/dpsample/dpsample/core/privacy"
	"github.com/dpsample/dpsample/wasm/ui/internal/kit"
)

// allReleased names a table's releases together in the attacker's sentence.
const allReleased = "everything released on this table so far"

// ledgerSummary is the meter's line: spent / total, releases, what is left.
func ledgerSummary(st *privacy.LedgerState) string {
	sp, b, rem := st.Spent, st.Budget, st.Remaining
	s := fmt.Sprintf("This table: %s, spent ε = %s of %s (δ = %s).", kit.Count(sp.Releases, "release"), kit.G3(sp.Epsilon), kit.G3(b.Epsilon), kit.G3(b.Delta))
	if w := privacy.AttackerSentenceFor(allReleased, sp.GDP, sp.TV); w != "" {
		s += " " + w + budgetWords(b)
	}
	if left, ok := roomLeft(rem.Epsilon); ok {
		s += fmt.Sprintf(" Room left: one more run at ε ≤ %s (δ = %s), or several smaller ones.", left, kit.G3(b.Delta))
	} else {
		s += " Nothing is left: further runs on this table are refused."
	}
	asked := 0.0
	for _, r := range st.History {
		asked += r.Epsilon
	}
	if sp.Releases > 0 && asked > sp.Epsilon+0.005 {
		s += fmt.Sprintf(" (Spent is less than the ε the runs asked for, %s: privacy losses add up more gently than their ε's "+
			"(see “What the table's budget means”), "+
			"and a sampler keeps part of δ for its sampling error, so its guarantee at this table's δ is a little stronger than asked.)", kit.G3(asked))
	}
	return s
}

// budgetWords is the promise the whole budget keeps (issue 51 item 5): the
// meter's sentence is about what has been spent so far; this is the figure
// once everything the table allows is spent (its GDP and TV bounds, S and
// TV_tot), rounded as the sentence rounds (up: never more private than
// true).
func budgetWords(b privacy.LedgerBudget) string {
	c, err := privacy.Catch(b.GDP, privacy.SentenceAlpha, b.TV)
	if err != nil {
		return ""
	}
	return fmt.Sprintf(" Once the whole budget (ε = %s) is spent: at most %d times in 100.", kit.G3(b.Epsilon), int(math.Ceil(100*c-1e-9)))
}

// roomLeft is the one rule for printing the ε a table may still spend (the
// meter's line, a result's statement, a refusal): three significant digits
// rounded down (privacy.FormatDown), so that no message offers more than fits
// and all of them print the same number (issue 45: "ε ≤ 2.37" beside "about
// 2.36"). ok is false when nothing is left to offer (rem ≤ 0).
func roomLeft(rem float64) (string, bool) {
	return privacy.FormatDown(rem, 3), rem > 0
}

// Statement is the part of a result's privacy statement about all
// releases on the table ("" without a ledger).
func Statement(st *privacy.LedgerState) string {
	if st == nil {
		return ""
	}
	sp, b := st.Spent, st.Budget
	s := fmt.Sprintf(" All releases on this table so far (%s, this one included) together spent ε = %s of the table's total "+
		"ε = %s at δ = %s (composed exactly: %.3g-GDP in all). However the runs were chosen, everything released on this table "+
		"stays within (ε = %s, δ = %s)-differential privacy; ",
		kit.Count(sp.Releases, "release"), kit.G3(sp.Epsilon), kit.G3(b.Epsilon), kit.G3(b.Delta), sp.GDP, kit.G3(b.Epsilon), kit.G3(b.Delta))
	if left, ok := roomLeft(st.Remaining.Epsilon); ok {
		s += fmt.Sprintf("what is left allows one more run at ε ≤ %s.", left)
	} else {
		s += "nothing is left for further runs."
	}
	return s
}

// ledgerPlot draws the (ε, δ) curve of what the table's releases have
// spent against the budget's curve; the budget's (ε, δ) lies on the latter.
// Both are the guarantees, privacy.GuaranteeDelta: they never rise with ε (an
// (ε′, δ) guarantee holds at every ε ≥ ε′); CurveDelta's sampler term
// (1 + e^ε)·TV made them dip near ε = 3.26 and rise (issue 45).
func ledgerPlot(st privacy.LedgerState) *plot.Plot {
	b, sp := st.Budget, st.Spent
	hi := 1.6 * b.Epsilon
	var xs, bud, spent []float64
	for i := 0; i <= 120; i++ {
		e := hi * float64(i) / 120
		xs = append(xs, e)
		bud = append(bud, privacy.GuaranteeDelta(b.GDP, b.TV, e))
		spent = append(spent, privacy.GuaranteeDelta(sp.GDP, sp.TV, e))
	}
	series := []plot.Series{{Name: "the table's budget", X: xs, Y: bud, Dashed: true, Color: plot.Palette[1]}}
	if sp.Releases > 0 {
		series = append(series, plot.Series{Name: fmt.Sprintf("spent by %s", kit.Count(sp.Releases, "release")), X: xs, Y: spent, Color: plot.Palette[0]})
	}
	return &plot.Plot{
		// The grey rules carry no label (the meter's line states the budget): at
		// phone width no side of the δ rule holds a label clear of the curves.
		Title:  "Privacy spent on this table",
		XLabel: "ε", YLabel: "δ(ε) (log scale)", YLog: true,
		YMin: b.Delta * 1e-4, YMax: 1, XMin: 0, XMax: hi, Height: 260, Class: "ledger",
		Desc: "The (ε, δ) curve of all releases on this table so far, below the budget's curve while the budget holds; the grey lines mark the budget's ε and δ, and cross on its curve. " +
			"A curve never rises: a guarantee at some ε holds at every larger ε, so where the part of δ kept for the sampler's error would make δ grow, the curve stays flat.",
		Series: series,
		Rules: []plot.Rule{
			{At: b.Delta, Horizontal: true, Color: "#888888"},
			{At: b.Epsilon, Color: "#888888"},
		},
	}
}

// Export is the table's ledger as the JSON export carries it: without
// its key (the SHA-256 of the table's canonical form is a function of all the
// data and would let anyone holding a candidate table check it).
func Export(st *privacy.LedgerState) *privacy.LedgerState {
	if st == nil {
		return nil
	}
	c := *st
	c.Key = ""
	return &c
}
