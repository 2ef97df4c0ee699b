// Package dataset parses the small tables a user brings to dpsample (CSV
// text) into a numeric design matrix x and an optional target y.
//
// Rules, all stated in errors that name the row and column:
//   - The delimiter is a comma, a semicolon or a tab, detected from the first
//     line; semicolon files may write numbers with a decimal comma (1,5);
//     elsewhere "1,5" is not a number (dialect.go).
//   - Options.Header says whether the first record is a header; in auto mode
//     (the default) it is when its cells are all names, it is data when none
//     is text, and a first record mixing names with numbers or missing
//     markers is decided by the second record or refused (columns.go:
//     whether a row is dropped must not be guessed from that row alone).
//     Without a header the columns are named c1, c2, ….
//   - Missing cells are empty, "NA", "N/A", "NaN", "null", "none", "?" or "."
//     (any case; the penguins data marks one unknown sex with "."), except
//     where such a token is declared a level of its column (a label of its
//     category list, the positive label, Options.Levels: a survey's exercise
//     level "None"). By default a missing cell is an error listing the rows
//     (1-based data rows) that have one; with Drop = "missing" those rows
//     are dropped and counted (n then counts complete rows, which one row
//     can change); with Missing = "fill" every row is kept and each missing
//     cell takes a public value in its domain (missing.go).
//   - Feature columns must be numeric. The target is coded from a declared
//     schema (target.go): Positive names the +1 label (every other label is
//     −1), TargetType "numeric" keeps numbers; without a declaration a
//     numeric column is kept as numbers and only a non-numeric one falls back
//     to the former, data-dependent two-label inference (Coding says so).
package dataset

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/dpsample/dpsample/core/checks"
)

// Options select the target column and the missing-cell policy.
type Options struct {
	Target   string   `json:"target,omitempty"`   // header name (or cN) of the target column; empty: no target
	Drop     string   `json:"drop,omitempty"`     // "" (missing cells are an error) or "missing"
	Features []string `json:"features,omitempty"` // feature columns to keep; empty: every non-target column
	Header   string   `json:"header,omitempty"`   // HeaderAuto (or ""), HeaderPresent or HeaderAbsent (columns.go)

	// Declared target schema (target.go).
	TargetType string `json:"targetType,omitempty"` // "numeric", "label" or "" (see target.go)
	Positive   string `json:"positive,omitempty"`   // the +1 label; every other label is −1

	// Categories declares text feature columns and their labels (issue 42):
	// each such column is one-hot coded into one column per label, named
	// "name=label", in the order given; a cell whose label is not in the list
	// codes as all zeros (the block's norm is 1, or 0 for an unlisted label).
	// The lists are public: a label that never occurs is fine, an empty list
	// is an error naming categories.
	Categories map[string][]string `json:"categories,omitempty"`

	// Missing is the missing-cell policy beside Drop (issue 51 item 1):
	// "" (Drop decides: an error, or "missing" drops the rows) or
	// MissingFill, which keeps every row, so that n is the file's data-row
	// count (public under replace-one) whatever is missing (missing.go).
	Missing string `json:"missing,omitempty"`
	// Indicators are feature columns that get a 0/1 "was missing" column,
	// named "<name> missing", right after the feature's own column(s): 1
	// where the cell is missing. Only with Missing "fill" (missing.go).
	Indicators []string `json:"indicators,omitempty"`
	// Levels declares, per column, tokens that are values of that column and
	// not missing cells (issue 51 item 3): a missing-cell token ("None",
	// "NA", …) in Levels[col] reads as that label. The labels of
	// Categories[col] and a declared Positive (in the target) are levels
	// too, without being repeated here (missing.go).
	Levels map[string][]string `json:"levels,omitempty"`
	// Reference names, per text feature of Categories, its reference label
	// (issue 53 item 2): the label's column is left out, so the reference,
	// an unlisted label and a missing cell all code as zeros (treatment
	// coding, as R's and statsmodels' defaults).
	Reference map[string]string `json:"reference,omitempty"`
}

// Table is a parsed dataset.
type Table struct {
	X        [][]float64        `json:"x"`
	Y        []float64          `json:"y,omitempty"`
	Columns  []string           `json:"columns"` // feature column names, in x's order
	Target   string             `json:"target,omitempty"`
	Dropped  int                `json:"dropped"`           // rows dropped for missing cells
	Mapping  map[string]float64 `json:"mapping,omitempty"` // declared (or, CodingInferred, inferred) label → ±1
	Coding   string             `json:"coding,omitempty"`  // CodingNumeric, CodingPositive or CodingInferred
	Header   bool               `json:"header"`            // whether the first record was a header
	AllNames []string           `json:"allColumns"`        // every column in the file
	// Delimiter is the detected delimiter: "comma", "semicolon" (decimal
	// commas read) or "tab" (dialect.go).
	Delimiter string `json:"delimiter"`
	// Clamped counts the feature cells Scale clamped into their declared
	// range: NOT private (a statistic of the data, for the data owner).
	Clamped int `json:"clamped,omitempty"`
	// MissingCells and MissingTargets count, under Missing "fill", the
	// feature cells read as missing (a number's is NaN in X until Scale
	// fills it with its range's middle; a text feature's codes as zeros)
	// and the rows whose target is missing (NaN in Y): NOT private (counts
	// of the data, for the data owner only; never in a release or export).
	MissingCells   int `json:"missingCells,omitempty"`
	MissingTargets int `json:"missingTargets,omitempty"`
	// Indicators are the names of the "was missing" columns of
	// Options.Indicators, in X's order (public: the caller's choice).
	Indicators []string `json:"indicators,omitempty"`
	// Reference is Options.Reference as applied: text feature → the label
	// whose column was left out (public).
	Reference map[string]string `json:"reference,omitempty"`
}

// Limits keep a pasted file from exhausting the browser's memory.
const (
	MaxBytes = 64 << 20
	MaxCells = 5_000_000
)

func isMissing(s string) bool {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "", "na", "n/a", "nan", "null", "?", ".", "none":
		return true
	}
	return false
}

func parseNum(s string) (float64, bool) {
	v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, false
	}
	return v, true
}

// Parse reads CSV text into a Table.
func Parse(text string, opt Options) (*Table, error) {
	return ParseContext(context.Background(), text, opt, nil)
}

// ParseContext is Parse for a caller that shows progress or may cancel (the
// page parses a large table in its worker): a non-nil progress is called
// with done = the bytes of text read so far and total = len(text) every few
// thousand rows, and once with done = total when the table is complete;
// when ctx is done it stops with ctx's error.
func ParseContext(ctx context.Context, text string, opt Options, progress func(done, total int)) (*Table, error) {
	t, err := parse(text, opt, readTick(ctx, len(text), progress))
	if err == nil && progress != nil {
		progress(len(text), len(text))
	}
	return t, err
}

// readTick is readRecords' tick for ParseContext and ProfileTextContext:
// it reports the bytes read to progress (if non-nil) and stops when ctx is
// done.
func readTick(ctx context.Context, total int, progress func(done, total int)) func(read int) error {
	return func(read int) error {
		if progress != nil {
			progress(read, total)
		}
		return ctx.Err()
	}
}

func parse(text string, opt Options, tick func(read int) error) (*Table, error) {
	if len(text) > MaxBytes {
		return nil, checks.Errorf("text", "at most %d MB of CSV (got %.1f MB)", MaxBytes>>20, float64(len(text))/(1<<20))
	}
	if opt.Drop != "" && opt.Drop != "missing" {
		return nil, &checks.Error{Field: "drop", Rule: `"missing" or absent`, Got: strconv.Quote(opt.Drop)}
	}
	if err := opt.validTarget(); err != nil {
		return nil, err
	}
	if err := opt.validMissing(); err != nil {
		return nil, err
	}
	dl, recs, err := readRecords(text, opt.Header, tick)
	if err != nil {
		return nil, err
	}
	t := &Table{Delimiter: dl.Name()}
	width := len(recs[0])
	if t.AllNames, t.Header, err = dl.columnNames(recs[:min(2, len(recs))], opt.Header); err != nil {
		return nil, err
	}
	if t.Header {
		recs = recs[1:]
	}
	if len(recs) == 0 {
		return nil, checks.Errorf("text", "CSV with at least one data row (only a header)")
	}
	if len(recs)*width > MaxCells {
		return nil, checks.Errorf("text", "at most %d cells (got %d rows × %d columns)", MaxCells, len(recs), width)
	}
	for i, rec := range recs {
		if len(rec) != width {
			return nil, &checks.Error{Field: fmt.Sprintf("row %d", i+1),
				Rule: fmt.Sprintf("%d cells like the header (ragged rows)", width), Got: fmt.Sprintf("%d cells", len(rec))}
		}
	}
	col := func(name string) (int, error) {
		for j, c := range t.AllNames {
			if c == name {
				return j, nil
			}
		}
		return -1, &checks.Error{Field: "target", Rule: "one of the columns " + strings.Join(t.AllNames, ", "), Got: strconv.Quote(name)}
	}
	target := -1
	if opt.Target != "" {
		var err error
		if target, err = col(opt.Target); err != nil {
			return nil, err
		}
		t.Target = opt.Target
	}
	var feats []int
	if len(opt.Features) > 0 {
		for _, f := range opt.Features {
			j, err := col(f)
			if err != nil {
				return nil, &checks.Error{Field: "features", Rule: err.(*checks.Error).Rule, Got: strconv.Quote(f)}
			}
			if j == target {
				return nil, &checks.Error{Field: "features", Rule: "columns other than the target", Got: strconv.Quote(f)}
			}
			feats = append(feats, j)
		}
	} else {
		for j := range width {
			if j != target {
				feats = append(feats, j)
			}
		}
	}
	if len(feats) == 0 {
		return nil, checks.Errorf("features", "at least one feature column besides the target")
	}
	cats, err := opt.categoryCodes(t.AllNames, feats, target)
	if err != nil {
		return nil, err
	}
	lv, err := opt.levelSets(t.AllNames, cats, target)
	if err != nil {
		return nil, err
	}
	ind, err := opt.indicatorSet(t.AllNames, feats, target)
	if err != nil {
		return nil, err
	}
	for _, j := range feats {
		if c, ok := cats[j]; ok {
			for k, l := range c.labels {
				if k != c.ref {
					t.Columns = append(t.Columns, t.AllNames[j]+"="+l)
				}
			}
			if c.ref >= 0 {
				if t.Reference == nil {
					t.Reference = map[string]string{}
				}
				t.Reference[t.AllNames[j]] = c.labels[c.ref]
			}
		} else {
			t.Columns = append(t.Columns, t.AllNames[j])
		}
		if ind[j] {
			name := t.AllNames[j] + IndicatorSuffix
			if slices.Contains(t.Columns, name) || slices.ContainsFunc(feats, func(f int) bool { return t.AllNames[f] == name }) {
				return nil, &checks.Error{Field: "indicators", Rule: "features whose \"<name> missing\" column is not another feature's name", Got: strconv.Quote(t.AllNames[j])}
			}
			t.Columns = append(t.Columns, name)
			t.Indicators = append(t.Indicators, name)
		}
	}
	// Missing cells: a token that is not one of its column's levels.
	fill := opt.Missing == MissingFill
	var missingRows []int
	keep := make([]bool, len(recs))
	for i, rec := range recs {
		keep[i] = true
		if fill {
			continue
		}
		for _, j := range append(feats, target) {
			if j >= 0 && lv.missing(j, rec[j]) {
				keep[i] = false
			}
		}
		if !keep[i] {
			missingRows = append(missingRows, i+1)
		}
	}
	if len(missingRows) > 0 && opt.Drop != "missing" {
		return nil, &MissingCells{Rows: missingRows}
	}
	t.Dropped = len(missingRows)
	// Numeric features; under fill a missing number is NaN until Scale
	// fills it (missing.go) and a missing text cell codes as zeros.
	for i, rec := range recs {
		if !keep[i] {
			continue
		}
		row := make([]float64, 0, len(t.Columns))
		for _, j := range feats {
			miss := lv.missing(j, rec[j])
			switch c, ok := cats[j]; {
			case ok:
				row = c.append(row, rec[j]) // a missing token that is not a label is not in the list: zeros
			case miss:
				row = append(row, math.NaN())
			default:
				v, ok := dl.num(rec[j])
				if !ok {
					return nil, &checks.Error{Field: fmt.Sprintf("row %d, column %q", i+1, t.AllNames[j]), Rule: dl.numberRule(rec[j]), Got: strconv.Quote(rec[j])}
				}
				row = append(row, v)
			}
			if miss {
				t.MissingCells++
			}
			if ind[j] {
				row = append(row, b2f(miss))
			}
		}
		t.X = append(t.X, row)
	}
	if len(t.X) == 0 {
		if len(recs) == 1 {
			return nil, checks.Errorf("text", "at least one complete row (the only row has missing cells)")
		}
		return nil, checks.Errorf("text", "at least one complete row (all %d rows have missing cells)", len(recs))
	}
	if target >= 0 {
		if err := t.readTarget(dl, recs, keep, target, opt, func(cell string) bool { return lv.missing(target, cell) }); err != nil {
			return nil, err
		}
	}
	return t, nil
}

// MissingCells is Parse's error when rows have missing cells and Drop is
// not "missing": a caller with its own control for dropping (the page's
// checkbox) can name that control instead of the option.
type MissingCells struct {
	Rows []int // 1-based data rows with a missing cell
}

func (e *MissingCells) Error() string {
	return (&checks.Error{Field: "text", Rule: `free of missing cells, or parsed with drop: "missing" (missing cells in ` + e.Where() + ")"}).Error()
}

// Where lists the rows: "row 3" or "rows 2, 5, … and 4 more".
func (e *MissingCells) Where() string {
	if len(e.Rows) == 1 {
		return "row " + strconv.Itoa(e.Rows[0])
	}
	return "rows " + listRows(e.Rows)
}

func listRows(rows []int) string {
	var b strings.Builder
	for k, r := range rows {
		if k == 10 {
			fmt.Fprintf(&b, " and %d more", len(rows)-10)
			break
		}
		if k > 0 {
			b.WriteString(", ")
		}
		b.WriteString(strconv.Itoa(r))
	}
	return b.String()
}

// readRecords checks the header declaration, detects the dialect and splits
// text into records; empty text is an error. Parse and ProfileText share it.
func readRecords(text, header string, tick func(read int) error) (dialect, [][]string, error) {
	if err := checkHeader(header); err != nil {
		return dialect{}, nil, err
	}
	dl := detect(text)
	recs, err := dl.records(text, tick)
	if err != nil {
		return dialect{}, nil, err
	}
	if len(recs) == 0 {
		return dialect{}, nil, checks.Errorf("text", "CSV with at least one data row (it is empty)")
	}
	return dl, recs, nil
}
