//go:build !js

// Package md formats the numbers and tables of the bench's Markdown
// (docs/BENCHMARKS.md) and of the studies' files (docs/study/*.md).
package md

import (
	"math"
	"strconv"
	"strings"
)

// Sig formats x with 3 significant digits, as an integer in [10³, 10⁶) and
// in e-notation beyond.
func Sig(x float64) string {
	switch {
	case math.IsNaN(x) || math.IsInf(x, 0):
		return "—"
	case x == 0:
		return "0"
	case math.Abs(x) >= 1e3 && math.Abs(x) < 1e6:
		return strconv.FormatFloat(x, 'f', 0, 64)
	case math.Abs(x) >= 1e6 || math.Abs(x) < 1e-3:
		return strconv.FormatFloat(x, 'e', 2, 64)
	}
	return strconv.FormatFloat(x, 'g', 3, 64)
}

// Table renders a Markdown table.
func Table(header []string, rows [][]string) string {
	var b strings.Builder
	b.WriteString("| " + strings.Join(header, " | ") + " |\n|")
	for range header {
		b.WriteString("---|")
	}
	b.WriteString("\n")
	for _, r := range rows {
		b.WriteString("| " + strings.Join(r, " | ") + " |\n")
	}
	return b.String()
}
