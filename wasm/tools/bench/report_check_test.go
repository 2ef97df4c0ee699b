//go:build !js

package main

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/dpsample/dpsample/wasm/tools/internal/md"
	"github.com/dpsample/dpsample/wasm/tools/internal/utility"
)

// targetHeader matches a column header that states a target: "target",
// "goal" or a bound such as "≤ 1.3".
var targetHeader = regexp.MustCompile(`(?i)target|goal|[≤<]\s*[0-9]`)

// targetOnInvariant returns an error if a Markdown table in md has a target
// column and a row for a method whose excess-risk law is the same at every d
// by construction (dimInvariant): for those, a target on a d-comparison
// tests nothing (issue 16: "no target ≤ 1.3 column on quantities that are 1
// by construction").
func targetOnInvariant(md string) error {
	lines := strings.Split(md, "\n")
	for i := 0; i+1 < len(lines); i++ {
		if !strings.HasPrefix(lines[i], "|") || !strings.HasPrefix(lines[i+1], "|---") {
			continue
		}
		head := cells(lines[i])
		target := slices.ContainsFunc(head, targetHeader.MatchString)
		for j := i + 2; j < len(lines) && strings.HasPrefix(lines[j], "|"); j++ {
			if !target {
				continue
			}
			for _, c := range cells(lines[j]) {
				if slices.Contains(utility.AllMethods(), c) && utility.DimInvariant(c) {
					return fmt.Errorf("table %q has a target column and a row for %s, whose risk law is the same at every d: %s", lines[i], c, lines[j])
				}
			}
		}
	}
	return nil
}

func cells(line string) []string {
	parts := strings.Split(strings.Trim(line, "|"), "|")
	for i := range parts {
		parts[i] = strings.TrimSpace(parts[i])
	}
	return parts
}

// TestTargetOnInvariantCatches: the checker fails the old report's ratio
// table (a "≤ 1.3" column on Algorithm 1's ratio, 1 by construction) and a
// "target" column on unprojected DP-GD, and passes a target column whose
// rows are projected DP-GD or plain numbers.
func TestTargetOnInvariantCatches(t *testing.T) {
	bad := []string{
		md.Table([]string{"loss", "rank", "ε", "method", "ratio ± SE", "≤ 1.3"}, [][]string{{"logistic", "1", "1", utility.MethodExponential, "0.9 ± 0.2", "yes"}}),
		md.Table([]string{"method", "ratio", "target"}, [][]string{{utility.MethodDPGD, "1.1", "1"}}),
		md.Table([]string{"method", "ratio", "Goal"}, [][]string{{utility.MethodExpLatent, "1.1", "1"}}),
	}
	for _, md := range bad {
		if targetOnInvariant("text\n\n"+md+"\nmore") == nil {
			t.Errorf("not caught:\n%s", md)
		}
	}
	good := []string{
		md.Table([]string{"method", "ratio", "target"}, [][]string{{utility.MethodDPGDProjected, "3", "—"}}),
		md.Table([]string{"ε", "Algorithm 1", "target", "verdict"}, [][]string{{"1", "0.8", "0.76", "met"}}),
		md.Table([]string{"method", "ratio [95 % CI]"}, [][]string{{utility.MethodExponential, "1.0 [0.8, 1.2]"}}),
	}
	for _, md := range good {
		if err := targetOnInvariant(md); err != nil {
			t.Errorf("false alarm: %v", err)
		}
	}
}
