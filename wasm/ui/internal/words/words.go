// Package words holds what the views write and read for people and that
// needs no DOM: numbers read strictly from a field, counts with their noun,
// durations. It builds natively, so that the views' decisions
// (estimate/internal/form) are tested without a browser; package kit keeps
// its names for the views (kit.ParseNumber is ParseNumber).
package words

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/dpsample/dpsample/core/checks"
)

// ParseNumber reads a form field strictly: the whole trimmed text must be a
// number (strconv.ParseFloat), so "1,5" is an error, never 1 (fmt.Sscanf
// stopped at the comma). NaN and ±Inf parse and are left to the field's
// core rule (checks.Epsilon, checks.Delta, …), as in the JS API.
func ParseNumber(field, s string) (float64, error) {
	t := strings.TrimSpace(s)
	v, err := strconv.ParseFloat(t, 64)
	if err != nil || t == "" {
		rule := "a number"
		if strings.Count(t, ",") == 1 {
			if _, e := strconv.ParseFloat(strings.Replace(t, ",", ".", 1), 64); e == nil {
				rule = "a number written with a decimal point (1.5, not 1,5)"
			}
		}
		return 0, &checks.Error{Field: field, Rule: rule, Got: strconv.Quote(s)}
	}
	return v, nil
}

// ParseInt reads a form field as an integer in [lo, hi] (ParseNumber's
// strictness; 2.5 and 1e9 out of range are errors naming the field).
func ParseInt(field, s string, lo, hi int) (int, error) {
	v, err := ParseNumber(field, s)
	if err != nil {
		return 0, err
	}
	if v != math.Trunc(v) || v < float64(lo) || v > float64(hi) {
		return 0, &checks.Error{Field: field, Rule: fmt.Sprintf("an integer in [%d, %d]", lo, hi), Got: checks.Fmt(v)}
	}
	return int(v), nil
}

// Count writes n with its noun in the right number: Count(1, "row") is
// "1 row", Count(3, "row") "3 rows"; nouns with an irregular plural pass it
// after a slash ("entry/entries").
func Count(n int, noun string) string {
	one, many := noun, noun+"s"
	if i := strings.IndexByte(noun, '/'); i >= 0 {
		one, many = noun[:i], noun[i+1:]
	}
	if n == 1 || n == -1 {
		return fmt.Sprintf("%d %s", n, one)
	}
	return fmt.Sprintf("%s %s", groupDigits(n), many)
}

// groupDigits writes n with thin-space thousands separators ("12 345").
func groupDigits(n int) string {
	s := strconv.Itoa(n)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteString("\u202f")
		}
		b.WriteRune(c)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}

// About writes a duration for people: "about 40 s", "about 7 min".
func About(s float64) string {
	switch {
	case s < 1:
		return "under a second"
	case s < 90:
		return fmt.Sprintf("about %.0f s", s)
	case s < 5400:
		return fmt.Sprintf("about %.0f min", s/60)
	}
	return fmt.Sprintf("about %.1f h", s/3600)
}

// G6 writes x with six significant digits (a declared bound as shown).
func G6(x float64) string { return strconv.FormatFloat(x, 'g', 6, 64) }

// G3 writes x with three significant digits.
func G3(x float64) string { return strconv.FormatFloat(x, 'g', 3, 64) }
