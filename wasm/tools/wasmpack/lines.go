//go:build !js

package main

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
)

// Go's function table (pclntab) as runtime/symtab.go lays it out since Go
// 1.20 (pcHeader, functab, _func); wasm: minLC 1, pointers of 8 bytes.
var pcHeaderMagic = []byte{0xf1, 0xff, 0xff, 0xff, 0, 0, 1, 8}

const (
	pcHeaderSize = 72 // magic..pclnOffset
	funcPCSP     = 16 // _func.pcsp
	funcPCFile   = 20 // _func.pcfile
	funcPCLn     = 24 // _func.pcln
	funcNPCData  = 28 // _func.npcdata
	funcSize     = 44 // _func without its pcdata and funcdata offsets
)

type lineStats struct {
	funcs  int // functions whose pcfile and pcln offsets were cleared
	tables int // line and file tables zeroed
	bytes  int // bytes of those tables
}

// stripLines removes the file and line tables of every function from the
// memory image mem of a Go js/wasm module: it sets each _func's pcfile and
// pcln offsets to 0 and zeroes the bytes of the tables no other field
// (pcsp, pcdata) refers to.
//
// The runtime reads those two tables only to name a source position:
// runtime.funcline1 and funcfile (tracebacks, runtime.Caller, CallersFrames,
// Func.FileLine), and pcvalue returns −1 for offset 0, which they report as
// file "?", line 0. Unwinding, stack growth and garbage collection use pcsp,
// the pcdata tables (stack maps, the inline tree's index) and funcdata,
// which are kept byte for byte. Function names (funcnametab) are kept, so a
// traceback still says which functions were running.
//
// Go has no linker flag for this (-s and -w drop the symbol table and DWARF;
// the line tables stay in the data section). The layout is checked before
// anything is written — exactly one pcHeader, functab entries in order, each
// _func's entryOff equal to its functab entry, every table inside pctab and
// no zeroed byte inside a kept table — and any mismatch is an error, so a
// Go release that changes it fails the build instead of producing a module
// that crashes.
func stripLines(mem []byte) (lineStats, error) {
	return strip(mem, false)
}

// strip is stripLines; alsoSP also zeroes the pcsp tables, which breaks the
// module (its test checks that a run notices).
func strip(mem []byte, alsoSP bool) (lineStats, error) {
	var st lineStats
	h, err := findPCHeader(mem)
	if err != nil {
		return st, err
	}
	u64 := func(at int) uint64 { return binary.LittleEndian.Uint64(mem[at:]) }
	u32 := func(at int) uint32 { return binary.LittleEndian.Uint32(mem[at:]) }
	nfunc := int(u64(h + 8))
	pctab := h + int(u64(h+56))
	functab := h + int(u64(h+64))
	pctabLen := functab - pctab
	if functab+8*(nfunc+1) > len(mem) {
		return st, errors.New("pclntab: functab runs past the data")
	}

	type table struct{ off, n int }
	var keep, drop []int // table offsets in pctab
	var funcs []int      // addresses of the _func records
	prevEntry := uint32(0)
	for i := range nfunc {
		entry, funcoff := u32(functab+8*i), u32(functab+8*i+4)
		if entry < prevEntry {
			return st, fmt.Errorf("pclntab: functab entry %d is out of order", i)
		}
		prevEntry = entry
		f := functab + int(funcoff)
		if f+funcSize > len(mem) || u32(f) != entry {
			return st, fmt.Errorf("pclntab: _func %d does not start with its functab entry (a layout this tool does not know)", i)
		}
		npc := int(u32(f + funcNPCData))
		if f+funcSize+4*npc > len(mem) {
			return st, fmt.Errorf("pclntab: _func %d: pcdata past the data", i)
		}
		sp := int(u32(f + funcPCSP))
		if alsoSP {
			drop = append(drop, sp)
		} else {
			keep = append(keep, sp)
		}
		for j := range npc {
			keep = append(keep, int(u32(f+funcSize+4*j)))
		}
		drop = append(drop, int(u32(f+funcPCFile)), int(u32(f+funcPCLn)))
		funcs = append(funcs, f)
	}

	// The byte length of the pc-value table at off: pairs of (zig-zag value
	// delta, pc delta) varints, ended by a zero value delta after the first.
	length := func(off int) (int, error) {
		if off < 0 || off >= pctabLen {
			return 0, fmt.Errorf("pclntab: table offset %d outside pctab (%d bytes)", off, pctabLen)
		}
		b := mem[pctab+off : pctab+pctabLen]
		p := 0
		for first := true; ; first = false {
			v, n := binary.Uvarint(b[p:])
			if n <= 0 {
				return 0, fmt.Errorf("pclntab: table at %d is not a pc-value table", off)
			}
			p += n
			if v == 0 && !first {
				return p, nil
			}
			_, n = binary.Uvarint(b[p:])
			if n <= 0 {
				return 0, fmt.Errorf("pclntab: table at %d is not a pc-value table", off)
			}
			p += n
		}
	}
	kept := make([]bool, pctabLen)
	for _, off := range keep {
		if off == 0 {
			continue
		}
		n, err := length(off)
		if err != nil {
			return st, err
		}
		for k := off; k < off+n; k++ {
			kept[k] = true
		}
	}
	seen := map[int]bool{}
	var zero []table
	for _, off := range drop {
		if off == 0 || seen[off] {
			continue
		}
		seen[off] = true
		n, err := length(off)
		if err != nil {
			return st, err
		}
		shared := kept[off]
		for k := off; k < off+n; k++ {
			if kept[k] != shared {
				return st, fmt.Errorf("pclntab: table at %d overlaps a kept table", off)
			}
		}
		if !shared { // a line table equal to a kept one is the kept one
			zero = append(zero, table{off, n})
		}
	}
	for _, t := range zero {
		clear(mem[pctab+t.off : pctab+t.off+t.n])
		st.tables++
		st.bytes += t.n
	}
	for _, f := range funcs {
		clear(mem[f+funcPCFile : f+funcPCLn+4])
		if alsoSP {
			clear(mem[f+funcPCSP : f+funcPCSP+4])
		}
	}
	st.funcs = len(funcs)
	return st, nil
}

// findPCHeader returns the address of the one pcHeader in mem whose fields
// are consistent: nfunc > 0, the five table offsets increasing and inside
// the data.
func findPCHeader(mem []byte) (int, error) {
	found := -1
	for from := 0; ; {
		i := bytes.Index(mem[from:], pcHeaderMagic)
		if i < 0 {
			break
		}
		h := from + i
		from = h + 1
		if h%8 != 0 || h+pcHeaderSize > len(mem) {
			continue
		}
		nfunc := binary.LittleEndian.Uint64(mem[h+8:])
		ok := nfunc > 0 && nfunc < 1<<24
		prev := uint64(pcHeaderSize)
		for k := 32; k <= 64; k += 8 { // funcname, cu, filetab, pctab, pcln offsets
			off := binary.LittleEndian.Uint64(mem[h+k:])
			ok = ok && off >= prev && off < uint64(len(mem)-h)
			prev = off
		}
		if !ok {
			continue
		}
		if found >= 0 {
			return 0, errors.New("pclntab: two pcHeaders in the data")
		}
		found = h
	}
	if found < 0 {
		return 0, errors.New("pclntab: no pcHeader (magic 0xfffffff1, Go ≥ 1.20, js/wasm) in the data")
	}
	return found, nil
}
