package traffic

import (
	"strconv"
	"strings"
	"time"

	yaml "go.yaml.in/yaml/v3"

	"github.com/scalelint/scalelint/analyzer/manifest"
)

// node helpers: a lenient reading of the tree, where a value of an
// unexpected shape reads as absent (no law input is read from it).

func deref(n *yaml.Node) *yaml.Node {
	for i := 0; n != nil && n.Kind == yaml.AliasNode && i < 8; i++ {
		n = n.Alias
	}
	if n != nil && n.Kind == yaml.DocumentNode && len(n.Content) == 1 {
		return deref(n.Content[0])
	}
	return n
}

// entry returns the key and value nodes of key in mapping m.
func entry(m *yaml.Node, key string) (*yaml.Node, *yaml.Node) {
	m = deref(m)
	if m == nil || m.Kind != yaml.MappingNode {
		return nil, nil
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if k := m.Content[i]; k.Kind == yaml.ScalarNode && k.Value == key {
			return k, deref(m.Content[i+1])
		}
	}
	return nil, nil
}

// get follows a path of keys.
func get(n *yaml.Node, keys ...string) *yaml.Node {
	for _, k := range keys {
		_, n = entry(n, k)
		if n == nil {
			return nil
		}
	}
	return n
}

// str returns a scalar's value, "" for anything else.
func str(n *yaml.Node) string {
	if n = deref(n); n == nil || n.Kind != yaml.ScalarNode {
		return ""
	}
	return strings.Clone(strings.TrimSpace(n.Value)) // nothing of the tree (or the arena it lives in) kept
}

// items returns a sequence's items.
func items(n *yaml.Node) []*yaml.Node {
	if n = deref(n); n == nil || n.Kind != yaml.SequenceNode {
		return nil
	}
	out := make([]*yaml.Node, len(n.Content))
	for i, c := range n.Content {
		out[i] = deref(c)
	}
	return out
}

// stringMap reads a mapping of scalars.
func stringMap(n *yaml.Node) map[string]string {
	if n = deref(n); n == nil || n.Kind != yaml.MappingNode || len(n.Content) == 0 {
		return nil
	}
	out := make(map[string]string, len(n.Content)/2)
	for i := 0; i+1 < len(n.Content); i += 2 {
		if k, v := n.Content[i], deref(n.Content[i+1]); k.Kind == yaml.ScalarNode && v != nil && v.Kind == yaml.ScalarNode {
			out[strings.Clone(k.Value)] = strings.Clone(v.Value)
		}
	}
	return out
}

// Value is a number or duration read from a field, with where.
type Value struct {
	V   float64 // seconds for durations
	Set bool
	At  manifest.Field
	// Text is the value as written.
	Text string
}

// fieldValue locates key's value in mapping m.
func fieldValue(o *manifest.Object, m *yaml.Node, key string) (manifest.Field, *yaml.Node) {
	k, v := entry(m, key)
	if v == nil {
		return manifest.Field{}, nil
	}
	return o.FieldOf(k, v), v
}

// duration reads a Go or Gateway API duration (1h30m, 10s, 500ms) at key.
func duration(o *manifest.Object, m *yaml.Node, key string) Value {
	at, v := fieldValue(o, m, key)
	t := str(v)
	if t == "" {
		return Value{}
	}
	d, err := time.ParseDuration(t)
	if err != nil || d < 0 {
		return Value{}
	}
	return Value{V: d.Seconds(), Set: true, At: at, Text: t}
}

// integer reads a non-negative integer at key (a number or a string of
// digits).
func integer(o *manifest.Object, m *yaml.Node, key string) Value {
	at, v := fieldValue(o, m, key)
	t := str(v)
	if t == "" {
		return Value{}
	}
	n, err := strconv.ParseInt(t, 10, 32)
	if err != nil || n < 0 {
		return Value{}
	}
	return Value{V: float64(n), Set: true, At: at, Text: t}
}

// annotations reads an object's metadata.annotations with their Fields.
func annotations(o *manifest.Object, root *yaml.Node) map[string]annotation {
	m := get(root, "metadata", "annotations")
	if m == nil || m.Kind != yaml.MappingNode {
		return nil
	}
	out := map[string]annotation{}
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := m.Content[i], deref(m.Content[i+1])
		if k.Kind != yaml.ScalarNode || v == nil || v.Kind != yaml.ScalarNode {
			continue
		}
		out[strings.Clone(k.Value)] = annotation{Value: strings.TrimSpace(strings.Clone(v.Value)), At: o.FieldOf(k, v)}
	}
	return out
}

type annotation struct {
	Value string
	At    manifest.Field
}

// signedInteger reads an integer at key, negative ones included.
func signedInteger(o *manifest.Object, m *yaml.Node, key string) Value {
	at, v := fieldValue(o, m, key)
	t := str(v)
	if t == "" {
		return Value{}
	}
	n, err := strconv.ParseInt(t, 10, 32)
	if err != nil {
		return Value{}
	}
	return Value{V: float64(n), Set: true, At: at, Text: t}
}
