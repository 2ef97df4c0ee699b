package dataset

import (
	"encoding/csv"
	"io"
	"strings"

	"github.com/dpsample/dpsample/core/checks"
)

// Delimiters and decimal commas (issue 15). Parse and Columns read the same
// dialect, detected from the first non-blank line of the text alone:
//
//   - the delimiter is a tab if that line holds a tab outside double quotes,
//     else a semicolon if it holds one, else a comma (a one-column file has
//     none and reads the same under any rule);
//   - in a semicolon-separated file (the spreadsheet export of the locales
//     whose decimal separator is a comma) a number may use a decimal comma:
//     "1,5" reads as 1.5. A cell is read that way only when it has exactly
//     one comma and no point, so "1.000,5" is not a number and is reported;
//   - with a comma or tab delimiter a comma inside a number is never read:
//     "1,5" in a tab-separated file is not a number, reported with its row
//     and column (and a hint), rather than read as 1 or as 15.
//
// The detection looks at the header (or first record), which is public
// schema, not at the data rows.
type dialect struct {
	comma rune // ',', ';' or '\t'
}

// detect returns the dialect of text (see the rules above).
func detect(text string) dialect {
	for len(text) > 0 {
		line := text
		if i := strings.IndexByte(text, '\n'); i >= 0 {
			line, text = text[:i], text[i+1:]
		} else {
			text = ""
		}
		if strings.TrimSpace(line) == "" {
			continue
		}
		var tabs, semis int
		quoted := false
		for _, c := range line {
			switch {
			case c == '"':
				quoted = !quoted
			case quoted:
			case c == '\t':
				tabs++
			case c == ';':
				semis++
			}
		}
		switch {
		case tabs > 0:
			return dialect{'\t'}
		case semis > 0:
			return dialect{';'}
		}
		return dialect{','}
	}
	return dialect{','}
}

// Name is the delimiter as Table.Delimiter spells it.
func (d dialect) Name() string {
	switch d.comma {
	case '\t':
		return "tab"
	case ';':
		return "semicolon"
	}
	return "comma"
}

// tickRecords is how often records reports progress (about 0.2 MB of a
// table of short rows).
const tickRecords = 1 << 13

// reader is the CSV reader of Parse and Columns.
func (d dialect) reader(text string) *csv.Reader {
	r := csv.NewReader(strings.NewReader(text))
	r.Comma = d.comma
	r.FieldsPerRecord = -1 // ragged rows are reported by Parse, with their line
	// Leading spaces are trimmed, but not in a tab-separated file: there
	// encoding/csv would trim the delimiter too, and a row whose first cell
	// is empty ("\t4\tno") would lose it and read as ragged.
	r.TrimLeadingSpace = d.comma != '\t'
	return r
}

// records reads every record of text, skipping blank lines (Parse and
// ProfileText; Columns stops at the first). A non-nil tick is called with
// the bytes read so far every tickRecords records; its error stops the read.
func (d dialect) records(text string, tick func(read int) error) ([][]string, error) {
	r := d.reader(text)
	var recs [][]string
	for k := 1; ; k++ {
		if tick != nil && k%tickRecords == 0 {
			if err := tick(int(r.InputOffset())); err != nil {
				return nil, err
			}
		}
		rec, err := r.Read()
		if err == io.EOF {
			return recs, nil
		}
		if err != nil {
			return nil, checks.Errorf("text", "valid CSV (%v)", err)
		}
		if len(rec) == 1 && strings.TrimSpace(rec[0]) == "" {
			continue // blank line
		}
		recs = append(recs, rec)
	}
}

// num reads a cell as a finite number in this dialect.
func (d dialect) num(s string) (float64, bool) {
	s = strings.TrimSpace(s)
	if d.comma == ';' && strings.Count(s, ",") == 1 && !strings.Contains(s, ".") {
		s = strings.Replace(s, ",", ".", 1)
	}
	return parseNum(s)
}

// numberRule is the rule of an error for a cell that is not a number,
// with a hint when the cell would be a number with a decimal comma.
func (d dialect) numberRule(cell string) string {
	if d.comma != ';' && strings.Count(cell, ",") == 1 {
		if _, ok := parseNum(strings.Replace(cell, ",", ".", 1)); ok {
			return "a finite number (a decimal comma is read only in a semicolon-separated file; write 1.5, not 1,5)"
		}
	}
	return "a finite number"
}
