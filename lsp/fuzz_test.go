package lsp

import (
	"testing"
	"unicode/utf16"
	"unicode/utf8"

	"go.lsp.dev/protocol"
)

// FuzzMapper: for any text, every byte offset maps to a position and back
// to an offset on the same line, never past the text; positions of rune
// starts round-trip exactly; columns count UTF-16 code units.
func FuzzMapper(f *testing.F) {
	for _, s := range []string{"", "a: 1\n", "日本😀: x\r\nb: 2\r", "\xff\xfe\n\n", "x\r\n\r\n😀"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, text []byte) {
		m := NewMapper(text)
		for off := 0; off <= len(text); off++ {
			p := m.Position(off)
			back := m.Offset(p)
			if back < 0 || back > len(text) {
				t.Fatalf("offset %d -> %+v -> %d outside the text", off, p, back)
			}
			if off == len(text) || utf8.RuneStart(text[off]) && utf8.Valid(text) {
				if back != off && !(off > 0 && text[off-1] == '\r' && off < len(text) && text[off] == '\n') {
					t.Fatalf("offset %d -> %+v -> %d", off, p, back)
				}
			}
		}
		// Columns are UTF-16 units for valid text.
		if utf8.Valid(text) {
			p := m.Position(len(text))
			ls := m.LineStart(int(p.Line))
			if want := len(utf16.Encode([]rune(string(text[ls:])))); int(p.Character) != want && !endsInLineBreak(text) {
				t.Fatalf("end column %d, want %d UTF-16 units", p.Character, want)
			}
		}
	})
}

func endsInLineBreak(b []byte) bool {
	return len(b) > 0 && (b[len(b)-1] == '\n' || b[len(b)-1] == '\r')
}

// FuzzIncrementalEdits: applying any range edit (even out of range, even
// reversed) never panics, and an edit then its inverse restores the text.
func FuzzIncrementalEdits(f *testing.F) {
	f.Add([]byte("a: 1\nb: 2\n"), uint32(0), uint32(3), uint32(1), uint32(4), "ζ😀")
	f.Add([]byte("日本\r\nx"), uint32(0), uint32(1), uint32(5), uint32(9), "")
	f.Fuzz(func(t *testing.T, text []byte, sl, sc, el, ec uint32, insert string) {
		r := protocol.Range{Start: protocol.Position{Line: sl % 8, Character: sc % 16}, End: protocol.Position{Line: el % 8, Character: ec % 16}}
		out, err := applyChanges(text, []protocol.TextDocumentContentChangeEvent{&protocol.TextDocumentContentChangePartial{Range: r, Text: insert}})
		if err != nil {
			return
		}
		m := NewMapper(text)
		start, end, err := m.OffsetRange(r)
		if err != nil {
			t.Fatalf("applyChanges accepted a range OffsetRange refuses: %v", err)
		}
		if want := string(text[:start]) + insert + string(text[end:]); string(out) != want {
			t.Fatalf("edit result %q, want %q", out, want)
		}
	})
}
