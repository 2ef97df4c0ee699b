package form

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/dpsample/dpsample/core/dataset"
	"github.com/dpsample/dpsample/wasm/ui/internal/words"
)

// Update is the form's one decision: the state after e, and what the page
// does next. It never changes s.
func Update(s State, e Event) (State, Action) {
	s = s.clone()
	switch e := e.(type) {
	case Pressed:
		return s.pressed(false)
	case FindPressed:
		return s.pressed(true)
	case Prepared:
		return s.prepared(e)
	case Timed:
		return s.timed(e)
	case Found:
		return s.found(e)
	case Ran:
		return s.ran(e)
	case LedgerSeen:
		s.Ledger = e.Ledger
		return s, Action{}
	case BuiltinLoaded:
		if b := s.Table.Builtin; b != nil {
			c := *b
			c.Columns = e.Columns
			s.Table.Builtin = &c
		}
		s.settle()
		return s, Action{}
	}
	// Every other event is an edit of the form: the message shown and a
	// confirmed long run are about the form before it (the confirmation is
	// asked again for the run the form now describes).
	s.Msg, s.Asked.LongRun, s.Work = nil, "", ""
	var act Action
	switch e := e.(type) {
	case DatasetChosen:
		s.datasetChosen(e)
	case TextChanged:
		s.Table.Text, s.Table.LoadErr, s.Table.Profile = e.Loaded, e.Err, nil
	case Profiled:
		s.profiled(e)
	case LossChosen:
		s.Choice.Loss, s.Choice.LossAuto = e.Loss, false // the person's choice, kept until a file with other columns is loaded
	case EstimatorChosen:
		s.Choice.Estimator = e.Method
	case TargetChosen:
		s.Choice.Target = e.Col
		if c, ok := s.column(e.Col); ok && !s.Choice.Loss.Classification() && !usable(c) {
			s.Choice.LossAuto = true // a text target cannot be regressed on: the task follows it (confirmed at Run)
		}
	case FeaturesTicked:
		for c, on := range e.On {
			s.Choice.Features[c] = on
		}
	case HeaderChosen:
		s.Choice.Header = e.Mode
	case IndicatorTicked:
		s.Choice.Indicators[e.Col] = e.On
	case LevelDeclared:
		ls := slices.DeleteFunc(slices.Clone(s.Choice.Levels[e.Col]), func(t string) bool { return t == e.Token })
		if e.On {
			ls = append(ls, e.Token)
		}
		s.Choice.Levels[e.Col] = ls
	case RangeTyped:
		s.rangeTyped(e)
	case PositiveTyped:
		s.Choice.Positive[e.Col] = e.Label
	case CatsTyped:
		s.Choice.Cats[e.Col] = e.Text
	case NumberTyped:
		s.numberTyped(e)
	case WorkersChosen:
		s.Choice.Workers = e.N
	case IntervalTicked:
		s.Choice.Interval = e.On
	case FixedWorkTicked:
		s.Choice.FixedWork = e.On
	case LineApplied:
		act = s.lineApplied(e.Text)
	case Forgot:
		s.forgot()
	}
	s.settle()
	return s, act
}

// settle brings the derived choices in line with the table and the person's
// choices (the form's first choices for a CSV, issues 23 and 53): a
// built-in's target is the page's; a CSV's target is the person's choice —
// none until they make one (issue 53 item 1: the first model is never of a
// column nobody chose) — and a task that follows the target follows it. A
// new suggestion is asked again at Run.
func (s *State) settle() {
	targets := s.Targets()
	if b := s.Table.Builtin; b != nil {
		switch {
		case s.Choice.Loss.Classification():
			s.Choice.Target = b.Target
		case s.Choice.Loss.Supervised() && !slices.Contains(targets, s.Choice.Target):
			s.Choice.Target = b.RegTarget
		}
		return
	}
	if s.Table.Profile == nil {
		return
	}
	if !slices.Contains(s.profileTargets(), s.Choice.Target) {
		s.Choice.Target = ""
	}
	if !s.Choice.LossAuto {
		return
	}
	task := s.Choice.Loss
	switch {
	case s.Choice.Target != "":
		task = s.autoTask(s.Choice.Target)
	case len(s.profileTargets()) < 2:
		task = s.autoTask("") // a centre: no second column to predict from
	}
	if task != s.Choice.Loss {
		s.Choice.Loss = task
		s.Asked.TaskAsked = false // a new suggestion: the owner is asked again
	}
}

// AwaitsTarget reports whether the form waits for the person to choose the
// column to predict: a CSV whose task follows its target, none chosen yet
// (the task list shows no choice until then).
func (s State) AwaitsTarget() bool {
	return s.Table.Builtin == nil && s.Table.Profile != nil && s.Choice.LossAuto && s.Choice.Target == "" && len(s.profileTargets()) >= 2
}

// profileTargets are a CSV's columns with values (the targets offered
// whatever the task).
func (s State) profileTargets() []string {
	var out []string
	for _, c := range s.Table.Profile.Columns {
		if c.Kind != dataset.KindEmpty {
			out = append(out, c.Name)
		}
	}
	return out
}

func (s *State) datasetChosen(e DatasetChosen) {
	s.Table.Builtin = e.Builtin
	if b := e.Builtin; b != nil {
		if e.User || s.Choice.LossAuto {
			s.Choice.Loss = b.Loss
		}
		return
	}
	if e.User {
		s.Choice.LossAuto = true // the task chosen for a built-in is not the file's
		s.Asked.TaskAsked = false
	}
}

// fileKey names a kind of file: its header's hash, or its width.
func fileKey(p *dataset.Profile) string {
	if p.HeaderHash != "" {
		return p.HeaderHash
	}
	return fmt.Sprintf("%d columns without a header", len(p.Columns))
}

func (s *State) profiled(e Profiled) {
	if e.Err != "" || e.Profile == nil {
		s.Table.Profile, s.Table.LoadErr = nil, e.Err
		return
	}
	s.Table.Profile, s.Table.LoadErr = e.Profile, ""
	key := fileKey(e.Profile)
	if key == s.Table.FileKey {
		return
	}
	// Another kind of file: fresh first choices, and what this browser
	// remembers for its column names.
	if s.Table.FileKey != "" {
		s.Choice.LossAuto = true // the task chosen for the former file is not this one's
		s.Asked.TaskAsked = false
	}
	s.Table.FileKey = key
	s.Choice.Features = map[string]bool{}
	s.Choice.Target = "" // the target chosen for the former file is not this one's either
	s.Asked.TaskOK = ""
	s.recall(e.Memory)
}

func (s *State) rangeTyped(e RangeTyped) {
	d, ok := s.Range(e.Col)
	if !ok {
		d = Declared{} // blank (or found on another table): typed from now on
	}
	// A range found privately keeps its release when edited (issue 51 item
	// 4): it is derived from that release and belongs to its table.
	if e.Hi {
		d.Hi = e.Text
	} else {
		d.Lo = e.Text
	}
	s.Choice.Ranges[e.Col] = d
	if strings.TrimSpace(d.Lo) != "" && strings.TrimSpace(d.Hi) != "" {
		if _, err := declaredRange("ranges."+e.Col, d); err != nil {
			s.Msg = &Message{Field: "ranges." + e.Col, Text: err.Error()}
		}
	}
}

func (s *State) numberTyped(e NumberTyped) {
	switch e.Field {
	case "epsilon":
		s.Choice.Epsilon = e.Text
	case "delta":
		s.Choice.Delta, s.Choice.DeltaAuto = e.Text, false
	case "radius":
		s.Choice.Radius, s.Choice.RadiusAuto = e.Text, false
	case "rank":
		s.Choice.Rank = e.Text
	case "samples":
		s.Choice.Samples = e.Text
	}
}

// lineApplied reads the one-line form of the ranges ("name: lo..hi, …",
// dataset.ParseRanges) into the declarations of this file's columns.
func (s *State) lineApplied(text string) Action {
	names, ranges, err := dataset.ParseRanges(text)
	if err != nil {
		return Action{Do: Note, Field: "rangesLine", Text: err.Error()}
	}
	cols := s.Columns()
	var used, unknown []string
	for _, n := range names {
		if !slices.Contains(cols, n) {
			unknown = append(unknown, strconv.Quote(n))
			continue
		}
		r := ranges[n]
		s.Choice.Ranges[n] = Declared{Lo: strconv.FormatFloat(r.Lo, 'g', -1, 64), Hi: strconv.FormatFloat(r.Hi, 'g', -1, 64)}
		used = append(used, n)
	}
	msg := fmt.Sprintf("Applied %s.", words.Count(len(used), "range"))
	if len(unknown) > 0 {
		msg += " Not columns of this file (ignored): " + strings.Join(unknown, ", ") + "."
	}
	return Action{Do: Note, Field: "rangesLine", Text: msg}
}

// forgot drops the declarations of this file's columns (what this browser
// remembers for them is dropped by the view).
func (s *State) forgot() {
	for _, c := range s.Columns() {
		delete(s.Choice.Ranges, c)
		delete(s.Choice.Positive, c)
		delete(s.Choice.Cats, c)
		delete(s.FoundCats, c)
	}
	s.Asked.TaskOK = ""
}

// declaredRange parses a declared [lo, hi] and checks it by
// dataset.Range.Valid.
func declaredRange(field string, d Declared) (dataset.Range, error) {
	if strings.TrimSpace(d.Lo) == "" || strings.TrimSpace(d.Hi) == "" {
		return dataset.Range{}, errorf(field, "a declared public range [lo, hi] (type both ends: the page does not compute them from the data)")
	}
	lo, err := words.ParseNumber(field+".lo", d.Lo)
	if err != nil {
		return dataset.Range{}, err
	}
	hi, err := words.ParseNumber(field+".hi", d.Hi)
	if err != nil {
		return dataset.Range{}, err
	}
	r := dataset.Range{Lo: lo, Hi: hi}
	return r, r.Valid(field)
}
