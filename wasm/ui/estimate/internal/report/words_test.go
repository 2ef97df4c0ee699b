package report

import (
	"math"
	"strings"
	"testing"

	"github.com/dpsample/dpsample/core/mechanism"
)

// TestLossVerdict: the words follow the loss ratio A/B at the stated
// thresholds (1.05, 1.5, 2), and a difference within the certified gap is
// "as low as" however large the ratio (B near 0).
func TestLossVerdict(t *testing.T) {
	for _, c := range []struct {
		a, b, gap float64
		want      string
	}{
		{1.0, 1.0, 0, "as low as"},
		{0.99, 1.0, 0.02, "as low as"},
		{1.001, 1.0, 0.002, "as low as"},
		{1.04, 1.0, 0.001, "close to (4.0 % above)"},
		{1.06, 1.0, 0.001, "6.0 % above"},
		{1.49, 1.0, 0.001, "49 % above"},
		{1.51, 1.0, 0.001, "well above (51 % higher than)"},
		{1.99, 1.0, 0.001, "well above (99 % higher than)"},
		{2.0, 1.0, 0.001, "far above (2 times as high as)"},
		{0.0546 * 3.77, 0.0546, 1e-5, "far above (3.8 times as high as)"},
		{0.3, 0, 0, "far above (higher by 0.3)"},
		{1e-4, 2e-5, 1e-4, "as low as"},
	} {
		if got := LossVerdict(c.a, c.b, c.gap); got != c.want {
			t.Errorf("LossVerdict(%v, %v, gap %v) = %q, want %q", c.a, c.b, c.gap, got, c.want)
		}
	}
}

// TestGainWords: the share of the non-private fit's improvement over the
// trivial answer that the private model keeps, at the stated thresholds
// (0.9, 0.5, 0); no scale when the non-private fit does not beat the
// trivial answer.
func TestGainWords(t *testing.T) {
	for _, c := range []struct {
		triv, priv, np float64
		want           string
	}{
		{2074, 900, 886, "close to the non-private fit: it keeps 99 %"},
		{2074, 1400, 886, "below the non-private fit: it keeps 57 %"},
		{2074, 1900, 886, "far below the non-private fit: it keeps 15 %"},
		{2074, 2500, 886, "no better than the trivial answer"},
		{2074, 2074, 886, "no better than the trivial answer"},
		{2074, 1000, 2074, ""},
		{2074, 1000, 2500, ""},
	} {
		got := GainWords(c.triv, c.priv, c.np)
		if c.want == "" && got != "" || !strings.Contains(got, c.want) {
			t.Errorf("GainWords(%v, %v, %v) = %q, want %q", c.triv, c.priv, c.np, got, c.want)
		}
	}
}

// TestExcessSentence: issue 53's failure in words — a private model whose
// loss is 3.8 times the comparison's is "far above" it, never "a little";
// a comparison that did not converge says so with its gap; the
// disclosure states the thresholds, the reach and the tolerance; a
// negative excess within the gap is explained as precision.
func TestExcessSentence(t *testing.T) {
	f := mechanism.Fit{Loss: 0.206, NonPrivateLoss: 0.0546, Excess: 0.206 - 0.0546, Gap: 1.3e-5, Reach: 2, Tolerance: 8.3e-5,
		Converged: true, Passes: 312, Iterations: 23}
	s := ExcessSentence(f)
	if !strings.Contains(s, "far above (3.8 times as high as) the 0.0546") || strings.Contains(s, "little") {
		t.Errorf("sentence %q", s)
	}
	how := HowSentence(f, true)
	for _, w := range []string{"no size limit", "in 23 iterations", "312 passes over the rows", "the passes after it stopped are made anyway", "at most 2 (root mean square, in the target's scaled units",
		"1.3e-05", "tolerance 8.3e-05", "less than 5 % higher “close to”", "less than 50 %", "less than 2 times"} {
		if !strings.Contains(how, w) {
			t.Errorf("disclosure %q lacks %q", how, w)
		}
	}
	f.Converged, f.Gap = false, 0.004
	if s := ExcessSentence(f); !strings.Contains(s, "did not converge") || !strings.Contains(s, "0.004") {
		t.Errorf("not converged: %q", s)
	}
	if h := HowSentence(f, false); !strings.Contains(h, "above the stopping tolerance") || strings.Contains(h, "made anyway") {
		t.Errorf("not converged: %q", h)
	}
	g := mechanism.Fit{Loss: 0.41567, NonPrivateLoss: 0.41568, Excess: -1e-5, Gap: 5e-5, Reach: 16, Tolerance: 7e-5, Converged: true}
	acc := 0.8
	g.Accuracy = &acc
	if s, h := ExcessSentence(g), HowSentence(g, true); !strings.Contains(s, "as low as") || !strings.Contains(h, "within 5e-05, the precision") ||
		!strings.Contains(h, "in logits") {
		t.Errorf("negative excess within the gap: %q / %q", s, h)
	}
}

// TestTrivialSentences: the regression sentence carries the three MAEs in
// the target's units and the share kept; the classifier's the three
// accuracies and the share kept.
func TestTrivialSentences(t *testing.T) {
	tr := mechanism.Trivial{Regression: true, Model: 1900, Trivial: 2074, ModelRMSE: 2600, TrivialRMSE: 3100, Median: 2400}
	np := mechanism.Trivial{Model: 886, ModelRMSE: 1400}
	s := TrivialRegression("price", tr, &np)
	for _, w := range []string{"the median, 2400", "off by 2074", "the private model by 1900", "off by 886", "far below the non-private fit: it keeps 15 %"} {
		if !strings.Contains(s, w) {
			t.Errorf("regression %q lacks %q", s, w)
		}
	}
	c := TrivialClassifier("yes", mechanism.Trivial{Model: 0.79, Trivial: 0.7654, Majority: -1}, 0.8092)
	for _, w := range []string{"not “yes”", "76.5 %", "79.0 %", "80.9 %", "below the non-private fit: it keeps 56 %"} {
		if !strings.Contains(c, w) {
			t.Errorf("classifier %q lacks %q", c, w)
		}
	}
	if c := TrivialClassifier("yes", mechanism.Trivial{Model: 0.79, Trivial: 0.7654, Majority: 1}, math.NaN()); strings.Contains(c, "non-private") {
		t.Errorf("no non-private accuracy: %q", c)
	}
}
