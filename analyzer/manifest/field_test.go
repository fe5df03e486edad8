package manifest

import (
	"fmt"
	"go/token"
	"strings"
	"testing"
	"unsafe"

	yaml "go.yaml.in/yaml/v3"
)

// TestFieldKeyAndNode reads back every key, style, kind and tag a Field
// packs, from a parsed file whose positions the test computes from the
// text itself (strings.Index), so the packed offsets are checked against
// an independent account of where each key and value is written.
func TestFieldKeyAndNode(t *testing.T) {
	src := "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: \"cm\"\ndata:\n  ? explicit\n  : 'quoted'\n  n: ~\n  i: 0x28\n  c: !custom thing\n  \"\": empty key\n"
	fset := token.NewFileSet()
	f := Parse(fset, "f.yaml", []byte(src), Options{})
	if len(f.Docs) != 1 || len(f.Docs[0].Objects()) != 1 {
		t.Fatalf("want one object, got %d documents", len(f.Docs))
	}
	o := f.Docs[0].Objects()[0]
	// pos finds s at the start of a line's text (after its indentation),
	// or anywhere when it starts with a quote or a tag.
	pos := func(s string) token.Pos {
		if i := strings.Index(src, "\n  "+s); i >= 0 && !strings.ContainsAny(s[:1], "\"'!~0") {
			return f.Tok.Pos(i + 3)
		}
		if i := strings.Index(src, "\n"+s); i >= 0 && !strings.ContainsAny(s[:1], "\"'!~0") {
			return f.Tok.Pos(i + 1)
		}
		return f.Tok.Pos(strings.Index(src, s))
	}
	for _, c := range []struct {
		path, key, value string // key and value as written, to find them
		style            yaml.Style
		kind             yaml.Kind
		tag              string
	}{
		{"metadata.name", "name", `"cm"`, yaml.DoubleQuotedStyle, yaml.ScalarNode, "!!str"},
		{"data.explicit", "explicit", "'quoted'", yaml.SingleQuotedStyle, yaml.ScalarNode, "!!str"},
		{"data.n", "n: ", "~", 0, yaml.ScalarNode, "!!null"},
		{"data.i", "i: ", "0x28", 0, yaml.ScalarNode, "!!int"},
		{"data.c", "c: ", "!custom thing", yaml.TaggedStyle, yaml.ScalarNode, "!custom"},
		{"data", "data", "n: ~", 0, yaml.MappingNode, ""},
	} {
		fl, ok := o.FieldAt(ParsePath(c.path))
		if !ok {
			t.Fatalf("%s: not found", c.path)
		}
		keyLen := len(strings.TrimSuffix(c.key, ": "))
		if !fl.HasKey() || fl.KeyPos() != pos(c.key) || fl.KeyEnd() != pos(c.key)+token.Pos(keyLen) {
			t.Errorf("%s: key %v-%v, want %v-%v", c.path, fl.KeyPos(), fl.KeyEnd(), pos(c.key), pos(c.key)+token.Pos(keyLen))
		}
		if c.kind == yaml.ScalarNode && fl.Pos != pos(c.value) {
			t.Errorf("%s: value at %v, want %v", c.path, fl.Pos, pos(c.value))
		}
		if fl.Start() != fl.KeyPos() {
			t.Errorf("%s: Start %v, want the key's %v", c.path, fl.Start(), fl.KeyPos())
		}
		if fl.Style() != c.style || fl.Kind() != c.kind || fl.Tag() != c.tag {
			t.Errorf("%s: style %v kind %v tag %q, want %v %v %q", c.path, fl.Style(), fl.Kind(), fl.Tag(), c.style, c.kind, c.tag)
		}
	}
	// The empty key, at its own position.
	var empty Field
	for _, fl := range fieldsOf(o, "data") {
		if fl.Value == "empty key" {
			empty = fl
		}
	}
	if !empty.HasKey() || empty.KeyPos() != pos(`""`) || empty.KeyEnd() != pos(`""`)+2 {
		t.Errorf(`"" key at %v-%v, want %v-%v`, empty.KeyPos(), empty.KeyEnd(), pos(`""`), pos(`""`)+2)
	}
}

// fieldsOf returns the Fields of a mapping's values.
func fieldsOf(o *Object, path string) []Field {
	_, m := Lookup(o.Root(), ParsePath(path))
	var out []Field
	for i := 0; m != nil && i+1 < len(m.Content); i += 2 {
		out = append(out, o.FieldOf(m.Content[i], m.Content[i+1]))
	}
	return out
}

func TestFieldZeroAndSetKey(t *testing.T) {
	var z Field
	if z.HasKey() || z.KeyPos().IsValid() || z.KeyEnd().IsValid() || z.Start() != token.NoPos || z.Tag() != "" || z.Kind() != 0 || z.Style() != 0 {
		t.Errorf("zero Field: %+v reads as having a key, tag, kind or style", z)
	}
	f := Field{Pos: 100, End: 104}
	f.SetKey(90, 95) // before the value
	if f.KeyPos() != 90 || f.KeyEnd() != 95 {
		t.Errorf("key 90-95 read back as %v-%v", f.KeyPos(), f.KeyEnd())
	}
	f.SetKey(100, 100) // empty, at the value: a key all the same
	if !f.HasKey() || f.KeyPos() != 100 || f.KeyEnd() != 100 {
		t.Errorf("empty key at the value read back as %v %v-%v", f.HasKey(), f.KeyPos(), f.KeyEnd())
	}
	f.SetKey(token.NoPos, token.NoPos)
	if f.HasKey() {
		t.Error("SetKey(NoPos) left a key")
	}
	// An offset beyond 32 bits cannot be packed: no key rather than a
	// wrong one.
	far := Field{Pos: token.Pos(1 << 40)}
	far.SetKey(1, 2)
	if far.HasKey() {
		t.Errorf("a key 2^40 bytes from its value read back as %v", far.KeyPos())
	}
	if n := unsafe.Sizeof(Field{}); n != 48 {
		t.Errorf("Field is %d bytes; the packing (see its doc) makes it 48", n)
	}
}

func TestTagIndex(t *testing.T) {
	for _, tag := range []string{"", "!!str", "!!int", "!!float", "!!bool", "!!null", "!!map", "!!seq", "!!timestamp", "!!binary", "!Ref", "!vault"} {
		if got := tagName(tagIndex(tag)); got != tag {
			t.Errorf("tag %q read back as %q", tag, got)
		}
	}
	first := tagIndex("!Ref")
	if again := tagIndex("!Ref"); again != first {
		t.Errorf("one custom tag got two indexes, %d and %d", first, again)
	}
	// Past the table's capacity a custom tag reads as otherTag, and
	// YAML's own tags keep their places.
	tags.Lock()
	saved := append([]string(nil), tags.names...)
	for len(tags.names) < tagOverflow {
		tags.names = append(tags.names, fmt.Sprintf("!fill%d", len(tags.names)))
	}
	tags.Unlock()
	defer func() {
		tags.Lock()
		for _, n := range tags.names[len(saved):] {
			delete(tags.index, n)
		}
		tags.names = saved
		tags.Unlock()
	}()
	if got := tagName(tagIndex("!new-after-full")); got != otherTag {
		t.Errorf("a custom tag past the table's capacity reads back as %q, want %q", got, otherTag)
	}
	if got := tagName(tagIndex("!!int")); got != "!!int" {
		t.Errorf("!!int reads back as %q with the table full", got)
	}
}
