//go:build !js

package main

import (
	"context"
	"strings"
	"testing"

	"github.com/dpsample/dpsample/core/mechanism"
)

// TestAuditMarkdown: the audit section has one table row per audit, and
// marks exactly the refuted claims (the exact sampler, calibrated and with
// the paper's constants at ε = 2, where 4000 draws catch the paper).
func TestAuditMarkdown(t *testing.T) {
	var a AuditReport
	for _, cons := range []mechanism.AuditConstants{mechanism.AuditCalibrated, mechanism.AuditPaper} {
		r, err := mechanism.Audit(context.Background(), mechanism.AuditConfig{Sampler: mechanism.SamplerExact, Constants: cons, N: 5, Epsilon: 2, Delta: 1e-6, Draws: 4000, Seed: 3})
		if err != nil {
			t.Fatal(err)
		}
		a.Rows = append(a.Rows, r)
	}
	a.Draws, a.Alpha = 4000, 1e-3
	md := auditMarkdown(a)
	if got := strings.Count(md, "\n| exact "); got != 2 {
		t.Errorf("%d table rows, want 2:\n%s", got, md)
	}
	if a.Rows[0].Caught || !a.Rows[1].Caught {
		t.Fatalf("calibrated caught %v, paper caught %v", a.Rows[0].Caught, a.Rows[1].Caught)
	}
	if strings.Count(md, "**refuted**") != 1 || !strings.Contains(md, "| paper |") {
		t.Errorf("want exactly the paper row refuted:\n%s", md)
	}
	if auditMarkdown(AuditReport{}) != "" {
		t.Error("an empty audit should print nothing")
	}
}
