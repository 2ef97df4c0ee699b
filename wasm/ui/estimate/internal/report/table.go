package report

import (
	"fmt"
	"reflect"
	"strconv"
	"strings"

	"github.com/dpsample/dpsample/core/loss"
)

// The coefficient table a person publishes (issue 53 item 4): each
// coefficient's name (a text feature's label with its reference), the
// private estimate in the column's units, its interval when one was
// released, and the guarantee in one sentence — nothing that is not
// private (no non-private fit, no accuracy, no count of clamped rows).
// This file builds natively: its tests need no browser.

// CoefRow is one coefficient of the published table.
type CoefRow struct {
	Name      string   // the coefficient (a column, "column=label", or "intercept")
	Reference string   // for a text feature's label: the label it is compared with
	Unit      string   // what the estimate is in ("income per unit of age", "log-odds")
	Estimate  float64  // the private estimate, in the column's units
	Lo, Hi    *float64 // its interval, when one was released
}

// Published is the published table: its rows, the interval's level (0 when
// none was released) and the guarantee in one sentence.
type Published struct {
	Rows      []CoefRow
	Level     float64
	Guarantee string
}

// num writes a number for the table: full precision (it is the release).
func num(x float64) string { return strconv.FormatFloat(x, 'g', 10, 64) }

// intervals reports whether any row has an interval.
func (t Published) intervals() bool {
	for _, r := range t.Rows {
		if r.Lo != nil && r.Hi != nil {
			return true
		}
	}
	return false
}

// CSV is the table as comma-separated values (RFC 4180 quoting), the
// guarantee on a first line starting with "#" (read_csv(comment = "#"),
// read.csv(comment.char = "#")).
func (t Published) CSV() string {
	var b strings.Builder
	b.WriteString("# " + oneLine(t.Guarantee) + "\n")
	head := []string{"coefficient", "reference", "estimate", "unit"}
	iv := t.intervals()
	if iv {
		pct := strconv.FormatFloat(100*t.Level, 'g', -1, 64)
		head = append(head, "lo_"+pct, "hi_"+pct)
	}
	b.WriteString(strings.Join(head, ",") + "\n")
	for _, r := range t.Rows {
		cells := []string{csvCell(r.Name), csvCell(r.Reference), num(r.Estimate), csvCell(r.Unit)}
		if iv {
			lo, hi := "", ""
			if r.Lo != nil && r.Hi != nil {
				lo, hi = num(*r.Lo), num(*r.Hi)
			}
			cells = append(cells, lo, hi)
		}
		b.WriteString(strings.Join(cells, ",") + "\n")
	}
	return b.String()
}

// csvCell quotes a cell holding a comma, a quote or a line end.
func csvCell(s string) string {
	if strings.ContainsAny(s, ",\"\r\n") || strings.TrimSpace(s) != s {
		return `"` + strings.ReplaceAll(s, `"`, `""`) + `"`
	}
	return s
}

// oneLine folds a sentence onto one line.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// Markdown is the table as a Markdown table with the guarantee under it,
// ready to paste into a report.
func (t Published) Markdown() string {
	var b strings.Builder
	iv := t.intervals()
	head := "| coefficient | estimate | unit |"
	rule := "|---|---:|---|"
	if iv {
		head = fmt.Sprintf("| coefficient | estimate | %s %% interval | unit |", strconv.FormatFloat(100*t.Level, 'g', -1, 64))
		rule = "|---|---:|---:|---|"
	}
	b.WriteString(head + "\n" + rule + "\n")
	for _, r := range t.Rows {
		name := mdCell(r.Name)
		if r.Reference != "" {
			name += " (vs " + mdCell(r.Reference) + ")"
		}
		cells := []string{name, g4(r.Estimate)}
		if iv {
			in := "—"
			if r.Lo != nil && r.Hi != nil {
				in = "[" + g4(*r.Lo) + ", " + g4(*r.Hi) + "]"
			}
			cells = append(cells, in)
		}
		cells = append(cells, mdCell(r.Unit))
		b.WriteString("| " + strings.Join(cells, " | ") + " |\n")
	}
	b.WriteString("\n" + oneLine(t.Guarantee) + "\n")
	return b.String()
}

// g4 writes a number for reading (four significant digits).
func g4(x float64) string { return strconv.FormatFloat(x, 'g', 4, 64) }

// mdCell escapes the characters that break a Markdown table's cell.
func mdCell(s string) string {
	return strings.NewReplacer("|", `\|`, "\n", " ").Replace(s)
}

// Guarantee is the table's one sentence: what was released, by what, at
// which (ε, δ), with which neighbours, from how many rows.
func Guarantee(estimator string, eps, delta float64, n int, private bool) string {
	if !private {
		return fmt.Sprintf("These estimates were drawn by dpsample's %s with a fixed seed: reproducible, and NOT differentially private.", estimator)
	}
	return fmt.Sprintf("These estimates are (ε = %g, δ = %.2g)-differentially private — drawn by dpsample's %s from a table of n = %d rows, "+
		"any one row (complete or not) replaced by any other — and nothing else computed from the table is published with them.",
		eps, delta, estimator, n)
}

// CoefRows names the coefficients est (in the columns' units, as
// Input.ToUnits gives them) for the published table: a text feature's
// label ("col=label") with the reference it is compared with (refs), and
// what each is in — the target's units per unit of a column for a
// regression (target names it), log-odds for a logistic classifier, a
// score for a margin classifier, the column's own units for a centre.
func CoefRows(kind loss.Kind, names []string, est []float64, target string, refs map[string]string, onehot map[string]bool) []CoefRow {
	per := func(c string) string {
		switch {
		case !kind.Supervised():
			return c + " (its units)"
		case kind == loss.Logistic:
			if onehot[c] || c == "intercept" {
				return "log-odds"
			}
			return "log-odds per unit of " + c
		case kind.Classification():
			if onehot[c] || c == "intercept" {
				return "score"
			}
			return "score per unit of " + c
		}
		if onehot[c] || c == "intercept" {
			return target
		}
		return target + " per unit of " + c
	}
	rows := make([]CoefRow, 0, len(est))
	for j, x := range est {
		name := fmt.Sprintf("θ%d", j)
		if j < len(names) {
			name = names[j]
		}
		r := CoefRow{Name: name, Unit: per(name), Estimate: x}
		if col, _, ok := strings.Cut(name, "="); ok && onehot[name] {
			r.Reference = refs[col]
		}
		rows = append(rows, r)
	}
	return rows
}

// Pruned is the struct v (a mechanism.Plan) as the export writes it, each
// field by its JSON name, without the fields left at their zero value —
// those that do not apply to the estimator that ran (DP-GD has no η, μ or
// λ; an exact sampler no trial budget): issue 53 item 4, nothing in the
// export a person cannot act on. A nested struct is pruned alike.
func Pruned(v any) map[string]any {
	out := map[string]any{}
	rv := reflect.Indirect(reflect.ValueOf(v))
	if rv.Kind() != reflect.Struct {
		return out
	}
	rt := rv.Type()
	for i := 0; i < rt.NumField(); i++ {
		sf, fv := rt.Field(i), rv.Field(i)
		name, _, _ := strings.Cut(sf.Tag.Get("json"), ",")
		if !sf.IsExported() || name == "-" || fv.IsZero() {
			continue
		}
		if name == "" {
			name = sf.Name
		}
		if k := reflect.Indirect(fv).Kind(); k == reflect.Struct {
			if m := Pruned(fv.Interface()); len(m) > 0 {
				out[name] = m
			}
			continue
		}
		if (fv.Kind() == reflect.Slice || fv.Kind() == reflect.Map) && fv.Len() == 0 {
			continue
		}
		out[name] = fv.Interface()
	}
	return out
}
