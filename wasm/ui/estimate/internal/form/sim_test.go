package form

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/dpsample/dpsample/core/dataset"
	"github.com/dpsample/dpsample/core/domain"
	"github.com/dpsample/dpsample/core/mechanism"
	"github.com/dpsample/dpsample/core/privacy"
)

// page is a simulated page for the form's tests: it carries out the form's
// actions as the view does, with core's own functions in place of the DOM
// and the worker — the parse, the worker's ledger of each table (charged by
// mechanism.Charge and domain.Charge, exactly as the worker charges), and
// describe's release — so that what a sequence of events spends is counted
// by the ledgers themselves, not by the form.
type page struct {
	t       testing.TB
	csv     string
	budget  [2]float64
	ledgers map[string]*privacy.Ledger // the worker's, by table key
	st      State
	acts    []Action // every action of the current press, carried out in order
	seconds float64  // what Time answers
	runErr  error    // what Run answers in place of a result (nil: the result)
	onAct   func(p *page, a Action)
	// update is the form's decision (Update; a broken one in the tests that
	// show the properties catch it).
	update func(State, Event) (State, Action)
	// workerRefused is the worker's refusal of the last press's run (the
	// form sent a run mechanism.Charge rejects).
	workerRefused error
	lastRun       *mechanism.Request // the request of the last run charged
}

// newPage is a page on the CSV text csv (chosen as "your own CSV"), the form
// at the element's defaults.
func newPage(t testing.TB, csv string) *page {
	p := &page{t: t, csv: csv, budget: [2]float64{3, 1e-5}, ledgers: map[string]*privacy.Ledger{}}
	p.st = initialState()
	p.st.Ledger = Ledger{Epsilon: 3, Delta: 1e-5}
	p.event(DatasetChosen{User: true})
	p.load(csv)
	return p
}

// initialState is the form as the element starts it without attributes.
func initialState() State {
	var s State
	s.Choice = Choice{LossAuto: true, Header: dataset.HeaderAuto, Epsilon: "1", Delta: "1e-5", Radius: "1.5", Samples: "1",
		DeltaAuto: true, RadiusAuto: true, Workers: 1, FixedWork: true}
	s, _ = Update(s, Forgot{})
	return s
}

// load puts csv in the box: the text, then its profile (and the ledger
// the view would read for it, none until it opens one).
func (p *page) load(csv string) {
	p.csv = csv
	p.event(TextChanged{Loaded: strings.TrimSpace(csv) != ""})
	prof, err := dataset.ProfileText(csv, p.st.Choice.Header)
	if err != nil {
		p.event(Profiled{Err: err.Error()})
		return
	}
	p.event(Profiled{Profile: prof, Memory: p.st.Memory()})
	p.event(LedgerSeen{Ledger: p.ledgerSeen()})
}

// key is the table's key, as the ledger view computes it.
func (p *page) key() string {
	k, err := dataset.TableKey(p.csv)
	if err != nil {
		return "unhashable"
	}
	return k
}

// ledgerSeen is the table's ledger as the page knows it (its budget
// fields; the worker's ledger once opened).
func (p *page) ledgerSeen() Ledger {
	l := Ledger{Key: p.key(), Epsilon: p.budget[0], Delta: p.budget[1]}
	if w, ok := p.ledgers[l.Key]; ok {
		st := w.State()
		st.Key = l.Key
		l.State = &st
	}
	return l
}

// releases counts the releases charged to the table's ledger.
func (p *page) releases() int {
	if w, ok := p.ledgers[p.key()]; ok {
		return len(w.State().History)
	}
	return 0
}

// event dispatches an edit (or any event) and carries out its action.
func (p *page) event(e Event) Action {
	p.acts, p.workerRefused = nil, nil
	return p.dispatch(e)
}

// press presses Run and carries the press through to its end.
func (p *page) press() Action { return p.event(Pressed{}) }

// dispatch applies e and carries out the actions that follow, until one
// ends the press (or needs nothing).
func (p *page) dispatch(e Event) Action {
	snap := dump(p.st)
	update := p.update
	if update == nil {
		update = Update
	}
	st, a := update(p.st, e)
	if dump(p.st) != snap {
		p.t.Fatalf("%T: Update changed the state it was given", e)
	}
	p.st = st
	p.acts = append(p.acts, a)
	if p.onAct != nil {
		p.onAct(p, a)
	}
	switch a.Do {
	case Prepare:
		return p.dispatch(p.prepare(a.Parse))
	case Time:
		return p.dispatch(Timed{Seconds: p.seconds, Without: math.NaN(), Words: "simulated", Fit60: 100, FitMax: 1000})
	case Find:
		return p.dispatch(p.find(a.Find))
	case Run:
		return p.dispatch(p.run(a.Run))
	}
	return a
}

// open is the worker's ledger of the table (opened at the budget).
func (p *page) open() *privacy.Ledger {
	k := p.key()
	if w, ok := p.ledgers[k]; ok {
		return w
	}
	w, err := privacy.NewLedger(p.budget[0], p.budget[1])
	if err != nil {
		p.t.Fatal(err)
	}
	p.ledgers[k] = w
	return w
}

func (p *page) prepare(opt *dataset.Options) Prepared {
	var ev Prepared
	if opt != nil {
		t, err := dataset.Parse(p.csv, *opt)
		if err != nil {
			ev.Err = err
		} else {
			ev.Rows = len(t.X)
		}
	}
	p.open()
	ev.Ledger = p.ledgerSeen()
	return ev
}

// find releases f as the worker does: describe({csv}) of every column, or
// of the blank ones (describe({csv, columns})), charged to the table's
// ledger.
func (p *page) find(f *FindSpec) (ev Found) {
	ev.Table = p.key()
	w := p.open()
	defer func() { ev.Ledger = p.ledgerSeen().State }()
	cells, n, err := dataset.ReadCells(p.csv, p.st.Choice.Header)
	if err == nil && f.Columns != nil {
		var some []dataset.Cells
		for _, name := range f.Columns {
			for _, c := range cells {
				if c.Name == name {
					some = append(some, c)
				}
			}
		}
		cells = some
	}
	var pl domain.Plan
	if err == nil {
		pl, err = domain.PlanCellsFor(n, len(cells), f.Epsilon, f.Delta, w)
	}
	var c *domain.Charged
	if err == nil {
		c, err = domain.Charge(pl, w)
	}
	if err == nil {
		dc := make([]domain.Cells, len(cells))
		for j, x := range cells {
			dc[j] = domain.Cells{Name: x.Name, Nums: x.Nums, Labels: x.Labels}
		}
		var res domain.CellsResult
		if res, err = c.DescribeCells(dc); err == nil {
			ev.Columns = res.Columns
		}
	}
	if h := w.State().History; len(h) > 0 {
		ev.Release = h[len(h)-1].ID
	}
	ev.Err = err
	return ev
}

// run charges the model spec describes, as the worker does before it
// samples (mechanism.Charge validates the rows and the request).
func (p *page) run(spec *RunSpec) Ran {
	t, err := dataset.Parse(p.csv, spec.Parse)
	if err != nil {
		return Ran{Err: err, Ledger: p.ledgerSeen().State}
	}
	for _, c := range t.Columns {
		if _, ok := spec.Ranges[c]; !ok {
			p.t.Fatalf("the run's ranges lack column %q of its parse: %v", c, spec.Ranges)
		}
	}
	if err := t.Scale(spec.Ranges); err != nil {
		return Ran{Err: err, Ledger: p.ledgerSeen().State}
	}
	req := spec.Req
	req.X, req.Y = t.X, t.Y
	if spec.Target != nil {
		req.Y = make([]float64, len(t.Y))
		for i, y := range t.Y {
			req.Y[i] = spec.Target.ToScaled(y)
		}
	}
	if p.st.Choice.Loss.Supervised() {
		req.X = make([][]float64, len(t.X))
		for i, r := range t.X {
			req.X[i] = append(append([]float64(nil), r...), 1)
		}
		if _, err := dataset.ZeroMissingTargets(req.X, req.Y, spec.MissingTarget); err != nil {
			p.t.Fatalf("ZeroMissingTargets: %v", err)
		}
	}
	p.lastRun = &req
	if _, err := mechanism.Charge(req, p.open()); err != nil {
		p.workerRefused = err
		return Ran{Err: err, Ledger: p.ledgerSeen().State}
	}
	return Ran{Err: p.runErr, Aborted: errors.Is(p.runErr, errAborted), Ledger: p.ledgerSeen().State}
}

var errAborted = errors.New("aborted")

// do carries out a short list of edits.
func (p *page) do(es ...Event) {
	for _, e := range es {
		p.event(e)
	}
}

// ranges types each column's range ("lo..hi").
func (p *page) ranges(kv ...string) {
	for i := 0; i+1 < len(kv); i += 2 {
		lo, hi, _ := strings.Cut(kv[i+1], "..")
		p.do(RangeTyped{Col: kv[i], Text: lo}, RangeTyped{Col: kv[i], Hi: true, Text: hi})
	}
}

// founds are the Find actions of the last press.
func (p *page) founds() (n int) {
	for _, a := range p.acts {
		if a.Do == Find {
			n++
		}
	}
	return n
}
