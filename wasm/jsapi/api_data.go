//go:build js && wasm

package jsapi

import (
	"syscall/js"

	"github.com/dpsample/dpsample/core/checks"
	"github.com/dpsample/dpsample/core/dataset"
	"github.com/dpsample/dpsample/wasm/internal/jsio"
)

func dataAPI() map[string]any {
	return map[string]any{
		// parseCSV(text, opts?, {onProgress, signal}?) → the table; with
		// opts.flat, x is {data: Float64Array, shape: [n, d]} (one transfer
		// instead of n rows; mechanism.sample and describe accept it as x).
		// onProgress gets the bytes read ({done, total, fraction}).
		"parseCSV": jsio.Export(func(a []js.Value) (any, error) {
			tv, err := csvText(jsio.Arg(a, 0))
			if err != nil {
				return nil, err
			}
			o, err := jsio.ReadObject(jsio.Arg(a, 1), "opts", true, "target", "drop", "features", "positive", "targetType", "header", "flat", "categories",
				"missing", "indicators", "levels", "reference")
			if err != nil {
				return nil, err
			}
			var opt dataset.Options
			if o.Has("target") {
				t := o.Get("target")
				if t.Type() != js.TypeString {
					return nil, &checks.Error{Field: "opts.target", Rule: "a column name", Got: jsio.Describe(t)}
				}
				opt.Target = t.String()
			}
			if opt.Drop, err = o.Str("drop", true, "", "missing"); err != nil {
				return nil, err
			}
			// The declared target schema (docs/PRIVACY.md): the label coded +1,
			// or a numeric target; checked once more by dataset.Parse.
			if o.Has("positive") {
				p := o.Get("positive")
				if p.Type() != js.TypeString {
					return nil, &checks.Error{Field: "opts.positive", Rule: "a label (string)", Got: jsio.Describe(p)}
				}
				opt.Positive = p.String()
			}
			if opt.TargetType, err = o.Str("targetType", true, "", dataset.TargetNumeric, dataset.TargetLabel); err != nil {
				return nil, err
			}
			// header: true (the first row is a header), false (it is data) or
			// "auto" (the default: guessed, and an error naming header when
			// the first two rows disagree; dataset.HeaderAuto).
			if opt.Header, err = readHeader(o); err != nil {
				return nil, err
			}
			if opt.Features, err = readNames(o, "features", "opts.features"); err != nil {
				return nil, err
			}
			if opt.Categories, err = readLists(o, "categories"); err != nil {
				return nil, err
			}
			// Missing cells (issue 51): "fill" keeps every row (n is the
			// file's row count); indicators, levels and reference
			// (dataset.Options; checked once more by dataset.Parse).
			if opt.Missing, err = o.Str("missing", true, "", dataset.MissingFill); err != nil {
				return nil, err
			}
			if opt.Indicators, err = readNames(o, "indicators", "opts.indicators"); err != nil {
				return nil, err
			}
			if opt.Levels, err = readLists(o, "levels"); err != nil {
				return nil, err
			}
			if opt.Reference, err = readLabels(o, "reference"); err != nil {
				return nil, err
			}
			flat, err := o.OptBool("flat")
			if err != nil {
				return nil, err
			}
			rc, err := jsio.NewRunControl(jsio.Arg(a, 2), "run")
			if err != nil {
				return nil, err
			}
			tab, err := dataset.ParseContext(rc.Ctx, tv.String(), opt, rc.Progress)
			if err = rc.Finish(err); err != nil {
				return nil, err
			}
			out := js.Global().Get("Object").New()
			if flat != nil && *flat {
				out.Set("x", jsio.FlatMatrix(tab.X))
			} else {
				out.Set("x", jsio.Float64Rows(tab.X))
			}
			if tab.Y != nil {
				out.Set("y", jsio.Float64Array(tab.Y))
			}
			cols := js.Global().Get("Array").New()
			for _, c := range tab.Columns {
				cols.Call("push", c)
			}
			out.Set("columns", cols)
			all := js.Global().Get("Array").New()
			for _, c := range tab.AllNames {
				all.Call("push", c)
			}
			out.Set("allColumns", all)
			out.Set("dropped", tab.Dropped)
			out.Set("delimiter", tab.Delimiter) // "comma", "semicolon" or "tab", detected from the first line
			out.Set("header", tab.Header)
			if tab.Target != "" {
				out.Set("target", tab.Target)
			}
			if tab.Coding != "" {
				out.Set("coding", tab.Coding)
			}
			if tab.Mapping != nil {
				m := js.Global().Get("Object").New()
				for k, v := range tab.Mapping {
					m.Set(k, v)
				}
				out.Set("mapping", m)
			}
			// Under missing: "fill": the counts are the owner's (NOT private);
			// the indicator columns and the references are public.
			if opt.Missing == dataset.MissingFill {
				out.Set("missingCells", tab.MissingCells)
				out.Set("missingTargets", tab.MissingTargets)
			}
			if len(tab.Indicators) > 0 {
				out.Set("indicators", jsio.Encode(tab.Indicators))
			}
			if len(tab.Reference) > 0 {
				out.Set("reference", jsio.Encode(tab.Reference))
			}
			return out, nil
		}),
		// profileCSV(text, {header}?, {onProgress, signal}?) → what a form
		// needs before a run (dataset.ProfileText): each column's name, kind
		// (numeric, text, mixed, empty), missing cells and labels (up to 50),
		// the rows, the delimiter and the problems Parse would stop at or
		// that suggest a misread file. NOT private: computed from the data for
		// its owner's eyes; never part of a release. onProgress gets the bytes
		// read ({done, total, fraction}); the page calls it in its worker so
		// that a large paste never blocks the page.
		"profileCSV": jsio.Export(func(a []js.Value) (any, error) {
			tv, err := csvText(jsio.Arg(a, 0))
			if err != nil {
				return nil, err
			}
			o, err := jsio.ReadObject(jsio.Arg(a, 1), "opts", true, "header")
			if err != nil {
				return nil, err
			}
			header, err := readHeader(o)
			if err != nil {
				return nil, err
			}
			rc, err := jsio.NewRunControl(jsio.Arg(a, 2), "run")
			if err != nil {
				return nil, err
			}
			p, err := dataset.ProfileTextContext(rc.Ctx, tv.String(), header, rc.Progress)
			if err = rc.Finish(err); err != nil {
				return nil, err
			}
			return jsio.Encode(p), nil
		}),
		// tableKey(text) → the hex SHA-256 of the table's canonical form
		// (dataset.TableKey: row order, line ends, delimiter, quoting and
		// number spelling do not change it): the key under which the page
		// keeps a table's budget, for a ledger of one's own. NOT private: a
		// fingerprint of the data, for its owner's storage, never released.
		"tableKey": jsio.Export(func(a []js.Value) (any, error) {
			tv, err := csvText(jsio.Arg(a, 0))
			if err != nil {
				return nil, err
			}
			return dataset.TableKey(tv.String())
		}),
	}
}

// csvText reads the text argument of parseCSV and profileCSV.
func csvText(tv js.Value) (js.Value, error) {
	if tv.Type() != js.TypeString {
		return tv, &checks.Error{Field: "text", Rule: "a string of CSV", Got: jsio.Describe(tv)}
	}
	return tv, nil
}

// readHeader reads parseCSV's header option: true, false or "auto".
func readHeader(o jsio.Object) (string, error) {
	v := o.Get("header")
	switch {
	case v.Type() == js.TypeUndefined:
		return dataset.HeaderAuto, nil
	case v.Type() == js.TypeBoolean && v.Bool():
		return dataset.HeaderPresent, nil
	case v.Type() == js.TypeBoolean:
		return dataset.HeaderAbsent, nil
	case v.Type() == js.TypeString && v.String() == "auto":
		return dataset.HeaderAuto, nil
	}
	return "", &checks.Error{Field: "opts.header", Rule: `true, false or "auto"`, Got: jsio.Describe(v)}
}

// readNames reads the optional array of column names o[name] (features,
// indicators; describe's columns): errors name field.
func readNames(o jsio.Object, name, field string) ([]string, error) {
	if !o.Has(name) {
		return nil, nil
	}
	f := o.Get(name)
	if !jsio.IsArray(f) {
		return nil, &checks.Error{Field: field, Rule: "an array of column names", Got: jsio.Describe(f)}
	}
	out := []string{}
	for i := 0; i < f.Length(); i++ {
		if f.Index(i).Type() != js.TypeString {
			return nil, &checks.Error{Field: field, Rule: "an array of column names", Got: jsio.Describe(f.Index(i))}
		}
		out = append(out, f.Index(i).String())
	}
	return out, nil
}

// readLists reads parseCSV's categories or levels option: {column: [labels]}
// (dataset.Options.Categories, Levels).
func readLists(o jsio.Object, name string) (map[string][]string, error) {
	if !o.Has(name) {
		return nil, nil
	}
	v := o.Get(name)
	if v.Type() != js.TypeObject || jsio.IsArray(v) {
		return nil, &checks.Error{Field: "opts." + name, Rule: "an object {column: [labels]}", Got: jsio.Describe(v)}
	}
	keys := js.Global().Get("Object").Call("keys", v)
	out := map[string][]string{}
	for i := 0; i < keys.Length(); i++ {
		col := keys.Index(i).String()
		l := v.Get(col)
		field := "opts." + name + "." + col
		if !jsio.IsArray(l) {
			return nil, &checks.Error{Field: field, Rule: "an array of labels", Got: jsio.Describe(l)}
		}
		labels := []string{}
		for k := 0; k < l.Length(); k++ {
			if l.Index(k).Type() != js.TypeString {
				return nil, &checks.Error{Field: field, Rule: "an array of labels (strings)", Got: jsio.Describe(l.Index(k))}
			}
			labels = append(labels, l.Index(k).String())
		}
		out[col] = labels
	}
	return out, nil
}

// readLabels reads parseCSV's reference option: {column: label}
// (dataset.Options.Reference).
func readLabels(o jsio.Object, name string) (map[string]string, error) {
	if !o.Has(name) {
		return nil, nil
	}
	v := o.Get(name)
	if v.Type() != js.TypeObject || jsio.IsArray(v) {
		return nil, &checks.Error{Field: "opts." + name, Rule: "an object {column: label}", Got: jsio.Describe(v)}
	}
	keys := js.Global().Get("Object").Call("keys", v)
	out := map[string]string{}
	for i := 0; i < keys.Length(); i++ {
		col := keys.Index(i).String()
		l := v.Get(col)
		if l.Type() != js.TypeString {
			return nil, &checks.Error{Field: "opts." + name + "." + col, Rule: "a label (string)", Got: jsio.Describe(l)}
		}
		out[col] = l.String()
	}
	return out, nil
}
