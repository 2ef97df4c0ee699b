//go:build js && wasm

// Package jsio is the plumbing the JS API (wasm/jsapi) and the page's UI
// (wasm/ui) share: argument readers that name the field in every error
// (args.go, object.go), typed arrays (typed.go), Go ↔ Promise with one
// representation of cancellation, ErrAborted (promise.go, runctl.go), and the
// one wire codec for requests and results (codec.go).
package jsio

import (
	"fmt"
	"math"
	"syscall/js"

	"github.com/dpsample/dpsample/core/checks"
)

// Describe renders a JS value for an error message: its type and, for
// primitives, its value ("string \"1\"", "null", "object").
func Describe(v js.Value) string {
	switch v.Type() {
	case js.TypeUndefined:
		return "undefined"
	case js.TypeNull:
		return "null"
	case js.TypeNumber:
		return checks.Fmt(v.Float())
	case js.TypeString:
		s := v.String()
		if len(s) > 40 {
			s = s[:40] + "…"
		}
		return fmt.Sprintf("string %q", s)
	case js.TypeBoolean:
		return fmt.Sprintf("boolean %v", v.Bool())
	case js.TypeObject:
		if js.Global().Get("Array").Call("isArray", v).Bool() {
			return "an array"
		}
		return "an object"
	}
	return v.Type().String()
}

// Arg returns args[i], or undefined when the caller passed fewer.
func Arg(args []js.Value, i int) js.Value {
	if i < len(args) {
		return args[i]
	}
	return js.Undefined()
}

// Number reads a JS number that must be finite. Strings, booleans, null,
// undefined, NaN and ±Inf are errors naming the field.
func Number(v js.Value, field string) (float64, error) {
	if v.Type() != js.TypeNumber {
		return 0, &checks.Error{Field: field, Rule: "a finite number", Got: Describe(v)}
	}
	f := v.Float()
	if err := checks.Finite(field, f); err != nil {
		return 0, err
	}
	return f, nil
}

// NumberRule reads a JS number and validates it with a core/checks rule, so
// the message carries the rule ("epsilon must be a finite number > 0, got string \"1\"").
func NumberRule(v js.Value, field string, rule func(string, float64) error) (float64, error) {
	if v.Type() != js.TypeNumber {
		// Let the rule phrase itself on NaN, then replace the value part.
		err := rule(field, math.NaN())
		if ce, ok := err.(*checks.Error); ok {
			return 0, &checks.Error{Field: field, Rule: ce.Rule, Got: Describe(v)}
		}
		return 0, &checks.Error{Field: field, Rule: "a finite number", Got: Describe(v)}
	}
	f := v.Float()
	return f, rule(field, f)
}
