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
type Field struct {
	Pos, End       token.Pos // the value
	KeyPos, KeyEnd token.Pos // the key; invalid when there is none
	Style          yaml.Style
	Kind           yaml.Kind
	Tag            string // a scalar's tag, short ("!!int", "!!str", "!!null")
	Value          string // a scalar's value
}

// IsValid reports whether the field has a position.
func (f Field) IsValid() bool { return f.Pos.IsValid() }

// HasKey reports whether the field was written under a key.
func (f Field) HasKey() bool { return f.KeyPos.IsValid() }

// Start returns where the field starts: its key, or its value.
func (f Field) Start() token.Pos {
	if f.HasKey() {
		return f.KeyPos
	}
	return f.Pos
}

// fieldOf makes a Field from a value node and its key node (either may be
// nil). The value's string is copied, so the Field keeps nothing of the
// tree alive.
func (fl *File) fieldOf(key, val *yaml.Node) Field {
	var f Field
	if val != nil {
		f.Pos, f.End = fl.Pos(val), fl.End(val)
		f.Style, f.Kind = val.Style, val.Kind
		if val.Kind == yaml.ScalarNode {
			f.Value = strings.Clone(val.Value)
			f.Tag = val.ShortTag() // a constant string: nothing of the tree kept
		}
	}
	if key != nil {
		f.KeyPos, f.KeyEnd = fl.Pos(key), fl.End(key)
		if val == nil {
			f.Pos, f.End = f.KeyPos, f.KeyEnd
		}
	}
	return f
}

// IsNull reports whether the field is written as null ("~", "null" or
// nothing): kubectl sends it as JSON null, which leaves the field unset.
func (f Field) IsNull() bool { return f.Kind == yaml.ScalarNode && f.Tag == "!!null" }

// Number reads a scalar field that YAML reads as a number, as kubectl
// does: integers in any base YAML 1.1 allows ("0x28", "0o50", "050",
// "0b101000", "4_0" are 40; sigs.k8s.io/yaml parses with go-yaml v2,
// which calls strconv.ParseInt(s, 0, 64) with the underscores removed, as
// yaml.v3 tags them), and floats. ok is false for anything else: a string
// (even "40" quoted), null, infinity or NaN.
func (f Field) Number() (v float64, ok bool) {
	if f.Kind != yaml.ScalarNode {
		return 0, false
	}
	switch f.Tag {
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
