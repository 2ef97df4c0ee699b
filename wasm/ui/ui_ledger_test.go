//go:build js && wasm

package ui

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"syscall/js"
	"testing"

	"github.com/dpsample/dpsample/core/privacy"
)

// TestTableKey: the table's fingerprint is the SHA-256 of its UTF-8 bytes,
// the same with crypto.subtle (node has it) and with the Go fallback; one
// changed byte changes it.
func TestTableKey(t *testing.T) {
	txt := "sepal_length,species\n5.1,setosa\n6.2,versicolor ü\n"
	want := sha256.Sum256([]byte(txt))
	if !js.Global().Get("crypto").Get("subtle").Truthy() {
		t.Fatal("this node has no crypto.subtle: the test would not exercise the page's path")
	}
	got, err := tableKey(txt)
	if err != nil || got != hex.EncodeToString(want[:]) {
		t.Fatalf("crypto.subtle key %q (%v), want %x", got, err, want)
	}
	// Hide crypto as a page outside a secure context sees it (node's is a
	// configurable getter), then put the descriptor back.
	obj := js.Global().Get("Object")
	saved := obj.Call("getOwnPropertyDescriptor", js.Global(), "crypto")
	obj.Call("defineProperty", js.Global(), "crypto", map[string]any{"value": js.Undefined(), "configurable": true, "writable": true})
	hidden := !js.Global().Get("crypto").Truthy()
	fallback, err := tableKey(txt)
	obj.Call("defineProperty", js.Global(), "crypto", saved)
	if !hidden || !js.Global().Get("crypto").Get("subtle").Truthy() {
		t.Fatal("could not hide and restore crypto: the fallback was not exercised")
	}
	if err != nil || fallback != got {
		t.Fatalf("Go fallback %q, crypto.subtle %q", fallback, got)
	}
	other, _ := tableKey(strings.Replace(txt, "5.1", "5.2", 1))
	if other == got {
		t.Fatal("a changed byte kept the key")
	}
}

// TestLedgerWording: the meter's line and the result's statement give the
// numbers of all releases on the table, and say when nothing is left.
func TestLedgerWording(t *testing.T) {
	l, _ := privacy.NewLedger(3, 1e-5)
	s, _ := privacy.Calibrate(1.5, 1e-5)
	for i := 0; i < 3; i++ {
		if _, err := l.Charge(privacy.Release{GDP: s, Epsilon: 1.5, Delta: 1e-5}); err != nil {
			t.Fatal(err)
		}
	}
	st := privacy.StateOf("k", l)
	if got := ledgerSummary(&st); got != "This table: 3 releases, spent ε = 2.77 of 3 (δ = 1e-05). Room left: one more run at ε ≤ 0.661 (δ = 1e-05), or several smaller ones."+
		" (Spent is less than the ε the runs asked for, 4.5: releases compose exactly — Gaussian DP, not by adding ε's — and a sampler keeps part of δ for its sampling error, so its guarantee at this table's δ is a little stronger than asked.)" {
		t.Errorf("summary %q", got)
	}
	// The refusal: plain words first (spent, asked, the largest ε that fits), the GDP detail after.
	big, _ := privacy.Calibrate(2, 1e-5)
	c, err := l.Check(privacy.Release{GDP: big, Epsilon: 2, Delta: 1e-5})
	if err != nil || c.Fits {
		t.Fatalf("check %+v, %v", c, err)
	}
	if got := (refusal{&c}).plain(); got != "Not run: this table's privacy budget cannot pay for it. So far 3 releases spent ε = 2.77 of this table's ε = 3 (δ = 1e-05). "+
		"This run asks for ε = 2. The largest ε that still fits is about 0.66: lower ε to that or less (the cost does not depend on the number of samples), "+
		"or reset the table's budget (see below)." {
		t.Errorf("refusal %q", got)
	}
	stmt := ledgerStatement(&st)
	for _, want := range []string{"All releases on this table so far (3 releases, this one included) together spent ε = 2.77 of the table's total ε = 3 at δ = 1e-05",
		"stays within (ε = 3, δ = 1e-05)-differential privacy", "one more run at ε ≤ 0.661"} {
		if !strings.Contains(stmt, want) {
			t.Errorf("statement %q lacks %q", stmt, want)
		}
	}
	if ledgerStatement(nil) != "" {
		t.Error("a statement without a ledger")
	}
	if e := exportLedger(&st); e.Key != "" || st.Key != "k" {
		t.Error("the export keeps the fingerprint, or the state lost it")
	}
	full, _ := privacy.NewLedger(1, 1e-5)
	sf, _ := privacy.Calibrate(1, 0.5e-5)
	full.Charge(privacy.Release{GDP: sf})
	fs := privacy.StateOf("k", full)
	if got := ledgerSummary(&fs); !strings.HasSuffix(got, "Nothing is left: further runs on this table are refused.") {
		t.Errorf("full: %q", got)
	}
}

// TestGoString: a held table copied into Go a piece at a time equals the
// one-piece copy, with a surrogate pair (😀) straddling a piece's end.
func TestGoString(t *testing.T) {
	head := strings.Repeat("a", 1<<20-1) // the pair's high half is the 2^20-th UTF-16 unit
	for _, txt := range []string{head + "😀,ü\n" + strings.Repeat("1,2\n", 300000), "x,y\n1,2\n"} {
		if got := goString(js.ValueOf(txt)); got != txt {
			t.Errorf("goString of %d bytes differs from the text (len %d)", len(txt), len(got))
		}
	}
}
