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
	segs, err := readSegments(dataSection(t, mod))
	if err != nil {
		t.Fatal(err)
	}
	m := make([]byte, 128<<10)
	for _, s := range segs {
		copy(m[s.offset:], s.data)
	}
	return m
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
	out, st, err := pack(in, 4096, false)
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
	if _, st, _ := pack(in, 1, false); st.after != 5 {
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
		if _, _, err := pack(c.mod, 4096, false); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one containing %q", name, err, c.want)
		}
	}
	// A passive segment (flag 1).
	m := module(ok)
	i := bytes.Index(m, []byte{0, 0x41, 10, 0x0b})
	m[i] = 1
	if _, _, err := pack(m, 4096, false); err == nil || !strings.Contains(err.Error(), "not an active segment") {
		t.Errorf("passive segment: error %v", err)
	}
}

// TestImageCatchesABadMerge: the comparison pack relies on tells a merge that
// writes anything but zeros into a gap, and overlapping segments, apart.
func TestImageCatchesABadMerge(t *testing.T) {
	a := []segment{{0, []byte{1}}, {4, []byte{2}}}
	good := []segment{{0, []byte{1, 0, 0, 0, 2}}}
	bad := []segment{{0, []byte{1, 0, 0xff, 0, 2}}}
	ia, _ := imageOf(a)
	if ig, _ := imageOf(good); !bytes.Equal(ia, ig) {
		t.Errorf("good merge: image %v, want %v", ig, ia)
	}
	if ib, _ := imageOf(bad); bytes.Equal(ia, ib) {
		t.Error("a merge that writes 0xff into a gap has the same image")
	}
	if _, err := imageOf([]segment{{0, []byte{1, 2}}, {1, []byte{3}}}); err == nil || !strings.Contains(err.Error(), "overlap") {
		t.Errorf("overlapping segments: error %v", err)
	}
}

// TestSegmentsOfGap: a run of zeros shorter than gap stays inside a segment,
// one of gap zeros or more separates two; leading and trailing zeros are
// left to the zeroed memory.
func TestSegmentsOfGap(t *testing.T) {
	img := []byte{0, 0, 1, 0, 0, 2, 0, 0, 0, 3, 0}
	for _, c := range []struct {
		gap  int
		want []segment
	}{
		{1, []segment{{2, []byte{1}}, {5, []byte{2}}, {9, []byte{3}}}},
		{3, []segment{{2, []byte{1, 0, 0, 2}}, {9, []byte{3}}}},
		{4, []segment{{2, []byte{1, 0, 0, 2, 0, 0, 0, 3}}}},
	} {
		got := segmentsOf(img, c.gap)
		if len(got) != len(c.want) {
			t.Errorf("gap %d: %v, want %v", c.gap, got, c.want)
			continue
		}
		for i := range got {
			if got[i].offset != c.want[i].offset || !bytes.Equal(got[i].data, c.want[i].data) {
				t.Errorf("gap %d: segment %d = %v, want %v", c.gap, i, got[i], c.want[i])
			}
		}
	}
}
