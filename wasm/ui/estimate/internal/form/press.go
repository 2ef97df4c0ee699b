package form

import (
	"fmt"
	"math"
	"strings"

	"github.com/dpsample/dpsample/core/checks"
	"github.com/dpsample/dpsample/core/dataset"
	"github.com/dpsample/dpsample/core/domain"
	"github.com/dpsample/dpsample/core/mechanism"
	"github.com/dpsample/dpsample/core/privacy"
	"github.com/dpsample/dpsample/wasm/ui/estimate/internal/names"
	"github.com/dpsample/dpsample/wasm/ui/internal/words"
)

// Press is a press of Run (or of "Find ranges privately") under way.
type Press struct {
	FindOnly bool // the Find button: the ranges, no model
	Step     Step
	Rows     int       // n, once the table is prepared
	Find     *FindSpec // the ranges' release, when something is blank
	Charged  bool      // this press has spent (a release was charged)
}

// Step is what a press waits for.
type Step int

// The steps of a press.
const (
	Preparing Step = iota + 1 // Prepare → Prepared
	Timing                    // Time → Timed
	Finding                   // Find → Found
	Reparsing                 // Prepare (the text features coded from the lists found) → Prepared
	Running                   // Run → Ran
)

// The page's limits on a run's time (issue 24): a run estimated at
// WarnSeconds or more says so when it starts, at ConfirmSeconds or more it
// waits for a second press, over MaxRunSeconds it is refused.
const (
	WarnSeconds    = 10
	ConfirmSeconds = 120
	MaxRunSeconds  = 3600
)

// MaxSamples is the page's cap on m (the API's is larger; each sample costs
// privacy).
const MaxSamples = 1000

// PrivateEpsilon is the ε of one "find ranges" release, at the table
// budget's δ. Chosen on the study's development half (docs/PRIVACY.md §9,
// issues 40 and 52): at ε = 1 the tables had 0.2–3.5 % of a column's values
// outside the range found at full size, 0–3 % at 250 rows and 0–4 % at 100,
// and the release (s ≈ 0.27 at δ = 10⁻⁵) costs ≈ 15 % of the default budget's GDP²
// (ε = 3, δ = 10⁻⁵: S ≈ 0.70): what a model may still spend drops from
// ε = 3 to ≈ 2.6.
const PrivateEpsilon = 1

func ask(field, text string) Action    { return Action{Do: Ask, Field: field, Text: text} }
func refuse(field, text string) Action { return Action{Do: Refuse, Field: field, Text: text} }

// refuseErr refuses naming err's field (or field when it names none).
func refuseErr(field string, err error) Action {
	if f := fieldOf(err); f != "" {
		field = f
	}
	return refuse(field, err.Error())
}

// end ends the press with a: its message is the one shown.
func (s State) end(a Action) (State, Action) {
	s.Press = nil
	switch a.Do {
	case Ask, Refuse:
		s.Msg = &Message{Field: a.Field, Text: a.Text, Question: a.Do == Ask, Check: a.Check}
	}
	return s, a
}

// pressed starts a press: the form's own checks (no data read), then the
// table prepared.
func (s State) pressed(find bool) (State, Action) {
	if s.Press != nil {
		return s, Action{} // one press at a time (Run is disabled while one runs)
	}
	s.Msg, s.Work = nil, ""
	if a := s.checkForm(find); a.Do != None {
		return s.end(a)
	}
	s.Press = &Press{FindOnly: find, Step: Preparing}
	if find {
		return s, Action{Do: Prepare} // the release reads the file itself: only the budget is opened
	}
	opt := s.runParse()
	return s, Action{Do: Prepare, Parse: &opt}
}

// checkForm is every check of a press that reads no data, in the form's
// order, one question at a time (issue 53 item 5): the first that fails is
// the one asked.
func (s *State) checkForm(find bool) Action {
	if b := s.Table.Builtin; b != nil {
		if len(b.Columns) == 0 {
			return refuse("dataset", "The built-in dataset did not load; check the connection and run again.")
		}
	} else {
		switch {
		case s.Table.LoadErr != "":
			return refuse("csv", s.Table.LoadErr)
		case !s.Table.Text:
			return refuseErr("csv", errorf("the CSV text", "a table: paste one or drop a file on the box (it is empty)"))
		case s.Table.Profile == nil:
			return refuseErr("csv", errorf("the CSV text", "a table whose columns could be read"))
		}
	}
	l := s.Choice.Loss
	if !find {
		if s.AwaitsTarget() || (l.Supervised() && s.Target() == "") {
			return ask("target", "Choose the column to predict first (the target list above): the task is suggested from it, and "+
				"nothing runs on a column you did not choose. Nothing was spent.")
		}
		if a := s.checkTask(); a.Do != None {
			return a
		}
		if len(s.runFeatures(true))+len(s.TextFeatures())-s.emptyLists() == 0 {
			return refuseErr("features", errorf("features", "at least one checked feature column"))
		}
		if l.Classification() && s.positive() == "" {
			return refuse("positive", errorf("positive", "the label of %s coded +1 (every other label is −1): type it above; the page does not choose it from the data", s.Target()).Error())
		}
		if a := s.checkPointless(); a.Do != None {
			return a
		}
	}
	if _, _, _, err := s.CatLists(); err != nil {
		return refuseErr("categories", err)
	}
	for _, c := range s.ShownColumns() {
		if s.Table.Builtin != nil {
			break // declared by dpsample, read-only
		}
		if d, _ := s.Range(c); !d.blank() {
			if _, err := declaredRange("ranges."+c, d); err != nil {
				return refuse("ranges."+c, err.Error())
			}
		}
	}
	if _, err := s.numbers(!find); err != nil {
		return refuseErr("epsilon", err)
	}
	if s.Ledger.Blocked != "" {
		return refuse("budget", BlockedText(s.Ledger.Blocked))
	}
	if s.Ledger.BudgetErr != "" {
		return refuse("budget", s.Ledger.BudgetErr)
	}
	return Action{}
}

// checkTask: the task of a CSV suggested from its contents (a column's
// labels and kinds) is the page's guess, not a public input: the owner
// confirms it before anything is released (issue 30: one row's label must
// not choose the loss that the release states). A second press confirms.
func (s *State) checkTask() Action {
	if s.Table.Builtin != nil || !s.Choice.LossAuto {
		return Action{}
	}
	l, tgt := s.Choice.Loss, s.Target()
	cur := l.String() + "|" + tgt
	if cur == s.Asked.TaskOK {
		return Action{}
	}
	if !s.Asked.TaskAsked {
		s.Asked.TaskAsked = true
		what := names.TaskWords(l, tgt)
		return ask("loss", fmt.Sprintf("Check the task first: “%s” was suggested from your file's contents (shown only to you), and "+
			"the task is part of what a run releases. Press Run again to use it, or choose the task yourself above. Nothing was spent.", what))
	}
	s.Asked.TaskOK = cur // confirmed by this second press; remembered for files with this header
	return Action{}
}

// checkPointless: a run the page knows is pointless — a classifier whose
// positive label codes every row the same — asks before it charges (issue
// 30): the owner sees why, and a second press runs it anyway.
func (s *State) checkPointless() Action {
	p := s.Table.Profile
	if s.Table.Builtin != nil || p == nil || !s.Choice.Loss.Classification() {
		return Action{}
	}
	target, label := s.Target(), s.positive()
	pc := p.Positive(target, label)
	if label == "" || pc.Of == 0 || (pc.Rows != 0 && pc.Rows != pc.Of) {
		return Action{}
	}
	cur := target + "|" + label
	if s.Asked.Pointless == cur {
		return Action{}
	}
	s.Asked.Pointless = cur
	coded := "−1 (“" + label + "” matches no row)"
	if pc.Rows == pc.Of {
		coded = "+1 (every row has “" + label + "”)"
	}
	return ask("positive", fmt.Sprintf("This run cannot learn anything: every row of %s would be coded %s, so the model "+
		"would only learn the intercept. Check the positive label above; press Run again to run it anyway (it would be "+
		"charged to the table's budget). Nothing was spent.", target, coded))
}

// emptyLists counts the text features whose list was found empty (left
// out of the model).
func (s State) emptyLists() int {
	n := 0
	for _, u := range func() []Used { _, u, _, _ := s.CatLists(); return u }() {
		if len(u.Labels) == 0 {
			n++
		}
	}
	return n
}

// positive is the declared positive label of the target (a built-in's own).
func (s State) positive() string {
	if b := s.Table.Builtin; b != nil && s.Target() == b.Target {
		return b.Positive
	}
	return strings.TrimSpace(s.Choice.Positive[s.Target()])
}

// Numbers are the run's numbers, read from their fields.
type Numbers struct {
	Epsilon, Delta, Radius float64
	Rank, Samples          int // Rank 0: d
}

// numbers reads and checks the numbers' fields (rank and samples only for
// a run), each by the core rule the JS API applies; the error names the
// field.
func (s State) numbers(run bool) (Numbers, error) {
	var n Numbers
	delta, _ := s.DeltaField()
	for _, f := range []struct {
		name, text string
		rule       func(string, float64) error
		dst        *float64
	}{
		{"epsilon", s.Choice.Epsilon, checks.Epsilon, &n.Epsilon},
		{"delta", delta, checks.Delta, &n.Delta},
		{"radius", s.Radius(), checks.Positive, &n.Radius},
	} {
		x, err := words.ParseNumber(f.name, f.text)
		if err == nil {
			err = f.rule(f.name, x)
		}
		if err != nil {
			return n, err
		}
		*f.dst = x
	}
	if !run {
		return n, nil
	}
	var err error
	if strings.TrimSpace(s.Choice.Rank) != "" {
		if n.Rank, err = words.ParseInt("rank", s.Choice.Rank, 1, 1_000_000); err != nil {
			return n, err
		}
	}
	if n.Samples, err = words.ParseInt("samples", s.Choice.Samples, 1, MaxSamples); err != nil {
		return n, err
	}
	return n, nil
}

// FieldError is the live check of a number field as typed ("" when valid):
// the core rule the JS API applies.
func (s State) FieldError(field string) string {
	var err error
	switch field {
	case "epsilon", "delta", "radius":
		text := map[string]string{"epsilon": s.Choice.Epsilon, "radius": s.Radius()}[field]
		if field == "delta" {
			text, _ = s.DeltaField()
		}
		rule := map[string]func(string, float64) error{"epsilon": checks.Epsilon, "delta": checks.Delta, "radius": checks.Positive}[field]
		x, e := words.ParseNumber(field, text)
		err = checks.First(e, rule(field, x))
	case "rank":
		if strings.TrimSpace(s.Choice.Rank) != "" {
			_, err = words.ParseInt("rank", s.Choice.Rank, 1, 1_000_000)
		}
	case "samples":
		_, err = words.ParseInt("samples", s.Choice.Samples, 1, MaxSamples)
	}
	if err != nil {
		return err.Error()
	}
	return ""
}

// budgetDelta is the δ of the table's budget (a find is released at it).
func (s State) budgetDelta() float64 {
	if st := s.Ledger.State; st != nil && st.Key == s.Ledger.Key {
		return st.Budget.Delta
	}
	return s.Ledger.Delta
}

// prepared goes on once the table parsed and its budget is open: what is
// blank, the release's floor, the run's plan, and both releases against the
// budget — everything before a charge.
func (s State) prepared(e Prepared) (State, Action) {
	p := s.Press
	if p == nil || (p.Step != Preparing && p.Step != Reparsing) {
		return s, Action{} // not this press's answer
	}
	s.Ledger = e.Ledger
	if e.Err != nil {
		return s.end(refuse("csv", e.Err.Error()))
	}
	if s.Ledger.Blocked != "" {
		return s.end(refuse("budget", BlockedText(s.Ledger.Blocked)))
	}
	if e.LedgerErr != nil {
		return s.end(refuseErr("budget", e.LedgerErr))
	}
	p.Rows = e.Rows
	if p.Step == Reparsing {
		return s.run()
	}
	blank, cats := s.BlankColumns(), s.BlankCats()
	if len(blank)+len(cats) > 0 {
		f, a := s.findSpec(blank, cats)
		if a.Do != None {
			return s.end(a)
		}
		p.Find = f
	}
	if p.FindOnly {
		if p.Find == nil {
			return s.end(Action{Do: Done, Text: "Nothing is left to find: every range and category is declared."})
		}
		if a := s.budgetFits(p.Find, nil, 0, 0); a.Do != None {
			return s.end(a)
		}
		p.Step = Finding
		return s, Action{Do: Find, Find: p.Find}
	}
	n := e.Rows
	req, dMin, dMax, err := s.request(n)
	if err != nil {
		return s.end(refuseErr("csv", err))
	}
	// The plan must be valid at the narrowest width the run can have (rank
	// ≤ d) and is timed at the widest (every label of a blank text feature
	// found).
	if _, err := mechanism.PlanShape(req, n, dMin); err != nil {
		return s.end(refuseErr("csv", err))
	}
	if a := s.budgetFits(p.Find, &req, n, dMax); a.Do != None {
		return s.end(a)
	}
	pl, err := mechanism.PlanShape(req, n, dMax)
	if err != nil {
		return s.end(refuseErr("csv", err))
	}
	act := Action{Do: Time, Plan: pl}
	if pl.FixedWork {
		off := false
		alt := req
		alt.FixedWork = &off
		if ap, err := mechanism.PlanShape(alt, n, dMax); err == nil {
			act.Alt = &ap
		}
	}
	p.Step = Timing
	return s, act
}

// findSpec is the release of the blank ranges (describe({csv, columns}) of
// their columns) or, when a text feature's categories are blank, of every
// column of the file (describe({csv}): one release for all, issue 42), or a
// refusal when the table is below the release's floor (n, d and the plan
// are public: nothing is spent).
func (s State) findSpec(blank, cats []string) (*FindSpec, Action) {
	p := s.Table.Profile
	f := &FindSpec{Columns: blank, Epsilon: PrivateEpsilon, Delta: s.budgetDelta(), Key: s.Ledger.Key}
	d := len(blank)
	if len(cats) > 0 {
		f.Columns, d = nil, len(p.Columns)
	}
	pl, err := domain.NewCellsPlan(p.Rows, d, PrivateEpsilon, f.Delta)
	if err != nil {
		return nil, refuseErr("budget", err)
	}
	switch {
	case len(cats) > 0 && p.Rows < pl.MinRows():
		return nil, refuse("categories."+cats[0], fmt.Sprintf("Too few rows to find ranges and categories privately: n = %d, but at ε = %g describing the "+
			"file's %d columns needs about %d rows. Type the ranges and the categories. Nothing was spent.", p.Rows, float64(PrivateEpsilon), len(p.Columns), pl.MinRows()))
	case p.Rows < pl.MinRows():
		return nil, refuse("ranges."+blank[0], fmt.Sprintf("Too few rows to find ranges privately: n = %d, but at ε = %g a column needs about %d of its values "+
			"within one factor of 4 to clear the noise. Type the ranges of %s — bounds known without looking at the data. "+
			"Nothing was spent.", p.Rows, float64(PrivateEpsilon), pl.MinRows(), strings.Join(blank, ", ")))
	case len(cats) > 0:
		f.Status = fmt.Sprintf("Finding the ranges and categories of %s privately (ε = %g of this table's budget)…", words.Count(len(p.Columns), "column"), float64(PrivateEpsilon))
	default:
		f.Status = fmt.Sprintf("Finding the ranges of %s privately (ε = %g of this table's budget)…", words.Count(len(blank), "column"), float64(PrivateEpsilon))
	}
	return f, Action{}
}

// findRelease is what f charges, planned as the worker plans it under l.
func (s State) findRelease(f *FindSpec, l *privacy.Ledger) (privacy.Release, error) {
	p := s.Table.Profile
	d := len(f.Columns)
	if f.Columns == nil {
		d = len(p.Columns)
	}
	pl, err := domain.PlanCellsFor(p.Rows, d, f.Epsilon, f.Delta, l)
	return pl.Charge(), err
}

// budgetFits checks the press's releases against the table's budget before
// anything is charged: the ranges' release (find, when something is blank)
// and then the model's (req on n rows of d features), together. A refusal
// names the budget.
func (s State) budgetFits(find *FindSpec, req *mechanism.Request, n, d int) Action {
	l, err := s.ledgerOf()
	if err != nil {
		return refuseErr("budget", err)
	}
	if find != nil {
		rel, err := s.findRelease(find, l)
		if err != nil {
			return refuseErr("budget", err)
		}
		c, err := l.Check(rel)
		if err != nil {
			return refuseErr("budget", err)
		}
		if !c.Fits {
			a := refuse("budget", RefusalText(&c, ""))
			a.Check = &c
			return a
		}
		if _, err := l.Charge(rel); err != nil { // on the copy: the model is checked after it
			return refuseErr("budget", err)
		}
	}
	if req == nil {
		return Action{}
	}
	pl, err := mechanism.PlanChargedShape(*req, n, d, l)
	if err != nil {
		return refuseErr("budget", err)
	}
	if c := pl.Ledger; c != nil && !c.Fits {
		after := ""
		if find != nil {
			after = fmt.Sprintf("finding the blank ranges privately (ε = %g)", find.Epsilon)
		}
		a := refuse("budget", RefusalText(c, after))
		a.Check = c
		return a
	}
	return Action{}
}

// timed decides on the run's time: refused over the page's limit, asked
// again when long (a second press starts it), said when it is more than a
// moment; then the ranges' release, or the run.
func (s State) timed(e Timed) (State, Action) {
	p := s.Press
	if p == nil || p.Step != Timing {
		return s, Action{}
	}
	if !math.IsNaN(e.Seconds) {
		without := ""
		if e.Without < e.Seconds/1.5 {
			without = fmt.Sprintf(" Without fixed work (untick “hide the run time”) it would take %s.", words.About(e.Without))
		}
		key := fmt.Sprintf("%d %s %g %g", p.Rows, s.runKey(), e.Seconds, e.Without)
		switch {
		case e.Seconds > MaxRunSeconds:
			s.Work = strings.TrimSpace(without)
			return s.end(refuse("run", fmt.Sprintf("the table: this run would take %s on this device (%s), and the page stops at %d min: "+
				"%s (a table of about %s would fit)", words.About(e.Seconds), e.Words, MaxRunSeconds/60, s.faster(), words.Count(e.FitMax, "row"))))
		case e.Seconds >= ConfirmSeconds && s.Asked.LongRun != key:
			s.Asked.LongRun = key
			msg := fmt.Sprintf("This run will take %s on this device (%s). Press Run again to start it, "+
				"or %s (a table of about %s runs in a minute).%s", words.About(e.Seconds), e.Words, s.faster(), words.Count(e.Fit60, "row"), without)
			s.Work = msg
			return s.end(ask("run", msg))
		}
		s.Asked.LongRun = ""
		if e.Seconds >= WarnSeconds {
			s.Work = fmt.Sprintf("This run takes %s on this device (%s).", words.About(e.Seconds), e.Words)
		}
	}
	if p.Find != nil {
		p.Step = Finding
		return s, Action{Do: Find, Find: p.Find}
	}
	return s.run()
}

// faster is what the form itself offers to make a run faster (issue 53
// item 7: no advice without a control): DP-GD, whose time grows with the
// rows rather than their square, for a supervised loss drawn by Algorithm
// 1; a smaller ε (fewer steps) otherwise.
func (s State) faster() string {
	if m, on := s.EstimatorShown(); on && m != string(mechanism.EstimatorDPGD) {
		return "choose the DP-GD estimator (its time grows with the rows, not with their square), or lower ε"
	}
	return "lower ε (fewer steps)"
}

// runKey names the run the form describes (a long run's confirmation holds
// for it alone).
func (s State) runKey() string {
	o := s.runParse()
	return fmt.Sprintf("%v|%s|%s|%s|%s|%s|%s|%d|%v", o, s.Choice.Loss, s.Choice.Epsilon, s.Radius(), s.Choice.Rank, s.Choice.Samples,
		s.Choice.Estimator, s.Choice.Workers, s.Choice.FixedWork)
}

// found keeps what the ranges' release found, tied to its release, then
// goes on to the run (coding the text features from their lists first).
func (s State) found(e Found) (State, Action) {
	p := s.Press
	if p == nil || p.Step != Finding {
		return s, Action{}
	}
	if e.Ledger != nil {
		s.Ledger.State = e.Ledger
	}
	if e.Ledger != nil && len(e.Ledger.History) > 0 && e.Release != "" {
		p.Charged = true
	}
	if e.Err != nil {
		field := "ranges"
		if len(p.Find.Columns) > 0 {
			field = "ranges." + p.Find.Columns[0]
		}
		return s.end(refuse(field, e.Err.Error()))
	}
	p.Charged = true
	f := p.Find
	for _, col := range e.Columns {
		ci, ok := s.column(col.Name)
		switch {
		case ok && ci.Kind == dataset.KindText:
			s.FoundCats[col.Name] = FoundCats{Labels: col.Categories, Other: col.Other, Epsilon: f.Epsilon, Delta: f.Delta, Release: e.Release, Table: e.Table}
		case !ok || !usable(ci):
		default:
			// Every blank column keeps what the release gave, so that the
			// next press finds nothing blank and charges nothing for
			// ranges again (issue 40 item 4); a column whose mode did not
			// clear the noise (Resolution "none") is kept too, and says so
			// (PrivateNote). A typed range is never replaced.
			if d, _ := s.Range(col.Name); !d.blank() {
				continue
			}
			lo, hi := NiceRange(col.Lo, col.Hi, col.Step)
			fr := FoundRange{Col: col.Column, Epsilon: f.Epsilon, Delta: f.Delta, Resolution: col.Resolution, Release: e.Release, Table: e.Table}
			s.Choice.Ranges[col.Name] = Declared{Lo: lo, Hi: hi, From: &fr}
		}
	}
	if p.FindOnly {
		return s.end(Action{Do: Done, Text: "Ranges found privately."})
	}
	if f.Columns == nil && len(s.TextFeatures()) > 0 {
		p.Step = Reparsing // the text features are coded from the lists found
		opt := s.runParse()
		return s, Action{Do: Prepare, Parse: &opt}
	}
	return s.run()
}

// run is the model's run, once nothing is blank.
func (s State) run() (State, Action) {
	p := s.Press
	spec, err := s.RunSpec(p.Rows)
	if err != nil {
		return s.end(refuseErr("csv", err))
	}
	p.Step = Running
	return s, Action{Do: Run, Run: spec}
}

// ran ends the press with the run's answer.
func (s State) ran(e Ran) (State, Action) {
	p := s.Press
	if p == nil || p.Step != Running {
		return s, Action{}
	}
	if e.Ledger != nil {
		s.Ledger.State = e.Ledger
	}
	switch {
	case e.Err == nil:
		return s.end(Action{Do: Show})
	case e.Aborted:
		return s.end(Action{Do: Done, Text: "Cancelled — and charged to this table's budget all the same (a cancelled run may already have revealed something)."})
	}
	return s.end(refuse("run", e.Err.Error()))
}
