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
	"github.com/dpsample/dpsample/wasm/ui/estimate/internal/report"
	"github.com/dpsample/dpsample/wasm/ui/internal/kit"
)

// profileJob is a profile under way in the worker.
type profileJob struct {
	text, mode string
	done       chan struct{} // closed when the job has ended (applied, superseded or failed)
	abort      js.Value      // its AbortController
}

// readProfile profiles the CSV text (once per text and header declaration)
// and shows what it finds, for the owner's eyes. It returns the column
// names; none while a large text is being profiled in the worker (whose
// end calls columnsChanged again).
func (v *estimateView) readProfile(txt string) []string {
	mode := v.headerSel.Value()
	if txt == v.profText && mode == v.profMode && v.profDone {
		return v.profileNames()
	}
	if j := v.profJob; j != nil {
		if j.text == txt && j.mode == mode {
			return nil // under way
		}
		v.stopProfile()
	}
	v.profText, v.profMode, v.profile, v.profDone, v.loadErr = txt, mode, nil, false, ""
	v.checkBox.SetInnerHTML("")
	kit.Show(v.checkBox, false)
	if strings.TrimSpace(txt) == "" {
		return nil
	}
	if kit.ForWorker(txt) {
		v.profileInWorker(txt, mode)
		return nil
	}
	v.applyProfile(dataset.ProfileText(txt, mode))
	return v.profileNames()
}

// stopProfile cancels the profile under way (its text was replaced).
func (v *estimateView) stopProfile() {
	if j := v.profJob; j != nil {
		v.profJob = nil
		j.abort.Call("abort")
		v.csvProg.SetTextContent("")
	}
}

// awaitProfile waits for the profile under way, if any (a Run pressed while
// a large file is read). Call it from a goroutine.
func (v *estimateView) awaitProfile() {
	if j := v.profJob; j != nil {
		<-j.done
	}
}

// profileInWorker profiles txt in the worker, showing its progress, then
// applies it and refreshes the form — unless another text or header
// declaration replaced it meanwhile. The worker reads the textarea's own
// string (not a copy made through Go).
func (v *estimateView) profileInWorker(txt, mode string) {
	j := &profileJob{text: txt, mode: mode, done: make(chan struct{}), abort: js.Global().Get("AbortController").New()}
	v.profJob = j
	src := v.textJS()
	size := fmt.Sprintf("%.1f MB", float64(len(txt))/(1<<20))
	v.csvProg.SetTextContent("Reading your file (" + size + ") in the background…")
	opts := js.Global().Get("Object").New()
	opts.Set("header", map[string]any{dataset.HeaderPresent: true, dataset.HeaderAbsent: false}[mode])
	if mode != dataset.HeaderPresent && mode != dataset.HeaderAbsent {
		opts.Set("header", "auto")
	}
	onProgress := js.FuncOf(func(_ js.Value, a []js.Value) any {
		if v.profJob == j && len(a) > 0 {
			v.csvProg.SetTextContent(fmt.Sprintf("Reading your file (%s) in the background: %d %%", size, int(100*a[0].Get("fraction").Float())))
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
		if v.profJob != j {
			return // replaced by another text (and cancelled)
		}
		v.profJob = nil
		v.csvProg.SetTextContent("")
		v.applyProfile(p, err)
		v.columnsChanged()
	}()
}

// applyProfile keeps a profile (or its error, the text's own) for the
// profiled text, and sets the form's first choices for a new kind of file.
func (v *estimateView) applyProfile(p *dataset.Profile, err error) {
	v.profDone = true
	if err != nil {
		v.loadErr = err.Error()
		var ce *checks.Error
		// From the worker the error comes back as its message.
		if (errors.As(err, &ce) && ce.Field == "header") || strings.HasPrefix(v.loadErr, "header must") {
			v.loadErr += " Choose “yes” or “no” for “first row is a header” above."
		}
		return
	}
	v.profile = p
	key := p.HeaderHash
	if key == "" {
		key = fmt.Sprintf("%d columns without a header", len(p.Columns))
	}
	if key != v.fileKey { // another kind of file: fresh first choices
		if v.fileKey != "" {
			v.lossAuto = true // the task chosen for the former file is not this one's
			v.taskAsked = false
		}
		v.fileKey = key
		v.featState = map[string]bool{}
		v.targetSel.Sel.SetValue("") // the target chosen for the former file is not this one's either
		v.taskOK = ""
		v.recall()
	}
	if len(p.Problems) > 0 { // a blocking one (ragged rows) is marked there, and stops Parse at Run with its row
		report.OwnerNote(v.checkBox, "About this file", p.Problems)
		kit.Show(v.checkBox, true)
	}
}

func (v *estimateView) profileNames() []string {
	if v.profile == nil {
		return nil
	}
	var out []string
	for _, c := range v.profile.Columns {
		out = append(out, c.Name)
	}
	return out
}
