package dataset

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/dpsample/dpsample/core/checks"
)

// Declared ranges as one line of text (issue 23), so that a user can keep
// them with a file, paste them back, and find them in an export:
//
//	sepal_length: 4..8, petal_length: 1..7, "width, cm": 0..3
//
// Items are separated by commas, semicolons or line breaks; each is a column
// name, a colon and lo..hi (numbers with a decimal point). A name holding a
// comma, semicolon, colon or quote, or starting or ending with a space, is
// written in double quotes, a quote inside doubled ("").

// FormatRanges writes the ranges of cols (those that have one) as one line.
func FormatRanges(cols []string, ranges map[string]Range) string {
	var parts []string
	for _, c := range cols {
		r, ok := ranges[c]
		if !ok {
			continue
		}
		parts = append(parts, quoteName(c)+": "+num(r.Lo)+".."+num(r.Hi))
	}
	return strings.Join(parts, ", ")
}

func num(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }

func quoteName(s string) string {
	if s == "" || strings.ContainsAny(s, ",;:\"\n") || strings.TrimSpace(s) != s {
		return `"` + strings.ReplaceAll(s, `"`, `""`) + `"`
	}
	return s
}

// ParseRanges reads a line written by FormatRanges (or typed in its form)
// and returns the names in order and their ranges, each checked by
// Range.Valid. Errors name the item ("ranges line, item 2").
func ParseRanges(line string) ([]string, map[string]Range, error) {
	var names []string
	out := map[string]Range{}
	rs := []rune(line)
	i, item := 0, 0
	skip := func() {
		for i < len(rs) && (rs[i] == ' ' || rs[i] == '\t' || rs[i] == ',' || rs[i] == ';' || rs[i] == '\n' || rs[i] == '\r') {
			i++
		}
	}
	for skip(); i < len(rs); skip() {
		item++
		field := fmt.Sprintf("ranges line, item %d", item)
		var name string
		if rs[i] == '"' {
			var b strings.Builder
			i++
			for {
				if i >= len(rs) {
					return nil, nil, checks.Errorf(field, `a quoted name closed by a quote (")`)
				}
				if rs[i] == '"' {
					if i+1 < len(rs) && rs[i+1] == '"' {
						b.WriteRune('"')
						i += 2
						continue
					}
					i++
					break
				}
				b.WriteRune(rs[i])
				i++
			}
			name = b.String()
			for i < len(rs) && rs[i] == ' ' {
				i++
			}
			if i >= len(rs) || rs[i] != ':' {
				return nil, nil, checks.Errorf(field, "name: lo..hi (a colon after the quoted name %q)", name)
			}
		} else {
			j := i
			for i < len(rs) && rs[i] != ':' && rs[i] != ',' && rs[i] != ';' && rs[i] != '\n' {
				i++
			}
			name = strings.TrimSpace(string(rs[j:i]))
			if i >= len(rs) || rs[i] != ':' {
				return nil, nil, &checks.Error{Field: field, Rule: "name: lo..hi", Got: strconv.Quote(name)}
			}
		}
		i++ // the colon
		j := i
		for i < len(rs) && rs[i] != ',' && rs[i] != ';' && rs[i] != '\n' {
			i++
		}
		spec := strings.TrimSpace(string(rs[j:i]))
		lo, hi, ok := strings.Cut(spec, "..")
		if !ok {
			return nil, nil, &checks.Error{Field: field, Rule: fmt.Sprintf("%s: lo..hi (two numbers joined by two dots)", quoteName(name)), Got: strconv.Quote(spec)}
		}
		var r Range
		var err error
		if r.Lo, err = strconv.ParseFloat(strings.TrimSpace(lo), 64); err != nil {
			return nil, nil, &checks.Error{Field: field + " (" + name + ").lo", Rule: "a number written with a decimal point", Got: strconv.Quote(strings.TrimSpace(lo))}
		}
		if r.Hi, err = strconv.ParseFloat(strings.TrimSpace(hi), 64); err != nil {
			return nil, nil, &checks.Error{Field: field + " (" + name + ").hi", Rule: "a number written with a decimal point", Got: strconv.Quote(strings.TrimSpace(hi))}
		}
		if err := r.Valid("ranges." + name); err != nil {
			return nil, nil, err
		}
		if _, dup := out[name]; dup {
			return nil, nil, checks.Errorf(field, "a column named once (%q is declared twice)", name)
		}
		names = append(names, name)
		out[name] = r
	}
	return names, out, nil
}
