//go:build js && wasm

package pieces

import (
	"strings"
	"syscall/js"
	"testing"
)

// TestGoString: a held table copied into Go a piece at a time equals the
// one-piece copy, with a surrogate pair (😀) straddling a piece's end.
func TestGoString(t *testing.T) {
	head := strings.Repeat("a", 1<<20-1) // the pair's high half is the 2^20-th UTF-16 unit
	for _, txt := range []string{head + "😀,ü\n" + strings.Repeat("1,2\n", 300000), "x,y\n1,2\n"} {
		if got := GoString(js.ValueOf(txt)); got != txt {
			t.Errorf("GoString of %d bytes differs from the text (len %d)", len(txt), len(got))
		}
	}
}
