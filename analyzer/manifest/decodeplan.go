package manifest

import (
	"encoding"
	"reflect"
	"strings"
	"sync"
	"unicode"
)

// The fast decode's plans (decodefast.go): how each Go type is decoded,
// built once per type from the same facts the JSON decoder uses.

// planKind is what the fast path does with a Go type.
type planKind uint8

const (
	planUnsupported planKind = iota // give up: the JSON path decodes it
	planStruct
	planPointer
	planSlice
	planMap
	planString
	planBool
	planInt
	planUint
	planFloat
	planUnmarshaler // the type's UnmarshalJSON, given the encoder's JSON
)

// typePlan is how the fast path decodes one Go type.
type typePlan struct {
	kind   planKind
	typ    reflect.Type
	elem   *typePlan             // pointer, slice, map
	fields map[string]*fieldPlan // struct: by exact JSON name
}

// fieldPlan is a struct field as the JSON decoder finds it.
type fieldPlan struct {
	index []int // through embedded structs held by value
	plan  *typePlan
	// unsupported: a ",string" field or one inside an embedded pointer.
	unsupported bool
}

var (
	textUnmarshalerType = reflect.TypeOf((*encoding.TextUnmarshaler)(nil)).Elem()

	plans   sync.Map // reflect.Type -> *typePlan, complete
	plansMu sync.Mutex
)

// planFor returns the plan of t, building it (and those of every type it
// reaches) on first use.
func planFor(t reflect.Type) *typePlan {
	if p, ok := plans.Load(t); ok {
		return p.(*typePlan)
	}
	plansMu.Lock()
	defer plansMu.Unlock()
	if p, ok := plans.Load(t); ok {
		return p.(*typePlan)
	}
	building := map[reflect.Type]*typePlan{}
	p := buildPlan(t, building)
	for bt, bp := range building {
		plans.LoadOrStore(bt, bp)
	}
	return p
}

func buildPlan(t reflect.Type, building map[reflect.Type]*typePlan) *typePlan {
	if p, ok := building[t]; ok {
		return p
	}
	if p, ok := plans.Load(t); ok {
		return p.(*typePlan)
	}
	p := &typePlan{typ: t}
	building[t] = p // before the elements: types may be recursive
	pt := reflect.PointerTo(t)
	switch {
	case pt.Implements(unmarshalerType):
		// The decoder finds UnmarshalJSON through the value's address,
		// which it takes only for a named type.
		if t.Name() != "" && t.Kind() != reflect.Pointer {
			p.kind = planUnmarshaler
		}
		return p
	case pt.Implements(textUnmarshalerType):
		return p
	}
	switch t.Kind() {
	case reflect.Pointer:
		if t.Name() == "" && t.Elem().Kind() != reflect.Pointer {
			p.kind, p.elem = planPointer, buildPlan(t.Elem(), building)
		}
	case reflect.Slice:
		if t.Elem().Kind() != reflect.Uint8 { // []byte is base64 text
			p.kind, p.elem = planSlice, buildPlan(t.Elem(), building)
		}
	case reflect.Map:
		kt := t.Key()
		if kt.Kind() == reflect.String && !reflect.PointerTo(kt).Implements(textUnmarshalerType) {
			p.kind, p.elem = planMap, buildPlan(t.Elem(), building)
		}
	case reflect.Struct:
		p.kind = planStruct
		p.fields = map[string]*fieldPlan{}
		for _, f := range decoderFields(t) {
			fp := &fieldPlan{index: f.index, unsupported: f.quoted}
			st := t
			for i, x := range f.index {
				ft := st.Field(x).Type
				if i < len(f.index)-1 {
					if ft.Kind() != reflect.Struct {
						fp.unsupported = true // an embedded pointer: allocated, or refused if unexported
						break
					}
					st = ft
					continue
				}
				fp.plan = buildPlan(ft, building)
			}
			p.fields[f.name] = fp
		}
	case reflect.String:
		p.kind = planString
	case reflect.Bool:
		p.kind = planBool
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		p.kind = planInt
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		p.kind = planUint
	case reflect.Float32, reflect.Float64:
		p.kind = planFloat
	}
	return p
}

// decoderField is a struct field the JSON decoder fills.
type decoderField struct {
	name   string
	index  []int
	tagged bool
	quoted bool
}

// decoderFields lists the fields the JSON decoder of sigs.k8s.io/json
// (a copy of encoding/json's) fills for a JSON key, by the same rules:
// its typeFields in internal/golang/encoding/json/encode.go, of which
// this keeps the name, index, tag and ",string" parts (BSD licence, The
// Go Authors): a breadth-first walk of embedded structs, then Go's
// dominance rules (shallower wins, then tagged; a tie hides the name).
func decoderFields(t reflect.Type) []decoderField {
	type queued struct {
		typ   reflect.Type
		index []int
	}
	current, next := []queued{}, []queued{{typ: t}}
	var count, nextCount map[reflect.Type]int
	visited := map[reflect.Type]bool{}
	var fields []decoderField
	for len(next) > 0 {
		current, next = next, current[:0]
		count, nextCount = nextCount, map[reflect.Type]int{}
		for _, f := range current {
			if visited[f.typ] {
				continue
			}
			visited[f.typ] = true
			for i := 0; i < f.typ.NumField(); i++ {
				sf := f.typ.Field(i)
				if sf.Anonymous {
					t := sf.Type
					if t.Kind() == reflect.Pointer {
						t = t.Elem()
					}
					if !sf.IsExported() && t.Kind() != reflect.Struct {
						continue
					}
				} else if !sf.IsExported() {
					continue
				}
				tag := sf.Tag.Get("json")
				if tag == "-" {
					continue
				}
				name, opts, _ := strings.Cut(tag, ",")
				if !isValidTag(name) {
					name = ""
				}
				index := make([]int, len(f.index)+1)
				copy(index, f.index)
				index[len(f.index)] = i
				ft := sf.Type
				if ft.Name() == "" && ft.Kind() == reflect.Pointer {
					ft = ft.Elem()
				}
				quoted := false
				if tagOption(opts, "string") {
					switch ft.Kind() {
					case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
						reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
						reflect.Float32, reflect.Float64, reflect.String:
						quoted = true
					}
				}
				if name != "" || !sf.Anonymous || ft.Kind() != reflect.Struct {
					tagged := name != ""
					if name == "" {
						name = sf.Name
					}
					fields = append(fields, decoderField{name: name, index: index, tagged: tagged, quoted: quoted})
					if count[f.typ] > 1 {
						fields = append(fields, fields[len(fields)-1]) // seen twice: annihilated below
					}
					continue
				}
				nextCount[ft]++
				if nextCount[ft] == 1 {
					next = append(next, queued{typ: ft, index: index})
				}
			}
		}
	}
	sortFields(fields)
	out := fields[:0]
	for advance, i := 0, 0; i < len(fields); i += advance {
		fi := fields[i]
		for advance = 1; i+advance < len(fields) && fields[i+advance].name == fi.name; advance++ {
		}
		if advance == 1 {
			out = append(out, fi)
			continue
		}
		if f1 := fields[i+1]; len(fi.index) == len(f1.index) && fi.tagged == f1.tagged {
			continue // ambiguous: the name is dropped
		}
		out = append(out, fi)
	}
	return out
}

// sortFields orders fields by name, then depth, then tagged first, then
// index sequence (typeFields' order, which decides dominance).
func sortFields(fields []decoderField) {
	less := func(a, b decoderField) bool {
		if a.name != b.name {
			return a.name < b.name
		}
		if len(a.index) != len(b.index) {
			return len(a.index) < len(b.index)
		}
		if a.tagged != b.tagged {
			return a.tagged
		}
		for k := 0; k < len(a.index) && k < len(b.index); k++ {
			if a.index[k] != b.index[k] {
				return a.index[k] < b.index[k]
			}
		}
		return len(a.index) < len(b.index)
	}
	for i := 1; i < len(fields); i++ { // insertion sort: structs have few fields
		for j := i; j > 0 && less(fields[j], fields[j-1]); j-- {
			fields[j], fields[j-1] = fields[j-1], fields[j]
		}
	}
}

// isValidTag is encoding/json's test of a tag name.
func isValidTag(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		switch {
		case strings.ContainsRune("!#$%&()*+-./:;<=>?@[]^_{|}~ ", c):
			// Backslash and quote chars are reserved, but otherwise any
			// punctuation chars are allowed in a tag name.
		case !unicode.IsLetter(c) && !unicode.IsDigit(c):
			return false
		}
	}
	return true
}

// tagOption reports whether a comma-separated list of options holds name.
func tagOption(opts, name string) bool {
	for opts != "" {
		var o string
		o, opts, _ = strings.Cut(opts, ",")
		if o == name {
			return true
		}
	}
	return false
}
