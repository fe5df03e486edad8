// Package report is one check run's results, shared by every output
// format: the findings resolved to what users see (lines, columns in
// Unicode code points, the object, the notes and fixes), their counts, the
// laws left unevaluated for want of inputs, and the baseline.
//
// Data flow: analyzer.RunWith -> New -> (ApplyBaseline) -> Each or
// Render, which resolve the findings a chunk at a time (a few dozen, to
// the end of their file) on every core, each goroutine with a Locator ->
// a format (cmd/scalelint/internal/output), given the findings (Each) or
// writing each one's output on the goroutine that resolved it (Render),
// in order either way. A file's text, dropped after parsing
// (manifest.File.DropText), is read again to resolve its findings and
// dropped again when the last chunk that reads it is done: the formats
// receive resolved positions and never read files, and a report of a
// large repository holds the texts of the few chunks in flight.
package report

import (
	"fmt"
	"strings"

	"github.com/scalelint/scalelint/analyzer"
	"github.com/scalelint/scalelint/analyzer/manifest"
	"github.com/scalelint/scalelint/analyzer/render/lint"
	"github.com/scalelint/scalelint/analyzer/workspace"
	"github.com/scalelint/scalelint/rules"
)

// Report is one run's results.
type Report struct {
	Workspace *workspace.Workspace
	Config    *analyzer.Config
	// All are the run's findings, suppressed ones included, sorted by
	// file and position (as analyzer.Run returns them).
	All []analyzer.Diagnostic
	// Shown are the unsuppressed ones, in the same order: what the
	// formats show (SARIF lists All).
	Shown []analyzer.Diagnostic

	// Baseline is the baseline applied (ApplyBaseline), or nil.
	Baseline *Baseline
	// Baselined counts the findings the baseline held; Gone the baseline's
	// findings no longer found.
	Baselined, Gone int

	// Rendered are the charts and kustomizations the inputs held (nil:
	// none): their autoscalers and objects count too, and Missing lists
	// theirs (SetInputs).
	Rendered *lint.Result
	// FilesRead is the number of files the run read (SetInputs; 0: the
	// workspace's files).
	FilesRead int
	// Inputs says what the run read besides the findings: the
	// configuration files, the files set aside. Set by the command.
	Inputs Inputs

	shared *analyzer.Shared // the run's: its law evaluations
	// missing holds Missing once computed: the JSON summary, the text
	// listing and the hint after the summary all read it.
	missing  *[]Missing
	coverage *[rules.AllEvaluated + 1]int
}

// New makes the report of a run: shared is the one the run was made with
// (analyzer.RunWith), whose law evaluations Missing reads.
func New(ws *workspace.Workspace, diags []analyzer.Diagnostic, cfg *analyzer.Config, shared *analyzer.Shared) *Report {
	r := &Report{Workspace: ws, Config: cfg, All: diags, shared: shared}
	shown := 0
	for _, d := range diags {
		if d.Suppression == nil {
			shown++
		}
	}
	if shown > 0 {
		// Of the exact size: a large run's findings are thousands, and
		// a slice grown by appending is made about twice over.
		r.Shown = make([]analyzer.Diagnostic, 0, shown)
	}
	for _, d := range diags {
		if d.Suppression == nil {
			r.Shown = append(r.Shown, d)
		}
	}
	return r
}

// SetInputs says what the run read beyond the workspace: the files read
// (a chart's are read through its renders) and the charts and
// kustomizations rendered.
func (r *Report) SetInputs(files int, rendered *lint.Result) {
	r.FilesRead, r.Rendered = files, rendered
}

// Files is the number of files the run read.
func (r *Report) Files() int {
	if r.FilesRead > 0 {
		return r.FilesRead
	}
	return r.Workspace.Files().Len()
}

// Autoscalers counts the autoscalers linted: the workspace's and those
// the charts and kustomizations deploy (each once per place in the
// sources, whatever the value sets or builds that render it).
func (r *Report) Autoscalers() int {
	n := r.Workspace.Autoscalers().Len()
	if r.Rendered != nil {
		n += len(r.Rendered.Autoscalers())
	}
	return n
}

// Inputs is what a run read besides its findings.
type Inputs struct {
	// ConfigFiles are the configuration files that governed the inputs.
	ConfigFiles []string
	// Skipped are the files set aside: not Kubernetes manifests.
	Skipped []Skipped
}

// Skipped is a file set aside, and why.
type Skipped struct {
	Path   string `json:"path"`
	Reason string `json:"reason"`
}

// Counts are the shown findings by severity.
type Counts struct{ Errors, Warnings, Infos int }

// Counts counts the shown findings by severity.
func (r *Report) Counts() Counts {
	var c Counts
	for _, d := range r.Shown {
		switch d.Severity {
		case analyzer.Error:
			c.Errors++
		case analyzer.Warning:
			c.Warnings++
		default:
			c.Infos++
		}
	}
	return c
}

// Worst is the highest severity shown (0 when nothing is).
func (r *Report) Worst() analyzer.Severity {
	var w analyzer.Severity
	for _, d := range r.Shown {
		if d.Severity > w {
			w = d.Severity
		}
	}
	return w
}

// SummaryLine counts the findings, files and autoscalers, and what the
// baseline held.
func (r *Report) SummaryLine() string {
	c := r.Counts()
	s := fmt.Sprintf("%s, %s, %s in %s (%s)", Plural(c.Errors, "error"), Plural(c.Warnings, "warning"),
		Plural(c.Infos, "info"), Plural(r.Files(), "file"), Plural(r.Autoscalers(), "autoscaler"))
	if n := len(r.Inputs.Skipped); n > 0 {
		s += fmt.Sprintf("; %s skipped (no Kubernetes object; --verbose lists %s)", Plural(n, "file"), map[bool]string{true: "it", false: "them"}[n == 1])
	}
	if len(r.Inputs.ConfigFiles) > 0 {
		s += "; config " + strings.Join(r.Inputs.ConfigFiles, ", ")
	}
	if r.Baseline != nil {
		s += fmt.Sprintf("; %d baselined", r.Baselined)
		if r.Gone > 0 {
			s += fmt.Sprintf(", %d baselined %s fixed (--write-baseline shrinks the file)", r.Gone, map[bool]string{true: "finding", false: "findings"}[r.Gone == 1])
		}
	}
	return s
}

// Plural writes a count and its noun: "1 file", "2 files". The one copy
// for every command's summaries (check, audit, its renderers).
func Plural(n int, word string) string {
	if n == 1 {
		return fmt.Sprintf("%d %s", n, word)
	}
	return fmt.Sprintf("%d %ss", n, word)
}

// ObjectCount counts the objects of the inputs: a document the parser
// skipped counts as the one object its sniffed kind says, so the count
// does not depend on which documents were parsed.
func (r *Report) ObjectCount() int {
	n := 0
	if r.Rendered != nil {
		n = r.Rendered.Objects()
	}
	for _, f := range r.Workspace.Files().All() {
		if f.Template || r.Workspace.Rendering(f) != workspace.NotRendered {
			continue
		}
		for _, d := range f.Docs {
			if d.Parsed() {
				n += len(d.Objects())
			} else if d.Kind != "" {
				n++
			}
		}
	}
	return n
}

// Fingerprint identifies a finding across runs (analyzer.Fingerprint).
func (r *Report) Fingerprint(d analyzer.Diagnostic) string {
	return analyzer.Fingerprint(r.Workspace, d)
}

// ObjectRef identifies an object in JSON outputs.
type ObjectRef struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	Namespace  string `json:"namespace"`
	Name       string `json:"name"`
}

// objectOf identifies a finding's object: its Object, else the object
// whose mapping holds its position; nil when none does.
func (r *Report) objectOf(d analyzer.Diagnostic) *ObjectRef {
	o := d.Object
	if o == nil && d.Rendered != nil {
		return nil // a render's problem: about a chart or kustomization, no object
	}
	if o == nil {
		f := r.Workspace.FileOf(d.Pos)
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
	return r.ObjectRef(o)
}

// ObjectRef identifies an object, with its namespace defaulted as the
// configuration says.
func (r *Report) ObjectRef(o *manifest.Object) *ObjectRef {
	if o == nil {
		return nil
	}
	ns := o.Namespace
	if ns == "" {
		ns = r.Config.For(o.File().Path).Namespace
		if ns == "" {
			ns = "default"
		}
	}
	return &ObjectRef{APIVersion: o.APIVersion, Kind: o.Kind, Namespace: ns, Name: o.Name}
}
