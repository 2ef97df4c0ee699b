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
	ref    int // the reference label's index (Options.Reference; its column is left out), or −1
}

// append appends the one-hot code of cell: a 1 in the column of its label
// (compared after trimming spaces), all zeros for a label not in the list,
// for a missing cell and for the reference label (whose column is left out).
// A block's norm is 1 or 0 either way.
func (c categoryCode) append(row []float64, cell string) []float64 {
	k, ok := c.index[strings.TrimSpace(cell)]
	for i := range c.labels {
		if i == c.ref {
			continue
		}
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
// distinct, non-empty labels. A label may be a missing-cell token ("None",
// "NA"): listed, it is a level of the column (issue 51 item 3). A reference
// label (Options.Reference) must be one of a list of at least two. Errors
// name categories.<column> or reference.<column>.
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
		c := categoryCode{index: map[string]int{}, ref: -1}
		for _, l := range labels {
			l = strings.TrimSpace(l)
			if l == "" {
				return nil, &checks.Error{Field: field, Rule: "labels that are not empty (an empty cell is always missing)", Got: strconv.Quote(l)}
			}
			if _, dup := c.index[l]; dup {
				return nil, &checks.Error{Field: field, Rule: "distinct labels", Got: fmt.Sprintf("%q twice", l)}
			}
			c.index[l] = len(c.labels)
			c.labels = append(c.labels, l)
		}
		if ref, ok := o.Reference[name]; ok {
			k, in := c.index[strings.TrimSpace(ref)]
			switch {
			case !in:
				return nil, &checks.Error{Field: "reference." + name, Rule: "one of its labels (" + strings.Join(c.labels, ", ") + ")", Got: strconv.Quote(ref)}
			case len(c.labels) < 2:
				return nil, &checks.Error{Field: "reference." + name, Rule: "a label of a list of at least two (with one label, all of them the reference, the column codes nothing: leave it out)", Got: strconv.Quote(ref)}
			}
			c.ref = k
		}
		out[j] = c
	}
	for name := range o.Reference {
		if _, ok := o.Categories[name]; !ok {
			return nil, &checks.Error{Field: "reference." + name, Rule: "a text feature of categories (the reference is one of its labels)", Got: strconv.Quote(name)}
		}
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
// the whole table (domain.DescribeCells, issue 42): a cell is missing (empty
// or blank), a number (read in the file's dialect, as Parse reads it), or a
// label (trimmed). A non-empty missing-cell token — NA, None, ?, … — is a
// label candidate like any other text (issue 51 item 3): the rule is the same
// in every column, so whether a token is counted never depends on another
// row, and a level such as "None" can be found privately (a list that names
// it makes it a level when Parse codes the column). n is the number of data
// records, the file's data-row count, whatever is missing. header is as
// Options.Header.
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
			case strings.TrimSpace(cell) == "":
			case ok:
				cols[j].Nums = append(cols[j].Nums, v)
			default:
				cols[j].Labels = append(cols[j].Labels, strings.TrimSpace(cell))
			}
		}
	}
	return cols, len(recs), nil
}
