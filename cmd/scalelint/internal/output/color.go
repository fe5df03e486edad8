package output

import (
	"io"
	"os"

	"golang.org/x/term"
)

// UseColor decides whether text written to w is coloured: always, never,
// or on a terminal unless NO_COLOR is set (https://no-color.org).
func UseColor(mode string, w io.Writer) bool {
	switch mode {
	case "always":
		return true
	case "never":
		return false
	}
	if os.Getenv("NO_COLOR") != "" {
		return false
	}
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// Palette holds the escape sequences of the colours text outputs use;
// all empty without colour.
type Palette struct{ Bold, Red, Yellow, Cyan, Blue, Dim, Reset string }

// Colors returns the palette, empty when off.
func Colors(on bool) Palette {
	if !on {
		return Palette{}
	}
	return Palette{Bold: "\x1b[1m", Red: "\x1b[31m", Yellow: "\x1b[33m", Cyan: "\x1b[36m", Blue: "\x1b[34m", Dim: "\x1b[2m", Reset: "\x1b[0m"}
}
