package render

import (
	"bytes"
	"strings"
	"unicode/utf8"

	yaml "go.yaml.in/yaml/v3"

	"github.com/scalelint/scalelint/analyzer/manifest"
)

// YAML is a YAML text parsed for locating: its documents' node trees and
// its line starts, so a node's yaml.v3 line and column become byte offsets.
type YAML struct {
	Text  []byte
	Docs  []*yaml.Node // content nodes of the documents that parse
	Start []int        // byte offset of each document's start, as Docs
	lines []int
}

// ParseYAML parses every document of text; documents that do not parse
// are left out.
func ParseYAML(text []byte) *YAML {
	y := &YAML{Text: text, lines: []int{0}}
	for i, c := range text {
		if c == '\n' {
			y.lines = append(y.lines, i+1)
		}
	}
	dec := yaml.NewDecoder(bytes.NewReader(text))
	for {
		var n yaml.Node
		err := func() (err error) {
			defer func() {
				if recover() != nil {
					err = errPanic
				}
			}()
			return dec.Decode(&n)
		}()
		if err != nil {
			break
		}
		if len(n.Content) == 1 {
			y.Docs = append(y.Docs, n.Content[0])
			y.Start = append(y.Start, y.Offset(n.Line, 1))
		}
	}
	return y
}

type panicErr struct{}

func (panicErr) Error() string { return "yaml parser panicked" }

var errPanic = panicErr{}

// Offset converts a yaml.v3 line and column (1-based, the column in
// characters) to a byte offset.
func (y *YAML) Offset(line, col int) int {
	if line < 1 || line > len(y.lines) {
		return len(y.Text)
	}
	off := y.lines[line-1]
	for c := 1; c < col && off < len(y.Text) && y.Text[off] != '\n'; c++ {
		_, size := utf8.DecodeRune(y.Text[off:])
		off += size
	}
	return off
}

// Pos returns the byte offset of a node.
func (y *YAML) Pos(n *yaml.Node) int { return y.Offset(n.Line, n.Column) }

// Line returns the 1-based line of a byte offset.
func (y *YAML) Line(off int) int {
	lo, hi := 0, len(y.lines)
	for lo < hi {
		m := (lo + hi) / 2
		if y.lines[m] <= off {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}

// LineBounds returns the byte range of the line holding off, without its
// line break.
func (y *YAML) LineBounds(off int) (int, int) {
	l := y.Line(off)
	start := y.lines[l-1]
	end := len(y.Text)
	if l < len(y.lines) {
		end = y.lines[l] - 1
	}
	if end > start && y.Text[end-1] == '\r' {
		end--
	}
	return start, end
}

// Step is one step of a path found at an offset: the key node (nil in a
// sequence) and the value node.
type Step struct {
	Key, Value *yaml.Node
}

// PathAt returns the path of the deepest node of the document holding off
// whose key or value starts at or before off, with each step's nodes, and
// the document's content node.
func (y *YAML) PathAt(off int) (manifest.Path, []Step, *yaml.Node) {
	doc := -1
	for i, s := range y.Start {
		if s <= off {
			doc = i
		}
	}
	if doc < 0 {
		return nil, nil, nil
	}
	var path manifest.Path
	var steps []Step
	n := y.Docs[doc]
	for depth := 0; depth < 512; depth++ {
		switch n.Kind {
		case yaml.MappingNode:
			var key, val *yaml.Node
			for i := 0; i+1 < len(n.Content); i += 2 {
				if y.Pos(n.Content[i]) <= off {
					key, val = n.Content[i], n.Content[i+1]
				}
			}
			if key == nil {
				return path, steps, y.Docs[doc]
			}
			path = append(path, manifest.Key(key.Value))
			steps = append(steps, Step{key, val})
			n = val
		case yaml.SequenceNode:
			idx := -1
			for i, c := range n.Content {
				if y.Pos(c) <= off {
					idx = i
				}
			}
			if idx < 0 {
				return path, steps, y.Docs[doc]
			}
			path = append(path, manifest.Index(idx))
			steps = append(steps, Step{nil, n.Content[idx]})
			n = n.Content[idx]
		default:
			return path, steps, y.Docs[doc]
		}
	}
	return path, steps, y.Docs[doc]
}

// Lookup returns the key and value nodes at a path below n (aliases
// followed), or nils.
func Lookup(n *yaml.Node, path manifest.Path) (key, val *yaml.Node) {
	val = n
	for _, e := range path {
		for val != nil && val.Kind == yaml.AliasNode {
			val = val.Alias
		}
		if val == nil {
			return nil, nil
		}
		switch {
		case e.IsIdx && val.Kind == yaml.SequenceNode:
			if e.Index < 0 || e.Index >= len(val.Content) {
				return nil, nil
			}
			key, val = nil, val.Content[e.Index]
		case !e.IsIdx && val.Kind == yaml.MappingNode:
			var k, v *yaml.Node
			for i := 0; i+1 < len(val.Content); i += 2 {
				if val.Content[i].Value == e.Key {
					k, v = val.Content[i], val.Content[i+1] // the last wins, as in a decode
				}
			}
			if k == nil {
				return nil, nil
			}
			key, val = k, v
		default:
			return nil, nil
		}
	}
	return key, val
}

// ScalarEnd returns the end offset of a single-line scalar's source text
// starting at start, quotes included; for other scalars, the end of its
// first line.
func ScalarEnd(y *YAML, n *yaml.Node, start int) int {
	_, lineEnd := y.LineBounds(start)
	src := string(y.Text[start:lineEnd])
	switch {
	case n.Style&yaml.DoubleQuotedStyle != 0 && strings.HasPrefix(src, `"`):
		for i := 1; i < len(src); i++ {
			switch src[i] {
			case '\\':
				i++
			case '"':
				return start + i + 1
			}
		}
	case n.Style&yaml.SingleQuotedStyle != 0 && strings.HasPrefix(src, "'"):
		for i := 1; i < len(src); i++ {
			if src[i] == '\'' {
				if i+1 < len(src) && src[i+1] == '\'' {
					i++
					continue
				}
				return start + i + 1
			}
		}
	case n.Style == 0 && strings.HasPrefix(src, n.Value):
		return start + len(n.Value)
	}
	return lineEnd
}
