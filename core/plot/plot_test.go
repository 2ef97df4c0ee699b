package plot

import (
	"encoding/xml"
	"math"
	"strings"
	"testing"
)

func TestTicksLinear(t *testing.T) {
	for _, c := range []struct {
		lo, hi float64
		want   []float64
	}{
		{0, 1, []float64{0, 0.2, 0.4, 0.6, 0.8, 1}},
		{-3, 7, []float64{-2, 0, 2, 4, 6}},
	} {
		got := Ticks(c.lo, c.hi, 5, false)
		if len(got) != len(c.want) {
			t.Fatalf("Ticks(%g,%g) = %v, want %v", c.lo, c.hi, got, c.want)
		}
		for i := range got {
			if math.Abs(got[i]-c.want[i]) > 1e-12 {
				t.Errorf("Ticks(%g,%g)[%d] = %g, want %g", c.lo, c.hi, i, got[i], c.want[i])
			}
		}
	}
}

func TestTicksLog(t *testing.T) {
	got := Ticks(1e-12, 1, 6, true)
	if len(got) < 4 || got[0] < 1e-12 || got[len(got)-1] > 1 {
		t.Fatalf("log ticks %v", got)
	}
	for _, v := range got {
		if e := math.Log10(v); math.Abs(e-math.Round(e)) > 1e-9 {
			t.Errorf("wide log range gave a non-decade tick %g", v)
		}
	}
	// Under three decades, 1-2-5 ticks within each decade.
	want := []float64{1, 2, 5, 10, 20, 50}
	if got := Ticks(1, 50, 5, true); len(got) != len(want) {
		t.Errorf("narrow log ticks %v, want %v", got, want)
	}
}

// TestSVGWellFormed renders a plot with every kind of series, rules, NaNs and
// log axes, and checks the markup parses as XML and carries title and labels.
func TestSVGWellFormed(t *testing.T) {
	p := &Plot{Title: "δ vs ε <test>", XLabel: "ε", YLabel: "δ (log)", YLog: true,
		Series: []Series{
			{Name: "curve", X: []float64{0, 1, 2, math.NaN(), 4}, Y: []float64{0.5, 0.1, 1e-3, 1e-5, 0}},
			{Name: "pts", X: []float64{1, 2}, Y: []float64{0.2, 0.02}, Kind: Points, Err: []float64{0.05, 0.01}},
			{Name: "bars", X: []float64{1, 2}, Y: []float64{0.3, 0.03}, Kind: Bars},
			{Name: "steps", X: []float64{0, 3}, Y: []float64{0.3, 0.03}, Kind: Steps, Dashed: true},
		},
		Rules: []Rule{{Label: "target δ", At: 1e-5, Horizontal: true}, {Label: "ε", At: 1}},
	}
	s := p.SVG()
	if err := xml.Unmarshal([]byte(s), new(struct{})); err != nil {
		t.Fatalf("SVG is not well-formed XML: %v\n%s", err, s)
	}
	for _, want := range []string{"δ vs ε &lt;test&gt;", ">ε<", "δ (log)", "target δ", "<polyline", "<circle", "<rect x="} {
		if !strings.Contains(s, want) {
			t.Errorf("SVG lacks %q", want)
		}
	}
	if strings.Contains(s, "NaN") || strings.Contains(s, "Inf") {
		t.Errorf("SVG contains a non-finite coordinate")
	}
}

func TestEmptyPlot(t *testing.T) {
	s := (&Plot{Title: "empty", XLog: true, YLog: true}).SVG()
	if err := xml.Unmarshal([]byte(s), new(struct{})); err != nil || strings.Contains(s, "NaN") {
		t.Fatalf("empty plot: %v %s", err, s)
	}
}
