//go:build !js

package main

import (
	"context"
	"flag"
	"testing"
)

var latentRuns = flag.Int("latent.runs", 0, "runs per path of the full latent-vs-direct check (TestLatentDirectFull; 0 skips it)")
var latentConfigs = flag.String("latent.configs", "", "comma-separated configurations for TestLatentDirectFull (default all)")

// latentStudy is the study's synthetic configuration (FullUtilityOptions).
func latentStudy() UtilityOptions {
	o := FullUtilityOptions()
	o.Real = nil
	return o
}

func logLatent(t *testing.T, rep LatentReport) {
	t.Logf("%-9s %-9s k  latent(method, s)            direct(method, s)             mean L ± se        mean D ± se        med L    med D    KS     p_KS    z_MW   p_MW   s/run L  s/run D", "config", "loss")
	for _, c := range rep.Cells {
		t.Logf("%-9s %-9s %d  %-18s %.4f   %-18s %.4f   %.4f ± %.4f   %.4f ± %.4f   %.4f   %.4f   %.3f  %.3g  %+.2f  %.3g  %.3f    %.3f",
			c.Config, c.Loss, c.Rank, c.LatentPlan, c.LatentGDP, c.DirectPlan, c.DirectGDP, c.LatentMean, c.LatentSE, c.DirectMean, c.DirectSE,
			c.LatentMed, c.DirectMed, c.KS, c.KSP, c.MWZ, c.MWP, c.LatentSecs, c.DirectSecs)
	}
	for _, s := range rep.Same {
		t.Logf("%-9s %-9s %d  same plans as %q", s.Config, s.Loss, s.Rank, s.SameAs)
	}
}

func TestLatentDirectFull(t *testing.T) {
	if *latentRuns == 0 {
		t.Skip("set -latent.runs")
	}
	o := LatentOptions{Utility: latentStudy(), D: 10, Epsilon: 1, Runs: *latentRuns, Seed: 2026}
	if *latentConfigs != "" {
		o.Configs = splitComma(*latentConfigs)
	}
	rep, err := LatentDirect(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	logLatent(t, rep)
}

func splitComma(s string) []string {
	var out []string
	start := 0
	for i := 0; i <= len(s); i++ {
		if i == len(s) || s[i] == ',' {
			out = append(out, s[start:i])
			start = i + 1
		}
	}
	return out
}
