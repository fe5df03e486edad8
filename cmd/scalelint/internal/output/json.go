package output

import (
	"bytes"
	"fmt"
	"io"

	"github.com/scalelint/scalelint/cmd/scalelint/internal/report"
	"github.com/scalelint/scalelint/rules/format"
)

// JSON writes the findings and a summary, version 1: one diagnostic at a
// time, as they are resolved.
type JSON struct{}

// JSONDiagnostic is one finding of the JSON output.
type JSONDiagnostic struct {
	File      string                  `json:"file"`
	Line      int                     `json:"line"`
	Column    int                     `json:"column"`
	EndLine   int                     `json:"endLine"`
	EndColumn int                     `json:"endColumn"`
	Severity  string                  `json:"severity"`
	Rule      string                  `json:"rule"`
	Message   string                  `json:"message"`
	Object    *report.ObjectRef       `json:"object,omitempty"`
	Facts     map[string]format.Float `json:"facts,omitempty"`
	// Sources say where the law inputs among Facts came from, by fact
	// name: bound (exact, lower, upper), origin, what an inference read,
	// file and line.
	Sources map[string]report.Source `json:"sources,omitempty"`
	Source  string                   `json:"source,omitempty"`
	// A finding about what a chart or kustomization renders names the
	// chart and its value sets, or the kustomization roots, whose render
	// produced it.
	Chart          string   `json:"chart,omitempty"`
	ValueSets      []string `json:"valueSets,omitempty"`
	Kustomizations []string `json:"kustomizations,omitempty"`
}

// JSONSummary counts what the run read and found.
type JSONSummary struct {
	Files       int `json:"files"`
	Objects     int `json:"objects"`
	Autoscalers int `json:"autoscalers"`
	Errors      int `json:"errors"`
	Warnings    int `json:"warnings"`
	Infos       int `json:"infos"`
	// Skipped counts the files read and set aside: not Kubernetes
	// manifests (--verbose lists them).
	Skipped int `json:"skipped,omitempty"`
	// Configs are the configuration files that governed the inputs.
	Configs []string         `json:"configs,omitempty"`
	Missing []report.Missing `json:"missing,omitempty"`
}

// Print writes the document {"version": 1, "diagnostics": [JSONDiagnostic
// ...], "summary": JSONSummary} as json.Encoder with a two-space indent
// would, byte for byte, but one element at a time (each diagnostic, each
// autoscaler's missing inputs): the output of a large repository is never
// held in memory whole. The findings come in the report's order, by file,
// line and column.
func (JSON) Print(w io.Writer, r *report.Report) error {
	s := NewJSONStream(w)
	fmt.Fprintf(s.W, "{\n  \"version\": %d,\n  \"diagnostics\": [", 1)
	// Each finding is resolved and encoded on one of the cores, and
	// written in order (report.Render).
	err := r.Render(report.ShownFindings, s.W, func() report.Renderer {
		enc := NewJSONEncoder()
		return func(i int, f *report.Finding, buf *bytes.Buffer) error {
			jd := jsonDiagnostic(f)
			return enc.AppendDiagnostic(buf, i, &jd, "    ")
		}
	})
	s.Elements(len(r.Shown))
	if err != nil {
		return err
	}
	s.EndList("    ")
	c := r.Counts()
	return writeSummary(s, JSONSummary{Files: r.Files(), Objects: r.ObjectCount(), Autoscalers: r.Autoscalers(),
		Errors: c.Errors, Warnings: c.Warnings, Infos: c.Infos, Skipped: len(r.Inputs.Skipped), Configs: r.Inputs.ConfigFiles}, r.Missing())
}

// jsonDiagnostic is a finding as the JSON output writes it.
func jsonDiagnostic(f *report.Finding) JSONDiagnostic {
	d, l := f.Diagnostic, f.Location
	jd := JSONDiagnostic{
		File: l.File, Line: l.Line, Column: l.Col, EndLine: l.EndLine, EndColumn: l.EndCol,
		Severity: d.Severity.String(), Rule: d.Rule, Message: d.Message,
		Object: f.Object, Facts: roundFacts(d.Facts), Sources: f.Sources, Source: l.Source,
	}
	if rd := d.Rendered; rd != nil {
		if rd.Kind == "kustomize" {
			jd.Kustomizations = rd.Sets
		} else {
			jd.Chart, jd.ValueSets = rd.Root, rd.Sets
		}
	}
	return jd
}

// writeSummary ends the document with the summary, its missing inputs
// written one autoscaler at a time.
func writeSummary(s *JSONStream, sum JSONSummary, missing []report.Missing) error {
	b, err := s.Value(sum, "  ") // without Missing: omitted, then written one by one
	if err != nil {
		return err
	}
	s.W.WriteString("],\n  \"summary\": ")
	if len(missing) == 0 {
		s.W.Write(b)
	} else {
		s.W.Write(bytes.TrimSuffix(b, []byte("\n  }")))
		s.W.WriteString(",\n    \"missing\": [")
		if err := ElementsOf(s, missing, "      "); err != nil {
			return err
		}
		s.EndList("      ")
		s.W.WriteString("]\n  }")
	}
	s.W.WriteString("\n}\n")
	return s.Flush()
}

// roundFacts keeps facts readable and stable across platforms: six
// significant digits. An unbounded fact (a standing delay T/c that
// overflowed) is kept, written "Infinity" (format.Float): JSON has no
// infinity, and dropping the fact hid the very number the message gives.
func roundFacts(f map[string]float64) map[string]format.Float {
	if len(f) == 0 {
		return nil
	}
	out := make(map[string]format.Float, len(f))
	for k, v := range f {
		out[k] = format.JSONSig(v)
	}
	return out
}
