package form

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/dpsample/dpsample/core/dataset"
	"github.com/dpsample/dpsample/core/domain"
	"github.com/dpsample/dpsample/core/loss"
	"github.com/dpsample/dpsample/core/mechanism"
	"github.com/dpsample/dpsample/core/privacy"
	"github.com/dpsample/dpsample/wasm/ui/internal/words"
)

// What the form shows, derived from the state: the view renders these and
// keeps nothing of its own.

// Columns are the table's column names (a CSV's profile's, a built-in's).
func (s State) Columns() []string {
	if b := s.Table.Builtin; b != nil {
		return b.Columns
	}
	if s.Table.Profile == nil {
		return nil
	}
	out := make([]string, len(s.Table.Profile.Columns))
	for i, c := range s.Table.Profile.Columns {
		out[i] = c.Name
	}
	return out
}

// column is a CSV column's profile.
func (s State) column(name string) (dataset.ColumnInfo, bool) {
	if s.Table.Builtin != nil || s.Table.Profile == nil {
		return dataset.ColumnInfo{}, false
	}
	return s.Table.Profile.Column(name)
}

// ProfileColumn is a CSV column's profile (false for a built-in, or while
// the profile is being read).
func (s State) ProfileColumn(name string) (dataset.ColumnInfo, bool) { return s.column(name) }

// IsText reports whether c is a text column of the CSV shown (one-hot coded
// when ticked as a feature).
func (s State) IsText(c string) bool {
	ci, ok := s.column(c)
	return ok && ci.Kind == dataset.KindText
}

// usable reports whether a CSV column is a feature with a range (numbers; a
// mixed column is offered so that its bad cell is reported, not hidden).
func usable(c dataset.ColumnInfo) bool {
	return c.Kind == dataset.KindNumeric || c.Kind == dataset.KindMixed
}

// The tasks a CSV's target column suggests (issue 23): fast (exact
// first-order sampler) — a logistic classifier, whose score is a log-odds,
// and a smooth median regression, robust like the median regression it
// smooths.
const (
	CSVClassifier = loss.Logistic
	CSVRegression = loss.SmoothQuantile
)

// taskFor is the task a CSV's target column suggests.
func taskFor(c dataset.ColumnInfo) loss.Kind {
	if c.Kind == dataset.KindText || (c.Kind == dataset.KindNumeric && len(c.Labels) == 2) {
		return CSVClassifier
	}
	return CSVRegression
}

// autoTask is the task the target column suggests (a centre when the file
// has no second column with values to predict from).
func (s State) autoTask(target string) loss.Kind {
	n := 0
	for _, c := range s.Table.Profile.Columns {
		if c.Kind != dataset.KindEmpty {
			n++
		}
	}
	c, ok := s.Table.Profile.Column(target)
	if !ok || n < 2 {
		return loss.L1
	}
	return taskFor(c)
}

// Targets are the target picklist's options (empty for a centre).
func (s State) Targets() []string {
	l := s.Choice.Loss
	if !l.Supervised() && !s.AwaitsTarget() {
		return nil
	}
	if b := s.Table.Builtin; b != nil {
		if l.Classification() {
			return []string{b.Target}
		}
		var out []string
		for _, c := range b.Columns {
			if _, ok := b.Ranges[c]; ok {
				out = append(out, c)
			}
		}
		return out
	}
	// Every column with values may be the target, whatever the task (issue
	// 45 item 1): choosing one suggests the task.
	var out []string
	if p := s.Table.Profile; p != nil {
		for _, c := range p.Columns {
			if c.Kind != dataset.KindEmpty {
				out = append(out, c.Name)
			}
		}
	}
	return out
}

// Target is the chosen target ("" for a centre, or none chosen).
func (s State) Target() string {
	if !s.Choice.Loss.Supervised() {
		return ""
	}
	return s.Choice.Target
}

// FeatureBox is one feature checkbox as the form shows it.
type FeatureBox struct {
	Index    int // the column's place among those offered (its checkbox's id)
	Col      string
	Checked  bool
	Disabled bool   // an empty column: nothing to learn from
	Kind     string // the CSV column's kind ("" for a built-in)
}

// FeatureBoxes are the features offered: a built-in's declared ones, or a
// CSV's columns (text ones offered, unticked at first; empty ones shown but
// not offered), without the target. A column keeps the person's last choice
// for it; the others start at the default.
func (s State) FeatureBoxes() []FeatureBox {
	var out []FeatureBox
	target := s.Target()
	if b := s.Table.Builtin; b != nil {
		choices := b.Features
		if choices == nil {
			for _, c := range b.Columns {
				if c != b.Target {
					choices = append(choices, c)
				}
			}
		}
		for i, c := range choices {
			if c == target {
				continue
			}
			on, ok := s.Choice.Features[c]
			if !ok {
				on = slices.Contains(b.Ticked, c)
			}
			out = append(out, FeatureBox{Index: i, Col: c, Checked: on})
		}
		return out
	}
	if s.Table.Profile == nil {
		return nil
	}
	for i, c := range s.Table.Profile.Columns {
		if c.Name == target {
			continue
		}
		on, ok := s.Choice.Features[c.Name]
		if !ok {
			on = usable(c)
		}
		empty := c.Kind == dataset.KindEmpty
		out = append(out, FeatureBox{Index: i, Col: c.Name, Checked: on && !empty, Disabled: empty, Kind: c.Kind})
	}
	return out
}

// Features are the ticked features, in the table's order.
func (s State) Features() []string {
	var out []string
	for _, f := range s.FeatureBoxes() {
		if f.Checked && !f.Disabled {
			out = append(out, f.Col)
		}
	}
	return out
}

// TextFeatures are the ticked features that are text columns.
func (s State) TextFeatures() []string {
	var out []string
	for _, c := range s.Features() {
		if s.IsText(c) {
			out = append(out, c)
		}
	}
	return out
}

// ShownColumns are the columns whose ranges the form shows: the ticked
// numeric features and a regression's target.
func (s State) ShownColumns() []string {
	var cols []string
	for _, c := range s.Features() {
		if !s.IsText(c) {
			cols = append(cols, c)
		}
	}
	if l := s.Choice.Loss; l.Supervised() && !l.Classification() && s.Target() != "" {
		cols = append(cols, s.Target())
	}
	return cols
}

// Range is column c's range as the inputs show it: typed, or found on this
// table (its release held by the table's ledger); ok is false when the
// inputs are blank for it (nothing declared, or found on another table or
// before a reset: issue 41 item 1, issue 51 item 4).
func (s State) Range(c string) (d Declared, ok bool) {
	d, ok = s.Choice.Ranges[c]
	if !ok {
		return Declared{}, false
	}
	if d.From != nil && d.From.HeldIn(s.Ledger.State) == nil {
		return Declared{}, false
	}
	return d, true
}

// blank reports whether both ends of a declared range are blank.
func (d Declared) blank() bool { return strings.TrimSpace(d.Lo) == "" && strings.TrimSpace(d.Hi) == "" }

// BlankColumns are the shown columns whose range has both ends blank.
func (s State) BlankColumns() []string {
	if s.Table.Builtin != nil {
		return nil // a built-in declares every range
	}
	var out []string
	for _, c := range s.ShownColumns() {
		if d, _ := s.Range(c); d.blank() {
			out = append(out, c)
		}
	}
	return out
}

// DeclaredRange is column c's range as declared (typed, or found on this
// table), checked; an error names the field ranges.<c>.
func (s State) DeclaredRange(c string) (dataset.Range, error) {
	d, _ := s.Range(c)
	return declaredRange("ranges."+c, d)
}

// unedited reports whether d is still the range its release found.
func (d Declared) unedited() bool {
	if d.From == nil {
		return false
	}
	lo, hi := NiceRange(d.From.Col.Lo, d.From.Col.Hi, d.From.Col.Step)
	return d.Lo == lo && d.Hi == hi
}

// PrivateNote is what a range input found privately on this table says
// under its label ("" for a typed one).
func (s State) PrivateNote(c string) string {
	d, ok := s.Range(c)
	if !ok || d.From == nil {
		return ""
	}
	p := d.From
	switch {
	case !d.unedited():
		return fmt.Sprintf("found privately (ε = %g), then edited by you", p.Epsilon)
	case p.Resolution == domain.ResolutionNone:
		// Issue 40 item 4: kept and not paid for again, but said to be wide.
		return fmt.Sprintf("found privately (ε = %g) — a wide guess: too few values shared one order of magnitude; type a bound if you know one", p.Epsilon)
	}
	return fmt.Sprintf("found privately (ε = %g)", p.Epsilon)
}

// foundShown reports whether a shown column's range was found privately on
// this table (edited or not).
func (s State) foundShown() bool {
	for _, c := range s.ShownColumns() {
		if d, ok := s.Range(c); ok && d.From != nil {
			return true
		}
	}
	return false
}

// Used is one text feature of a run: its labels and where they came from.
type Used struct {
	Col    string
	Labels []string // empty: found privately, no category had enough rows (the column is left out)
	Typed  bool
	Found  FoundCats // when not typed
	// Reference is the label coded as all zeros, its column left out
	// (data.parseCSV's reference, issue 53 item 2); "" when every label has
	// its column (a list of fewer than two).
	Reference string
}

// ParseList reads a typed list of labels: comma-separated, each trimmed.
// typed is false for a blank field (the list is then found privately); a
// field holding only separators is an empty list, an error naming
// categories.<col>. A label that never occurs in the file is fine: the list
// is public.
func ParseList(col, raw string) (labels []string, typed bool, err error) {
	if strings.TrimSpace(raw) == "" {
		return nil, false, nil
	}
	for _, l := range strings.Split(raw, ",") {
		if l = strings.TrimSpace(l); l != "" {
			labels = append(labels, l)
		}
	}
	if len(labels) == 0 {
		return nil, true, errorf("categories."+col, "a non-empty list of labels, comma-separated (an empty list codes nothing; leave the field blank to find them privately)")
	}
	return labels, true, nil
}

// CatLists resolves the text features against the table's ledger: a typed
// list wins (checked by ParseList); else a found list whose release the
// ledger holds; else the column is blank (to be found privately). cats are
// the lists as data.parseCSV's categories (without the columns whose found
// list is empty); err is the first typed list in error.
func (s State) CatLists() (cats map[string][]string, used []Used, blank []string, err error) {
	cats = map[string][]string{}
	for _, c := range s.TextFeatures() {
		labels, typed, e := ParseList(c, s.Choice.Cats[c])
		switch f, ok := s.FoundCats[c]; {
		case e != nil:
			if err == nil {
				err = e
			}
		case typed:
			cats[c] = labels
			used = append(used, Used{Col: c, Labels: labels, Typed: true})
		case ok && f.HeldIn(s.Ledger.State) != nil:
			if len(f.Labels) > 0 {
				cats[c] = f.Labels
			}
			used = append(used, Used{Col: c, Labels: f.Labels, Found: f})
		default:
			blank = append(blank, c)
		}
	}
	return cats, used, blank, err
}

// BlankCats are the text features with neither a typed list nor one found
// on this table's ledger.
func (s State) BlankCats() []string {
	_, _, blank, _ := s.CatLists()
	return blank
}

// CatNote is what a text feature's field says under its label: its list
// found privately on this table ("" otherwise, or when a list is typed).
func (s State) CatNote(col string) string {
	f, ok := s.FoundCats[col]
	if !ok || f.HeldIn(s.Ledger.State) == nil || strings.TrimSpace(s.Choice.Cats[col]) != "" {
		return ""
	}
	if len(f.Labels) == 0 {
		return fmt.Sprintf("no category has enough rows (found privately, ε = %g): the column is left out of the model — type its labels to use it", f.Epsilon)
	}
	other := ""
	if f.Other {
		other = "; other rows code as all zeros"
	}
	return fmt.Sprintf("found privately (ε = %g): %s%s", f.Epsilon, strings.Join(f.Labels, ", "), other)
}

// OneHotDims is what the one-hot blocks of cats add to a row beyond one
// column each: docs/DEFAULTS.md counts a block (norm 1 or 0) as one column
// of the clip √(numeric columns + blocks + 1). Without reference coding;
// BlockDims is the same count with it.
func OneHotDims(cats map[string][]string) int { return BlockDims(cats, nil) }

// BlockDims is OneHotDims when the features of reference are coded against
// a reference label (issue 53 item 2): such a block has one column fewer,
// len(labels) − 1, and its norm is still 1 or 0 (the reference, an unlisted
// label and a missing cell code as zeros), so it too counts as one column of
// the clip and adds len(labels) − 2 beyond it.
func BlockDims(cats map[string][]string, reference map[string]string) int {
	n := 0
	for c, l := range cats {
		n += len(l) - 1
		if _, ok := reference[c]; ok {
			n--
		}
	}
	return n
}

// References are the text features' reference labels for treatment coding
// (issue 53 item 2) — the first of each list: a found list is ordered most
// frequent first by its released noisy counts, so that is the most frequent
// released label (post-processing of the release); a typed list's first
// label is the owner's choice. A feature with fewer than two labels has
// none (one label as the reference would code nothing). It sets each used
// feature's Reference, and returns them as data.parseCSV's reference.
func References(used []Used) map[string]string {
	out := map[string]string{}
	for i := range used {
		used[i].Reference = ""
		if len(used[i].Labels) >= 2 {
			used[i].Reference = used[i].Labels[0]
			out[used[i].Col] = used[i].Labels[0]
		}
	}
	return out
}

// listed is the feature's labels for the statement, the reference named.
func (u Used) listed() string {
	var ls []string
	for _, l := range u.Labels {
		if l == u.Reference {
			l += " = reference"
		}
		ls = append(ls, l)
	}
	return strings.Join(ls, ", ")
}

// OneHot are the coded columns' names (name=label, as data.parseCSV names
// them).
func OneHot(cats map[string][]string) map[string]bool {
	out := map[string]bool{}
	for c, ls := range cats {
		for _, l := range ls {
			out[c+"="+l] = true
		}
	}
	return out
}

// Radius is the C field's value: the person's, or the public rule of
// mechanism.DefaultRadius for the loss and the ticked features (rows are
// clipped to √dim and targets scaled to [−1, 1]; docs/DEFAULTS.md).
func (s State) Radius() string {
	if !s.Choice.RadiusAuto {
		return s.Choice.Radius
	}
	l := s.Choice.Loss
	dim := len(s.Features())
	if l.Supervised() {
		dim++ // the intercept
	}
	return strconv.FormatFloat(mechanism.DefaultRadius(l, math.Sqrt(float64(max(dim, 1))), nil), 'g', 3, 64)
}

// EstimatorShown is the estimator select's value and whether it is enabled:
// DP-GD is offered for a supervised loss only (a centre is drawn by
// Algorithm 1), at docs/DEFAULTS.md's rule until the person chooses — for a
// CSV, the rule for its row count and ranges (EstimatorFor: what a run
// draws by, so the select shows what ran).
func (s State) EstimatorShown() (method string, enabled bool) {
	l := s.Choice.Loss
	if !l.Supervised() {
		return string(mechanism.EstimatorExponential), false
	}
	if s.Choice.Estimator != "" {
		return s.Choice.Estimator, true
	}
	return string(mechanism.RecommendedEstimatorFor(l, s.Rows(), s.privateRanges())), true
}

// privateRanges reports whether a run's ranges are, in part, found
// privately: found on this table already, or blank (the press finds them
// before the model) — the small-table rule's "found"
// (mechanism.RecommendedEstimatorFor), the same before the find (when the
// run is timed) as after it (when it runs).
func (s State) privateRanges() bool {
	return s.foundShown() || len(s.BlankColumns()) > 0
}

// EstimatorFor is the estimator of a run on n rows: the person's choice, or
// for a supervised loss the study's rule for that loss, n and whether a
// range is found privately (privateRanges; mechanism.RecommendedEstimatorFor,
// issue 40).
func (s State) EstimatorFor(n int) string {
	if l := s.Choice.Loss; l.Supervised() && s.Choice.Estimator == "" {
		return string(mechanism.RecommendedEstimatorFor(l, n, s.privateRanges()))
	}
	m, _ := s.EstimatorShown()
	return m
}

// Rows is the table's data-row count as the page knows it before a run (a
// CSV's profile; 0 for a built-in or while unknown).
func (s State) Rows() int {
	if s.Table.Profile != nil && s.Table.Builtin == nil {
		return s.Table.Profile.Rows
	}
	return 0
}

// DefaultDelta is the page's δ (a run's and a table budget's, and the
// default of their fields: RowsDeltaText(0)) for tables of up to 10⁴ rows
// (docs/DEFAULTS.md).
const DefaultDelta = 1e-5

// RowsDelta is the δ the page offers for a table of n rows: DefaultDelta
// while it is at most 1/(10n), else the power of ten at or below 1/(10n) —
// δ ≪ 1/n, as DP asks (checks.DeltaForN refuses δ ≥ 1/n: at 10⁵ rows the
// default 10⁻⁵ was refused and a newcomer had two fields to change before a
// first run, issue 43 item 5). The row count is public (replace-one
// neighbours: docs/PRIVACY.md), so the choice spends nothing.
func RowsDelta(n int) float64 {
	if n <= 0 || DefaultDelta <= 1/(10*float64(n)) {
		return DefaultDelta
	}
	return math.Pow(10, math.Floor(math.Log10(1/(10*float64(n)))))
}

// RowsDeltaText is RowsDelta(n) as the δ fields show it ("1e-6").
func RowsDeltaText(n int) string { return TrimFloat(RowsDelta(n)) }

// TrimFloat prints a budget value as typed (1e-05 → 1e-5).
func TrimFloat(x float64) string {
	s := fmt.Sprint(x)
	if i := strings.Index(s, "e-0"); i >= 0 {
		s = s[:i] + "e-" + s[i+3:]
	}
	return s
}

// DeltaField is the run's δ field's value and the note under it: the
// person's, or the page's δ for the table's rows (RowsDelta) with why it
// moved.
func (s State) DeltaField() (value, note string) {
	if !s.Choice.DeltaAuto {
		return s.Choice.Delta, ""
	}
	n := s.Rows()
	d := RowsDeltaText(n)
	if d != RowsDeltaText(0) {
		note = fmt.Sprintf("set to %s for %s: δ must stay well below 1/n", d, words.Count(n, "row")) // "100 000 rows", as the page writes a row count
	}
	return d, note
}

// NiceRange writes [lo, hi] rounded outwards to a grid a tenth of the step
// (or finer): short numbers that still contain the range found.
func NiceRange(lo, hi, step float64) (string, string) {
	g := math.Pow(10, math.Floor(math.Log10(step/10)))
	if !(g > 0) || math.IsInf(g, 0) || math.IsInf(lo/g, 0) || math.IsInf(hi/g, 0) || math.Abs(lo/g) > 1e15 || math.Abs(hi/g) > 1e15 {
		return strconv.FormatFloat(lo, 'g', -1, 64), strconv.FormatFloat(hi, 'g', -1, 64)
	}
	l, h := math.Floor(lo/g)*g, math.Ceil(hi/g)*g
	if !(l < h) {
		return strconv.FormatFloat(lo, 'g', -1, 64), strconv.FormatFloat(hi, 'g', -1, 64)
	}
	return strconv.FormatFloat(l, 'g', 12, 64), strconv.FormatFloat(h, 'g', 12, 64)
}

// Found are the shown columns found privately on this table, with their
// findings (the private panel: their medians and quartiles).
func (s State) Found() (names []string, cols []FoundRange) {
	for _, c := range s.ShownColumns() {
		if d, ok := s.Range(c); ok && d.unedited() {
			names, cols = append(names, c), append(cols, *d.From)
		}
	}
	return names, cols
}

// ledgerOf is the table's ledger restored (a fresh one at the budget's
// fields when the table has none yet), to check releases on; nothing is
// charged to the page's.
func (s State) ledgerOf() (*privacy.Ledger, error) {
	if st := s.Ledger.State; st != nil && st.Key == s.Ledger.Key {
		var reg privacy.Registry
		return reg.Restore(*st)
	}
	if s.Ledger.BudgetErr != "" {
		return nil, plainError(s.Ledger.BudgetErr)
	}
	return privacy.NewLedger(s.Ledger.Epsilon, s.Ledger.Delta)
}
