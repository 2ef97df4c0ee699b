//go:build !js

package main

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"errors"
	"fmt"
	"regexp"
	"sort"
	"strings"
)

// section is one section of a module: its name (custom sections by their
// own name) and its size in bytes, header included.
type section struct {
	name string
	size int
}

// function is one defined function: its name and its body's bytes.
type function struct {
	name string
	body []byte
	size int
}

type module struct {
	sections []section
	funcs    []function
}

var sectionNames = [...]string{"custom", "type", "import", "function", "table", "memory", "global",
	"export", "start", "element", "code", "data", "datacount"}

// reader reads the LEB128 and length-prefixed items of the binary format.
type reader struct {
	b   []byte
	p   int
	err error
}

func (r *reader) u32() int {
	if r.err != nil {
		return 0
	}
	v, n := binary.Uvarint(r.b[r.p:])
	if n <= 0 || v > 1<<32 {
		r.err = fmt.Errorf("bad LEB128 at byte %d", r.p)
		return 0
	}
	r.p += n
	return int(v)
}

func (r *reader) bytes(n int) []byte {
	if r.err != nil {
		return nil
	}
	if n < 0 || r.p+n > len(r.b) {
		r.err = fmt.Errorf("item of %d bytes at byte %d runs past the end", n, r.p)
		return nil
	}
	s := r.b[r.p : r.p+n]
	r.p += n
	return s
}

func (r *reader) name() string { return string(r.bytes(r.u32())) }

// parse reads the sections, the number of imported functions, the code
// section's bodies and the function names of the "name" section.
func parse(b []byte) (*module, error) {
	if len(b) < 8 || !bytes.Equal(b[:4], []byte("\x00asm")) {
		return nil, errors.New("not a WebAssembly module")
	}
	m := &module{}
	r := &reader{b: b, p: 8}
	imported := 0
	var names map[int]string
	for r.p < len(b) && r.err == nil {
		start := r.p
		id := int(r.bytes(1)[0])
		body := r.bytes(r.u32())
		if r.err != nil {
			break
		}
		name := "unknown"
		if id < len(sectionNames) {
			name = sectionNames[id]
		}
		s := &reader{b: body}
		switch id {
		case 0:
			name = s.name()
			if name == "name" {
				names = functionNames(s)
			}
			name = "custom " + name
		case 2:
			for n := s.u32(); n > 0 && s.err == nil; n-- {
				s.name()
				s.name()
				kind := s.bytes(1)
				switch kind[0] {
				case 0: // function: type index
					s.u32()
					imported++
				case 1: // table: reftype, limits
					s.bytes(1)
					limits(s)
				case 2:
					limits(s)
				case 3:
					s.bytes(2)
				}
			}
		case 10:
			for n := s.u32(); n > 0 && s.err == nil; n-- {
				size := s.u32()
				m.funcs = append(m.funcs, function{body: s.bytes(size), size: size})
			}
		}
		if s.err != nil {
			return nil, fmt.Errorf("section %s: %v", name, s.err)
		}
		m.sections = append(m.sections, section{name, r.p - start})
	}
	if r.err != nil {
		return nil, r.err
	}
	if names == nil {
		return nil, errors.New(`no "name" section: build without -ldflags=-s`)
	}
	for i := range m.funcs {
		m.funcs[i].name = names[imported+i]
	}
	return m, nil
}

func limits(s *reader) {
	if s.bytes(1)[0]&1 == 1 {
		s.u32()
	}
	s.u32()
}

// functionNames reads subsection 1 (function names) of the "name" section.
func functionNames(s *reader) map[int]string {
	names := map[int]string{}
	for s.p < len(s.b) && s.err == nil {
		id := s.bytes(1)
		sub := &reader{b: s.bytes(s.u32())}
		if s.err != nil || id[0] != 1 {
			continue
		}
		for n := sub.u32(); n > 0 && sub.err == nil; n-- {
			i := sub.u32()
			names[i] = sub.name()
		}
	}
	return names
}

// wasmName is how the linker writes a symbol name into the "name" section
// (cmd/link/internal/wasm: every character other than a letter, digit, '_'
// or '.' becomes '_'): "honnef.co/go/js/dom/v2.(*BasicNode).AppendChild"
// becomes "honnef.co_go_js_dom_v2.__BasicNode_.AppendChild".
var wasmName = regexp.MustCompile(`[^\w.]`)

// namer maps function names back to import paths, given the module's
// packages (go list -deps): the longest mangled path followed by '.'.
type namer struct {
	mangled map[string]string // mangled path → import path
}

func newNamer(pkgs []string) *namer {
	n := &namer{mangled: map[string]string{}}
	for _, p := range pkgs {
		n.mangled[wasmName.ReplaceAllString(p, "_")] = p
	}
	return n
}

// pkgOf is the import path of a function: "runtime" for runtime.mallocgc,
// "honnef.co/go/js/dom/v2" for honnef.co_go_js_dom_v2.wrapEvent. Compiler-
// generated symbols (type:.eq.…, go:…) are grouped by their prefix, and a
// name matching no listed package by the text before its first '.'.
func (n *namer) pkgOf(sym string) string {
	if sym == "" {
		return "(unnamed)"
	}
	for _, pre := range []string{"type:", "go:", "type_", "go_"} {
		if strings.HasPrefix(sym, pre) {
			return strings.TrimSuffix(strings.TrimSuffix(pre, ":"), "_") + ":*"
		}
	}
	best := ""
	for i := 0; i < len(sym); i++ {
		if sym[i] != '.' {
			continue
		}
		if p, ok := n.mangled[sym[:i]]; ok && len(p) > len(best) {
			best = p
		}
	}
	if best != "" {
		return best
	}
	if i := strings.IndexByte(sym, '.'); i > 0 {
		return sym[:i] + " (unlisted)"
	}
	return sym
}

// group shortens an import path to its first depth elements (0: unchanged).
func group(pkg string, depth int) string {
	if depth <= 0 {
		return pkg
	}
	parts := strings.Split(pkg, "/")
	if len(parts) > depth {
		parts = parts[:depth]
	}
	return strings.Join(parts, "/")
}

type pkgRow struct {
	pkg                string
	funcs, bytes, gzip int
}

// byPackage sums the function bodies per package, largest first.
func (m *module) byPackage(n *namer, depth int) []pkgRow {
	idx := map[string]int{}
	var rows []pkgRow
	var bodies [][]byte
	for _, f := range m.funcs {
		p := group(n.pkgOf(f.name), depth)
		i, ok := idx[p]
		if !ok {
			i = len(rows)
			idx[p] = i
			rows = append(rows, pkgRow{pkg: p})
			bodies = append(bodies, nil)
		}
		rows[i].funcs++
		rows[i].bytes += f.size
		bodies[i] = append(bodies[i], f.body...)
	}
	for i := range rows {
		var buf bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
		zw.Write(bodies[i])
		zw.Close()
		rows[i].gzip = buf.Len()
	}
	sort.Slice(rows, func(i, j int) bool { return rows[i].bytes > rows[j].bytes })
	return rows
}

// largest lists the functions of package pkg (or of every package whose
// path starts with pkg + "/"), largest first.
func (m *module) largest(n *namer, pkg string) []function {
	var out []function
	for _, f := range m.funcs {
		if p := n.pkgOf(f.name); p == pkg || strings.HasPrefix(p, pkg+"/") {
			out = append(out, f)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].size > out[j].size })
	return out
}
