package output

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"go/token"
	"math"
	"sync/atomic"
	"testing"

	"github.com/scalelint/scalelint/analyzer"
	"github.com/scalelint/scalelint/analyzer/manifest"
	"github.com/scalelint/scalelint/analyzer/workspace"
	"github.com/scalelint/scalelint/cmd/scalelint/internal/report"
	"github.com/scalelint/scalelint/rules"
)

// jsonReport is the JSON output's whole document, the reference the
// streamed output is compared with.
type jsonReport struct {
	Version     int              `json:"version"`
	Diagnostics []JSONDiagnostic `json:"diagnostics"`
	Summary     JSONSummary      `json:"summary"`
}

// encoderJSON is v as encoding/json writes it with a two-space indent and
// no HTML escaping: the reference the streaming writers must match.
func encoderJSON(t *testing.T, v any) string {
	t.Helper()
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// consumer is a ScaledObject that hunts (latency-floor) and whose target
// is not among the inputs; name goes into its message.
func consumer(name string) []byte {
	return []byte(fmt.Sprintf(`apiVersion: keda.sh/v1alpha1
kind: ScaledObject
metadata:
  name: %q
  annotations: {scalelint.dev/dead-time: "90s", scalelint.dev/pod-rate: "10"}
spec:
  scaleTargetRef: {name: x}
  triggers:
  - type: kafka
    metadata: {topic: t, lagThreshold: "10"}
---
apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata: {name: h}
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: y}
  maxReplicas: 3
`, name))
}

// reportOf runs the rules over files made of consumer(name) each, as the
// CLI loads them: parsed, then their texts dropped and read again through
// reload (which counts the reads; atomically, as the report reads texts
// ahead on a goroutine of its own).
func reportOf(t *testing.T, names []string, reads *atomic.Int64) *report.Report {
	t.Helper()
	fset := token.NewFileSet()
	var files []*manifest.File
	for i, n := range names {
		data := consumer(n)
		f := manifest.Parse(fset, fmt.Sprintf("f%04d.yaml", i), data, manifest.Options{Eager: manifest.IsReadKind})
		workspace.Prepare(f, true)
		f.DropText(func() ([]byte, error) { reads.Add(1); return data, nil }, true)
		files = append(files, f)
	}
	ws := workspace.New(fset, files, workspace.Options{Release: true})
	shared := analyzer.NewShared()
	cfg := analyzer.DefaultConfig()
	return report.New(ws, analyzer.RunWith(context.Background(), ws, rules.All(), cfg, shared), cfg, shared)
}

// TestJSONMatchesEncoder: the JSON printer writes, a diagnostic at a
// time, byte for byte what encoding/json (the independent reference)
// writes for the whole document, with characters an HTML-escaping encoder
// would change, and with the report's order being (file, line, column).
func TestJSONMatchesEncoder(t *testing.T) {
	for _, names := range [][]string{{`a <b> & "c" é`, "d"}, nil} {
		var reads atomic.Int64
		r := reportOf(t, names, &reads)
		whole := jsonReport{Version: 1, Diagnostics: []JSONDiagnostic{}}
		r.Each(report.ShownFindings, func(f *report.Finding) error {
			d, l := f.Diagnostic, f.Location
			whole.Diagnostics = append(whole.Diagnostics, JSONDiagnostic{File: l.File, Line: l.Line, Column: l.Col, EndLine: l.EndLine,
				EndColumn: l.EndCol, Severity: d.Severity.String(), Rule: d.Rule, Message: d.Message, Object: f.Object,
				Facts: roundFacts(d.Facts), Sources: f.Sources, Source: l.Source})
			return nil
		})
		for i := 1; i < len(whole.Diagnostics); i++ {
			a, b := whole.Diagnostics[i-1], whole.Diagnostics[i]
			if a.File > b.File || a.File == b.File && (a.Line > b.Line || a.Line == b.Line && a.Column > b.Column) {
				t.Errorf("findings out of order: %+v before %+v", a, b)
			}
		}
		c := r.Counts()
		whole.Summary = JSONSummary{Files: r.Workspace.Files().Len(), Objects: r.ObjectCount(), Autoscalers: r.Workspace.Autoscalers().Len(),
			Errors: c.Errors, Warnings: c.Warnings, Infos: c.Infos, Missing: r.Missing()}
		if len(names) > 0 && (len(whole.Diagnostics) == 0 || len(whole.Summary.Missing) == 0) {
			t.Fatalf("the fixture has no findings or no missing inputs: %+v", whole)
		}
		want := encoderJSON(t, whole)
		var got bytes.Buffer
		if err := (JSON{}).Print(&got, r); err != nil {
			t.Fatal(err)
		}
		if got.String() != want {
			t.Errorf("%d files:\nstreamed:\n%s\nencoder:\n%s", len(names), got.String(), want)
		}
	}
}

// firstWrite records how many texts had been read when the first bytes
// arrived.
type firstWrite struct {
	reads *atomic.Int64
	at    int64
	n     int
}

func (w *firstWrite) Write(p []byte) (int, error) {
	if w.n == 0 {
		w.at = w.reads.Load()
	}
	w.n += len(p)
	return len(p), nil
}

// TestJSONStreams: the JSON printer writes findings as it resolves them,
// never holding the whole output: the first bytes reach the writer before
// the last files were read again to resolve their findings.
func TestJSONStreams(t *testing.T) {
	names := make([]string, 400) // well past the 64 KiB the stream buffers
	for i := range names {
		names[i] = fmt.Sprintf("consumer-%d", i)
	}
	var reads atomic.Int64
	r := reportOf(t, names, &reads)
	reads.Store(0)
	w := &firstWrite{reads: &reads}
	if err := (JSON{}).Print(w, r); err != nil {
		t.Fatal(err)
	}
	n := reads.Load()
	if n < int64(len(names)) {
		t.Fatalf("%d files read again for %d files with findings", n, len(names))
	}
	if w.at >= n/2 {
		t.Errorf("the first bytes were written after %d of %d reads: the output was held until most findings were resolved", w.at, n)
	}
}

// An unbounded fact (a rate target T/c that overflowed) is written, as
// "Infinity", not dropped: the message gives it ("rate target ∞%"). Was:
// dropped, JSON having no infinity.
func TestFactsKeepUnboundedValues(t *testing.T) {
	b, err := json.Marshal(roundFacts(map[string]float64{"target": math.Inf(1), "trapTarget": 1.0 / 3}))
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"target":"Infinity","trapTarget":0.333333}`; string(b) != want {
		t.Errorf("facts %s, want %s", b, want)
	}
}
