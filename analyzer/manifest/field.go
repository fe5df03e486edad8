package manifest

import (
	"go/token"
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
