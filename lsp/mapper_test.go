package lsp

import (
	"math/rand/v2"
	"strings"
	"testing"

	"go.lsp.dev/protocol"

	"github.com/scalelint/scalelint/analyzer/manifest/lines"
)

func pos(line, char uint32) protocol.Position { return protocol.Position{Line: line, Character: char} }

// TestMapperUTF16: emoji (a surrogate pair in UTF-16, four bytes in
// UTF-8) and CJK (one unit, three bytes) before a field.
func TestMapperUTF16(t *testing.T) {
	text := "a: 1\n# 注文 🚀\n  note: \"注文🚀\", lagThreshold: \"10\"\r\nend\rlast"
	m := NewMapper([]byte(text))
	if m.LineCount() != 5 {
		t.Fatalf("lines = %d, want 5 (\\n, \\r\\n and \\r end lines)", m.LineCount())
	}
	field := strings.Index(text, "lagThreshold")
	// Line 2: `  note: "注文🚀", ` is 2+6+1+2+2+1+2 = 16 UTF-16 units before the field.
	want := pos(2, uint32(utf16Len(`  note: "注文🚀", `)))
	if want.Character != 16 {
		t.Fatalf("test arithmetic: %d", want.Character)
	}
	if got := m.Position(field); got != want {
		t.Errorf("Position(lagThreshold) = %+v, want %+v", got, want)
	}
	if got := m.Offset(want); got != field {
		t.Errorf("Offset(%+v) = %d, want %d", want, got, field)
	}
	// Round trips on every character boundary.
	for off := 0; off <= len(text); off++ {
		if off < len(text) && (text[off]&0xC0) == 0x80 {
			continue // inside a UTF-8 sequence
		}
		if off > 0 && text[off-1] == '\r' && off < len(text) && text[off] == '\n' {
			continue // between \r and \n: not a position
		}
		p := m.Position(off)
		if back := m.Offset(p); back != off {
			t.Errorf("offset %d -> %+v -> %d", off, p, back)
		}
	}
	// The emoji occupies two units; a position between them stays before it.
	rocket := strings.Index(text, "🚀")
	p := m.Position(rocket)
	if got := m.Offset(pos(p.Line, p.Character+1)); got != rocket {
		t.Errorf("inside the surrogate pair: %d, want %d", got, rocket)
	}
	if got := m.Position(rocket + 4); got.Character != p.Character+2 {
		t.Errorf("after the emoji: %+v, want character %d", got, p.Character+2)
	}
	// Past the line's end: the end of the line, before its break.
	if got := m.Offset(pos(0, 99)); got != 4 {
		t.Errorf("Offset(0:99) = %d, want 4", got)
	}
	if got := m.Offset(pos(2, 999)); text[got:got+2] != "\r\n" {
		t.Errorf("Offset(2:999) = %d, not before the CRLF", got)
	}
	// Past the last line: the end of the text.
	if got := m.Offset(pos(40, 0)); got != len(text) {
		t.Errorf("Offset(40:0) = %d, want %d", got, len(text))
	}
	if got := m.Position(len(text)); got != pos(4, 4) {
		t.Errorf("Position(end) = %+v", got)
	}
}

// TestMapperASCII: the fast path agrees with the general one.
func TestMapperASCII(t *testing.T) {
	text := "apiVersion: v1\nkind: ConfigMap\n"
	m := NewMapper([]byte(text))
	if got := m.Position(len("apiVersion: v1\nkind")); got != pos(1, 4) {
		t.Errorf("Position = %+v", got)
	}
	if got := m.Offset(pos(1, 4)); got != len("apiVersion: v1\nkind") {
		t.Errorf("Offset = %d", got)
	}
	if got := m.Position(len(text)); got != pos(2, 0) {
		t.Errorf("end = %+v", got)
	}
}

// TestMapperInvalidUTF8: a byte that is not UTF-8 counts as one unit.
func TestMapperInvalidUTF8(t *testing.T) {
	text := "a\xffb: 1"
	m := NewMapper([]byte(text))
	if got := m.Position(2); got != pos(0, 2) {
		t.Errorf("Position = %+v", got)
	}
	if got := m.Offset(pos(0, 2)); got != 2 {
		t.Errorf("Offset = %d", got)
	}
}

// TestApplyChanges: incremental changes apply in order, each to the text
// the one before made; a whole-document change replaces everything.
func TestApplyChanges(t *testing.T) {
	text := []byte("kind: 注文🚀\nname: x\n")
	out, err := applyChanges(text, []protocol.TextDocumentContentChangeEvent{
		&protocol.TextDocumentContentChangePartial{Range: protocol.Range{Start: pos(0, 10), End: pos(0, 10)}, Text: "!"},
		&protocol.TextDocumentContentChangePartial{Range: protocol.Range{Start: pos(1, 6), End: pos(1, 7)}, Text: "y"},
		&protocol.TextDocumentContentChangePartial{Range: protocol.Range{}, Text: "# c\n"},
	})
	if err != nil {
		t.Fatal(err)
	}
	if want := "# c\nkind: 注文🚀!\nname: y\n"; string(out) != want {
		t.Errorf("got %q, want %q", out, want)
	}
	out, err = applyChanges(out, []protocol.TextDocumentContentChangeEvent{&protocol.TextDocumentContentChangeWholeDocument{Text: "new"}})
	if err != nil || string(out) != "new" {
		t.Errorf("whole document: %q, %v", out, err)
	}
	if _, err := applyChanges(out, []protocol.TextDocumentContentChangeEvent{
		&protocol.TextDocumentContentChangePartial{Range: protocol.Range{Start: pos(0, 2), End: pos(0, 1)}}}); err == nil {
		t.Error("a reversed range was accepted")
	}
}

// TestMapperCompact: a compact Mapper (no text) maps every offset and
// every position, on a line and past its end or the text's, as the full
// one does; it is refused for a text whose columns or line ends need the
// text (not ASCII, or a "\r").
func TestMapperCompact(t *testing.T) {
	for _, text := range []string{"", "\n", "a", "a: 1\n", "a: 1\n\nkind: X\n  b: [1, 2]", "x\n\n\n"} {
		full := NewMapper([]byte(text))
		m, ok := full.Compact()
		if !ok || m.content != nil {
			t.Fatalf("%q: not compacted", text)
		}
		if m.LineCount() != full.LineCount() {
			t.Errorf("%q: %d lines, want %d", text, m.LineCount(), full.LineCount())
		}
		for off := -1; off <= len(text)+2; off++ {
			if got, want := m.Position(off), full.Position(off); got != want {
				t.Errorf("%q: Position(%d) = %+v, want %+v", text, off, got, want)
			}
		}
		for line := uint32(0); line <= uint32(full.LineCount())+1; line++ {
			if got, want := m.LineStart(int(line)), full.LineStart(int(line)); got != want {
				t.Errorf("%q: LineStart(%d) = %d, want %d", text, line, got, want)
			}
			for char := uint32(0); char <= uint32(len(text))+2; char++ {
				if got, want := m.Offset(pos(line, char)), full.Offset(pos(line, char)); got != want {
					t.Errorf("%q: Offset(%d:%d) = %d, want %d", text, line, char, got, want)
				}
			}
		}
	}
	for _, text := range []string{"a\r\nb", "a\rb", "注文: 1\n", "a\xff\n"} {
		if m, ok := NewMapper([]byte(text)).Compact(); ok || m.content == nil {
			t.Errorf("%q: compacted", text)
		}
	}
}

// TestMapperCompactPacked: the packed line table of a compact Mapper
// (lines.Packed) against the plain model, the full Mapper's table of line
// starts, on texts of more lines than a mark spans (lines.Stride) and of
// lines whose lengths take one, two and three uvarint bytes (under 128,
// under 16,384, more), with empty lines and with or without a final
// line break. Every offset and every line start must map alike.
func TestMapperCompactPacked(t *testing.T) {
	rng := rand.New(rand.NewPCG(19, 4))
	lengths := []int{0, 1, 5, 40, 126, 127, 128, 129, 300, 16382, 16383, 16384, 20000}
	for round := 0; round < 60; round++ {
		var b strings.Builder
		count := rng.IntN(5 * lines.Stride)
		for i := 0; i < count; i++ {
			n := lengths[rng.IntN(len(lengths))]
			if rng.IntN(4) > 0 {
				n = rng.IntN(90) // mostly manifest-like lines
			}
			b.WriteString(strings.Repeat("x", n))
			if i+1 < count || rng.IntN(2) == 0 {
				b.WriteByte('\n')
			}
		}
		text := b.String()
		full := NewMapper([]byte(text))
		m, ok := full.Compact()
		if !ok || m.packed == nil || m.lines != nil {
			t.Fatalf("round %d: not packed", round)
		}
		if m.LineCount() != len(full.lines) {
			t.Fatalf("round %d: %d lines, want %d", round, m.LineCount(), len(full.lines))
		}
		for i, want := range full.lines {
			if got := m.LineStart(i); got != int(want) {
				t.Fatalf("round %d: LineStart(%d) = %d, want %d", round, i, got, want)
			}
		}
		for off := -1; off <= len(text)+1; off++ {
			if got, want := m.Position(off), full.Position(off); got != want {
				t.Fatalf("round %d: Position(%d) = %+v, want %+v", round, off, got, want)
			}
		}
		for i := 0; i <= len(full.lines); i++ {
			for _, char := range []uint32{0, 1, 127, 128, 20001} {
				if got, want := m.Offset(pos(uint32(i), char)), full.Offset(pos(uint32(i), char)); got != want {
					t.Fatalf("round %d: Offset(%d:%d) = %d, want %d", round, i, char, got, want)
				}
			}
		}
	}
}
