package chart

import (
	"fmt"
	"maps"
	"reflect"

	"github.com/mitchellh/copystructure"
	"helm.sh/helm/v4/pkg/chart/common"
)

// sprig's deepCopy and mustDeepCopy copy with copystructure, which walks
// the value by reflection, element by element, locking and allocating at
// each step. Charts call them in helpers that every template includes,
// on the values or on the whole context (camunda/camunda-platform-helm:
// `deepCopy .Values`, and `deepCopy $`, whose .Files holds the bytes of
// every file of the chart, walked one byte at a time): there that walk
// was 42% of a run's CPU time (11 of 26.5 s over the repository's eight
// charts). fastDeepCopy makes the same copy directly for the types values
// and files are made of (maps of strings, lists, byte slices, scalars),
// with copystructure's result (the same dynamic types, nil maps and
// slices kept nil, a slice's capacity kept), and hands any other value
// inside (the chart's Capabilities, a time) to copystructure, which
// copies it as it would have inside the whole (it copies each value it
// meets on its own: no sharing or cycles are tracked).
// TestFastDeepCopyMatchesSprig compares the two on generated values.

// fastDeepCopy replaces sprig's deepCopy (which panics on an error, as
// sprig's does) and mustDeepCopy.
func fastDeepCopy() map[string]any {
	return map[string]any{
		"deepCopy": func(v any) any {
			c, err := mustDeepCopy(v)
			if err != nil {
				panic("deepCopy error: " + err.Error())
			}
			return c
		},
		"mustDeepCopy": mustDeepCopy,
	}
}

func mustDeepCopy(v any) (any, error) {
	if v == nil {
		// copystructure panics on it (a zero reflect.Value), and the
		// template's call fails with that panic, as with sprig.
		return copystructure.Copy(v)
	}
	return copyValue(v, 0)
}

// maxCopyDepth bounds the nesting copyValue follows. A template can make
// a value that holds itself (set $d "self" $d): copystructure walks it
// until the render's time limit, slowly enough; a direct copy would reach
// Go's stack limit first, a fatal error no recover catches. Values read
// from YAML nest far less (the parsers stop at 10,000 levels).
const maxCopyDepth = 10000

var errCopyDepth = fmt.Errorf("the value nests deeper than %d levels (does it hold itself?)", maxCopyDepth)

var bytesType = reflect.TypeFor[[]byte]()

// copyValue returns the copy copystructure makes of v, found depth
// levels inside the value copied (0: the value itself).
func copyValue(v any, depth int) (any, error) {
	if depth > maxCopyDepth {
		return nil, errCopyDepth
	}
	switch x := v.(type) {
	case nil, string, bool, float64, int, int64, int32, int16, int8, uint, uint64, uint32, uint16, uint8, float32:
		return x, nil
	case map[string]any:
		return copyMap(x, depth)
	case common.Values:
		m, err := copyMap(x, depth)
		if err != nil {
			return nil, err
		}
		return common.Values(m), nil
	case []any:
		if x == nil {
			return x, nil
		}
		s := make([]any, len(x), cap(x))
		for i, e := range x {
			c, err := copyValue(e, depth+1)
			if err != nil {
				return nil, err
			}
			s[i] = c
		}
		return s, nil
	case []byte:
		return cloneBytes(x), nil
	case map[string]string:
		return maps.Clone(x), nil // nil stays nil
	}
	rv := reflect.ValueOf(v)
	if depth > 0 && rv.Kind() == reflect.Pointer && rv.IsNil() {
		// Inside a map or a list, copystructure copies a nil pointer as
		// a nil interface: the element is nil, of no type.
		return nil, nil
	}
	// A map of names to bytes of a type of its own (Helm's .Files).
	if rv.Kind() == reflect.Map && rv.Type().Key().Kind() == reflect.String && rv.Type().Elem() == bytesType {
		if rv.IsNil() {
			return v, nil
		}
		m := reflect.MakeMapWithSize(rv.Type(), rv.Len())
		for it := rv.MapRange(); it.Next(); {
			m.SetMapIndex(it.Key(), reflect.ValueOf(cloneBytes(it.Value().Bytes())))
		}
		return m.Interface(), nil
	}
	return copystructure.Copy(v)
}

func copyMap(x map[string]any, depth int) (map[string]any, error) {
	if x == nil {
		return x, nil
	}
	m := make(map[string]any, len(x))
	for k, e := range x {
		c, err := copyValue(e, depth+1)
		if err != nil {
			return nil, err
		}
		m[k] = c
	}
	return m, nil
}

// cloneBytes copies b with its length and capacity; nil stays nil.
func cloneBytes(b []byte) []byte {
	if b == nil {
		return nil
	}
	c := make([]byte, len(b), cap(b))
	copy(c, b)
	return c
}
