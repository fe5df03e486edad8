package chart

import (
	"context"
	"fmt"
	"math/rand"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/Masterminds/sprig/v3"
	"helm.sh/helm/v4/pkg/chart/common"
)

// genValue makes a value of the kinds chart values and template dicts
// hold: scalars, maps and lists (nil, empty, with spare capacity), the
// named common.Values, and now and then a type copyValue leaves to
// copystructure (a map of strings, a time, a struct pointer).
func genValue(r *rand.Rand, depth int) any {
	n := 13
	if depth > 0 {
		n = 17
	}
	switch r.Intn(n) {
	case 0:
		return nil
	case 1:
		return fmt.Sprint("s", r.Intn(100))
	case 2:
		return r.Intn(2) == 0
	case 3:
		return r.Float64() * 100
	case 4:
		return int64(r.Intn(1000))
	case 5:
		return r.Intn(1000)
	case 6:
		return map[string]string{"k": "v"}
	case 7:
		return time.Unix(int64(r.Intn(1e9)), 0).UTC()
	case 8:
		return &opaque{A: r.Intn(9), b: r.Intn(9)}
	case 9:
		return genBytes(r)
	case 10:
		if r.Intn(4) == 0 {
			return map[string]string(nil)
		}
		return map[string]string{fmt.Sprint("k", r.Intn(9)): "v"}
	case 11:
		if r.Intn(4) == 0 {
			return testFiles(nil)
		}
		f := testFiles{}
		for i := r.Intn(4); i > 0; i-- {
			f[fmt.Sprint("f", r.Intn(9))] = genBytes(r)
		}
		return f
	case 12:
		switch r.Intn(5) {
		case 0:
			return (*opaque)(nil)
		case 1:
			return map[int]int(nil)
		case 2:
			return []int(nil)
		case 3:
			return []int{r.Intn(9)}
		}
		return opaque{A: r.Intn(9), b: 1}
	case 13:
		if r.Intn(4) == 0 {
			return map[string]any(nil)
		}
		return genMap(r, depth-1)
	case 14:
		return common.Values(genMap(r, depth-1))
	case 15:
		if r.Intn(4) == 0 {
			return []any(nil)
		}
		l := r.Intn(4)
		s := make([]any, l, l+r.Intn(3))
		for i := range s {
			s[i] = genValue(r, depth-1)
		}
		return s
	default:
		return genMap(r, depth-1)
	}
}

// testFiles is a map of names to bytes of a type of its own, as Helm's
// .Files (engine.files) is.
type testFiles map[string][]byte

// opaque is a type fastDeepCopy leaves to copystructure, with an
// unexported field (which copystructure leaves zero).
type opaque struct {
	A int
	b int
}

func genBytes(r *rand.Rand) []byte {
	if r.Intn(4) == 0 {
		return nil
	}
	l := r.Intn(5)
	b := make([]byte, l, l+r.Intn(3))
	r.Read(b)
	return b
}

func genMap(r *rand.Rand, depth int) map[string]any {
	m := map[string]any{}
	for i := r.Intn(5); i > 0; i-- {
		m[fmt.Sprint("k", r.Intn(10))] = genValue(r, depth)
	}
	return m
}

// sameCaps reports whether two equal values' lists have equal capacities
// (reflect.DeepEqual does not compare them; copystructure keeps them).
func sameCaps(a, b any) bool {
	switch x := a.(type) {
	case []byte:
		return cap(x) == cap(b.([]byte))
	case testFiles:
		for k := range x {
			if cap(x[k]) != cap(b.(testFiles)[k]) {
				return false
			}
		}
	case []any:
		y := b.([]any)
		if cap(x) != cap(y) {
			return false
		}
		for i := range x {
			if !sameCaps(x[i], y[i]) {
				return false
			}
		}
	case map[string]any:
		for k := range x {
			if !sameCaps(x[k], b.(map[string]any)[k]) {
				return false
			}
		}
	case common.Values:
		for k := range x {
			if !sameCaps(x[k], b.(common.Values)[k]) {
				return false
			}
		}
	}
	return true
}

// scribble changes every map and list inside v, to check that a copy
// shares none of them with its original.
func scribble(v any) {
	switch x := v.(type) {
	case []any:
		for i := range x {
			scribble(x[i])
			x[i] = "scribbled"
		}
	case map[string]any:
		for k := range x {
			scribble(x[k])
		}
		if x != nil {
			x["scribbled"] = true
		}
	case common.Values:
		scribble(map[string]any(x))
	case []byte:
		for i := range x {
			x[i]++
		}
	case testFiles:
		for k := range x {
			scribble(x[k])
		}
		if x != nil {
			x["scribbled"] = nil
		}
	case map[string]string:
		if x != nil {
			x["scribbled"] = "yes"
		}
	}
}

// delegated reports whether v holds a value fastDeepCopy hands to
// copystructure.
func delegated(v any) bool {
	switch x := v.(type) {
	case time.Time, *opaque, opaque, map[int]int, []int:
		return true
	case []any:
		for _, e := range x {
			if delegated(e) {
				return true
			}
		}
	case map[string]any:
		for _, e := range x {
			if delegated(e) {
				return true
			}
		}
	case common.Values:
		return delegated(map[string]any(x))
	}
	return false
}

// TestFastDeepCopyMatchesSprig: on 20,000 generated values the fast copy
// is what sprig's deepCopy returns (reflect.DeepEqual: the same dynamic
// types, nil maps and lists nil; and the same list capacities), and it
// shares no map or list with the original.
func TestFastDeepCopyMatchesSprig(t *testing.T) {
	sprigCopy := sprig.TxtFuncMap()["deepCopy"].(func(any) any)
	ours := fastDeepCopy()["deepCopy"].(func(any) any)
	r := rand.New(rand.NewSource(1))
	fast, nils := 0, 0
	for i := 0; i < 20000; i++ {
		v := genValue(r, 4)
		want, wantPanic := callCopy(sprigCopy, v)
		got, gotPanic := callCopy(ours, v)
		if wantPanic != gotPanic {
			t.Fatalf("value %d: %#v: fast copy panics %q, sprig's %q", i, v, gotPanic, wantPanic)
		}
		if wantPanic != "" {
			nils++
			continue
		}
		if !reflect.DeepEqual(got, want) || !sameCaps(got, want) {
			t.Fatalf("value %d: %#v\nfast copy:  %#v\nsprig copy: %#v", i, v, got, want)
		}
		if !delegated(v) {
			fast++
		}
		// The original is compared through sprig's copy, which is not
		// always equal to it (a nil pointer inside becomes nil).
		scribble(got)
		if again, _ := callCopy(sprigCopy, v); !reflect.DeepEqual(again, want) {
			t.Fatalf("value %d: changing the copy changed the original: %#v", i, v)
		}
	}
	// All paths are exercised: the direct copy, copystructure for a value
	// inside that is of another type, and nil itself.
	if fast < 5000 || fast > 15000 || nils == 0 {
		t.Fatalf("%d of 20000 values copied directly: the generator does not exercise both paths", fast)
	}
}

// callCopy calls a deepCopy, and returns what it panicked with ("" when
// it did not): copystructure panics on nil, and a template's call fails
// with that.
func callCopy(f func(any) any, v any) (c any, panicked string) {
	defer func() {
		if p := recover(); p != nil {
			panicked = fmt.Sprint(p)
		}
	}()
	return f(v), ""
}

// TestFastMustDeepCopy: mustDeepCopy returns the copy and no error, as
// sprig's does, for values and for other types.
func TestFastMustDeepCopy(t *testing.T) {
	must := fastDeepCopy()["mustDeepCopy"].(func(any) (any, error))
	for _, v := range []any{common.Values{"a": []any{1.0, "x"}}, map[string]string{"a": "b"}} {
		got, err := must(v)
		if err != nil || !reflect.DeepEqual(got, v) {
			t.Errorf("mustDeepCopy(%#v) = %#v, %v", v, got, err)
		}
	}
}

// TestDeepCopyInATemplate: a chart's deepCopy and mustDeepCopy of its
// values and of its whole context ($, whose .Files holds the chart's
// files) render what Helm's own functions render: a copy a template may
// change without changing what it copied, whose files' bytes are those
// of the chart; deepCopy of nothing fails the render, as sprig's does.
func TestDeepCopyInATemplate(t *testing.T) {
	c := chartOf(t, map[string]string{
		"Chart.yaml":     "apiVersion: v2\nname: copies\nversion: 0.1.0\n",
		"values.yaml":    "image: {tag: \"1.0\"}\nlist: [a, b]\n",
		"files/note.txt": "kept",
		"templates/cm.yaml": `{{- $v := set (deepCopy .Values) "image" (dict "tag" "2.0") }}
{{- $all := mustDeepCopy $ }}
apiVersion: v1
kind: ConfigMap
metadata:
  name: copies
data:
  copy: {{ $v.image.tag | quote }}
  original: {{ .Values.image.tag | quote }}
  list: {{ join "," $v.list | quote }}
  file: {{ $all.Files.Get "files/note.txt" | quote }}
  release: {{ $all.Release.Name | quote }}
`,
	})
	text := string(renderSet(t, c, ValueSet{Name: DefaultsName}).Files[0].Text)
	for _, want := range []string{`copy: "2.0"`, `original: "1.0"`, `list: "a,b"`, `file: "kept"`, `release: "release-name"`} {
		if !strings.Contains(text, want) {
			t.Errorf("render lacks %s:\n%s", want, text)
		}
	}

	c = chartOf(t, map[string]string{
		"Chart.yaml":        "apiVersion: v2\nname: nothing\nversion: 0.1.0\n",
		"values.yaml":       "a: 1\n",
		"templates/cm.yaml": "{{- $x := deepCopy .Values.missing }}\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n",
	})
	out, problems := c.Render(context.Background(), ValueSet{Name: DefaultsName}, Options{})
	if out != nil && len(problems) == 0 {
		t.Fatalf("deepCopy of a missing value rendered: %s", out.Files[0].Text)
	}
	if !strings.Contains(fmt.Sprint(problems), "deepCopy") {
		t.Errorf("the problem does not name deepCopy: %v", problems)
	}
}

// benchContext is a template context like a chart's $: values of 1,000
// keys and 100 files of 10 KB (camunda's charts hold about that).
func benchContext() common.Values {
	r := rand.New(rand.NewSource(1))
	values := map[string]any{}
	for i := 0; i < 1000; i++ {
		values[fmt.Sprint("k", i)] = map[string]any{"tag": "1.0", "list": []any{"a", 1.0, true}}
	}
	files := testFiles{}
	for i := 0; i < 100; i++ {
		b := make([]byte, 10<<10)
		r.Read(b)
		files[fmt.Sprint("files/", i)] = b
	}
	return common.Values{"Values": values, "Files": files, "Release": map[string]any{"Name": "r"}}
}

// BenchmarkDeepCopyContext compares sprig's deepCopy with the fast one on
// a chart's whole context: go test -bench DeepCopyContext
// ./analyzer/render/chart (sprig's walks the files' bytes one at a time).
func BenchmarkDeepCopyContext(b *testing.B) {
	ctx := benchContext()
	for _, c := range []struct {
		name string
		f    func(any) any
	}{
		{"sprig", sprig.TxtFuncMap()["deepCopy"].(func(any) any)},
		{"fast", fastDeepCopy()["deepCopy"].(func(any) any)},
	} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				c.f(ctx)
			}
		})
	}
}

// TestDeepCopyOfItself: a template that copies a dict holding itself
// fails its render with a problem that names deepCopy (at the depth
// bound), instead of exhausting the stack: a fatal error that killed the
// process (copystructure walked it until the render's time limit).
func TestDeepCopyOfItself(t *testing.T) {
	c := chartOf(t, map[string]string{
		"Chart.yaml":        "apiVersion: v2\nname: cyc\nversion: 0.1.0\n",
		"values.yaml":       "a: 1\n",
		"templates/cm.yaml": "{{- $d := dict }}{{- $_ := set $d \"self\" $d }}{{- $c := deepCopy $d }}\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n",
	})
	out, problems := c.Render(context.Background(), ValueSet{Name: DefaultsName}, Options{})
	if out != nil && len(problems) == 0 {
		t.Fatalf("a dict holding itself was copied: %s", out.Files[0].Text)
	}
	if msg := fmt.Sprint(problems); !strings.Contains(msg, "deepCopy") || !strings.Contains(msg, "levels") {
		t.Errorf("the problem does not name deepCopy and the depth: %v", problems)
	}
}
