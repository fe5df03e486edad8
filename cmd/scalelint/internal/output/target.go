package output

import (
	"bufio"
	"fmt"
	"io"

	"github.com/scalelint/scalelint/cmd/scalelint/internal/report"
)

// Target is one --format/--output pair of check.
type Target struct {
	Format string
	Path   string // "" = stdout ("-" is read as "")
}

// Targets pairs --format and --output flags in order. A format without an
// output goes to stdout; at most one may. No format is text.
func Targets(formats, paths []string) ([]Target, error) {
	if len(formats) == 0 {
		formats = []string{"text"}
	}
	if len(paths) > len(formats) {
		return nil, fmt.Errorf("--output given %d times for %d --format", len(paths), len(formats))
	}
	var out []Target
	toStdout := 0
	for i, f := range formats {
		if _, err := New(f, Options{}); err != nil {
			return nil, err
		}
		t := Target{Format: f}
		if i < len(paths) && !IsStdout(paths[i]) {
			t.Path = paths[i]
		} else {
			toStdout++
		}
		out = append(out, t)
	}
	if toStdout > 1 {
		return nil, fmt.Errorf("several formats write to stdout: give each but one an --output")
	}
	return out, nil
}

// Write prints the report to stdout (text coloured as colorMode says:
// UseColor) or, atomically, to the target's file (WriteFile).
func (t Target) Write(r *report.Report, stdout io.Writer, colorMode string, o Options) error {
	if t.Path != "" {
		p, _ := New(t.Format, o)
		return WriteFile(t.Path, func(w io.Writer) error { return p.Print(w, r) })
	}
	o.Color = UseColor(colorMode, stdout)
	p, _ := New(t.Format, o)
	w := bufio.NewWriterSize(stdout, 64<<10)
	if err := p.Print(w, r); err != nil {
		return err
	}
	return w.Flush()
}

// TextToStdout reports whether the text format writes to stdout: it
// prints the summary itself.
func TextToStdout(targets []Target) bool {
	for _, t := range targets {
		if t.Format == "text" && t.Path == "" {
			return true
		}
	}
	return false
}
