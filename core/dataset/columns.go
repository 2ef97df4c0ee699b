package dataset

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/dpsample/dpsample/core/checks"
)

// Header modes of Options.Header (issue 21). Whether the first record is a
// header decides whether it is dropped from the data, so in a headerless
// file the decision must not rest on that one data row:
//
//   - HeaderPresent, HeaderAbsent: the caller says; nothing is guessed.
//   - HeaderAuto (or ""): the first record is a header when none of its cells
//     is a number or a missing marker (names only), and data when none is
//     text (numbers and missing markers only). A first record of names and
//     missing markers ("NA,,yes": a data row whose numbers are missing, or a
//     header with an empty name) is a header only when one of its names sits
//     over a number of the second record (R's `"",x,label` over `1,2,yes`);
//     when its names sit where the second record has text too, the two
//     readings cannot be told apart and Parse refuses, naming header (on
//     main "NA,,yes" was taken for a header: issue 30). A first record
//     that mixes numbers and text ("id,1,2", or a data row with one
//     non-numeric cell) is compared with the second: when its text cells sit
//     in the same columns as the second record's (a headerless file with a
//     label column), it is data like the second; otherwise the guess differs
//     between the first two records and Parse refuses with an error naming
//     header that asks the caller to say — on main such a first data row
//     was silently taken for a header and lost.
const (
	HeaderAuto    = "auto"
	HeaderPresent = "present"
	HeaderAbsent  = "absent"
)

// Columns names the columns of CSV text by Parse's header rule in auto mode
// (ColumnsWith(text, HeaderAuto)).
func Columns(text string) ([]string, error) { return ColumnsWith(text, HeaderAuto) }

// ColumnsWith names the columns of CSV text by Parse's header rule for the
// header mode (HeaderAuto, HeaderPresent or HeaderAbsent: the header's
// trimmed cells, or c1, c2, …), in Parse's dialect (dialect.go: comma,
// semicolon or tab), reading only the first two records: a form can offer
// the columns before the full Parse, which reports everything else. For
// "1,NA,3" it gives c1, c2, c3, as Parse does.
func ColumnsWith(text, header string) ([]string, error) {
	if len(text) > MaxBytes {
		return nil, checks.Errorf("text", "at most %d MB of CSV (got %.1f MB)", MaxBytes>>20, float64(len(text))/(1<<20))
	}
	if err := checkHeader(header); err != nil {
		return nil, err
	}
	dl := detect(text)
	r := dl.reader(text)
	var recs [][]string
	for len(recs) < 2 {
		rec, err := r.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, checks.Errorf("text", "valid CSV (%v)", err)
		}
		if len(rec) == 1 && strings.TrimSpace(rec[0]) == "" {
			continue // blank line
		}
		recs = append(recs, rec)
	}
	if len(recs) == 0 {
		return nil, checks.Errorf("text", "CSV with at least one data row (it is empty)")
	}
	names, _, err := dl.columnNames(recs, header)
	return names, err
}

// checkHeader validates a header mode.
func checkHeader(h string) error {
	switch h {
	case "", HeaderAuto, HeaderPresent, HeaderAbsent:
		return nil
	}
	return &checks.Error{Field: "header", Rule: `"auto", "present" or "absent" (true or false in the JS API)`, Got: strconv.Quote(h)}
}

// columnNames applies the header rule (see HeaderAuto) to the first records
// (the first two, or one): the first record's trimmed cells when it is a
// header, else c1, c2, ….
func (d dialect) columnNames(recs [][]string, mode string) (names []string, header bool, err error) {
	first := recs[0]
	switch mode {
	case HeaderPresent:
		header = true
	case HeaderAbsent:
	default:
		text, nums, missing := d.kinds(first)
		switch {
		case nums == 0 && text > 0 && (missing == 0 || len(recs) == 2 && !d.sameTextColumns(first, recs[1])):
			header = true
		case nums == 0 && text > 0:
			return nil, false, &checks.Error{Field: "header",
				Rule: fmt.Sprintf("declared for this file (a header row, or none): its first row %s has missing cells and text in the columns where the row after it has text, so it may be a header or a data row", quoteRow(first))}
		case text == 0:
		case len(recs) < 2 || !d.sameTextColumns(first, recs[1]):
			return nil, false, &checks.Error{Field: "header",
				Rule: fmt.Sprintf("declared for this file (a header row, or none): its first row %s mixes numbers and text unlike the row after it, so it may be a header or a data row", quoteRow(first))}
		}
	}
	for j, c := range first {
		if header {
			names = append(names, strings.TrimSpace(c))
		} else {
			names = append(names, fmt.Sprintf("c%d", j+1))
		}
	}
	return names, header, nil
}

// kinds counts the text cells (neither a number nor a missing marker), the
// number cells and the missing markers of a record.
func (d dialect) kinds(rec []string) (text, nums, missing int) {
	for _, c := range rec {
		switch _, ok := d.num(c); {
		case ok:
			nums++
		case isMissing(c):
			missing++
		default:
			text++
		}
	}
	return text, nums, missing
}

// sameTextColumns reports whether a and b have their text cells in the same
// columns (cells missing in either record are not compared).
func (d dialect) sameTextColumns(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for j := range a {
		if isMissing(a[j]) || isMissing(b[j]) {
			continue
		}
		_, na := d.num(a[j])
		_, nb := d.num(b[j])
		if na != nb {
			return false
		}
	}
	return true
}

// quoteRow shows a record as its CSV line, quoted and cut at 60 characters.
func quoteRow(rec []string) string {
	s := strings.Join(rec, ",")
	if r := []rune(s); len(r) > 60 {
		s = string(r[:57]) + "…"
	}
	return strconv.Quote(s)
}
