package dataset

import (
	"fmt"
	"io"
	"strings"

	"github.com/dpsample/dpsample/core/checks"
)

// Columns names the columns of CSV text by Parse's header rule (the first
// record is a header when one of its cells is neither a number nor a missing
// marker; otherwise the columns are c1, c2, …), in Parse's dialect
// (dialect.go: comma, semicolon or tab), without reading the rest of
// the text: a form can offer the columns before the full Parse, which
// reports everything else. For "1,NA,3" it gives c1, c2, c3, as Parse does.
func Columns(text string) ([]string, error) {
	if len(text) > MaxBytes {
		return nil, checks.Errorf("text", "at most %d MB of CSV (got %.1f MB)", MaxBytes>>20, float64(len(text))/(1<<20))
	}
	dl := detect(text)
	r := dl.reader(text)
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
		names, _ := dl.columnNames(rec)
		return names, nil
	}
}

// columnNames applies the header rule to the first record: its trimmed cells
// when it is a header, else c1, c2, ….
func (d dialect) columnNames(first []string) (names []string, header bool) {
	for _, c := range first {
		if _, ok := d.num(c); !ok && !isMissing(c) {
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
