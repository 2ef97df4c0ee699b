package form

import (
	"math"
	"slices"

	"github.com/dpsample/dpsample/core/dataset"
	"github.com/dpsample/dpsample/core/mechanism"
)

// runFeatures are the features a run parses: the ticked numeric ones, and
// (unless numericOnly) the text ones whose list is known and not empty — a
// blank list is never parsed before it is found.
func (s State) runFeatures(numericOnly bool) []string {
	cats, _, _, _ := s.CatLists()
	var out []string
	for _, f := range s.Features() {
		if s.IsText(f) {
			if numericOnly || cats[f] == nil {
				continue
			}
		}
		out = append(out, f)
	}
	return out
}

// runParse is the run's parse of the table: its features (text ones coded
// from their known lists against their reference label, issue 53 item 2;
// numeric ones with a "was missing" column where the person asked for one),
// the target with its declared schema (a classifier's positive label, or a
// numeric target; tokens declared its levels) and the header. A CSV keeps
// every data row, a missing cell filled (issue 51 item 1: n is the file's
// data-row count, whatever is missing); a built-in's declared options drop
// its incomplete rows (its file is public).
func (s State) runParse() dataset.Options {
	l := s.Choice.Loss
	cats, used, _, _ := s.CatLists()
	opt := dataset.Options{Features: s.runFeatures(false), Header: s.Choice.Header}
	for f := range cats {
		if !slices.Contains(opt.Features, f) {
			delete(cats, f)
		}
	}
	if len(cats) > 0 {
		opt.Categories = cats
		refs := References(used)
		for c := range refs {
			if cats[c] == nil {
				delete(refs, c)
			}
		}
		if len(refs) > 0 {
			opt.Reference = refs
		}
	}
	if l.Supervised() {
		opt.Target = s.Target()
	}
	if b := s.Table.Builtin; b != nil {
		opt.Drop = "missing"
		opt.Header = b.Options().Header // declared for the built-ins
	} else {
		opt.Missing = dataset.MissingFill
		for _, f := range s.runFeatures(true) {
			if s.Choice.Indicators[f] {
				opt.Indicators = append(opt.Indicators, f)
			}
		}
		if ls := s.Choice.Levels[opt.Target]; opt.Target != "" && len(ls) > 0 {
			opt.Levels = map[string][]string{opt.Target: ls}
		}
	}
	switch {
	case l.Classification():
		opt.Positive, opt.TargetType = s.positive(), dataset.TargetLabel
	case l.Supervised():
		opt.TargetType = dataset.TargetNumeric
	}
	return opt
}

// request is the run's request without its rows (Method from n), and the
// narrowest and widest number of columns a row can have: the text features
// whose categories are still to be found count for none (all found empty)
// and for every label their column has on this device (or MaxLabels).
func (s State) request(n int) (req mechanism.Request, dMin, dMax int, err error) {
	nums, err := s.numbers(true)
	if err != nil {
		return req, 0, 0, err
	}
	l := s.Choice.Loss
	cats, _, blank, _ := s.CatLists()
	numeric := len(s.runFeatures(true))
	lists, blocks := 0, 0
	refs := s.runParse().Reference
	for _, f := range s.runFeatures(false) {
		if c, ok := cats[f]; ok {
			lists += len(c)
			if _, ok := refs[f]; ok {
				lists-- // the reference label has no column
			}
			blocks++
		}
	}
	widest := 0
	for _, c := range blank {
		ci, _ := s.column(c)
		k := len(ci.Labels)
		if ci.ManyLabels {
			k = dataset.MaxLabels
		}
		widest += k
	}
	indicators := len(s.runParse().Indicators)
	dMin = numeric + indicators + lists
	dMax = dMin + widest
	// The clip counts a block for each text feature still to be found (the
	// run's clip when its list is not empty, the case the time is planned
	// for: a smaller clip only shortens the schedule).
	clipDims := numeric + indicators + blocks + len(blank)
	if l.Supervised() {
		dMin, dMax, clipDims = dMin+1, dMax+1, clipDims+1 // the intercept
	}
	req = mechanism.Request{Loss: l.String(), Epsilon: nums.Epsilon, Delta: nums.Delta, Radius: nums.Radius, Rank: nums.Rank,
		Clip: math.Sqrt(float64(max(clipDims, 1))), Samples: nums.Samples, Method: mechanism.Estimator(s.EstimatorFor(n)),
		Workers: max(1, s.Choice.Workers)}
	fixed := s.Choice.FixedWork
	req.FixedWork = &fixed
	if l.Supervised() && !l.Classification() {
		req.TargetRange = []float64{-1, 1} // y is scaled by the declared target range
	}
	req.Interval = s.intervalFor(req)
	return req, dMin, dMax, nil
}

// RunSpec is the run the form describes on a table of n rows, once its
// ranges and lists are known: an error names what is missing.
func (s State) RunSpec(n int) (*RunSpec, error) {
	req, _, _, err := s.request(n)
	if err != nil {
		return nil, err
	}
	l := s.Choice.Loss
	_, used, blank, err := s.CatLists()
	if err == nil && len(blank) > 0 {
		err = errorf("categories."+blank[0], "a list of labels: type it, or press Run to find it privately")
	}
	if err != nil {
		return nil, err
	}
	opt := s.runParse()
	if len(opt.Features) == 0 {
		return nil, errorf("features", "at least one checked feature column (every text feature ticked had no category with enough rows)")
	}
	spec := &RunSpec{Parse: opt, Ranges: map[string]dataset.Range{}, Req: req, Key: s.Ledger.Key, Source: "your CSV", Positive: opt.Positive,
		OneHot: OneHot(opt.Categories), Rows: n}
	References(used) // each used feature names its reference, as opt.Reference codes it
	spec.Cats = used
	for c, ref := range opt.Reference {
		delete(spec.OneHot, c+"="+ref) // the reference has no column
	}
	for _, c := range opt.Indicators {
		spec.Ranges[c+dataset.IndicatorSuffix] = dataset.IndicatorRange
	}
	if l.Classification() {
		spec.MissingTarget = -1
	}
	b := s.Table.Builtin
	if b != nil {
		spec.Source = b.Label
	}
	if l.Supervised() {
		spec.TargetCol = opt.Target
	}
	for c := range spec.OneHot {
		spec.Ranges[c] = dataset.Range{Lo: -1, Hi: 1} // the identity: a block keeps its norm 1 (docs/DEFAULTS.md)
	}
	for _, c := range opt.Features {
		if opt.Categories[c] != nil {
			continue
		}
		r, err := s.declared(c, "ranges."+c)
		if err != nil {
			return nil, err
		}
		spec.Ranges[c] = r
	}
	if l.Supervised() && !l.Classification() {
		r, err := s.declared(opt.Target, "targetRange")
		if err != nil {
			return nil, err
		}
		spec.Target = &r
	}
	return spec, nil
}

// declared is column c's declared range: a built-in's, or the one typed or
// found on this table.
func (s State) declared(c, field string) (dataset.Range, error) {
	if b := s.Table.Builtin; b != nil {
		r, ok := b.Ranges[c]
		if !ok {
			return r, errorf(field, "a declared range: column %q of this dataset has none", c)
		}
		return r, nil
	}
	d, _ := s.Range(c)
	return declaredRange(field, d)
}
