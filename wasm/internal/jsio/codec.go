//go:build js && wasm

package jsio

import (
	"fmt"
	"math"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"syscall/js"
)

// The wire codec between Go values and plain JS objects: the one place where
// requests (mechanism.Request, lowerbound.Options, baseline.DimFreeOptions)
// and results (mechanism.Plan/Result, lowerbound.Experiment, …) cross the
// JS boundary, for the API's answers and for the page's calls to the worker.
//
// The field table is the Go struct's json tags (the contract's names, see
// docs/API.md), read by reflection with encoding/json's rules: tag names,
// omitempty, "-", embedded structs flattened, nil pointers and nil slices as
// null. Unlike JSON it keeps NaN and ±Inf as JS numbers (a standard error of
// one trial is NaN). vert.ValueOf is not used: it panics on named string
// types and nil pointers, which results contain.

// Encode converts v to a JS value. Slices become Arrays.
func Encode(v any) js.Value { return encoder{}.value(reflect.ValueOf(v)) }

// JSON is v as JSON text indented by indent: JSON.stringify of Encode(v),
// which writes the same text as encoding/json's MarshalIndent(v, "", indent)
// for the values the page exports (json tags, omitempty, sorted map keys,
// shortest round-trip numbers), except that <, > and & are not escaped and
// NaN and ±Inf become null where encoding/json fails. The shipped module uses it instead of encoding/json,
// which would add ≈ 47 KB to its gzip size (wasm/tools/wasmsize).
func JSON(v any, indent string) string {
	return js.Global().Get("JSON").Call("stringify", Encode(v), js.Null(), indent).String()
}

// EncodeTyped is Encode with every []float64 as a Float64Array (one bulk
// copy per row): the form the page sends data to the worker in.
func EncodeTyped(v any) js.Value { return encoder{typed: true}.value(reflect.ValueOf(v)) }

// Fields lists the JS names of a struct's fields (its json tags), the known
// fields of a request object read with ReadObject.
func Fields(v any) []string {
	var out []string
	eachField(reflect.TypeOf(v), func(name string, _ []int, _ bool) { out = append(out, name) })
	return out
}

// eachField calls f with the JS name, index path and omitempty flag of every
// field t carries on the wire, flattening embedded structs.
func eachField(t reflect.Type, f func(name string, index []int, omitempty bool)) {
	var walk func(t reflect.Type, prefix []int)
	walk = func(t reflect.Type, prefix []int) {
		for i := 0; i < t.NumField(); i++ {
			sf := t.Field(i)
			name, opts, _ := strings.Cut(sf.Tag.Get("json"), ",")
			if name == "-" {
				continue
			}
			index := append(append([]int(nil), prefix...), i)
			if sf.Anonymous && name == "" && sf.Type.Kind() == reflect.Struct {
				walk(sf.Type, index) // promoted fields, as encoding/json does
				continue
			}
			if !sf.IsExported() {
				continue
			}
			if name == "" {
				name = sf.Name
			}
			f(name, index, strings.Contains(opts, "omitempty"))
		}
	}
	walk(t, nil)
}

type encoder struct{ typed bool }

func (e encoder) value(v reflect.Value) js.Value {
	switch v.Kind() {
	case reflect.Invalid:
		return js.Null()
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			return js.Null()
		}
		return e.value(v.Elem())
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
		if e.typed && v.Type() == reflect.TypeFor[[]float64]() {
			return Float64Array(v.Interface().([]float64))
		}
		out := js.Global().Get("Array").New(v.Len())
		for i := 0; i < v.Len(); i++ {
			out.SetIndex(i, e.value(v.Index(i)))
		}
		return out
	case reflect.Map:
		if v.IsNil() {
			return js.Null()
		}
		// Keys in sorted order, as encoding/json writes them, so that an
		// object's key order (and JSON's text) does not depend on Go's map
		// iteration order.
		keys := make([]string, 0, v.Len())
		vals := map[string]reflect.Value{}
		for it := v.MapRange(); it.Next(); {
			k := fmt.Sprint(it.Key().Interface())
			keys = append(keys, k)
			vals[k] = it.Value()
		}
		sort.Strings(keys)
		out := js.Global().Get("Object").New()
		for _, k := range keys {
			out.Set(k, e.value(vals[k]))
		}
		return out
	case reflect.Struct:
		out := js.Global().Get("Object").New()
		eachField(v.Type(), func(name string, index []int, omitempty bool) {
			fv, ok := fieldByIndex(v, index)
			if !ok {
				return // under a nil embedded pointer
			}
			if omitempty && (fv.IsZero() || ((fv.Kind() == reflect.Slice || fv.Kind() == reflect.Map) && fv.Len() == 0)) {
				return
			}
			out.Set(name, e.value(fv))
		})
		return out
	}
	return js.ValueOf(fmt.Sprint(v.Interface()))
}

func fieldByIndex(v reflect.Value, index []int) (reflect.Value, bool) {
	for _, i := range index {
		if v.Kind() == reflect.Pointer {
			if v.IsNil() {
				return reflect.Value{}, false
			}
			v = v.Elem()
		}
		v = v.Field(i)
	}
	return v, true
}

// Decode reads x, a value produced by Encode (or the same shape built in
// JS), into the value dst points to. Absent fields and nulls leave the Go
// zero value; a value of the wrong JS type is an error naming its path.
func Decode(x js.Value, dst any) error {
	rv := reflect.ValueOf(dst)
	if rv.Kind() != reflect.Pointer || rv.IsNil() {
		return fmt.Errorf("jsio.Decode: dst must be a non-nil pointer, got %T", dst)
	}
	if err := decode(x, rv.Elem(), "result"); err != nil {
		return fmt.Errorf("reading the worker's result: %w", err)
	}
	return nil
}

func decode(x js.Value, v reflect.Value, path string) error {
	if x.Type() == js.TypeUndefined || x.Type() == js.TypeNull {
		v.SetZero()
		return nil
	}
	want := func(what string) error { return fmt.Errorf("%s must be %s, got %s", path, what, Describe(x)) }
	switch v.Kind() {
	case reflect.Pointer:
		p := reflect.New(v.Type().Elem())
		if err := decode(x, p.Elem(), path); err != nil {
			return err
		}
		v.Set(p)
	case reflect.Bool:
		if x.Type() != js.TypeBoolean {
			return want("a boolean")
		}
		v.SetBool(x.Bool())
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		if x.Type() != js.TypeNumber || x.Float() != math.Trunc(x.Float()) {
			return want("an integer")
		}
		v.SetInt(int64(x.Float()))
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		if x.Type() != js.TypeNumber || x.Float() != math.Trunc(x.Float()) || x.Float() < 0 {
			return want("a non-negative integer")
		}
		v.SetUint(uint64(x.Float()))
	case reflect.Float32, reflect.Float64:
		if x.Type() != js.TypeNumber {
			return want("a number")
		}
		v.SetFloat(x.Float())
	case reflect.String:
		if x.Type() != js.TypeString {
			return want("a string")
		}
		v.SetString(x.String())
	case reflect.Slice, reflect.Array:
		if x.Type() != js.TypeObject || x.Get("length").Type() != js.TypeNumber {
			return want("an array")
		}
		n := x.Length()
		if v.Kind() == reflect.Array {
			if n != v.Len() {
				return want(fmt.Sprintf("an array of length %d", v.Len()))
			}
		} else {
			v.Set(reflect.MakeSlice(v.Type(), n, n))
		}
		if v.Type() == reflect.TypeFor[[]float64]() && x.InstanceOf(js.Global().Get("Float64Array")) && n > 0 {
			bytes := js.Global().Get("Uint8Array").New(x.Get("buffer"), x.Get("byteOffset"), n*8)
			js.CopyBytesToGo(Float64Bytes(v.Interface().([]float64)), bytes)
			return nil
		}
		for i := 0; i < n; i++ {
			if err := decode(x.Index(i), v.Index(i), path+"["+strconv.Itoa(i)+"]"); err != nil {
				return err
			}
		}
	case reflect.Map:
		if x.Type() != js.TypeObject || v.Type().Key().Kind() != reflect.String {
			return want("an object")
		}
		m := reflect.MakeMap(v.Type())
		keys := js.Global().Get("Object").Call("keys", x)
		for i := 0; i < keys.Length(); i++ {
			k := keys.Index(i).String()
			e := reflect.New(v.Type().Elem()).Elem()
			if err := decode(x.Get(k), e, path+"."+k); err != nil {
				return err
			}
			m.SetMapIndex(reflect.ValueOf(k).Convert(v.Type().Key()), e)
		}
		v.Set(m)
	case reflect.Struct:
		if x.Type() != js.TypeObject {
			return want("an object")
		}
		var err error
		eachField(v.Type(), func(name string, index []int, _ bool) {
			if err != nil {
				return
			}
			fx := x.Get(name)
			if fx.Type() == js.TypeUndefined {
				return
			}
			fv := v
			for _, i := range index {
				if fv.Kind() == reflect.Pointer {
					if fv.IsNil() {
						fv.Set(reflect.New(fv.Type().Elem()))
					}
					fv = fv.Elem()
				}
				fv = fv.Field(i)
			}
			err = decode(fx, fv, path+"."+name)
		})
		return err
	case reflect.Interface:
		if v.NumMethod() != 0 {
			return want("a value of a concrete Go type")
		}
		v.Set(reflect.ValueOf(decodeAny(x)))
	default:
		return fmt.Errorf("%s: jsio cannot decode into %s", path, v.Type())
	}
	return nil
}

// decodeAny reads x into float64, string, bool, []any or map[string]any.
func decodeAny(x js.Value) any {
	switch x.Type() {
	case js.TypeNumber:
		return x.Float()
	case js.TypeString:
		return x.String()
	case js.TypeBoolean:
		return x.Bool()
	case js.TypeObject:
		if x.Get("length").Type() == js.TypeNumber {
			out := make([]any, x.Length())
			for i := range out {
				out[i] = decodeAny(x.Index(i))
			}
			return out
		}
		out := map[string]any{}
		keys := js.Global().Get("Object").Call("keys", x)
		for i := 0; i < keys.Length(); i++ {
			k := keys.Index(i).String()
			out[k] = decodeAny(x.Get(k))
		}
		return out
	}
	return nil
}
