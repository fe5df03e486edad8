package manifest

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strconv"
	"strings"
	"sync/atomic"
	"unicode/utf8"

	yaml "go.yaml.in/yaml/v3"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// The fast path of the typed decode: the node tree is decoded straight
// into the Go value by reflection, without the JSON text in between. It
// is an optimisation of the YAML -> JSON -> struct path (decodeJSON), not
// a second semantics: it decodes only what it is certain decodes to the
// same value, with no problem, on that path, and gives up on anything
// else (a value of the wrong type, an alias, a merge key, an explicit
// tag, a duplicate key, an unknown field of a strict decode, a number
// that does not fit, a limit approached, a type it has no plan for).
// Then the value is reset and the JSON path decodes the object, so every
// problem and its position come from the one place they always did.
//
// What it mirrors, step by step:
//   - the encoder (jsonEncoder): which scalars become JSON null, booleans
//     (YAML 1.1's yes/no/on/off in plain scalars), numbers (a YAML integer
//     in any base, as decimal) and strings; the fields a subset type reads
//     (fieldTree); the problems found in parts the decode does not read
//     (checkTree);
//   - sigs.k8s.io/json's decoder, with its options CaseSensitive and
//     PreserveInts (internal/golang/encoding/json decode.go: indirect,
//     object, array, literalStore; typeFields of encode.go for the field
//     names): an exact field-name match, null zeroing only pointers, maps
//     and slices (and handed to a json.Unmarshaler), a decoded map or
//     slice never nil, a value implementing json.Unmarshaler (a
//     resource.Quantity, an intstr.IntOrString, a metav1.Time) given the
//     JSON text the encoder writes for its subtree.
//
// TestFastDecodeMatchesJSON and FuzzFastDecode check both paths agree.

// objectMetaType is the type of an object's metadata (dropMeta).
var objectMetaType = reflect.TypeOf(metav1.ObjectMeta{})

// fastDecoder is the state of one fast decode.
type fastDecoder struct {
	lim    Limits
	strict bool // unknown fields are problems: give up on one
	nodes  int  // at least as many as the encoder would count
	enc    *jsonEncoder
	num    []byte
	// dropMeta: the object's labels, annotations and managed fields
	// (below meta, the object's metadata node) are validated, not
	// kept: decodeTyped drops them.
	dropMeta bool
	meta     *yaml.Node
}

// sel is the encoder's view of a node: the part of the type the JSON
// holds (fieldTree), and whether it lies below labels or annotations.
type sel struct {
	tree      fieldTree
	all       bool
	stringMap bool
}

// child is the encoder's view of a mapping's value under key, and
// whether it writes that value (encodeMapping).
func (s sel) child(key string) (sel, bool) {
	sub, read := s.tree[key]
	return sel{tree: sub, all: s.all || sub == nil,
		stringMap: s.stringMap || key == "labels" || key == "annotations"}, s.all || read
}

// decodeFast decodes the object node n into out (a pointer to a zero
// struct) on the fast path. It reports false when it gave up; out is
// then zero again, for the JSON path.
//
// With dropMeta, out's metadata.labels, .annotations and .managedFields
// (a metav1.ObjectMeta) are checked as the JSON path checks them, but
// left empty: decodeTyped drops them from every decoded object (rules
// read them from the tree), and they are most of what an HPA's or a
// ScaledObject's decode allocates.
func decodeFast(n *yaml.Node, out any, lim Limits, strictUnknown bool, read fieldTree, dropMeta bool) bool {
	rv := reflect.ValueOf(out)
	if rv.Kind() != reflect.Pointer || rv.IsNil() {
		return false
	}
	v := rv.Elem()
	p := planFor(v.Type())
	if p.kind != planStruct || n == nil || n.Kind != yaml.MappingNode {
		return false
	}
	d := fastDecoder{lim: lim, strict: strictUnknown, dropMeta: dropMeta}
	if d.run(n, v, p, sel{tree: read, all: read == nil}) {
		return true
	}
	v.SetZero()
	return false
}

// run is value at the root, with a panic (a reflection misstep; a type's
// UnmarshalJSON panics on the JSON path too) taken as giving up, and
// counted: the tests require none.
func (d *fastDecoder) run(n *yaml.Node, v reflect.Value, p *typePlan, s sel) (ok bool) {
	defer func() {
		if recover() != nil {
			fastDecodePanics.Add(1)
			ok = false
		}
	}()
	return d.value(n, v, p, s, 0)
}

var fastDecodePanics atomic.Int64

// count counts a node at a depth, and says whether the encoder's limits
// are still surely far: nodes and depth are counted at least as the
// encoder counts them (keys too), and refused one early.
func (d *fastDecoder) count(depth int) bool {
	d.nodes++
	return d.nodes < d.lim.MaxNodes && depth < d.lim.MaxDepth
}

// plainNode reports whether a node is one the fast path reads at all:
// no alias, no explicit tag.
func plainNode(n *yaml.Node) bool {
	return n.Kind != yaml.AliasNode && n.Style&yaml.TaggedStyle == 0
}

// value decodes n into v, of plan p, written into the JSON with view s.
func (d *fastDecoder) value(n *yaml.Node, v reflect.Value, p *typePlan, s sel, depth int) bool {
	if !d.count(depth) || !plainNode(n) {
		return false
	}
	if n.Kind == yaml.ScalarNode && !s.stringMap && HostileNumber(n.Value) != "" {
		return false
	}
	null := n.Kind == yaml.ScalarNode && n.ShortTag() == "!!null"
	switch p.kind {
	case planUnmarshaler:
		return d.unmarshal(n, v, p, s, depth)
	case planPointer:
		if null {
			if v.IsValid() {
				v.SetZero()
			}
			return true
		}
		if !v.IsValid() {
			d.nodes-- // the same node again
			return d.value(n, v, p.elem, s, depth)
		}
		if v.IsNil() {
			v.Set(reflect.New(p.typ.Elem()))
		}
		d.nodes-- // the same node again
		return d.value(n, v.Elem(), p.elem, s, depth)
	case planStruct:
		if null {
			return true
		}
		if n.Kind != yaml.MappingNode {
			return false
		}
		return d.structFields(n, v, p, s, depth)
	case planMap:
		if null {
			if v.IsValid() {
				v.SetZero()
			}
			return true
		}
		if n.Kind != yaml.MappingNode {
			return false
		}
		return d.mapEntries(n, v, p, s, depth)
	case planSlice:
		if null {
			if v.IsValid() {
				v.SetZero()
			}
			return true
		}
		if n.Kind != yaml.SequenceNode {
			return false
		}
		if !v.IsValid() {
			for _, c := range n.Content {
				if !d.value(c, v, p.elem, s, depth+1) {
					return false
				}
			}
			return true
		}
		out := reflect.MakeSlice(p.typ, len(n.Content), len(n.Content))
		for i, c := range n.Content {
			if !d.value(c, out.Index(i), p.elem, s, depth+1) {
				return false
			}
		}
		v.Set(out)
		return true
	case planString, planBool, planInt, planUint, planFloat:
		if n.Kind != yaml.ScalarNode {
			return false
		}
		if null {
			return true // ignored, as JSON null is for these kinds
		}
		return d.scalar(n, v, p)
	}
	return false
}

// scalar decodes a non-null scalar into a string, bool or number, when
// the encoder writes the JSON literal of that kind (encodeScalar).
func (d *fastDecoder) scalar(n *yaml.Node, v reflect.Value, p *typePlan) bool {
	val := n.Value
	switch n.ShortTag() {
	case "!!bool":
		if p.kind != planBool {
			return false
		}
		b, err := strconv.ParseBool(strings.ToLower(val))
		if err != nil {
			b = yaml11Bools[val]
		}
		if v.IsValid() {
			v.SetBool(b)
		}
		return true
	case "!!int":
		return d.number(n, v, p, true)
	case "!!float":
		return d.number(n, v, p, false)
	case "!!binary":
		return false
	}
	if n.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle|yaml.LiteralStyle|yaml.FoldedStyle) == 0 {
		if b, ok := yaml11Bools[val]; ok {
			if p.kind != planBool {
				return false
			}
			if v.IsValid() {
				v.SetBool(b)
			}
			return true
		}
	}
	if p.kind != planString || !validJSONText(val) {
		return false
	}
	if v.IsValid() {
		v.SetString(strings.Clone(val)) // the fast parser's values share their document's text
	}
	return true
}

// number decodes a YAML integer or float into a number kind, through the
// decimal text the encoder writes for it.
func (d *fastDecoder) number(n *yaml.Node, v reflect.Value, p *typePlan, isInt bool) bool {
	val := n.Value
	var text string
	switch {
	case isInt && plainDecimal(val):
		text = val // yamlIntToJSON gives it back as it is
	case isInt:
		text = yamlIntToJSON(val)
	case p.kind != planFloat:
		// A float into an integer: the JSON path takes 3.0 as 3 but
		// refuses 1e400 and 3.5 with its own words; not worth mirroring.
		return false
	default:
		lower := strings.ToLower(val)
		if strings.HasSuffix(lower, "inf") || strings.HasSuffix(lower, "nan") {
			return false
		}
		f, err := strconv.ParseFloat(strings.ReplaceAll(val, "_", ""), 64)
		if err != nil {
			return false
		}
		d.num = strconv.AppendFloat(d.num[:0], f, 'g', -1, 64)
		text = string(d.num)
	}
	switch p.kind {
	case planInt:
		i, err := strconv.ParseInt(text, 10, 64)
		if err != nil || p.typ.OverflowInt(i) {
			return false
		}
		if v.IsValid() {
			v.SetInt(i)
		}
	case planUint:
		u, err := strconv.ParseUint(text, 10, 64)
		if err != nil || p.typ.OverflowUint(u) {
			return false
		}
		if v.IsValid() {
			v.SetUint(u)
		}
	case planFloat:
		f, err := strconv.ParseFloat(text, p.typ.Bits())
		if err != nil || p.typ.OverflowFloat(f) {
			return false
		}
		if v.IsValid() {
			v.SetFloat(f)
		}
	default:
		return false
	}
	return true
}

// plainDecimal reports whether s is an integer written as JSON writes it
// (and so as yamlIntToJSON gives it back): 0, or digits without a
// leading zero after an optional minus.
func plainDecimal(s string) bool {
	if s == "0" {
		return true
	}
	s = strings.TrimPrefix(s, "-")
	if s == "" || s[0] == '0' {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// validJSONText reports whether a string comes back unchanged from JSON:
// valid UTF-8 (the encoder replaces invalid bytes).
func validJSONText(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return utf8.ValidString(s)
		}
	}
	return true
}

// unmarshal hands a value implementing json.Unmarshaler the JSON the
// encoder writes for its subtree, as the JSON decoder does.
func (d *fastDecoder) unmarshal(n *yaml.Node, v reflect.Value, p *typePlan, s sel, depth int) bool {
	if d.enc == nil {
		d.enc = &jsonEncoder{selAll: true}
	}
	e := d.enc
	*e = jsonEncoder{buf: e.buf[:0], entries: e.entries[:0], maxNodes: d.lim.MaxNodes - d.nodes, maxDepth: d.lim.MaxDepth,
		selAll: true, stringMap: s.stringMap}
	if n.Kind == yaml.ScalarNode {
		e.encodeScalar(n)
	} else {
		if !d.check(n, depth, true, s.stringMap) { // aliases, merges, duplicates, limits
			return false
		}
		e.encode(n, depth)
	}
	d.nodes += e.nodes
	if len(e.errs) > 0 || !d.count(depth) || !json.Valid(e.buf) {
		return false
	}
	if !v.IsValid() {
		v = reflect.New(p.typ).Elem() // validated all the same: it may refuse the text
	}
	u, ok := v.Addr().Interface().(json.Unmarshaler)
	return ok && u.UnmarshalJSON(bytes.Clone(e.buf)) == nil
}

// structFields decodes a mapping into a struct.
func (d *fastDecoder) structFields(n *yaml.Node, v reflect.Value, p *typePlan, s sel, depth int) bool {
	if !d.keysPlain(n) {
		return false
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, val := n.Content[i], n.Content[i+1]
		cs, written := s.child(k.Value)
		if !written { // not in the JSON: only checked
			if !d.check(val, depth+1, false, cs.stringMap) {
				return false
			}
			continue
		}
		f := p.fields[k.Value]
		if f == nil {
			if d.strict {
				return false // an unknown field: a problem to report
			}
			if !d.check(val, depth+1, true, cs.stringMap) {
				return false
			}
			continue
		}
		if f.unsupported {
			return false
		}
		var fv reflect.Value // invalid: validated, not kept
		switch {
		case !v.IsValid() || n == d.meta && (k.Value == "labels" || k.Value == "annotations" || k.Value == "managedFields"):
		case len(f.index) == 1:
			fv = v.Field(f.index[0])
		default:
			fv = v.FieldByIndex(f.index)
		}
		if depth == 0 && d.dropMeta && k.Value == "metadata" && f.plan.typ == objectMetaType {
			d.meta = val
		}
		if !d.value(val, fv, f.plan, cs, depth+1) {
			return false
		}
	}
	return true
}

// mapEntries decodes a mapping into a map with string keys.
func (d *fastDecoder) mapEntries(n *yaml.Node, v reflect.Value, p *typePlan, s sel, depth int) bool {
	if !d.keysPlain(n) {
		return false
	}
	var kv, elem reflect.Value // invalid: validated, not kept
	if v.IsValid() {
		if v.IsNil() {
			v.Set(reflect.MakeMapWithSize(p.typ, len(n.Content)/2))
		}
		// One key and one element, set and copied into the map for each
		// entry, as the JSON decoder reuses its mapElem.
		kv, elem = reflect.New(p.typ.Key()).Elem(), reflect.New(p.elem.typ).Elem()
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, val := n.Content[i], n.Content[i+1]
		if !validJSONText(k.Value) {
			return false
		}
		cs, written := s.child(k.Value)
		if !written {
			if !d.check(val, depth+1, false, cs.stringMap) {
				return false
			}
			continue
		}
		if elem.IsValid() {
			elem.SetZero()
		}
		if !d.value(val, elem, p.elem, cs, depth+1) {
			return false
		}
		if v.IsValid() {
			kv.SetString(strings.Clone(k.Value))
			v.SetMapIndex(kv, elem)
		}
	}
	return true
}

// keysPlain reports whether a mapping's keys are what the fast path
// reads: scalars, no alias, tag or merge key, none twice.
func (d *fastDecoder) keysPlain(n *yaml.Node) bool {
	if len(n.Content)%2 != 0 {
		return false
	}
	const smallMapping = 16
	var seen map[string]bool
	for i := 0; i < len(n.Content); i += 2 {
		k := n.Content[i]
		if k.Kind != yaml.ScalarNode || !plainNode(k) || k.Tag == "!!merge" {
			return false
		}
		d.nodes++
		if len(n.Content) <= 2*smallMapping {
			for j := 0; j < i; j += 2 {
				if n.Content[j].Value == k.Value {
					return false
				}
			}
			continue
		}
		if seen == nil {
			seen = make(map[string]bool, len(n.Content)/2)
		}
		if seen[k.Value] {
			return false
		}
		seen[k.Value] = true
	}
	return true
}

// check walks a subtree the decode does not read, and reports whether
// the encoder finds no problem in it: written says whether the encoder
// writes it (then a hostile number is one), stringMap whether it lies
// below labels or annotations.
func (d *fastDecoder) check(n *yaml.Node, depth int, written, stringMap bool) bool {
	if !d.count(depth) || !plainNode(n) {
		return false
	}
	switch n.Kind {
	case yaml.MappingNode:
		if !d.keysPlain(n) {
			return false
		}
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := n.Content[i].Value
			if !d.check(n.Content[i+1], depth+1, written, stringMap || k == "labels" || k == "annotations") {
				return false
			}
		}
		return true
	case yaml.SequenceNode:
		for _, c := range n.Content {
			if !d.check(c, depth+1, written, stringMap) {
				return false
			}
		}
		return true
	case yaml.ScalarNode:
		if written && !stringMap && HostileNumber(n.Value) != "" {
			return false
		}
		switch n.ShortTag() {
		case "!!binary":
			return false
		case "!!float":
			lower := strings.ToLower(n.Value)
			if strings.HasSuffix(lower, "inf") || strings.HasSuffix(lower, "nan") {
				return false
			}
			if _, err := strconv.ParseFloat(strings.ReplaceAll(n.Value, "_", ""), 64); err != nil {
				return false
			}
		}
		return true
	}
	return false
}
