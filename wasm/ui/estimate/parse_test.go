//go:build js && wasm

package estimate

import (
	"strings"
	"testing"

	"github.com/dpsample/dpsample/core/dataset"
	"github.com/dpsample/dpsample/wasm/internal/jsio"
)

// TestRemoteParseError: a missing-cells error from the worker (its message:
// dataset.MissingCells.Error) reads as the same error parsed here does —
// naming the checkbox and the rows —, other errors keep their message.
func TestRemoteParseError(t *testing.T) {
	mc := &dataset.MissingCells{Rows: []int{3, 7}}
	got := remoteParseError(&jsio.Rejection{Message: mc.Error(), Name: "Error"}).Error()
	if !strings.Contains(got, "they are in rows 3, 7;") || !strings.Contains(got, "tick “drop rows with missing cells”") {
		t.Errorf("missing cells from the worker: %q", got)
	}
	if got := remoteParseError(&jsio.Rejection{Message: `row 4, column "a" must be a number`}).Error(); got != `row 4, column "a" must be a number` {
		t.Errorf("other error: %q", got)
	}
}
