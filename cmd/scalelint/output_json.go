package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"sort"
)

// jsonDiagnostic is one diagnostic of the JSON output, version 1
// (DESIGN.md "Interfaces users see").
type jsonDiagnostic struct {
	File      string             `json:"file"`
	Line      int                `json:"line"`
	Column    int                `json:"column"`
	EndLine   int                `json:"endLine"`
	EndColumn int                `json:"endColumn"`
	Severity  string             `json:"severity"`
	Rule      string             `json:"rule"`
	Message   string             `json:"message"`
	Object    *objectRef         `json:"object,omitempty"`
	Facts     map[string]float64 `json:"facts,omitempty"`
	Source    string             `json:"source,omitempty"`
}

type jsonSummary struct {
	Files       int           `json:"files"`
	Objects     int           `json:"objects"`
	Autoscalers int           `json:"autoscalers"`
	Errors      int           `json:"errors"`
	Warnings    int           `json:"warnings"`
	Infos       int           `json:"infos"`
	Missing     []missingJSON `json:"missing,omitempty"`
}

type jsonReport struct {
	Version     int              `json:"version"`
	Diagnostics []jsonDiagnostic `json:"diagnostics"`
	Summary     jsonSummary      `json:"summary"`
}

func (r *report) jsonDiagnostics() []jsonDiagnostic {
	out := []jsonDiagnostic{}
	for _, d := range r.shown {
		l := r.locate(d.Pos, d.End)
		out = append(out, jsonDiagnostic{
			File: l.File, Line: l.Line, Column: l.Col, EndLine: l.EndLine, EndColumn: l.EndCol,
			Severity: d.Severity.String(), Rule: d.Rule, Message: d.Message,
			Object: r.objectOf(d), Facts: roundFacts(d.Facts), Source: l.Source,
		})
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.File != b.File {
			return a.File < b.File
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		if a.Column != b.Column {
			return a.Column < b.Column
		}
		return a.Rule < b.Rule
	})
	return out
}

// roundFacts keeps facts readable and stable across platforms: six
// significant digits.
func roundFacts(f map[string]float64) map[string]float64 {
	if len(f) == 0 {
		return nil
	}
	out := make(map[string]float64, len(f))
	for k, v := range f {
		if math.IsInf(v, 0) || math.IsNaN(v) {
			continue
		}
		out[k] = round6(v)
	}
	return out
}

func writeJSON(r *report, w io.Writer, _ bool) error {
	c := r.counts()
	rep := jsonReport{Version: 1, Diagnostics: r.jsonDiagnostics(), Summary: jsonSummary{
		Files: len(r.ws.Files), Objects: r.objectCount(), Autoscalers: len(r.ws.Autoscalers()),
		Errors: c.errors, Warnings: c.warnings, Infos: c.infos,
	}}
	rep.Summary.Missing = r.missing()
	return streamJSON(w, rep)
}

// streamJSON writes the report as json.Encoder with a two-space indent
// would, byte for byte, but one element at a time (each diagnostic, each
// autoscaler's missing inputs): the output of a large repository is never
// held in memory whole.
func streamJSON(w io.Writer, rep jsonReport) error {
	s := newJSONStream(w)
	fmt.Fprintf(s.w, "{\n  \"version\": %d,\n  \"diagnostics\": [", rep.Version)
	if err := s.list(len(rep.Diagnostics), func(i int) any { return rep.Diagnostics[i] }, "    "); err != nil {
		return err
	}
	missing := rep.Summary.Missing
	rep.Summary.Missing = nil // omitted, then written one by one
	b, err := s.value(rep.Summary, "  ")
	if err != nil {
		return err
	}
	s.w.WriteString("],\n  \"summary\": ")
	if len(missing) == 0 {
		s.w.Write(b)
	} else {
		s.w.Write(bytes.TrimSuffix(b, []byte("\n  }")))
		s.w.WriteString(",\n    \"missing\": [")
		if err := s.list(len(missing), func(i int) any { return missing[i] }, "      "); err != nil {
			return err
		}
		s.w.WriteString("]\n  }")
	}
	s.w.WriteString("\n}\n")
	return s.w.Flush()
}

// jsonStream writes JSON as json.Encoder with SetIndent("", "  ") and
// SetEscapeHTML(false) would, one value at a time. Its two buffers are
// reused from value to value, so a long list makes next to no garbage
// (encoding it at once made ~70 MB at 10,000 services, at the run's peak).
type jsonStream struct {
	w                 *bufio.Writer
	compact, indented bytes.Buffer
	enc               *json.Encoder
}

func newJSONStream(w io.Writer) *jsonStream {
	s := &jsonStream{w: bufio.NewWriterSize(w, 64<<10)}
	s.enc = json.NewEncoder(&s.compact)
	s.enc.SetEscapeHTML(false)
	return s
}

// value returns v's JSON indented for a place whose lines start with
// prefix; it is valid until the next call.
func (s *jsonStream) value(v any, prefix string) ([]byte, error) {
	s.compact.Reset()
	if err := s.enc.Encode(v); err != nil {
		return nil, err
	}
	s.indented.Reset()
	if err := json.Indent(&s.indented, bytes.TrimSuffix(s.compact.Bytes(), []byte("\n")), prefix, "  "); err != nil {
		return nil, err
	}
	return s.indented.Bytes(), nil
}

// list writes the n elements of an array whose opening bracket is
// written, each on its own line at prefix, and the line the closing
// bracket goes on.
func (s *jsonStream) list(n int, at func(int) any, prefix string) error {
	for i := 0; i < n; i++ {
		b, err := s.value(at(i), prefix)
		if err != nil {
			return err
		}
		if i > 0 {
			s.w.WriteByte(',')
		}
		s.w.WriteString("\n" + prefix)
		s.w.Write(b)
	}
	if n > 0 {
		s.w.WriteString("\n" + prefix[:len(prefix)-2])
	}
	return nil
}

// objectCount counts the objects of the inputs: a document the parser
// skipped counts as the one object its sniffed kind says, so the count
// does not depend on which documents were parsed.
func (r *report) objectCount() int {
	n := 0
	for _, f := range r.ws.Files {
		if f.Template {
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
