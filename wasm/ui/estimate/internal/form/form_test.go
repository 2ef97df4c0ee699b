package form

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/dpsample/dpsample/core/dataset"
	"github.com/dpsample/dpsample/core/loss"
	"github.com/dpsample/dpsample/core/mechanism"
	"github.com/dpsample/dpsample/core/privacy"
)

// Tables for the tests, generated (seeded): a person's small files.

// numericCSV is n rows of two measurements far from zero and a numeric
// target.
func numericCSV(n int, seed uint64) string {
	r := rand.New(rand.NewPCG(seed, 1))
	var b strings.Builder
	b.WriteString("age,height,income\n")
	for range n {
		age := 20 + r.IntN(60)
		h := 150 + 50*r.Float64()
		fmt.Fprintf(&b, "%d,%.1f,%.0f\n", age, h, 1000+30*float64(age)+r.NormFloat64()*200)
	}
	return b.String()
}

// mixedCSV is n rows with a text feature (region), a numeric one (age), an
// ID-like text column (id) and a yes/no label.
func mixedCSV(n int, seed uint64) string {
	r := rand.New(rand.NewPCG(seed, 2))
	var b strings.Builder
	b.WriteString("region,age,id,label\n")
	regions := []string{"north", "south", "east"}
	for i := range n {
		age := 18 + r.IntN(70)
		lab := "no"
		if r.Float64() < 0.3+0.005*float64(age-18) {
			lab = "yes"
		}
		fmt.Fprintf(&b, "%s,%d,p%05d,%s\n", regions[r.IntN(3)], age, i, lab)
	}
	return b.String()
}

// confirmTask chooses the last column as the target and the task the form
// suggests for it (as the Task select does).
func (p *page) confirmTask() {
	cols := p.st.Columns()
	p.event(TargetChosen{Col: cols[len(cols)-1]})
	p.event(LossChosen{Loss: p.st.Choice.Loss})
}

// TestTargetThenTaskAskedBeforeAnything (issue 53 item 1): no target is
// chosen for the person; the first press asks for one (nothing spent), the
// task is suggested from it and confirmed by the next press.
func TestTargetThenTaskAskedBeforeAnything(t *testing.T) {
	p := newPage(t, numericCSV(300, 1))
	if p.st.Target() != "" || !p.st.AwaitsTarget() || strings.Join(p.st.Targets(), ",") != "age,height,income" {
		t.Fatalf("target %q, targets %v: want none chosen, every column offered", p.st.Target(), p.st.Targets())
	}
	p.ranges("age", "0..120", "height", "100..250", "income", "0..10000")
	if a := p.press(); a.Do != Ask || a.Field != "target" || !strings.HasPrefix(a.Text, "Choose the column to predict first") || p.releases() != 0 {
		t.Fatalf("first press: %+v", a)
	}
	p.event(TargetChosen{Col: "income"})
	if p.st.Choice.Loss != CSVRegression {
		t.Fatalf("task %v for income, want the regression suggested", p.st.Choice.Loss)
	}
	a := p.press()
	if a.Do != Ask || a.Field != "loss" || !strings.HasPrefix(a.Text, "Check the task first: “regression: smooth median (fast), predicting income”") {
		t.Fatalf("first press: %+v", a)
	}
	if n := p.releases(); n != 0 {
		t.Fatalf("the question spent: %d releases", n)
	}
	if a := p.press(); a.Do != Show || p.releases() != 1 {
		t.Fatalf("the second press: %+v, %d releases", a, p.releases())
	}
	if a := p.press(); a.Do != Show || p.releases() != 2 {
		t.Fatalf("a third press: %+v, %d releases (one more each)", a, p.releases())
	}
}

func TestBlankRangesFoundOnce(t *testing.T) {
	p := newPage(t, numericCSV(600, 2))
	p.confirmTask()
	if got := p.st.BlankColumns(); strings.Join(got, ",") != "age,height,income" {
		t.Fatalf("blank %v", got)
	}
	if !strings.HasPrefix(p.st.CostLine(), "Blank ranges (age, height, income) will be found privately") {
		t.Errorf("cost line %q", p.st.CostLine())
	}
	if a := p.press(); a.Do != Show || p.founds() != 1 || p.releases() != 2 {
		t.Fatalf("press: %+v, %d finds, %d releases (want the ranges, then the model)", a, p.founds(), p.releases())
	}
	for _, c := range []string{"age", "height", "income"} {
		d, ok := p.st.Range(c)
		if !ok || d.From == nil || d.From.Table != p.key() || !strings.HasPrefix(p.st.PrivateNote(c), "found privately (ε = 1)") {
			t.Errorf("%s: %+v %v, note %q", c, d, ok, p.st.PrivateNote(c))
		}
	}
	if a := p.press(); a.Do != Show || p.founds() != 0 || p.releases() != 3 {
		t.Fatalf("second press: %+v, %d finds, %d releases (the ranges are not paid for twice)", a, p.founds(), p.releases())
	}
}

// TestBudgetBeforeRanges: a model the budget cannot pay for after the
// ranges is refused before the ranges are paid for (0.6: the ranges were
// charged, then the run refused).
func TestBudgetBeforeRanges(t *testing.T) {
	p := newPage(t, numericCSV(600, 3))
	p.budget = [2]float64{1.2, 1e-5}
	p.event(LedgerSeen{Ledger: p.ledgerSeen()})
	p.confirmTask()
	a := p.press()
	if a.Do != Refuse || a.Field != "budget" || !strings.HasPrefix(a.Text, "Not run, and nothing spent: finding the blank ranges privately (ε = 1) and then this run do not fit") {
		t.Fatalf("press: %+v", a)
	}
	if p.releases() != 0 || a.Check == nil {
		t.Fatalf("%d releases, check %v", p.releases(), a.Check)
	}
	p.event(NumberTyped{Field: "epsilon", Text: "0.3"})
	if a := p.press(); a.Do != Show || p.releases() != 2 {
		t.Fatalf("at ε = 0.3: %+v, %d releases", a, p.releases())
	}
}

// TestRowsCheckedBeforeRanges: the rows' own errors (a bad cell in a
// numeric column) are found before the ranges are paid for (issue 51: press
// 3 on UScereal paid ε = 1 for ranges, then refused its missing cells).
func TestRowsCheckedBeforeRanges(t *testing.T) {
	csv := strings.Replace(numericCSV(400, 4), "\n", "\n30,n/k,1500\n", 1)
	p := newPage(t, csv)
	p.confirmTask()
	a := p.press()
	if a.Do != Refuse || a.Field != "csv" || !strings.Contains(a.Text, `column "height"`) {
		t.Fatalf("press: %+v", a)
	}
	if p.releases() != 0 {
		t.Fatalf("%d releases before the refusal", p.releases())
	}
	p.event(FeaturesTicked{On: map[string]bool{"height": false}})
	if a := p.press(); a.Do != Show || p.releases() != 2 {
		t.Fatalf("with height unticked: %+v, %d releases", a, p.releases())
	}
}

// TestMissingCellsKeepN (issue 51 item 1): a table with empty cells runs as
// it is — n is its data-row count, a missing feature takes its range's
// middle, a row without its target weighs nothing — and a table and its
// neighbour with one cell emptied release the same n and the same plan.
func TestMissingCellsKeepN(t *testing.T) {
	base := numericCSV(300, 15)
	lines := strings.Split(base, "\n")
	emptied := func(row, col int) string {
		l := append([]string(nil), lines...)
		cells := strings.Split(l[row], ",")
		cells[col] = ""
		l[row] = strings.Join(cells, ",")
		return strings.Join(l, "\n")
	}
	var plans []string
	for _, csv := range []string{base, emptied(5, 0), emptied(9, 2)} {
		p := newPage(t, csv)
		p.confirmTask()
		p.ranges("age", "0..120", "height", "100..250", "income", "0..10000")
		if a := p.press(); a.Do != Show {
			t.Fatalf("press: %+v", a)
		}
		spec := p.acts[len(p.acts)-2].Run
		if spec.Rows != 300 || spec.Parse.Missing != "fill" {
			t.Fatalf("n = %d, parse %+v", spec.Rows, spec.Parse)
		}
		pl, err := mechanism.PlanShape(*p.lastRun, len(p.lastRun.X), len(p.lastRun.X[0]))
		if err != nil {
			t.Fatal(err)
		}
		b, _ := json.Marshal(pl)
		plans = append(plans, string(b))
	}
	if plans[0] != plans[1] || plans[0] != plans[2] {
		t.Errorf("a neighbour with one cell emptied has another plan:\n%s\n%s\n%s", plans[0], plans[1], plans[2])
	}
}

// TestLongRunAskedBeforeRanges: a long run is confirmed before the ranges
// are paid for; a run over the page's limit is refused before anything.
func TestLongRunAskedBeforeRanges(t *testing.T) {
	p := newPage(t, numericCSV(600, 5))
	p.confirmTask()
	p.seconds = 2 * MaxRunSeconds
	if a := p.press(); a.Do != Refuse || a.Field != "run" || !strings.Contains(a.Text, "the page stops at 60 min: lower ε") || p.releases() != 0 {
		t.Fatalf("over the limit: %+v, %d releases", a, p.releases())
	}
	p.seconds = 200
	a := p.press()
	if a.Do != Ask || a.Field != "run" || !strings.HasPrefix(a.Text, "This run will take about 3 min on this device") || p.releases() != 0 {
		t.Fatalf("long: %+v, %d releases", a, p.releases())
	}
	if p.st.Work == "" {
		t.Error("the long run's line is not said beside Run")
	}
	if a := p.press(); a.Do != Show || p.releases() != 2 {
		t.Fatalf("confirmed: %+v, %d releases", a, p.releases())
	}
	p.event(NumberTyped{Field: "epsilon", Text: "0.9"})
	if a := p.press(); a.Do != Ask {
		t.Fatalf("another run is confirmed again: %+v", a)
	}
}

// TestOneQuestionPositiveFirst (issue 53 item 5): a classifier with a text
// feature whose categories are blank and no positive label asks for the
// label — focused there — not for the categories, which Run finds.
func TestOneQuestionPositiveFirst(t *testing.T) {
	p := newPage(t, mixedCSV(500, 6))
	p.confirmTask()
	p.event(FeaturesTicked{On: map[string]bool{"region": true, "age": true}})
	if p.st.Target() != "label" || p.st.Choice.Loss != CSVClassifier {
		t.Fatalf("target %q task %v", p.st.Target(), p.st.Choice.Loss)
	}
	for range 2 {
		a := p.press()
		if a.Do != Refuse || a.Field != "positive" || !strings.HasPrefix(a.Text, "positive must be the label of label coded +1") {
			t.Fatalf("press: %+v", a)
		}
	}
	p.event(PositiveTyped{Col: "label", Label: "yes"})
	a := p.press()
	if a.Do != Show || p.founds() != 1 || p.releases() != 2 {
		t.Fatalf("with the label: %+v, %d finds, %d releases", a, p.founds(), p.releases())
	}
	if c := p.st.FoundCats["region"]; len(c.Labels) != 3 {
		t.Errorf("region's categories %v", c)
	}
	var prep int
	for _, x := range p.acts {
		if x.Do == Prepare {
			prep++
		}
	}
	if prep != 2 {
		t.Errorf("%d parses, want 2: the run's, then once more with region coded from its list", prep)
	}
}

func TestFloorBeforeCharge(t *testing.T) {
	p := newPage(t, numericCSV(20, 7))
	p.confirmTask()
	a := p.press()
	if a.Do != Refuse || a.Field != "ranges.age" || !strings.HasPrefix(a.Text, "Too few rows to find ranges privately: n = 20") || p.releases() != 0 {
		t.Fatalf("press: %+v, %d releases", a, p.releases())
	}
}

func TestNumbersNamed(t *testing.T) {
	p := newPage(t, numericCSV(100, 8))
	p.confirmTask()
	p.ranges("age", "0..120", "height", "100..250", "income", "0..10000")
	for _, c := range []struct{ field, text, want string }{
		{"epsilon", "0", "epsilon must be"},
		{"epsilon", "1,5", "epsilon must be a number written with a decimal point"},
		{"delta", "2", "delta must be"},
		{"radius", "-1", "radius must be"},
		{"samples", "0", "samples must be an integer in [1, 1000]"},
		{"rank", "2.5", "rank must be an integer"},
	} {
		q := *p
		q.st = p.st
		q.event(NumberTyped{Field: c.field, Text: c.text})
		if got := q.st.FieldError(c.field); !strings.HasPrefix(got, c.want) {
			t.Errorf("%s = %q: live error %q", c.field, c.text, got)
		}
		a := q.press()
		if a.Do != Refuse || a.Field != c.field || !strings.HasPrefix(a.Text, c.want) || q.releases() != 0 {
			t.Errorf("%s = %q: %+v", c.field, c.text, a)
		}
	}
	q := *p
	q.event(NumberTyped{Field: "rank", Text: "9"})
	if a := q.press(); a.Do != Refuse || a.Field != "rank" || q.releases() != 0 {
		t.Errorf("rank 9 > d = 3: %+v", a)
	}
}

// TestFoundRangeStaysWithTable (issue 51 item 4): a range found on table A
// and edited by hand is not filled in on a near-copy A′ (one cell changed):
// A′ finds its own, charged to its own budget.
func TestFoundRangeStaysWithTable(t *testing.T) {
	a := numericCSV(600, 9)
	p := newPage(t, a)
	p.confirmTask()
	if x := p.press(); x.Do != Show {
		t.Fatalf("A: %+v", x)
	}
	keyA := p.key()
	p.do(RangeTyped{Col: "age", Text: "10"}) // edited by hand
	d, ok := p.st.Range("age")
	if !ok || d.From == nil || !strings.HasSuffix(p.st.PrivateNote("age"), "then edited by you") {
		t.Fatalf("edited: %+v %v %q", d, ok, p.st.PrivateNote("age"))
	}
	b := strings.Replace(a, "\n", "\n33,170.0,2000\n", 1)
	p.load(b)
	if p.key() == keyA {
		t.Fatal("A′ has A's key")
	}
	if _, ok := p.st.Range("age"); ok {
		t.Fatal("the edited range of A is in A′'s inputs")
	}
	if x := p.press(); x.Do != Show || p.founds() != 1 || p.releases() != 2 {
		t.Fatalf("A′: %+v, %d finds, %d releases on A′", x, p.founds(), p.releases())
	}
	if m := p.st.Memory(); m == nil || m.Private["age"].Table != p.key() {
		t.Errorf("memory %+v", m)
	}
}

func TestCancelledRunSaysCharged(t *testing.T) {
	p := newPage(t, numericCSV(200, 10))
	p.confirmTask()
	p.ranges("age", "0..120", "height", "100..250", "income", "0..10000")
	p.runErr = errAborted
	a := p.press()
	if a.Do != Done || !strings.HasPrefix(a.Text, "Cancelled — and charged") || p.releases() != 1 || p.st.Press != nil {
		t.Fatalf("%+v, %d releases", a, p.releases())
	}
}

func TestPointlessAskedOnce(t *testing.T) {
	p := newPage(t, mixedCSV(300, 11))
	p.confirmTask()
	p.ranges("age", "0..120")
	p.event(PositiveTyped{Col: "label", Label: "maybe"})
	a := p.press()
	if a.Do != Ask || a.Field != "positive" || !strings.HasPrefix(a.Text, "This run cannot learn anything: every row of label would be coded −1") {
		t.Fatalf("%+v", a)
	}
	if a := p.press(); a.Do != Show || p.releases() != 1 {
		t.Fatalf("the second press runs it: %+v", a)
	}
}

func TestMemoryRoundTrip(t *testing.T) {
	p := newPage(t, numericCSV(600, 12))
	p.event(TargetChosen{Col: "income"})
	p.press() // the task is asked
	p.press() // and confirmed: remembered
	p.ranges("height", "100..250")
	m := p.st.Memory()
	if m == nil || m.Task != "smooth-quantile|income" || m.Private["age"].Release == "" || m.Ranges["height"] != [2]string{"100", "250"} {
		t.Fatalf("memory %+v", m)
	}
	q := initialState()
	q.Ledger = p.st.Ledger
	q, _ = Update(q, DatasetChosen{User: true})
	q, _ = Update(q, TextChanged{Loaded: true})
	q, _ = Update(q, Profiled{Profile: p.st.Table.Profile, Memory: m})
	for _, c := range []string{"age", "height", "income"} {
		x, xok := q.Range(c)
		y, yok := p.st.Range(c)
		if xok != yok || x.Lo != y.Lo || x.Hi != y.Hi || (x.From == nil) != (y.From == nil) || (x.From != nil && *x.From != *y.From) {
			t.Errorf("%s recalled %+v, want %+v", c, x, y)
		}
	}
	if q.Asked.TaskOK != "smooth-quantile|income" {
		t.Errorf("task %q", q.Asked.TaskOK)
	}
}

// TestUpdatePure: Update never writes the state it is given.
func TestUpdatePure(t *testing.T) {
	p := newPage(t, mixedCSV(300, 13))
	for _, e := range []Event{FeaturesTicked{On: map[string]bool{"region": true}}, RangeTyped{Col: "age", Text: "1"}, PositiveTyped{Col: "label", Label: "yes"},
		CatsTyped{Col: "region", Text: "north"}, NumberTyped{Field: "delta", Text: "1e-6"}, Forgot{}, Pressed{}} {
		before := p.st
		snap := dump(before)
		Update(before, e)
		if dump(before) != snap {
			t.Errorf("%T changed the state it was given", e)
		}
	}
}

// dump writes a state with its maps and the press it points to.
func dump(s State) string {
	p := ""
	if s.Press != nil {
		p = fmt.Sprintf("%+v", *s.Press)
	}
	return fmt.Sprintf("%+v %+v %+v %+v %s", s.Choice, s.FoundCats, s.Asked, s.Table, p)
}

func TestParseList(t *testing.T) {
	if l, typed, err := ParseList("region", "  "); l != nil || typed || err != nil {
		t.Errorf("blank: %v %v %v, want untyped (found privately)", l, typed, err)
	}
	if l, typed, err := ParseList("region", " north, south ,,east "); err != nil || !typed || strings.Join(l, "|") != "north|south|east" {
		t.Errorf("list: %q %v %v", l, typed, err)
	}
	_, typed, err := ParseList("region", " , ")
	if err == nil || !typed || !strings.HasPrefix(err.Error(), "categories.region must be a non-empty list of labels") {
		t.Errorf("empty list: typed %v, error %v", typed, err)
	}
}

// TestCatLists: a typed list wins over a found one; a found list counts
// only while the table's ledger holds its release (else the column is
// blank, to be found on this table); a found empty list is used (said) but
// codes nothing; the first typed list in error is returned.
func TestCatLists(t *testing.T) {
	p := newPage(t, "region,id,plan,sex,site,y\nn,p1,a,f,x,1\ns,p2,b,m,y,2\n")
	st := &privacy.LedgerState{Key: "k1", History: []privacy.Release{{ID: "r1", Epsilon: 1, Delta: 1e-5}}}
	s := p.st
	s.Ledger = Ledger{Key: "k1", State: st}
	s, _ = Update(s, FeaturesTicked{On: map[string]bool{"region": true, "id": true, "plan": true, "sex": true, "site": true}})
	s.FoundCats = map[string]FoundCats{
		"region": {Labels: []string{"north", "south"}, Epsilon: 1, Delta: 1e-5, Release: "r1", Table: "k1"},
		"id":     {Labels: nil, Epsilon: 1, Delta: 1e-5, Release: "r1", Table: "k1"},
		"plan":   {Labels: []string{"a"}, Release: "r0", Table: "k1"}, // a release this ledger does not hold
	}
	s.Choice.Cats = map[string]string{"sex": "f, m, x"}
	cats, used, blank, err := s.CatLists()
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][]string{"region": {"north", "south"}, "sex": {"f", "m", "x"}}
	if !reflect.DeepEqual(cats, want) {
		t.Errorf("categories %v, want %v", cats, want)
	}
	if strings.Join(blank, ",") != "plan,site" {
		t.Errorf("blank %q, want plan (its release is not held) and site", blank)
	}
	if len(used) != 3 || used[1].Col != "id" || len(used[1].Labels) != 0 || !used[2].Typed {
		t.Errorf("used %+v", used)
	}
	if got := OneHotDims(cats); got != 1+2 {
		t.Errorf("OneHotDims = %d, want 3", got)
	}
	other := s
	other.Ledger = Ledger{Key: "k2", State: &privacy.LedgerState{Key: "k2", History: st.History}}
	if _, _, blank, _ := other.CatLists(); len(blank) != 4 {
		t.Errorf("lists found on another table counted: blank %q", blank)
	}
	sc := CatsStatement(used, st)
	for _, w := range []string{"categories typed (public, no budget): sex (f, m, x)", "found privately by a separate (ε = 1, δ = 1e-05) release of the table's ranges and categories",
		"region (north, south)", "Left out: id — no category has enough rows"} {
		if !strings.Contains(sc, w) {
			t.Errorf("statement lacks %q: %q", w, sc)
		}
	}
	if sc := CatsStatement(used, &privacy.LedgerState{Key: "k2"}); strings.Contains(sc, "found privately") {
		t.Errorf("statement claims a release the ledger does not hold: %q", sc)
	}
	ex := CatsExport(used, st)
	if ex["sex"].(map[string]any)["source"] != "typed" || ex["region"].(map[string]any)["release"] != "r1" {
		t.Errorf("export %v", ex)
	}
	s.Choice.Cats["region"] = ","
	if _, _, _, err := s.CatLists(); err == nil || !strings.HasPrefix(err.Error(), "categories.region must") {
		t.Errorf("empty typed list: %v", err)
	}
}

// TestRowsDelta: the page's δ for a file of n rows is 1e-5 up to 10⁴ rows
// and then the power of ten at or below 1/(10n), always below 1/n.
func TestRowsDelta(t *testing.T) {
	for _, c := range []struct {
		n    int
		want string
	}{{0, "1e-5"}, {150, "1e-5"}, {569, "1e-5"}, {10_000, "1e-5"}, {10_001, "1e-6"}, {100_000, "1e-6"}, {100_001, "1e-7"}, {2_000_000, "1e-8"}} {
		got := RowsDelta(c.n)
		if s := RowsDeltaText(c.n); s != c.want {
			t.Errorf("RowsDelta(%d) = %s (%g), want %s", c.n, s, got, c.want)
		}
		if c.n > 0 && !(got < 1/float64(c.n)) {
			t.Errorf("RowsDelta(%d) = %g is not below 1/n", c.n, got)
		}
	}
}

func TestRadiusFollowsFeatures(t *testing.T) {
	p := newPage(t, numericCSV(50, 14))
	p.event(TargetChosen{Col: "income"})
	p.event(LossChosen{Loss: loss.Logistic})
	if got := p.st.Radius(); got != "9.24" { // 2 features + intercept: 16/√3
		t.Errorf("C = %q, want 9.24", got)
	}
	p.event(NumberTyped{Field: "radius", Text: "3"})
	p.event(FeaturesTicked{On: map[string]bool{"age": false}})
	if got := p.st.Radius(); got != "3" {
		t.Errorf("C typed 3 became %q", got)
	}
}

// TestFindButtonAlone: "Find ranges privately" charges the ranges' release
// and nothing else, after the same checks (its floor, the budget); a second
// press has nothing left to find.
func TestFindButtonAlone(t *testing.T) {
	p := newPage(t, numericCSV(400, 16))
	if a := p.event(FindPressed{}); a.Do != Done || a.Text != "Ranges found privately." || p.releases() != 1 {
		t.Fatalf("find: %+v, %d releases", a, p.releases())
	}
	if a := p.event(FindPressed{}); a.Do != Done || !strings.HasPrefix(a.Text, "Nothing is left to find") || p.releases() != 1 {
		t.Fatalf("again: %+v, %d releases", a, p.releases())
	}
	q := newPage(t, numericCSV(400, 16))
	q.budget = [2]float64{0.5, 1e-5}
	q.event(LedgerSeen{Ledger: q.ledgerSeen()})
	if a := q.event(FindPressed{}); a.Do != Refuse || a.Field != "budget" || q.releases() != 0 {
		t.Fatalf("over the budget: %+v", a)
	}
}

// TestReferenceCoding (issue 53 item 2): a text feature is coded against its
// reference — the first label of its list, the most frequent of a found
// one — whose column is left out; the clip counts the block as one column.
func TestReferenceCoding(t *testing.T) {
	p := newPage(t, mixedCSV(500, 17))
	p.confirmTask()
	p.event(FeaturesTicked{On: map[string]bool{"region": true, "age": true}})
	p.event(PositiveTyped{Col: "label", Label: "yes"})
	p.ranges("age", "0..120")
	p.event(CatsTyped{Col: "region", Text: "south, north, east"})
	if a := p.press(); a.Do != Show {
		t.Fatalf("press: %+v", a)
	}
	spec := p.acts[len(p.acts)-2].Run
	if spec.Parse.Reference["region"] != "south" || spec.OneHot["region=south"] || !spec.OneHot["region=north"] || len(spec.OneHot) != 2 {
		t.Errorf("reference %v, one-hot columns %v", spec.Parse.Reference, spec.OneHot)
	}
	if got := spec.Req.Clip; math.Abs(got-math.Sqrt(3)) > 1e-12 { // age, the region block, the intercept
		t.Errorf("clip %g, want √3", got)
	}
	if len(p.lastRun.X[0]) != 4 { // region=north, region=east, age, intercept
		t.Errorf("row of %d columns", len(p.lastRun.X[0]))
	}
	if s := CatsStatement(spec.Cats, p.st.Ledger.State); !strings.Contains(s, "region (south = reference, north, east)") || !strings.Contains(s, "codes like the reference") {
		t.Errorf("statement %q", s)
	}
}

// TestIndicatorAndLevel (issue 51 items 1 and 3): a feature with empty cells
// gets its 0/1 "was missing" column only when asked (at [−1, 1], the
// identity); a target's token declared a level codes as a label, else its
// rows have no target and are zeroed.
func TestIndicatorAndLevel(t *testing.T) {
	csv := strings.Replace(strings.Replace(mixedCSV(300, 18), ",no\n", ",None\n", 9), "\n", "\nnorth,,p9999,yes\n", 1)
	p := newPage(t, csv)
	p.confirmTask()
	p.event(FeaturesTicked{On: map[string]bool{"age": true}})
	p.event(PositiveTyped{Col: "label", Label: "yes"})
	p.ranges("age", "0..120")
	if a := p.press(); a.Do != Show {
		t.Fatalf("press: %+v", a)
	}
	zeroed := func() (n int) {
		for _, r := range p.lastRun.X {
			if r[len(r)-1] == 0 {
				n++
			}
		}
		return n
	}
	if n, d := zeroed(), len(p.lastRun.X[0]); n != 9 || d != 2 || len(p.lastRun.X) != 301 {
		t.Errorf("%d rows zeroed (want the 9 'None'), %d columns, n = %d", n, d, len(p.lastRun.X))
	}
	p.event(IndicatorTicked{Col: "age", On: true})
	p.event(LevelDeclared{Col: "label", Token: "None", On: true})
	if a := p.press(); a.Do != Show {
		t.Fatalf("press: %+v", a)
	}
	spec := p.acts[len(p.acts)-2].Run
	if spec.Ranges["age missing"] != (dataset.IndicatorRange) || strings.Join(spec.Parse.Levels["label"], ",") != "None" {
		t.Errorf("ranges %v, levels %v", spec.Ranges, spec.Parse.Levels)
	}
	if n, d := zeroed(), len(p.lastRun.X[0]); n != 0 || d != 3 {
		t.Errorf("with None a label: %d rows zeroed, %d columns (want age, age missing, intercept)", n, d)
	}
}

// TestEstimatorShownIsWhatRuns (issue 40's small-table rule, as 0.6 showed
// it): the estimator select shows the estimator a run draws by — on a CSV of
// fewer than mechanism.SmallTableRows rows, Algorithm 1 once every range is
// typed, DP-GD while one is blank (found privately by the press) — and the
// run is timed and run with it (a blank range's press timed Algorithm 1's
// plan, then ran DP-GD).
func TestEstimatorShownIsWhatRuns(t *testing.T) {
	open := func() *page {
		p := newPage(t, mixedCSV(111, 9))
		p.do(LossChosen{Loss: loss.Logistic}, TargetChosen{Col: "label"}, PositiveTyped{Col: "label", Label: "yes"})
		p.event(FeaturesTicked{On: map[string]bool{"region": false, "id": false, "age": true}})
		return p
	}
	p := open()
	if m, on := p.st.EstimatorShown(); m != string(mechanism.EstimatorDPGD) || !on {
		t.Errorf("age's range blank (to be found): shown %q (enabled %v), want dp-gd", m, on)
	}
	if a := p.press(); a.Do != Show || p.lastRun == nil || p.lastRun.Method != mechanism.EstimatorDPGD {
		t.Fatalf("press with age blank: %+v, run %v", a.Do, p.lastRun != nil)
	}
	for _, a := range p.acts {
		if a.Do == Time && a.Plan.Estimator != mechanism.EstimatorDPGD {
			t.Errorf("the press timed %q's plan, then ran DP-GD", a.Plan.Estimator)
		}
	}
	p = open()
	p.ranges("age", "0..100")
	m, _ := p.st.EstimatorShown()
	if m != string(mechanism.EstimatorExponential) || m != p.st.EstimatorFor(111) {
		t.Errorf("every range typed on 111 rows: shown %q, a run draws by %q; want exponential both", m, p.st.EstimatorFor(111))
	}
	if a := p.press(); a.Do != Show || p.lastRun == nil || string(p.lastRun.Method) != m {
		t.Errorf("press: %v; the run asked for %v, the select shows %q", a.Do, p.lastRun != nil && string(p.lastRun.Method) == m, m)
	}
	p.event(EstimatorChosen{Method: string(mechanism.EstimatorDPGD)})
	if m, _ := p.st.EstimatorShown(); m != string(mechanism.EstimatorDPGD) {
		t.Errorf("the person's choice: shown %q", m)
	}
}

// TestDeltaNote: the δ field's note writes the row count as the page does
// everywhere (words.Count: thin-space groups), "set to 1e-6 for 100 000
// rows" (TestEstimate100kRows reads it).
func TestDeltaNote(t *testing.T) {
	s := initialState()
	s.Table.Profile = &dataset.Profile{Rows: 100000}
	if d, note := s.DeltaField(); d != "1e-6" || note != "set to 1e-6 for 100\u202f000 rows: δ must stay well below 1/n" {
		t.Errorf("δ field %q, note %q", d, note)
	}
}

// TestIntervalsWhereTheGateAllows (issue 54): asked for, a DP-GD run of a
// smooth loss carries interval 0.95 — its cost said before Run above the
// public gate (n·s, d), the reason below it (where the result says it too);
// a run on Algorithm 1 or several samples asks for none.
func TestIntervalsWhereTheGateAllows(t *testing.T) {
	big := newPage(t, numericCSV(12000, 19))
	big.confirmTask()
	big.ranges("age", "0..120", "height", "100..250", "income", "0..10000")
	big.event(IntervalTicked{On: true})
	if line := big.st.IntervalLine(); !strings.HasPrefix(line, "95 % intervals beside the coefficients, inside this run's ε = 1") {
		t.Errorf("line above the gate: %q", line)
	}
	if a := big.press(); a.Do != Show {
		t.Fatalf("press: %+v", a)
	}
	if got := big.acts[len(big.acts)-2].Run.Req.Interval; got != IntervalLevel {
		t.Errorf("interval %g, want %g", got, IntervalLevel)
	}
	small := newPage(t, numericCSV(600, 20))
	small.confirmTask()
	small.ranges("age", "0..120", "height", "100..250", "income", "0..10000")
	small.event(IntervalTicked{On: true})
	if line := small.st.IntervalLine(); !strings.HasPrefix(line, "No 95 % intervals at this size:") {
		t.Errorf("line below the gate: %q", line)
	}
	// Below the gate the run still asks (its result says why there is none;
	// the model keeps the whole budget).
	if a := small.press(); a.Do != Show || small.acts[len(small.acts)-2].Run.Req.Interval != IntervalLevel {
		t.Fatalf("below the gate: %+v, interval %g", a, small.acts[len(small.acts)-2].Run.Req.Interval)
	}
	big.event(NumberTyped{Field: "samples", Text: "2"})
	if line := big.st.IntervalLine(); !strings.Contains(line, "several samples") {
		t.Errorf("with 2 samples: %q", line)
	}
	big.event(EstimatorChosen{Method: "exponential"})
	if line := big.st.IntervalLine(); !strings.Contains(line, "Algorithm 1") {
		t.Errorf("with Algorithm 1: %q", line)
	}
}
