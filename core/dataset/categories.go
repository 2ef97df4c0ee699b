package dataset

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/dpsample/dpsample/core/checks"
)

// categoryCode is one declared text feature's one-hot code (Options.Categories).
type categoryCode struct {
	labels []string
	index  map[string]int
}

// append appends the one-hot code of cell: a 1 in the column of its label
// (compared after trimming spaces), all zeros for a label not in the list.
func (c categoryCode) append(row []float64, cell string) []float64 {
	k, ok := c.index[strings.TrimSpace(cell)]
	for i := range c.labels {
		v := 0.0
		if ok && i == k {
			v = 1
		}
		row = append(row, v)
	}
	return row
}

// categoryCodes checks the declared categories against the columns: each
// names a feature column (never the target), with a non-empty list of
// distinct, non-empty labels. Errors name categories.<column>.
func (o Options) categoryCodes(names []string, feats []int, target int) (map[int]categoryCode, error) {
	out := map[int]categoryCode{}
	for name, labels := range o.Categories {
		field := "categories." + name
		j := -1
		for k, c := range names {
			if c == name {
				j = k
			}
		}
		switch {
		case j < 0:
			return nil, &checks.Error{Field: field, Rule: "a column of the file (" + strings.Join(names, ", ") + ")", Got: strconv.Quote(name)}
		case j == target:
			return nil, &checks.Error{Field: field, Rule: "a feature column: the target is never one-hot coded", Got: "the target " + strconv.Quote(name)}
		}
		isFeat := false
		for _, f := range feats {
			isFeat = isFeat || f == j
		}
		if !isFeat {
			return nil, &checks.Error{Field: field, Rule: "a feature column (add it to features)", Got: strconv.Quote(name)}
		}
		if len(labels) == 0 {
			return nil, checks.Errorf(field, "a non-empty list of labels (an empty list codes nothing)")
		}
		c := categoryCode{index: map[string]int{}}
		for _, l := range labels {
			l = strings.TrimSpace(l)
			if l == "" || isMissing(l) {
				return nil, &checks.Error{Field: field, Rule: "labels that are not empty nor a missing-cell marker", Got: strconv.Quote(l)}
			}
			if _, dup := c.index[l]; dup {
				return nil, &checks.Error{Field: field, Rule: "distinct labels", Got: fmt.Sprintf("%q twice", l)}
			}
			c.index[l] = len(c.labels)
			c.labels = append(c.labels, l)
		}
		out[j] = c
	}
	return out, nil
}

// Cells is one column of a CSV as its cells read (ReadCells): the numbers
// and the text labels (trimmed) of its non-missing cells.
type Cells struct {
	Name   string
	Nums   []float64
	Labels []string
}

// ReadCells reads every column of a CSV text as cells, for a description of
// the whole table (domain.DescribeCells, issue 42): a cell is missing (any
// missing marker), a number (read in the file's dialect, as Parse reads
// it), or a label. n is the number of data records. header is as Options.Header.
// Ragged rows, an empty file or one of more than MaxCells cells are errors
// naming the field, as Parse's.
func ReadCells(text, header string) (cols []Cells, n int, err error) {
	if len(text) > MaxBytes {
		return nil, 0, checks.Errorf("csv", "at most %d MB of CSV (got %.1f MB)", MaxBytes>>20, float64(len(text))/(1<<20))
	}
	dl, recs, err := readRecords(text, header, nil)
	if err != nil {
		return nil, 0, err
	}
	width := len(recs[0])
	names, hasHeader, err := dl.columnNames(recs[:min(2, len(recs))], header)
	if err != nil {
		return nil, 0, err
	}
	if hasHeader {
		recs = recs[1:]
	}
	if len(recs) == 0 {
		return nil, 0, checks.Errorf("csv", "CSV with at least one data row (only a header)")
	}
	if len(recs)*width > MaxCells {
		return nil, 0, checks.Errorf("csv", "at most %d cells (got %d rows × %d columns)", MaxCells, len(recs), width)
	}
	cols = make([]Cells, width)
	for j := range cols {
		cols[j].Name = names[j]
	}
	for i, rec := range recs {
		if len(rec) != width {
			return nil, 0, &checks.Error{Field: fmt.Sprintf("row %d", i+1), Rule: fmt.Sprintf("%d cells like the header (ragged rows)", width), Got: fmt.Sprintf("%d cells", len(rec))}
		}
		for j, cell := range rec {
			switch v, ok := dl.num(cell); {
			case isMissing(cell):
			case ok:
				cols[j].Nums = append(cols[j].Nums, v)
			default:
				cols[j].Labels = append(cols[j].Labels, strings.TrimSpace(cell))
			}
		}
	}
	return cols, len(recs), nil
}
