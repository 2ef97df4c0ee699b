//go:build js && wasm

package estimate

import (
	"errors"
	"fmt"
	"strings"
	"syscall/js"

	"github.com/dpsample/dpsample/core/checks"
	"github.com/dpsample/dpsample/core/dataset"
	"github.com/dpsample/dpsample/wasm/internal/jsio"
	"github.com/dpsample/dpsample/wasm/ui/estimate/internal/pieces"
	"github.com/dpsample/dpsample/wasm/ui/internal/kit"
)

// The table at Run, off the main thread (issue 29 item 4). A text of
// kit.AsyncProfileBytes or more is parsed in the worker (data.parseCSV with
// {flat: true}: the matrix comes back as one Float64Array, one copy instead
// of a JS object per row), with its progress under the CSV box; its budget's
// key (data.tableKey) is hashed there too, and a large request goes out to
// the worker the same way (flatRequest). A shorter text is parsed here, in
// well under the 50 ms of a long task.

// parseTable parses the form's table with opt. Call it from a goroutine.
func (v *estimateView) parseTable(txt string, opt dataset.Options) (*dataset.Table, error) {
	if !kit.InWorker(txt) {
		return dataset.Parse(txt, opt)
	}
	o := jsio.Encode(opt)
	o.Set("flat", true)
	switch opt.Header {
	case dataset.HeaderPresent:
		o.Set("header", true)
	case dataset.HeaderAbsent:
		o.Set("header", false)
	default:
		o.Set("header", "auto")
	}
	size := fmt.Sprintf("%.1f MB", float64(len(txt))/(1<<20))
	v.el.csvProg.SetTextContent("Reading your table (" + size + ") in the background for this run…")
	onProgress := js.FuncOf(func(_ js.Value, a []js.Value) any {
		if len(a) > 0 {
			v.el.csvProg.SetTextContent(fmt.Sprintf("Reading your table (%s) in the background for this run: %d %%", size, int(100*a[0].Get("fraction").Float())))
		}
		return nil
	})
	defer onProgress.Release()
	run := js.Global().Get("Object").New()
	run.Set("onProgress", onProgress)
	res, err := kit.CallRemote("data.parseCSV", v.textJS(), o, run)
	v.el.csvProg.SetTextContent("")
	if err != nil {
		return nil, remoteParseError(err)
	}
	x := res.Get("x")
	res.Set("x", js.Null())
	t := new(dataset.Table)
	if err := jsio.Decode(res, t); err != nil {
		return nil, err
	}
	if t.X, err = pieces.Rows(x); err != nil {
		return nil, err
	}
	return t, nil
}

// missingIn precedes the rows in a MissingCells error's message (from the
// worker an error comes back as its message).
const missingIn = `parsed with drop: "missing" (missing cells in `

// remoteParseError gives a parse error from the worker the form the page
// gives the same error here (dataError: the missing cells name the
// checkbox).
func remoteParseError(err error) error {
	var rej *jsio.Rejection
	if !errors.As(err, &rej) {
		return err
	}
	if _, where, ok := strings.Cut(rej.Message, missingIn); ok && strings.HasSuffix(where, ")") {
		return missingCells(strings.TrimSuffix(where, ")"))
	}
	return errors.New(strings.TrimSpace(rej.Message))
}

// missingCells is the page's words for missing cells in the rows where.
func missingCells(where string) error {
	return checks.Errorf("the table", "free of missing cells (empty, NA, NaN, ?, …) — they are in %s; tick “drop rows with missing cells” "+
		"to leave those rows out (n then counts complete rows only)", where)
}
