// Command traced exercises what a Go js/wasm module needs its function table
// for — stack growth, garbage collection with goroutines, panic and recover,
// tracebacks — and prints the source positions it finds (wasmpack's
// TestStripLinesRuns).
package main

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"strings"
)

type node struct {
	next *node
	buf  [64]byte
}

// grow recurses with a large frame, so the stack is copied many times (the
// copy reads every frame's size from the pcsp table and its pointers from
// the stack maps).
func grow(depth int, keep *node) int {
	var pad [256]byte
	pad[depth%256] = byte(depth)
	if depth == 0 {
		runtime.GC()
		n := 0
		for p := keep; p != nil; p = p.next {
			n++
		}
		return n + int(pad[0])
	}
	return grow(depth-1, &node{next: keep}) + int(pad[depth%256]&0)
}

func recovered() (msg string) {
	defer func() {
		r := recover()
		msg = fmt.Sprint(r) + "\n" + string(debug.Stack())
	}()
	var m map[string]int
	m["x"]++ // panics: assignment to entry in nil map
	return ""
}

func main() {
	done := make(chan int)
	for g := range 4 {
		go func() {
			s := 0
			for i := range 50 {
				s += grow(2000+g*100+i, nil)
			}
			done <- s
		}()
	}
	total := 0
	for range 4 {
		total += <-done
	}
	fmt.Println("sum", total)
	msg := recovered()
	fmt.Println("recovered:", strings.SplitN(msg, "\n", 2)[0])
	pcs := make([]uintptr, 16)
	frames := runtime.CallersFrames(pcs[:runtime.Callers(1, pcs)])
	for {
		f, more := frames.Next()
		fmt.Printf("frame %s %s:%d\n", f.Function, f.File, f.Line)
		if !more {
			break
		}
	}
	fmt.Println("stack has main.recovered:", strings.Contains(msg, "main.recovered"))
	fmt.Println("done")
}
