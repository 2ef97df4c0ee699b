//go:build js && wasm

package main

import (
	"errors"
	"fmt"
	"reflect"
	"runtime/debug"
	"strings"
	"syscall/js"
)

// jsError builds a JS Error with the given message.
func jsError(msg string) js.Value { return js.Global().Get("Error").New(msg) }

// promise runs work on a new goroutine and returns a JS Promise for its
// result. A returned error rejects the Promise with an Error carrying the
// message unchanged (it names the field); a panic is recovered into a
// rejection too, so no input can kill the Go runtime.
func promise(work func() (any, error)) js.Value {
	var executor js.Func
	executor = js.FuncOf(func(_ js.Value, args []js.Value) any {
		resolve, reject := args[0], args[1]
		go func() {
			defer executor.Release()
			defer func() {
				if r := recover(); r != nil {
					reject.Invoke(jsError(fmt.Sprintf("internal error (panic: %v); the module keeps working — please report this with the input that caused it\n%s", r, debug.Stack())))
				}
			}()
			v, err := work()
			if err != nil {
				e := jsError(err.Error())
				if errors.Is(err, errAborted) {
					e.Set("name", "AbortError")
				}
				reject.Invoke(e)
				return
			}
			resolve.Invoke(v)
		}()
		return nil
	})
	return js.Global().Get("Promise").New(executor)
}

// export wraps fn as a JS function returning a Promise. Argument conversion
// runs inside the Promise too, so a bad argument is a rejection, never a throw.
func export(fn func(args []js.Value) (any, error)) js.Func {
	return js.FuncOf(func(_ js.Value, args []js.Value) any {
		// Copy: args is only valid during this call.
		cp := append([]js.Value(nil), args...)
		return promise(func() (any, error) { return fn(cp) })
	})
}

// errPanicTest is returned by the hidden self-test export that forces a panic.
var errPanicTest = errors.New("unreachable")

// toJS converts a result to a JS value with the field names of its json
// tags (the contract's names), following encoding/json's rules for tags,
// omitempty, embedded structs and nil pointers (→ null), but keeping NaN and
// ±Inf as JS numbers (JSON has no spelling for them; a standard error of one
// trial is NaN). vert.ValueOf panics on named string types and nil pointers,
// which results contain, so it is not used here.
func toJS(v any) (js.Value, error) { return convert(reflect.ValueOf(v)), nil }

func convert(v reflect.Value) js.Value {
	switch v.Kind() {
	case reflect.Invalid:
		return js.Null()
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			return js.Null()
		}
		return convert(v.Elem())
	case reflect.Bool:
		return js.ValueOf(v.Bool())
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return js.ValueOf(float64(v.Int()))
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return js.ValueOf(float64(v.Uint()))
	case reflect.Float32, reflect.Float64:
		return js.ValueOf(v.Float())
	case reflect.String:
		return js.ValueOf(v.String())
	case reflect.Slice, reflect.Array:
		if v.Kind() == reflect.Slice && v.IsNil() {
			return js.Null()
		}
		out := js.Global().Get("Array").New(v.Len())
		for i := 0; i < v.Len(); i++ {
			out.SetIndex(i, convert(v.Index(i)))
		}
		return out
	case reflect.Map:
		if v.IsNil() {
			return js.Null()
		}
		out := js.Global().Get("Object").New()
		it := v.MapRange()
		for it.Next() {
			out.Set(fmt.Sprint(it.Key().Interface()), convert(it.Value()))
		}
		return out
	case reflect.Struct:
		out := js.Global().Get("Object").New()
		setFields(out, v)
		return out
	}
	return js.ValueOf(fmt.Sprint(v.Interface()))
}

// setFields copies v's exported fields onto out, flattening embedded structs.
func setFields(out js.Value, v reflect.Value) {
	t := v.Type()
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		name, opts, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" {
			continue
		}
		fv := v.Field(i)
		if f.Anonymous && name == "" && fv.Kind() == reflect.Struct {
			setFields(out, fv) // promoted fields, as encoding/json does (also for unexported embedded types)
			continue
		}
		if !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		if strings.Contains(opts, "omitempty") && fv.IsZero() {
			continue
		}
		if strings.Contains(opts, "omitempty") && (fv.Kind() == reflect.Slice || fv.Kind() == reflect.Map) && fv.Len() == 0 {
			continue
		}
		out.Set(name, convert(fv))
	}
}
