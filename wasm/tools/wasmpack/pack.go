//go:build !js

package main

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
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

type stats struct {
	before, after int // data segments
	lines         *lineStats
}

// pack returns module with its data segments merged across zero gaps shorter
// than gap bytes and, if lines, the file and line tables of Go's function
// table removed (stripLines). It refuses modules it cannot rewrite without
// changing their meaning: passive segments or another memory, an offset that
// is not an i32.const, a data count section (memory.init and data.drop name
// segments by index), overlapping segments.
func pack(module []byte, gap int, lines bool) ([]byte, stats, error) {
	var ls *lineStats
	var edit func([]byte) error
	if lines {
		edit = func(img []byte) error {
			s, err := stripLines(img)
			ls = &s
			return err
		}
	}
	out, st, err := rewrite(module, gap, edit)
	st.lines = ls
	return out, st, err
}

// rewrite is pack with the memory image edited by edit, if not nil, before
// it is written back as segments.
func rewrite(module []byte, gap int, edit func(img []byte) error) ([]byte, stats, error) {
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
			img, err := imageOf(segs)
			if err != nil {
				return nil, st, err
			}
			if edit != nil {
				if err := edit(img); err != nil {
					return nil, st, err
				}
			}
			packed := segmentsOf(img, gap)
			if got, err := imageOf(packed); err != nil || !bytes.Equal(got, img) {
				return nil, st, errors.New("internal error: the packed segments initialise different memory")
			}
			st.before, st.after = len(segs), len(packed)
			nb := writeSegments(packed)
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

// segmentsOf returns the segments that initialise img: its runs of bytes
// that are not zero, a run continuing across fewer than gap zero bytes.
func segmentsOf(img []byte, gap int) []segment {
	var out []segment
	for p := 0; p < len(img); {
		for p < len(img) && img[p] == 0 {
			p++
		}
		if p == len(img) {
			break
		}
		start, end := p, p // end: one past the last non-zero byte of the run
		for p < len(img) {
			if img[p] != 0 {
				p++
				end = p
				continue
			}
			if p-end+1 >= gap { // this zero makes the gap gap bytes long
				break
			}
			p++
		}
		out = append(out, segment{int64(start), img[start:end]})
		p = end
	}
	return out
}

// imageOf returns the memory segs initialise, up to the end of the last
// segment, or an error if two segments overlap.
func imageOf(segs []segment) ([]byte, error) {
	var hi int64
	for _, s := range segs {
		if s.offset < 0 {
			return nil, errors.New("negative segment offset")
		}
		hi = max(hi, s.offset+int64(len(s.data)))
	}
	m := make([]byte, hi)
	written := make([]bool, hi)
	for _, s := range segs {
		for i, c := range s.data {
			at := s.offset + int64(i)
			if written[at] {
				return nil, fmt.Errorf("segments overlap at address %#x", at)
			}
			m[at], written[at] = c, true
		}
	}
	return m, nil
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
