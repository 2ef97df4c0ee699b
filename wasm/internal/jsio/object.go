//go:build js && wasm

package jsio

import (
	"fmt"
	"math"
	"sort"
	"strings"
	"syscall/js"

	"github.com/dpsample/dpsample/core/checks"
)

// Object reads the fields of a JS options object with validation: every
// read names the field ("req.epsilon"), unknown fields are rejected (a typo
// such as "epsion" would otherwise be silently ignored), and nulls, NaN,
// strings-for-numbers and non-integers are errors rather than vert's silent
// drops and truncations.
type Object struct {
	v      js.Value
	prefix string // "req." or "" for the message
}

// IsArray reports whether v is a JS Array (Array.isArray).
func IsArray(v js.Value) bool { return js.Global().Get("Array").Call("isArray", v).Bool() }

// ReadObject validates that v is a plain object whose keys are all in known.
// An undefined v is allowed when optional (it reads as an empty object).
func ReadObject(v js.Value, name string, optional bool, known ...string) (Object, error) {
	prefix := ""
	if name != "" {
		prefix = name + "."
	}
	if v.Type() == js.TypeUndefined && optional {
		return Object{v: js.Global().Get("Object").New(), prefix: prefix}, nil
	}
	if v.Type() != js.TypeObject || IsArray(v) || v.InstanceOf(js.Global().Get("ArrayBuffer")) {
		return Object{}, &checks.Error{Field: name, Rule: "an object", Got: Describe(v)}
	}
	keys := js.Global().Get("Object").Call("keys", v)
	for i := 0; i < keys.Length(); i++ {
		k := keys.Index(i).String()
		ok := false
		for _, kn := range known {
			if k == kn {
				ok = true
				break
			}
		}
		if !ok {
			sorted := append([]string(nil), known...)
			sort.Strings(sorted)
			return Object{}, &checks.Error{Field: prefix + k, Rule: "a known field (" + strings.Join(sorted, ", ") + ")", Got: "an unknown field"}
		}
	}
	return Object{v: v, prefix: prefix}, nil
}

func (o Object) Get(f string) js.Value { return o.v.Get(f) }

// Has reports whether field f is present and not undefined.
func (o Object) Has(f string) bool { return o.v.Get(f).Type() != js.TypeUndefined }

// Num reads a required number validated by rule.
func (o Object) Num(f string, rule func(string, float64) error) (float64, error) {
	return NumberRule(o.Get(f), o.prefix+f, rule)
}

// OptNum reads an optional number (def when absent).
func (o Object) OptNum(f string, def float64, rule func(string, float64) error) (float64, error) {
	if !o.Has(f) {
		return def, nil
	}
	return o.Num(f, rule)
}

// Int reads an integer field in [lo, hi] (def when absent and optional).
func (o Object) Int(f string, lo, hi int, optional bool, def int) (int, error) {
	v := o.Get(f)
	if v.Type() == js.TypeUndefined && optional {
		return def, nil
	}
	field := o.prefix + f
	if v.Type() != js.TypeNumber {
		return 0, &checks.Error{Field: field, Rule: fmt.Sprintf("an integer in [%d, %d]", lo, hi), Got: Describe(v)}
	}
	x := v.Float()
	if math.IsNaN(x) || math.IsInf(x, 0) || x != math.Trunc(x) || x < float64(lo) || x > float64(hi) {
		return 0, &checks.Error{Field: field, Rule: fmt.Sprintf("an integer in [%d, %d]", lo, hi), Got: checks.Fmt(x)}
	}
	return int(x), nil
}

// Seed reads an optional non-negative integer seed (≤ 2^53 so JS holds it exactly).
func (o Object) Seed() (*uint64, error) {
	if !o.Has("seed") {
		return nil, nil
	}
	v, err := o.Int("seed", 0, 1<<53, false, 0)
	if err != nil {
		return nil, err
	}
	s := uint64(v)
	return &s, nil
}

// OptBool reads an optional boolean field: nil when absent, an error naming
// the field for anything but true or false.
func (o Object) OptBool(f string) (*bool, error) {
	v := o.Get(f)
	switch v.Type() {
	case js.TypeUndefined:
		return nil, nil
	case js.TypeBoolean:
		b := v.Bool()
		return &b, nil
	}
	return nil, &checks.Error{Field: o.prefix + f, Rule: "a boolean (true or false)", Got: Describe(v)}
}

// Str reads a string field that must be one of allowed (def when absent and optional).
func (o Object) Str(f string, optional bool, def string, allowed ...string) (string, error) {
	v := o.Get(f)
	if v.Type() == js.TypeUndefined && optional {
		return def, nil
	}
	rule := "one of " + quoteAll(allowed)
	if v.Type() != js.TypeString {
		return "", &checks.Error{Field: o.prefix + f, Rule: rule, Got: Describe(v)}
	}
	s := v.String()
	for _, a := range allowed {
		if s == a {
			return s, nil
		}
	}
	return "", &checks.Error{Field: o.prefix + f, Rule: rule, Got: fmt.Sprintf("%q", s)}
}

func quoteAll(ss []string) string {
	q := make([]string, len(ss))
	for i, s := range ss {
		q[i] = fmt.Sprintf("%q", s)
	}
	return strings.Join(q, ", ")
}

// MaxCells bounds the data a call may hand over (a 24 GiB machine, but a
// browser tab has far less): 2·10⁷ numbers = 160 MB.
const MaxCells = 20_000_000

// Vector reads a numeric array: a Float64Array (one bulk copy) or a plain
// array checked element by element ("y[12] must be a finite number, got null").
func Vector(v js.Value, field string, wantLen int) ([]float64, error) {
	if v.Type() != js.TypeObject {
		return nil, &checks.Error{Field: field, Rule: "an array of numbers or a Float64Array", Got: Describe(v)}
	}
	switch {
	case v.InstanceOf(js.Global().Get("Float64Array")):
		n := v.Length()
		if err := checkLength(field, n, wantLen); err != nil {
			return nil, err
		}
		out := make([]float64, n)
		if n > 0 {
			bytes := js.Global().Get("Uint8Array").New(v.Get("buffer"), v.Get("byteOffset"), n*8)
			js.CopyBytesToGo(Float64Bytes(out), bytes)
		}
		for i, x := range out {
			if math.IsNaN(x) || math.IsInf(x, 0) { // the name only for the error (a Sprintf a cell is most of the time)
				return nil, checks.Finite(fmt.Sprintf("%s[%d]", field, i), x)
			}
		}
		return out, nil
	case IsArray(v):
		n := v.Length()
		if err := checkLength(field, n, wantLen); err != nil {
			return nil, err
		}
		out := make([]float64, n)
		for i := range out {
			x, err := Number(v.Index(i), fmt.Sprintf("%s[%d]", field, i))
			if err != nil {
				return nil, err
			}
			out[i] = x
		}
		return out, nil
	}
	return nil, &checks.Error{Field: field, Rule: "an array of numbers or a Float64Array", Got: Describe(v)}
}

// checkLength requires n == wantLen (unless wantLen < 0) and n ≤ MaxCells.
func checkLength(field string, n, wantLen int) error {
	if wantLen >= 0 && n != wantLen {
		return &checks.Error{Field: field, Rule: fmt.Sprintf("of length %d", wantLen), Got: fmt.Sprintf("length %d", n)}
	}
	if n > MaxCells {
		return checks.Errorf(field, "at most %d numbers (got %d)", MaxCells, n)
	}
	return nil
}

// Matrix reads n rows of equal length d ≥ 1: an array of rows (arrays or
// Float64Arrays), or one row-major Float64Array with its shape,
// {data: Float64Array of n·d, shape: [n, d]} (one copy instead of n: the
// form data.parseCSV returns with {flat: true}).
func Matrix(v js.Value, field string) ([][]float64, error) {
	if isFlat(v) {
		return flatMatrix(v, field, nil)
	}
	if v.Type() != js.TypeObject || !IsArray(v) {
		return nil, &checks.Error{Field: field, Rule: "an array of rows (arrays of numbers or Float64Arrays) or {data, shape}", Got: Describe(v)}
	}
	n := v.Length()
	if n == 0 {
		return nil, checks.Errorf(field, "a non-empty array of rows")
	}
	rows := make([][]float64, n)
	d := -1
	for i := 0; i < n; i++ {
		r, err := Vector(v.Index(i), fmt.Sprintf("%s[%d]", field, i), d)
		if err != nil {
			return nil, err
		}
		if d < 0 {
			d = len(r)
			if d == 0 {
				return nil, checks.Errorf(field+"[0]", "a non-empty row")
			}
			if n*d > MaxCells {
				return nil, checks.Errorf(field, "at most %d numbers (got %d rows × %d)", MaxCells, n, d)
			}
		}
		rows[i] = r
	}
	return rows, nil
}

// isFlat reports whether v is a matrix in the {data, shape} form.
func isFlat(v js.Value) bool {
	return v.Type() == js.TypeObject && !IsArray(v) && v.Get("shape").Type() != js.TypeUndefined
}

// flatMatrix reads {data: Float64Array, shape: [n, d]} (Matrix), its rows
// sharing one backing array, copied and checked in pieces of piecesCells
// cells; a non-nil yield is called after each piece (MatrixPieces).
func flatMatrix(v js.Value, field string, yield func()) ([][]float64, error) {
	sh := v.Get("shape")
	if !IsArray(sh) || sh.Length() != 2 {
		return nil, &checks.Error{Field: field + ".shape", Rule: "[rows, columns]", Got: Describe(sh)}
	}
	var dims [2]int
	for i := range dims {
		x := sh.Index(i)
		if x.Type() != js.TypeNumber || x.Float() != float64(int(x.Float())) || x.Float() < 1 || x.Float() > MaxCells {
			return nil, &checks.Error{Field: fmt.Sprintf("%s.shape[%d]", field, i), Rule: fmt.Sprintf("a whole number in [1, %d]", MaxCells), Got: Describe(x)}
		}
		dims[i] = x.Int()
	}
	n, d := dims[0], dims[1]
	if n*d > MaxCells {
		return nil, checks.Errorf(field, "at most %d numbers (got %d rows × %d)", MaxCells, n, d)
	}
	data := v.Get("data")
	if data.Type() != js.TypeObject || !data.InstanceOf(js.Global().Get("Float64Array")) {
		return nil, &checks.Error{Field: field + ".data", Rule: "a Float64Array", Got: Describe(data)}
	}
	if err := checkLength(field+".data", data.Length(), n*d); err != nil {
		return nil, err
	}
	flat := make([]float64, n*d)
	for a := 0; a < len(flat); a += piecesCells {
		b := min(a+piecesCells, len(flat))
		bytes := js.Global().Get("Uint8Array").New(data.Get("buffer"), data.Get("byteOffset").Int()+8*a, 8*(b-a))
		js.CopyBytesToGo(Float64Bytes(flat[a:b]), bytes)
		for i, x := range flat[a:b] {
			if math.IsNaN(x) || math.IsInf(x, 0) { // the name only for the error (a Sprintf a cell is most of the time)
				return nil, checks.Finite(fmt.Sprintf("%s.data[%d]", field, a+i), x)
			}
		}
		if yield != nil {
			yield()
		}
	}
	// A million row slices are written in pieces too (on the page, the
	// collector's write barrier made one piece a long task).
	rows := make([][]float64, n)
	per := max(1, piecesCells/d)
	for a := 0; a < n; a += per {
		for i := a; i < min(a+per, n); i++ {
			rows[i] = flat[i*d : (i+1)*d : (i+1)*d]
		}
		if yield != nil {
			yield()
		}
	}
	return rows, nil
}

// piecesCells is the piece of MatrixPieces and FlatMatrixPieces: ≈ 10 ms of
// copying and checking in Chromium.
const piecesCells = 1 << 18

// MatrixPieces is Matrix for a caller on the page's main thread: a flat
// matrix ({data, shape}) is copied and checked a piece at a time, the event
// loop running between pieces (Yield), so that a million-row table is not
// one long task (issue 29 item 4). Call it from a goroutine.
func MatrixPieces(v js.Value, field string) ([][]float64, error) {
	if isFlat(v) {
		return flatMatrix(v, field, Yield)
	}
	return Matrix(v, field)
}

// FlatMatrix writes rows (of equal length d ≥ 1) as {data, shape}: one
// Float64Array of n·d values, row after row (Matrix reads it back).
func FlatMatrix(rows [][]float64) js.Value { return flatMatrixOf(rows, nil) }

// FlatMatrixPieces is FlatMatrix for a caller on the page's main thread:
// the rows are copied a piece at a time, the event loop running between
// pieces (Yield). Call it from a goroutine.
func FlatMatrixPieces(rows [][]float64) js.Value { return flatMatrixOf(rows, Yield) }

// flatMatrixOf is FlatMatrix, calling a non-nil yield after each piece of
// about piecesCells cells.
func flatMatrixOf(rows [][]float64, yield func()) js.Value {
	d := 0
	if len(rows) > 0 {
		d = len(rows[0])
	}
	arr := js.Global().Get("Float64Array").New(len(rows) * d)
	if d > 0 {
		bytes := js.Global().Get("Uint8Array").New(arr.Get("buffer"))
		per := max(1, piecesCells/d) // rows a piece
		buf := make([]float64, 0, min(len(rows), per)*d)
		for a := 0; a < len(rows); a += per {
			b := min(a+per, len(rows))
			buf = buf[:0]
			for _, r := range rows[a:b] {
				buf = append(buf, r...)
			}
			js.CopyBytesToJS(bytes.Call("subarray", 8*a*d, 8*b*d), Float64Bytes(buf))
			if yield != nil && b < len(rows) {
				yield()
			}
		}
	}
	out := js.Global().Get("Object").New()
	out.Set("data", arr)
	out.Set("shape", []any{len(rows), d})
	return out
}
