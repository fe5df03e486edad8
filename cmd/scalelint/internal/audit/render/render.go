// Package render writes an audit (cmd/scalelint/internal/audit) as a
// terminal table, a Markdown pull-request comment, CSV, JSON or one
// self-contained HTML page with pictures (inline SVG: the Φ curve of a
// backlog consumer, the rounds staircase of a CPU target, the ceiling
// band, and the simulated deployed loop).
package render

import (
	"fmt"
	"io"

	"github.com/scalelint/scalelint/cmd/scalelint/internal/audit"
)

// Options tune the renderers.
type Options struct {
	Color bool // colour the table (for a terminal)
}

var renderers = map[string]func(w io.Writer, a *audit.Audit, o Options) error{
	"table":    writeTable,
	"markdown": writeMarkdown,
	"json":     writeJSON,
	"csv":      writeCSV,
	"html":     writeHTML,
}

// Known reports whether format is one Write writes.
func Known(format string) bool {
	_, ok := renderers[format]
	return ok
}

// Write writes the audit in a format: table, markdown, json, csv or html.
func Write(w io.Writer, a *audit.Audit, format string, o Options) error {
	r, ok := renderers[format]
	if !ok {
		return fmt.Errorf("unknown --format %q (table, markdown, json, csv, html)", format)
	}
	return r(w, a, o)
}
