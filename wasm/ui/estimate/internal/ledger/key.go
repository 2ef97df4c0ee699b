//go:build js && wasm

package ledger

import (
	"crypto/sha256"
	"encoding/hex"
	"io"
	"syscall/js"

	"github.com/dpsample/dpsample/core/dataset"
	"github.com/dpsample/dpsample/wasm/internal/jsio"
	"github.com/dpsample/dpsample/wasm/ui/internal/kit"
)

// The keys of a table's budget (docs/PRIVACY.md §8): the key itself (hashed
// in the worker for a large table) and the one before issue 30 (hashed here
// a piece at a time), each remembered for the last table.

// tableKey is the key of the table's budget: dataset.TableKey, the SHA-256
// of its canonical form (docs/PRIVACY.md §8).
func tableKey(txt string) (string, error) { return dataset.TableKey(txt) }

// legacyKey is the key before issue 30, the SHA-256 of the text's bytes: a
// budget stored under it is carried over to tableKey (sync). A large text
// is hashed a piece at a time (hashPiece bytes), the event loop running
// between pieces: Go's SHA-256 of 10 MB in one go is a long task, and so is
// the TextEncoder copy that SubtleCrypto's digest needs (≈ 110 ms for 10 MB
// in Chromium, issue 29 item 4). Call it from a goroutine.
func legacyKey(txt string) string {
	h := sha256.New()
	for i := 0; i < len(txt); i += hashPiece {
		io.WriteString(h, txt[i:min(i+hashPiece, len(txt))])
		if len(txt) >= kit.AsyncProfileBytes {
			jsio.Yield()
		}
	}
	return hex.EncodeToString(h.Sum(nil))
}

// hashPiece is legacyKey's piece: ≈ 10 ms of hashing in Chromium.
const hashPiece = 1 << 19

// legacyFor is legacyKey(txt), remembered for the last table. Call it from
// a goroutine.
func (lv *View) legacyFor(txt string) string {
	if txt == lv.legacyText && lv.legacyMemo != "" {
		return lv.legacyMemo
	}
	lv.legacyText, lv.legacyMemo = txt, legacyKey(txt)
	return lv.legacyMemo
}

// keyFor is tableKey(txt), remembered for the last table, and hashed in the
// worker: the form's large table from the string it holds, any other table
// from a copy (a 15 KB table's canonical form took ≈ 60 ms of the main thread
// at start-up, when the module has not been optimised yet). Here if the worker
// is not available or fails (its error is then this one). Call it from a
// goroutine.
func (lv *View) keyFor(txt string) (string, error) {
	if txt == lv.keyText && lv.keyMemo != "" {
		return lv.keyMemo, nil
	}
	var key string
	var err error
	if src, s := lv.sourceOf(); len(txt) >= kit.AsyncProfileBytes && s == txt {
		key, err = tableKeyOf(txt, src)
	} else if res, rerr := kit.CallRemote("data.tableKey", txt); rerr == nil && res.Type() == js.TypeString {
		key = res.String()
	} else {
		key, err = tableKey(txt)
	}
	if err == nil {
		lv.keyText, lv.keyMemo = txt, key
	}
	return key, err
}

func (lv *View) sourceOf() (js.Value, string) {
	if lv.Source == nil {
		return js.Undefined(), ""
	}
	return lv.Source()
}

// tableKeyOf is the table's budget key (tableKey), hashed in the worker for
// a large text. Call it from a goroutine.
func tableKeyOf(txt string, src js.Value) (string, error) {
	if !kit.InWorker(txt) {
		return tableKey(txt)
	}
	res, err := kit.CallRemote("data.tableKey", src)
	if err != nil {
		return "", err
	}
	return res.String(), nil
}
