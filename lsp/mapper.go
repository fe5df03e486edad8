package lsp

import (
	"fmt"
	"sort"
	"unicode/utf8"

	"go.lsp.dev/protocol"
)

// Mapper converts between byte offsets in a document's text and LSP
// positions, whose columns count UTF-16 code units. It is the one place
// the server converts columns: the core works in byte offsets
// (token.Pos), editors in UTF-16.
//
// Lines end at "\n", "\r\n" or "\r", as in the LSP specification. A
// position past the end of its line maps to the line's end (before the
// line break); a line past the end of the text maps to the end of the
// text. Bytes that are not valid UTF-8 count as one code unit each (an
// editor shows U+FFFD for them). A Mapper is immutable.
type Mapper struct {
	content []byte
	lines   []int // byte offset of the start of each line
	ascii   bool  // every byte < 0x80: columns are byte counts
}

// NewMapper indexes the lines of content. content must not change later.
func NewMapper(content []byte) *Mapper {
	m := &Mapper{content: content, lines: make([]int, 1, 64), ascii: true}
	for i := 0; i < len(content); i++ {
		switch c := content[i]; {
		case c == '\n':
			m.lines = append(m.lines, i+1)
		case c == '\r':
			if i+1 < len(content) && content[i+1] == '\n' {
				i++
			}
			m.lines = append(m.lines, i+1)
		case c >= utf8.RuneSelf:
			m.ascii = false
		}
	}
	return m
}

// LineCount returns the number of lines (a final line break opens an
// empty last line, as editors show it).
func (m *Mapper) LineCount() int { return len(m.lines) }

// lineEnd returns the offset of the end of line i's text (0-based), before
// its line break.
func (m *Mapper) lineEnd(i int) int {
	end := len(m.content)
	if i+1 < len(m.lines) {
		end = m.lines[i+1]
	}
	for end > m.lines[i] && (m.content[end-1] == '\n' || m.content[end-1] == '\r') {
		end--
	}
	return end
}

// LineStart returns the byte offset where a 0-based line starts; the end
// of the text for a line past its end.
func (m *Mapper) LineStart(line int) int {
	if line < 0 {
		return 0
	}
	if line >= len(m.lines) {
		return len(m.content)
	}
	return m.lines[line]
}

// Offset returns the byte offset of an LSP position.
func (m *Mapper) Offset(p protocol.Position) int {
	line := int(p.Line)
	if line >= len(m.lines) {
		return len(m.content)
	}
	start, end := m.lines[line], m.lineEnd(line)
	want := int(p.Character)
	if m.ascii {
		return min(start+want, end)
	}
	off, units := start, 0
	for off < end && units < want {
		r, size := utf8.DecodeRune(m.content[off:end])
		n := 1
		if r >= 0x10000 && size > 1 {
			n = 2 // a surrogate pair
		}
		if units+n > want {
			break // inside a surrogate pair: stay before the character
		}
		units += n
		off += size
	}
	return off
}

// Position returns the LSP position of a byte offset. An offset inside a
// multi-byte character maps to that character's start.
func (m *Mapper) Position(off int) protocol.Position {
	off = max(0, min(off, len(m.content)))
	line := sort.Search(len(m.lines), func(i int) bool { return m.lines[i] > off }) - 1
	start := m.lines[line]
	if end := m.lineEnd(line); off > end {
		off = end // inside a "\r\n": the end of the line
	}
	if m.ascii {
		return protocol.Position{Line: uint32(line), Character: uint32(off - start)}
	}
	units := 0
	for p := start; p < off; {
		r, size := utf8.DecodeRune(m.content[p:])
		if p+size > off {
			break
		}
		if r >= 0x10000 && size > 1 {
			units += 2
		} else {
			units++
		}
		p += size
	}
	return protocol.Position{Line: uint32(line), Character: uint32(units)}
}

// Range returns the LSP range of a byte range.
func (m *Mapper) Range(start, end int) protocol.Range {
	if end < start {
		end = start
	}
	return protocol.Range{Start: m.Position(start), End: m.Position(end)}
}

// OffsetRange returns the byte range of an LSP range.
func (m *Mapper) OffsetRange(r protocol.Range) (int, int, error) {
	start, end := m.Offset(r.Start), m.Offset(r.End)
	if end < start {
		return 0, 0, fmt.Errorf("range %d:%d-%d:%d ends before it starts", r.Start.Line, r.Start.Character, r.End.Line, r.End.Character)
	}
	return start, end, nil
}
