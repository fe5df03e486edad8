package analyzer

import (
	"context"
	"go/token"
	"strings"
	"testing"

	"github.com/scalelint/scalelint/analyzer/manifest"
	"github.com/scalelint/scalelint/analyzer/workspace"
)

// FuzzParseConfig: any configuration text is accepted or refused with an
// error, never a panic; a positioned error names a line of the file.
func FuzzParseConfig(f *testing.F) {
	for _, s := range []string{"rules:\n  latency-floor: {severity: info, margin: 0.2}\n", "defaults:\n  dead-time: 90s\n",
		"exclude: [a, b]\noverrides:\n- paths: [x]\n  rules: {scale-up-rounds: off}\n", "rules: [", "- a\n- b\n", "namespace: {a: 1}\n"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		_, err := ParseConfig("c.yaml", data, testRules)
		// YAML breaks lines at \n, \r\n and \r.
		lines := strings.Count(strings.ReplaceAll(string(data), "\r\n", "\n"), "\n") + strings.Count(strings.ReplaceAll(string(data), "\r\n", "\n"), "\r") + 1
		if ce, ok := err.(*ConfigError); ok && ce.Line > lines {
			t.Fatalf("error on line %d of a %d-line file: %v", ce.Line, lines, err)
		}
	})
}

// FuzzDirectives: suppression directives and annotations in any text are
// parsed and applied without panic, and every diagnostic about them is
// inside the file.
func FuzzDirectives(f *testing.F) {
	for _, s := range []string{"a: 1 # scalelint:ignore latency-floor reason\n", "# scalelint:file-ignore x,y why\nb: 2\n",
		"metadata:\n  annotations:\n    ignore.scalelint.dev/latency-floor: \"\"\n", "x: \"# scalelint:ignore\" # scalelint:ignore\n",
		"# scalelint:ignore\t\t#\n"} {
		f.Add([]byte(s))
	}
	noop := &Analyzer{Name: "latency-floor", Severity: Error, Run: func(p *Pass) error {
		for _, f := range p.Workspace.Files().All() {
			p.Report(Diagnostic{Pos: f.Tok.Pos(0), End: f.Tok.Pos(0), Message: "m"})
		}
		return nil
	}}
	f.Fuzz(func(t *testing.T, data []byte) {
		fset := token.NewFileSet()
		file := manifest.Parse(fset, "d.yaml", data, manifest.Options{})
		ws := workspace.New(fset, []*manifest.File{file}, workspace.Options{})
		for _, d := range Run(context.Background(), ws, []*Analyzer{noop, InvalidSuppression, UnusedSuppression}, nil) {
			if off := file.Tok.Offset(d.Pos); off < 0 || off > len(data) || d.End < d.Pos {
				t.Fatalf("diagnostic outside the file: %+v", d)
			}
		}
	})
}
