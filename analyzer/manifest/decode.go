package manifest

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/big"
	"reflect"
	"strconv"
	"strings"
	"sync"

	yaml "go.yaml.in/yaml/v3"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	sigsjson "sigs.k8s.io/json"

	"github.com/scalelint/scalelint/analyzer/suggest"
)

// The typed decode goes YAML node tree -> JSON -> Go struct, with the
// semantics kubectl gets from sigs.k8s.io/yaml and sigs.k8s.io/json:
// YAML 1.1 booleans (yes/no/on/off) in plain scalars, case-sensitive field
// names, unknown and duplicate fields reported strictly. A decode error is
// mapped back to its node by decoding the failing subtrees one by one
// (locate).
//
// A lenient decode into a subset type (a workload: scalelint reads its
// replicas and containers' resources, not its env, probes or volumes)
// writes JSON only for the fields the type has: the encoder still walks
// the whole tree, so every problem the full encoding would find (duplicate
// keys, bad numbers, limits) is found, but the JSON decoder reads a small
// fraction of the object.

// encodeError is a problem found while converting nodes to JSON.
type encodeError struct {
	node  *yaml.Node
	msg   string
	limit bool // a safety limit refused the object (input-limit)
}

type jsonEncoder struct {
	buf      []byte
	errs     []encodeError
	nodes    int // nodes emitted, aliases expanded
	maxNodes int
	maxDepth int
	stopped  bool
	// outerAlias is the outermost alias being expanded: where a refused
	// expansion is reported (the aliased nodes themselves may be anywhere).
	outerAlias *yaml.Node
	// aliased counts the aliases expanded: the node limit is worded as
	// alias expansion only when one was.
	aliased int
	// sel is the part of the type being decoded at the current node
	// (selAll: all of it); quiet walks a subtree the type does not read,
	// checking it without writing JSON.
	sel    fieldTree
	selAll bool
	quiet  bool
	// entries is the stack of the entries of the mappings being encoded
	// (encodeMapping).
	entries [][2]*yaml.Node
	// stringMap is set below "labels" and "annotations": string maps in
	// every Kubernetes object, never decoded as quantities (scalelint's
	// own annotations are read, and bounded, by analyzer/scaling).
	stringMap bool
}

// fieldTree is the set of JSON fields a subset type reads, by name; a nil
// subtree reads everything below its field.
type fieldTree map[string]fieldTree

var fieldTrees sync.Map // reflect.Type -> fieldTree

// fieldsRead returns the fields a type reads: the tree of its JSON field
// names through the structs of this package and unnamed structs (the
// subset types), nil (everything) at any other type, which decodes whole.
func fieldsRead(t reflect.Type) fieldTree {
	for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice || t.Kind() == reflect.Array {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct || (t.Name() != "" && t.PkgPath() != subsetPkg) ||
		reflect.PointerTo(t).Implements(unmarshalerType) {
		return nil
	}
	if v, ok := fieldTrees.Load(t); ok {
		return v.(fieldTree)
	}
	out := fieldTree{}
	for name, ft := range jsonFields(t) {
		out[name] = fieldsRead(ft)
	}
	fieldTrees.Store(t, out)
	return out
}

var subsetPkg = reflect.TypeOf(fieldTree{}).PkgPath()

// yaml11Bools are the plain scalars YAML 1.1 (and so kubectl) reads as
// booleans, which yaml.v3 (YAML 1.2) reads as strings.
var yaml11Bools = map[string]bool{
	"y": true, "Y": true, "yes": true, "Yes": true, "YES": true, "on": true, "On": true, "ON": true,
	"n": false, "N": false, "no": false, "No": false, "NO": false, "off": false, "Off": false, "OFF": false,
}

func (e *jsonEncoder) fail(n *yaml.Node, format string, args ...any) {
	e.errs = append(e.errs, encodeError{n, fmt.Sprintf(format, args...), false})
}

func (e *jsonEncoder) encode(n *yaml.Node, depth int) {
	if e.stopped {
		return
	}
	e.nodes++
	at := n
	if e.outerAlias != nil {
		at = e.outerAlias
	}
	if e.nodes > e.maxNodes {
		msg := fmt.Sprintf("this object has more than %d nodes (keys, values and items); refused", e.maxNodes)
		if e.aliased > 0 {
			msg = fmt.Sprintf("alias expansion makes this object larger than %d nodes; refused (a \"billion laughs\" document?)", e.maxNodes)
		}
		e.errs = append(e.errs, encodeError{at, msg, true})
		e.stopped = true
		return
	}
	if depth > e.maxDepth {
		e.errs = append(e.errs, encodeError{at, fmt.Sprintf("nesting deeper than %d levels (a recursive alias?); refused", e.maxDepth), true})
		e.stopped = true
		return
	}
	switch n.Kind {
	case yaml.AliasNode:
		if n.Alias == nil {
			e.fail(n, "unknown alias %q", n.Value)
			e.write("null")
		} else {
			e.aliased++
			outer := e.outerAlias == nil
			if outer {
				e.outerAlias = n
			}
			e.encode(n.Alias, depth+1)
			if outer {
				e.outerAlias = nil
			}
		}
	case yaml.DocumentNode:
		if len(n.Content) == 0 {
			e.write("null")
		} else {
			e.encode(n.Content[0], depth)
		}
	case yaml.MappingNode:
		e.encodeMapping(n, depth)
	case yaml.SequenceNode:
		e.write("[")
		for i, c := range n.Content {
			if i > 0 {
				e.write(",")
			}
			e.encode(c, depth+1)
		}
		e.write("]")
	case yaml.ScalarNode:
		e.encodeScalar(n)
	default:
		e.write("null")
	}
}

// write appends JSON text, unless the encoder is walking quietly.
func (e *jsonEncoder) write(s string) {
	if !e.quiet {
		e.buf = append(e.buf, s...)
	}
}

// mappingEntries lists a mapping's key/value pairs with "<<" merges
// applied: explicit keys win over merged ones, earlier merges over later.
func mappingEntries(n *yaml.Node) [][2]*yaml.Node { return appendMappingEntries(nil, n) }

// appendMappingEntries appends a mapping's entries (mappingEntries) to dst.
func appendMappingEntries(dst [][2]*yaml.Node, n *yaml.Node) [][2]*yaml.Node {
	merges := false
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Tag == "!!merge" {
			merges = true
			break
		}
	}
	if !merges { // the common case: the pairs as written
		for i := 0; i+1 < len(n.Content); i += 2 {
			dst = append(dst, [2]*yaml.Node{n.Content[i], n.Content[i+1]})
		}
		return dst
	}
	return append(dst, mergedEntries(n, map[*yaml.Node]bool{n: true})...)
}

// mergedEntries is mappingEntries for a mapping with merges. merged holds
// the mappings already merged (and n): merging one again adds no key, as
// every key it has is already seen, so each is read once however often
// aliases repeat it; otherwise "<<: [*a, *a, ...]" nested ten deep is
// ten billion merges.
func mergedEntries(n *yaml.Node, merged map[*yaml.Node]bool) [][2]*yaml.Node {
	var own, from [][2]*yaml.Node
	seen := map[string]bool{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if k.Tag == "!!merge" {
			continue
		}
		own = append(own, [2]*yaml.Node{k, v})
		if k.Kind == yaml.ScalarNode {
			seen[k.Value] = true
		}
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Tag != "!!merge" {
			continue
		}
		srcs := []*yaml.Node{deref(n.Content[i+1])}
		if srcs[0] != nil && srcs[0].Kind == yaml.SequenceNode {
			srcs = srcs[0].Content
		}
		for _, s := range srcs {
			s = deref(s)
			if s == nil || s.Kind != yaml.MappingNode || merged[s] {
				continue
			}
			merged[s] = true
			for _, kv := range mergedEntries(s, merged) {
				if kv[0].Kind == yaml.ScalarNode && !seen[kv[0].Value] {
					seen[kv[0].Value] = true
					from = append(from, kv)
				}
			}
		}
	}
	return append(own, from...)
}

func (e *jsonEncoder) encodeMapping(n *yaml.Node, depth int) {
	e.write("{")
	// The entries go on the encoder's stack of them, shared by the
	// mappings being encoded (a slice each, not an allocation each); a
	// nested mapping appends past them, so they stay as they are even
	// when the stack grows.
	base := len(e.entries)
	e.entries = appendMappingEntries(e.entries, n)
	entries := e.entries[base:]
	defer func() { e.entries = e.entries[:base] }()
	var first map[string]*yaml.Node // for large mappings; small ones are scanned
	const smallMapping = 16
	sel, selAll, quiet, inStringMap := e.sel, e.selAll, e.quiet, e.stringMap
	wrote := 0
	for i, kv := range entries {
		k, v := kv[0], kv[1]
		kd := deref(k)
		if kd == nil || kd.Kind != yaml.ScalarNode {
			e.fail(k, "a mapping key must be a scalar, found a %s", kindName(kd))
			continue
		}
		var prev *yaml.Node
		if len(entries) <= smallMapping {
			prev = scanKey(entries[:i], kd.Value)
		} else {
			if first == nil {
				first = make(map[string]*yaml.Node, len(entries))
			}
			if prev = first[kd.Value]; prev == nil {
				first[kd.Value] = k
			}
		}
		if prev != nil {
			e.fail(k, "duplicate key %q (first at line %d); Kubernetes keeps the last value", kd.Value, prev.Line)
		}
		sub, read := sel[kd.Value]
		e.sel, e.selAll, e.quiet = sub, selAll || sub == nil, quiet || !(selAll || read)
		e.stringMap = inStringMap || kd.Value == "labels" || kd.Value == "annotations"
		if !e.quiet {
			if wrote > 0 {
				e.buf = append(e.buf, ',')
			}
			e.buf = appendJSONString(e.buf, kd.Value) // JSON escapes: Go's \x01 is no JSON
			e.buf = append(e.buf, ':')
			wrote++
		}
		e.encode(v, depth+1)
	}
	e.sel, e.selAll, e.quiet, e.stringMap = sel, selAll, quiet, inStringMap
	e.write("}")
}

// scanKey returns the key node of the first of entries whose scalar key
// is key, or nil: for a mapping of a few keys, cheaper than a map.
func scanKey(entries [][2]*yaml.Node, key string) *yaml.Node {
	for _, kv := range entries {
		if kd := deref(kv[0]); kd != nil && kd.Kind == yaml.ScalarNode && kd.Value == key {
			return kv[0]
		}
	}
	return nil
}

func kindName(n *yaml.Node) string {
	if n == nil {
		return "nothing"
	}
	switch n.Kind {
	case yaml.MappingNode:
		return "mapping"
	case yaml.SequenceNode:
		return "sequence"
	case yaml.ScalarNode:
		return "scalar"
	}
	return "node"
}

func (e *jsonEncoder) encodeScalar(n *yaml.Node) {
	v := n.Value
	if !e.quiet && !e.stringMap {
		if why := HostileNumber(v); why != "" {
			// Not handed to the decoder, which would parse it with
			// resource.ParseQuantity wherever the type holds a quantity.
			e.fail(n, "%s", why)
			e.write("null")
			return
		}
	}
	switch n.ShortTag() {
	case "!!null":
		e.write("null")
	case "!!binary":
		if s, ok := binaryValue(n); ok {
			if !e.quiet {
				e.buf = appendJSONString(e.buf, s)
			}
			return
		}
		e.fail(n, "%q is not base64: a !!binary value must be", n.Value)
		e.write("null")
	case "!!bool":
		if e.quiet {
			return
		}
		b, err := strconv.ParseBool(strings.ToLower(v))
		if err != nil {
			b = yaml11Bools[v]
		}
		e.buf = strconv.AppendBool(e.buf, b)
	case "!!int":
		if !e.quiet {
			e.buf = append(e.buf, yamlIntToJSON(v)...)
		}
	case "!!float":
		// Checked even when quiet: a number Kubernetes refuses is an error
		// wherever it is.
		f, err := strconv.ParseFloat(strings.ReplaceAll(v, "_", ""), 64)
		switch {
		case strings.HasSuffix(strings.ToLower(v), "inf") || strings.HasSuffix(strings.ToLower(v), "nan"):
			e.fail(n, "%s is not a number Kubernetes accepts (JSON has no NaN or infinity)", v)
			e.write("null")
		case err != nil && isDigits(v):
			e.write(v) // an integer too large for int64: let the decoder say so
		case err != nil:
			e.fail(n, "%s is not a valid number", v)
			e.write("null")
		case !e.quiet:
			e.buf = strconv.AppendFloat(e.buf, f, 'g', -1, 64)
		}
	default:
		if e.quiet {
			return
		}
		if n.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle|yaml.LiteralStyle|yaml.FoldedStyle) == 0 {
			if b, ok := yaml11Bools[v]; ok {
				e.buf = strconv.AppendBool(e.buf, b)
				return
			}
		}
		e.buf = appendJSONString(e.buf, v)
	}
}

// MaxQuantityLen and MaxQuantityExponent bound the numbers scalelint
// hands to resource.ParseQuantity. Its cost grows faster than its input (a
// million digits and "Ki" take 1.3 s, ten times that length about 65
// times as long, measured on the development machine), and it does not
// return on some large exponents ("2E6024865272343", "15e-400000000",
// "1.5e-2147483647"; fuzzing found a 320-character one). 256
// characters hold any number a person writes; an exponent past 400 is past
// any float64 (about 1.8e308, or 4.9e-324 with a long mantissa).
const (
	MaxQuantityLen      = 256
	MaxQuantityExponent = 400
)

// HostileNumber says why s, shaped like a number or quantity (digits,
// sign, point, exponent, then at most a two-letter unit: 500m, 2Ki, 1e3),
// is refused: longer than MaxQuantityLen, or with an exponent past
// MaxQuantityExponent. It returns "" for anything else.
func HostileNumber(s string) string {
	if s == "" {
		return ""
	}
	if c := s[0]; !(c >= '0' && c <= '9' || c == '+' || c == '-' || c == '.') {
		return "" // most scalars: names, words
	}
	body := strings.TrimRight(s, "kKMGTPEimun")
	if len(s)-len(body) > 2 || body == "" {
		return ""
	}
	digits, exp := false, -1
	for i := 0; i < len(body); i++ {
		switch c := body[i]; {
		case c >= '0' && c <= '9':
			digits = true
		case c == 'e' || c == 'E':
			exp = i
		case c == '.' || c == '+' || c == '-':
		default:
			return ""
		}
	}
	switch {
	case !digits:
		return ""
	case len(s) > MaxQuantityLen:
		return fmt.Sprintf("a number %d characters long: scalelint reads numbers of at most %d characters (Kubernetes' quantity parser can take minutes on longer ones)", len(s), MaxQuantityLen)
	case exp >= 0:
		e := strings.TrimLeft(strings.TrimLeft(body[exp+1:], "+-"), "0")
		if n, err := strconv.Atoi(e); e != "" && (err != nil || n > MaxQuantityExponent) {
			return fmt.Sprintf("exponent %s is past any float64 (scalelint reads exponents up to %d; Kubernetes' quantity parser can hang on larger ones)", body[exp+1:], MaxQuantityExponent)
		}
	}
	return ""
}

// quotedAsRead is the text of a plain scalar for a fix that quotes it
// where a string is wanted: a number as YAML reads it, in decimal ("0x10"
// is 16: quoted as written, "0x10", KEDA's strconv.ParseInt refuses it;
// "1_000" is 1000, "1e3" is 1000), anything else as written.
func quotedAsRead(n *yaml.Node) string {
	switch n.ShortTag() {
	case "!!int":
		return yamlIntToJSON(n.Value)
	case "!!float":
		if f, err := strconv.ParseFloat(strings.ReplaceAll(n.Value, "_", ""), 64); err == nil && !math.IsInf(f, 0) && !math.IsNaN(f) {
			return strconv.FormatFloat(f, 'f', -1, 64)
		}
	}
	return n.Value
}

func isDigits(s string) bool {
	s = strings.TrimLeft(s, "+-")
	if s == "" {
		return false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// yamlIntToJSON renders a YAML integer (0x, 0o, 0b, underscores, signs)
// as a decimal JSON number.
func yamlIntToJSON(v string) string {
	s := strings.ReplaceAll(v, "_", "")
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimLeft(s, "+-")
	base := 10
	switch {
	case strings.HasPrefix(s, "0x") || strings.HasPrefix(s, "0X"):
		base, s = 16, s[2:]
	case strings.HasPrefix(s, "0o") || strings.HasPrefix(s, "0O"):
		base, s = 8, s[2:]
	case strings.HasPrefix(s, "0b") || strings.HasPrefix(s, "0B"):
		base, s = 2, s[2:]
	case len(s) > 1 && s[0] == '0':
		base = 8 // YAML 1.1 octal, as yaml.v3 reads it
	}
	z, ok := new(big.Int).SetString(s, base)
	if !ok {
		return strconv.Quote(v)
	}
	if neg {
		z.Neg(z)
	}
	return z.String()
}

func appendJSONString(buf []byte, s string) []byte {
	simple := true
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c == '"' || c == '\\' || c >= 0x80 {
			simple = false
			break
		}
	}
	if simple { // most values: printable ASCII that needs no escape
		buf = append(buf, '"')
		buf = append(buf, s...)
		return append(buf, '"')
	}
	b, err := json.Marshal(s)
	if err != nil {
		return strconv.AppendQuote(buf, s)
	}
	return append(buf, b...)
}

// toJSON converts a node tree to JSON: all of it, or only the fields in
// read (nil: everything), while checking all of it.
func toJSON(n *yaml.Node, lim Limits, read fieldTree) ([]byte, []encodeError) {
	e := &jsonEncoder{maxNodes: lim.MaxNodes, maxDepth: lim.MaxDepth, sel: read, selAll: read == nil, entries: make([][2]*yaml.Node, 0, 32)}
	e.encode(n, 0)
	return e.buf, e.errs
}

// FieldError is a typed-decode problem at a node.
type FieldError struct {
	Node    *yaml.Node
	Key     *yaml.Node // the key node, for unknown and duplicate fields
	Path    Path
	Message string
	// Suggestion is replacement text for Node that fixes the error, when
	// one is certain: a number or boolean quoted where a string is wanted.
	Suggestion string
	// Limit marks an object refused by a safety limit (input-limit).
	Limit bool
}

// decodeInto decodes the object node n into out (a pointer to a struct)
// and returns every problem found, positioned at its node. out holds what
// could be decoded even when problems are returned.
//
// The fast path (decodeFast) decodes most objects; whatever it is not
// certain of, the JSON path (decodeJSON) decodes and words. The fast path
// leaves a metav1.Object's labels, annotations and managed fields out of
// out (checked all the same), as decodeTyped drops them.
func decodeInto(n *yaml.Node, out any, lim Limits, strictUnknown bool) []FieldError {
	var read fieldTree
	if !strictUnknown {
		// Unknown fields are ignored: write only the fields out reads.
		read = fieldsRead(reflect.TypeOf(out))
	}
	_, dropMeta := out.(metav1.Object) // decodeTyped drops its labels, annotations, managed fields
	if decodeFast(n, out, lim, strictUnknown, read, dropMeta) {
		return nil
	}
	return decodeJSON(n, out, lim, strictUnknown, read)
}

// decodeJSON is decodeInto through JSON: the node tree's JSON (only the
// fields in read, when not nil) decoded by sigs.k8s.io/json.
func decodeJSON(n *yaml.Node, out any, lim Limits, strictUnknown bool, read fieldTree) []FieldError {
	data, encErrs := toJSON(n, lim, read)
	var errs []FieldError
	for _, ee := range encErrs {
		errs = append(errs, FieldError{Node: ee.node, Message: ee.msg, Limit: ee.limit})
		if ee.limit {
			return errs
		}
	}
	opts := []sigsjson.StrictOption{sigsjson.DisallowDuplicateFields}
	if strictUnknown {
		opts = append(opts, sigsjson.DisallowUnknownFields)
	}
	strict, err := sigsjson.UnmarshalStrict(data, out, opts...)
	if err != nil {
		// Decode each field on its own to find every failing leaf.
		errs = append(errs, locate(n, reflect.TypeOf(out), nil, lim)...)
		if len(errs) == len(encErrs) {
			errs = append(errs, FieldError{Node: n, Message: cleanJSONError(err)})
		}
		return errs
	}
	for _, se := range strict {
		var fe sigsjson.FieldError
		if !errors.As(se, &fe) {
			continue
		}
		p := ParsePath(fe.FieldPath())
		if strings.HasPrefix(se.Error(), "duplicate field") {
			continue // reported by the encoder with both lines
		}
		if len(p) == 0 {
			p = Path{Key(fe.FieldPath())} // an empty key: "" is its own name
		}
		key, val := Lookup(n, p)
		parent, _ := Nearest(n, p[:len(p)-1])
		node := key
		if node == nil {
			node = parent
		}
		msg := fmt.Sprintf("unknown field %q", p.String())
		if s := suggestField(reflect.TypeOf(out), p); s != "" {
			msg += fmt.Sprintf(" (did you mean %q?)", s)
		} else {
			msg += v2beta1Hint(reflect.TypeOf(out), p, val)
		}
		errs = append(errs, FieldError{Node: node, Key: key, Path: p, Message: msg})
	}
	return errs
}

var unmarshalerType = reflect.TypeOf((*json.Unmarshaler)(nil)).Elem()

// locate decodes the subtrees of n one by one against type t to find the
// leaves that fail, so every error gets its own position.
func locate(n *yaml.Node, t reflect.Type, path Path, lim Limits) []FieldError {
	n = deref(n)
	if n == nil {
		return nil
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	decodeLeaf := func() []FieldError {
		data, _ := toJSON(n, lim, nil)
		v := reflect.New(t)
		if err := sigsjson.UnmarshalCaseSensitivePreserveInts(data, v.Interface()); err != nil {
			fe := FieldError{Node: n, Path: path, Message: leafMessage(path, n, t, err)}
			if t.Kind() == reflect.String && n.Kind == yaml.ScalarNode && n.Style == 0 {
				fe.Suggestion = strconv.Quote(quotedAsRead(n))
				fe.Message += fmt.Sprintf(" (quote it: %s)", fe.Suggestion)
			}
			return []FieldError{fe}
		}
		return nil
	}
	if reflect.PointerTo(t).Implements(unmarshalerType) || t.Implements(unmarshalerType) {
		return decodeLeaf()
	}
	switch t.Kind() {
	case reflect.Struct:
		if n.Kind != yaml.MappingNode {
			return decodeLeaf()
		}
		fields := jsonFields(t)
		var out []FieldError
		for _, kv := range mappingEntries(n) {
			k := deref(kv[0])
			if k == nil {
				continue
			}
			ft, ok := fields[k.Value]
			if !ok {
				continue
			}
			out = append(out, locate(kv[1], ft, path.Append(Key(k.Value)), lim)...)
		}
		return out
	case reflect.Slice:
		if n.Kind != yaml.SequenceNode || t.Elem().Kind() == reflect.Uint8 {
			if n.Kind == yaml.ScalarNode && n.ShortTag() == "!!null" {
				return nil
			}
			return decodeLeaf()
		}
		var out []FieldError
		for i, c := range n.Content {
			out = append(out, locate(c, t.Elem(), path.Append(Index(i)), lim)...)
		}
		return out
	case reflect.Map:
		if n.Kind != yaml.MappingNode {
			if n.Kind == yaml.ScalarNode && n.ShortTag() == "!!null" {
				return nil
			}
			return decodeLeaf()
		}
		var out []FieldError
		for _, kv := range mappingEntries(n) {
			k := deref(kv[0])
			if k == nil {
				continue
			}
			out = append(out, locate(kv[1], t.Elem(), path.Append(Key(k.Value)), lim)...)
		}
		return out
	case reflect.Interface:
		return nil
	}
	return decodeLeaf()
}

// jsonFields maps the JSON names of a struct's fields (inline structs
// flattened) to their types.
func jsonFields(t reflect.Type) map[string]reflect.Type {
	out := map[string]reflect.Type{}
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		name, opts, _ := strings.Cut(tag, ",")
		if tag == "-" || (!f.IsExported() && !f.Anonymous) {
			continue
		}
		if f.Anonymous && name == "" || strings.Contains(opts, "inline") {
			ft := f.Type
			for ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			if ft.Kind() == reflect.Struct {
				for k, v := range jsonFields(ft) {
					if _, exists := out[k]; !exists {
						out[k] = v
					}
				}
				continue
			}
		}
		if name == "" {
			name = f.Name
		}
		out[name] = f.Type
	}
	return out
}

// suggestField proposes the known field closest to the unknown last step
// of path, or "".
func suggestField(t reflect.Type, path Path) string {
	for _, e := range path[:len(path)-1] {
		for t.Kind() == reflect.Pointer {
			t = t.Elem()
		}
		switch {
		case e.IsIdx && (t.Kind() == reflect.Slice || t.Kind() == reflect.Array):
			t = t.Elem()
		case !e.IsIdx && t.Kind() == reflect.Struct:
			ft, ok := jsonFields(t)[e.Key]
			if !ok {
				return ""
			}
			t = ft
		case !e.IsIdx && t.Kind() == reflect.Map:
			t = t.Elem()
		default:
			return ""
		}
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct {
		return ""
	}
	var names []string
	for k := range jsonFields(t) {
		names = append(names, k)
	}
	return suggest.Closest(path[len(path)-1].Key, names)
}

// leafMessage words a decode failure of one value for a person.
func leafMessage(path Path, n *yaml.Node, t reflect.Type, err error) string {
	what := describeNode(n)
	want := typeName(t)
	msg := fmt.Sprintf("%s: expected %s, found %s", path.String(), want, what)
	if path.String() == "" {
		msg = fmt.Sprintf("expected %s, found %s", want, what)
	}
	var ute *json.UnmarshalTypeError
	if !errors.As(err, &ute) {
		if s := cleanJSONError(err); s != "" {
			msg = fmt.Sprintf("%s: %s", path.String(), s)
		}
	} else if strings.HasPrefix(ute.Value, "number") && (t.Kind() >= reflect.Int && t.Kind() <= reflect.Uint64) {
		msg = fmt.Sprintf("%s: %s does not fit in %s", path.String(), n.Value, want)
		if f, err := strconv.ParseFloat(strings.ReplaceAll(n.Value, "_", ""), 64); err == nil && f != math.Trunc(f) {
			msg = fmt.Sprintf("%s: %s is not a whole number: %s is wanted", path.String(), n.Value, want)
		}
	}
	return msg
}

func describeNode(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a sequence"
	}
	switch n.ShortTag() {
	case "!!int", "!!float":
		return "number " + n.Value
	case "!!bool":
		return "boolean " + n.Value
	case "!!null":
		return "null"
	}
	if _, ok := yaml11Bools[n.Value]; ok && n.Style == 0 {
		return fmt.Sprintf("boolean %s (YAML 1.1 reads it as a boolean; quote it for a string)", n.Value)
	}
	return fmt.Sprintf("string %q", n.Value)
}

func typeName(t reflect.Type) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.String() {
	case "resource.Quantity":
		return "a quantity (such as 500m, 1, 2Gi)"
	case "intstr.IntOrString":
		return "an integer or a string"
	case "v1.Duration":
		return "a duration (such as 30s)"
	case "v1.Time":
		return "a timestamp"
	}
	switch t.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "an integer"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "a boolean (true or false)"
	case reflect.Struct, reflect.Map:
		return "a mapping"
	case reflect.Slice, reflect.Array:
		return "a sequence"
	}
	return t.String()
}

// cleanJSONError strips Go type names from a JSON error message.
func cleanJSONError(err error) string {
	s := err.Error()
	s = strings.TrimPrefix(s, "json: ")
	if i := strings.Index(s, "quantities must match"); i >= 0 {
		return "not a valid quantity (such as 500m, 1, 2Gi)"
	}
	return s
}
