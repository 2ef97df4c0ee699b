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
