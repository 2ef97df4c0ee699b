//go:build !js

package main

import (
	"bytes"
	"encoding/binary"
	"strings"
	"testing"
)

// module builds a minimal module: a memory section, the given data
// segments, and a custom section after them (to check it is kept).
func module(segs []segment, extra ...[]byte) []byte {
	m := []byte("\x00asm\x01\x00\x00\x00")
	m = append(m, 5, 3, 1, 0, 2) // memory section: one memory, min 2 pages
	for _, e := range extra {
		m = append(m, e...)
	}
	body := writeSegments(segs)
	m = append(m, secData)
	m = binary.AppendUvarint(m, uint64(len(body)))
	m = append(m, body...)
	custom := append([]byte{4}, "note"...)
	m = append(m, 0, byte(len(custom)))
	return append(m, custom...)
}

// memory is the image a module's data segments initialise (first 128 KiB).
func memory(t *testing.T, mod []byte) []byte {
	t.Helper()
	p := 8
	for p < len(mod) {
		id := mod[p]
		size, n := binary.Uvarint(mod[p+1:])
		body := mod[p+1+n : p+1+n+int(size)]
		p += 1 + n + int(size)
		if id == secData {
			segs, err := readSegments(body)
			if err != nil {
				t.Fatal(err)
			}
			m := make([]byte, 128<<10)
			for _, s := range segs {
				copy(m[s.offset:], s.data)
			}
			return m
		}
	}
	t.Fatal("no data section")
	return nil
}

func TestPackMergesAcrossShortGaps(t *testing.T) {
	segs := []segment{
		{1000, []byte{1, 2, 3}},
		{1003 + 18, []byte{4, 5}}, // 18 zero bytes apart: merged
		{1023 + 5000, []byte{6}},  // 5000 apart: its own segment
		{70000, bytes.Repeat([]byte{7}, 300)},
		{69900, []byte{9, 9}}, // listed last, lies before 70000: sorted, then merged
	}
	in := module(segs)
	out, st, err := pack(in, 4096)
	if err != nil {
		t.Fatal(err)
	}
	if st.before != 5 || st.after != 3 {
		t.Errorf("segments %d → %d, want 5 → 3", st.before, st.after)
	}
	if !bytes.Equal(memory(t, in), memory(t, out)) {
		t.Error("packed module initialises different memory")
	}
	if !bytes.HasSuffix(out, []byte("\x04note")) || !bytes.Equal(out[8:13], []byte{5, 3, 1, 0, 2}) {
		t.Error("sections other than data changed")
	}
	// gap 1: nothing merges (no two segments touch).
	if _, st, _ := pack(in, 1); st.after != 5 {
		t.Errorf("gap 1: %d segments, want 5", st.after)
	}
}

func TestPackRefuses(t *testing.T) {
	ok := []segment{{10, []byte{1}}}
	for name, c := range map[string]struct {
		mod  []byte
		want string
	}{
		"data count": {module(ok, []byte{secDataCount, 1, 1}), "data count"},
		"overlap":    {module([]segment{{10, []byte{1, 2, 3}}, {11, []byte{5}}}), "overlap"},
		"not wasm":   {[]byte("hello, world"), "not a WebAssembly"},
	} {
		if _, _, err := pack(c.mod, 4096); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one containing %q", name, err, c.want)
		}
	}
	// A passive segment (flag 1).
	m := module(ok)
	i := bytes.Index(m, []byte{0, 0x41, 10, 0x0b})
	m[i] = 1
	if _, _, err := pack(m, 4096); err == nil || !strings.Contains(err.Error(), "not an active segment") {
		t.Errorf("passive segment: error %v", err)
	}
}

// TestSameImageCatchesABadMerge: the check pack relies on fails when a
// merge writes anything but zeros into a gap.
func TestSameImageCatchesABadMerge(t *testing.T) {
	a := []segment{{0, []byte{1}}, {4, []byte{2}}}
	good := []segment{{0, []byte{1, 0, 0, 0, 2}}}
	bad := []segment{{0, []byte{1, 0, 0xff, 0, 2}}}
	if err := sameImage(a, good); err != nil {
		t.Errorf("good merge rejected: %v", err)
	}
	if err := sameImage(a, bad); err == nil {
		t.Error("a merge that writes 0xff into a gap passed the check")
	}
}
