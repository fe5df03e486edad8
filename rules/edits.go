package rules

import (
	"go/token"

	yaml "go.yaml.in/yaml/v3"

	"github.com/scalelint/scalelint/analyzer"
	"github.com/scalelint/scalelint/analyzer/manifest"
)

// deleteLine returns an edit that removes the whole line holding pos.
func deleteLine(f *manifest.File, pos token.Pos) (analyzer.TextEdit, bool) {
	start, end, ok := f.LineBounds(pos)
	if !ok {
		return analyzer.TextEdit{}, false
	}
	return analyzer.TextEdit{Pos: f.Tok.Pos(start), End: f.Tok.Pos(end)}, true
}

// replaceScalar returns an edit that replaces a scalar field's text with a
// new value, keeping its quoting style.
func replaceScalar(f manifest.Field, value string) analyzer.TextEdit {
	text := value
	switch {
	case f.Style()&yaml.DoubleQuotedStyle != 0:
		text = `"` + value + `"`
	case f.Style()&yaml.SingleQuotedStyle != 0:
		text = `'` + value + `'`
	}
	return analyzer.TextEdit{Pos: f.Pos, End: f.End, NewText: text}
}

// setField returns an edit that sets the field at path to value (text as
// written, quotes included): it replaces an existing scalar, or inserts the
// missing keys under the deepest existing block mapping (or into a flow
// mapping, one key deep). ok is false when the shape does not allow a clean
// edit.
func setField(o *manifest.Object, path manifest.Path, value string) (analyzer.TextEdit, bool) {
	f := o.File()
	if n := o.Get(path); n != nil {
		if n.Kind == yaml.ScalarNode && !(n.Tag == "!!null" && n.Value == "") {
			return analyzer.TextEdit{Pos: o.Pos(n), End: o.End(n), NewText: value}, true
		}
	}
	// Find the deepest existing step.
	parent := o.Root()
	var parentKey *yaml.Node
	i := 0
	for ; i < len(path); i++ {
		if path[i].IsIdx {
			_, v := manifest.Lookup(parent, path[i:i+1])
			if v == nil {
				return analyzer.TextEdit{}, false
			}
			parent, parentKey = v, nil
			continue
		}
		k, v := manifest.Lookup(parent, path[i:i+1])
		if v == nil {
			break
		}
		parent, parentKey = v, k
	}
	rest := path[i:]
	for _, e := range rest {
		if e.IsIdx {
			return analyzer.TextEdit{}, false
		}
	}
	if len(rest) == 0 {
		return analyzer.TextEdit{}, false
	}
	switch {
	case parent.Kind == yaml.MappingNode && parent.Style&yaml.FlowStyle != 0:
		if len(rest) != 1 {
			return analyzer.TextEdit{}, false
		}
		end := o.File().EndOffset(parent) - 1 // the closing brace
		sep := ", "
		if len(parent.Content) == 0 {
			sep = ""
		}
		return analyzer.TextEdit{Pos: f.Tok.Pos(end), End: f.Tok.Pos(end), NewText: sep + rest[0].Key + ": " + value}, true
	case parent.Kind == yaml.MappingNode && len(parent.Content) > 0:
		indent := parent.Content[0].Column - 1
		at := lineEndAfter(f, f.EndOffset(parent))
		return analyzer.TextEdit{Pos: f.Tok.Pos(at), End: f.Tok.Pos(at), NewText: nestedLines(rest, value, indent, at == len(f.Text()) && !endsWithNewline(f))}, true
	case parent.Kind == yaml.ScalarNode && parent.Tag == "!!null" && parentKey != nil:
		indent := parentKey.Column - 1 + 2
		at := lineEndAfter(f, f.EndOffset(parentKey))
		return analyzer.TextEdit{Pos: f.Tok.Pos(at), End: f.Tok.Pos(at), NewText: nestedLines(rest, value, indent, at == len(f.Text()) && !endsWithNewline(f))}, true
	}
	return analyzer.TextEdit{}, false
}

func endsWithNewline(f *manifest.File) bool {
	src := f.Text()
	return len(src) > 0 && src[len(src)-1] == '\n'
}

// lineEndAfter returns the offset of the start of the line after the one
// holding off (the end of the file when there is none).
func lineEndAfter(f *manifest.File, off int) int {
	src := f.Text()
	for off < len(src) && src[off] != '\n' {
		off++
	}
	if off < len(src) {
		off++
	}
	return off
}

// nestedLines renders keys nested one level each, the last holding value.
func nestedLines(keys manifest.Path, value string, indent int, leadingNewline bool) string {
	var b []byte
	if leadingNewline {
		b = append(b, '\n')
	}
	for i, k := range keys {
		b = append(b, []byte(spaces(indent+2*i))...)
		b = append(b, k.Key...)
		b = append(b, ':')
		if i == len(keys)-1 {
			b = append(b, ' ')
			b = append(b, value...)
		}
		b = append(b, '\n')
	}
	return string(b)
}

func spaces(n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = ' '
	}
	return string(b)
}
