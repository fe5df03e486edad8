package manifest

import (
	"go/token"
	"math"
	"strconv"
	"strings"

	yaml "go.yaml.in/yaml/v3"
)

// Field is where a value sits in a file, kept without its node tree so a
// workspace of thousands of files holds positions, not trees: the value's
// text and, when it is written under a key, the key's text. A Field for a
// value that is not written (a default) points where the default applies.
//
// A run keeps hundreds of thousands of Fields (three per object, one per
// number of every autoscaler, metric and container view: 380,000 at
// 10,000 services), so the key, the node's style and kind and its tag are
// packed beside the value's position: 48 bytes, not 72 (with four
// token.Pos, two 32-bit enums and a tag string). Read them with the
// methods of the same names; set them with SetKey and SetNode.
type Field struct {
	Pos, End token.Pos // the value
	Value    string    // a scalar's value
	// keyOff is KeyPos-Pos and keyLen KeyEnd-KeyPos+1, offsets within
	// one file; keyLen is 0 when the field has no key (the zero Field).
	keyOff, keyLen int32
	style, kind    uint8  // yaml.Style and yaml.Kind, whose values fit a byte
	tag            uint16 // the tag's index in the interned tags (tagIndex)
}

// IsValid reports whether the field has a position.
func (f Field) IsValid() bool { return f.Pos.IsValid() }

// HasKey reports whether the field was written under a key.
func (f Field) HasKey() bool { return f.keyLen != 0 }

// Start returns where the field starts: its key, or its value.
func (f Field) Start() token.Pos {
	if f.HasKey() {
		return f.KeyPos()
	}
	return f.Pos
}

// KeyPos returns where the key starts; token.NoPos when there is none.
func (f Field) KeyPos() token.Pos {
	if !f.HasKey() {
		return token.NoPos
	}
	return f.Pos + token.Pos(f.keyOff)
}

// KeyEnd returns where the key ends; token.NoPos when there is none.
func (f Field) KeyEnd() token.Pos {
	if !f.HasKey() {
		return token.NoPos
	}
	return f.Pos + token.Pos(f.keyOff) + token.Pos(f.keyLen-1)
}

// Style returns the value node's style.
func (f Field) Style() yaml.Style { return yaml.Style(f.style) }

// Kind returns the value node's kind (0 when the field has no value node).
func (f Field) Kind() yaml.Kind { return yaml.Kind(f.kind) }

// Tag returns a scalar's tag, short ("!!int", "!!str", "!!null"); "" for
// other nodes.
func (f Field) Tag() string { return tagName(f.tag) }

// SetKey records the key's position: from pos to end, both in the file
// of the value (Pos), which must be set first. A key the offsets cannot
// hold (over 2 GiB from its value, in no file a limit admits) is left out.
func (f *Field) SetKey(pos, end token.Pos) {
	f.keyOff, f.keyLen = 0, 0
	if !pos.IsValid() {
		return
	}
	off, n := int64(pos)-int64(f.Pos), int64(end)-int64(pos)+1
	if off != int64(int32(off)) || n < 1 || n != int64(int32(n)) {
		return
	}
	f.keyOff, f.keyLen = int32(off), int32(n)
}

// SetNode records the value node's style, kind and tag.
func (f *Field) SetNode(style yaml.Style, kind yaml.Kind, tag string) {
	f.style, f.kind, f.tag = uint8(style), uint8(kind), tagIndex(tag)
}

// fieldOf makes a Field from a value node and its key node (either may be
// nil). The value's string is copied, so the Field keeps nothing of the
// tree alive.
func (fl *File) fieldOf(key, val *yaml.Node) Field {
	var f Field
	if val != nil {
		f.Pos, f.End = fl.Pos(val), fl.End(val)
		tag := ""
		if val.Kind == yaml.ScalarNode {
			f.Value = strings.Clone(val.Value)
			tag = val.ShortTag()
		}
		f.SetNode(val.Style, val.Kind, tag)
	}
	if key != nil {
		kp, ke := fl.Pos(key), fl.End(key)
		if val == nil {
			f.Pos, f.End = kp, ke
		}
		f.SetKey(kp, ke)
	}
	return f
}

// IsNull reports whether the field is written as null ("~", "null" or
// nothing): kubectl sends it as JSON null, which leaves the field unset.
func (f Field) IsNull() bool { return f.Kind() == yaml.ScalarNode && f.Tag() == "!!null" }

// Number reads a scalar field that YAML reads as a number, as kubectl
// does: integers in any base YAML 1.1 allows ("0x28", "0o50", "050",
// "0b101000", "4_0" are 40; sigs.k8s.io/yaml parses with go-yaml v2,
// which calls strconv.ParseInt(s, 0, 64) with the underscores removed, as
// yaml.v3 tags them), and floats. ok is false for anything else: a string
// (even "40" quoted), null, infinity or NaN.
func (f Field) Number() (v float64, ok bool) {
	if f.Kind() != yaml.ScalarNode {
		return 0, false
	}
	switch f.Tag() {
	case "!!int":
		d, err := strconv.ParseFloat(yamlIntToJSON(f.Value), 64)
		return d, err == nil
	case "!!float":
		d, err := strconv.ParseFloat(strings.ReplaceAll(f.Value, "_", ""), 64)
		return d, err == nil && !math.IsInf(d, 0) && !math.IsNaN(d)
	}
	return 0, false
}

// FieldOf returns the Field of a node of this object and its key.
func (o *Object) FieldOf(key, val *yaml.Node) Field { return o.Doc.File.fieldOf(key, val) }

// FieldAt returns the Field of the value at path, and whether it exists.
func (o *Object) FieldAt(path Path) (Field, bool) {
	k, v := Lookup(o.Root(), path)
	if v == nil {
		return Field{}, false
	}
	return o.FieldOf(k, v), true
}

// NearestField returns the Field of the value at path or, when it is not
// written, of the node Nearest returns: where a diagnostic about a missing
// field (a default) belongs.
func (o *Object) NearestField(path Path) Field {
	if f, ok := o.FieldAt(path); ok {
		return f
	}
	return o.FieldOf(nil, o.Nearest(path))
}
