package output

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/width"

	"github.com/scalelint/scalelint/analyzer"
	"github.com/scalelint/scalelint/analyzer/scaling"
	"github.com/scalelint/scalelint/cmd/scalelint/internal/report"
	"github.com/scalelint/scalelint/cmd/scalelint/internal/term"
	"github.com/scalelint/scalelint/rules/format"
)

// Text prints findings in the style of compilers:
//
//	path:line:col: severity: message [rule]
//	   7 |   maxReplicas: "ten"
//	     |                ^^^^^
//
// then the summary and what the run left unevaluated.
type Text struct {
	Color          bool
	ExplainMissing bool
}

func (t Text) Print(w io.Writer, r *report.Report) error {
	p := Colors(t.Color)
	// Each finding is resolved and written out on one of the cores, and
	// the outputs written in order (report.Render).
	err := r.Render(report.WithSourceLines, w, func() report.Renderer {
		return func(_ int, f *report.Finding, w *bytes.Buffer) error {
			d, l := f.Diagnostic, f.Location
			sevColor := p.Cyan
			switch d.Severity {
			case analyzer.Error:
				sevColor = p.Red
			case analyzer.Warning:
				sevColor = p.Yellow
			}
			// What comes from the inputs (names, messages quoting them, the
			// line) is printed through term.Clean.
			where := fmt.Sprintf("%s:%d:%d", term.Clean(l.File), l.Line, l.Col)
			if l.Source != "" {
				where += fmt.Sprintf(" (from %s)", term.Clean(l.Source))
			}
			fmt.Fprintf(w, "%s%s%s: %s%s%s: %s%s%s %s[%s]%s\n", p.Bold, where, p.Reset, sevColor+p.Bold, d.Severity, p.Reset,
				p.Bold, term.Clean(d.Message), p.Reset, p.Dim, d.Rule, p.Reset)
			writeSnippet(w, f.SourceLine, l, p, sevColor)
			for _, n := range f.Notes {
				fmt.Fprintf(w, "  %snote%s: %s:%d:%d: %s\n", p.Blue+p.Bold, p.Reset, term.Clean(n.Location.File), n.Location.Line, n.Location.Col, term.Clean(n.Message))
			}
			for _, fix := range f.Fixes {
				safe := ""
				if fix.Safe {
					safe = " (safe: scalelint check --fix applies it)"
				}
				fmt.Fprintf(w, "  %sfix%s: %s%s\n", p.Blue+p.Bold, p.Reset, term.Clean(fix.Message), safe)
			}
			return nil
		}
	})
	if err != nil {
		return err
	}
	if len(r.Shown) > 0 {
		fmt.Fprintln(w)
	}
	fmt.Fprintln(w, r.SummaryLine())
	if t.ExplainMissing {
		writeMissing(w, r.Missing())
	} else if hint := r.MissingHint(); hint != "" {
		fmt.Fprintf(w, "%s%s%s\n", p.Dim, hint, p.Reset)
	}
	return nil
}

// writeSnippet prints the source line and a caret underline of the range.
func writeSnippet(w io.Writer, line []byte, l report.Location, p Palette, sevColor string) {
	if line == nil || !utf8.Valid(line) || len(line) > 500 {
		return
	}
	text := strings.TrimPrefix(string(line), "\ufeff")
	gutter := fmt.Sprintf("%4d", l.Line)
	fmt.Fprintf(w, "%s%s |%s %s\n", p.Dim, gutter, p.Reset, term.Clean(text))
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
	fmt.Fprintf(w, "%s%s |%s %s%s%s%s\n", p.Dim, strings.Repeat(" ", len(gutter)), p.Reset, pad.String(), sevColor, marks.String(), p.Reset)
}

// runeWidth is the terminal width of a rune: 2 for wide East Asian
// characters and emoji, the width of its escape for a rune term.Clean
// escapes, 1 otherwise.
func runeWidth(c rune) int {
	if e, ok := term.Escape(c); ok {
		return len(e)
	}
	switch width.LookupRune(c).Kind() {
	case width.EastAsianWide, width.EastAsianFullwidth:
		return 2
	}
	if c >= 0x1F300 && c <= 0x1FAFF {
		return 2
	}
	return 1
}

// writeMissing lists the laws each autoscaler could not have evaluated
// or decided, and the inputs the manifests bound.
func writeMissing(w io.Writer, ms []report.Missing) {
	if len(ms) == 0 {
		fmt.Fprintln(w, "\nevery law that applies could be evaluated")
		return
	}
	fmt.Fprintf(w, "\nlaws not evaluated or not decided (%d autoscalers):\n", len(ms))
	for _, m := range ms {
		fmt.Fprintf(w, "  %s:%d %s %s/%s\n", term.Clean(m.File), m.Line, term.Clean(m.Object.Kind), term.Clean(m.Object.Namespace), term.Clean(m.Object.Name))
		for _, l := range m.Laws {
			switch {
			case len(l.Needs) > 0 && l.Why != "":
				fmt.Fprintf(w, "    %-22s needs %s: %s\n", l.Law, strings.Join(l.Needs, ", "), l.Why)
			case len(l.Needs) > 0:
				fmt.Fprintf(w, "    %-22s needs %s\n", l.Law, strings.Join(l.Needs, ", "))
			default:
				fmt.Fprintf(w, "    %-22s %s\n", l.Law, l.Why)
			}
		}
		for _, b := range m.Bounds {
			rel := map[string]string{"lower": "≥", "upper": "≤"}[b.Bound]
			v := format.Num(b.Value, 4)
			if b.Upper > b.Value {
				v += " to " + format.Num(b.Upper, 4)
			}
			where := ""
			if b.File != "" {
				where = fmt.Sprintf(", %s:%d", b.File, b.Line)
			}
			fmt.Fprintf(w, "    %-22s %s %s %s%s (%s%s)\n", "read from manifests", b.Input, rel, v, unit(b.Input), b.Source, where)
		}
	}
}

// unit is the unit of an annotation's value in the text output.
func unit(annotation string) string {
	if spec, ok := scaling.SpecOf(strings.TrimPrefix(annotation, scaling.Prefix)); ok && spec.Kind == scaling.Duration {
		return "s"
	}
	return ""
}
