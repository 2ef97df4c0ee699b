package form

import (
	"errors"

	"github.com/dpsample/dpsample/core/checks"
	"github.com/dpsample/dpsample/core/dataset"
	"github.com/dpsample/dpsample/core/mechanism"
	"github.com/dpsample/dpsample/core/privacy"
)

// Do is what an Action asks of the page.
type Do int

// The actions. Only Find and Run spend.
const (
	None    Do = iota // nothing: render the state
	Ask               // a question (Field, Text): nothing spent, the press ends; a second press answers it
	Refuse            // a refusal (Field, Text): nothing spent (or nothing more), the press ends
	Prepare           // parse the table for the run (Parse) and open its budget: answer Prepared
	Time              // estimate the run's seconds (Plan, Alt): answer Timed
	Find              // spend Find's release: answer Found
	Run               // spend Run's model: answer Ran
	Show              // show the result of the run just answered; the press ends
	Done              // the press ends with Text on the status line
	Note              // a message for the field (Field, Text) that ends nothing (the ranges line's)
)

// Action is the one thing the page does next.
type Action struct {
	Do Do
	// Field names the field an Ask, Refuse or Note is about, as the JS API
	// names it ("target", "positive", "ranges.age", "categories.site",
	// "epsilon", …, and "csv" for the table's box, "run" for Run itself,
	// "budget" for the table's budget): the page shows Text there and
	// focuses it.
	Field string
	Text  string
	Parse *dataset.Options // Prepare: the run's parse (nil: only the budget)
	Plan  mechanism.Plan   // Time: the run's plan
	Alt   *mechanism.Plan  // Time: the same run without fixed work (nil: it has none)
	Find  *FindSpec
	Run   *RunSpec
	// Check is the ledger's check behind a refusal for the budget (the
	// exact accounting, shown under a disclosure).
	Check *privacy.Check
}

// Message is the question or refusal shown (State.Msg): an edit takes it
// away.
type Message struct {
	Field, Text string
	Question    bool           // an Ask (a second press answers it), not a Refuse
	Check       *privacy.Check // a refusal for the budget: the ledger's check
}

// FindSpec is a describe release of the file read as cells in the worker
// (describe({csv}): n is the file's data-row count, a missing cell in no
// bin — issue 51 item 1): of the blank columns (describe({csv, columns})),
// or of every column when a text feature's categories are blank (Columns
// nil: one release for all, issue 42).
type FindSpec struct {
	Columns        []string
	Epsilon, Delta float64
	Key            string // the table's ledger
	Status         string // the status line while it runs
}

// RunSpec is a model run without its rows: the view parses (Parse: every
// data row kept, a missing cell filled), scales by Ranges (the columns as
// parsed: one-hot and "was missing" columns at [−1, 1], the identity; a
// missing number becomes its range's middle, 0 scaled), adds the intercept
// for a supervised loss, zeroes each row whose target is missing with
// target MissingTarget (dataset.ZeroMissingTargets: ℓ(0, y) is a constant,
// so the row weighs nothing and still counts in n) and sends Req with the
// rows to the worker, charged to Key.
type RunSpec struct {
	Parse         dataset.Options
	Ranges        map[string]dataset.Range
	Target        *dataset.Range // a regression's declared target range (y scaled by it)
	MissingTarget float64        // the target of a row zeroed for its missing one (scaled units)
	Req           mechanism.Request
	Key           string
	Source        string // "your CSV", or the built-in's label
	TargetCol     string
	Positive      string
	Cats          []Used
	OneHot        map[string]bool
	Rows          int // n
}

// errorf is a checks.Error naming field.
func errorf(field, rule string, args ...any) error { return checks.Errorf(field, rule, args...) }

// plainError is a message written as a sentence.
type plainError string

func (e plainError) Error() string { return string(e) }

// fieldOf is the field an error names ("" when it names none).
func fieldOf(err error) string {
	var ce *checks.Error
	if errors.As(err, &ce) {
		return ce.Field
	}
	return ""
}
