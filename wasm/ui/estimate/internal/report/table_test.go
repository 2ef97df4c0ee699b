package report

import (
	"encoding/csv"
	"strings"
	"testing"

	"github.com/dpsample/dpsample/core/loss"
	"github.com/dpsample/dpsample/core/mechanism"
)

func fp(x float64) *float64 { return &x }

// TestCoefTableCSV: the CSV reads back with a standard reader (the
// guarantee a comment line), names with commas quoted, intervals in their
// own columns only when released.
func TestCoefTableCSV(t *testing.T) {
	tb := Published{Level: 0.95, Guarantee: Guarantee("DP-GD", 1, 1e-5, 300, true), Rows: []CoefRow{
		{Name: "sex=male", Reference: "female", Unit: "log-odds", Estimate: -1.25, Lo: fp(-1.9), Hi: fp(-0.6)},
		{Name: "age, years", Unit: "log-odds per unit of age, years", Estimate: 0.0125},
		{Name: "intercept", Unit: "log-odds", Estimate: 0.5, Lo: fp(0.1), Hi: fp(0.9)},
	}}
	text := tb.CSV()
	if !strings.HasPrefix(text, "# These estimates are (ε = 1, δ = 1e-05)-differentially private") {
		t.Errorf("first line %q", strings.SplitN(text, "\n", 2)[0])
	}
	r := csv.NewReader(strings.NewReader(text))
	r.Comment = '#'
	recs, err := r.ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	want := [][]string{{"coefficient", "reference", "estimate", "unit", "lo_95", "hi_95"},
		{"sex=male", "female", "-1.25", "log-odds", "-1.9", "-0.6"},
		{"age, years", "", "0.0125", "log-odds per unit of age, years", "", ""},
		{"intercept", "", "0.5", "log-odds", "0.1", "0.9"}}
	if len(recs) != len(want) {
		t.Fatalf("%d records: %q", len(recs), recs)
	}
	for i := range want {
		if strings.Join(recs[i], "|") != strings.Join(want[i], "|") {
			t.Errorf("record %d = %q, want %q", i, recs[i], want[i])
		}
	}
	tb.Rows = tb.Rows[1:2]
	if strings.Contains(tb.CSV(), "lo_95") {
		t.Error("interval columns without any interval released")
	}
}

// TestCoefTableMarkdown: a table a report renders (cells escaped, the
// reference named, the interval in brackets) with the guarantee under it.
func TestCoefTableMarkdown(t *testing.T) {
	tb := Published{Level: 0.95, Guarantee: "These estimates are private.", Rows: []CoefRow{
		{Name: "class=first|1st", Reference: "third", Unit: "log-odds", Estimate: 1.23456, Lo: fp(0.5), Hi: fp(2)},
		{Name: "fare", Unit: "log-odds per unit of fare", Estimate: 0.001},
	}}
	want := "| coefficient | estimate | 95 % interval | unit |\n|---|---:|---:|---|\n" +
		"| class=first\\|1st (vs third) | 1.235 | [0.5, 2] | log-odds |\n" +
		"| fare | 0.001 | — | log-odds per unit of fare |\n\nThese estimates are private.\n"
	if got := tb.Markdown(); got != want {
		t.Errorf("markdown:\n%s\nwant\n%s", got, want)
	}
	if g := Guarantee("DP-GD", 1, 1e-5, 10, false); !strings.Contains(g, "NOT differentially private") {
		t.Errorf("seeded guarantee %q", g)
	}
}

// TestCoefRows: each row says what its estimate is in, and a text
// feature's label names its reference.
func TestCoefRows(t *testing.T) {
	names := []string{"sex=male", "age", "intercept"}
	oh := map[string]bool{"sex=male": true}
	refs := map[string]string{"sex": "female"}
	got := CoefRows(loss.Logistic, names, []float64{-1, 0.1, 0.3}, "survived", refs, oh)
	if got[0].Reference != "female" || got[0].Unit != "log-odds" || got[1].Unit != "log-odds per unit of age" || got[1].Reference != "" || got[2].Unit != "log-odds" {
		t.Errorf("logistic rows %+v", got)
	}
	got = CoefRows(loss.Huber, names, []float64{-1, 0.1, 0.3}, "income", refs, oh)
	if got[0].Unit != "income" || got[1].Unit != "income per unit of age" {
		t.Errorf("regression rows %+v", got)
	}
}

// TestPruned: DP-GD's plan is exported without the fields that do not
// apply to it (η = 0, μ = 0), Algorithm 1's with them.
func TestPruned(t *testing.T) {
	base := mechanism.Request{Loss: "logistic", X: [][]float64{{0.1, 1}, {-0.2, 1}, {0.3, 1}}, Y: []float64{1, -1, 1}, Epsilon: 1, Delta: 1e-5}
	dp := base
	dp.Method = mechanism.EstimatorDPGD
	pd, err := mechanism.NewPlan(dp)
	if err != nil {
		t.Fatal(err)
	}
	m := Pruned(pd)
	if _, ok := m["eta"]; ok || m["n"] != 3 || m["gdp"] == nil || m["schedule"] == nil {
		t.Errorf("DP-GD's plan exported as %v", m)
	}
	pa, err := mechanism.NewPlan(base)
	if err != nil {
		t.Fatal(err)
	}
	if m := Pruned(pa); m["eta"] == nil || m["mu"] == nil {
		t.Errorf("Algorithm 1's plan lost η or μ: %v", m)
	}
}
