package main

import (
	"fmt"
	"io"
	"os"
	"strings"
	"unicode/utf8"

	"golang.org/x/term"
	"golang.org/x/text/width"

	"github.com/scalelint/scalelint/analyzer"
)

// useColor decides whether text output is coloured: always, never, or on
// a terminal unless NO_COLOR is set (https://no-color.org).
func useColor(mode string, w io.Writer) bool {
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

type palette struct{ bold, red, yellow, cyan, blue, dim, reset string }

func colors(on bool) palette {
	if !on {
		return palette{}
	}
	return palette{bold: "\x1b[1m", red: "\x1b[31m", yellow: "\x1b[33m", cyan: "\x1b[36m", blue: "\x1b[34m", dim: "\x1b[2m", reset: "\x1b[0m"}
}

// writeText prints diagnostics in the style of compilers:
//
//	path:line:col: severity: message [rule]
//	   7 |   maxReplicas: "ten"
//	     |                ^^^^^
func writeText(r *report, w io.Writer, color bool) error {
	p := colors(color)
	for _, d := range r.shown {
		l := r.locate(d.Pos, d.End)
		sevColor := p.cyan
		switch d.Severity {
		case analyzer.Error:
			sevColor = p.red
		case analyzer.Warning:
			sevColor = p.yellow
		}
		where := fmt.Sprintf("%s:%d:%d", l.File, l.Line, l.Col)
		if l.Source != "" {
			where += fmt.Sprintf(" (from %s)", l.Source)
		}
		fmt.Fprintf(w, "%s%s%s: %s%s%s: %s%s%s %s[%s]%s\n", p.bold, where, p.reset, sevColor+p.bold, d.Severity, p.reset,
			p.bold, d.Message, p.reset, p.dim, d.Rule, p.reset)
		if l.file != nil {
			writeSnippet(w, l, p, sevColor)
		}
		for _, rel := range d.Related {
			rl := r.locate(rel.Pos, rel.End)
			fmt.Fprintf(w, "  %snote%s: %s:%d:%d: %s\n", p.blue+p.bold, p.reset, rl.File, rl.Line, rl.Col, rel.Message)
		}
		for _, fix := range d.SuggestedFixes {
			safe := ""
			if fix.Safe {
				safe = " (safe: scalelint check --fix applies it)"
			}
			fmt.Fprintf(w, "  %sfix%s: %s%s\n", p.blue+p.bold, p.reset, fix.Message, safe)
		}
	}
	if len(r.shown) > 0 {
		fmt.Fprintln(w)
	}
	fmt.Fprintln(w, r.summaryLine())
	if r.includeMissing {
		writeMissingText(r, w)
	} else if hint := r.missingHint(); hint != "" {
		fmt.Fprintf(w, "%s%s%s\n", p.dim, hint, p.reset)
	}
	return nil
}

// writeSnippet prints the source line and a caret underline of the range.
func writeSnippet(w io.Writer, l location, p palette, sevColor string) {
	line := l.file.LineText(l.Line)
	if line == nil || !utf8.Valid(line) || len(line) > 500 {
		return
	}
	text := strings.TrimPrefix(string(line), "\ufeff")
	gutter := fmt.Sprintf("%4d", l.Line)
	fmt.Fprintf(w, "%s%s |%s %s\n", p.dim, gutter, p.reset, text)
	runes := []rune(text)
	start := l.Col - 1
	end := len(runes)
	if l.EndLine == l.Line {
		end = l.EndCol - 1
	}
	if start > len(runes) {
		start = len(runes)
	}
	if end > len(runes) {
		end = len(runes)
	}
	var pad, marks strings.Builder
	for _, c := range runes[:start] {
		if c == '\t' {
			pad.WriteByte('\t')
		} else {
			pad.WriteString(strings.Repeat(" ", runeWidth(c)))
		}
	}
	for _, c := range runes[start:end] {
		marks.WriteString(strings.Repeat("^", runeWidth(c)))
	}
	if marks.Len() == 0 {
		marks.WriteByte('^')
	}
	fmt.Fprintf(w, "%s%s |%s %s%s%s%s\n", p.dim, strings.Repeat(" ", len(gutter)), p.reset, pad.String(), sevColor, marks.String(), p.reset)
}

// runeWidth is the terminal width of a rune: 2 for wide East Asian
// characters and emoji, 1 otherwise.
func runeWidth(c rune) int {
	switch width.LookupRune(c).Kind() {
	case width.EastAsianWide, width.EastAsianFullwidth:
		return 2
	}
	if c >= 0x1F300 && c <= 0x1FAFF {
		return 2
	}
	return 1
}
