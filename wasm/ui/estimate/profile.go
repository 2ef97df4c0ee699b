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
	"github.com/dpsample/dpsample/wasm/ui/estimate/internal/form"
	"github.com/dpsample/dpsample/wasm/ui/estimate/internal/report"
	"github.com/dpsample/dpsample/wasm/ui/internal/kit"
)

// profiling is the CSV's profile as read: of which text, with which header
// declaration, and the job reading a large one in the worker.
type profiling struct {
	text, mode string
	done       bool        // the profile of (text, mode) was dispatched: it is not read again
	job        *profileJob // a large text's profile under way in the worker
}

// profileJob is a profile under way in the worker.
type profileJob struct {
	text, mode string
	done       chan struct{} // closed when the job has ended (applied, superseded or failed)
	abort      js.Value      // its AbortController
}

// readProfile profiles the CSV text (once per text and header declaration)
// and hands it to the form with what this browser remembers for its column
// names; a large text is profiled in the worker, which hands it over when
// done.
func (v *estimateView) readProfile(txt string) {
	pr := &v.csv.prof
	mode := v.el.headerSel.Value()
	if txt == pr.text && mode == pr.mode && pr.done {
		return
	}
	if j := pr.job; j != nil {
		if j.text == txt && j.mode == mode {
			return // under way
		}
		v.stopProfile()
	}
	pr.text, pr.mode, pr.done = txt, mode, false
	v.el.checkBox.SetInnerHTML("")
	kit.Show(v.el.checkBox, false)
	if strings.TrimSpace(txt) == "" {
		return
	}
	if kit.ForWorker(txt) {
		v.profileInWorker(txt, mode)
		return
	}
	v.applyProfile(dataset.ProfileText(txt, mode))
}

// stopProfile cancels the profile under way (its text was replaced).
func (v *estimateView) stopProfile() {
	if j := v.csv.prof.job; j != nil {
		v.csv.prof.job = nil
		j.abort.Call("abort")
		v.el.csvProg.SetTextContent("")
	}
}

// awaitProfile waits for the profile under way, if any (a Run pressed while
// a large file is read). Call it from a goroutine.
func (v *estimateView) awaitProfile() {
	if j := v.csv.prof.job; j != nil {
		<-j.done
	}
}

// profileInWorker profiles txt in the worker, showing its progress, then
// applies it — unless another text or header declaration replaced it
// meanwhile. The worker reads the textarea's own string (not a copy made
// through Go).
func (v *estimateView) profileInWorker(txt, mode string) {
	j := &profileJob{text: txt, mode: mode, done: make(chan struct{}), abort: js.Global().Get("AbortController").New()}
	v.csv.prof.job = j
	src := v.textJS()
	size := fmt.Sprintf("%.1f MB", float64(len(txt))/(1<<20))
	v.el.csvProg.SetTextContent("Reading your file (" + size + ") in the background…")
	opts := js.Global().Get("Object").New()
	opts.Set("header", map[string]any{dataset.HeaderPresent: true, dataset.HeaderAbsent: false}[mode])
	if mode != dataset.HeaderPresent && mode != dataset.HeaderAbsent {
		opts.Set("header", "auto")
	}
	onProgress := js.FuncOf(func(_ js.Value, a []js.Value) any {
		if v.csv.prof.job == j && len(a) > 0 {
			v.el.csvProg.SetTextContent(fmt.Sprintf("Reading your file (%s) in the background: %d %%", size, int(100*a[0].Get("fraction").Float())))
		}
		return nil
	})
	run := js.Global().Get("Object").New()
	run.Set("onProgress", onProgress)
	run.Set("signal", j.abort.Get("signal"))
	go func() {
		defer close(j.done)
		defer onProgress.Release()
		var p *dataset.Profile
		_, err := kit.Remote()
		if err != nil { // no worker (dpsample.js did not load): here, as for a short text
			p, err = dataset.ProfileText(txt, mode)
		} else if res, e := kit.CallRemote("data.profileCSV", src, opts, run); e != nil {
			err = e
		} else {
			p = new(dataset.Profile)
			err = jsio.Decode(res, p)
		}
		if v.csv.prof.job != j {
			return // replaced by another text (and cancelled)
		}
		v.csv.prof.job = nil
		v.el.csvProg.SetTextContent("")
		v.applyProfile(p, err)
	}()
}

// applyProfile hands a profile (or its error, the text's own) to the form,
// with what this browser remembers for the file's column names, and shows
// the file's findings to its owner.
func (v *estimateView) applyProfile(p *dataset.Profile, err error) {
	v.csv.prof.done = true
	if err != nil {
		msg := err.Error()
		var ce *checks.Error
		// From the worker the error comes back as its message.
		if (errors.As(err, &ce) && ce.Field == "header") || strings.HasPrefix(msg, "header must") {
			msg += " Choose “yes” or “no” for “first row is a header” above."
		}
		v.dispatch(form.Profiled{Err: msg})
		return
	}
	v.dispatch(form.Profiled{Profile: p, Memory: recalled(p)})
	if len(p.Problems) > 0 { // a blocking one (ragged rows) is marked there, and stops Parse at Run with its row
		report.OwnerNote(v.el.checkBox, "About this file", p.Problems)
		kit.Show(v.el.checkBox, true)
	}
}
