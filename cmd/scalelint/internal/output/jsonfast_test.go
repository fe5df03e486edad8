package output

import (
	"bytes"
	"encoding/json"
	"math"
	"math/rand"
	"reflect"
	"testing"

	"github.com/scalelint/scalelint/cmd/scalelint/internal/report"
	"github.com/scalelint/scalelint/rules/format"
)

// TestAppendDiagnosticAsEncoder: AppendDiagnostic writes what
// AppendElement (json.Encoder, then indent) writes for every finding: on
// random findings whose strings hold quotes, backslashes, control
// characters, "<&>", non-ASCII letters and invalid UTF-8, whose facts are
// tiny, huge, negative, infinite and not numbers, with and without an
// object, sources, a chart or kustomizations.
func TestAppendDiagnosticAsEncoder(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	pieces := []string{"a", "web", "spec.replicas", `"`, `\`, "\n", "\t", "\x01", "\x7f", "<&>", "é", "日本", "\xff", " ", "\u2028", "/"}
	str := func() string {
		var b bytes.Buffer
		for range r.Intn(4) {
			b.WriteString(pieces[r.Intn(len(pieces))])
		}
		return b.String()
	}
	floats := []float64{0, 1, -2.5, 1e-7, 123456789, 1e21, 3.14159265, math.Inf(1), math.Inf(-1), math.NaN(), 0.1, 2e-6}
	strs := func() []string {
		var out []string
		for range r.Intn(3) {
			out = append(out, str())
		}
		return out
	}
	for n := range 5000 {
		jd := JSONDiagnostic{File: str(), Line: r.Intn(1000), Column: r.Intn(80), EndLine: r.Intn(1000), EndColumn: r.Intn(80),
			Severity: str(), Rule: str(), Message: str(), Source: str(), Chart: str(), ValueSets: strs(), Kustomizations: strs()}
		if r.Intn(2) == 0 {
			jd.Object = &report.ObjectRef{APIVersion: str(), Kind: str(), Namespace: str(), Name: str()}
		}
		if k := r.Intn(4); k > 0 {
			jd.Facts = map[string]format.Float{}
			for range k {
				jd.Facts[str()] = format.Float(floats[r.Intn(len(floats))])
			}
		}
		if k := r.Intn(3); k > 0 {
			jd.Sources = map[string]report.Source{}
			for range k {
				jd.Sources[str()] = report.Source{Bound: str(), Origin: str(), Text: str(), File: str(), Line: r.Intn(3)}
			}
		}
		if n%7 == 0 {
			jd.ValueSets = []string{} // empty, not nil: omitted too
		}
		var want, got bytes.Buffer
		e := NewJSONEncoder()
		if err := e.AppendElement(&want, n%2, jd, "    "); err != nil {
			t.Fatal(err)
		}
		if err := e.AppendDiagnostic(&got, n%2, &jd, "    "); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got.Bytes(), want.Bytes()) {
			t.Fatalf("AppendDiagnostic:\n%s\nAppendElement:\n%s", got.Bytes(), want.Bytes())
		}
		var compact bytes.Buffer
		enc := json.NewEncoder(&compact)
		enc.SetEscapeHTML(false)
		enc.Encode(jd)
		if b, _ := e.appendDiagnostic(nil, &jd); !bytes.Equal(b, bytes.TrimSuffix(compact.Bytes(), []byte("\n"))) {
			t.Fatalf("appendDiagnostic:\n%s\njson.Encoder:\n%s", b, compact.Bytes())
		}
	}
}

// TestAppendDiagnosticEveryField: appendDiagnostic writes each field by
// hand, so a field added to JSONDiagnostic, report.ObjectRef or
// report.Source that it does not write must fail a test even when the
// random findings above do not set it: here every field of every struct
// reachable from a finding is set by reflection (strings, numbers, one
// element per slice and map, pointers to values set the same way), and
// the output must be json.Encoder's.
func TestAppendDiagnosticEveryField(t *testing.T) {
	var fill func(v reflect.Value)
	fill = func(v reflect.Value) {
		switch v.Kind() {
		case reflect.String:
			v.SetString("x")
		case reflect.Int, reflect.Int64, reflect.Int32:
			v.SetInt(2)
		case reflect.Float64:
			v.SetFloat(1.5)
		case reflect.Bool:
			v.SetBool(true)
		case reflect.Pointer:
			v.Set(reflect.New(v.Type().Elem()))
			fill(v.Elem())
		case reflect.Struct:
			for i := range v.NumField() {
				if v.Type().Field(i).IsExported() {
					fill(v.Field(i))
				}
			}
		case reflect.Slice:
			v.Set(reflect.MakeSlice(v.Type(), 1, 1))
			fill(v.Index(0))
		case reflect.Map:
			v.Set(reflect.MakeMap(v.Type()))
			k, e := reflect.New(v.Type().Key()).Elem(), reflect.New(v.Type().Elem()).Elem()
			fill(k)
			fill(e)
			v.SetMapIndex(k, e)
		default:
			t.Fatalf("no filling for a %s: extend this test and appendDiagnostic", v.Type())
		}
	}
	var jd JSONDiagnostic
	fill(reflect.ValueOf(&jd).Elem())
	var compact bytes.Buffer
	enc := json.NewEncoder(&compact)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(jd); err != nil {
		t.Fatal(err)
	}
	got, err := NewJSONEncoder().appendDiagnostic(nil, &jd)
	if err != nil {
		t.Fatal(err)
	}
	if want := bytes.TrimSuffix(compact.Bytes(), []byte("\n")); !bytes.Equal(got, want) {
		t.Errorf("appendDiagnostic:\n%s\njson.Encoder:\n%s", got, want)
	}
}
