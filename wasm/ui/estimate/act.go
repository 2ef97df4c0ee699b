//go:build js && wasm

package estimate

import (
	"errors"
	"fmt"
	"math"
	"reflect"
	"syscall/js"
	"time"

	"github.com/dpsample/dpsample/core/dataset"
	"github.com/dpsample/dpsample/core/mechanism"
	"github.com/dpsample/dpsample/wasm/internal/jsio"
	"github.com/dpsample/dpsample/wasm/ui/estimate/internal/categories"
	"github.com/dpsample/dpsample/wasm/ui/estimate/internal/form"
	"github.com/dpsample/dpsample/wasm/ui/estimate/internal/pieces"
	"github.com/dpsample/dpsample/wasm/ui/estimate/internal/report"
	"github.com/dpsample/dpsample/wasm/ui/internal/kit"
)

// The form's actions carried out: the page's work between a press and its
// answer. Each ends by dispatching the answer; none decides anything.

// preparedTable is the table a press parsed, with the options it was parsed
// with (the run reuses it when they are the run's).
type preparedTable struct {
	opt dataset.Options
	t   *dataset.Table
}

// press dispatches a press of Run (or of the Find button) once the form
// holds what was typed (an edit inside the debounce, a large file's
// profile, a built-in's text). Call it from a goroutine.
func (v *estimateView) press(ev form.Event) {
	v.flushText()
	v.awaitProfile()
	if b := v.builtin(); b != nil && len(v.st.Table.Builtin.Columns) == 0 && b.load(v.root) {
		cols, _ := dataset.ColumnsWith(b.text, b.Options().Header)
		v.dispatch(form.BuiltinLoaded{Columns: cols}) // chosen while its fetch was under way, or its fetch failed
	}
	v.dispatch(ev)
}

// carry carries out the form's action.
func (v *estimateView) carry(a form.Action) {
	// A press that has ended gives Run back before anything is focused: a
	// question or refusal about Run itself (a long or too-long run) focused
	// it while it was still disabled, and the focus was lost.
	if v.st.Press == nil && a.Do != form.None {
		v.run.Run.SetDisabled(false)
	}
	switch a.Do {
	case form.Ask, form.Refuse:
		kit.MarkStale(v.el.out, v.id, "the last run could not start (the problem is marked above)")
		focus, where := v.focusOf(a.Field)
		if a.Do == form.Ask && a.Field != "run" {
			where = "a question just above Run"
			if focus != nil && focus.Underlying().Get("id").String() != v.run.Run.Underlying().Get("id").String() {
				where += " (the field it is about has the focus)"
			}
		}
		v.run.FailedStart(where, focus)
	case form.Note:
		if v.el.lineMsg != nil {
			v.el.lineMsg.SetTextContent(a.Text)
		}
	case form.Prepare:
		go v.prepare(a.Parse)
	case form.Time:
		go v.time(a)
	case form.Find:
		go v.find(a.Find)
	case form.Run:
		go v.runModel(a.Run)
	case form.Show:
		v.showResult()
		v.refocus()
	case form.Done:
		v.run.Status.SetTextContent(a.Text)
		v.refocus()
	}
}

// refocus gives the focus back to Run when a press has ended and the focus
// was lost (Run was disabled while it had it): the keyboard stays on the
// form.
func (v *estimateView) refocus() {
	if a := js.Global().Get("document").Get("activeElement"); !a.Truthy() || a.Equal(js.Global().Get("document").Get("body")) {
		v.run.Run.Focus()
	}
}

// prepare parses the table for the press (opt) and opens its budget.
func (v *estimateView) prepare(opt *dataset.Options) {
	txt, _ := v.text()
	var ev form.Prepared
	if opt != nil {
		if p := v.prep; p == nil || !reflect.DeepEqual(p.opt, *opt) || p.t == nil {
			v.prep = nil
			t, err := v.parseTable(txt, *opt)
			if err != nil {
				ev.Err = dataError(err)
			} else {
				v.prep = &preparedTable{opt: *opt, t: t}
			}
		}
		if v.prep != nil {
			ev.Rows = len(v.prep.t.X)
		}
	}
	if _, err := v.ledger.Prepare(txt); err != nil {
		ev.LedgerErr = err
	}
	ev.Ledger = v.ledgerSeen()
	v.dispatch(ev)
}

// dataError gives a parse error its page words: the missing cells name the
// page's own control.
func dataError(err error) error {
	var mc *dataset.MissingCells
	if errors.As(err, &mc) {
		return missingCells(mc.Where())
	}
	return err
}

// time estimates the run's seconds on this device (and without fixed work).
func (v *estimateView) time(a form.Action) {
	k := v.st.Choice.Loss
	est := estimateWork(k, a.Plan)
	alt := math.NaN()
	if a.Alt != nil {
		alt = estimateWork(k, *a.Alt).Seconds
	}
	v.est = est
	v.dispatch(form.Timed{Seconds: est.Seconds, Without: alt, Words: est.Describe(), Fit60: est.FittingRows(60), FitMax: est.FittingRows(form.MaxRunSeconds)})
}

// find releases the blank ranges (and categories) under the table's ledger:
// describe({csv}) of the whole file, or describe({x}) of the blank columns.
func (v *estimateView) find(f *form.FindSpec) {
	ev := form.Found{Table: f.Key}
	defer func() {
		ev.Ledger = v.ledgerSeen().State
		v.dispatch(ev)
	}()
	ev.Columns, ev.Release, ev.Err = categories.DescribeColumns(v.run, v.ledger, f.Key, v.textJS(), v.st.Choice.Header, f.Columns, f.Epsilon, f.Delta, f.Status)
}

// runModel runs the model spec: the prepared table scaled by its declared
// ranges (the intercept added for a supervised loss), charged to the
// table's ledger by the worker before it samples.
func (v *estimateView) runModel(spec *form.RunSpec) {
	in, err := v.input(spec)
	if err != nil {
		v.dispatch(form.Ran{Err: err, Ledger: v.ledgerSeen().State})
		return
	}
	eta := ""
	if v.est.Seconds >= form.WarnSeconds {
		eta = " (" + kit.About(v.est.Seconds) + ")"
	}
	opts, release := v.run.Start(fmt.Sprintf("Sampling from %s × %s in the worker%s…", kit.Count(len(in.Req.X), "row"), kit.Count(len(in.Req.X[0]), "column"), eta))
	t0 := time.Now()
	noX := in.Req
	noX.X = nil // encoded once, flat
	res, err := v.ledger.Sample(opts, spec.Key, pieces.FlatRequest(noX, in.Req.X))
	release()
	var out mechanism.Result
	if err == nil {
		err = jsio.Decode(res, &out)
	}
	v.run.Done(err, "Done.")
	ran := form.Ran{Err: err, Aborted: err != nil && jsio.IsAbort(err)}
	switch {
	case err != nil:
		v.ledger.AfterRun(spec.Key) // a cancelled or failed run stays charged
		if ran.Aborted {
			kit.MarkStale(v.el.out, v.id, "the last run was cancelled (it was charged to the table's budget)")
		} else {
			kit.MarkStale(v.el.out, v.id, "the last run failed")
		}
	default:
		if out.Privacy.Ledger != nil {
			v.ledger.SetState(*out.Privacy.Ledger)
		}
		v.est.RanFor(time.Since(t0).Seconds()) // the workers' speed-up, for the next estimate
		v.res, v.out = in, &out
	}
	ran.Ledger = v.ledgerSeen().State
	v.dispatch(ran)
}

// input prepares spec's rows: the table parsed for it (the press's, when
// parsed with the same options), scaled by the declared ranges, the target
// scaled by its own, the intercept added.
func (v *estimateView) input(spec *form.RunSpec) (*report.Input, error) {
	var t *dataset.Table
	if p := v.prep; p != nil && reflect.DeepEqual(p.opt, spec.Parse) {
		t = p.t
	} else {
		txt, _ := v.text()
		var err error
		if t, err = v.parseTable(txt, spec.Parse); err != nil {
			return nil, dataError(err)
		}
	}
	v.prep = nil // scaled below, in place
	in := &report.Input{Spec: spec, Kind: v.st.Choice.Loss, Table: t, Columns: append([]string(nil), t.Columns...), Target: spec.Target,
		Source: spec.Source, TargetCol: spec.TargetCol, Positive: spec.Positive, Cats: spec.Cats, OneHot: spec.OneHot}
	in.Raw = report.PlottedOf(t.X)
	ranges := map[string]dataset.Range{}
	for _, c := range t.Columns {
		r, ok := spec.Ranges[c]
		if !ok {
			return nil, fmt.Errorf("ranges.%s: no declared range (the form's run and the parsed table disagree)", c)
		}
		ranges[c] = r
		in.Ranges = append(in.Ranges, r)
	}
	err := pieces.Scale(t, ranges)
	if err != nil {
		return nil, err
	}
	req := spec.Req
	req.Y = t.Y
	if spec.Target != nil {
		// y in scaled units, not clamped here: the mechanism clamps it to
		// targetRange = [−1, 1] (the declared range) and counts the clamps.
		req.Y = make([]float64, len(t.Y))
		for i, yi := range t.Y {
			req.Y[i] = spec.Target.ToScaled(yi)
		}
	}
	req.X = t.X
	if in.Kind.Supervised() { // an intercept: a constant public feature
		req.X = pieces.WithIntercept(t.X)
		// The rows live on in x alone: the collector of this thread then
		// marks one array of a million row slices, not two.
		t.X = nil
		in.Columns = append(in.Columns, "intercept")
		// A row whose target is missing weighs nothing (ℓ(0, y) is a
		// constant) and still counts in n (issue 51 item 1).
		if in.Zeroed, err = dataset.ZeroMissingTargets(req.X, req.Y, spec.MissingTarget); err != nil {
			return nil, err
		}
	}
	in.Req = req
	pl, err := mechanism.PlanShape(req, len(req.X), len(req.X[0]))
	if err != nil {
		return nil, err
	}
	in.Plan = pl
	return in, nil
}

// showResult shows the result of the run just answered.
func (v *estimateView) showResult() {
	if v.res == nil || v.out == nil {
		return
	}
	v.render(v.res, v.out)
	kit.ClearStale(v.el.out, v.id)
}
