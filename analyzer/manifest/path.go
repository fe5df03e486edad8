package manifest

import (
	"encoding/base64"
	"strconv"
	"strings"
	"unicode/utf8"

	yaml "go.yaml.in/yaml/v3"
)

// Path names a field inside an object, the way Kubernetes error messages
// do: spec.metrics[0].resource.target.averageUtilization. A key that holds
// dots or brackets is quoted: metadata.annotations["scalelint.dev/dead-time"].
type Path []PathElem

// PathElem is one step of a Path: a mapping key, or a sequence index.
type PathElem struct {
	Key   string
	Index int // meaningful when IsIndex
	IsIdx bool
}

// Key returns a path step into a mapping.
func Key(k string) PathElem { return PathElem{Key: k} }

// Index returns a path step into a sequence.
func Index(i int) PathElem { return PathElem{Index: i, IsIdx: true} }

// ParsePath parses the textual form of a path. It is lenient: what it
// cannot read becomes a key.
func ParsePath(s string) Path {
	var p Path
	for i := 0; i < len(s); {
		switch s[i] {
		case '.':
			i++
		case '[':
			j := i + 1
			if j < len(s) && s[j] == '"' {
				k := j + 1
				var b strings.Builder
				for k < len(s) && s[k] != '"' {
					if s[k] == '\\' && k+1 < len(s) {
						k++
					}
					b.WriteByte(s[k])
					k++
				}
				p = append(p, Key(b.String()))
				i = k + 1
				if i < len(s) && s[i] == ']' {
					i++
				}
				continue
			}
			k := strings.IndexByte(s[j:], ']')
			if k < 0 {
				p = append(p, Key(s[j:]))
				return p
			}
			if n, err := strconv.Atoi(s[j : j+k]); err == nil {
				p = append(p, Index(n))
			} else {
				p = append(p, Key(s[j:j+k]))
			}
			i = j + k + 1
		default:
			j := i
			for j < len(s) && s[j] != '.' && s[j] != '[' {
				j++
			}
			p = append(p, Key(s[i:j]))
			i = j
		}
	}
	return p
}

// String renders the path in its textual form.
func (p Path) String() string {
	var b strings.Builder
	for i, e := range p {
		switch {
		case e.IsIdx:
			b.WriteByte('[')
			b.WriteString(strconv.Itoa(e.Index))
			b.WriteByte(']')
		case strings.ContainsAny(e.Key, ".[]\"") || e.Key == "":
			b.WriteString(`["`)
			b.WriteString(strings.ReplaceAll(e.Key, `"`, `\"`))
			b.WriteString(`"]`)
		default:
			if i > 0 {
				b.WriteByte('.')
			}
			b.WriteString(e.Key)
		}
	}
	return b.String()
}

// Append returns a new path with more steps.
func (p Path) Append(elems ...PathElem) Path {
	out := make(Path, 0, len(p)+len(elems))
	return append(append(out, p...), elems...)
}

// deref follows an alias to its anchored node.
func deref(n *yaml.Node) *yaml.Node {
	for i := 0; n != nil && n.Kind == yaml.AliasNode && i < 100; i++ {
		n = n.Alias
	}
	if n != nil && n.Kind == yaml.DocumentNode && len(n.Content) > 0 {
		return n.Content[0]
	}
	return n
}

// mapEntry finds key k in mapping m (following aliases and "<<" merges)
// and returns its key and value nodes.
func mapEntry(m *yaml.Node, k string) (key, val *yaml.Node) {
	return mapEntryIn(m, k, nil)
}

// mapEntryIn is mapEntry remembering, in searched, the merged mappings
// already searched in vain: a key absent from a mapping that merges
// "[*a, *a, ...]" ten levels deep is then sought once per mapping, not
// ten billion times.
func mapEntryIn(m *yaml.Node, k string, searched *map[*yaml.Node]bool) (key, val *yaml.Node) {
	m = deref(m)
	if m == nil || m.Kind != yaml.MappingNode {
		return nil, nil
	}
	for i := len(m.Content) - 2; i >= 0; i -= 2 { // the last duplicate wins, as in Kubernetes
		if kn := m.Content[i]; kn.Kind == yaml.ScalarNode && kn.Value == k && kn.Tag != "!!merge" {
			return kn, m.Content[i+1]
		}
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Tag != "!!merge" {
			continue
		}
		if searched == nil {
			searched = &map[*yaml.Node]bool{m: true}
		}
		srcs := []*yaml.Node{deref(m.Content[i+1])}
		if srcs[0] != nil && srcs[0].Kind == yaml.SequenceNode {
			srcs = srcs[0].Content
		}
		for _, s := range srcs {
			s = deref(s)
			if s == nil || (*searched)[s] {
				continue
			}
			(*searched)[s] = true
			if kn, vn := mapEntryIn(s, k, searched); kn != nil {
				return kn, vn
			}
		}
	}
	return nil, nil
}

// mapValue returns the value node of key k in mapping m, or nil.
func mapValue(m *yaml.Node, k string) *yaml.Node {
	_, v := mapEntry(m, k)
	return v
}

// scalarValue returns the value of a scalar node, or "" for anything else.
func scalarValue(n *yaml.Node) string {
	n = deref(n)
	if n == nil || n.Kind != yaml.ScalarNode {
		return ""
	}
	if s, ok := binaryValue(n); ok {
		return s
	}
	// A copy: the fast parser's values share one string per document, and
	// what an object keeps must not hold its whole text alive.
	return strings.Clone(n.Value)
}

// binaryValue decodes a scalar tagged !!binary (base64), as kubectl reads
// it: sigs.k8s.io/yaml's go-yaml v2 decodes it into the string it holds,
// so "kind: !!binary SG9yaXpvbnRhbFBvZEF1dG9zY2FsZXI=" is an HPA.
func binaryValue(n *yaml.Node) (string, bool) {
	if n.ShortTag() != "!!binary" {
		return "", false
	}
	b, err := base64.StdEncoding.DecodeString(strings.Join(strings.Fields(n.Value), ""))
	if err != nil || !utf8.Valid(b) {
		return "", false
	}
	return string(b), true
}

// Lookup walks path from node n. It returns the key node of the last step
// (nil for an index step) and its value node, or nils when a step is missing.
func Lookup(n *yaml.Node, path Path) (key, val *yaml.Node) {
	val = n
	for _, e := range path {
		cur := deref(val)
		if cur == nil {
			return nil, nil
		}
		if e.IsIdx {
			if cur.Kind != yaml.SequenceNode || e.Index < 0 || e.Index >= len(cur.Content) {
				return nil, nil
			}
			key, val = nil, cur.Content[e.Index]
			continue
		}
		key, val = mapEntry(cur, e.Key)
		if key == nil {
			return nil, nil
		}
	}
	return key, val
}

// Nearest walks path from n as far as it exists and returns the deepest
// node found (the value of the last existing step), with the number of
// steps walked.
func Nearest(n *yaml.Node, path Path) (node *yaml.Node, steps int) {
	node = n
	for i := range path {
		_, v := Lookup(node, path[i:i+1])
		if v == nil {
			return node, i
		}
		node = v
	}
	return node, len(path)
}
