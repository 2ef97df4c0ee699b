package dataset

import (
	"context"
	"fmt"
	"hash/fnv"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/dpsample/dpsample/core/checks"
)

// Profile is what a form needs to know about CSV text before a run: the
// columns (named by Parse's header rule, in Parse's dialect), each column's
// kind, the labels of a column that has few, and the problems that Parse
// will stop at or that suggest the file was misread — each naming its row
// and column.
//
// A profile is computed from the data on the data owner's device. It is NOT
// private: it is for the owner's eyes (messages about their own file) and
// for the form's first choices, which the owner sees and may change before
// anything runs. It is never part of a release or an export.
type Profile struct {
	Columns   []ColumnInfo `json:"columns"`
	Header    bool         `json:"header"`    // the first record was read as the column names
	Delimiter string       `json:"delimiter"` // as Table.Delimiter
	Rows      int          `json:"rows"`      // data rows (blank lines skipped)
	// HeaderHash identifies the header's column names (FNV-1a 64 of the
	// names, in hex), for remembering the owner's declarations per kind of
	// file; empty when the file has no header. It is computed from the
	// header line only, never from a data row.
	HeaderHash string    `json:"headerHash,omitempty"`
	Problems   []Problem `json:"problems"`
	dl         dialect
}

// Column kinds.
const (
	KindNumeric = "numeric" // every non-missing cell is a number
	KindText    = "text"    // no cell is a number
	KindMixed   = "mixed"   // numbers and text
	KindEmpty   = "empty"   // every cell is missing
)

// MaxLabels is the most distinct labels a ColumnInfo lists.
const MaxLabels = 50

// ColumnInfo describes one column of a profiled file.
type ColumnInfo struct {
	Name    string `json:"name"`
	Kind    string `json:"kind"`
	Missing int    `json:"missing"` // missing cells
	// FirstText is the first cell of a mixed column that is not a number,
	// with its 1-based data row.
	FirstText    string `json:"firstText,omitempty"`
	FirstTextRow int    `json:"firstTextRow,omitempty"`
	// Labels are the distinct (trimmed) non-missing cells with the number
	// of rows holding each, sorted by label, when there are at most
	// MaxLabels of them; nil (and ManyLabels set) beyond.
	Labels     []LabelCount `json:"labels"`
	ManyLabels bool         `json:"manyLabels,omitempty"`
	// MissingTokens are the non-empty missing-cell tokens (NA, None, ?, …,
	// trimmed, as written) counted in Missing, with their cells, sorted by
	// token (issue 51 item 3): which token counted as missing here. A token
	// is a level instead where the caller declares it (Options.Levels,
	// Categories, Positive).
	MissingTokens []LabelCount `json:"missingTokens,omitempty"`
}

// LabelCount is a label and the number of rows holding it.
type LabelCount struct {
	Label string `json:"label"`
	Rows  int    `json:"rows"`
}

// Problem is one finding about a file, as a sentence naming its row (1-based
// data row; 0 for the header) and column where it has one.
type Problem struct {
	Row      int    `json:"row"`
	Column   string `json:"column,omitempty"`
	Text     string `json:"text"`
	Blocking bool   `json:"blocking,omitempty"` // Parse stops at it (a ragged row); the others are warnings
}

// ProfileText reads CSV text into a Profile, with the header rule of
// Options.Header (HeaderAuto or "", HeaderPresent, HeaderAbsent). Its errors
// are ColumnsWith's (too large, empty, not CSV, a first row that may or may
// not be a header in auto mode); everything else is a Problem.
func ProfileText(text, header string) (*Profile, error) {
	return ProfileTextContext(context.Background(), text, header, nil)
}

// ProfileTextContext is ProfileText for a caller that shows progress or may
// cancel (the page profiles a pasted file in its worker): a non-nil progress
// is called with done = the bytes of text read so far and total = len(text),
// every few thousand rows and once with done = total at the end (reading the
// rows is most of the work: the columns' kinds follow in one pass over the
// records); when ctx is done it stops with ctx's error.
func ProfileTextContext(ctx context.Context, text, header string, progress func(done, total int)) (*Profile, error) {
	if len(text) > MaxBytes {
		return nil, checks.Errorf("text", "at most %d MB of CSV (got %.1f MB)", MaxBytes>>20, float64(len(text))/(1<<20))
	}
	dl, recs, err := readRecords(text, header, readTick(ctx, len(text), progress))
	if err != nil {
		return nil, err
	}
	defer func() {
		if progress != nil {
			progress(len(text), len(text))
		}
	}()
	names, hdr, err := dl.columnNames(recs[:min(2, len(recs))], header)
	if err != nil {
		return nil, err
	}
	p := &Profile{Delimiter: dl.Name(), Header: hdr, dl: dl}
	first, data := recs[0], recs
	if hdr {
		data = recs[1:]
	}
	type colAcc struct {
		labels map[string]int
		tokens map[string]int
		nums   int
		texts  int
	}
	var acc []colAcc
	for _, n := range names {
		p.Columns = append(p.Columns, ColumnInfo{Name: n})
		acc = append(acc, colAcc{labels: map[string]int{}, tokens: map[string]int{}})
	}
	raggedRows, raggedWidth, firstWidth := []int{}, map[int]int{}, 0
	for _, rec := range data {
		p.Rows++
		if len(rec) != len(p.Columns) {
			if len(raggedRows) == 0 {
				firstWidth = len(rec)
			}
			raggedRows = append(raggedRows, p.Rows)
			raggedWidth[len(rec)]++
		}
		for j := range min(len(rec), len(p.Columns)) {
			c, a := &p.Columns[j], &acc[j]
			cell := strings.TrimSpace(rec[j])
			if isMissing(cell) {
				c.Missing++
				if cell != "" && len(a.tokens) <= MaxLabels {
					a.tokens[cell]++
				}
				continue
			}
			if _, ok := dl.num(cell); ok {
				a.nums++
			} else {
				if a.texts == 0 {
					c.FirstText, c.FirstTextRow = cell, p.Rows
				}
				a.texts++
			}
			if len(a.labels) <= MaxLabels {
				a.labels[cell]++
			}
		}
	}
	for j := range p.Columns {
		c, a := &p.Columns[j], acc[j]
		switch {
		case a.nums > 0 && a.texts > 0:
			c.Kind = KindMixed
		case a.nums > 0:
			c.Kind = KindNumeric
		case a.texts > 0:
			c.Kind = KindText
		default:
			c.Kind = KindEmpty
		}
		if c.Kind != KindMixed {
			c.FirstText, c.FirstTextRow = "", 0
		}
		for l, n := range a.tokens {
			c.MissingTokens = append(c.MissingTokens, LabelCount{l, n})
		}
		sort.Slice(c.MissingTokens, func(i, k int) bool { return c.MissingTokens[i].Label < c.MissingTokens[k].Label })
		if len(a.labels) > MaxLabels {
			c.ManyLabels = true
			continue
		}
		for l, n := range a.labels {
			c.Labels = append(c.Labels, LabelCount{l, n})
		}
		sort.Slice(c.Labels, func(i, k int) bool { return c.Labels[i].Label < c.Labels[k].Label })
	}
	if p.Header {
		h := fnv.New64a()
		for _, c := range p.Columns {
			h.Write([]byte(c.Name))
			h.Write([]byte{0x1f})
		}
		p.HeaderHash = strconv.FormatUint(h.Sum64(), 16)
	}
	p.headerProblems(first, header)
	p.raggedProblems(raggedRows, raggedWidth, firstWidth)
	for _, c := range p.Columns {
		// A word among a text column's missing tokens (None, NA, N/A,
		// null, NaN: not "." or "?") may be one of its levels: say so.
		var what []string
		for _, tk := range c.MissingTokens {
			if strings.ContainsAny(strings.ToLower(tk.Label), "abcdefghijklmnopqrstuvwxyz") {
				what = append(what, fmt.Sprintf("%q (%s)", tk.Label, cells(tk.Rows)))
			}
		}
		if c.Kind == KindText && len(what) > 0 {
			p.Problems = append(p.Problems, Problem{Column: c.Name,
				Text: fmt.Sprintf("Column %q: %s read as missing. If one is a level of the column, list it among its categories "+
					"(a listed label is a level, not a missing cell).", c.Name, strings.Join(what, ", "))})
		}
		if c.Kind == KindMixed {
			p.Problems = append(p.Problems, Problem{Row: c.FirstTextRow, Column: c.Name,
				Text: fmt.Sprintf("Column %q holds numbers and text: row %d has %q, which is not a number. "+
					"As a feature or a numeric target it stops the run there; fix the cell, or mark it missing (NA).", c.Name, c.FirstTextRow, c.FirstText)})
		}
	}
	return p, nil
}

// headerProblems: a first row read as data when no header was declared
// (say so, and how to declare one), names used twice, and empty names.
func (p *Profile) headerProblems(first []string, mode string) {
	if !p.Header {
		if p.Rows == 0 || mode == HeaderAbsent {
			return
		}
		p.Problems = append(p.Problems, Problem{Text: fmt.Sprintf("The first row holds only numbers, so it was read as data and the "+
			"columns are named c1 … c%d. If it is a header, declare it (first row is a header: yes).", len(p.Columns))})
		return
	}
	seen := map[string]int{}
	for j, c := range first {
		name := strings.TrimSpace(c)
		switch {
		case name == "" || isMissing(name):
			p.Problems = append(p.Problems, Problem{Column: name, Text: fmt.Sprintf("Column %d has no name in the header line (%q).", j+1, c)})
		case seen[name] > 0:
			p.Problems = append(p.Problems, Problem{Column: name, Text: fmt.Sprintf("The name %q is used by columns %d and %d; "+
				"only the first can be chosen. Rename one in the header line.", name, seen[name], j+1)})
		}
		if seen[name] == 0 {
			seen[name] = j + 1
		}
	}
}

// raggedProblems: rows whose cell count differs from the header's, which
// Parse stops at. When every row has the same other width, the first line is
// not this table's header.
func (p *Profile) raggedProblems(rows []int, widths map[int]int, firstWidth int) {
	if len(rows) == 0 {
		return
	}
	what := "the header names"
	if !p.Header {
		what = "the first line has"
	}
	if len(rows) == p.Rows && len(widths) == 1 {
		var w int
		for k := range widths {
			w = k
		}
		p.Problems = append(p.Problems, Problem{Row: rows[0], Blocking: true,
			Text: fmt.Sprintf("Every row has %d cells, but %s %d: the first line does not describe this table. "+
				"Replace it with %d column names.", w, what, len(p.Columns), w)})
		return
	}
	p.Problems = append(p.Problems, Problem{Row: rows[0], Blocking: true,
		Text: fmt.Sprintf("Row %d has %s, but %s %d. The rows whose number of cells differs: %s.",
			rows[0], cells(firstWidth), what, len(p.Columns), (&MissingCells{Rows: rows}).Where())})
}

// Positive says how a declared positive label codes column col (by the rule
// of Parse: numbers compare as numbers, other labels as trimmed strings).
type Positive struct {
	Rows  int    // rows coded +1
	Of    int    // rows with a label in the column
	Close string // when Rows is 0: the column's label closest to the declaration ("" when none is close)
	Known bool   // the column's labels are listed (at most MaxLabels), so Close was looked for
}

// Positive checks a declared positive label against column col.
func (p *Profile) Positive(col, label string) Positive {
	var out Positive
	for _, c := range p.Columns {
		if c.Name != col {
			continue
		}
		out.Known = !c.ManyLabels
		best := -1
		for _, l := range c.Labels {
			out.Of += l.Rows
			if p.dl.sameLabel(l.Label, label) {
				out.Rows += l.Rows
				continue
			}
			if d := labelDistance(l.Label, strings.TrimSpace(label)); d >= 0 && (best < 0 || d < best) {
				best, out.Close = d, l.Label
			}
		}
		if out.Rows > 0 {
			out.Close = ""
		}
		return out
	}
	return out
}

// labelDistance is how far label is from typed: 0 when they differ only in
// case or spacing, else the edit distance of their lower-case forms when it
// is at most a third of the longer (−1 otherwise: not close).
func labelDistance(label, typed string) int {
	a, b := strings.ToLower(strings.Join(strings.Fields(label), " ")), strings.ToLower(strings.Join(strings.Fields(typed), " "))
	if a == b {
		return 0
	}
	d := editDistance([]rune(a), []rune(b))
	if 3*d > max(utf8.RuneCountInString(a), utf8.RuneCountInString(b)) {
		return -1
	}
	return d
}

// editDistance is the Levenshtein distance.
func editDistance(a, b []rune) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			c := 1
			if a[i-1] == b[j-1] {
				c = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+c)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// Column returns the named column's description.
func (p *Profile) Column(name string) (ColumnInfo, bool) {
	for _, c := range p.Columns {
		if c.Name == name {
			return c, true
		}
	}
	return ColumnInfo{}, false
}

func cells(n int) string {
	if n == 1 {
		return "1 cell"
	}
	return strconv.Itoa(n) + " cells"
}
