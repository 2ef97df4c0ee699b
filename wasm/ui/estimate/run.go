//go:build js && wasm

package estimate

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/dpsample/dpsample/core/checks"
	"github.com/dpsample/dpsample/core/dataset"
	"github.com/dpsample/dpsample/core/mechanism"
	"github.com/dpsample/dpsample/core/privacy"
	"github.com/dpsample/dpsample/wasm/internal/jsio"
	"github.com/dpsample/dpsample/wasm/ui/estimate/internal/categories"
	"github.com/dpsample/dpsample/wasm/ui/estimate/internal/ledger"
	"github.com/dpsample/dpsample/wasm/ui/estimate/internal/pieces"
	"github.com/dpsample/dpsample/wasm/ui/estimate/internal/report"
	"github.com/dpsample/dpsample/wasm/ui/estimate/internal/timing"
	"github.com/dpsample/dpsample/wasm/ui/internal/kit"
)

// build reads the form, parses and scales the data, and returns the request.
// Each problem is shown once: next to its field or box (a kit.ShownError) or, if
// it has no place there, by the caller on the form's error line.
func (v *estimateView) build() (*report.Input, error) {
	txt, b := v.text()
	if b == nil {
		if len(txt) > maxPasteBytes {
			return nil, kit.ShowAt(v.csvErr, tooLarge(len(txt)))
		}
		if txt != v.lastText { // an edit still inside the debounce: read it now, and not again after this run's messages
			v.cancelColumnsTimer()
			v.columnsChanged()
		}
	}
	if strings.TrimSpace(txt) == "" {
		if b != nil {
			return nil, errors.New("the built-in dataset did not load; check the connection and run again")
		}
		if v.loadErr != "" { // a paste refused as too large left the box empty: its error, not "empty"
			return nil, kit.ShowAt(v.csvErr, errors.New(v.loadErr))
		}
		return nil, kit.ShowAt(v.csvErr, checks.Errorf("the CSV text", "a table: paste one or drop a file on the box (it is empty)"))
	}
	l := v.lossKind()
	in := &report.Input{Kind: l, Source: "your CSV"}
	opt := dataset.Options{Features: v.features()}
	if l.Supervised() {
		opt.Target = v.targetSel.Sel.Value()
		in.TargetCol = opt.Target
	}
	if b != nil || v.dropMissing.Checked() {
		opt.Drop = "missing"
	}
	opt.Header = v.headerSel.Value()
	if b != nil {
		opt.Header = b.Options().Header // declared for the built-ins
	}
	// The declared target schema (docs/PRIVACY.md): a classifier's positive
	// label, or a numeric target.
	switch {
	case l.Classification() && b != nil && opt.Target == b.Target:
		opt.Positive, opt.TargetType = b.Positive, dataset.TargetLabel
	case l.Classification():
		opt.Positive, opt.TargetType = strings.TrimSpace(v.positive[opt.Target]), dataset.TargetLabel
	case l.Supervised():
		opt.TargetType = dataset.TargetNumeric
	}
	in.Positive = opt.Positive
	// Text features: one-hot coded from their lists (internal/categories); one
	// whose found list is empty is left out (said in the statement).
	cats, used, blankCats, err := v.cats.Lists(v.textFeatures(), v.tableLedger())
	if err == nil && len(blankCats) > 0 {
		err = checks.Errorf("categories."+blankCats[0], "a list of labels: type it, or press Run to find it privately")
	}
	if err != nil {
		return nil, kit.ShowAt(v.rangesErr, err)
	}
	feats := opt.Features[:0:0]
	for _, f := range opt.Features {
		if !v.isText(f) || cats[f] != nil {
			feats = append(feats, f)
		}
	}
	opt.Features, opt.Categories, in.Cats, in.OneHot = feats, cats, used, categories.OneHot(cats)
	if len(opt.Features) == 0 {
		// No columns to offer usually means the file itself is malformed: say how.
		if _, err := v.parseTable(txt, dataset.Options{Target: opt.Target, Drop: opt.Drop, Header: opt.Header}); err != nil {
			return nil, v.dataError(err, b)
		}
		return nil, checks.Errorf("features", "at least one checked feature column")
	}
	if l.Classification() && opt.Positive == "" {
		return nil, kit.ShowAt(v.rangesErr, checks.Errorf("positive",
			"the label of %s coded +1 (every other label is −1): type it above; the page does not choose it from the data", opt.Target))
	}
	t, err := v.parseTable(txt, opt)
	if err != nil {
		return nil, v.dataError(err, b)
	}
	in.Table = t
	in.Columns = append([]string(nil), t.Columns...)
	if b != nil {
		in.Source = b.Label
	}
	// Declared ranges: the built-in's, or the ones typed for a CSV.
	ranges := map[string]dataset.Range{}
	for _, c := range t.Columns {
		if in.OneHot[c] {
			ranges[c] = dataset.Range{Lo: -1, Hi: 1} // the identity: a block keeps its norm 1 (docs/DEFAULTS.md)
			continue
		}
		if b != nil {
			if r, ok := b.Ranges[c]; ok {
				ranges[c] = r
			}
			continue
		}
		r, err := declaredRange("ranges."+c, v.declared[c])
		if err != nil {
			return nil, kit.ShowAt(v.rangesErr, err)
		}
		ranges[c] = r
	}
	in.Raw = report.PlottedOf(t.X)
	if err := pieces.Scale(t, ranges); err != nil {
		return nil, kit.ShowAt(v.rangesErr, err)
	}
	for _, c := range t.Columns {
		in.Ranges = append(in.Ranges, ranges[c])
	}
	y := t.Y
	var targetRange []float64
	if l.Supervised() && !l.Classification() {
		var r dataset.Range
		if b != nil {
			var ok bool
			if r, ok = b.Ranges[opt.Target]; !ok {
				return nil, kit.ShowAt(v.rangesErr, checks.Errorf("targetRange", "a declared range: column %q of this dataset has none", opt.Target))
			}
		} else if r, err = declaredRange("targetRange", v.declared[opt.Target]); err != nil {
			return nil, kit.ShowAt(v.rangesErr, err)
		}
		in.Target = &r
		// y in scaled units, not clamped here: the mechanism clamps it to
		// targetRange = [−1, 1] (the declared range) and counts the clamps.
		y = make([]float64, len(t.Y))
		for i, yi := range t.Y {
			y[i] = r.ToScaled(yi)
		}
		targetRange = []float64{-1, 1}
	}
	x := t.X
	if l.Supervised() { // an intercept: a constant public feature
		x = pieces.WithIntercept(t.X)
		// The rows live on in x alone: the collector of this thread then
		// marks one array of a million row slices, not two (it marked
		// them in one task of 200–300 ms).
		t.X = nil
		in.Columns = append(in.Columns, "intercept")
	}
	var vals [3]float64
	for i, f := range []kit.NumberField{v.eps, v.delta, v.c} {
		name := []string{"epsilon", "delta", "radius"}[i]
		x, err := f.Value(name)
		f.SetError(err)
		if err != nil {
			return nil, kit.Shown(err)
		}
		vals[i] = x
	}
	rank := 0
	if strings.TrimSpace(v.k.Input.Value()) != "" {
		if rank, err = v.k.IntIn("rank", 1, len(x[0])); err != nil {
			v.k.SetError(err)
			return nil, kit.Shown(err)
		}
	}
	v.k.SetError(nil)
	m, err := v.m.IntIn("samples", 1, maxSamples)
	v.m.SetError(err)
	if err != nil {
		return nil, kit.Shown(err)
	}
	workers, _ := strconv.Atoi(v.workers.Sel.Value())
	fixed := v.fixedWork.Checked()
	in.Req = mechanism.Request{Loss: l.String(), X: x, Y: y, Epsilon: vals[0], Delta: vals[1], Radius: vals[2], Rank: rank,
		Clip: math.Sqrt(float64(len(x[0]) - categories.OneHotDims(cats))), Samples: m, TargetRange: targetRange, Method: mechanism.Estimator(v.estimatorFor(l, len(x))), Workers: max(1, workers),
		FixedWork: &fixed}
	// Validated here with inline errors, and planned from n and d without a
	// pass over the rows (their values are checked where they are sampled).
	if in.Plan, err = mechanism.PlanShape(in.Req, len(x), len(x[0])); err != nil {
		var ce *checks.Error
		if errors.As(err, &ce) {
			slot := map[string]kit.NumberField{"epsilon": v.eps, "delta": v.delta, "radius": v.c, "rank": v.k, "samples": v.m}
			if f, ok := slot[ce.Field]; ok {
				f.SetError(err)
				return nil, kit.Shown(err)
			}
		}
		return nil, err
	}
	return in, nil
}

// dataError shows a parse error once: in the CSV box for a CSV, with the
// page's own control named for missing cells.
func (v *estimateView) dataError(err error, b *builtin) error {
	var mc *dataset.MissingCells
	if errors.As(err, &mc) {
		err = checks.Errorf("the table", "free of missing cells (empty, NA, NaN, ?, …) — they are in %s; tick “drop rows with missing cells” "+
			"to leave those rows out (n then counts complete rows only)", mc.Where())
	}
	if b != nil {
		return err
	}
	return kit.ShowAt(v.csvErr, err)
}

func (v *estimateView) runEstimate() {
	v.formErr.SetTextContent("")
	v.rangesErr.SetTextContent("")
	if txt, b := v.text(); b == nil && txt != v.lastText { // an edit still inside the debounce
		v.cancelColumnsTimer()
		v.columnsChanged()
	}
	v.awaitProfile()                   // a large file still being read in the worker: its columns first
	v.csvErr.SetTextContent(v.loadErr) // a former run's message about the data is replaced by this run's
	// The task of a CSV suggested from its contents (a column's labels and
	// kinds) is the page's guess, not a public input: the owner confirms it
	// before anything is released (issue 30: one row's label must not
	// choose the loss that the release states). A second Run confirms.
	if txt, b := v.text(); b == nil && strings.TrimSpace(txt) != "" && v.lossAuto {
		l, tgt := v.lossKind(), v.targetSel.Sel.Value()
		if cur := l.String() + "|" + tgt; cur != v.taskOK {
			if !v.taskAsked {
				v.taskAsked = true
				what := l.String()
				if l.Supervised() && tgt != "" {
					what += " of " + tgt
				}
				v.formErr.SetTextContent(fmt.Sprintf("Check the task first: “%s” was suggested from your file's contents (shown only to you), and "+
					"the task is part of what a run releases. Press Run again to use it, or choose the task yourself above. Nothing was spent.", what))
				v.failedStart()
				return
			}
			v.taskOK = cur // confirmed by this second press; remembered for files with this header
			v.remember()
		}
	}
	// A run the page knows is pointless — a classifier whose positive label
	// codes every row the same — asks before it charges (issue 30): the
	// owner sees why, and a second Run runs it anyway.
	if txt, b := v.text(); b == nil && v.profile != nil && strings.TrimSpace(txt) != "" && v.lossKind().Classification() {
		target := v.targetSel.Sel.Value()
		label := strings.TrimSpace(v.positive[target])
		if pc := v.profile.Positive(target, label); label != "" && pc.Of > 0 && (pc.Rows == 0 || pc.Rows == pc.Of) {
			if cur := target + "|" + label; v.pointlessOK != cur {
				v.pointlessOK = cur
				coded := "−1 (“" + label + "” matches no row)"
				if pc.Rows == pc.Of {
					coded = "+1 (every row has “" + label + "”)"
				}
				v.formErr.SetTextContent(fmt.Sprintf("This run cannot learn anything: every row of %s would be coded %s, so the model "+
					"would only learn the intercept. Check the positive label above; press Run again to run it anyway (it would be "+
					"charged to the table's budget). Nothing was spent.", target, coded))
				v.failedStart()
				return
			}
		}
	}
	v.settleCarried()
	if b := v.builtin(); b != nil {
		b.load(v.root) // a built-in chosen while its fetch was under way, or whose fetch failed
	} else if txt, _ := v.text(); strings.TrimSpace(txt) != "" && len(txt) <= maxPasteBytes && len(v.blankColumns())+len(v.blankCats()) > 0 {
		// Blank ranges: found privately first (charged once to the table's
		// budget, said beside the inputs before this click), then the model.
		// What can be checked without spending is checked first: a run that
		// would fail after the ranges must not pay for them.
		if l := v.lossKind(); l.Classification() && strings.TrimSpace(v.positive[v.targetSel.Sel.Value()]) == "" {
			_, err := v.build() // names the missing label next to the ranges
			if err != nil {
				if _, shown := err.(kit.ShownError); !shown {
					v.formErr.SetTextContent(err.Error())
				}
				v.failedStart()
				return
			}
		}
		if err := v.preflight(); err != nil {
			if _, shown := err.(kit.ShownError); !shown {
				v.formErr.SetTextContent(err.Error())
			}
			v.failedStart()
			return
		}
		missing, err := v.findRanges()
		v.showFindResult(missing, err)
		if err != nil {
			v.failedStart()
			return
		}
	}
	in, err := v.build()
	// The time it will take (work.go, internal/timing): a long run waits for a
	// second press of Run, a run past the page's limit is refused.
	var est timing.WorkEstimate
	if err == nil {
		est = estimateWork(in, in.Plan)
		alt := math.NaN() // the same run without fixed work
		if in.Plan.FixedWork {
			req, off := in.Req, false
			req.FixedWork = &off
			if pl, err := mechanism.PlanShape(req, len(req.X), len(req.X[0])); err == nil {
				alt = estimateWork(in, pl).Seconds
			}
		}
		key := fmt.Sprintf("%d×%d %s T=%d W=%d passes=%g", est.Rows, est.D, in.Plan.Method, in.Plan.Steps, est.Workers, est.Passes)
		if err = v.workGate(est, alt, key); errors.Is(err, timing.ErrConfirm) {
			return
		}
	} else {
		v.workLine.SetTextContent("")
	}
	// The table's privacy budget: checked here before anything starts, and
	// charged by the worker before it samples (internal/ledger).
	var key string
	var check *privacy.Check
	if err == nil {
		txt, _ := v.text()
		key, err = v.ledger.Prepare(txt)
	}
	if err == nil {
		check, err = v.ledger.Check(in.Req)
	}
	if err == nil && !check.Fits {
		err = ledger.Refusal{C: check}
	}
	if err != nil {
		var shown kit.ShownError
		var ref ledger.Refusal
		switch {
		case errors.As(err, &ref):
			ref.Show(v.formErr)
		case !errors.As(err, &shown):
			v.formErr.SetTextContent(err.Error())
		}
		v.failedStart()
		return
	}
	eta := ""
	if est.Seconds >= timing.WarnSeconds {
		eta = " (" + kit.About(est.Seconds) + ")"
	}
	opts, release := v.run.Start(fmt.Sprintf("Sampling from %s × %s in the worker%s…", kit.Count(len(in.Req.X), "row"), kit.Count(len(in.Req.X[0]), "column"), eta))
	t0 := time.Now()
	noX := in.Req
	noX.X = nil // encoded once, flat
	res, err := v.ledger.Sample(opts, key, pieces.FlatRequest(noX, in.Req.X))
	release()
	var out mechanism.Result
	if err == nil {
		err = jsio.Decode(res, &out)
	}
	v.run.Done(err, "Done.")
	if err != nil {
		v.ledger.AfterRun(key) // a cancelled or failed run stays charged
		if jsio.IsAbort(err) {
			v.run.Status.SetTextContent("Cancelled — and charged to this table's budget all the same (a cancelled run may already have revealed something).")
			kit.MarkStale(v.out, v.id, "the last run was cancelled (it was charged to the table's budget)")
		} else {
			v.formErr.SetTextContent(err.Error())
			kit.MarkStale(v.out, v.id, "the last run failed")
		}
		return
	}
	if out.Privacy.Ledger != nil {
		v.ledger.SetState(*out.Privacy.Ledger)
	}
	est.RanFor(time.Since(t0).Seconds()) // the workers' speed-up, for the next estimate
	v.render(in, &out)
	kit.ClearStale(v.out, v.id)
}

// failedStart ends a Run that could not start: the result area is marked
// stale, and next to Run a line says where the problem is shown, with the
// focus moved to the first field in error (errors where the eye is).
func (v *estimateView) failedStart() {
	kit.MarkStale(v.out, v.id, "the last run could not start (the problem is marked above)")
	var focus kit.Elem
	where := "see the message above"
	for _, e := range kit.Qsa(v.root, ".error") {
		if strings.TrimSpace(e.TextContent()) == "" {
			continue
		}
		is := func(x kit.Elem) bool { return x != nil && e.Underlying().Equal(x.Underlying()) }
		switch {
		case is(v.csvErr):
			focus, where = v.csvText.BasicHTMLElement, "the CSV box has a problem (the message is under it; the box has the focus)"
		case is(v.rangesErr):
			where = "a declared range or label (the message is under the ranges; the field has the focus)"
			for _, in := range kit.Qsa(v.rangesBox, "input:not([readonly])") {
				if focus == nil {
					focus = in
				}
				if strings.TrimSpace(kit.AsInput(in).Value()) == "" {
					focus = in
					break
				}
			}
		case is(v.formErr):
			focus, where = v.run.Run.BasicHTMLElement, "the message just above Run"
		default:
			if p := kit.ParentEl(e); p != nil {
				focus = kit.Qs(p, "input, select, textarea")
			}
			where = "a field is marked (it has the focus)"
		}
		break
	}
	v.run.FailedStart(where, focus)
}
