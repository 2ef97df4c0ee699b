//go:build js && wasm

package jsio_test

import (
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"slices"
	"sort"
	"strings"
	"syscall/js"
	"testing"

	"github.com/dpsample/dpsample/core/baseline"
	"github.com/dpsample/dpsample/core/lowerbound"
	"github.com/dpsample/dpsample/core/mechanism"
	"github.com/dpsample/dpsample/wasm/internal/jsio"
)

// fill sets every field reachable from v (through pointers, slices, maps and
// embedded structs) to a value taken in turn from a cycle that includes NaN,
// ±Inf, −0, empty and nil slices, so that a round trip exercises every field
// of the real request and result types.
type filler struct{ k int }

var floats = []float64{1.5, math.NaN(), math.Inf(1), math.Inf(-1), -0.25, 0, 3e-300}

func (f *filler) fill(v reflect.Value, depth int) {
	f.k++
	switch v.Kind() {
	case reflect.Pointer:
		if depth > 6 {
			return
		}
		p := reflect.New(v.Type().Elem())
		f.fill(p.Elem(), depth+1)
		v.Set(p)
	case reflect.Bool:
		v.SetBool(f.k%2 == 0)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(int64(f.k%7 - 3))
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		v.SetUint(uint64(f.k % 11))
	case reflect.Float32, reflect.Float64:
		v.SetFloat(floats[f.k%len(floats)])
	case reflect.String:
		v.SetString(fmt.Sprintf("s%d", f.k))
	case reflect.Slice:
		if depth > 6 {
			return
		}
		n := f.k % 3 // 0: an empty (non-nil) slice
		v.Set(reflect.MakeSlice(v.Type(), n, n))
		for i := 0; i < n; i++ {
			f.fill(v.Index(i), depth+1)
		}
	case reflect.Array:
		for i := 0; i < v.Len(); i++ {
			f.fill(v.Index(i), depth+1)
		}
	case reflect.Map:
		if depth > 6 || v.Type().Key().Kind() != reflect.String {
			return
		}
		m := reflect.MakeMap(v.Type())
		for i := 0; i < 2; i++ {
			e := reflect.New(v.Type().Elem()).Elem()
			f.fill(e, depth+1)
			m.SetMapIndex(reflect.ValueOf(fmt.Sprintf("k%d", i)).Convert(v.Type().Key()), e)
		}
		v.Set(m)
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			if v.Type().Field(i).IsExported() {
				f.fill(v.Field(i), depth+1)
			}
		}
	case reflect.Interface:
		if v.NumMethod() == 0 {
			v.Set(reflect.ValueOf(floats[f.k%len(floats)]))
		}
	}
}

// same is reflect.DeepEqual with NaN equal to NaN, the sign of zero kept, and
// nil and empty slices and maps equal (an omitempty field that is empty is
// not sent, so it comes back nil).
func same(a, b reflect.Value, path string) error {
	if a.Kind() != b.Kind() {
		return fmt.Errorf("%s: kind %s vs %s", path, a.Kind(), b.Kind())
	}
	switch a.Kind() {
	case reflect.Pointer, reflect.Interface:
		if a.IsNil() || b.IsNil() {
			if a.IsNil() != b.IsNil() {
				return fmt.Errorf("%s: nil %v vs %v", path, a.IsNil(), b.IsNil())
			}
			return nil
		}
		return same(a.Elem(), b.Elem(), path)
	case reflect.Float32, reflect.Float64:
		x, y := a.Float(), b.Float()
		if math.Float64bits(x) != math.Float64bits(y) && !(math.IsNaN(x) && math.IsNaN(y)) {
			return fmt.Errorf("%s: %v vs %v", path, x, y)
		}
	case reflect.Slice, reflect.Array:
		if a.Len() != b.Len() {
			return fmt.Errorf("%s: length %d vs %d", path, a.Len(), b.Len())
		}
		for i := 0; i < a.Len(); i++ {
			if err := same(a.Index(i), b.Index(i), fmt.Sprintf("%s[%d]", path, i)); err != nil {
				return err
			}
		}
	case reflect.Map:
		if a.Len() != b.Len() {
			return fmt.Errorf("%s: %d keys vs %d", path, a.Len(), b.Len())
		}
		for _, k := range a.MapKeys() {
			bv := b.MapIndex(k)
			if !bv.IsValid() {
				return fmt.Errorf("%s: key %v missing", path, k)
			}
			if err := same(a.MapIndex(k), bv, fmt.Sprintf("%s.%v", path, k)); err != nil {
				return err
			}
		}
	case reflect.Struct:
		for i := 0; i < a.NumField(); i++ {
			if !a.Type().Field(i).IsExported() {
				continue
			}
			if err := same(a.Field(i), b.Field(i), path+"."+a.Type().Field(i).Name); err != nil {
				return err
			}
		}
	default:
		if !reflect.DeepEqual(a.Interface(), b.Interface()) {
			return fmt.Errorf("%s: %v vs %v", path, a.Interface(), b.Interface())
		}
	}
	return nil
}

// TestRoundTrip: every field of the requests and results that cross the
// page/worker boundary comes back from Encode → Decode (and EncodeTyped →
// Decode, the Float64Array form) as it went in, NaN, ±Inf and −0 included.
func TestRoundTrip(t *testing.T) {
	for _, typ := range []any{
		mechanism.Request{}, mechanism.Plan{}, mechanism.Result{},
		lowerbound.Options{}, lowerbound.Experiment{},
		baseline.DimFreeOptions{}, baseline.DimFreeResult{},
	} {
		for seed := 0; seed < 3; seed++ {
			in := reflect.New(reflect.TypeOf(typ))
			(&filler{k: seed}).fill(in.Elem(), 0)
			for _, enc := range []func(any) js.Value{jsio.Encode, jsio.EncodeTyped} {
				out := reflect.New(reflect.TypeOf(typ))
				if err := jsio.Decode(enc(in.Interface()), out.Interface()); err != nil {
					t.Fatalf("%T seed %d: %v", typ, seed, err)
				}
				if err := same(in.Elem(), out.Elem(), fmt.Sprintf("%T", typ)); err != nil {
					t.Errorf("seed %d: %v", seed, err)
				}
			}
		}
	}
}

// TestEncode pins the wire form: json names, embedded structs flattened,
// nil pointers and nil slices as null, omitempty, "-", NaN and ±Inf kept,
// an empty slice as [] and EncodeTyped's Float64Array.
func TestEncode(t *testing.T) {
	type inner struct {
		A int `json:"a"`
	}
	type named string
	var nilp *float64
	v := jsio.Encode(struct {
		inner
		X    float64   `json:"x"`
		I    float64   `json:"inf"`
		N    named     `json:"mode"`
		P    *float64  `json:"p"`
		E    []int     `json:"e,omitempty"`
		Z    []int     `json:"z"`
		S    []float64 `json:"s"`
		Nil  []float64 `json:"nil"`
		Skip int       `json:"-"`
	}{inner{7}, math.NaN(), math.Inf(-1), "tardos", nilp, nil, []int{}, []float64{1, 2}, nil, 3})
	if v.Get("a").Int() != 7 || !math.IsNaN(v.Get("x").Float()) || !math.IsInf(v.Get("inf").Float(), -1) ||
		v.Get("mode").String() != "tardos" || !v.Get("p").IsNull() || !v.Get("e").IsUndefined() ||
		!js.Global().Get("Array").Call("isArray", v.Get("z")).Bool() || v.Get("z").Length() != 0 ||
		v.Get("s").Length() != 2 || !v.Get("nil").IsNull() || !v.Get("Skip").IsUndefined() {
		t.Fatalf("Encode: %v", js.Global().Get("JSON").Call("stringify", v))
	}
	if w := jsio.EncodeTyped(struct {
		S []float64 `json:"s"`
	}{[]float64{1, 2}}); !w.Get("s").InstanceOf(js.Global().Get("Float64Array")) {
		t.Fatalf("EncodeTyped: s is not a Float64Array")
	}
}

// TestDecodeErrors: a value of the wrong type is an error naming its path.
func TestDecodeErrors(t *testing.T) {
	var r struct {
		Points []struct {
			D int `json:"d"`
		} `json:"points"`
	}
	x := js.Global().Get("JSON").Call("parse", `{"points":[{"d":1},{"d":"two"}]}`)
	err := jsio.Decode(x, &r)
	if err == nil || !slices.Contains([]string{"reading the worker's result: result.points[1].d must be an integer, got string \"two\""}, err.Error()) {
		t.Fatalf("Decode error = %v", err)
	}
}

// TestFields: the request tables the API validates against are the json
// tags, and they are the field names of docs/API.md.
func TestFields(t *testing.T) {
	for _, tc := range []struct {
		v    any
		want []string
	}{
		{baseline.DimFreeOptions{}, []string{"n", "rank", "dims", "epsilon", "delta", "radius", "trials", "dataSeed", "seed"}},
		{lowerbound.Options{}, []string{"n", "xi", "mechanism", "epsilon", "delta", "s", "remove", "ghosts", "trials", "mode", "seed", "copies", "pad"}},
	} {
		got := jsio.Fields(tc.v)
		sort.Strings(got)
		sort.Strings(tc.want)
		if !slices.Equal(got, tc.want) {
			t.Errorf("Fields(%T) = %v, want %v", tc.v, got, tc.want)
		}
	}
	for _, f := range []string{"loss", "x", "y", "epsilon", "delta", "radius", "rank", "clip", "tau", "huber", "ball", "samples", "sampler", "etaRule", "mode", "seed"} {
		if !slices.Contains(jsio.Fields(mechanism.Request{}), f) {
			t.Errorf("Fields(mechanism.Request) lacks %q", f)
		}
	}
}

// TestJSON checks that JSON writes encoding/json's MarshalIndent text for an
// export-like payload (maps with keys out of order, structs with json tags,
// omitempty, nested slices, integers and floats from 1e-7 to 1e21; HTML
// characters unescaped), and null for NaN and ±Inf where encoding/json fails.
func TestJSON(t *testing.T) {
	type inner struct {
		A     float64   `json:"a"`
		B     []float64 `json:"b,omitempty"`
		Name  string    `json:"name"`
		Skip  int       `json:"-"`
		Count int       `json:"count"`
	}
	payload := map[string]any{
		"zeta":  []inner{{A: 0.1, B: []float64{1e-7, 1e21, -2.5e-300}, Name: "x \"q\" <b> é", Count: 3}, {A: -0, Name: ""}},
		"alpha": map[string]float64{"b": 1.0 / 3, "a": 123456789.125, "c": 5e-324},
		"mid":   true, "none": nil, "list": []string{"a", "b"},
	}
	for _, indent := range []string{"  ", ""} {
		var buf strings.Builder
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false) // JSON.stringify does not escape <, > and &
		enc.SetIndent("", indent)
		if err := enc.Encode(payload); err != nil {
			t.Fatal(err)
		}
		want := strings.TrimSuffix(buf.String(), "\n")
		if got := jsio.JSON(payload, indent); got != want {
			t.Errorf("indent %q:\n got %s\nwant %s", indent, got, want)
		}
	}
	if got := jsio.JSON(map[string]float64{"nan": math.NaN(), "inf": math.Inf(-1)}, ""); got != `{"inf":null,"nan":null}` {
		t.Errorf("NaN and -Inf: %s", got)
	}
}
