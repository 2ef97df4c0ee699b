//go:build !js

package main

import (
	"bytes"
	"encoding/binary"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// traced builds testdata/traced as the shipped modules are built (js/wasm,
// -trimpath, -s -w) and returns its bytes and a function running a module
// under node (Go's go_js_wasm_exec).
func traced(t *testing.T) ([]byte, func(mod []byte) (string, error)) {
	t.Helper()
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("node not found (./build.sh test installs it)")
	}
	dir := t.TempDir()
	out := filepath.Join(dir, "traced.wasm")
	build := exec.Command("go", "build", "-trimpath", "-ldflags=-s -w", "-o", out, "./testdata/traced")
	build.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	if b, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, b)
	}
	mod, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	goroot, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		t.Fatal(err)
	}
	exe := filepath.Join(strings.TrimSpace(string(goroot)), "lib", "wasm", "go_js_wasm_exec")
	run := func(m []byte) (string, error) {
		f := filepath.Join(dir, "run.wasm")
		if err := os.WriteFile(f, m, 0o644); err != nil {
			t.Fatal(err)
		}
		b, err := exec.Command(exe, f).CombinedOutput()
		return string(b), err
	}
	return mod, run
}

// TestStripLinesRuns: a module whose line tables wasmpack removed still
// grows stacks, collects garbage across goroutines, recovers a panic and
// names the functions of a traceback; only the file and line are gone. The
// same program without the strip prints them (so the check for "?:0" can
// fail), and one with the pcsp tables zeroed too does not run (so a strip
// that touched a table the runtime needs would be seen).
func TestStripLinesRuns(t *testing.T) {
	mod, run := traced(t)
	plain, err := run(mod)
	if err != nil || !strings.Contains(plain, "\ndone\n") {
		t.Fatalf("unstripped module: %v\n%s", err, plain)
	}
	if !regexp.MustCompile(`frame main\.main \S*traced/main\.go:\d+`).MatchString(plain) {
		t.Fatalf("unstripped module: no file:line for main.main\n%s", plain)
	}

	stripped, st, err := pack(mod, 4096, true)
	if err != nil {
		t.Fatal(err)
	}
	if st.lines == nil || st.lines.funcs < 500 || st.lines.bytes < 10000 {
		t.Fatalf("line tables removed: %+v; want hundreds of functions, tens of KB", st.lines)
	}
	got, err := run(stripped)
	if err != nil {
		t.Fatalf("stripped module: %v\n%s", err, got)
	}
	// Every line but the frames' positions is the same.
	pos := regexp.MustCompile(`(?m)^(frame \S+) .*$`)
	if a, b := pos.ReplaceAllString(plain, "$1"), pos.ReplaceAllString(got, "$1"); a != b {
		t.Errorf("stripped module prints\n%s\nwant (positions aside)\n%s", b, a)
	}
	if !strings.Contains(got, "frame main.main ?:0") || strings.Contains(got, "main.go:") {
		t.Errorf("stripped module still has source positions\n%s", got)
	}
	if !strings.Contains(got, "stack has main.recovered: true") {
		t.Errorf("the traceback lost the function names\n%s", got)
	}

	// Deliberately broken: zero the stack-size tables as well.
	broken, _, err := rewrite(mod, 4096, func(img []byte) error { _, err := strip(img, true); return err })
	if err != nil {
		t.Fatal(err)
	}
	if out, err := run(broken); err == nil && strings.Contains(out, "\ndone\n") {
		t.Errorf("a module without its pcsp tables ran to the end:\n%s", out)
	}
}

// TestStripLinesRefusesUnknownLayouts: a pcHeader that is missing or
// duplicated, or a _func that does not match its functab entry, is an
// error, not a guess.
func TestStripLinesRefusesUnknownLayouts(t *testing.T) {
	mod, _ := traced(t)
	segs, err := readSegments(dataSection(t, mod))
	if err != nil {
		t.Fatal(err)
	}
	img, err := imageOf(segs)
	if err != nil {
		t.Fatal(err)
	}
	h, err := findPCHeader(img)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		edit func(m []byte)
		want string
	}{
		{"no magic", func(m []byte) { m[h] = 0xf0 }, "no pcHeader"},
		{"two headers", func(m []byte) {
			at := (len(m) - pcHeaderSize - 4096) &^ 7
			copy(m[at:], m[h:h+pcHeaderSize])
			for k := 32; k <= 64; k += 8 { // offsets that stay inside the data from the copy
				binary.LittleEndian.PutUint64(m[at+k:], pcHeaderSize)
			}
		}, "two pcHeaders"},
		{"_func moved", func(m []byte) {
			functab := h + int(binary.LittleEndian.Uint64(m[h+64:]))
			m[functab+4]++ // the first function's funcoff
		}, "does not start with its functab entry"},
	} {
		m := bytes.Clone(img)
		c.edit(m)
		if _, err := stripLines(m); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", c.name, err, c.want)
		}
	}
	if _, err := stripLines(bytes.Clone(img)); err != nil {
		t.Errorf("the unedited image: %v", err)
	}
}

func dataSection(t *testing.T, mod []byte) []byte {
	t.Helper()
	for p := 8; p < len(mod); {
		id := mod[p]
		size, n := binary.Uvarint(mod[p+1:])
		body := mod[p+1+n : p+1+n+int(size)]
		p += 1 + n + int(size)
		if id == secData {
			return body
		}
	}
	t.Fatal("no data section")
	return nil
}
