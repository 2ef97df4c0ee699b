package form

import (
	"github.com/dpsample/dpsample/core/dataset"
	"github.com/dpsample/dpsample/core/domain"
	"github.com/dpsample/dpsample/core/loss"
	"github.com/dpsample/dpsample/core/privacy"
)

// Event is what happened: an act of the person's, or the answer of the
// page's work to an Action.
type Event interface{ event() }

// The table.
type (
	// DatasetChosen: a built-in (nil: the person's own CSV) was chosen; user
	// is false at start-up (the element's attributes chose it).
	DatasetChosen struct {
		Builtin *Builtin
		User    bool
	}
	// BuiltinLoaded: the built-in's text arrived (or its fetch failed:
	// Columns nil).
	BuiltinLoaded struct{ Columns []string }
	// TextChanged: the CSV text changed (loaded: it holds text; err: the
	// text's own error, such as too large). Its profile follows.
	TextChanged struct {
		Loaded bool
		Err    string
	}
	// Profiled: a CSV's profile (or its error), with what this browser
	// remembers for files with its column names (nil: nothing).
	Profiled struct {
		Profile *dataset.Profile
		Err     string
		Memory  *Memory
	}
	// LedgerSeen: the table's ledger as the page now knows it.
	LedgerSeen struct{ Ledger Ledger }
)

// The person's choices.
type (
	LossChosen      struct{ Loss loss.Kind }
	EstimatorChosen struct{ Method string }
	TargetChosen    struct{ Col string }
	// FeaturesTicked: the feature boxes as they are now ticked (column →
	// ticked; the boxes not in the map keep their state).
	FeaturesTicked struct{ On map[string]bool }
	HeaderChosen   struct{ Mode string }
	// IndicatorTicked: a feature's "was missing" column was asked for (or
	// not).
	IndicatorTicked struct {
		Col string
		On  bool
	}
	// LevelDeclared: a token of a target column (a missing-cell marker such
	// as "None") was declared one of its labels (or not).
	LevelDeclared struct {
		Col, Token string
		On         bool
	}
	// RangeTyped: one end of a column's range was typed (Hi: the upper).
	RangeTyped struct {
		Col  string
		Hi   bool
		Text string
	}
	PositiveTyped struct{ Col, Label string }
	CatsTyped     struct{ Col, Text string }
	// NumberTyped: a number field (epsilon, delta, radius, rank, samples)
	// was typed.
	NumberTyped   struct{ Field, Text string }
	WorkersChosen struct{ N int }
	// IntervalTicked: the 95 % intervals were asked for (or not).
	IntervalTicked  struct{ On bool }
	FixedWorkTicked struct{ On bool }
	// LineApplied: the one-line form of the ranges was applied.
	LineApplied struct{ Text string }
	// Forgot: the declarations remembered for these column names were
	// forgotten.
	Forgot struct{}
)

// A press and the answers of its steps.
type (
	// Pressed: Run was pressed.
	Pressed struct{}
	// FindPressed: "Find ranges privately" was pressed.
	FindPressed struct{}
	// Prepared answers Prepare: the table parsed for the run (Rows: its
	// data rows; Err: the parse's error, the rows' own) and the table's
	// ledger, open.
	Prepared struct {
		Rows      int
		Err       error
		LedgerErr error // the budget could not be opened
		Ledger    Ledger
	}
	// Timed answers Time: the run's seconds on this device, without fixed
	// work too (NaN when the run has none), the estimate's basis in words,
	// and the rows that would fit in a minute and in the page's limit.
	Timed struct {
		Seconds, Without float64
		Words            string
		Fit60, FitMax    int
	}
	// Found answers Find: the release's columns (describe({x}): the spec's
	// columns in order; describe({csv}): every column of the file), its id
	// in the ledger of Table, and that ledger after the charge; or the error
	// (Ledger says whether it was charged all the same).
	Found struct {
		Columns []domain.CellsColumn
		Release string
		Table   string
		Ledger  *privacy.LedgerState
		Err     error
	}
	// Ran answers Run: the ledger after the charge, and the run's error
	// (Aborted: cancelled by the person), nil when the result came.
	Ran struct {
		Ledger  *privacy.LedgerState
		Err     error
		Aborted bool
	}
)

func (DatasetChosen) event()   {}
func (BuiltinLoaded) event()   {}
func (TextChanged) event()     {}
func (Profiled) event()        {}
func (LedgerSeen) event()      {}
func (LossChosen) event()      {}
func (EstimatorChosen) event() {}
func (TargetChosen) event()    {}
func (FeaturesTicked) event()  {}
func (HeaderChosen) event()    {}
func (IndicatorTicked) event() {}
func (LevelDeclared) event()   {}
func (RangeTyped) event()      {}
func (PositiveTyped) event()   {}
func (CatsTyped) event()       {}
func (NumberTyped) event()     {}
func (WorkersChosen) event()   {}
func (IntervalTicked) event()  {}
func (FixedWorkTicked) event() {}
func (LineApplied) event()     {}
func (Forgot) event()          {}
func (Pressed) event()         {}
func (FindPressed) event()     {}
func (Prepared) event()        {}
func (Timed) event()           {}
func (Found) event()           {}
func (Ran) event()             {}
