package dataset

import (
	"encoding/csv"
	"fmt"
	"io"
	"strings"

	"github.com/dpsample/dpsample/core/checks"
)

// Columns names the columns of CSV text by Parse's header rule (the first
// record is a header when one of its cells is neither a number nor a missing
// marker; otherwise the columns are c1, c2, …) without reading the rest of
// the text: a form can offer the columns before the full Parse, which
// reports everything else. For "1,NA,3" it gives c1, c2, c3, as Parse does.
func Columns(text string) ([]string, error) {
	if len(text) > MaxBytes {
		return nil, checks.Errorf("text", "at most %d MB of CSV (got %.1f MB)", MaxBytes>>20, float64(len(text))/(1<<20))
	}
	r := newReader(text)
	for {
		rec, err := r.Read()
		if err == io.EOF {
			return nil, checks.Errorf("text", "CSV with at least one data row (it is empty)")
		}
		if err != nil {
			return nil, checks.Errorf("text", "valid CSV (%v)", err)
		}
		if len(rec) == 1 && strings.TrimSpace(rec[0]) == "" {
			continue // blank line
		}
		names, _ := columnNames(rec)
		return names, nil
	}
}

// newReader is the CSV reader of Parse and Columns.
func newReader(text string) *csv.Reader {
	r := csv.NewReader(strings.NewReader(text))
	r.FieldsPerRecord = -1 // ragged rows are reported by Parse, with their line
	r.TrimLeadingSpace = true
	return r
}

// columnNames applies the header rule to the first record: its trimmed cells
// when it is a header, else c1, c2, ….
func columnNames(first []string) (names []string, header bool) {
	for _, c := range first {
		if _, ok := parseNum(c); !ok && !isMissing(c) {
			header = true
			break
		}
	}
	for j, c := range first {
		if header {
			names = append(names, strings.TrimSpace(c))
		} else {
			names = append(names, fmt.Sprintf("c%d", j+1))
		}
	}
	return names, header
}
