package manifest

import (
	"bytes"
	"go/token"
	"unicode/utf8"

	yaml "go.yaml.in/yaml/v3"
)

// bom is the UTF-8 byte order mark. yaml.v3 skips it without counting it as
// a column, and editors hide it, so the first line's columns start after it.
var bom = []byte{0xEF, 0xBB, 0xBF}

// lineStarts returns the byte offset of the start of every line of src,
// breaking lines the way yaml.v3's scanner does: "\r\n", "\r", "\n", and
// the Unicode breaks NEL (U+0085), LS (U+2028) and PS (U+2029).
func lineStarts(src []byte) []int {
	starts := make([]int, 1, bytes.Count(src, []byte{'\n'})+2)
	exotic := bytes.IndexByte(src, '\r') >= 0 || bytes.Contains(src, []byte{0xC2, 0x85}) ||
		bytes.Contains(src, []byte{0xE2, 0x80, 0xA8}) || bytes.Contains(src, []byte{0xE2, 0x80, 0xA9})
	if !exotic {
		for i := 0; ; {
			j := bytes.IndexByte(src[i:], '\n')
			if j < 0 {
				break
			}
			i += j + 1
			starts = append(starts, i)
		}
		return starts
	}
	for i := 0; i < len(src); {
		switch {
		case src[i] == '\r' && i+1 < len(src) && src[i+1] == '\n':
			i += 2
		case src[i] == '\r' || src[i] == '\n':
			i++
		case src[i] == 0xC2 && i+1 < len(src) && src[i+1] == 0x85:
			i += 2
		case src[i] == 0xE2 && i+2 < len(src) && src[i+1] == 0x80 && (src[i+2] == 0xA8 || src[i+2] == 0xA9):
			i += 3
		default:
			i++
			continue
		}
		starts = append(starts, i)
	}
	return starts
}

// appendLineStarts returns line starts for display: "\n", "\r\n" and "\r"
// end a line, as in LSP and in editors. The table is made in dst's memory
// (its length is ignored) when its capacity holds it (a table dropped
// before: lineTable).
func appendLineStarts(dst []int, src []byte) []int {
	if bytes.IndexByte(src, '\r') < 0 {
		// Only "\n": one exact allocation, searched a word at a time.
		n := bytes.Count(src, []byte{'\n'}) + 1
		starts := dst[:0]
		if cap(starts) < n {
			starts = make([]int, 0, n)
		}
		starts = append(starts, 0)
		for i := 0; ; {
			j := bytes.IndexByte(src[i:], '\n')
			if j < 0 || i+j+1 >= len(src) {
				break // a final line break opens no line (see below)
			}
			i += j + 1
			starts = append(starts, i)
		}
		return starts
	}
	starts := append(dst[:0], 0)
	for i := 0; i < len(src); i++ {
		switch src[i] {
		case '\n':
			starts = append(starts, i+1)
		case '\r':
			if i+1 < len(src) && src[i+1] == '\n' {
				i++
			}
			starts = append(starts, i+1)
		}
	}
	// token.File wants every line start inside the file: a final line
	// break does not open a line there.
	if n := len(starts); n > 1 && starts[n-1] >= len(src) {
		starts = starts[:n-1]
	}
	return starts
}

// sameBreaks reports whether yaml.v3 breaks lines of src exactly where
// outputLineStarts does: no "\r", NEL, LS or PS. The file then keeps one
// line table for both: yaml.v3's differs only by a start at the very end,
// which offsetOf maps to the end of the content either way.
func sameBreaks(src []byte) bool {
	return bytes.IndexByte(src, '\r') < 0 && !bytes.Contains(src, []byte{0xC2, 0x85}) &&
		!bytes.Contains(src, []byte{0xE2, 0x80, 0xA8}) && !bytes.Contains(src, []byte{0xE2, 0x80, 0xA9})
}

// offsetOf converts a yaml.v3 (line, column) pair, 1-based with columns in
// code points, to a byte offset in the file.
func (f *File) offsetOf(line, col int) int {
	if line < 1 {
		return 0
	}
	src := f.Text()
	lines := f.yamlLineStarts(src)
	if line > len(lines) {
		return len(src)
	}
	off := lines[line-1]
	if line == 1 && bytes.HasPrefix(src, bom) {
		off = len(bom)
	}
	for c := 1; c < col && off < len(src); c++ {
		b := src[off]
		if b == '\n' || b == '\r' {
			break
		}
		_, size := utf8.DecodeRune(src[off:])
		off += size
	}
	return off
}

// Offset returns the byte offset where node n starts.
func (f *File) Offset(n *yaml.Node) int {
	if n == nil {
		return 0
	}
	return f.offsetOf(n.Line, n.Column)
}

// Pos returns the position where node n starts.
func (f *File) Pos(n *yaml.Node) token.Pos {
	return f.Tok.Pos(f.Offset(n))
}

// End returns the position just after node n.
func (f *File) End(n *yaml.Node) token.Pos {
	return f.Tok.Pos(f.EndOffset(n))
}

// EndOffset returns the byte offset just after node n: the end of a scalar's
// text (quotes and block content included), or of a collection's last
// element (its closing bracket for flow style).
func (f *File) EndOffset(n *yaml.Node) int {
	if n == nil {
		return 0
	}
	src := f.Text()
	start := f.Offset(n)
	switch n.Kind {
	case yaml.DocumentNode:
		if len(n.Content) == 0 {
			return start
		}
		return f.EndOffset(n.Content[len(n.Content)-1])
	case yaml.AliasNode:
		p := start
		if p < len(src) && src[p] == '*' {
			p++
		}
		return scanAnchorName(src, p)
	case yaml.MappingNode, yaml.SequenceNode:
		p := start
		if len(n.Content) > 0 {
			p = f.EndOffset(n.Content[len(n.Content)-1])
		}
		if n.Style&yaml.FlowStyle != 0 {
			return flowClose(src, start, p, n.Kind == yaml.MappingNode)
		}
		return p
	}
	return f.scalarEnd(start, n)
}

// scanAnchorName returns the offset after an anchor or alias name starting at p.
func scanAnchorName(src []byte, p int) int {
	for p < len(src) {
		switch src[p] {
		case ' ', '\t', '\r', '\n', ',', '[', ']', '{', '}':
			return p
		}
		p++
	}
	return p
}

// flowClose finds the closing bracket of a flow collection opened at start
// whose last element ends at p.
func flowClose(src []byte, start, p int, mapping bool) int {
	closing := byte(']')
	if mapping {
		closing = '}'
	}
	if p == start && p < len(src) && (src[p] == '[' || src[p] == '{') {
		p++
	}
	for p < len(src) {
		switch c := src[p]; {
		case c == closing:
			return p + 1
		case c == '#':
			for p < len(src) && src[p] != '\n' {
				p++
			}
		case c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == ',':
			p++
		default:
			// Something other than a separator: the last element was an
			// implicit null or the text is unusual; stop at what we know.
			return p
		}
	}
	return p
}

// skipProperties skips a node's tag and anchor (in either order) and the
// blanks after them, so that p points at the node's content.
func skipProperties(src []byte, p int) int {
	for p < len(src) && (src[p] == '!' || src[p] == '&') {
		p = scanAnchorName(src, p+1)
		for p < len(src) && (src[p] == ' ' || src[p] == '\t') {
			p++
		}
	}
	return p
}

func (f *File) scalarEnd(start int, n *yaml.Node) int {
	src := f.Text()
	p := skipProperties(src, start)
	if p >= len(src) {
		return len(src)
	}
	switch {
	case n.Style&yaml.DoubleQuotedStyle != 0 && src[p] == '"':
		for q := p + 1; q < len(src); q++ {
			switch src[q] {
			case '\\':
				q++
			case '"':
				return q + 1
			}
		}
		return len(src)
	case n.Style&yaml.SingleQuotedStyle != 0 && src[p] == '\'':
		for q := p + 1; q < len(src); q++ {
			if src[q] == '\'' {
				if q+1 < len(src) && src[q+1] == '\'' {
					q++
					continue
				}
				return q + 1
			}
		}
		return len(src)
	case n.Style&(yaml.LiteralStyle|yaml.FoldedStyle) != 0 && (src[p] == '|' || src[p] == '>'):
		return blockScalarEnd(src, p)
	}
	if n.Value == "" {
		if n.Tag == "!!null" && (p >= len(src) || src[p] != '~') {
			return p // an implicit null has no text
		}
	}
	return plainEnd(src, p, n.Value)
}

// plainEnd matches the folded value of a plain scalar against its source
// text starting at p: a space or line break in the value stands for any run
// of blanks and line breaks (with indentation) in the source.
func plainEnd(src []byte, p int, value string) int {
	if len(value) <= len(src)-p && string(src[p:p+len(value)]) == value {
		return p + len(value)
	}
	end := p
	q := p
	for i := 0; i < len(value); {
		c := value[i]
		if c == ' ' || c == '\n' {
			for q < len(src) && (src[q] == ' ' || src[q] == '\t' || src[q] == '\r' || src[q] == '\n') {
				q++
			}
			for i < len(value) && (value[i] == ' ' || value[i] == '\n') {
				i++
			}
			continue
		}
		if q >= len(src) || src[q] != c {
			// The source does not match (unexpected); end at the line end.
			return lineContentEnd(src, p)
		}
		q++
		i++
		end = q
	}
	return end
}

// lineContentEnd returns the end of the text on p's line, before a comment
// and trailing blanks.
func lineContentEnd(src []byte, p int) int {
	e := p
	for e < len(src) && src[e] != '\n' && src[e] != '\r' {
		if src[e] == '#' && e > p && (src[e-1] == ' ' || src[e-1] == '\t') {
			break
		}
		e++
	}
	for e > p && (src[e-1] == ' ' || src[e-1] == '\t') {
		e--
	}
	return e
}

// blockScalarEnd returns the end of a literal or folded block scalar whose
// indicator is at p: the end of its last non-blank content line.
func blockScalarEnd(src []byte, p int) int {
	headerEnd := lineContentEnd(src, p)
	// Skip to the next line.
	q := headerEnd
	for q < len(src) && src[q] != '\n' && src[q] != '\r' {
		q++
	}
	end := headerEnd
	indent := -1
	for q < len(src) {
		// q is at a line break; move to the next line's start.
		if src[q] == '\r' && q+1 < len(src) && src[q+1] == '\n' {
			q++
		}
		q++
		lineStart := q
		ind := 0
		for q < len(src) && src[q] == ' ' {
			q++
			ind++
		}
		lineEnd := q
		for lineEnd < len(src) && src[lineEnd] != '\n' && src[lineEnd] != '\r' {
			lineEnd++
		}
		blank := true
		for _, c := range src[q:lineEnd] {
			if c != ' ' && c != '\t' {
				blank = false
				break
			}
		}
		if !blank {
			if indent < 0 {
				indent = ind
				if indent == 0 {
					return end
				}
			}
			if ind < indent {
				return end
			}
			e := lineEnd
			for e > lineStart && (src[e-1] == ' ' || src[e-1] == '\t') {
				e--
			}
			end = e
		}
		q = lineEnd
		if q >= len(src) {
			break
		}
	}
	return end
}
