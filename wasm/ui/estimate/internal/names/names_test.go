package names

import (
	"strings"
	"testing"

	"github.com/dpsample/dpsample/core/loss"
)

// TestLossLabels (issue 53 item 7a): every loss the form offers has one
// label a person reads, the smooth surrogates' say what they smooth, and a
// task named in a sentence never shows the API's name.
func TestLossLabels(t *testing.T) {
	for _, k := range []loss.Kind{loss.L1, loss.L2Dist, loss.Logistic, loss.Hinge, loss.SmoothHinge, loss.LAD, loss.Quantile,
		loss.SmoothQuantile, loss.Huber} {
		l := LossLabel(k)
		if l == k.String() || l == "" {
			t.Errorf("%s: label %q", k, l)
		}
		w := TaskWords(k, "price")
		for _, api := range []string{"smooth-quantile", "smooth-hinge", "l2dist", "lad"} {
			if strings.Contains(w, api) {
				t.Errorf("%s: task words %q show the API's name %q", k, w, api)
			}
		}
		if k.Supervised() != strings.Contains(w, "predicting price") {
			t.Errorf("%s: task words %q", k, w)
		}
	}
	if !strings.Contains(LossLabel(loss.SmoothQuantile), "smooth median") || !strings.Contains(LossLabel(loss.SmoothHinge), "smooth hinge") {
		t.Errorf("smooth labels: %q, %q", LossLabel(loss.SmoothQuantile), LossLabel(loss.SmoothHinge))
	}
	if w := TaskWords(loss.SmoothQuantile, "price"); w != "regression: smooth median (fast), predicting price" {
		t.Errorf("prompt words %q", w)
	}
}
