//go:build !js

package main

import (
	"encoding/json"
	"strings"
)

// Utility is section 3. Until core/baseline exports its utility benchmark
// (issue 9 part B) the section is marked pending.
type Utility struct {
	Status string          `json:"status"` // "pending" or "measured"
	Note   string          `json:"note,omitempty"`
	Result json.RawMessage `json:"result,omitempty"`
}

func utility(string) (Utility, error) {
	return Utility{Status: "pending", Note: "core/baseline's utility benchmark (issue 9 part B) has not landed yet"}, nil
}

func utilityMarkdown(b *strings.Builder, r *Report) {
	if r.Utility.Status != "measured" {
		b.WriteString("**Pending.** " + r.Utility.Note + ". This section will hold the exponential mechanism (Algorithm 1) against DP-GD (unprojected and projected), output perturbation and objective perturbation at equal (ε, δ) and equal accounting, on synthetic rank-k GLMs and the two real datasets, once `core/baseline` exports it.\n\n")
		return
	}
}

func utilityShortfalls(r *Report) []string {
	if r.Utility.Status != "measured" {
		return []string{"Utility vs baselines (issue 9 part B) is pending: its function had not landed in core/baseline at the time of this run."}
	}
	return nil
}

func utilityPlots(*Report) map[string]string { return nil }

func utilityHeadline(*Report) string { return "" }
