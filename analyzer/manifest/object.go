package manifest

import (
	"fmt"
	"go/token"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"reflect"
	"strings"
	"sync"

	yaml "go.yaml.in/yaml/v3"
)

// Object is one Kubernetes object: a document, or an item of a List.
//
// An object keeps its identity, its typed decode and the Fields of the
// parts every consumer reads (kind, name, annotations) for its whole life;
// its node tree may be released to save memory (File.Release) and is then
// parsed again, transparently, by Root.
type Object struct {
	Doc      *Document
	ListItem int // index in the List's items, or -1

	APIVersion, Kind string
	Group, Version   string
	Name, Namespace  string // Namespace is "" when the manifest sets none

	// typed is the decoded object (Typed); after Release, a nil pointer
	// of its type (TypedShape).
	typed any

	At     Field // the object's mapping
	KindAt Field // its kind value (or the object)
	NameAt Field // its metadata.name value (or KindAt)
	// Annotations are the object's metadata.annotations whose key holds
	// "scalelint" (scalelint.dev/*, ignore.scalelint.dev/*), in order: no
	// rule reads the others, and a repository's objects carry many (kept,
	// they were 3.5 MB of a 10,000-service run's ~110 MB index).
	Annotations []Annotation

	node *yaml.Node // the object's mapping node; nil while released

	memoMu sync.Mutex
	memo   []memoEntry
}

// Annotation is one entry of metadata.annotations. At is the value's
// Field, with the key's position.
type Annotation struct {
	Key, Value string
	At         Field
}

// Root returns the object's mapping node. After its file was released
// (File.Release) it returns a tree parsed again for the caller alone, so
// a rule that reads a released object's nodes does not bring every tree
// back into memory.
func (o *Object) Root() *yaml.Node {
	d := o.Doc
	d.mu.Lock()
	n, released := o.node, d.released
	d.mu.Unlock()
	if n == nil && released {
		n = d.objectNode(o.ListItem)
	}
	return n
}

// Memo returns the value build makes from the object, building it once:
// the object is immutable, so what is derived from it alone (the scaling
// views) is computed while its tree is at hand and shared by every
// workspace the object is part of, and lives as long as the object. What
// depends on other objects too (an autoscaler's law evaluation depends on
// its target and the configuration) is kept by the run that fixes them
// (analyzer.Shared), not here.
func (o *Object) Memo(key any, build func() any) any {
	o.memoMu.Lock()
	defer o.memoMu.Unlock()
	for _, e := range o.memo {
		if e.key == key {
			return e.value
		}
	}
	v := build()
	o.memo = append(o.memo, memoEntry{key, v})
	return v
}

// memoEntry is one memoized value; an object has one or two, so a slice
// costs less than a map.
type memoEntry struct{ key, value any }

// File returns the file the object comes from.
func (o *Object) File() *File { return o.Doc.File }

// Pos returns where node n (a node of this object) starts.
func (o *Object) Pos(n *yaml.Node) token.Pos { return o.Doc.File.Pos(n) }

// End returns where node n (a node of this object) ends.
func (o *Object) End(n *yaml.Node) token.Pos { return o.Doc.File.End(n) }

// Get returns the value node at path, or nil.
func (o *Object) Get(path Path) *yaml.Node {
	_, v := Lookup(o.Root(), path)
	return v
}

// GetKey returns the key node of the last step of path, or nil.
func (o *Object) GetKey(path Path) *yaml.Node {
	k, _ := Lookup(o.Root(), path)
	return k
}

// Nearest returns the value node at path, or at its deepest existing
// prefix: where a diagnostic about a missing field (a default) belongs.
func (o *Object) Nearest(path Path) *yaml.Node {
	root := o.Root()
	n, steps := Nearest(root, path)
	if steps < len(path) && steps > 0 {
		// Point at the key of the deepest existing field, not its block.
		if k, _ := Lookup(root, path[:steps]); k != nil {
			return k
		}
	}
	return n
}

// KindNode returns the node of the object's "kind" value.
func (o *Object) KindNode() *yaml.Node {
	root := o.Root()
	if n := mapValue(root, "kind"); n != nil {
		return n
	}
	return root
}

// String identifies the object for messages: Kind/namespace/name.
func (o *Object) String() string {
	if o.Namespace != "" {
		return fmt.Sprintf("%s %s/%s", o.Kind, o.Namespace, o.Name)
	}
	return fmt.Sprintf("%s %s", o.Kind, o.Name)
}

// annotationNodes returns the key and value nodes of
// metadata.annotations, in order.
func annotationNodes(n *yaml.Node) [][2]*yaml.Node {
	_, m := Lookup(n, Path{Key("metadata"), Key("annotations")})
	m = deref(m)
	if m == nil || m.Kind != yaml.MappingNode {
		return nil
	}
	return mappingEntries(m)
}

// SplitAPIVersion splits "apps/v1" into group "apps" and version "v1";
// "v1" has the empty (core) group.
func SplitAPIVersion(apiVersion string) (group, version string) {
	if i := strings.LastIndexByte(apiVersion, '/'); i >= 0 {
		return apiVersion[:i], apiVersion[i+1:]
	}
	return "", apiVersion
}

// buildObjects reads the objects of a document root: the root itself, or
// the items of a List.
func buildObjects(d *Document, root *yaml.Node, problems []Problem) ([]*Object, []Problem) {
	root = deref(root)
	if root == nil || root.Kind != yaml.MappingNode {
		return nil, problems
	}
	kind := scalarValue(mapValue(root, "kind"))
	items := deref(mapValue(root, "items"))
	if (kind == "List" || strings.HasSuffix(kind, "List")) && items != nil && items.Kind == yaml.SequenceNode {
		var objs []*Object
		for i, it := range items.Content {
			o := newObject(d, it, i)
			if o == nil {
				continue
			}
			objs = append(objs, o)
			problems = append(problems, o.identityProblems()...)
			problems = append(problems, o.decode()...)
		}
		return objs, problems
	}
	o := newObject(d, root, -1)
	if o == nil {
		return nil, problems
	}
	problems = append(problems, o.identityProblems()...)
	return []*Object{o}, append(problems, o.decode()...)
}

func newObject(d *Document, n *yaml.Node, item int) *Object {
	n = deref(n)
	if n == nil || n.Kind != yaml.MappingNode {
		return nil
	}
	o := &Object{Doc: d, node: n, ListItem: item}
	o.APIVersion = scalarValue(mapValue(n, "apiVersion"))
	o.Kind = scalarValue(mapValue(n, "kind"))
	o.Group, o.Version = SplitAPIVersion(o.APIVersion)
	meta := mapValue(n, "metadata")
	o.Name = scalarValue(mapValue(meta, "name"))
	o.Namespace = scalarValue(mapValue(meta, "namespace"))
	f := d.File
	o.At = f.fieldOf(nil, n)
	o.KindAt = o.At
	if k, v := mapEntry(n, "kind"); v != nil {
		o.KindAt = f.fieldOf(k, v)
	}
	o.NameAt = o.KindAt
	if k, v := mapEntry(meta, "name"); v != nil {
		o.NameAt = f.fieldOf(k, v)
	}
	// One copy of each string, not two: the kind and the name are most
	// often their fields' values as written (not when !!binary decodes
	// them), and a run keeps every object (20,000 at 10,000 services).
	if o.KindAt.Value == o.Kind {
		o.Kind = o.KindAt.Value
	}
	if o.NameAt.Value == o.Name {
		o.Name = o.NameAt.Value
	}
	for _, kv := range annotationNodes(n) {
		k, v := deref(kv[0]), deref(kv[1])
		if k == nil || k.Kind != yaml.ScalarNode || !strings.Contains(k.Value, "scalelint") {
			continue
		}
		a := Annotation{Key: strings.Clone(k.Value), At: f.fieldOf(kv[0], kv[1])}
		if v != nil && v.Kind == yaml.ScalarNode {
			a.Value = a.At.Value
		}
		o.Annotations = append(o.Annotations, a)
	}
	return o
}

// Typed returns the decoded object for the kinds scalelint reads:
// *autoscalingv2.HorizontalPodAutoscaler (autoscaling v1, v2beta1 and
// v2beta2 converted to v2), *ScaledObject, *ScaledJob, *Workload. It is
// nil for other kinds and for an object refused by a limit, and holds
// what could be decoded when the object has invalid fields.
//
// A batch run releases each file once the scaling views of its objects
// are built (File.Release), and the decoded objects go with the trees:
// they were about a seventh of the memory a 10,000-service run keeps.
// Typed then decodes the object again for the caller alone, as Root
// parses it again; what runs on every object reads the views instead.
func (o *Object) Typed() any {
	d := o.Doc
	d.mu.Lock()
	t, released := o.typed, d.released
	d.mu.Unlock()
	if !released || t == nil {
		return t
	}
	n := o.Root()
	if n == nil {
		return nil
	}
	again := &Object{Doc: d, ListItem: o.ListItem, APIVersion: o.APIVersion, Kind: o.Kind,
		Group: o.Group, Version: o.Version, Name: o.Name, Namespace: o.Namespace, node: n}
	typed, _ := decodeTyped(again)
	return typed
}

// TypedShape returns a value of the type Typed returns, for type
// switches, without decoding a released object again: the decoded object,
// or once its file is released a nil pointer of its type (nil for objects
// with no decode).
func (o *Object) TypedShape() any {
	d := o.Doc
	d.mu.Lock()
	defer d.mu.Unlock()
	return o.typed
}

// releaseTyped drops the decoded object, keeping its type (Typed,
// TypedShape). The document's lock is held.
func (o *Object) releaseTyped() {
	if o.typed != nil {
		o.typed = reflect.Zero(reflect.TypeOf(o.typed)).Interface()
	}
}

// decodeTyped decodes an object of a kind scalelint reads, or returns
// nil.
func decodeTyped(o *Object) (any, []FieldError) {
	dec, ok := decoders[typeKey{o.Group, o.Kind}]
	if !ok {
		return nil, nil
	}
	typed, errs := dec(o)
	if m, ok := typed.(metav1.Object); ok {
		// Rules read labels and annotations from the tree's Fields, never
		// from the decode: drop the maps, most of a decoded object's size.
		m.SetLabels(nil)
		m.SetAnnotations(nil)
		m.SetManagedFields(nil)
	}
	for _, e := range errs {
		if e.Limit {
			// Refused: nothing of it was decoded, and a rule reading the
			// empty decode would report fields it never saw (an HPA with
			// no target and maxReplicas 0).
			return nil, errs
		}
	}
	return typed, errs
}

// decode fills the decoded object (Typed) for the kinds scalelint reads
// and returns the invalid fields found, as problems.
func (o *Object) decode() []Problem {
	typed, errs := decodeTyped(o)
	o.typed = typed
	var out []Problem
	for _, e := range errs {
		n := e.Node
		if n == nil {
			n = o.node
		}
		rule := "invalid-field"
		if e.Limit {
			rule = "input-limit"
		}
		out = append(out, Problem{Rule: rule, Pos: o.Pos(n), End: o.End(n), Message: e.Message, Object: o, Suggestion: e.Suggestion})
	}
	return out
}

type typeKey struct{ group, kind string }

// decoders holds the typed decode of every kind scalelint reads, keyed by
// group and kind (the version is handled inside).
var decoders = map[typeKey]func(o *Object) (any, []FieldError){}

func registerDecoder(group, kind string, f func(o *Object) (any, []FieldError)) {
	decoders[typeKey{group, kind}] = f
}

// IsReadKind reports whether scalelint decodes objects of this group and
// kind (autoscalers and scale targets): the documents to parse eagerly.
func IsReadKind(apiVersion, kind string) bool {
	g, _ := SplitAPIVersion(apiVersion)
	_, ok := decoders[typeKey{g, kind}]
	return ok || kind == "List" || strings.HasSuffix(kind, "List") || isEagerGroupKind(apiVersion, kind)
}
