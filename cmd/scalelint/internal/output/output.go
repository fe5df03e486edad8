// Package output writes a check run's report (cmd/scalelint/internal/
// report) in one format each: text, json, sarif and github, one file
// each behind the Printer interface, in the manner of golangci-lint's
// printers. Printers receive resolved findings (report.Each, or
// report.Render, which runs their writing of each on every core) and never
// read files. The package also holds what every command's outputs share:
// the one file writer (WriteFile: atomic, links and devices kept; and
// GuardInputs, which keeps an output off the inputs), colours, and the
// streaming JSON writer.
package output

import (
	"fmt"
	"io"
	"strings"

	"github.com/scalelint/scalelint/cmd/scalelint/internal/report"
)

// A Printer writes one run's report in one format.
type Printer interface {
	Print(w io.Writer, r *report.Report) error
}

// Options tune the printers.
type Options struct {
	// Color colours text output (for a terminal).
	Color bool
	// ExplainMissing lists, after the text summary, the laws each
	// autoscaler could not have evaluated; without it a line counts them.
	ExplainMissing bool
	// Version is scalelint's version, for SARIF's tool.
	Version string
}

var printers = map[string]func(Options) Printer{
	"text":   func(o Options) Printer { return Text{Color: o.Color, ExplainMissing: o.ExplainMissing} },
	"json":   func(Options) Printer { return JSON{} },
	"sarif":  func(o Options) Printer { return SARIF{Version: o.Version} },
	"github": func(Options) Printer { return GitHub{} },
}

// New returns the printer of a format.
func New(format string, o Options) (Printer, error) {
	p, ok := printers[format]
	if !ok {
		return nil, fmt.Errorf("unknown --format %q (%s)", format, strings.Join([]string{"text", "json", "sarif", "github"}, ", "))
	}
	return p(o), nil
}
