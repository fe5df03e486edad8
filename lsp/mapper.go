package lsp

import (
	"bytes"
	"fmt"
	"math"
	"sort"
	"unicode/utf8"

	"go.lsp.dev/protocol"

	"github.com/scalelint/scalelint/analyzer/manifest/lines"
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
//
// A Mapper of a text that is ASCII and breaks lines with "\n" alone (almost
// every manifest) needs only its line table: Compact drops the text, so
// that the server keeps one for every file of a large workspace without
// keeping the files' bytes.
type Mapper struct {
	content []byte // nil once Compact dropped it
	size    int    // len(content)
	// lines holds the byte offset of the start of each line, in 32 bits:
	// half the table for the text of every file of a workspace. A line
	// starting past 4 GiB, more than any protocol message carries
	// (maxMessageSize), is not indexed: it maps as part of the one before.
	lines []uint32
	// packed replaces lines in a compact Mapper (Compact): a few times
	// smaller, as the server keeps one for every file of the workspace.
	packed *lines.Packed
	ascii  bool // every byte < 0x80: columns are byte counts
	lf     bool // no "\r": every line but the last ends with one "\n"
}

// NewMapper indexes the lines of content. content must not change later.
func NewMapper(content []byte) *Mapper {
	m := &Mapper{content: content, size: len(content), ascii: true, lf: bytes.IndexByte(content, '\r') < 0}
	m.lines = make([]uint32, 1, bytes.Count(content, []byte{'\n'})+1)
	for i := 0; i < len(content); i++ {
		switch c := content[i]; {
		case c == '\n':
			m.addLine(i + 1)
		case c == '\r':
			if i+1 < len(content) && content[i+1] == '\n' {
				i++
			}
			m.addLine(i + 1)
		case c >= utf8.RuneSelf:
			m.ascii = false
		}
	}
	return m
}

func (m *Mapper) addLine(start int) {
	if start <= math.MaxUint32 {
		m.lines = append(m.lines, uint32(start))
	}
}

// line returns the byte offset where line i starts.
func (m *Mapper) line(i int) int {
	if m.packed != nil {
		return m.packed.Start(i)
	}
	return int(m.lines[i])
}

// lineOf returns the line holding offset off (0 <= off <= size).
func (m *Mapper) lineOf(off int) int {
	if m.packed != nil {
		return m.packed.LineOf(off)
	}
	return sort.Search(len(m.lines), func(i int) bool { return m.line(i) > off }) - 1
}

// Compact returns a Mapper that maps alike without holding the text, and
// true; or m and false when the text is needed to count columns or find
// line ends (it is not ASCII, or holds a "\r").
func (m *Mapper) Compact() (*Mapper, bool) {
	if !m.ascii || !m.lf {
		return m, false
	}
	p, ok := lines.Pack(m.lines)
	if !ok {
		return m, false
	}
	c := *m
	c.content = nil
	c.lines = nil
	c.packed = p
	return &c, true
}

// LineCount returns the number of lines (a final line break opens an
// empty last line, as editors show it).
func (m *Mapper) LineCount() int {
	if m.packed != nil {
		return m.packed.Len()
	}
	return len(m.lines)
}

// lineEnd returns the offset of the end of line i's text (0-based), before
// its line break.
func (m *Mapper) lineEnd(i int) int {
	if m.content == nil {
		// Compact: a line ends with exactly one "\n", the last with none.
		if i+1 < m.LineCount() {
			return m.line(i+1) - 1
		}
		return m.size
	}
	end := len(m.content)
	if i+1 < m.LineCount() {
		end = m.line(i + 1)
	}
	for end > m.line(i) && (m.content[end-1] == '\n' || m.content[end-1] == '\r') {
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
	if line >= m.LineCount() {
		return m.size
	}
	return m.line(line)
}

// Offset returns the byte offset of an LSP position.
func (m *Mapper) Offset(p protocol.Position) int {
	line := int(p.Line)
	if line >= m.LineCount() {
		return m.size
	}
	start, end := m.line(line), m.lineEnd(line)
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
	off = max(0, min(off, m.size))
	line := m.lineOf(off)
	start := m.line(line)
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
