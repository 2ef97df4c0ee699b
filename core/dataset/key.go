package dataset

import (
	"crypto/sha256"
	"encoding/hex"
	"slices"
	"strconv"
	"strings"
)

// The key of a table's privacy budget (docs/PRIVACY.md §8, issue 30). The
// page charges every run on a table to one ledger, found again by a key
// computed from the table. Keyed by the text's bytes, the same rows saved
// again in another order, with CRLF line ends or a trailing newline started
// a fresh budget; TableKey is computed from the parsed table in a canonical
// form instead, so that what does not change the data does not change the
// key:
//
//   - the records are read in Parse's dialect (comma, semicolon with decimal
//     commas, or tab: dialect.go), so delimiter, quoting, line ends (LF,
//     CRLF, CR inside quotes kept), blank lines, a leading byte-order mark
//     and spaces around a cell do not count;
//   - a cell that is a number is written by its value in Go's shortest form
//     (1, 1.0, 1e0, +1, 1,0 in a semicolon file: all "1"; −0 as 0); a
//     missing marker (empty, NA, ?, …: isMissing) is written empty;
//     other text is kept as it is (case and inner spaces count);
//   - a record whose cells are all missing (",,," or a trailing row of
//     empty cells) is left out, and so is a column missing in every record,
//     its header cell included (a trailing delimiter on every line): Parse
//     drops such a row (Drop "missing") and such a column holds no feature,
//     so neither starts a fresh budget (issue 41). A table without them
//     keeps the canonical form, and the key, it had before;
//   - the records, the header among them (so a column's name counts, and
//     the header mode does not), are sorted: row order does not count,
//     duplicate rows do.
//
// A changed cell, an added or removed row or column (other than one of
// missing cells only), reordered or renamed columns, and a number whose
// value changes (a rounded export) give another key, and so a fresh budget. The key is a function of all the data: it is
// never sent or exported (the page keeps it in this browser's storage only).

// CanonicalForm is the canonical text of a table (see above): its records
// that are not all missing, each cell canonical and Go-quoted
// (strconv.Quote) and the columns missing in every record left out,
// comma-separated, one line each, sorted bytewise and joined by "\n".
// Errors are Parse's for text that is not CSV (field "text").
func CanonicalForm(text string) (string, error) {
	text = strings.TrimPrefix(text, "\ufeff")
	dl := detect(text)
	recs, err := dl.records(text, nil)
	if err != nil {
		return "", err
	}
	cells := make([][]string, 0, len(recs))
	for _, rec := range recs {
		can := make([]string, len(rec))
		empty := true
		for j, c := range rec {
			can[j] = canonicalCell(dl, c)
			empty = empty && can[j] == ""
		}
		if !empty { // a record of missing cells only is dropped
			cells = append(cells, can)
		}
	}
	// keep[j]: column j has a cell that is not missing in some record
	// (header included); a column missing in every record is dropped.
	var keep []bool
	for _, can := range cells {
		for len(keep) < len(can) {
			keep = append(keep, false)
		}
		for j, c := range can {
			keep[j] = keep[j] || c != ""
		}
	}
	lines := make([]string, len(cells))
	var b strings.Builder
	for i, can := range cells {
		b.Reset()
		first := true
		for j, c := range can {
			if !keep[j] {
				continue
			}
			if !first {
				b.WriteByte(',')
			}
			first = false
			b.WriteString(strconv.Quote(c))
		}
		lines[i] = b.String()
	}
	slices.Sort(lines)
	return strings.Join(lines, "\n"), nil
}

// canonicalCell writes a number by its value, a missing marker empty, and
// other text trimmed.
func canonicalCell(dl dialect, c string) string {
	if v, ok := dl.num(c); ok {
		if v == 0 {
			return "0"
		}
		return strconv.FormatFloat(v, 'g', -1, 64)
	}
	if isMissing(c) {
		return ""
	}
	return strings.TrimSpace(c)
}

// TableKey is the hex SHA-256 of CanonicalForm(text): the key of the
// table's privacy budget.
func TableKey(text string) (string, error) {
	c, err := CanonicalForm(text)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256([]byte(c))
	return hex.EncodeToString(sum[:]), nil
}
