//go:build js && wasm

package estimate

import (
	"syscall/js"

	"github.com/dpsample/dpsample/core/dataset"
	"github.com/dpsample/dpsample/wasm/internal/jsio"
	"github.com/dpsample/dpsample/wasm/ui/estimate/internal/form"
)

// The owner's declarations for a CSV (issue 23) are remembered in this
// browser (localStorage) for files with the same column names — keyed by
// dataset.Profile.HeaderHash, a hash of the header line, never of the data:
// what form.State.Memory says to keep, stored whenever it changes. Nothing
// here is computed from the data's values, and nothing is sent anywhere.

const declaredKeyPrefix = "dpsample:declared:"

// localStore returns window.localStorage, or false where the browser refuses
// it (a sandboxed frame, storage disabled): then nothing is remembered.
func localStore() (s js.Value, ok bool) {
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	s = js.Global().Get("localStorage")
	return s, s.Truthy()
}

// recalled is what this browser remembers for files with p's column names
// (nil: nothing, or a file without a header).
func recalled(p *dataset.Profile) (m *form.Memory) {
	s, ok := localStore()
	if p == nil || p.HeaderHash == "" || !ok {
		return nil
	}
	defer func() {
		if recover() != nil { // a stored value that is not ours: ignored
			m = nil
		}
	}()
	raw := s.Call("getItem", declaredKeyPrefix+p.HeaderHash)
	if raw.Type() != js.TypeString {
		return nil
	}
	m = new(form.Memory)
	if jsio.Decode(js.Global().Get("JSON").Call("parse", raw), m) != nil {
		return nil
	}
	return m
}

// remember stores what the form keeps for the CSV shown, when it changed
// since it was last stored.
func (v *estimateView) remember() {
	p := v.st.Table.Profile
	if p == nil || p.HeaderHash == "" || v.st.Table.Builtin != nil {
		return
	}
	s, ok := localStore()
	if !ok {
		return
	}
	key := declaredKeyPrefix + p.HeaderHash
	m := v.st.Memory()
	text := ""
	if m != nil {
		text = jsio.JSON(m, "")
	}
	if key+"\n"+text == v.memo {
		return
	}
	v.memo = key + "\n" + text
	defer func() { _ = recover() }() // storage full or refused: nothing is remembered
	if m == nil {
		s.Call("removeItem", key)
		return
	}
	s.Call("setItem", key, text)
}

// forget drops what this browser remembers for the current file's column
// names, and the declarations typed for them.
func (v *estimateView) forget() {
	if p := v.st.Table.Profile; p != nil && p.HeaderHash != "" {
		if s, ok := localStore(); ok {
			func() {
				defer func() { _ = recover() }()
				s.Call("removeItem", declaredKeyPrefix+p.HeaderHash)
			}()
		}
	}
	v.dispatch(form.Forgot{})
}
