//go:build !js

package main

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"sort"
)

const (
	secData      = 11
	secDataCount = 12
)

// segment is an active data segment of memory 0: its offset and bytes.
type segment struct {
	offset int64
	data   []byte
}

type stats struct{ before, after int }

// pack returns module with its data segments merged across zero gaps shorter
// than gap bytes. It refuses modules it cannot rewrite without changing
// their meaning: passive segments or another memory, an offset that is not
// an i32.const, a data count section (memory.init and data.drop name
// segments by index), overlapping segments.
func pack(module []byte, gap int) ([]byte, stats, error) {
	var st stats
	if len(module) < 8 || !bytes.Equal(module[:4], []byte("\x00asm")) {
		return nil, st, errors.New("not a WebAssembly module")
	}
	out := append([]byte(nil), module[:8]...)
	p := 8
	found := false
	for p < len(module) {
		start := p
		id := module[p]
		size, n := binary.Uvarint(module[p+1:])
		if n <= 0 || p+1+n+int(size) > len(module) {
			return nil, st, fmt.Errorf("bad section header at byte %d", p)
		}
		body := module[p+1+n : p+1+n+int(size)]
		p += 1 + n + int(size)
		switch id {
		case secDataCount:
			return nil, st, errors.New("the module has a data count section (segment indices are used); not rewriting it")
		case secData:
			segs, err := readSegments(body)
			if err != nil {
				return nil, st, err
			}
			merged := merge(segs, gap)
			if err := sameImage(segs, merged); err != nil {
				return nil, st, err
			}
			st.before, st.after = len(segs), len(merged)
			nb := writeSegments(merged)
			out = append(out, secData)
			out = binary.AppendUvarint(out, uint64(len(nb)))
			out = append(out, nb...)
			found = true
			continue
		}
		out = append(out, module[start:p]...)
	}
	if !found {
		return nil, st, errors.New("no data section")
	}
	return out, st, nil
}

func readSegments(b []byte) ([]segment, error) {
	count, n := binary.Uvarint(b)
	if n <= 0 {
		return nil, errors.New("bad segment count")
	}
	p := n
	segs := make([]segment, 0, count)
	for i := uint64(0); i < count; i++ {
		if p >= len(b) || b[p] != 0 {
			return nil, fmt.Errorf("segment %d is not an active segment of memory 0", i)
		}
		p++
		if p >= len(b) || b[p] != 0x41 { // i32.const
			return nil, fmt.Errorf("segment %d: offset is not an i32.const", i)
		}
		p++
		off, n := readSLEB(b[p:])
		if n <= 0 {
			return nil, fmt.Errorf("segment %d: bad offset", i)
		}
		p += n
		if p >= len(b) || b[p] != 0x0b { // end
			return nil, fmt.Errorf("segment %d: offset expression is not a single i32.const", i)
		}
		p++
		l, n := binary.Uvarint(b[p:])
		if n <= 0 || p+n+int(l) > len(b) {
			return nil, fmt.Errorf("segment %d: bad length", i)
		}
		p += n
		segs = append(segs, segment{off, b[p : p+int(l)]})
		p += int(l)
	}
	if p != len(b) {
		return nil, fmt.Errorf("%d bytes after the last segment", len(b)-p)
	}
	return segs, nil
}

// merge joins consecutive segments (in offset order) whose gap is shorter
// than gap, filling the gap with zeros.
func merge(segs []segment, gap int) []segment {
	s := append([]segment(nil), segs...)
	sort.SliceStable(s, func(i, j int) bool { return s[i].offset < s[j].offset })
	var out []segment
	for _, g := range s {
		if k := len(out) - 1; k >= 0 {
			last := &out[k]
			end := last.offset + int64(len(last.data))
			if d := g.offset - end; d >= 0 && d < int64(gap) {
				last.data = append(append(last.data, make([]byte, d)...), g.data...)
				continue
			}
		}
		out = append(out, segment{g.offset, append([]byte(nil), g.data...)})
	}
	return out
}

// sameImage checks that a and b initialise the same memory: equal bytes
// where either writes, zeros where only one does, and no overlaps in a.
func sameImage(a, b []segment) error {
	var hi int64
	for _, s := range append(append([]segment(nil), a...), b...) {
		if s.offset < 0 {
			return errors.New("negative segment offset")
		}
		hi = max(hi, s.offset+int64(len(s.data)))
	}
	image := func(segs []segment, overlapErr bool) ([]byte, error) {
		m := make([]byte, hi)
		written := make([]bool, hi)
		for _, s := range segs {
			for i, c := range s.data {
				at := s.offset + int64(i)
				if written[at] && overlapErr {
					return nil, fmt.Errorf("segments overlap at address %#x", at)
				}
				m[at], written[at] = c, true
			}
		}
		return m, nil
	}
	ma, err := image(a, true)
	if err != nil {
		return err
	}
	mb, err := image(b, true)
	if err != nil {
		return err
	}
	if !bytes.Equal(ma, mb) {
		return errors.New("internal error: the merged segments initialise different memory")
	}
	return nil
}

func writeSegments(segs []segment) []byte {
	out := binary.AppendUvarint(nil, uint64(len(segs)))
	for _, s := range segs {
		out = append(out, 0, 0x41)
		out = appendSLEB(out, s.offset)
		out = append(out, 0x0b)
		out = binary.AppendUvarint(out, uint64(len(s.data)))
		out = append(out, s.data...)
	}
	return out
}

func readSLEB(b []byte) (int64, int) {
	var v int64
	var shift uint
	for i, c := range b {
		if i >= 10 {
			return 0, -1
		}
		v |= int64(c&0x7f) << shift
		shift += 7
		if c&0x80 == 0 {
			if shift < 64 && c&0x40 != 0 {
				v |= -1 << shift
			}
			return v, i + 1
		}
	}
	return 0, -1
}

func appendSLEB(b []byte, v int64) []byte {
	for {
		c := byte(v & 0x7f)
		v >>= 7
		if (v == 0 && c&0x40 == 0) || (v == -1 && c&0x40 != 0) {
			return append(b, c)
		}
		b = append(b, c|0x80)
	}
}
