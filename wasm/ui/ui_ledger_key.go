//go:build js && wasm

package ui

import (
	"crypto/sha256"
	"encoding/hex"
	"syscall/js"

	"github.com/dpsample/dpsample/core/dataset"
	"github.com/dpsample/dpsample/wasm/internal/jsio"
)

// The keys of a table's budget (docs/PRIVACY.md §8), moved unchanged from
// ui_ledger.go: the key itself and the one before issue 30, each remembered
// for the last table and hashed off Go's heap for a large one.

// tableKey is the key of the table's budget: dataset.TableKey, the SHA-256
// of its canonical form (docs/PRIVACY.md §8).
func tableKey(txt string) (string, error) { return dataset.TableKey(txt) }

// legacyKey is the key before issue 30, the SHA-256 of the text's bytes: a
// budget stored under it is carried over to tableKey (sync). A large text
// is hashed by the browser's SubtleCrypto where it has one (native code,
// asynchronous; Go's SHA-256 of 10 MB is a long task). Call it from a
// goroutine.
func legacyKey(txt string) string { return legacyKeyOf(txt, js.Undefined()) }

// legacyKeyOf is legacyKey with the text also as a JS string src (or
// undefined), which SubtleCrypto then reads without a copy out of Go.
func legacyKeyOf(txt string, src js.Value) string {
	if len(txt) >= asyncProfileBytes {
		if subtle := js.Global().Get("crypto").Get("subtle"); subtle.Truthy() && js.Global().Get("TextEncoder").Truthy() {
			if src.Type() != js.TypeString {
				src = js.ValueOf(txt)
			}
			bytes := js.Global().Get("TextEncoder").New().Call("encode", src)
			if buf, err := jsio.Await(subtle.Call("digest", "SHA-256", bytes)); err == nil {
				sum := make([]byte, 32)
				if js.CopyBytesToGo(sum, js.Global().Get("Uint8Array").New(buf)) == 32 {
					return hex.EncodeToString(sum)
				}
			}
		}
	}
	sum := sha256.Sum256([]byte(txt))
	return hex.EncodeToString(sum[:])
}

// legacyFor is legacyKey(txt), remembered for the last table, read from
// the form's JS string when txt is its large table. Call it from a
// goroutine.
func (lv *ledgerView) legacyFor(txt string) string {
	if txt == lv.legacyText && lv.legacyMemo != "" {
		return lv.legacyMemo
	}
	src, s := lv.sourceOf()
	if s != txt {
		src = js.Undefined()
	}
	lv.legacyText, lv.legacyMemo = txt, legacyKeyOf(txt, src)
	return lv.legacyMemo
}

// keyFor is tableKey(txt), remembered for the last table, and hashed in the
// worker when txt is the form's large table. Call it from a goroutine.
func (lv *ledgerView) keyFor(txt string) (string, error) {
	if txt == lv.keyText && lv.keyMemo != "" {
		return lv.keyMemo, nil
	}
	var key string
	var err error
	if src, s := lv.sourceOf(); len(txt) >= asyncProfileBytes && s == txt {
		key, err = tableKeyOf(txt, src)
	} else {
		key, err = tableKey(txt)
	}
	if err == nil {
		lv.keyText, lv.keyMemo = txt, key
	}
	return key, err
}

func (lv *ledgerView) sourceOf() (js.Value, string) {
	if lv.source == nil {
		return js.Undefined(), ""
	}
	return lv.source()
}
