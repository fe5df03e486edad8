// Package term makes text from the inputs safe to print on a terminal.
//
// File names, YAML lines, keys and object names come from the files
// scalelint reads, which anyone may write: an escape sequence in them
// (ESC [ ... m, OSC 8 links, a title change, a cursor move that hides
// the line above), a carriage return or a line feed that forges a line
// of the report, or a Unicode bidirectional override that shows text in
// another order than it is, would reach the terminal as they are. The
// text formats print every such piece through Clean.
package term

import (
	"fmt"
	"strings"
)

// Escape returns how a rune is shown when it cannot be printed as it is,
// and true; "", false for a rune printed as it is. Tabs are printed (a
// YAML line may hold them; the snippet aligns with them).
func Escape(c rune) (string, bool) {
	switch {
	case c == '\t':
		return "", false
	case c < 0x20 || c == 0x7f:
		return fmt.Sprintf(`\x%02x`, c), true
	case c >= 0x80 && c <= 0x9f: // C1 controls: CSI (0x9b) starts a sequence too
		return fmt.Sprintf(`\u%04x`, c), true
	case c >= 0x202a && c <= 0x202e, c >= 0x2066 && c <= 0x2069, c == 0x200e, c == 0x200f, c == 0x061c:
		return fmt.Sprintf(`\u%04x`, c), true // bidirectional controls
	}
	return "", false
}

// Clean returns s with every rune Escape escapes written as its escape.
func Clean(s string) string {
	clean := true
	for _, c := range s {
		if _, esc := Escape(c); esc {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	for _, c := range s {
		if e, esc := Escape(c); esc {
			b.WriteString(e)
		} else {
			b.WriteRune(c)
		}
	}
	return b.String()
}
