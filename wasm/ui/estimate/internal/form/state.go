package form

import (
	"maps"

	"github.com/dpsample/dpsample/core/dataset"
	"github.com/dpsample/dpsample/core/domain"
	"github.com/dpsample/dpsample/core/loss"
	"github.com/dpsample/dpsample/core/privacy"
)

// State is the estimate form as a value. Update never changes the state it
// is given (its maps are copied before a write): a state can be kept,
// compared and replayed.
type State struct {
	Table  Table
	Choice Choice
	// FoundCats are the text columns' categories found privately, by column
	// (a typed list in Choice.Cats wins over them).
	FoundCats map[string]FoundCats
	Ledger    Ledger
	Asked     Asked
	// Press is the press of Run (or of "Find ranges privately") under way:
	// nil between presses.
	Press *Press
	// Work is the line said about the time of the run last timed ("" when
	// none is due), beside Run.
	Work string
	// Msg is the question or refusal shown, nil when none.
	Msg *Message
}

// Table is what the page knows of the table shown — never its values.
type Table struct {
	// Builtin is the built-in dataset shown, nil for a CSV.
	Builtin *Builtin
	// Text: the CSV box (or a held file) holds text.
	Text bool
	// Profile is a CSV's profile (dataset.ProfileText: the columns' kinds
	// and labels and the file's problems, read on the owner's device and
	// shown to them only); nil for a built-in and while it is being read.
	Profile *dataset.Profile
	// LoadErr is the text's own error (too large, not a table), shown in the
	// CSV box until the text changes.
	LoadErr string
	// FileKey names the kind of CSV shown (fileKey: its header's hash):
	// another kind starts the form afresh.
	FileKey string
}

// Builtin is a shipped dataset with the page's first choices for it.
type Builtin struct {
	dataset.Builtin
	Columns   []string  // the columns of its text (read when it loaded)
	Ticked    []string  // the features ticked at first
	Loss      loss.Kind // chosen at first
	RegTarget string    // the numeric target offered first to a regression
}

// CSV reports whether the table is the person's own (not a built-in).
func (t Table) CSV() bool { return t.Builtin == nil }

// Choice is what the person chose (or the element's attributes did).
type Choice struct {
	Loss loss.Kind
	// LossAuto: the task follows the target column's suggestion (taskFor)
	// until the person chooses one; a task so suggested is confirmed at the
	// first Run (Asked.TaskOK).
	LossAuto bool
	// Estimator is the estimator the person (or the attribute) chose; ""
	// follows the study's rule for the loss.
	Estimator string
	Target    string          // the column to predict ("" when none is chosen)
	Features  map[string]bool // column → ticked, the person's last choice for it
	Header    string          // dataset.HeaderAuto, HeaderPresent or HeaderAbsent
	// Indicators are the features given a 0/1 "was missing" column beside
	// them (issue 51 item 1: only where the person asks).
	Indicators map[string]bool
	// Levels are tokens the person declared labels of a target column
	// rather than missing cells (issue 51 item 3: "None" as a level).
	Levels   map[string][]string
	Ranges   map[string]Declared
	Positive map[string]string // target column → the label coded +1
	Cats     map[string]string // text column → its typed list (as typed)
	// The numbers' fields, as typed.
	Epsilon, Delta, Radius, Rank, Samples string
	// DeltaAuto: δ follows the table's rows (RowsDelta) until the person
	// types one; RadiusAuto: C follows mechanism.DefaultRadius.
	DeltaAuto, RadiusAuto bool
	Workers               int
	FixedWork             bool
	// Interval: 95 % intervals beside the coefficients where DP-GD's run
	// allows them (issue 54; on by default).
	Interval bool
}

// Declared is one column's range as its inputs hold it: typed by the
// person, or found privately (From) and perhaps edited since. A range found
// privately, edited or not, belongs to the table whose ledger holds the
// release that found it (issue 51 item 4): on another table it is not in
// the inputs.
type Declared struct {
	Lo, Hi string
	From   *FoundRange // the release it was found by; nil when typed
}

// FoundRange is what a describe release found for one column.
type FoundRange struct {
	Col        domain.Column     `json:"column"`
	Epsilon    float64           `json:"epsilon"`
	Delta      float64           `json:"delta"`
	Resolution domain.Resolution `json:"resolution"`
	// Release is the id of the release in the ledger of Table, the key of
	// the table it was charged to (kept on this device, never exported).
	Release string `json:"release,omitempty"`
	Table   string `json:"table,omitempty"`
}

// FoundCats is one text column's categories as a describe({csv}) release
// found them: the labels whose noisy count cleared the threshold, most
// frequent first (none for an ID-like column).
type FoundCats struct {
	Labels  []string `json:"labels"`
	Other   bool     `json:"other"`
	Epsilon float64  `json:"epsilon"`
	Delta   float64  `json:"delta"`
	Release string   `json:"release"`
	Table   string   `json:"table"`
}

// Ledger is the table's budget as the page last saw it.
type Ledger struct {
	Key string // the table's key (dataset.TableKey); "" until known
	// State is the table's ledger, when Key's is known (nil: not yet read,
	// or the table has none yet).
	State *privacy.LedgerState
	// Blocked says why the table's stored budget cannot be read back ("":
	// it can); runs are refused.
	Blocked string
	// The budget's fields (ε, δ of a table's first release), and their
	// error.
	Epsilon, Delta float64
	BudgetErr      string
}

// Asked are the questions already answered.
type Asked struct {
	// TaskOK is the "loss|target" the person confirmed for files with this
	// header (remembered with the declarations); TaskAsked: the question is
	// out (a second press confirms).
	TaskOK    string
	TaskAsked bool
	// Pointless is the "target|label" of a run the page said would learn
	// nothing, which a second press runs all the same.
	Pointless string
	// LongRun is the run a long-run warning was shown for (a second press
	// starts it).
	LongRun string
}

// held reports whether st, the table's ledger, holds the release id of
// table key.
func held(st *privacy.LedgerState, id, key string) *privacy.Release {
	if st == nil || id == "" || key == "" || st.Key != key {
		return nil
	}
	for i := range st.History {
		if st.History[i].ID == id {
			return &st.History[i]
		}
	}
	return nil
}

// HeldIn is the release of st that found f (nil unless st is the ledger of
// f's table and holds it).
func (f FoundRange) HeldIn(st *privacy.LedgerState) *privacy.Release {
	return held(st, f.Release, f.Table)
}

// HeldIn is the release of st that found f.
func (f FoundCats) HeldIn(st *privacy.LedgerState) *privacy.Release {
	return held(st, f.Release, f.Table)
}

// clone copies s's maps, so that Update writes its own.
func (s State) clone() State {
	c := s
	c.Choice.Features = maps.Clone(s.Choice.Features)
	c.Choice.Ranges = maps.Clone(s.Choice.Ranges)
	c.Choice.Positive = maps.Clone(s.Choice.Positive)
	c.Choice.Cats = maps.Clone(s.Choice.Cats)
	c.Choice.Indicators = maps.Clone(s.Choice.Indicators)
	c.Choice.Levels = maps.Clone(s.Choice.Levels)
	c.FoundCats = maps.Clone(s.FoundCats)
	if c.Choice.Features == nil {
		c.Choice.Features = map[string]bool{}
	}
	if c.Choice.Ranges == nil {
		c.Choice.Ranges = map[string]Declared{}
	}
	if c.Choice.Positive == nil {
		c.Choice.Positive = map[string]string{}
	}
	if c.Choice.Cats == nil {
		c.Choice.Cats = map[string]string{}
	}
	if c.Choice.Indicators == nil {
		c.Choice.Indicators = map[string]bool{}
	}
	if c.Choice.Levels == nil {
		c.Choice.Levels = map[string][]string{}
	}
	if c.FoundCats == nil {
		c.FoundCats = map[string]FoundCats{}
	}
	if s.Press != nil {
		p := *s.Press
		c.Press = &p
	}
	return c
}
