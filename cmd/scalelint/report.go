package main

import (
	"bytes"
	"fmt"
	"go/token"
	"io"
	"strings"

	"github.com/scalelint/scalelint/analyzer"
	"github.com/scalelint/scalelint/analyzer/manifest"
	"github.com/scalelint/scalelint/analyzer/workspace"
)

// report is one run's results, shared by every output encoder: one parse,
// many encoders.
type report struct {
	ws             *workspace.Workspace
	cfg            *analyzer.Config
	shared         *analyzer.Shared      // the run's, with its evaluations
	all            []analyzer.Diagnostic // suppressed ones included
	shown          []analyzer.Diagnostic // what outputs show
	includeMissing bool
	baseline       *baselineFile // --baseline, when given
	baselined      int           // findings the baseline held
	fixed          int           // baseline findings no longer found
	// missingMemo holds missing() once computed: the JSON summary, the
	// text listing and the hint after the summary all read it, and each
	// computation evaluates every autoscaler's laws again.
	missingMemo *[]missingJSON

	// lastFile is the file the last location was in. Outputs visit
	// findings file by file: when they move on, the text read again to
	// locate the last file's findings is dropped again, so the report of
	// a large repository holds one file's text at a time.
	lastFile *manifest.File
}

func newReport(ws *workspace.Workspace, diags []analyzer.Diagnostic, cfg *analyzer.Config, shared *analyzer.Shared) *report {
	r := &report{ws: ws, cfg: cfg, all: diags, shared: shared}
	for _, d := range diags {
		if d.Suppression == nil {
			r.shown = append(r.shown, d)
		}
	}
	return r
}

// location is a diagnostic's place in the units users see: 1-based lines,
// columns in Unicode code points.
type location struct {
	File                       string
	Line, Col, EndLine, EndCol int
	Source                     string // the template a "# Source:" comment names
	file                       *manifest.File
}

func (r *report) locate(pos, end token.Pos) location {
	f := r.ws.FileOf(pos)
	if f == nil {
		return location{File: "", Line: 1, Col: 1, EndLine: 1, EndCol: 1}
	}
	if f != r.lastFile {
		if r.lastFile != nil {
			r.lastFile.DropText(nil, false) // a no-op for files never dropped
		}
		r.lastFile = f
	}
	l := location{File: f.Path, file: f}
	l.Line, l.Col = f.Position(pos)
	if end.IsValid() && end >= pos {
		l.EndLine, l.EndCol = f.Position(end)
	} else {
		l.EndLine, l.EndCol = l.Line, l.Col
	}
	off := f.Tok.Offset(pos)
	for _, d := range f.Docs {
		if off >= d.Start && off < d.End {
			l.Source = d.Source
		}
	}
	return l
}

type counts struct{ errors, warnings, infos int }

func (r *report) counts() counts {
	var c counts
	for _, d := range r.shown {
		switch d.Severity {
		case analyzer.Error:
			c.errors++
		case analyzer.Warning:
			c.warnings++
		default:
			c.infos++
		}
	}
	return c
}

func (r *report) worst() analyzer.Severity {
	var w analyzer.Severity
	for _, d := range r.shown {
		if d.Severity > w {
			w = d.Severity
		}
	}
	return w
}

func plural(n int, word string) string {
	if n == 1 {
		return fmt.Sprintf("%d %s", n, word)
	}
	return fmt.Sprintf("%d %ss", n, word)
}

func (r *report) summaryLine() string {
	c := r.counts()
	s := fmt.Sprintf("%s, %s, %s in %s (%s)", plural(c.errors, "error"), plural(c.warnings, "warning"),
		plural(c.infos, "info"), plural(len(r.ws.Files), "file"), plural(len(r.ws.Autoscalers()), "autoscaler"))
	if r.baseline != nil {
		s += fmt.Sprintf("; %d baselined", r.baselined)
		if r.fixed > 0 {
			s += fmt.Sprintf(", %d baselined %s fixed (--write-baseline shrinks the file)", r.fixed, map[bool]string{true: "finding", false: "findings"}[r.fixed == 1])
		}
	}
	return s
}

// output is one --format/--output pair.
type output struct {
	format string
	path   string // "" = stdout
}

var formats = map[string]func(r *report, w io.Writer, color bool) error{
	"text":   writeText,
	"json":   writeJSON,
	"sarif":  writeSARIF,
	"github": writeGitHub,
}

// outputsFor pairs --format and --output flags in order. A format without
// an output goes to stdout; at most one may.
func outputsFor(fmts, paths []string) ([]output, error) {
	if len(fmts) == 0 {
		fmts = []string{"text"}
	}
	if len(paths) > len(fmts) {
		return nil, fmt.Errorf("--output given %d times for %d --format", len(paths), len(fmts))
	}
	var outs []output
	stdout := 0
	for i, f := range fmts {
		if _, ok := formats[f]; !ok {
			return nil, fmt.Errorf("unknown --format %q (text, json, sarif, github)", f)
		}
		o := output{format: f}
		if i < len(paths) {
			o.path = paths[i]
		} else {
			stdout++
		}
		outs = append(outs, o)
	}
	if stdout > 1 {
		return nil, fmt.Errorf("several formats write to stdout: give each but one an --output")
	}
	return outs, nil
}

func (o output) write(r *report, stdout io.Writer, colorMode string) error {
	enc := formats[o.format]
	if o.path == "" {
		return enc(r, stdout, useColor(colorMode, stdout))
	}
	// Write atomically: a partial report never replaces a good one.
	var buf bytes.Buffer
	if err := enc(r, &buf, false); err != nil {
		return err
	}
	return writeFileAtomic(o.path, buf.Bytes())
}

func dirOf(p string) string {
	if i := strings.LastIndexAny(p, `/\`); i >= 0 {
		return p[:i+1]
	}
	return "."
}

// textToStdout reports whether the text format writes to stdout (it
// prints its own summary).
func (r *report) textToStdout(outs []output) bool {
	for _, o := range outs {
		if o.format == "text" && o.path == "" {
			return true
		}
	}
	return false
}

// objectRef identifies a diagnostic's object in JSON.
type objectRef struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	Namespace  string `json:"namespace"`
	Name       string `json:"name"`
}

func (r *report) objectOf(d analyzer.Diagnostic) *objectRef {
	o := d.Object
	if o == nil {
		// Fall back to the object whose node holds the position.
		f := r.ws.FileOf(d.Pos)
		if f == nil {
			return nil
		}
		off := f.Tok.Offset(d.Pos)
		for _, doc := range f.Docs {
			if !doc.Parsed() || off < doc.Start || off >= doc.End {
				continue
			}
			for _, x := range doc.Objects() {
				if d.Pos >= x.At.Pos && d.Pos <= x.At.End {
					o = x
				}
			}
		}
	}
	return r.objectRef(o)
}

// objectRef identifies an object, with its namespace defaulted.
func (r *report) objectRef(o *manifest.Object) *objectRef {
	if o == nil {
		return nil
	}
	ns := o.Namespace
	if ns == "" {
		ns = r.cfg.Namespace
		if ns == "" {
			ns = "default"
		}
	}
	return &objectRef{APIVersion: o.APIVersion, Kind: o.Kind, Namespace: ns, Name: o.Name}
}
